"""设置 → 模型: the provider preset, its base URL and model, and the API key (saved to keyring, never shown)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from tui.app.i18n import t
from tui.runtime.chat.providers import (
    PRESETS,
    KeyringUnavailable,
    ModelConfig,
    Preset,
    clear_config,
    load_config,
    load_key,
    save_config,
)
from tui.runtime.message import say_error
from tui.runtime.store import Store
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain
from widgets_render.steady_select import SteadySelect


def preset_label(preset: Preset, locale: str) -> str:
    """A provider's name as the list shows it: the product's own name, or for `custom` the app's words."""
    return t("preset_custom", locale) if preset.id == "custom" else preset.label


class ModelSettings(Vertical):
    """Choose a preset (its URL and model fill in), change them if needed, paste a key, save."""

    # One box a line, each labelled: three in a row at 80 columns showed "https://api." and "deep".
    DEFAULT_CSS = """
    ModelSettings { height: auto; padding: 0 1; }
    ModelSettings Horizontal { height: auto; }
    ModelSettings Select { width: 40; max-width: 100%; }
    ModelSettings Input { width: 1fr; }
    ModelSettings .tokens Input { width: 24; }
    ModelSettings .label { color: $text-muted; margin-top: 1; }
    ModelSettings .muted { color: $text-muted; }
    """

    def __init__(self, store: Store, locale: str) -> None:
        super().__init__(id="model-settings")
        self.store = store
        self.locale = locale

    def compose(self) -> ComposeResult:
        config = load_config(self.store)
        provider = config.provider if config else "deepseek"
        preset = PRESETS[provider]
        loc = self.locale
        yield Static(t("model_compatible", loc), markup=False, classes="muted")
        yield Static(t("model_provider", loc), markup=False, classes="label")
        yield SteadySelect(
            [(literal(preset_label(p, loc)), p.id) for p in PRESETS.values()],
            value=provider,
            allow_blank=False,
            id="model-provider",
        )
        yield Static(t("model_url", loc), markup=False, classes="label")
        yield Input(clean(config.base_url if config else preset.base_url), placeholder="https://…/v1", id="model-url")
        yield Static(t("model_name", loc), markup=False, classes="label")
        yield Input(clean(config.model if config else preset.model), placeholder=t("model_name", loc), id="model-name")
        yield Static(t("model_tokens", loc), markup=False, classes="label")
        with Horizontal(classes="tokens"):
            yield Input(
                clean(self._figure(config, "context_window")),
                placeholder=clean(str(preset.context_window)),
                type="integer",
                id="model-window",
                tooltip=t("model_window", loc),
            )
            yield Input(clean(self._figure(config, "max_tokens")), placeholder=clean(str(preset.max_tokens)),
                        type="integer", id="model-answer", tooltip=t("model_answer", loc))  # fmt: skip
        yield Static(t("api_key", loc), markup=False, classes="label")
        with Horizontal():
            yield Input(password=True, placeholder=t("api_key_hint", loc), id="model-key")
            yield Button(t("save", loc), id="model-save", variant="primary")
            remove = Button(t("model_clear", loc), id="model-clear")
            remove.display = config is not None  # shown only with something to remove (a dimmed one is unreadable)
            yield remove
        yield Static(plain(self.state_text()), markup=False, classes="muted", id="model-state")

    def _number(self, box: str) -> int | None:
        """A token box's number; None when empty (or not one: a lone '-'), and then the preset's applies."""
        try:
            return int(self.query_one(box, Input).value) or None
        except ValueError:
            return None

    @staticmethod
    def _figure(config: ModelConfig | None, name: str) -> str:
        """The student's own token figure, or empty (the preset's shows as the placeholder)."""
        value = getattr(config, name, 0) if config else 0
        return str(value) if value else ""

    def state_text(self) -> str:
        config = load_config(self.store)
        if config is None and getattr(self.app, "demo", False):
            return t("model_demo_in_use", self.locale)
        if config is None:
            return t("model_none", self.locale)
        key = t("key_saved", self.locale) if load_key(config.provider) else t("key_missing", self.locale)
        tokens = t("model_tokens_state", self.locale).format(window=config.window, answer=config.answer_tokens)
        return clean(
            f"{preset_label(config.preset, self.locale)} · {config.model} · {config.base_url} · {key} · {tokens}"
        )

    @on(Select.Changed, "#model-provider")
    def preset_chosen(self, event: Select.Changed) -> None:
        event.stop()  # not the app's language/theme selects
        preset = PRESETS.get(str(event.value))
        if preset is not None:
            self.query_one("#model-url", Input).value = preset.base_url
            self.query_one("#model-name", Input).value = preset.model
            self.query_one("#model-window", Input).placeholder = clean(str(preset.context_window))
            self.query_one("#model-answer", Input).placeholder = clean(str(preset.max_tokens))

    @on(Input.Submitted)
    async def submitted(self, event: Input.Submitted) -> None:
        """Enter in any box saves, as 保存 does (Enter in the key box did nothing)."""
        event.stop()
        await self.save()

    async def _refresh_chat(self) -> None:
        """The chat pane says again what answers (its "no model" note, or the demo model's hint)."""
        chat = self.app.query("#chat")
        if chat:
            await chat.first().recompose()

    @on(Button.Pressed, "#model-clear")
    async def clear(self) -> None:
        """Forget the model (the key stays in keyring): in the demo the offline model answers again."""
        clear_config(self.store)
        self.query_one("#model-state", Static).update(plain(self.state_text()))
        self.query_one("#model-clear", Button).display = False
        self.app.notify(t("model_cleared", self.locale), timeout=4)
        await self._refresh_chat()

    @on(Button.Pressed, "#model-save")
    async def save(self) -> None:
        provider = str(self.query_one("#model-provider", Select).value)
        url = self.query_one("#model-url", Input).value.strip()
        name = self.query_one("#model-name", Input).value.strip()
        key_box = self.query_one("#model-key", Input)
        window, answer = self._number("#model-window"), self._number("#model-answer")
        try:
            # One call: the key and the provider change together, or neither does (no keyring: the old model stays).
            save_config(self.store, provider, url or None, name or None, key_box.value.strip() or None, window, answer)
        except (ValueError, KeyringUnavailable) as e:
            self.app.notify(clean(say_error(e, self.locale)), severity="error", timeout=10, markup=False)
            return
        finally:
            key_box.value = ""  # the key never stays on screen
        self.query_one("#model-state", Static).update(plain(self.state_text()))
        self.app.notify(t("model_saved", self.locale), timeout=3)
        self.query_one("#model-clear", Button).display = True
        await self._refresh_chat()
