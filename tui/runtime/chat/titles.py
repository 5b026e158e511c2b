"""A conversation's title, made by the model once its first question is answered.

A conversation starts titled with its first question (`ChatHistory.start`), which is what Ctrl+O and
`chat --list` show and search. When a model server answers (not the offline demo model, which would only
repeat the question), one short extra request asks it for a title of a few words, in the question's
language. The first question stays the title when that fails, comes back empty (a reasoning model may spend
`TITLE_TOKENS` thinking), is cut at that limit (a ramble, not a title), or the title changed meanwhile
(`ChatHistory.retitle` only replaces the title it was made from).

What the model says is treated as what it is — text from a server, perhaps steered by a tool result it read:
one line, no escapes or invisible characters (`clean`), no Markdown or quotes around it, at most
`TITLE_CHARS` characters. It is shown as text, never as markup.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from tui.runtime.chat.client import ModelClient, ModelError, StreamEvent
from tui.runtime.chat.history import TITLE_CHARS, ChatHistory
from widgets_render.safe_text import clean

if TYPE_CHECKING:
    from tui.runtime.chat.client import Model

log = logging.getLogger(__name__)

#: The title request's answer limit: a dozen words, with room for a model that says "Title:" first.
TITLE_TOKENS = 48
#: How much of the first answer the model reads for the title (the question says most of it).
ANSWER_CHARS = 600
#: A title request waits no longer than this: the conversation does not need it.
TIMEOUT_S = 30.0

TITLE_PROMPT = """Name this conversation for a list of past chats. Reply with the title only: at most 8 words \
(in Chinese at most 14 characters), in the language of the student's question, no quotes, no Markdown, no \
full stop."""

_LABEL = re.compile(r"^\s*(?:title|标题|題目|题目)\s*[:：]\s*", re.IGNORECASE)
#: Marks a model wraps a title in: Markdown emphasis and headings, quotes and title brackets.
_WRAPPERS = "#*_`\"'“”‘’「」『』《》【】 \t"
_END = "。．.!！?？,，;；:："


def tidy_title(said: str) -> str | None:
    """The title in what the model said: its first line with words, unwrapped and cut to `TITLE_CHARS`;
    None when nothing is left.

    >>> tidy_title('**标题：「二教空教室查询」**\\n')
    '二教空教室查询'
    >>> tidy_title('"Free rooms in Teaching Building 2."')
    'Free rooms in Teaching Building 2'
    """
    for raw in clean(said).splitlines():
        line = _LABEL.sub("", raw.strip(_WRAPPERS)).strip(_WRAPPERS).rstrip(_END).strip(_WRAPPERS)
        line = " ".join(line.split())
        if line:
            return line[:TITLE_CHARS].rstrip()
    return None


async def _ignore(event: StreamEvent) -> None:
    """The title is not streamed anywhere: it appears when it is whole."""


async def model_title(client: Model, question: str, answer: str) -> str | None:
    """A title for a conversation that began with `question` and was answered with `answer`, from the model
    `client` talks to; None for the demo model, or when the request fails or says nothing usable."""
    if not isinstance(client, ModelClient):
        return None
    short = ModelClient(replace(client.config, max_tokens=TITLE_TOKENS), client.api_key, TIMEOUT_S)
    messages = [
        {"role": "system", "content": TITLE_PROMPT},
        {"role": "user", "content": f"Question:\n{question}\n\nAnswer:\n{answer[:ANSWER_CHARS]}"},
    ]
    try:
        done = await short.complete(messages, [], _ignore)
    except ModelError as e:  # the first question stays the title; nothing to tell the student
        log.info("no title from the model: %s (%s)", e, e.kind)
        return None
    finally:
        await short.close()
    if done.finish_reason == "length":  # it rambled past a dozen words: not a title (SmolLM2 does)
        return None
    return tidy_title(done.content)


async def retitle(history: ChatHistory, client: Model, cid: str) -> str | None:
    """Give the conversation `cid` a title made by the model, when it has had exactly one question answered
    and is still titled by it. Returns the new title, or None when the title stays as it was."""
    conversation = history.find(cid)
    if conversation is None:
        return None
    messages = history.messages(cid)
    questions = [m for m in messages if m.get("role") == "user"]
    answers = [m for m in messages if m.get("role") == "assistant" and m.get("content")]
    if len(questions) != 1 or not answers:
        return None
    question = str(questions[0].get("content") or "")
    if conversation.title != ChatHistory.first_title(question):
        return None  # retitled already (or a scheduled check's conversation)
    title = await model_title(client, question, str(answers[-1]["content"]))
    if title is None or not history.retitle(cid, title, was=conversation.title):
        return None
    return title
