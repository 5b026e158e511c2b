"""Plugins from elsewhere: where they come from, how they are installed, updated and reviewed (seeds: 安装链接, 更新).

Sources: a local folder, a GitHub folder, repository or file, any HTTPS URL of a PLUGIN.md (`links`), fetched at
one commit through the public-only HTTP of `fetch_http` (`fetch`), with the official mark only when vouched for
(`official_mark`); remote MCP servers are named in `remote`, their tools' approvals kept in `remote_approvals`
and their connections in the running app managed by `remote_servers` (the client itself: `mcp`). Installing,
updating, rolling back and removing (`installer`) keep one folder per version (`installs`, `version_folders`);
the student decides on plain review data (`review`). Built-in plugins update from their official links over the
copy the app ships (`builtin_updates`). What validation finds in a folder is `report`; plugin drafts, folders
still being written, are `drafts`.

This module is the package's one public face: the runtime, the command line and the app import from here. The
names are loaded on first use (PEP 562), so that `plugin validate`, which needs only `imitations`, does not pay
for the HTTP client and the store. Modules inside the package import each other directly, never this face, and
none of them imports `tui.runtime.runtime` (an import-linter contract): the installer describes the runtime it
needs as a protocol (`installer.Runtime`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.runtime.plugins.builtin_updates import builtin_link, fetched_in_use, newer
    from tui.runtime.plugins.drafts import DraftError, DraftInfo, Drafts
    from tui.runtime.plugins.fetch import Endpoints, Fetched, FetchError, PluginFetcher, content_hash
    from tui.runtime.plugins.installer import (
        CHECK_EVERY_MS,
        Installer,
        InstallError,
        Prepared,
        UpdateOutcome,
        endpoints,
    )
    from tui.runtime.plugins.installs import InstallRecord, Installs, Version
    from tui.runtime.plugins.links import LinkError, PluginLink, ResolvedRef, check_https, parse_link
    from tui.runtime.plugins.official_mark import IMITATION_ADVICE, imitations
    from tui.runtime.plugins.remote import RemoteReview, RemoteToolReview, remote_ids, remote_tool_effect
    from tui.runtime.plugins.remote_servers import AuthFactory, RemoteServers, keyring_auth, no_auth
    from tui.runtime.plugins.report import Report, recorded_test_files, validation_report
    from tui.runtime.plugins.review import (
        OFFICIAL_REPO,
        EffectChange,
        GuardChange,
        InstallChoice,
        InstallReview,
        ModeChange,
        TextChange,
        ToolReview,
        UpdateReview,
        install_review,
        update_review,
    )

#: Each public name and the module of this package that defines it.
_WHERE = {
    **dict.fromkeys(["builtin_link", "fetched_in_use", "newer"], "builtin_updates"),
    **dict.fromkeys(["DraftError", "DraftInfo", "Drafts"], "drafts"),
    **dict.fromkeys(["Report", "recorded_test_files", "validation_report"], "report"),
    **dict.fromkeys(["Endpoints", "FetchError", "Fetched", "PluginFetcher", "content_hash"], "fetch"),
    **dict.fromkeys(
        ["CHECK_EVERY_MS", "InstallError", "Installer", "Prepared", "UpdateOutcome", "endpoints"], "installer"
    ),
    **dict.fromkeys(["InstallRecord", "Installs", "Version"], "installs"),
    **dict.fromkeys(["LinkError", "PluginLink", "ResolvedRef", "check_https", "parse_link"], "links"),
    **dict.fromkeys(["IMITATION_ADVICE", "imitations"], "official_mark"),
    **dict.fromkeys(["RemoteReview", "RemoteToolReview", "remote_ids", "remote_tool_effect"], "remote"),
    **dict.fromkeys(["AuthFactory", "RemoteServers", "keyring_auth", "no_auth"], "remote_servers"),
    **dict.fromkeys(
        [
            "OFFICIAL_REPO",
            "EffectChange",
            "GuardChange",
            "InstallChoice",
            "InstallReview",
            "ModeChange",
            "TextChange",
            "ToolReview",
            "UpdateReview",
            "install_review",
            "update_review",
        ],
        "review",
    ),
}

__all__ = [
    "CHECK_EVERY_MS",
    "IMITATION_ADVICE",
    "OFFICIAL_REPO",
    "AuthFactory",
    "DraftError",
    "DraftInfo",
    "Drafts",
    "EffectChange",
    "Endpoints",
    "FetchError",
    "Fetched",
    "GuardChange",
    "InstallChoice",
    "InstallError",
    "InstallRecord",
    "InstallReview",
    "Installer",
    "Installs",
    "LinkError",
    "ModeChange",
    "PluginFetcher",
    "PluginLink",
    "Prepared",
    "RemoteReview",
    "RemoteServers",
    "RemoteToolReview",
    "Report",
    "ResolvedRef",
    "TextChange",
    "ToolReview",
    "UpdateOutcome",
    "UpdateReview",
    "Version",
    "builtin_link",
    "check_https",
    "content_hash",
    "endpoints",
    "fetched_in_use",
    "imitations",
    "install_review",
    "keyring_auth",
    "newer",
    "no_auth",
    "parse_link",
    "recorded_test_files",
    "remote_ids",
    "remote_tool_effect",
    "update_review",
    "validation_report",
]


def __getattr__(name: str) -> Any:
    """Load a public name from the module that defines it, on first use."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value  # the next use is a plain attribute
    return value
