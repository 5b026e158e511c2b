"""Waiting in pilot tests: poll for a condition (CI machines are slower; a fixed pause is a flaky test)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


async def until(pilot: Any, condition: Callable[[], object], seconds: float = 5.0) -> None:
    """Let the app run until `condition()` is true; fail with a clear message after `seconds`."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"still not true after {seconds} s: {getattr(condition, '__doc__', None) or condition}")


async def settle(pilot: Any, app: Any, rounds: int = 3, seconds: float = 30.0) -> None:
    """Let the app's workers finish and the screen repaint. A worker that waits for a person (a dialog's answer)
    never finishes by itself: after `seconds` this fails naming the workers still running, instead of hanging the
    test run (the key masher once left a 选择 dialog open and `settle` waited for ever)."""
    for _ in range(rounds):
        await pilot.pause(0.05)
        # Polled, not `wait_for(workers.wait_for_complete())`: a timeout there cancels the workers it waits on
        # and returns as if they had finished.
        waiting = list(app.workers)
        deadline = time.monotonic() + seconds
        while any(not w.is_finished for w in waiting):
            if time.monotonic() > deadline:
                running = [repr(w) for w in waiting if not w.is_finished]
                raise AssertionError(f"workers still running after {seconds} s: {running}")
            await pilot.pause(0.02)


async def open_settings_section(pilot: Any, app: Any, section: str) -> None:
    """Open 设置 (key 4) and its section `section` (an option id of the section list) as a student would: from the
    list, ↑/↓ to it (the content follows the highlight)."""
    await pilot.press("4")
    await until(pilot, lambda: bool(app.query("#settings-sections")))
    sections = app.query_one("#settings-sections")
    sections.focus()
    await pilot.pause()
    ids = [sections.get_option_at_index(i).id for i in range(sections.option_count)]
    steps = ids.index(section) - (sections.highlighted or 0)
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps))
    await until(pilot, lambda: app.query_one("#settings-content").current == f"section-{section}")
    await settle(pilot, app, 1)


def key_event(key: str) -> Any:
    """The key event a terminal sends for `key` (the same event `pilot.press` makes, with its character)."""
    import unicodedata

    from textual import events
    from textual.app import _character_to_key, _get_unicode_name_from_key
    from textual.keys import REPLACED_KEYS

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def burst(app: Any, keys: list[str]) -> None:
    """Send keys the way a fast typist does: all queued at once, none waiting for the one before to finish
    (`pilot.press` waits until the app is idle after each key, which hides races)."""
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app._driver.send_message(event)


def said_by(app: Any) -> list[str]:
    """Every message the app notifies from now on, recorded as it is said: a toast lasts a few seconds, and a
    busy CI machine looked for it after it had gone (`app._notifications` holds only what still shows)."""
    said: list[str] = []
    notify = app.notify

    def recording(message: Any, *args: Any, **kwargs: Any) -> Any:
        said.append(str(message))
        return notify(message, *args, **kwargs)

    app.notify = recording
    return said
