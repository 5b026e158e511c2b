"""Named limits of expression evaluation (language.md §8) and the per-run budget that enforces them."""

from __future__ import annotations

import time
from typing import Any

from tui.lang.expr.errors import DeadlineError, LimitError

#: Evaluations per tool run (language.md §8): one per expression evaluated and per call of an arrow or plugin
#: function, plus what library functions build or read. A run that spends it is runaway work.
MAX_EVALUATIONS = 100_000
#: Longest string an expression may build, in characters (1 MB of ASCII).
MAX_STRING = 1_048_576
#: Most items in a list an expression may build.
MAX_ITEMS = 100_000
#: Building, copying or reading text costs one evaluation per this many characters.
CHARS_PER_EVALUATION = 64
#: Copying items in bulk (a slice, concat, a spread: one C loop over pointers, a few nanoseconds an item)
#: costs one evaluation per this many items; work done item by item in Python costs one per item.
ITEMS_PER_EVALUATION = 16
#: The operations (operators, member reads, literals built) one evaluation of an expression or arrow body
#: covers: a bigger body costs one more per this many, so a body of hundreds of operations cannot run a
#: hundred thousand times for the price of one evaluation each.
OPS_PER_EVALUATION = 16
#: Operations a call counts for in its body's size (a Python call and the library's argument checks cost
#: about as much as four operators); a library function with a big fixed cost adds its own (registry `cost`).
CALL_OPS = 4
#: Longest regular expression pattern.
MAX_PATTERN = 1_000
#: Distinct patterns compiled in one run (threats.md R5).
MAX_PATTERNS_PER_RUN = 256
#: Evaluations between two looks at the clock when a run has a deadline. Every builtin charges for its work
#: before doing it, so this many take a few milliseconds (at most about a third of a second), and loops over
#: a few thousand items still run in one stretch.
CLOCK_EVERY = 16_384


def body_cost(ops: int) -> int:
    """Evaluations one run of an expression or arrow body of `ops` operations costs: one per OPS_PER_EVALUATION
    operations, at least one."""
    return max(1, -(-ops // OPS_PER_EVALUATION))


class Run:
    """The state one tool run shares across all its expressions: the budget, the deadline, `now`, caches.

    The compiled code adds to `used` directly (no call) and builtins check it: a body without builtin calls
    is bounded by its size (and charged by it), so checking in every builtin loop is enough to stop a run. Loops compare
    `used` with `stop` — the budget, or the next point at which to look at the clock, whichever is nearer —
    so the deadline costs nothing on the fast path.
    """

    __slots__ = ("deadline", "formats", "limit", "locale", "now", "regexes", "stop", "used")

    def __init__(
        self, now: str, limit: int = MAX_EVALUATIONS, locale: str = "zh", deadline: float | None = None
    ) -> None:
        self.used = 0
        """Evaluations charged so far."""
        self.limit = limit
        """The budget (MAX_EVALUATIONS unless a host sets another)."""
        self.deadline = deadline
        """time.monotonic() value after which the run fails (None: no deadline), checked inside builtins."""
        self.stop = limit if deadline is None else min(limit, CLOCK_EVERY)
        """Where the library next has to look: `limit`, or sooner, the next clock check."""
        self.now = now
        """The current Beijing time as ISO text, the value of the bound name `now`."""
        self.locale = locale
        """'zh' or 'en': the language of relTime() and of messages meant for users."""
        self.regexes: dict[str, Any] = {}
        """Patterns compiled in this run, by their text."""
        self.formats: dict[Any, Any] = {}
        """Date formats read in this run: date(text, format) patterns by their text, formatDate's layouts by
        ('formatDate', text)."""

    def exceeded(self) -> LimitError:
        """The error for a spent budget."""
        return LimitError(f"expression budget of {self.limit:,} evaluations exceeded")

    def timed_out(self) -> LimitError:
        """The error for a run whose time is up while an expression is being evaluated."""
        return DeadlineError("the run's time limit passed while an expression was being evaluated")

    def over(self) -> None:
        """Called once `used` passed `stop`: fail for a spent budget or a passed deadline, else set the next stop."""
        if self.used > self.limit:
            raise self.exceeded()
        if self.deadline is None:
            self.stop = self.limit
            return
        if time.monotonic() > self.deadline:
            raise self.timed_out()
        self.stop = min(self.limit, self.used + CLOCK_EVERY)

    def check(self) -> None:
        """Fail if the budget is spent (or, when it is time to look, the deadline has passed)."""
        if self.used > self.stop:
            self.over()

    def check_deadline(self) -> None:
        """Fail if the deadline has passed (for builtins whose single steps are slow)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.timed_out()

    def charge(self, n: int) -> None:
        """Charge `n` evaluations and fail if the budget is spent."""
        self.used += n
        if self.used > self.stop:
            self.over()

    def charge_text(self, length: int) -> None:
        """Charge for building a string of `length` characters, before it is built: one evaluation per 64
        characters (a short text is part of the operation or call that builds it)."""
        cap_text(length)
        self.charge(length // CHARS_PER_EVALUATION)

    def charge_scan(self, length: int) -> None:
        """Charge for reading or copying `length` characters (or HTML nodes): nothing below 64, so short
        inputs cost what they always did, and a bigger input never costs less."""
        self.charge(length // CHARS_PER_EVALUATION)

    def charge_items(self, n: int) -> None:
        """Charge for copying `n` items into a new list in bulk (a C loop), before it is built: one evaluation
        per ITEMS_PER_EVALUATION items. Lists made item by item in Python charge `charge(n)` instead."""
        cap_items(n)
        self.charge(n // ITEMS_PER_EVALUATION)

    def charge_copy(self, n: int) -> None:
        """Charge for copying `n` keys or items in bulk where no list limit applies (dict.update, list(d))."""
        self.charge(n // ITEMS_PER_EVALUATION)

    def fits(self, n: int) -> bool:
        """True when `n` more evaluations cannot pass `stop` (so a loop may skip per-item checks)."""
        return self.used + n <= self.stop


def cap_text(length: int) -> None:
    """Fail if a string of `length` characters would pass the string limit (nothing is charged)."""
    if length > MAX_STRING:
        raise LimitError(f"string of {length:,} characters is over the {MAX_STRING:,}-character limit")


def cap_items(n: int) -> None:
    """Fail if a list of `n` items would pass the list limit (nothing is charged)."""
    if n > MAX_ITEMS:
        raise LimitError(f"list of {n:,} items is over the {MAX_ITEMS:,}-item limit")
