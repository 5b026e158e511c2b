"""`pku-harness chat --once …` (one turn, no UI; `--continue` to go on with an earlier conversation), `chat --list`
(earlier conversations, `--search` to find one) and `pku-harness model …` (the provider, the key in keyring)."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import asdict
from typing import Any

import click

from tui.cli.output import echo, echo_json, fail, line, pad, usage_error
from tui.cli.tools import _open
from tui.runtime.chat.agent import Agent, AgentEvent, TurnResult
from tui.runtime.chat.demo_model import DemoModel, open_client
from tui.runtime.chat.history import ChatHistory, Conversation, for_model
from tui.runtime.chat.providers import (
    PRESETS,
    KeyringUnavailable,
    clear_config,
    load_config,
    load_key,
    save_config,
)
from tui.runtime.chat.titles import retitle
from tui.runtime.runtime import DEMO_NOW
from tui.runtime.scheduler.timing import beijing
from tui.runtime.store import Store

NO_MODEL = (
    "no model is set up: run `pku-harness model set deepseek` (or qwen, openai, ollama, vllm, llamacpp, custom), "
    "or give --base-url and --model"
)


#: What `--continue` without an id stands for: the conversation written to last.
LATEST = "latest"


@click.command("chat")
@click.option("--once", "message", help="Run one user turn with this message and print the answer.")
@click.option(
    "--continue",
    "continue_id",
    is_flag=False,
    flag_value=LATEST,
    default=None,
    metavar="[ID]",
    help="With --once: go on with conversation ID (from --list), or with the latest one when no ID is given.",
)
@click.option("--list", "as_list", is_flag=True, help="List earlier conversations: id, date, title; newest first.")
@click.option("--search", "query", metavar="TEXT", help="List the conversations that mention TEXT (implies --list).")
@click.option("--base-url", help="An OpenAI-compatible server for this run (…/v1).")
@click.option("--model", help="The model for this run.")
@click.option(
    "--provider",
    type=click.Choice(list(PRESETS)),
    help="The kind of server for this run (how requests are sent: llamacpp takes tool requests unstreamed).",
)
@click.option("--api-key-env", help="Read the API key from this environment variable (instead of keyring).")
@click.option(
    "--demo",
    is_flag=True,
    help="Tools answer from the plugins' recordings (no campus network); without a model set up, the offline "
    "demo model answers.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: the turn's messages, tool calls with decisions, and usage; with --list, the conversations.",
)
def chat(
    message: str | None,
    continue_id: str | None,
    as_list: bool,
    query: str | None,
    base_url: str | None,
    model: str | None,
    provider: str | None,
    api_key_env: str | None,
    demo: bool,
    as_json: bool,
) -> None:
    """One turn of the assistant without the app (tools that would ask are not run: reported), or the list of
    earlier conversations."""
    if as_list or query is not None:
        if message is not None or continue_id is not None:
            raise usage_error("--list and --search show conversations; --once and --continue cannot go with them")
        list_conversations(query or "", as_json)
        return
    if message is None and continue_id is not None:
        raise usage_error("--continue goes with --once MESSAGE: the message to send in that conversation")
    if message is None:
        raise usage_error("give --once MESSAGE (one turn with the assistant), or --list (earlier conversations)")
    rt = _open((), demo=demo)  # no approver: "ask" means no, and the answer says so
    cid = None if continue_id is None else continued(ChatHistory(rt.store), continue_id).id
    one_turn(rt, message, base_url, model, api_key_env, demo, as_json, cid, provider)


def continued(history: ChatHistory, cid: str) -> Conversation:
    """The conversation `--continue` names (LATEST: the one written to last); a clear error when there is none."""
    if cid == LATEST:
        latest = next(iter(history.conversations()), None)
        if latest is None:
            raise fail("there is no conversation to continue yet: leave out --continue to start one")
        return latest
    found = history.find(cid)
    if found is None:
        raise fail(f"there is no conversation {cid!r}: `pku-harness chat --list` shows their ids")
    return found


def list_conversations(query: str, as_json: bool) -> None:
    """Print the conversations (those mentioning `query` when it has words), newest first."""
    store = Store()  # the store alone: a listing needs no plugin loaded
    try:
        found = ChatHistory(store).search(query)
    finally:
        store.close()
    if as_json:
        echo_json([_listed(c) for c in found])
        return
    if not found:
        echo(f"no conversation mentions {query.strip()!r}" if query.strip() else "no conversations yet", err=True)
    for c in found:
        line(f"{c.id}  {beijing(c.updated_ms)}  {c.title}")
        if c.snippet:
            line(f"    {c.snippet}")


def _listed(c: Conversation) -> dict[str, Any]:
    out: dict[str, Any] = {"id": c.id, "title": c.title, "createdMs": c.created_ms, "updatedMs": c.updated_ms}
    if c.snippet is not None:
        out["snippet"] = c.snippet
    return out


def one_turn(
    rt: Any,
    message: str,
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str | None = None,
    demo: bool = False,
    as_json: bool = False,
    cid: str | None = None,
    provider: str | None = None,
) -> None:
    """Send MESSAGE to the model, in conversation `cid` or a new one, and print the answer (or the report); a model
    error exits 1. `chat --once` and a prompt command (`commands run`) are both this."""
    if not message.strip():
        raise fail("the message is empty: say what to ask, e.g. --once '二教今天有哪些空教室?'")
    client = open_client(rt.store, demo, base_url, model, api_key_env, provider)
    if client is None:
        raise fail(NO_MODEL)
    if isinstance(client, DemoModel) and not as_json:
        line("(no model is set up: the offline demo model answers)", err=True)
    history = ChatHistory(rt.store)

    async def show(event: AgentEvent) -> None:
        if as_json:
            return
        if event.kind == "text":
            echo(event.text, nl=False)
        elif event.kind == "tool_end" and event.call is not None:
            c = event.call
            note = f": {c.message[:200]}" if c.message else ""
            line(f"[{c.title} ({c.tool_id}) {c.status} {c.duration_ms} ms{note}]", err=True)
        elif event.kind == "cut":
            line(f"\n[the answer stopped at the length limit ({event.text} tokens): it is not whole]", err=True)
        elif event.kind == "wait" and event.seconds:
            echo(f"[the server is busy; retrying in {event.seconds:.0f} s]", err=True)

    agent = Agent(rt, client, history, show)
    agent.now = DEMO_NOW if demo else None
    turn = cid if cid is not None else history.start(message)

    async def run() -> TurnResult:
        try:
            result = await agent.send(turn, message)
            if cid is None:  # a new conversation: the model names it (titles.py)
                await retitle(history, client, turn)
            return result
        finally:
            await client.close()
            await rt.remote.close()  # remote plugins' servers the turn connected to

    result = asyncio.run(run())
    if as_json:
        echo_json(_report(history, turn, result))
    elif result.answer:
        echo()
    if result.error is not None:
        if not as_json:
            line(f"error ({result.error.kind}): {result.error}", err=True)
        sys.exit(1)


def _report(history: ChatHistory, cid: str, result: TurnResult) -> dict[str, Any]:
    found = history.find(cid)
    return {
        "conversation": {"id": cid, "title": found.title if found else None},
        "answer": result.answer,
        "messages": [for_model(m) for m in history.messages(cid)],
        "toolCalls": [
            {
                "id": c.call_id,
                "tool": c.tool_id,
                "arguments": c.arguments,
                "decision": c.status,
                "result": c.result,
                "message": c.message,
                "ms": c.duration_ms,
            }
            for c in result.calls
        ],
        "usage": asdict(result.usage),
        "cut": result.cut,
        "error": None if result.error is None else {"kind": result.error.kind, "message": str(result.error)},
    }


@click.group()
def model() -> None:
    """The assistant's model: an OpenAI-compatible provider and its API key (kept in keyring)."""


@model.command("presets")
def model_presets() -> None:
    """The providers the app knows, with their base URL and default model."""
    for p in PRESETS.values():
        quirks = [
            q for q, on in (("no tool streaming", not p.stream_tools), ("sends reasoning back", p.send_reasoning)) if on
        ]
        extra = f"  ({', '.join(quirks)})" if quirks else ""
        url = p.base_url or "(give --base-url)"
        window = f"{p.context_window:,}"
        line(f"{pad(p.id, 9)} {pad(p.label, 24)} {pad(url, 52)} {pad(window, 9)} {p.model or '(give --model)'}{extra}")


@model.command("set")
@click.argument("provider", type=click.Choice(list(PRESETS)))
@click.option("--base-url", help="Override the preset's base URL.")
@click.option("--model", "model_name", help="Override the preset's model.")
@click.option("--api-key-env", help="Save the key found in this environment variable to keyring.")
@click.option("--api-key-stdin", is_flag=True, help="Read the key from standard input and save it to keyring.")
@click.option(
    "--context-window", type=click.IntRange(min=1), help="Tokens one request may hold (the preset's: see presets)."
)
@click.option("--max-tokens", type=click.IntRange(min=1), help="The most tokens one answer may take.")
def model_set(
    provider: str,
    base_url: str | None,
    model_name: str | None,
    api_key_env: str | None,
    api_key_stdin: bool,
    context_window: int | None,
    max_tokens: int | None,
) -> None:
    """Choose the provider (and save its API key in keyring): both change, or neither does."""
    key: str | None = None
    if api_key_env:
        key = load_key(provider, api_key_env)
        if key is None:
            raise fail(f"{api_key_env} is not set (or is empty), so there is no key to save; nothing was changed")
    elif api_key_stdin:
        key = sys.stdin.readline().strip() or None
        if key is None:
            raise fail("no API key on standard input; nothing was changed")
    rt = _open(())
    try:
        config = save_config(rt.store, provider, base_url, model_name, key, context_window, max_tokens)
    except ValueError as e:
        raise fail(str(e)) from None
    except KeyringUnavailable as e:
        raise fail(f"{e} Nothing was changed: the model is still the one `pku-harness model show` names.") from None
    echo(f"model: {config.model} at {config.base_url} ({config.preset.label}); context window {config.window} tokens, "
         f"answers up to {config.answer_tokens}")  # fmt: skip
    if key:
        echo("API key saved in keyring")
    elif config.preset.needs_key and load_key(provider) is None:
        echo("no API key saved yet: pass --api-key-env VAR or --api-key-stdin", err=True)


@model.command("clear")
def model_clear() -> None:
    """Forget the model set up (its API key stays in keyring; `model set` with the same provider uses it)."""
    rt = _open(())
    if clear_config(rt.store):
        echo("model removed; its API key stays in keyring (pku-harness model set … uses it again)")
    else:
        echo("no model was set up", err=True)


@model.command("show")
def model_show() -> None:
    """The model in use and whether a key is saved."""
    rt = _open(())
    config = load_config(rt.store)
    if config is None:
        raise fail(NO_MODEL)
    has_key = load_key(config.provider) is not None
    echo(f"{config.preset.label}: {config.model} at {config.base_url}; API key {'saved' if has_key else 'not saved'}; "
         f"context window {config.window} tokens, answers up to {config.answer_tokens}")  # fmt: skip
