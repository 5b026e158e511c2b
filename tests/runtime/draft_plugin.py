"""A small plugin draft for the app's draft tests — 图书馆新书, one tool, one widget on a data source, one recorded
test — with a broken tool (`requst`, the validator's unknown key) and its fix, and the scripted model's calls
that write it."""

from __future__ import annotations

import json
from typing import Any

from tests.runtime.fake_openai import call
from tui.runtime.plugins.drafts import Drafts

MANIFEST = """---
spec: 1
id: libnew
name: 图书馆新书
description: The library's newest books.
version: 1.0.0
author: a student
network: [api.example.com]
tools:
  list: tools/list.yaml
widgets:
  books: widgets/books.json
dataSources:
  books: { tool: list, ttl: 1h, title: 新书 }
---
Use libnew__list when the user asks for the library's new books.
"""
BROKEN = """title: 新书
description: New books for a word.
effect: read
input:
  q: { type: string, default: 新书 }
steps:
  - let: page
    requst: { url: https://api.example.com/items, query: { q: '${input.q}' } }
return: page.items
"""
FIXED = BROKEN.replace("requst", "request")
RECORDED = """tool: list
cases:
  - name: 新书
    input: { q: 新书 }
    http:
      - request: { url: 'https://api.example.com/items?q=新书' }
        response: { json: { items: [三体, 活着] } }
    expect: [三体, 活着]
"""
WIDGET = """{
  "spec": 1, "kind": "widget", "title": "图书馆新书", "source": "books",
  "sizes": ["medium"], "defaultSize": "medium",
  "body": { "type": "list", "items": "${data}", "item": { "type": "text", "text": "${item}" } }
}
"""
FILES = {"PLUGIN.md": MANIFEST, "tools/list.yaml": FIXED, "tests/list.yaml": RECORDED, "widgets/books.json": WIDGET}


def write_call(path: str, content: str, id: str, index: int = 0, draft: str = "libnew") -> dict[str, Any]:
    """The model's draftWrite call of one file."""
    args = json.dumps({"draft": draft, "path": path, "content": content}, ensure_ascii=False)
    return call("plugins__draftWrite", args, id=id, index=index)


def make(drafts: Drafts, broken: bool = False, draft: str = "libnew") -> None:
    """The draft written straight to the store (as `plugins draft new` and an editor would)."""
    for path, content in FILES.items():
        drafts.write(draft, path, BROKEN if broken and path == "tools/list.yaml" else content)
