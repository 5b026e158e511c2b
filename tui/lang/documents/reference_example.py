"""The worked example of the plugin reference: a whole small plugin — manifest, one read tool with a request, one
widget and one recorded test — that the test suite validates with the real validator and whose recorded test
it runs with the real runner, so the example a model copies is one that works."""

from __future__ import annotations

#: The example plugin's files, path → text, in the order a model would write them.
EXAMPLE_FILES: dict[str, str] = {
    "PLUGIN.md": """\
---
spec: 1
id: new-books
name: 新书速递
description: 图书馆最近上架的新书
version: 1.0.0
author: 示例作者
network: [example.org]
tools:
  latest: tools/latest.yaml
dataSources:
  latest: { tool: latest, args: { limit: 5 }, ttl: 1h, title: 新书 }
widgets:
  latest: widgets/latest.json
i18n:
  en: { name: New books, tools: { latest: { title: New books } } }
---
Use new-books__latest when the user asks which books the library has just put on its shelves.
""",
    "tools/latest.yaml": """\
title: 新书
summary: 最近上架的新书
description: The library's newest books, newest first. Use when the user asks what is new in the library.
effect: read
input:
  limit: { type: integer, min: 1, max: 20, default: 5, title: 数量, description: 'how many books, 1-20' }
steps:
  - let: page
    request:
      url: https://example.org/api/new-books
      query: { size: '${input.limit}' }
  - check: page.ok
    error: '新书列表没有取到: ${page.message}'
return: "page.items.slice(0, input.limit).map(b => ({ title: trim(b.title), author: b.author, date: b.shelved }))"
resultTitles: { title: 书名, author: 作者, date: 上架日期 }
""",
    "widgets/latest.json": """\
{
  "spec": 1,
  "kind": "widget",
  "title": { "zh": "新书", "en": "New books" },
  "source": "latest",
  "emptyWhen": "${len(data) == 0}",
  "body": {
    "type": "list",
    "items": "${data}",
    "item": { "type": "text", "text": "${item.title} · ${item.author}", "wrap": false },
    "empty": "暂无新书"
  }
}
""",
    "tests/latest.yaml": """\
tool: latest
cases:
  - name: two books
    input: { limit: 2 }
    http:
      - request: { method: GET, url: 'https://example.org/api/new-books?size=2' }
        response:
          json: { ok: true, items: [{ title: ' 三体 ', author: 刘慈欣, shelved: '2026-11-28' },
                                    { title: 活着, author: 余华, shelved: '2026-11-27' }] }
    expect: [{ title: 三体, author: 刘慈欣, date: '2026-11-28' }, { title: 活着, author: 余华, date: '2026-11-27' }]
  - name: the site says no
    http:
      - request: { method: GET, url: 'https://example.org/api/new-books?size=5' }
        response: { json: { ok: false, message: 维护中 } }
    expectError: 维护中
""",
}


def _fence(path: str) -> str:
    return "json" if path.endswith(".json") else "yaml" if path.endswith(".yaml") else "markdown"


def example_markdown() -> str:
    """The example as Markdown: each file under its path, in a fenced block."""
    out = [
        "## Worked example: `new-books`",
        "A read tool with one request, a data source, a widget and a recorded test. "
        "`plugin validate` finds no problem and `plugin test` passes both cases.\n",
    ]
    for path, text in EXAMPLE_FILES.items():
        out.append(f"`{path}`\n```{_fence(path)}\n{text}```\n")
    return "\n".join(out)
