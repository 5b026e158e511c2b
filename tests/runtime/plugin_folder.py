"""Write small plugin folders for tests that load them like a student's installed plugin (`Runtime.open(extra=…)`)."""

from __future__ import annotations

from pathlib import Path


def write_plugin(
    root: Path, plugin_id: str, tools: dict[str, str], manifest: str = "", recordings: dict[str, str] | None = None
) -> Path:
    """A plugin folder `root/<id>` with the given tool files (name → YAML), extra manifest lines (`network: …`)
    and recorded tests (tool name → test YAML, which `--demo` answers requests from).

    Keep `root` away from `<data>/plugins` (the runtime's own folder of installed versions)."""
    folder = root / plugin_id
    (folder / "tools").mkdir(parents=True)
    lines = "".join(f"  {name}: tools/{name}.yaml\n" for name in tools)
    (folder / "PLUGIN.md").write_text(
        f"---\nspec: 1\nid: {plugin_id}\nname: {plugin_id}\ndescription: A plugin written by a test.\n"
        f"version: 1.0.0\nauthor: tests\n{manifest}tools:\n{lines}---\nA test plugin.\n",
        encoding="utf-8",
    )
    for name, text in tools.items():
        (folder / "tools" / f"{name}.yaml").write_text(text, encoding="utf-8")
    if recordings:
        (folder / "tests").mkdir()
        for name, text in recordings.items():
            (folder / "tests" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def tool(steps: str, effect: str = "read", inputs: str = "", extra: str = "") -> str:
    """A tool file around the given steps (YAML, indented by two)."""
    return f"title: T\ndescription: A test tool.\neffect: {effect}\n{extra}{inputs}steps:\n{steps}"
