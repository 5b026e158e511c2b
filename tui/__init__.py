"""PKU harness TUI: a terminal AI campus assistant whose abilities come from declarative plugins."""

import os
import sys

__version__ = "0.1.0"

# `import httpx` also imports httpx's own command line (`httpx._main`: rich's console, syntax and progress, and
# pygments), about a third of what httpx costs, whenever those are installed — and Textual installs rich. The app
# never runs httpx's command line; an entry of None makes that one import fail, and httpx then goes without it
# (its `__init__` catches the ImportError). `plugin validate` checks URLs with httpx, so this is ~40 ms of it.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

# pydantic looks for plugins (entry points of every installed distribution, through importlib.metadata: ~15 ms) the
# first time a model validates. The app uses none and would not want one observing plugin data: say so up front.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
