"""Plugin computation on worker threads, so a slow plugin never holds the app's event loop (threats.md T2).

A plugin's run is asynchronous for its requests, but evaluating its expressions, parsing a 2 MB page or a
widget's templates is plain CPU work: on the Textual app's loop, a slow plugin would freeze every key press. The
interpreter and the dashboard therefore hand each piece of such work to `Offload`, which runs it on a small pool
of worker threads and awaits the answer; the loop keeps drawing and reading keys meanwhile, and the requests,
the campus session and every dialog stay on the app's loop where they belong.

One run's pieces never overlap (the interpreter awaits each one, and `each` branches share a lock), so the
run's budgets are counted by one thread at a time; different runs compute side by side, so one plugin's slow
template does not hold another plugin's widget.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: Worker threads for plugin computation: a few slow plugins at once still leave room for the others.
WORKERS = 8


class Offload:
    """Runs plugin computation on a pool of worker threads. Use as `await offload(fn)`."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:  # started on first use: the CLI's short commands never pay for threads
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="pku-harness-plugin")
        return self._pool

    async def __call__(self, work: Callable[[], T]) -> T:
        """`work()` on a worker thread; cancelling the await abandons the answer (the work ends by its budget)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(), work)

    def close(self) -> None:
        """Let the workers go: queued work is dropped, running work finishes by itself (a thread cannot be killed)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
