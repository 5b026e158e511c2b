"""Installing plugins: the links the app accepts (links.py), fetching (plugin_http.py, plugin_fetch.py), the
official mark (official_mark.py) and the installer's refusals and update outcomes (installer.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {}
