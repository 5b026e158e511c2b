"""`pku-harness chat --once …` (one turn, no UI) and `pku-harness model …` (the provider, the key in keyring)."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import asdict
from typing import Any

import click

from tui.cli.output import echo, echo_json, fail, line, pad
from tui.cli.tools import _open
from tui.runtime.chat.agent import Agent, AgentEvent, TurnResult
from tui.runtime.chat.demo_model import DemoModel, open_client
from tui.runtime.chat.history import ChatHistory, for_model
from tui.runtime.chat.providers import (
    PRESETS,
    KeyringUnavailable,
    load_config,
    load_key,
    save_config,
)
from tui.runtime.runtime import DEMO_NOW

NO_MODEL = (
    "no model is set up: run `pku-harness model set deepseek` (or qwen, openai, ollama, vllm, llamacpp, custom), "
    "or give --base-url and --model"
)


@click.command("chat")
@click.option("--once", "message", required=True, help="Run one user turn with this message and print the answer.")
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
@click.option("--json", "as_json", is_flag=True, help="Print messages, tool calls with decisions, and usage.")
def chat(
    message: str,
    base_url: str | None,
    model: str | None,
    provider: str | None,
    api_key_env: str | None,
    demo: bool,
    as_json: bool,
) -> None:
    """One turn of the assistant without the app: tools that would ask are not run (reported)."""
    rt = _open((), demo=demo)  # no approver: "ask" means no, and the answer says so
    one_turn(rt, message, base_url, model, api_key_env, demo, as_json, provider)


def one_turn(
    rt: Any,
    message: str,
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str | None = None,
    demo: bool = False,
    as_json: bool = False,
    provider: str | None = None,
) -> None:
    """Send MESSAGE to the model as a new conversation and print the answer (or the report); a model error exits 1.
    `chat --once` and a prompt command (`commands run`) are both this."""
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
    cid = history.start(message)

    async def run() -> TurnResult:
        try:
            return await agent.send(cid, message)
        finally:
            await client.close()

    result = asyncio.run(run())
    if as_json:
        echo_json(_report(history, cid, result))
    elif result.answer:
        echo()
    if result.error is not None:
        if not as_json:
            line(f"error ({result.error.kind}): {result.error}", err=True)
        sys.exit(1)


def _report(history: ChatHistory, cid: str, result: TurnResult) -> dict[str, Any]:
    return {
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
