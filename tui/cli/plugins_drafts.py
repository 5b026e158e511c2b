"""`pku-harness plugins drafts` and `plugins draft …`: the plugin drafts the assistant writes, from the command line,
so a student can go on in an editor. Thin: every command calls the same services as the assistant's draft tools
(`tui.runtime.plugins.drafts`, `.report`) and the author's commands (`plugin validate|test`, `widget preview`,
`plugins install`)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import click

from tui.cli.output import confirm, echo, echo_json, fail, line, pad
from tui.runtime.message import Message, message_of
from tui.runtime.plugins.drafts import DraftError, Drafts


def _drafts() -> Drafts:
    """The drafts of the app's data directory, with the built-in plugins' ids refused (no runtime is opened)."""
    from tui.runtime.builtin import builtin_folders
    from tui.runtime.store import default_path

    return Drafts(default_path().parent / "drafts", {f.name for f in builtin_folders()})


def _folder(draft: str) -> Path:
    try:
        return _drafts().folder(draft)
    except DraftError as e:
        raise fail(message_of(e)) from None


@click.command("drafts")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def drafts_list(as_json: bool) -> None:
    """Plugin drafts: id, files, bytes, last change and the manifest's name."""
    found = _drafts().all()
    if as_json:
        echo_json(
            [
                {"id": d.id, "name": d.name, "files": d.files, "bytes": d.bytes, "modifiedMs": d.modified_ms}
                for d in found
            ]
        )
        return
    if not found:
        echo(Message("drafts_none", command="pku-harness plugins draft new ID"))
        return
    for d in found:
        when = datetime.fromtimestamp(d.modified_ms / 1000).isoformat(sep=" ", timespec="minutes")
        files = "file " if d.files == 1 else "files"
        size = f"{pad(d.files, 3, right=True)} {files} {pad(d.bytes, 7, right=True)} B"
        line(f"{pad(d.id, 20)} {size}  {when}  {d.name or ''}")


@click.group("draft")
def draft() -> None:
    """Work on one plugin draft: new, validate, test, preview, install, path, discard."""


@draft.command("new")
@click.argument("draft_id", metavar="ID")
@click.option("--name", help="The plugin's name (default: ID).")
@click.option("--author", default="me", show_default=True, help="Who writes it.")
def draft_new(draft_id: str, name: str | None, author: str) -> None:
    """Start a draft ID with a PLUGIN.md that validates (no tools yet)."""
    try:
        folder = _drafts().new(draft_id, name, author)
    except DraftError as e:
        raise fail(message_of(e)) from None
    echo(Message("draft_created", draft=draft_id, folder=str(folder)))


@draft.command("path")
@click.argument("draft_id", metavar="ID")
def draft_path(draft_id: str) -> None:
    """Print the draft's folder (to open it in an editor)."""
    echo(str(_folder(draft_id)))


@draft.command("validate")
@click.argument("draft_id", metavar="ID")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    help="json: {ok, plugin, problems: [{file, line, column, code, severity, message, hint}]} on stdout.",
)
def draft_validate(draft_id: str, fmt: str) -> None:
    """Check the draft the way installing does (as `plugin validate` on its folder)."""
    from tui.cli.plugin_docs import validate_cmd

    validate_cmd(str(_folder(draft_id)), fmt)


@draft.command("test")
@click.argument("draft_id", metavar="ID")
def draft_test(draft_id: str) -> None:
    """Replay the draft's recorded tests (as `plugin test` on its folder)."""
    from tui.cli.plugin_docs import test_cmd

    test_cmd(str(_folder(draft_id)))


@draft.command("preview", context_settings={"ignore_unknown_options": True})
@click.argument("draft_id", metavar="ID")
@click.argument("rest", nargs=-1, type=click.UNPROCESSED, metavar="[WIDGET] [OPTIONS]")
@click.pass_context
def draft_preview(ctx: click.Context, draft_id: str, rest: tuple[str, ...]) -> None:
    """Show the draft's widgets (or WIDGET) beside its problems, live (as `widget preview` on its folder; every
    option of `widget preview` is taken)."""
    from tui.cli.main import widget_preview

    folder = _folder(draft_id)
    sub = widget_preview.make_context("preview", [str(folder), *rest], parent=ctx)
    with sub:
        widget_preview.invoke(sub)


@draft.command("install")
@click.argument("draft_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Install without asking (the review is still printed).")
def draft_install(draft_id: str, yes: bool) -> None:
    """Install the draft through the normal review (as `plugins install` of its folder); the draft stays. A draft
    installed before is updated from its folder (as `plugins update`)."""
    from tui.cli.plugins import _install, _installer, plugins_update

    folder = str(_folder(draft_id))
    installed = next((r for r in _installer().records() if r.source == folder), None)
    if installed is not None:  # installed from this draft before: installing it again is its update
        plugins_update.callback(installed.id, False, yes, ())  # type: ignore[misc]
    else:
        _install(folder, yes)
    echo(Message("draft_kept"))


@draft.command("discard")
@click.argument("draft_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Do not ask.")
def draft_discard(draft_id: str, yes: bool) -> None:
    """Remove the draft and all its files."""
    drafts = _drafts()
    _folder(draft_id)
    asked = Message("draft_discard_ask", draft=draft_id)
    if not yes and not (sys.stdin.isatty() and confirm(asked, default=False)):
        raise fail(Message("draft_not_discarded", draft=draft_id))
    try:
        drafts.discard(draft_id)
    except DraftError as e:
        raise fail(message_of(e)) from None
    echo(Message("draft_discarded", draft=draft_id))
