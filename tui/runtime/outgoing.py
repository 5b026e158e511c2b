"""No registered secret leaves in a request a plugin built (threats.md S2; issue 15 item 1).

Every request a plugin's steps build — public ones before each hop (PolicyFetcher), its campus requests and
the request inside `verify.treehole` before they are signed — is searched for every secret the app knows:
in the URL, the header names and values and the body, as written and decoded (percent and form encoding,
JSON and HTML escapes, a few rounds deep), ignoring case. A hit refuses the request with a message that names
the kind of secret, never its value; the refusal is final (no `catch` sees it) and cuts the plugin off from
the network for the rest of the session, so refusals cannot be used to test guesses one after another.

This is the backstop. The first line is that a plugin never holds a secret's text: `otp.code` is an opaque
value, and campus answers are scrubbed before a step sees them.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from urllib.parse import unquote_plus, urlsplit

from tui.lang.host import HostError
from tui.runtime.secrets import KIND_NAMES, Secrets

#: Decoding rounds: a value encoded twice (`%2531`) is still found; more is not worth the time.
ROUNDS = 3
_JSON_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[\"\\/bfnrt])")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _json_unescape(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        return chr(int(code[1:], 16)) if code[0] == "u" else _SIMPLE[code]

    return _JSON_ESCAPE.sub(one, text)


def views(method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> list[str]:
    """Every reading of a request a secret could hide in: as sent, and decoded round after round."""
    text = body.decode("utf-8", "replace") if body else ""
    start = [url, *(f"{k}: {v}" for k, v in headers.items()), text]
    if text:
        try:
            doc = json.loads(text)
        except ValueError:
            pass
        else:
            # A JSON body's strings as its reader will see them (every escape resolved), keys included.
            start.append("\n".join(_strings(doc)))
    seen = set(start)
    frontier = list(start)
    for _ in range(ROUNDS):
        nxt = []
        for v in frontier:
            for decoded in (unquote_plus(v), _json_unescape(v), html.unescape(v)):
                if decoded not in seen:
                    seen.add(decoded)
                    nxt.append(decoded)
        frontier = nxt
    return list(seen)


def _strings(doc: object) -> list[str]:
    out: list[str] = []
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            out.extend(k for k in v if isinstance(k, str))
            stack.extend(v.values())
    return out


class SecretGuard:
    """The outgoing-request check for one app session's plugins."""

    def __init__(self, secrets: Secrets) -> None:
        self.secrets = secrets
        self.blocked: dict[str, str] = {}
        """Plugins caught sending a secret → the kind they sent; their requests are refused from then on."""

    def check(self, plugin_id: str, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> None:
        """Refuse the request when it carries a registered secret (or its plugin was caught before).

        Raises:
            HostError: kind `network`, final; the message names the host and the kind of secret.
        """
        host = _host(url)
        if plugin_id in self.blocked:
            raise HostError(
                "network",
                f"refused: the request to {host} was not sent, because {plugin_id} tried to send a "
                f"{KIND_NAMES.get(self.blocked[plugin_id], 'secret')} earlier; its requests stay blocked until "
                "the app restarts",
                final=True,
            )
        kind = self.secrets.find(views(method, url, headers, body))
        if kind is None:
            return
        self.blocked[plugin_id] = kind
        raise HostError(
            "network",
            f"refused: the request to {host} carries a {KIND_NAMES.get(kind, 'secret')} (a secret the app keeps "
            f"for the student); nothing was sent, and {plugin_id}'s requests are blocked until the app restarts",
            final=True,
        )

    def for_plugin(self, plugin_id: str) -> OutgoingCheck:
        """The check bound to one plugin, as the PolicyFetcher calls it before each hop."""
        return OutgoingCheck(self, plugin_id)


class OutgoingCheck:
    """`SecretGuard.check` for one plugin: called with (method, url, headers, body)."""

    def __init__(self, guard: SecretGuard, plugin_id: str) -> None:
        self.guard = guard
        self.plugin_id = plugin_id

    def __call__(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> None:
        self.guard.check(self.plugin_id, method, url, headers, body)


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or url[:80]
    except ValueError:
        return url[:80]
