"""Opening the database one process at a time: creating, checking and migrating it are not safe to do twice at
once (two apps started together on a first start, as two tabs of `pku-harness serve` are, both created the file and
one failed: a migration applied twice, a log file removed under the other, a lock held past SQLite's wait).

The lock is the data folder's own (`flock` on the folder: no file is made, so a folder left as it was stays so),
held only while the store opens; the system drops it when the process ends, however it ends. Where the system has
no `flock` (Windows) or the folder cannot be opened for it, opening goes on without it, as it did before.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: A process that holds the lock longer than this while opening is stuck (a huge file's check takes a few hundred
#: ms): the next one goes on without it rather than hang the app's start.
WAIT_S = 30.0


@contextmanager
def opening(folder: Path) -> Iterator[bool]:
    """Hold the folder's lock while the block opens the store; yields whether it is held."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield False
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        deadline = time.monotonic() + WAIT_S
        held = False
        while not held:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            except OSError:  # a file system without locks
                break
        yield held
    finally:
        os.close(fd)  # the lock goes with the descriptor
