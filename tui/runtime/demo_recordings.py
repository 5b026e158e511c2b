"""Where the offline demo finds a plugin's recorded answers (`--demo` answers every request from recordings).

A plugin's own `tests/*.yaml` come first. An installed copy keeps only the files the plugin loads, so a plugin the
student installed from a local folder — a draft the assistant wrote with them, an author's working folder — has
none; the demo then reads the recordings of the folder it was installed from, while that folder is there and is
still this plugin. Without this, the widget of a plugin the demo assistant had just written and installed said
"the demo has no recording of this request" although its draft held one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tui.lang.documents.loader import split_frontmatter
from tui.lang.documents.source import DirectorySource, PluginSource, SourceError
from tui.lang.documents.yamlsafe import load_yaml
from tui.runtime.plugins import InstallRecord
from tui.runtime.plugins.report import recorded_test_files
from tui.runtime.registry import InstalledPlugin


def demo_recordings(
    installed: InstalledPlugin, folder: Path | None, record_of: Callable[[str], InstallRecord | None]
) -> tuple[PluginSource, list[str]]:
    """The source to read recordings from and the recorded test files in it, for one run in the demo.

    Args:
        installed: the plugin as it runs.
        folder: its folder on disk (None for a plugin without one).
        record_of: the install record of a plugin id (where it was installed from).
    """
    tests = recorded_test_files(folder) if folder is not None else []
    if tests:
        return installed.source, tests
    pid = installed.plugin.manifest.id
    record = record_of(pid)
    origin = Path(record.source) if record is not None and Path(record.source).is_absolute() else None
    if origin is None or origin.is_symlink() or not origin.is_dir():
        return installed.source, tests
    found = recorded_test_files(origin)
    if found and _manifest_id(DirectorySource(origin)) == pid:
        return DirectorySource(origin), found
    return installed.source, tests


def _manifest_id(source: PluginSource) -> str | None:
    """The `id:` of a folder's PLUGIN.md, or None when it has none that reads."""
    try:
        parts = split_frontmatter(source.read_bytes("PLUGIN.md").decode("utf-8"))
    except (SourceError, OSError, UnicodeDecodeError):
        return None
    read = load_yaml(parts[0], "PLUGIN.md")[0] if parts else None
    data = read.data if read is not None else None
    return data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
