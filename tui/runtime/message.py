"""Sentences the runtime says to a person, as a key and arguments the app and the CLI translate.

The runtime cannot import the app's i18n table (layers: cli > app > runtime > lang), yet its refusals, login
states and notices reach the app's screens. So it says them as a `Message`: an i18n key with arguments, looked
up in `MESSAGES` (the tables of `tui.runtime.messages`, one module per area, merged here: the one table both
tui.app and tui.cli can reach).

A `Message` is a `str` whose value is the English sentence, so every place that logs, audits, stores or hands
it to the model keeps working and stays readable (`str(exc)` in English). Only a screen translates:
`say(value, locale)` renders a `Message` in the locale and leaves any other string (a plugin's or a server's
words) as it is; `say_error(e, locale)` does it for an exception that carries one. An argument may be a message
too, a name in both languages (`{"zh": …, "en": …}`), or a list of those (one a line).

A message that has to outlive the process keeps its key: `to_json`/`from_json` inside a JSON document (a chat
turn's record), `stored`/`restored` in a text column that also holds plain text (a run log's detail).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tui.runtime.messages import campus, common, drafts, gate, install, model, remote, scheduler, settings


def _merged(*tables: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise ValueError(f"message keys defined twice: {sorted(twice)}")
        out.update(table)
    return out


MESSAGES: dict[str, dict[str, str]] = _merged(
    common.MESSAGES,
    gate.MESSAGES,
    campus.MESSAGES,
    install.MESSAGES,
    scheduler.MESSAGES,
    model.MESSAGES,
    settings.MESSAGES,
    remote.MESSAGES,
    drafts.MESSAGES,
)


class Message(str):
    """A sentence for a person: an i18n key and its arguments; its `str` value is the English sentence."""

    key: str
    args: Mapping[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Message:
        """The message `key` with `args`; arguments that are themselves messages are translated with it."""
        self = super().__new__(cls, _render(key, args, "en"))
        self.key = key
        self.args = args
        return self

    def text(self, locale: str) -> str:
        """The sentence in `locale` ("zh" or "en")."""
        return _render(self.key, self.args, locale)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, dict(self.args)))


def _rebuild(key: str, args: dict[str, Any]) -> Message:
    return Message(key, **args)


def _render(key: str, args: Mapping[str, Any], locale: str) -> str:
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    shown = {name: say(value, locale) for name, value in args.items()}
    try:
        return (entry.get(locale) or entry["en"]).format(**shown)
    except (KeyError, IndexError, ValueError):
        return entry["en"]


def say(value: object, locale: str) -> str:
    """`value` for a person reading `locale`: a `Message` translated, anything else as its own words."""
    if isinstance(value, Message):
        return value.text(locale)
    if isinstance(value, Mapping) and "zh" in value:  # a name in both languages (a campus service's title)
        return str(value.get(locale) or value["zh"])
    if isinstance(value, list | tuple):  # lines: each one said
        return "\n".join(say(v, locale) for v in value)
    return value if isinstance(value, str) else str(value)


def message_of(error: BaseException) -> str:
    """What `error` says: the first `Message` among its arguments (so a wrapping error keeps the key), else
    `str(error)`."""
    return next((a for a in error.args if isinstance(a, Message)), None) or str(error)


def say_error(error: BaseException, locale: str) -> str:
    """What `error` says, for a person reading `locale` (an error without a `Message` in its own words)."""
    return say(message_of(error), locale)


# ---- keeping a message --------------------------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """`value` as JSON that `from_json` turns back into it: a message as {"m": key, "a": arguments}."""
    if isinstance(value, Message):
        return {"m": value.key, "a": {k: to_json(v) for k, v in value.args.items()}}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return str(value) if isinstance(value, str) else value
    return str(value)


def from_json(data: Any) -> Any:
    """The value `to_json` wrote (a message whose key this app does not know reads as its key).

    Raises:
        ValueError: `data` is not what `to_json` writes.
    """
    if isinstance(data, dict):
        if data.keys() == {"m", "a"} and isinstance(data["m"], str) and isinstance(data["a"], dict):
            return Message(data["m"], **{str(k): from_json(v) for k, v in data["a"].items()})
        return {k: from_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [from_json(v) for v in data]
    if data is None or isinstance(data, bool | int | float | str):
        return data
    raise ValueError(f"not a kept message: {data!r}")


#: Between the English sentence and the message's JSON in a stored text (a control character: `clean()` drops it
#: and no sentence has it).
_KEPT = "\x1e"


def stored(value: str, limit: int | None = None) -> str:
    """`value` for a text column: plain text as it is; a `Message` as its English sentence, U+001E and its key and
    arguments as JSON, so the column still reads as the sentence and `restored` gives the message back. Cut to
    `limit` characters (a message too long to keep whole is kept as its English sentence)."""
    text = str(value)
    if isinstance(value, Message):
        kept = text.replace(_KEPT, "") + _KEPT + json.dumps(to_json(value), ensure_ascii=False)
        if limit is None or len(kept) <= limit:
            return kept
    return text[:limit] if limit is not None else text


def restored(text: str) -> str:
    """What `stored` kept: the `Message` back, or the text as it is (plain text, or a kept message this app cannot
    read: its sentence)."""
    sentence, mark, data = text.partition(_KEPT)
    if not mark:
        return text
    try:
        value = from_json(json.loads(data))
    except ValueError:
        return sentence
    return value if isinstance(value, Message) else sentence
