"""Who gets the official mark (seeds: 官方 / 社区), and what may not pretend to have it (issue 15 item 14).

GitHub serves a fork's commits through the parent repository's API and raw URLs, so a commit id in a link into
`pkuinfo/pku-harness-plugins` proves nothing about who wrote it. `vouch` asks the API whether the ref is a
named branch or tag of the repository that points at the fetched commit (`git/ref/heads/…`, `git/ref/tags/…`,
an annotated tag dereferenced once), or else whether the commit is reachable from the default branch
(`compare/<default>...<commit>` is `behind` or `identical`). Only then is the plugin official.

A community plugin may not dress up as official either: `imitations` finds names, authors and ids that claim
the mark ("官方", "official" as a word, check marks, "pkuinfo", "PKU harness" as author), after NFKC, with
zero-width and bidi characters removed and common look-alike letters folded; the installer refuses them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tui.lang.documents.manifest import Manifest
from tui.runtime.message import Message
from tui.runtime.plugins.links import OFFICIAL_OWNER, ResolvedRef

if TYPE_CHECKING:  # only named here: `plugin validate` checks the mark without the HTTP client's imports
    from tui.runtime.plugins.fetch_http import Answer

Api = Callable[[str, str], "Answer | None"]
"""GET an API path (after the base URL), for a message naming `what`: the answer, or None for not found."""

#: `compare` statuses that mean the commit is on the default branch.
REACHABLE = frozenset({"behind", "identical"})


def json_object(answer: Answer | None) -> dict[str, Any] | None:
    """An API answer's JSON object (None when there is none or it is not an object)."""
    if answer is None:
        return None
    try:
        data = json.loads(answer.body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def default_branch(answer: Answer | None) -> str | None:
    """The `default_branch` of a repository answer."""
    branch = (json_object(answer) or {}).get("default_branch")
    return branch if isinstance(branch, str) and branch else None


def _target(ref_answer: dict[str, Any] | None, full_name: str | None) -> tuple[str, str] | None:
    """(type, sha) a `git/ref/…` answer points at when it is exactly `full_name` (never a prefix match), or a
    `git/tags/…` answer (`full_name` None)."""
    if ref_answer is None or (full_name is not None and ref_answer.get("ref") != full_name):
        return None
    obj = ref_answer.get("object")
    if not isinstance(obj, dict) or not isinstance(obj.get("sha"), str) or not isinstance(obj.get("type"), str):
        return None
    return obj["type"], obj["sha"]


def vouch(api: Api, repo: str, ref: ResolvedRef) -> ResolvedRef | None:
    """The ref as a branch, tag or default-branch commit of `repo` (`/repos/OWNER/NAME`), or None when the
    repository does not vouch for `ref.commit` (a fork's commit served through it, or a ref that moved away)."""
    if ref.kind == "branch":
        return ref  # resolved from the repository's own default branch
    name, commit, q = ref.name, ref.commit, quote(ref.name, safe="/")
    head = _target(
        json_object(api(f"{repo}/git/ref/heads/{q}", Message("fetch_what_branch", name=name))), f"refs/heads/{name}"
    )
    if head == ("commit", commit):
        return ResolvedRef("branch", name, commit)
    tag = _target(
        json_object(api(f"{repo}/git/ref/tags/{q}", Message("fetch_what_tag", name=name))), f"refs/tags/{name}"
    )
    if tag is not None and tag[0] == "tag":  # an annotated tag: one more step to its commit
        tag = _target(
            json_object(api(f"{repo}/git/tags/{quote(tag[1], safe='')}", Message("fetch_what_tag", name=name))), None
        )
    if tag == ("commit", commit):
        return ResolvedRef("tag", name, commit)
    default = default_branch(api(repo, Message("fetch_what_repo")))
    if default is None:
        return None
    compared = json_object(
        api(f"{repo}/compare/{quote(default, safe='')}...{commit}", Message("fetch_what_commit", commit=commit))
    )
    if compared is not None and compared.get("status") in REACHABLE:
        return ResolvedRef("commit", name, commit)
    return None


# ---- names that imitate the mark --------------------------------------------------------------------------

#: Letters that look like Latin ones (Cyrillic, Greek, others) and digits written for letters, folded before
#: matching. NFKC already folds full-width and mathematical letters.
_LOOKALIKE = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "һ": "h", "к": "k", "м": "m", "т": "t", "у": "y", "ο": "o", "ι": "i", "α": "a", "κ": "k", "ν": "v",
        "υ": "u", "ρ": "p", "τ": "t", "ƒ": "f", "ı": "i", "ɩ": "i", "0": "o", "1": "i",
    }
)  # fmt: skip
_WORD = re.compile(r"(?<![a-z])official(?![a-z])")
_SQUASH = re.compile(r"[\W_]+")  # spaces, punctuation, symbols: "pku-info", "官 方", "P.K.U harness"


def _visible(text: str) -> str:
    """NFKC, without format characters (zero-width, bidi controls) and variation selectors, case-folded."""
    text = unicodedata.normalize("NFKC", text)
    kept = (c for c in text if unicodedata.category(c) != "Cf" and not 0xFE00 <= ord(c) <= 0xFE0F)
    return "".join(kept).casefold()


def _check_mark(c: str) -> bool:
    name = unicodedata.name(c, "")
    return "CHECK MARK" in name or "WITH CHECK" in name or name in ("SQUARE ROOT", "BALLOT BOX WITH BOLD CHECK")


def imitation(text: str, author: bool = False) -> str | None:
    """What in `text` claims the official mark, or None. `author` adds the app's own name ("PKU harness")."""
    visible = _visible(text)
    marks = [c for c in visible if _check_mark(c)]
    if marks:
        return Message("mark_check", mark=marks[0])
    folded = visible.translate(_LOOKALIKE)
    squashed = _SQUASH.sub("", folded)
    if "官方" in squashed:
        return Message("mark_word_zh")
    if _WORD.search(_SQUASH.sub(" ", folded)):
        return Message("mark_word_en")
    if OFFICIAL_OWNER in squashed:
        return Message("mark_owner", owner=OFFICIAL_OWNER)
    if author and "pkuharness" in squashed:
        return Message("mark_app_name")
    return None


#: What an author whose plugin imitates the mark should do.
IMITATION_ADVICE = (
    "installed from anywhere but the official repository, such a plugin is refused; give it an id, a name and an "
    "author of your own"
)


def imitations(manifest: Manifest) -> list[str]:
    """Sentences naming each field of `manifest` that claims the official mark."""
    fields: list[tuple[str, str, bool]] = [("id", manifest.id, False), ("name", manifest.name, False)]
    english = manifest.i18n.en if manifest.i18n else None
    if english is not None and english.name:
        fields.append(("i18n.en.name", english.name, False))
    fields.append(("author", manifest.author, True))
    out: list[str] = []
    for field, value, is_author in fields:
        what = imitation(value, is_author)
        if what:
            out.append(Message("mark_field", field=field, value=value, what=what))
    return out
