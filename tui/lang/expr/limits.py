"""Named limits of expression evaluation (language.md §7) and the per-run budget that enforces them."""

from __future__ import annotations

from typing import Any

from tui.lang.expr.errors import LimitError

#: Expression evaluations per tool run; each syntax node evaluated counts one, builtins charge their work.
MAX_EVALUATIONS = 100_000
#: Longest string an expression may build, in characters (1 MB of ASCII).
MAX_STRING = 1_048_576
#: Most items in a list an expression may build.
MAX_ITEMS = 100_000
#: Building text costs one evaluation per this many characters (so big strings exhaust the budget early).
CHARS_PER_EVALUATION = 64
#: Longest regular expression pattern.
MAX_PATTERN = 1_000
#: Distinct patterns compiled in one run (threats.md R5).
MAX_PATTERNS_PER_RUN = 256


class Run:
    """The state one tool run shares across all its expressions: the budget, `now`, the locale, caches.

    The compiled code adds to `used` directly (no call) and builtins check it: a body without builtin calls
    is bounded by its size, so checking in every builtin loop is enough to stop a run quickly.
    """

    __slots__ = ("limit", "locale", "now", "regexes", "used")

    def __init__(self, now: str, limit: int = MAX_EVALUATIONS, locale: str = "zh") -> None:
        self.used = 0
        """Evaluations charged so far."""
        self.limit = limit
        """The budget (MAX_EVALUATIONS unless a host sets another)."""
        self.now = now
        """The current Beijing time as ISO text, the value of the bound name `now`."""
        self.locale = locale
        """'zh' or 'en': the language of relTime() and of messages meant for users."""
        self.regexes: dict[str, Any] = {}
        """Patterns compiled in this run, by their text."""

    def exceeded(self) -> LimitError:
        """The error for a spent budget."""
        return LimitError(f"expression budget of {self.limit:,} evaluations exceeded")

    def check(self) -> None:
        """Fail if the budget is spent."""
        if self.used > self.limit:
            raise self.exceeded()

    def charge(self, n: int) -> None:
        """Charge `n` evaluations and fail if the budget is spent."""
        self.used += n
        if self.used > self.limit:
            raise self.exceeded()

    def charge_text(self, length: int) -> None:
        """Charge for building a string of `length` characters, before it is built."""
        if length > MAX_STRING:
            raise LimitError(f"string of {length:,} characters is over the {MAX_STRING:,}-character limit")
        self.charge(1 + length // CHARS_PER_EVALUATION)

    def charge_items(self, n: int) -> None:
        """Charge for building a list of `n` items, before it is built."""
        if n > MAX_ITEMS:
            raise LimitError(f"list of {n:,} items is over the {MAX_ITEMS:,}-item limit")
        self.charge(1 + n)

    def fits(self, n: int) -> bool:
        """True when `n` more evaluations cannot spend the budget (so a loop may skip per-item checks)."""
        return self.used + n <= self.limit
