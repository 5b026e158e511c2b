"""Finding a conversation again: a full-text index of what was said, and the search over it.

The index is `chat_fts` (migration 9), an FTS5 table with the `trigram` tokenizer: it finds any run of three or
more characters, so Chinese, which has no spaces between words, is found as well as English. One row per user
or assistant message that has words, its rowid the message's row in `chat_messages`, its text the words of the
message — not the JSON the message is stored as, whose keys ("role", "content") would match every search.
`ChatHistory` keeps it in step on every write (not triggers: a trigger on `chat_messages` that writes to an FTS5
table would make every stored message fail on an SQLite that cannot load FTS5).

A word of one or two characters ("二教") is no trigram: it is looked up with LIKE. Without FTS5 (an SQLite built
without it, or a database indexed by one with it and opened by one without) there is no usable index and every
word is looked up with LIKE in the stored messages themselves: slower on a long history, the same answers.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

#: The index of the messages' words (made by migration 9 when SQLite has FTS5).
INDEX = "chat_fts"

#: The virtual table module the index is made with (a test names one that does not exist to be without FTS5).
MODULE = "fts5"

#: The trigram tokenizer matches runs of at least this many characters; a shorter word is looked up with LIKE.
TRIGRAM = 3

#: How many characters of a message a search hit shows around the first word found.
SNIPPET_CHARS = 48

#: A message's words as SQL, for the search without an index: the same words `message_text` gives for a text
#: content (a CASE tries its branches in order, so a damaged row is skipped instead of failing the search).
_STORED_TEXT = (
    "CASE WHEN NOT json_valid(content) THEN '' WHEN json_type(content, '$.content') = 'text' "
    "THEN json_extract(content, '$.content') ELSE '' END"
)


def message_text(message: dict[str, Any]) -> str:
    """The words of a stored message a search looks in: what the student wrote and what the assistant answered
    ('' for a tool's result, a call without text, reasoning)."""
    if message.get("role") not in ("user", "assistant"):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # the API's parts: only the text ones are words
        return "\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def create_index(db: sqlite3.Connection) -> None:
    """Migration 9: make the index and fill it from the messages already stored; nothing when SQLite cannot make
    an FTS5 trigram table (the search then reads the messages themselves)."""
    try:
        db.execute(f"CREATE VIRTUAL TABLE {INDEX} USING {MODULE} (text, tokenize = 'trigram')")
    except sqlite3.OperationalError:  # "no such module: fts5", or an SQLite before 3.34 (no trigram tokenizer)
        return
    rows = db.execute("SELECT id, content FROM chat_messages WHERE role IN ('user', 'assistant')").fetchall()
    filled = []
    for row_id, content in rows:
        try:
            message = json.loads(content)
        except ValueError:
            continue  # a damaged row has no words to find (ChatHistory skips it too)
        text = message_text(message) if isinstance(message, dict) else ""
        if text.strip():
            filled.append((row_id, text))
    db.executemany(f"INSERT INTO {INDEX} (rowid, text) VALUES (?, ?)", filled)


def index_usable(db: sqlite3.Connection) -> bool:
    """The index exists and this SQLite can read it."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (INDEX,)).fetchone() is None:
        return False
    try:
        db.execute(f"SELECT rowid FROM {INDEX} WHERE 0").fetchall()
    except sqlite3.OperationalError:  # made by an SQLite with FTS5, opened by one without: "no such module"
        return False
    return True


def add(db: sqlite3.Connection, row_id: int, message: dict[str, Any]) -> None:
    """Index a message just stored as row `row_id` (nothing when it has no words)."""
    text = message_text(message)
    if text.strip():
        db.execute(f"INSERT INTO {INDEX} (rowid, text) VALUES (?, ?)", (row_id, text))


def remove(db: sqlite3.Connection, session: str, from_row: int = 0) -> None:
    """Forget the indexed messages of `session` from row `from_row` on (before those rows are deleted)."""
    db.execute(
        f"DELETE FROM {INDEX} WHERE rowid IN (SELECT id FROM chat_messages WHERE session = ? AND id >= ?)",
        (session, from_row),
    )


def words(query: str) -> list[str]:
    """The words of a search: every one must be found (case does not matter for Latin letters)."""
    return list(dict.fromkeys(query.split()))[:8]  # a pasted paragraph is not eight hundred LIKEs


def _like(word: str) -> str:
    """A LIKE pattern finding `word` anywhere, its own % and _ taken literally (ESCAPE '\\')."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _phrase(word: str) -> str:
    """`word` as an FTS5 string: matched as written, never read as the query language (AND, NEAR, `*`, `:`)."""
    return '"' + word.replace('"', '""') + '"'


def hits(db: sqlite3.Connection, query: str, indexed: bool) -> dict[str, str]:
    """The conversations whose one message holds every word of `query`, each with the text of the first such
    message: `{session: text}`."""
    found = words(query)
    if not found:
        return {}
    long = [w for w in found if len(w) >= TRIGRAM]
    short = [w for w in found if len(w) < TRIGRAM]
    if indexed:
        # `text || ''` keeps LIKE off the trigram index: SQLite 3.40's index answers nothing for a LIKE of fewer
        # than three non-ASCII characters ('%二教%'), where a plain comparison of the text finds it.
        conditions = [f"{INDEX} MATCH ?"] if long else []
        conditions += [f"({INDEX}.text || '') LIKE ? ESCAPE '\\'"] * len(short)
        params = ([" ".join(_phrase(w) for w in long)] if long else []) + [_like(w) for w in short]
        sql = (
            f"SELECT m.session, min(m.id), {INDEX}.text FROM {INDEX} JOIN chat_messages AS m ON m.id = {INDEX}.rowid "
            f"WHERE {' AND '.join(conditions)} GROUP BY m.session"
        )
    else:
        conditions = ["role IN ('user', 'assistant')"] + [f"({_STORED_TEXT}) LIKE ? ESCAPE '\\'"] * len(found)
        params = [_like(w) for w in found]
        sql = (
            f"SELECT session, min(id), {_STORED_TEXT} FROM chat_messages "
            f"WHERE {' AND '.join(conditions)} GROUP BY session"
        )
    # min(): SQLite takes the row's other columns from the row with the smallest id, the first hit
    return {str(session): str(text or "") for session, _, text in db.execute(sql, params).fetchall()}


def titled(db: sqlite3.Connection, query: str) -> set[str]:
    """The conversations whose title holds every word of `query` (titles are few: a LIKE over them is cheap, and
    a title changed later is found as it is now)."""
    found = words(query)
    if not found:
        return set()
    where = " AND ".join(["title LIKE ? ESCAPE '\\'"] * len(found))
    rows = db.execute(f"SELECT id FROM chat_sessions WHERE {where}", [_like(w) for w in found]).fetchall()
    return {str(r[0]) for r in rows}


def holds_all(text: str, query: str) -> bool:
    """`text` holds every word of `query` (as the search compares: Latin letters in either case)."""
    folded = text.casefold()
    return all(w.casefold() in folded for w in words(query))


def snippet(text: str, query: str, chars: int = SNIPPET_CHARS) -> str:
    """The part of `text` around the first word of `query` found in it, on one line, cut with … where it was cut."""
    flat = " ".join(text.split())
    folded = flat.casefold()
    places = [p for p in (folded.find(w.casefold()) for w in words(query)) if p >= 0]
    at = min(places, default=0)
    start = max(0, min(at - chars // 4, len(flat) - chars))  # some words before the hit, the window filled
    end = min(len(flat), start + chars)
    # An English word is not cut in half where a space is near (Chinese has none: any place is a word's edge).
    if start > 0 and _inside_word(flat, start) and (space := flat.find(" ", start, at)) >= 0:
        start = space + 1
    if end < len(flat) and _inside_word(flat, end) and (space := flat.rfind(" ", start, end)) > at:
        end = space
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")


def _inside_word(text: str, at: int) -> bool:
    """A cut at `at` would split a word of Latin letters or digits."""
    return all(c.isascii() and c.isalnum() for c in text[at - 1 : at + 1])
