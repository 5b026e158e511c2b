"""Public suffixes (`edu.cn`, `com.cn`, `github.io`): names under which anyone can register a site, so a
`network` entry may not cover one (issue 15 item 12; threats.md N2). Pure look-ups, no network.

The list is the `publicsuffixlist` package's bundled snapshot, both sections: ICANN suffixes and the private
ones that hosting services register (github.io, s3.amazonaws.com …). Parsing the whole list takes the library
about 90 ms; a question about one name needs only the rules that end in the name's top-level label (every rule
that can match `a.b.cn` ends in `cn`), so the library is given just those lines, parsed once per top-level
label (5-15 ms). The validator runs at start-up for installed plugins: this keeps the cost there to the
top-level labels their entries use, and nothing is read until a `network` entry is checked.
"""

from __future__ import annotations

import contextlib
import functools
import re

from publicsuffixlist import PSLFILE, PublicSuffixList


@functools.cache
def _text() -> str:
    with open(PSLFILE, encoding="utf-8") as f:
        return f.read()


@functools.cache
def _list_for(tld: str) -> PublicSuffixList:
    """The list's rules that end in `tld` (its IDNA form, or the Unicode form the file writes), parsed."""
    forms = {tld}
    if tld.startswith("xn--"):
        with contextlib.suppress(UnicodeError):
            forms.add(tld.encode("ascii").decode("idna"))
    ends = "|".join(re.escape(f) for f in forms)
    rules = re.findall(rf"^(?:[^\s/]+\.)?(?:{ends})$", _text(), re.MULTILINE)
    # accept_unknown: a top-level label the list does not know is itself a suffix (the list's implicit `*` rule)
    return PublicSuffixList(rules, accept_unknown=True)


def is_public_suffix(host: str) -> bool:
    """True when `host` (lower-case IDNA, no trailing dot, no wildcard) is a public suffix itself."""
    host = host.lower().rstrip(".")
    if not host:
        return False
    return bool(_list_for(host.rsplit(".", 1)[-1]).is_public(host))
