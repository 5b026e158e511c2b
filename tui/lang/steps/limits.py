"""Run limits (language.md §7): constants only, so what checks plugin files (validate, test files) can read
them without the run machinery (asyncio and the host)."""

MAX_STEPS = 200
MAX_REQUESTS = 60
MAX_CONCURRENT_REQUESTS = 4
DEADLINE_SECONDS = 60.0
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
MAX_RESULT_BYTES = 1024 * 1024
MAX_EACH_ITEMS = 50
MAX_PAGES = 30
MAX_CALL_DEPTH = 4
MAX_KV_KEY = 200
"""Longest KV key, in characters (threats.md K3)."""
MAX_STALE_MS = 7 * 24 * 3_600_000
"""A cache answers with stale data after an error for at most a week (threats.md K4)."""
