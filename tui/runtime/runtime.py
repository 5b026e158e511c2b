"""Wires the headless services together: store, registry, grants, audit, secrets and the gate.

The app, the CLI and the tests build the runtime the same way (`Runtime.open`), so every caller meets the same
gate. `demo=True` answers plugin requests from their recorded tests instead of the network.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.expr import beijing_now
from tui.lang.host import Host, HostError
from tui.lang.testing.demo import demo_host
from tui.runtime.abilities import Abilities, PersonUi
from tui.runtime.audit import Audit
from tui.runtime.builtin import builtin_folders as builtin_folders  # re-exported: callers import it from here
from tui.runtime.campus.session import CampusSession
from tui.runtime.datasources import DataSources
from tui.runtime.demo_recordings import demo_recordings
from tui.runtime.dev_origins import DevOrigin, DevOriginError, DevRoutes, check_declared, describe
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.gate import Approver, Gate
from tui.runtime.host_drafts import add_draft_tools
from tui.runtime.host_plugins import dashboard_plugin, memory_plugin, plugins_plugin, scheduler_plugin
from tui.runtime.kv import SqliteKv
from tui.runtime.layout import DashboardLayout
from tui.runtime.offload import Offload
from tui.runtime.permissions import Grants
from tui.runtime.plugin_cache import PluginCache, collector_paused
from tui.runtime.plugin_host import PluginHost
from tui.runtime.plugin_settings import PluginSettings
from tui.runtime.plugins import (
    Drafts,
    InstallChoice,
    Installer,
    InstallError,
    Installs,
    PluginFetcher,
    RemoteServers,
    fetched_in_use,
    keyring_auth,
    no_auth,
)
from tui.runtime.plugins.report import recorded_test_files as recorded_test_files  # re-exported
from tui.runtime.registry import InstalledPlugin, Registry
from tui.runtime.scheduler.notices import Notices
from tui.runtime.secrets import Secrets, scrub_logs
from tui.runtime.settings import AppSettings
from tui.runtime.store import Store


class PluginLoadError(Exception):
    """A plugin folder given to the runtime does not validate."""


#: The clock of `--demo`: the day and hour the official plugins' recordings were made (a test keeps it so), so
#: "today", "this week" and "next bus" agree with the recorded data on any day the demo is run.
DEMO_NOW = "2026-11-30T12:00:00+08:00"


def data_folder(store: Store, name: str) -> Path:
    """A folder of the app's data beside the database (a temporary folder for `:memory:`)."""
    if store.path == ":memory:":
        import shutil
        import tempfile
        import weakref

        folder = Path(tempfile.mkdtemp(prefix=f"pku-harness-{name}-"))
        # The folder lives as long as the store it belongs to (and is gone at exit): a store in memory leaves
        # nothing behind on disk — the suite had left 1,324 of these in /tmp.
        weakref.finalize(store, shutil.rmtree, folder, ignore_errors=True)
        return folder
    return Path(store.path).parent / name


def plugins_root(store: Store) -> Path:
    """Where installed plugins' version folders live: `<data dir>/plugins`."""
    return data_folder(store, "plugins")


def declared_hosts(installed: InstalledPlugin) -> list[str]:
    """The hosts a plugin declares, which an author's dev origin may map: its `network` and its MCP server's."""
    m = installed.plugin.manifest
    if m.remote is None:
        return list(m.network)
    import httpx

    return [*m.network, httpx.URL(m.remote.mcp).host]


class Runtime:
    """Everything a caller needs to run tools through the one gate."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        demo: bool = False,
        approver: Approver | None = None,
        ui: PersonUi | None = None,
        offload: bool = False,
        dev_origins: tuple[DevOrigin, ...] = (),
    ) -> None:
        self.store = store
        self.registry = registry
        self.demo = demo
        self.demo_verified: dict[str, dict[str, int]] = {}
        """In demo mode, per plugin, what a verification unlocked (see `RecordedHost.verified`), for the session."""
        self.secrets = Secrets()
        scrub_logs(self.secrets)  # request lines logged by httpx may carry an SSO token
        self.campus = CampusSession(store, self.secrets)
        self.abilities = Abilities(store, self.secrets, ui, self.campus)
        self.abilities.find_tool = registry.find
        self.grants = Grants(store)
        self.audit = Audit(store)
        self.dev_origins: tuple[DevOrigin, ...] = ()
        """An author's mappings of declared hosts to loopback servers (dev_origins.py); () in normal use."""
        # the logins kept in keyring (never the demo's: it touches no account of the student's)
        self.remote = RemoteServers(registry, store, auth=no_auth if demo else keyring_auth(self.secrets))
        """Remote plugins' MCP servers, connected when first needed (plugins/remote_servers.py)."""
        self.map_origins(dev_origins)
        self.kv = SqliteKv(store)
        self.settings = AppSettings(store)
        self.plugin_settings = PluginSettings(store)
        self.layout = DashboardLayout(store)
        self.folders: dict[str, Path] = {}
        self.builtin_ids: set[str] = set()
        self.builtin_versions: dict[str, str] = {}
        """Each built-in plugin's version as shipped: the floor a version fetched from its link must be newer than."""
        self.installs = Installs(store, plugins_root(store))
        self.plugin_cache = PluginCache.for_store(store)
        """Validated plugins kept between starts (plugin_cache.py): built-in and installed ones load from it."""
        self.load_errors: list[str] = []
        """Installed plugins that did not load at start (the app shows them; it never fails to start for one)."""
        self.ui = ui
        self.plugin_fetcher: PluginFetcher | None = None
        """The installer's fetcher when not the default (tests serve plugins through their own transport)."""
        self.offload = Offload() if offload else None
        """Worker threads for plugin computation (the app: its event loop stays free for keys and paints)."""
        self.gate = Gate(
            registry, self.grants, self.audit, self.host_for, approver, self.secrets, self.offload, self.plugin_settings
        )
        self.gate.remote = self.remote
        self.sources = DataSources(self.gate, store)
        self.notices = Notices(store, desktop=not demo)
        self.abilities.notices = self.notices  # a plugin's assistant task tells the student it waits for approval
        self.drafts = Drafts(data_folder(store, "drafts"), self.builtin_ids)
        """Plugin drafts, `<data dir>/drafts/<id>` (plugins/drafts.py): the assistant's and `plugins draft`'s."""
        plugins_host = plugins_plugin(self.install_from_link, self.find_tools)
        add_draft_tools(plugins_host, self)
        for host in (
            memory_plugin(store),
            scheduler_plugin(self.abilities),
            dashboard_plugin(self.sources),
            plugins_host,
        ):
            registry.add_host(host)

    @classmethod
    def open(
        cls,
        db: str | Path | None = None,
        extra: list[Path] | None = None,
        demo: bool = False,
        locale: str = "zh",
        approver: Approver | None = None,
        ui: PersonUi | None = None,
        offload: bool = False,
        dev_origins: tuple[DevOrigin, ...] = (),
    ) -> Runtime:
        """The runtime with the built-in plugins and any extra plugin folders (for authors), validated.

        With `offload`, plugin computation runs on worker threads (the app sets it). `dev_origins` map hosts a
        loaded plugin declares to loopback servers, for that plugin's runs (also in demo mode: it runs live).

        Raises:
            PluginLoadError: an extra folder does not validate.
            DevOriginError: a mapping's host is declared by no loaded plugin.
        """
        runtime = cls(Store(db), Registry(locale), demo, approver, ui, offload, dev_origins)
        with collector_paused():
            records = {r.id: r for r in runtime.installs.all()}
            for folder in builtin_folders():
                runtime.add_folder(folder, official=True)
                runtime.builtin_ids.add(folder.name)
                shipped = runtime.registry.plugins[folder.name].plugin.manifest.version
                runtime.builtin_versions[folder.name] = shipped
                fetched = records.pop(folder.name, None)
                # The demo answers from the recordings shipped beside the built-in copy (a link never has them).
                if fetched is not None and not demo and fetched_in_use(fetched, shipped):
                    records[folder.name] = fetched
            for record in records.values():
                try:
                    runtime.load_installed(record.id, Path(record.current.dir), record.official)
                except PluginLoadError as e:  # a built-in plugin keeps its built-in copy
                    runtime.load_errors.append(str(e))
        runtime.installs.sweep()
        for folder in extra or []:
            runtime.add_folder(Path(folder), official=False)
        if dev_origins:
            try:
                check_declared(dev_origins, {i: declared_hosts(p) for i, p in runtime.registry.plugins.items()})
            except DevOriginError:
                runtime.close()
                raise
        return runtime

    def add_folder(self, folder: Path, official: bool) -> None:
        """Validate and register a plugin folder."""
        source = DirectorySource(folder)
        if self._builtin(folder):
            # Built-in plugins ship validated (tests/plugins checks every spec); re-checking their widget specs at
            # every start would cost the start-up ~0.2 s. Their validated form is kept like an installed one's.
            plugin, problems = self.plugin_cache.load("builtin", folder.name, folder, specs=False)
        else:  # an author's folder: checked in full at every start, so every problem is seen
            plugin, problems = validate(source)
        if plugin is None:
            # each problem as `plugin validate` prints it (from where the app was started), to open in an editor
            raise PluginLoadError(f"{folder} does not validate:\n" + "\n".join(p.in_folder(folder) for p in problems))
        self.registry.add(InstalledPlugin(plugin, official, source))
        self.folders[plugin.manifest.id] = folder

    def load_installed(self, plugin_id: str, folder: Path, official: bool) -> None:
        """Validate an installed version's folder and make it the plugin in use (the old one stays on error). The
        validated form is kept (plugin_cache.py): the next start reads it instead of validating again.

        Raises:
            PluginLoadError: the folder does not validate or holds another plugin.
        """
        kept = self.plugin_cache.kept("installed", plugin_id, folder)
        if kept is not None:  # checked when it was installed; the document is built when something needs it
            self.registry.add(
                InstalledPlugin.later(plugin_id, kept.widgets, kept.build, official, DirectorySource(folder))
            )
            self.folders[plugin_id] = folder
            return
        plugin, problems = self.plugin_cache.validated("installed", plugin_id, folder)
        if plugin is None:
            raise PluginLoadError(f"{plugin_id} ({folder}) does not validate:\n" + "\n".join(map(str, problems)))
        if plugin.manifest.id != plugin_id:
            raise PluginLoadError(f"{folder} holds plugin {plugin.manifest.id!r}, not {plugin_id!r}")
        self.registry.add(InstalledPlugin(plugin, official, DirectorySource(folder)))
        self.folders[plugin_id] = folder

    def load_builtin(self, plugin_id: str) -> None:
        """Run a built-in plugin's copy shipped with the app again (a rollback past its fetched versions)."""
        folder = next((f for f in builtin_folders() if f.name == plugin_id), None)
        if folder is None:
            raise PluginLoadError(f"{plugin_id} is not a built-in plugin")
        self.add_folder(folder, official=True)

    async def find_tools(self, args: dict[str, Any]) -> dict[str, Any]:
        """The host tool `plugins.tools`: tools the model may call, found by what they do."""
        from tui.runtime.chat.tool_selection import search

        tools = [t for t in self.registry.tools() if not t.user_only and self.gate.mode(t) != "deny"]
        return {"tools": search(tools, str(args.get("query") or ""), self.registry.plugin_name)}

    async def install_from_link(self, args: dict[str, Any]) -> dict[str, Any]:
        """The host tool `plugins.install`: fetch and validate, then the student decides on the review page.

        Raises:
            HostError: no person at the app to review it, or the link cannot be installed (the reason).
        """
        return await self.install_reviewed(str(args.get("link", "")))

    async def install_reviewed(self, link: str) -> dict[str, Any]:
        """Fetch and validate `link` (an install link, or a local folder: a draft), then show the student the
        install review; install only when they accept. The caller learns only whether they did.

        Raises:
            HostError: no person at the app to review it, or the link cannot be installed (the reason).
        """
        if self.ui is None:
            raise HostError("ability", "installing a plugin needs the student at the app to review it")
        installer = Installer(self)
        try:
            prepared = await asyncio.to_thread(installer.prepare, link)
        except InstallError as e:
            raise HostError("ability", f"cannot install: {e}") from None
        answer = await self.ui.review_install(prepared.review)
        if not answer:
            return {"installed": False, "message": "the student chose not to install it"}
        chosen = answer.effects if isinstance(answer, InstallChoice) else None
        record = installer.install(prepared, chosen)  # a remote server's tools: the effects the student picked
        return {"installed": True, "id": record.id, "version": record.current.version}

    def map_origins(self, mappings: tuple[DevOrigin, ...]) -> None:
        """Use an author's dev origins from now on (the caller checked them): each plugin's runs send the hosts
        it declares among them to their loopback servers, and every audit row names the mappings."""
        self.dev_origins = mappings
        self.remote.dev = mappings
        self.audit.dev = describe(mappings)

    def campus_services(self) -> list[str]:
        """The supported campus services the loaded plugins use (what a login logs in to), treehole at least."""
        from tui.runtime.campus.services import SERVICES

        used = {c for p in self.registry.plugins.values() for c in p.plugin.manifest.campus}
        return [n for n, s in SERVICES.items() if n in used and s.supported] or ["treehole"]

    def forget_plugin(self, plugin_id: str) -> None:
        """Unload a plugin and remove what it kept: its grants, settings, KV entries and cached data."""
        self.registry.remove(plugin_id)
        self.remote.forget(plugin_id)
        self.folders.pop(plugin_id, None)
        self.grants.reset(plugin_id)
        self.plugin_settings.reset(plugin_id)
        with self.store.lock:
            self.store.db.execute("DELETE FROM plugin_kv WHERE plugin = ?", (plugin_id,))
            self.store.db.execute("DELETE FROM data_cache WHERE plugin = ?", (plugin_id,))

    def set_plugin_setting(self, plugin_id: str, key: str, value: Any) -> Any:
        """Set one of a plugin's settings (checked: `PluginSettings.set`); its data sources' cached values were
        made with the old one, so they go and the next read runs the tool again. The value kept.

        Raises:
            KeyError: no such plugin.
            SettingRefused: no such setting, or a value its declaration refuses.
        """
        kept = self.plugin_settings.set(plugin_id, self.registry.plugins[plugin_id].plugin.manifest, key, value)
        self.drop_cached_data(plugin_id)
        return kept

    def reset_plugin_setting(self, plugin_id: str, key: str | None = None) -> None:
        """One setting (or, None, all) of a plugin back to its default; its cached data goes, as on a change.

        Raises:
            KeyError: no such plugin.
        """
        if plugin_id not in self.registry.plugins:  # refused, not silently ignored
            raise KeyError(plugin_id)
        self.plugin_settings.reset(plugin_id, key)
        self.drop_cached_data(plugin_id)

    def drop_cached_data(self, plugin_id: str) -> None:
        """Forget a plugin's cached data-source values (its widgets and checks fetch anew)."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM data_cache WHERE plugin = ?", (plugin_id,))

    @staticmethod
    def _builtin(folder: Path) -> bool:
        return any(folder.resolve() == b.resolve() for b in builtin_folders())

    @asynccontextmanager
    async def host_for(self, installed: InstalledPlugin) -> AsyncIterator[Host]:
        """The host one run of a plugin uses: recorded answers in demo mode, the network otherwise; a plugin that
        declares a host an author mapped to a loopback server runs live, through the mapping, in either."""
        pid = installed.plugin.manifest.id
        routes = DevRoutes.for_plugin(self.dev_origins, installed.plugin.manifest.network)
        if self.demo and routes is None:
            source, tests = demo_recordings(installed, self.folders.get(pid), self.installs.get)
            host = demo_host(source, tests, beijing_now())
            host.verified = self.demo_verified.setdefault(pid, {})
            yield cast(Host, DemoPerson(host, self.abilities, pid)) if self.abilities.ui is not None else host
            return
        async with PolicyFetcher(dev=routes) as fetcher:
            yield PluginHost(
                pid, self.kv, fetcher, self.abilities, self.campus, tuple(installed.plugin.manifest.campus)
            )

    def close(self) -> None:
        """Let the worker threads go and close the store."""
        if self.offload is not None:
            self.offload.close()
        self.store.close()


#: Abilities the person at the app answers even in the demo: a recording saying "opened" opens nothing.
PERSON_OPENS = ("browser.open", "campusPage.open")


class DemoPerson:
    """The demo's recorded host, except opening a page: that goes to the person at the app (a new tab when the
    app is served, else the address to copy), so the demo never claims a page opened that did not (an outsider
    looked for the card page the top-up said it had opened)."""

    def __init__(self, host: Any, abilities: Abilities, plugin_id: str) -> None:
        self._host = host
        self._abilities = abilities
        self._plugin_id = plugin_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self._host, name)

    async def ability(self, name: str, args: Any) -> Any:
        """Recorded, but for `PERSON_OPENS`."""
        if name in PERSON_OPENS:
            return await self._abilities.call(self._plugin_id, name, args)
        return await self._host.ability(name, args)
