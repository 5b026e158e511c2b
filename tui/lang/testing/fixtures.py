"""The files recorded responses answer with (`response: { file: fixtures/page.html }`), and their bounds.

A fixture stands for a response, so it may be as big as a response a run accepts (2 MB), not only as big as the
plugin's own files (512 KB: the app never loads fixtures). Bounded still: each file at most 2 MB, and the files
one test run (or one demo) reads at most 64 MB together, each file counted once.
"""

from __future__ import annotations

from tui.lang.documents.source import BudgetedReader, DirectorySource, FileTooBig, PluginSource, SourceError
from tui.lang.steps.limits import MAX_RESPONSE_BYTES

#: Most bytes one fixture may have: the response limit of a run (language.md §15).
MAX_FIXTURE_BYTES = MAX_RESPONSE_BYTES

#: Most bytes of fixtures one test run reads, all files together.
MAX_FIXTURES_TOTAL = 64 * 1024 * 1024


class FixtureReader:
    """Reads fixtures as bytes (a response's body: decoded later by the charset its headers name)."""

    def __init__(self, source: PluginSource | BudgetedReader, total: int = MAX_FIXTURES_TOTAL) -> None:
        self.source = source.source if isinstance(source, BudgetedReader) else source
        self.total = total
        self.used = 0
        self.files: dict[str, bytes] = {}

    def read(self, relpath: str) -> bytes:
        """The fixture's bytes.

        Raises:
            SourceError: the path breaks a rule, the file is missing, over 2 MB, or past the 64 MB of a run.
        """
        if relpath in self.files:
            return self.files[relpath]
        try:
            if isinstance(self.source, DirectorySource):
                data = self.source.read_bytes(relpath, max_bytes=MAX_FIXTURE_BYTES)
            else:
                data = self.source.read_bytes(relpath)
        except FileTooBig as e:
            raise SourceError(_too_big(relpath, e.size)) from None
        if len(data) > MAX_FIXTURE_BYTES:
            raise SourceError(_too_big(relpath, len(data)))
        self.used += len(data)
        if self.used > self.total:
            mb = self.total // 1024 // 1024
            raise SourceError(f"loading {relpath} passes the {mb} MB that a test run's fixtures may have together")
        self.files[relpath] = data
        return data


def _too_big(relpath: str, size: int) -> str:
    mb = MAX_FIXTURE_BYTES // 1024 // 1024
    return f"{relpath} is {size:,} bytes; a recorded response may be at most {mb} MB, as a real one (§15)"
