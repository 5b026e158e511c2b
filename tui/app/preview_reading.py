"""What `widget preview` reads from disk, without Textual: the plugin as far as it loads with every problem the
validator finds, the widgets and screens asked for by name, the `--data` file, and the files watched for saves.

Nothing here raises on what an author can write: a half-saved file, a deleted manifest or a file that is not
UTF-8 is a problem to show. Only a bug of the app itself can raise, and the caller shows that too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tui.app.i18n import t
from tui.lang.documents.jsontext import explain_json_error
from tui.lang.documents.loader import Loader, Plugin
from tui.lang.documents.problems import DocumentError, Problem
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.documents.yamlsafe import load_yaml

#: Files looked at for saves, at most (a plugin may load 512 KB; a folder of thousands of files is not a plugin).
MAX_WATCHED = 2000


@dataclass
class Reading:
    """One read of the plugin folder."""

    plugin: Plugin | None
    """What loaded: the whole plugin, or with errors the parts that load (None: not even the manifest)."""
    valid: bool
    """No errors (warnings allowed): its tools may run, so its data sources are read."""
    problems: list[Problem]
    """Every problem the validator finds, as `plugin validate` lists them."""


def read_plugin(folder: Path) -> Reading:
    """The plugin in `folder` as the app would check it, and what of it loads despite its errors."""
    source = DirectorySource(folder)
    plugin, problems = validate(source)
    if plugin is not None:
        return Reading(plugin, True, problems)
    try:  # the validator keeps only a valid plugin; the preview shows whatever parts load
        partial: Plugin | None = Loader(source).load()
    except DocumentError as e:
        partial = e.partial
    return Reading(partial, False, problems)


@dataclass(frozen=True)
class Target:
    """A widget or a screen of the plugin to show."""

    kind: Literal["widget", "screen"]
    name: str


def declared(plugin: Plugin) -> tuple[list[str], list[str]]:
    """The plugin's widget and screen names, as its manifest lists them (a spec that did not load included)."""
    widgets = list(dict.fromkeys([*plugin.manifest.widgets, *plugin.widgets]))
    screens = list(dict.fromkeys([*plugin.manifest.screens, *plugin.screens]))
    return widgets, screens


def choose(plugin: Plugin, name: str | None) -> list[Target] | None:
    """What to show for `name`: that widget, else that screen (`widget:NAME` or `screen:NAME` when a widget and
    a screen share it); without a name every widget, or every screen when there are no widgets. None: no such
    name."""
    widgets, screens = declared(plugin)
    if name is None:
        if widgets:
            return [Target("widget", w) for w in widgets]
        return [Target("screen", s) for s in screens]
    kind, _, bare = name.partition(":") if name.startswith(("widget:", "screen:")) else ("", "", name)
    if kind in ("", "widget") and bare in widgets:
        return [Target("widget", bare)]
    if kind in ("", "screen") and bare in screens:
        return [Target("screen", bare)]
    return None


@dataclass(frozen=True)
class Finding:
    """One entry of the problems list: where, how bad, what is wrong and what helps."""

    where: str
    """`file:line:column` as far as known; '' for what the preview itself says."""
    severity: Literal["error", "warning", "note", "render"]
    """`render`: a template that failed while the spec was resolved on its data (not a validation problem)."""
    message: str
    hint: str = ""


def finding(problem: Problem) -> Finding:
    """A validator's problem as an entry, its code after its message. Its advice (after '; ', or the lines that
    point at the column of an expression) is the hint."""
    first, _, excerpt = problem.text.partition("\n")
    message, _, advice = first.partition("; ")
    hint = "\n".join(part for part in (advice, excerpt) if part)
    code = f" [{problem.code}]" if problem.code else ""
    return Finding(problem.where if problem.file else "", problem.severity, message + code, hint)


def render_findings(plugin: Plugin, file: str, warnings: list[str]) -> list[Finding]:
    """The resolver's warnings (`/body/children/0/text: TypeError: …`, a template that failed on the data) as
    entries at the line and column of the prop in the spec's file; the component's JSON path is the hint."""
    out: list[Finding] = []
    located = None
    for said in dict.fromkeys(warnings):
        pointer, _, message = said.partition(": ")
        if not pointer.startswith("/"):
            pointer, message = "", said
        if located is None:
            located, _ = load_yaml(plugin.files.get(file, ""), file)  # JSON is YAML: it knows every value's line
        parts = tuple(int(p) if p.isdigit() else p for p in pointer.split("/")[1:])
        line, column = located.pos(parts) if located is not None and parts else (None, None)
        where = file + (f":{line}" if line else "") + (f":{column}" if line and column else "")
        out.append(Finding(where, "render", message, pointer))
    return out


def no_such(plugin: Plugin, name: str, locale: str) -> Finding:
    """A name the plugin has neither as a widget nor as a screen, with what it has."""
    widgets, screens = declared(plugin)
    none = t("preview_none", locale)
    choices = t("preview_choices", locale).format(
        widgets=", ".join(widgets) or none, screens=", ".join(screens) or none
    )
    return Finding("", "error", t("preview_no_such", locale).format(name=name), choices)


def read_data(path: Path) -> tuple[Any, Problem | None]:
    """The `--data` file's JSON, or the problem with it at its line and column (an editor's half-written save)."""
    text = ""
    try:
        text = path.read_bytes().decode("utf-8")
        return json.loads(text), None
    except json.JSONDecodeError as e:
        said = explain_json_error(text, e)
        return None, Problem(str(path), said.line, said.message, column=said.column, hint=said.hint)
    except UnicodeDecodeError as e:
        return None, Problem(str(path), None, f"not UTF-8 text (byte {e.start + 1})")
    except RecursionError:
        return None, Problem(str(path), None, "JSON nested too deeply")
    except OSError as e:
        return None, Problem(str(path), None, f"cannot be read ({e.strerror})")


Stamps = dict[str, tuple[int, int]]
"""Each watched file's modification time (ns) and size, by path."""


def stamps(folder: Path, data: Path | None) -> Stamps:
    """The watched files as they are now: every file of the plugin folder but hidden ones (an editor's swap file
    changes while the author types, not when they save), and the data file. A file that goes away while it is
    looked at, or a folder that cannot be read, is simply not there."""
    out: Stamps = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if len(out) >= MAX_WATCHED:
                return out
            if not name.startswith(".") and not name.endswith("~"):
                _stamp(out, os.path.join(root, name))
    if data is not None:
        _stamp(out, str(data))
    return out


def _stamp(out: Stamps, path: str) -> None:
    try:
        st = os.stat(path)
    except OSError:
        return  # deleted between the listing and the look (a save that replaces the file)
    out[path] = (st.st_mtime_ns, st.st_size)
