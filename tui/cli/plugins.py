"""`pku-harness plugins …` and `pku-harness open LINK`: installing, updating, rolling back and removing plugins."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import datetime
from typing import Any

import click

from tui.cli.output import confirm, echo, echo_json, fail, line, pad
from tui.cli.plugin_settings import plugin_settings
from tui.cli.plugins_drafts import draft, drafts_list
from tui.cli.remote_tools import (
    effect_option,
    login_first,
    parse_effects,
    review_waiting,
    reviewed,
    unknown_effects,
    waiting_text,
    with_effects,
)
from tui.cli.review_text import install_text, update_text
from tui.cli.tools import _open
from tui.runtime.message import Message
from tui.runtime.plugins import Installer, InstallError, InstallRecord, LinkError, check_https, endpoints
from tui.runtime.settings import write_setting


def _installer() -> Installer:
    from tui.cli.dev import env_origins

    rt = _open(())
    # a remote plugin's server may be an author's local one: the mapping applies to its declared host only
    rt.map_origins(env_origins())
    return Installer(rt)


@click.group()
def plugins() -> None:
    """Install plugins from links, update, roll back and remove them."""


@plugins.command("install")
@click.argument("link")
@click.option("--yes", is_flag=True, help="Install without asking (the review is still printed).")
@effect_option
def plugins_install(link: str, yes: bool, effects: tuple[str, ...]) -> None:
    """Install a plugin from LINK (GitHub folder, repository, file, PLUGIN.md URL, pkuharness:// or a folder)."""
    _install(link, yes, effects)


def _install(link: str, yes: bool, effect_values: tuple[str, ...] = ()) -> None:
    effects = parse_effects(effect_values)
    inst = _installer()
    try:
        prepared = inst.prepare(link)
    except InstallError as e:
        raise fail(e) from None
    remote = prepared.review.remote
    shown = replace(prepared.review, remote=with_effects(remote, effects)) if remote is not None else prepared.review
    echo(install_text(shown))  # the effects printed are the ones the install will use
    if effects and remote is not None and remote.state == "needs_login":
        raise fail(f"{login_first(remote.plugin_id)}: install without --effect, log in, then `plugins update`")
    if effects and (remote is None or not remote.listed):
        raise fail("--effect is for a remote plugin whose server listed its tools")
    if remote is not None and (unknown := unknown_effects(remote, effects)):
        raise fail(f"the server has no tool {', '.join(unknown)} (--effect)")
    if not yes:
        if not sys.stdin.isatty():
            raise fail("not installed: nobody to ask (run it in a terminal, or pass --yes)")
        if not confirm("\nInstall it?", default=False):
            echo("not installed")
            return
    record = inst.install(prepared, effects)
    echo(f"installed {record.id} {record.current.version}")


@plugins.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def plugins_list(as_json: bool) -> None:
    """Built-in and installed plugins, with version, source, where a built-in one runs from and update state."""
    rt = _open(())
    inst = Installer(rt)
    records = {r.id: r for r in inst.records()}
    rows: list[dict[str, Any]] = []
    for pid, installed in sorted(rt.registry.plugins.items()):
        r = records.get(pid)
        builtin = pid in rt.builtin_versions
        used = inst.in_use(r) if r else None
        fetched = used is not None and not used.builtin
        rows.append(
            {
                "id": pid,
                "version": installed.plugin.manifest.version,
                "official": installed.official,
                "source": "built-in" if builtin else (r.source if r else "folder"),
                # a built-in plugin runs its copy shipped with the app, or a newer version fetched from its link
                "runsFrom": ("fetched" if fetched else "built-in copy") if builtin else None,
                "builtinVersion": rt.builtin_versions.get(pid),
                "link": r.source if r else None,
                "commit": used.commit if used else None,
                "hash": (used.hash or None) if used else None,
                "autoUpdate": r.auto_update if r else None,
                "pending": r.pending.version if r and r.pending else None,
                "previous": _previous(inst, r) if r else None,
                "installed": _when(r.installed_ms) if r and (fetched or not builtin) else None,
            }
        )
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        extra = []
        if row["pending"]:
            extra.append(f"update {row['pending']} waits for approval")
        if row["autoUpdate"] is False:
            extra.append("auto-update off")
        kind = "official " if row["official"] else "community"
        note = f"  ({'; '.join(extra)})" if extra else ""
        source = row["source"]
        if row["runsFrom"] == "fetched":
            source = f"built-in, fetched from {row['link']} (built-in copy {row['builtinVersion']})"
        elif row["runsFrom"]:
            source = "built-in copy"
        line(f"{pad(row['id'], 14)} {pad(row['version'], 9)} {kind} {source}{note}")
    for error in rt.load_errors:
        echo(f"not loaded: {error}", err=True)


def _previous(inst: Installer, record: InstallRecord) -> str | None:
    """What a rollback would return to: a version, `built-in copy`, or None (nothing to go back to)."""
    target = inst.rollback_target(record)
    return None if target is None else "built-in copy" if target.builtin else target.version


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000).isoformat(timespec="seconds")


@plugins.command("update")
@click.argument("plugin_id", required=False)
@click.option("--check", is_flag=True, help="Only say what would change.")
@click.option("--yes", is_flag=True, help="Also accept updates that widen the scope (after printing them).")
@effect_option
def plugins_update(plugin_id: str | None, check: bool, yes: bool, effects: tuple[str, ...]) -> None:
    """Check one plugin (or all, built-in ones too) for updates and apply those that keep the scope. A remote
    plugin's server is asked for its tools too: new or changed ones wait for approval like a wider scope."""
    chosen = parse_effects(effects)
    inst = _installer()
    ids = [plugin_id] if plugin_id else [r.id for r in inst.records()]
    failed = False
    for pid in ids:
        try:
            outcome = inst.check(pid, apply=not check)
        except InstallError as e:
            raise fail(e) from None
        remote = pid in inst.runtime.registry.plugins and pid in inst.runtime.remote.plugin_ids()
        rt: Any = inst.runtime  # the installer's view of the runtime; the remote servers are the full one's
        waiting = waiting_text(reviewed(rt, pid)) if check and remote and outcome.status == "same" else ""
        echo(f"{pid}: {waiting} (`pku-harness plugins update {pid}` shows them)" if waiting else outcome.message)
        if outcome.review is not None and outcome.status != "same":
            echo(update_text(outcome.review))
        if outcome.status in ("paused", "waiting"):
            _approve(inst, pid, yes)
        failed |= outcome.status == "error"
        if not check and remote:
            review_waiting(inst.runtime, pid, yes, chosen)  # type: ignore[arg-type]
    if failed:
        sys.exit(1)


def _approve(inst: Installer, pid: str, yes: bool) -> None:
    if yes or (sys.stdin.isatty() and confirm("Accept the wider scope?", default=False)):
        echo(inst.accept(pid).message)
    elif sys.stdin.isatty():  # an explicit no is remembered: this version is not asked about again
        inst.decline(pid)
        echo(f"kept {pid} as it was")
    else:  # nobody to ask: decide nothing
        echo(f"the update waits for approval: `pku-harness plugins update {pid} --yes`, or accept it in the app")


@plugins.command("rollback")
@click.argument("plugin_id")
def plugins_rollback(plugin_id: str) -> None:
    """Go back to the previous version (with its permissions, never looser than now)."""
    inst = _installer()
    try:
        record = inst.rollback(plugin_id)
    except InstallError as e:
        raise fail(e) from None
    echo(f"rolled back {plugin_id} to {record.current.version}")


@plugins.command("remove")
@click.argument("plugin_id")
@click.option("--yes", is_flag=True, help="Do not ask.")
def plugins_remove(plugin_id: str, yes: bool) -> None:
    """Uninstall a plugin: its files, permissions and stored data go."""
    inst = _installer()
    if plugin_id in inst.runtime.builtin_versions:
        raise fail(Message("remove_builtin", id=plugin_id))
    if inst.installs.get(plugin_id) is None:
        raise fail(f"{plugin_id!r} is not an installed plugin")
    if not yes and not (sys.stdin.isatty() and confirm(f"Remove {plugin_id} and its data?", default=False)):
        raise fail("not removed (pass --yes to remove without asking)")
    inst.remove(plugin_id)
    echo(f"removed {plugin_id}")


@plugins.command("auto-update")
@click.argument("state", type=click.Choice(["on", "off"]))
@click.argument("plugin_id", required=False)
def plugins_auto_update(state: str, plugin_id: str | None) -> None:
    """Turn automatic updates on or off, for one plugin or (without PLUGIN_ID) for all."""
    inst = _installer()
    try:
        inst.set_auto_update(plugin_id, state == "on")
    except InstallError as e:
        raise fail(e) from None
    echo(f"automatic updates {state}" + (f" for {plugin_id}" if plugin_id else ""))


@plugins.command("endpoints")
@click.option("--github-api", help="Base URL of the GitHub API (a mirror, or a loopback server for tests).")
@click.option("--github-raw", help="Base URL of GitHub's raw file host.")
@click.option("--reset", is_flag=True, help="Back to api.github.com and raw.githubusercontent.com.")
def plugins_endpoints(github_api: str | None, github_raw: str | None, reset: bool) -> None:
    """Show or set where GitHub links are fetched from (https, or http to a loopback address)."""
    rt = _open(())
    for key, value in (("github_api", github_api), ("github_raw", github_raw)):
        if reset:
            write_setting(rt.store, key, None)
        elif value is not None:
            try:
                check_https(value)
            except LinkError as e:
                raise fail(str(e)) from None
            write_setting(rt.store, key, value.rstrip("/"))
    shown = endpoints(rt)
    echo(f"github api: {shown.github_api}\ngithub raw: {shown.github_raw}")


@click.command("open")
@click.argument("link")
@click.option("--yes", is_flag=True, help="Install without asking (the review is still printed).")
def open_link(link: str, yes: bool) -> None:
    """Open a pkuharness:// link (today: pkuharness://plugin?src=… installs a plugin)."""
    if not link.lower().startswith("pkuharness:"):
        raise fail("open takes a pkuharness:// link; for other links use `plugins install`")
    _install(link, yes)


plugins.add_command(plugin_settings)
plugins.add_command(drafts_list)
plugins.add_command(draft)
