"""The long-lived `node` process that runs oracle.mjs, and the Python side of its JSON-lines protocol.

One process serves a whole test session: a batch is written by a helper thread while the answers are read
(so neither side blocks on a full pipe), and single cases (the minimiser's) go one line at a time. A case the
oracle does not answer within a few seconds (a backtracking regex would be one) restarts the process and is
reported as a native "Timeout" throw rather than hanging the test.
"""

from __future__ import annotations

import json
import selectors
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from .outcomes import Js, js_outcome

ORACLE = Path(__file__).with_name("oracle.mjs")


def node_path() -> str | None:
    """The node executable on PATH, or None (the test then skips)."""
    return shutil.which("node")


class Oracle:
    """oracle.mjs in a `node` process; `run` and `run_many` give the oracle's answers."""

    def __init__(self, timeout: float = 10.0) -> None:
        exe = node_path()
        if exe is None:
            raise RuntimeError("node is not on PATH")
        self.exe = exe
        self.timeout = timeout
        self.next_id = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.exe, str(ORACLE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.buffer = b""

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _line(self, src: str, ctx: dict[str, Any], alt: tuple[str, ...]) -> bytes:
        self.next_id += 1
        # The context goes as JSON text, so that the oracle can keep its key order when asked (values.mjs).
        req: dict[str, Any] = {"id": self.next_id, "src": src, "ctx": json.dumps(ctx)}
        if alt:
            req["alt"] = list(alt)
        # ensure_ascii: lone surrogates travel as \udXXX escapes, which JSON.parse reads back as they were.
        return (json.dumps(req) + "\n").encode("ascii")

    def _read_line(self) -> bytes | None:
        """One line of output, or None when none came within the timeout."""
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        while b"\n" not in self.buffer:
            with selectors.DefaultSelector() as sel:
                sel.register(out, selectors.EVENT_READ)
                if not sel.select(self.timeout):
                    return None
            chunk = out.read1(1 << 16)  # type: ignore[attr-defined]
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _restart(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.start()

    def run(self, src: str, ctx: dict[str, Any], alt: tuple[str, ...] = ()) -> Js:
        return self.run_many([(src, ctx)], alt)[0]

    def run_many(self, cases: list[tuple[str, dict[str, Any]]], alt: tuple[str, ...] = ()) -> list[Js]:
        """The oracle's answers, in order. A case that times out gives Js('throw', 'Timeout: …').

        `alt` names other readings of the docs the oracle should take (values.mjs `mode.alt`)."""
        answers: list[Js] = []
        todo = list(cases)
        while todo:
            lines = [self._line(src, ctx, alt) for src, ctx in todo]
            assert self.proc is not None and self.proc.stdin is not None
            stdin = self.proc.stdin

            def feed(stdin: Any = stdin, lines: list[bytes] = lines) -> None:
                try:
                    stdin.write(b"".join(lines))
                    stdin.flush()
                except (BrokenPipeError, ValueError):
                    pass  # the process was restarted after a timeout

            writer = threading.Thread(target=feed, daemon=True)
            writer.start()
            done = 0
            for _ in todo:
                raw = self._read_line()
                if raw is None:
                    break
                answers.append(js_outcome(json.loads(raw)))
                done += 1
            if done < len(todo):
                answers.append(Js("throw", error=f"Timeout: no answer within {self.timeout:g} s"))
                self._restart()
                done += 1
            writer.join(timeout=self.timeout)
            todo = todo[done:]
        return answers
