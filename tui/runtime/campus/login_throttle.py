"""How often the app may log in to IAAA on its own: never again within a minute of a refusal, never after three.

After a student changes the IAAA password elsewhere, the stored one is wrong. Every widget refresh and every
scheduled check used to post it again; IAAA then asks for a captcha (E03) or locks the account, and even the
right password stops working until the student logs in through a browser. So an automatic login (a session that
expired, found by a request) is refused here when the account's last automatic login was refused less than
`PAUSE_S` ago, and for good once `MAX_FAILURES` were refused in a row — until the student logs in by hand
(`pku-harness login`, the login screen), which always tries and says why it failed. The GUI built on pkucli
(`pkuinfo/pkucli`) allows one automatic re-login per 60 s; this keeps that minute and adds the stop.

The record is kept in the store (`app_settings`, one key per account), so the widgets' process, a scheduled
`run-due` and the CLI all see the same one: three processes in a row with a wrong password post it once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tui.runtime.message import Message, restored, stored
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

#: Seconds after a refused automatic login during which no other is tried (pkucli's GUI: one per 60 s).
PAUSE_S = 60

#: Refused automatic logins in a row after which the app stops trying until the student logs in by hand.
MAX_FAILURES = 3

#: The kinds of `LoginError` that mean IAAA refused what the app sent (a wrong password, a code it wanted, an
#: account to activate): each of these is a strike against the account. An unreachable or failing IAAA, a missing
#: password and an expired QR code post nothing IAAA holds against the account.
REFUSALS = frozenset({"password", "otp", "activation", "captcha", "sms"})


@dataclass(frozen=True)
class Strikes:
    """The refused automatic logins of one account: how many in a row, and when the last one was."""

    failures: int = 0
    last_ms: int = 0
    reason: str = ""
    """What IAAA said the last time (a `Message` when the app said it), shown when automatic logins stop."""


class LoginThrottle:
    """The automatic-login record of each account, in the store (see the module docstring)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    @staticmethod
    def _key(username: str) -> str:
        return f"campus_auto_login:{username}"

    def strikes(self, username: str) -> Strikes:
        """The account's record (none yet: no strikes); a damaged value reads as none."""
        value = read_setting(self.store, self._key(username))
        if not isinstance(value, dict):
            return Strikes()
        try:
            failures, last_ms = int(value.get("failures", 0)), int(value.get("last_ms", 0))
        except (TypeError, ValueError):
            return Strikes()
        return Strikes(failures, last_ms, restored(str(value.get("reason", ""))))

    def refusal(self, username: str, title: str | dict[str, str]) -> Message | None:
        """Why an automatic login to the service titled `title` (a name in both languages) may not be tried now,
        or None when it may."""
        strikes = self.strikes(username)
        if strikes.failures >= MAX_FAILURES:
            return Message("campus_auto_login_stopped", title=title, failures=strikes.failures, reason=strikes.reason)
        wait = PAUSE_S - (self.clock() - strikes.last_ms / 1000)
        if strikes.failures and wait > 0:
            return Message("campus_auto_login_paused", title=title, seconds=max(1, round(wait)))
        return None

    def failed(self, username: str, kind: str, reason: str) -> bool:
        """Count an automatic login IAAA refused (only `REFUSALS` count); True when automatic logins stop now."""
        if kind not in REFUSALS:
            return False
        failures = self.strikes(username).failures + 1
        record = {"failures": failures, "last_ms": int(self.clock() * 1000), "reason": stored(reason, 400)}
        write_setting(self.store, self._key(username), record)
        return failures >= MAX_FAILURES

    def succeeded(self, username: str) -> None:
        """A login went through (by hand or on its own): the account starts again with no strikes."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM app_settings WHERE key = ?", (self._key(username),))
