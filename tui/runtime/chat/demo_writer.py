"""The demo model writes a plugin (issue 23): "帮我写一个显示图书馆新书的插件" in `--demo` walks the draft workflow
a real model follows — four `draftWrite` calls (each asks, as every write does), `draftValidate`, `draftTest`, then
"say 安装" and `draftInstall`, which shows the normal install review.

The plugin it writes is a real one: new books on a subject from Open Library's public search API, with a widget
and a recorded test (the demo has no network: the test and the draft panel's preview answer from the recording).
After the install, outside the demo, the tool asks openlibrary.org for real.
"""

from __future__ import annotations

import re
from typing import Any

from tui.runtime.chat.demo_rules import Plan, _has, _results, last_user, said

DRAFT = "libnew"

MANIFEST = """---
spec: 1
id: libnew
name: 新书
description: 最近出版的新书，来自 Open Library 的公开数据。
version: 1.0.0
author: 演示模型
network: [openlibrary.org]
tools:
  list: tools/list.yaml
widgets:
  books: widgets/books.json
dataSources:
  books: { tool: list, args: { q: 小说 }, ttl: 6h, title: 新书 }
---
Use libnew__list when the user asks for new books on a subject.
"""

TOOL = """title: 新书
description: Newly published books on a subject, newest first (Open Library).
effect: read
input:
  q: { type: string, description: the subject or words to search, default: 小说, min: 1, max: 60 }
  limit: { type: integer, default: 8, min: 1, max: 20 }
steps:
  - let: page
    request:
      url: https://openlibrary.org/search.json
      query: { q: '${input.q}', sort: new, limit: '${input.limit}' }
return: |
  page.docs.map(d => ({
    title: d.title,
    author: (d.author_name ?? []).join('、'),
    year: d.first_publish_year ?? null,
    link: 'https://openlibrary.org' + d.key
  }))
"""

WIDGET = """{
  "spec": 1,
  "kind": "widget",
  "title": "新书",
  "source": "books",
  "sizes": ["medium", "large"],
  "defaultSize": "medium",
  "emptyWhen": "${data.length == 0}",
  "body": {
    "type": "list",
    "items": "${data}",
    "limit": 5,
    "item": { "type": "row", "children": [
      { "type": "text", "text": "${item.title}", "grow": 1 },
      { "type": "text", "text": "${item.author}", "tone": "muted" }
    ] }
  }
}
"""

RECORDED = """tool: list
cases:
  - name: 小说
    input: { q: 小说 }
    http:
      - request: { url: 'https://openlibrary.org/search.json?q=小说&sort=new&limit=8' }
        response:
          json:
            docs:
              - { title: 三体, author_name: [刘慈欣], first_publish_year: 2008, key: /works/OL1W }
              - { title: 活着, author_name: [余华], first_publish_year: 1993, key: /works/OL2W }
    expect:
      - { title: 三体, author: 刘慈欣, year: 2008, link: 'https://openlibrary.org/works/OL1W' }
      - { title: 活着, author: 余华, year: 1993, link: 'https://openlibrary.org/works/OL2W' }
"""

FILES = {"PLUGIN.md": MANIFEST, "tools/list.yaml": TOOL, "widgets/books.json": WIDGET, "tests/list.yaml": RECORDED}

_WRITE = (r"(写|做|编|开发).{0,16}插件", "write a plugin", "make a plugin", "build a plugin", "plugin that shows")
_INSTALL = ("安装", "装上", "装吧", "install")
_TOOLS = ("plugins__draftWrite", "plugins__draftValidate", "plugins__draftTest", "plugins__draftInstall")


def plan_writing(messages: list[dict[str, Any]], offered: set[str], lang: str) -> Plan | None:
    """The first step when the student asks for a plugin, or to install the one written; None otherwise."""
    q = last_user(messages)
    if _has(q, *_WRITE):
        if not set(_TOOLS) <= offered:
            return Plan(text=said("写插件要用「插件」的草稿工具，但它们现在没有提供给助手（被设为禁止）。",
                                  "Writing a plugin needs the plugins' draft tools, which are not offered now "
                                  "(set to deny).", lang))  # fmt: skip
        intro = said(
            "好，我来写一个「新书」插件：从 Open Library 的公开数据里找某个主题的新书，首页有一个小组件。"
            "先写四个文件（每次写入都会问你）。",
            "Sure: a plugin for new books on a subject, from Open Library's public data, with a dashboard widget. "
            "Four files first (each write asks you).",
            lang,
        )
        calls = [("plugins__draftWrite", {"draft": DRAFT, "path": p, "content": c}) for p, c in FILES.items()]
        return Plan(calls=calls, text=intro)
    if _has(q, *_INSTALL) and _written(messages) and "plugins__draftInstall" in offered:
        return Plan(calls=[("plugins__draftInstall", {"draft": DRAFT})])
    return None


def after_writing(messages: list[dict[str, Any]], lang: str) -> Plan | None:
    """The next step after draft tools answered; None when the last results are not theirs."""
    results = [r for r in _results(messages) if r[0].startswith("plugins__draft")]
    if not results:
        return None
    name, _args, data = results[-1]
    ok = isinstance(data, dict) and "error" not in data
    if name == "plugins__draftWrite":
        writes = [d for n, _a, d in results if n == "plugins__draftWrite"]
        failed = [d for d in writes if not (isinstance(d, dict) and "path" in d)]
        declined = [d for d in failed if isinstance(d, dict) and "declined" in d]
        if declined:
            why = _why_declined(declined[0])
            files = f"{len(declined)} files" if len(declined) > 1 else "1 file"
            return Plan(text=said(f"好，你没有同意写入 {len(declined)} 个文件" + (f"（{why}）" if why else "")
                                  + "，草稿还不完整。想继续的话，再说一次要写插件。",
                                  f"All right: you did not allow writing {files}" + (f" ({why})" if why else "")
                                  + "; the draft is incomplete. Ask again to go on.", lang))  # fmt: skip
        if failed:
            files = f"{len(failed)} files were" if len(failed) > 1 else "1 file was"
            return Plan(text=said(f"有 {len(failed)} 个文件没有写成（{_reason(failed[0])}），草稿还不完整。"
                                  "想继续的话，再说一次要写插件。",
                                  f"{files} not written ({_reason(failed[0])}); the draft is incomplete. Ask "
                                  "again to go on.", lang))  # fmt: skip
        return Plan(calls=[("plugins__draftValidate", {"draft": DRAFT})])
    if name == "plugins__draftValidate":
        if ok and data.get("ok"):
            return Plan(calls=[("plugins__draftTest", {"draft": DRAFT})])
        return Plan(text=said(f"检查发现问题：{_reason(data)}", f"The check found problems: {_reason(data)}", lang))
    if name == "plugins__draftTest":
        if not (ok and data.get("ok")):
            return Plan(text=said(f"录好的测试没有通过：{_reason(data)}", f"The recorded test failed: {_reason(data)}",
                                  lang))  # fmt: skip
        return Plan(text=said(
            "草稿「新书」写好了：4 个文件，检查没有问题，录好的测试也通过了。草稿面板里能看到小组件的预览。"
            "要装上就说「安装」（会先给你看安装审核）；也可以在编辑器里接着改："
            "`pku-harness plugins draft path libnew`。",
            "The draft 新书 is written: 4 files, the check finds no problem and the recorded test passes. The draft "
            "panel shows its widget's preview. Say \"install\" to install it (you see the install review first), or "
            "go on in an editor: `pku-harness plugins draft path libnew`.",
            lang,
        ))  # fmt: skip
    if name == "plugins__draftInstall":
        if ok and data.get("installed"):
            return Plan(text=said("装好了：「新书」插件的小组件可以放到首页，工具 libnew.list 助手也能用了。"
                                  "演示模式不联网，它在这里用草稿里录下的数据（搜「小说」）；在真正的 App 里它会去问 "
                                  "openlibrary.org。草稿还留着。",
                                  "Installed: the 新书 widget can go on the dashboard, and the assistant can use "
                                  "libnew.list. The demo has no network, so here it answers from the draft's recording "
                                  "(a search for 小说); in the real app it asks openlibrary.org. The draft is kept.",
                                  lang))  # fmt: skip
        if isinstance(data, dict) and data.get("installed") is False:  # the student said no on the review
            return Plan(text=said("好，先不安装。草稿还在，随时可以再装。", "All right, not installed. The draft is "
                                  "kept for later.", lang))  # fmt: skip
        return Plan(text=said(f"没有安装（{_reason(data)}）。草稿还在，随时可以再装。",
                              f"Not installed ({_reason(data)}). The draft is kept for later.", lang))  # fmt: skip
    return None


def _written(messages: list[dict[str, Any]]) -> bool:
    """The demo's draft was written in this conversation."""
    return any(n == "plugins__draftWrite" for n, _a, _d in _results(messages, since_user=False))


def _why_declined(data: dict[str, Any]) -> str:
    """The reason the student typed when they declined (the gate's sentence for the model holds it), or ''."""
    found = re.search(r"you declined: (.*?) \(do not try", str(data.get("declined") or ""))
    return found.group(1).strip() if found else ""


def _reason(data: Any) -> str:
    """A short reason from a tool's answer: its error or message, or its first problem."""
    if isinstance(data, dict):
        problems = data.get("problems") or []
        first = problems[0] if problems and isinstance(problems[0], dict) else {}
        text = data.get("error") or data.get("message") or first.get("message") or ""
    else:
        text = str(data)
    return re.sub(r"\s+", " ", str(text)).strip()[:200] or "?"
