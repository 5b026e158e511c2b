"""Where the official plugins shipped in the package are: a module of its own, so that `plugin validate` can tell
an official folder from another without importing the whole runtime (`tui.runtime.runtime` re-exports it)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def builtin_folders() -> list[Path]:
    """The official plugins shipped in the package (plugins_builtin/<id>/PLUGIN.md)."""
    root = resources.files("plugins_builtin")
    return sorted(Path(str(p)) for p in root.iterdir() if p.is_dir() and (p / "PLUGIN.md").is_file())
