"""The chat pane against a local fake model server, measured against the raw read of the same stream in one run.

- **Streaming**: one answer of 2,000 chunks (`--chunks`): paragraphs, short lists and headings. Baseline: the
  `openai` SDK reading the same SSE stream from the same loopback server with nothing drawn. Reported: chunks/s
  of both and their ratio. Goal ≥ 500 chunks/s in the pane.
- **Long conversation**: 220 turns (`--turns`) in one chat, the server answering at once (every fifth turn a
  tool call first). Reported: median turn time around turn 10 and around the last turn (their ratio, goal
  ≤ 1.5), resident memory growth per turn (goal < 100 KB), the widgets in the log, and the request size.

Run: `python tests/benchmarks/bench_chat.py [--chunks 2000] [--turns 220]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.app.helpers import until
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text

NOW = "2026-11-30T12:00:00+08:00"


def rss_kb() -> int:
    """Resident memory of this process (Linux)."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def parts(n: int) -> list[str]:
    """`n` chunks making a long Markdown answer as a model streams it: a word or two a chunk, a paragraph every
    60 chunks, a three-item list every 300, a heading every 500."""
    words = ["二教", " 201", " 今天", "第三节", "空闲", "，", "**容量 120**", " 人", "；", "可以自习"]
    out = []
    for i in range(n):
        if i % 500 == 499:
            out.append(f"\n\n## 第 {i // 500 + 1} 部分\n\n")
        elif i % 300 == 299:
            out.append("\n\n- 一楼\n- 二楼\n- 三楼\n\n")
        elif i % 60 == 59:
            out.append("。\n\n")
        else:
            out.append(words[i % len(words)])
    return out


async def raw_read(url: str, n: int) -> float:
    """Seconds for the SDK to read the whole stream, drawing nothing."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="x", base_url=url, max_retries=0)
    t0 = time.perf_counter()
    stream = await client.chat.completions.create(model="m", messages=[{"role": "user", "content": "q"}], stream=True)
    got = 0
    async for chunk in stream:
        got += len(chunk.choices)
    await client.close()
    assert got >= n, got
    return time.perf_counter() - t0


def chat_app(data: Path, url: str) -> Any:
    from tui.app.app import make_app
    from tui.runtime.chat.providers import save_config

    app = make_app(demo=True, data_dir=data, now=NOW)
    save_config(app.runtime.store, "custom", url, "any")
    return app


async def ask(pilot: Any, app: Any, message: str) -> None:
    box = app.query_one("#chat-input")
    box.load_text(message)
    box.focus()
    await pilot.press("enter")


async def pane_stream(url: str, n: int) -> float:
    """Seconds from Enter to the whole answer on screen in the real pane."""
    from tui.app.widgets.chat_pane import ChatPane

    with tempfile.TemporaryDirectory() as tmp:
        app = chat_app(Path(tmp), url)
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("2")
            await until(pilot, lambda: app.query("#chat-input"), 20)
            t0 = time.perf_counter()
            await ask(pilot, app, "流式")
            pane = app.query_one(ChatPane)
            await until(pilot, lambda: not pane.running and pane.last_answer, 300)
            return time.perf_counter() - t0


async def streaming(n: int) -> None:
    server = FakeOpenAI()
    with server.serve() as url:
        server.add(text(*parts(n)))
        raw = await raw_read(url, n)
        server.add(text(*parts(n)))
        pane = await pane_stream(url, n)
    print(f"streaming {n} chunks: raw read {n / raw:,.0f} chunks/s ({raw:.2f} s); "
          f"pane {n / pane:,.0f} chunks/s ({pane:.2f} s); pane/raw time {pane / raw:.1f}x")  # fmt: skip


async def long_conversation(turns: int) -> None:
    from tui.app.widgets.chat_pane import ChatPane

    server = FakeOpenAI()
    server.keep = False  # the server's copy of 220 requests is not the app's memory
    for i in range(turns):
        if i % 5 == 4:
            server.add(calls(call("classrooms__free", '{"building": "二教"}', id=f"c{i}")))
        server.add(text(f"第 {i} 个回答：", "二教 **201** 空闲，", "三教 305 也空。\n\n- 一\n- 二"))
    times: list[float] = []
    mem: list[int] = []
    with server.serve() as url, tempfile.TemporaryDirectory() as tmp:
        app = chat_app(Path(tmp), url)
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("2")
            await until(pilot, lambda: app.query("#chat-input"), 20)
            pane = app.query_one(ChatPane)
            for i in range(turns):
                t0 = time.perf_counter()
                await ask(pilot, app, f"问题 {i}：二教今天有哪些空教室?")
                await until(pilot, lambda i=i: not pane.running and f"第 {i} 个回答" in pane.last_answer, 60)
                times.append(time.perf_counter() - t0)
                if i % 10 == 9:
                    gc.collect()
                    mem.append(rss_kb())
            widgets = len(list(app.query_one("#chat-log").walk_children()))
    text_turns = [t for i, t in enumerate(times) if i % 5 != 4]
    early = statistics.median(text_turns[4:12])
    late = statistics.median(text_turns[-8:])
    growth = (mem[-1] - mem[0]) / max(1, (len(mem) - 1) * 10)
    sizes = server.sizes
    print(f"long conversation, {turns} turns: median turn {early * 1000:.0f} ms near turn 10, "
          f"{late * 1000:.0f} ms at the end ({late / early:.2f}x); memory {mem[0] / 1024:.0f} → "
          f"{mem[-1] / 1024:.0f} MB ({growth:+.0f} KB a turn); {widgets} widgets in the log; "
          f"request {sizes[0] / 1024:.0f} → {sizes[-1] / 1024:.0f} KB")  # fmt: skip


def test_report() -> None:
    """Print the figures (pytest entry point; the defaults: 2,000 chunks and 220 turns)."""
    asyncio.run(streaming(2000))
    asyncio.run(long_conversation(220))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=220)
    parser.add_argument("--only", choices=["stream", "long"])
    args = parser.parse_args()
    if args.only != "long":
        asyncio.run(streaming(args.chunks))
    if args.only != "stream":
        asyncio.run(long_conversation(args.turns))


if __name__ == "__main__":
    main()
