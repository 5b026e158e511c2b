"""Model providers: presets for OpenAI-compatible servers, the student's choice in the store, the key in keyring.

A preset carries what differs between servers: the base URL and default model, whether tool calls may be
streamed, whether `reasoning_content` must be sent back with the assistant's tool calls (DeepSeek's thinking
mode refuses the next request otherwise), the longest tool name accepted, the context window (what one request
may hold, in tokens: `context_window.py` fits the conversation into it) and the most an answer may take
(`max_tokens`: a small local model otherwise rambles until its context is full). The student may change the
last two for their model (设置 → 模型, `model set --context-window --max-tokens`). The API key is kept in keyring,
one entry per provider; where no usable keyring backend exists the app says so and never writes the key in
plain text anywhere (a key given through an environment variable works for that run only).
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tui.runtime.campus.vault import KEYRING_SERVICE, keyring_usable
from tui.runtime.message import Message
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store


@dataclass(frozen=True)
class Preset:
    """What the app knows about one kind of server."""

    id: str
    label: str
    base_url: str
    model: str
    """The default model ('' when the server decides: a local server serves what it loaded)."""
    stream_tools: bool = True
    """Tool calls may be streamed; when False the request that offers tools is sent without streaming."""
    send_reasoning: bool = False
    """`reasoning_content` must go back in the assistant message that made tool calls."""
    max_tool_name: int = 64
    needs_key: bool = True
    context_window: int = 32_768
    """Tokens one request may hold (prompt and answer)."""
    max_tokens: int = 2_048
    """The most one answer may take (sent as `max_tokens`)."""
    tool_choice: str | None = "auto"
    """Sent with the tools. llama-cpp-python's function calling leaves the tools out of the prompt without it
    (the model then never calls one); vLLM refuses "auto" unless started with --enable-auto-tool-choice, and an
    unknown server is left to its default."""


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        # Windows as the providers document them for the default model (DeepSeek-V3: 64K; qwen-plus: 128K;
        # gpt-4.1-mini: 1M); local servers as they start by default (Ollama's num_ctx 4096, llama.cpp's -c 4096).
        Preset(
            "deepseek",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            "deepseek-chat",
            send_reasoning=True,
            context_window=65_536,
        ),
        Preset(
            "qwen",
            "Qwen (DashScope)",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "qwen-plus",
            context_window=131_072,
        ),
        Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4.1-mini", context_window=1_047_576),
        Preset(
            "ollama",
            "Ollama",
            "http://127.0.0.1:11434/v1",
            "qwen2.5",
            needs_key=False,
            context_window=4_096,
            max_tokens=1_024,
        ),
        Preset("vllm", "vLLM", "http://127.0.0.1:8000/v1", "", needs_key=False, tool_choice=None),
        # llama.cpp's server has long answered tool requests only without streaming.
        Preset(
            "llamacpp",
            "llama.cpp server",
            "http://127.0.0.1:8080/v1",
            "",
            stream_tools=False,
            needs_key=False,
            context_window=4_096,
            max_tokens=1_024,
        ),
        Preset("custom", "Other OpenAI-compatible", "", "", needs_key=False, context_window=16_384, tool_choice=None),
    )
}


class KeyringUnavailable(Exception):
    """No usable keyring backend: the message says what to do instead."""


NO_KEYRING = Message("model_no_keyring")


@dataclass(frozen=True)
class ModelConfig:
    """The student's model: a preset, possibly with its own base URL and model."""

    provider: str
    base_url: str
    model: str
    context_window: int = 0
    """The student's own figure; 0 means the preset's."""
    max_tokens: int = 0
    """The student's own figure; 0 means the preset's."""

    @property
    def preset(self) -> Preset:
        return PRESETS.get(self.provider, PRESETS["custom"])

    @property
    def window(self) -> int:
        """The context window in force (tokens)."""
        return self.context_window or self.preset.context_window

    @property
    def answer_tokens(self) -> int:
        """`max_tokens` in force, never more than half the window (the prompt needs the rest)."""
        return min(self.max_tokens or self.preset.max_tokens, max(256, self.window // 2))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"provider": self.provider, "base_url": self.base_url, "model": self.model}
        if self.context_window:
            out["context_window"] = self.context_window
        if self.max_tokens:
            out["max_tokens"] = self.max_tokens
        return out


def load_config(store: Store) -> ModelConfig | None:
    """The stored model choice, or None when none was set up."""
    raw = read_setting(store, "model")
    if not isinstance(raw, dict) or not isinstance(raw.get("provider"), str):
        return None
    preset = PRESETS.get(raw["provider"], PRESETS["custom"])
    base = raw.get("base_url") if isinstance(raw.get("base_url"), str) else preset.base_url
    model = raw.get("model") if isinstance(raw.get("model"), str) else preset.model
    if not base or not model:
        return None
    return ModelConfig(preset.id, base, model, _count(raw.get("context_window")), _count(raw.get("max_tokens")))


def _count(value: Any) -> int:
    """A stored token figure (0 when absent or not a positive whole number: the preset's applies)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def configured_in(db: Path) -> dict[str, Any] | None:
    """The model choice stored in another database (the student's own, for `--demo`, whose store is a throw-away
    one): read-only, and None when there is none or the file cannot be read."""
    if not db.is_file():
        return None
    try:
        with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT value FROM app_settings WHERE key = 'model'").fetchone()
        value = json.loads(row[0]) if row else None
    except (sqlite3.Error, ValueError):
        return None
    return value if isinstance(value, dict) else None


def model_config(
    provider: str,
    base_url: str | None = None,
    model: str | None = None,
    context_window: int | None = None,
    max_tokens: int | None = None,
) -> ModelConfig:
    """The model choice the arguments make (the preset's values fill what is not given), without storing it.

    Raises:
        ValueError: unknown provider, no base URL / model for a preset that has none, or token figures that
            cannot work (a window under 1,024 tokens, an answer limit over half the window).
    """
    if provider not in PRESETS:
        raise ValueError(Message("model_unknown_provider", provider=provider, known=", ".join(PRESETS)))
    preset = PRESETS[provider]
    window, answer = context_window or 0, max_tokens or 0
    if window and window < 1_024:
        raise ValueError(Message("model_window_small", tokens=window))
    if answer and (answer < 16 or answer > (window or preset.context_window) // 2):
        raise ValueError(Message("model_answer_tokens", tokens=answer, window=window or preset.context_window))
    base = (base_url or preset.base_url).rstrip("/")
    config = ModelConfig(provider, base, model or preset.model, window, answer)
    if not config.base_url.startswith(("https://", "http://")):
        raise ValueError(Message("model_needs_url", provider=provider))
    if not config.model:
        raise ValueError(Message("model_needs_name", provider=provider))
    return config


def save_config(
    store: Store,
    provider: str,
    base_url: str | None = None,
    model: str | None = None,
    key: str | None = None,
    context_window: int | None = None,
    max_tokens: int | None = None,
) -> ModelConfig:
    """Store the model choice and, with `key`, the provider's API key: both change or neither does.

    The key is saved first, since the keyring is what is likely to be missing; should the store then fail, the
    provider's previous key is put back, so a half-done switch never leaves a provider without its key.

    Raises:
        ValueError: unknown provider, or no base URL / model for a preset that has none (nothing changed).
        KeyringUnavailable: there is no keyring to keep the key in (nothing changed).
    """
    config = model_config(provider, base_url, model, context_window, max_tokens)
    if key is None:
        write_setting(store, "model", config.to_json())
        return config
    previous = load_key(provider)
    save_key(provider, key)
    try:
        write_setting(store, "model", config.to_json())
    except BaseException:
        _restore_key(provider, previous)
        raise
    return config


def clear_config(store: Store) -> bool:
    """Forget the model choice (the provider's API key stays in keyring for a later `save_config`); True when
    there was one. Without one, the demo's offline model answers again, and outside the demo nothing does."""
    had = load_config(store) is not None
    write_setting(store, "model", None)
    return had


def with_overrides(
    config: ModelConfig | None, base_url: str | None, model: str | None, provider: str | None = None
) -> ModelConfig | None:
    """A one-run override (`chat --once [--provider …] --base-url … --model …`): the kind of server decides how
    requests are sent (a llama.cpp server takes tool requests only unstreamed)."""
    if provider is not None and provider != getattr(config, "provider", None):
        preset = PRESETS.get(provider, PRESETS["custom"])
        base, name = base_url or preset.base_url, model or preset.model
        return ModelConfig(preset.id, base.rstrip("/"), name) if base and name else None
    if config is None:
        if base_url and model:
            return ModelConfig("custom", base_url.rstrip("/"), model)
        return None
    return replace(config, base_url=(base_url or config.base_url).rstrip("/"), model=model or config.model)


def _keyring() -> Any:
    import keyring

    if not keyring_usable():
        raise KeyringUnavailable(NO_KEYRING)
    return keyring


def save_key(provider: str, key: str) -> None:
    """Keep the provider's API key in keyring.

    Raises:
        KeyringUnavailable: there is no keyring to keep it in.
    """
    from keyring.errors import KeyringError

    try:
        _keyring().set_password(KEYRING_SERVICE, f"model:{provider}", key)
    except KeyringError as e:
        raise KeyringUnavailable(Message("model_no_keyring_because", sentence=NO_KEYRING, error=str(e))) from None


def load_key(provider: str, env: str | None = None) -> str | None:
    """The API key: from the environment variable `env` when given, else from keyring (None when there is none)."""
    if env:
        return os.environ.get(env) or None
    from keyring.errors import KeyringError

    try:
        return _keyring().get_password(KEYRING_SERVICE, f"model:{provider}")  # type: ignore[no-any-return]
    except (KeyringError, KeyringUnavailable):
        return None


def _restore_key(provider: str, previous: str | None) -> None:
    """Put back the key a failed `save_config` replaced (best effort: the store's error is the one to report)."""
    from keyring.errors import KeyringError

    try:
        if previous is not None:
            save_key(provider, previous)
        else:
            _keyring().delete_password(KEYRING_SERVICE, f"model:{provider}")
    except (KeyringError, KeyringUnavailable):
        pass
