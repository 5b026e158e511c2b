"""How an error card looks: one short sentence and the actions that help (登录, 重试, 详情), never a wall of file
paths, step numbers and URLs. The technical text (`ErrorCard.detail()`) is one key away: the app opens it in a
dialog when the student chooses 详情.

The renderer does not know the app's language or its dialogs: the app fills `summary` and `actions` from the
card's `kind` and answers `ErrorView.Chosen`. A card nobody filled (the widget preview, for plugin authors) shows
the author-facing line of genui §2.10, detail included.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Static

from widgets_render.safe_text import clean
from widgets_render.viewmodel import ErrorCard

#: The key each action answers to on a focused error card (shown on its button).
ACTION_KEYS = {"login": "l", "retry": "r", "detail": "d"}


def fallback_summary(card: ErrorCard) -> str:
    """The text of a card nobody explained: genui §2.10's author-facing wording with the whole detail (the widget
    preview, a tool for plugin authors, shows cards this way; the app always gives a sentence)."""
    return (
        f"⚠ 小组件无法显示 · {card.file} · {card.path or '/'} · {card.code}: {card.message}\n"
        "运行 plugin validate 查看详情"
    )


class ErrorView(Vertical):
    """An error card's face: the sentence, then one small button per action. The buttons take clicks, not the
    focus: on the keyboard the card's frame answers Enter (the first action) and each action's key."""

    DEFAULT_CSS = """
    ErrorView { height: auto; }
    ErrorView:focus { background: $boost; text-style: bold; }
    ErrorView .error-summary { color: $error; }
    ErrorView > Horizontal { height: auto; margin-top: 0; }
    ErrorView Button { margin-right: 1; min-width: 0; }
    """

    class Chosen(Message):
        """The student chose an action of an error card (a click, Enter, or the action's key)."""

        def __init__(self, view: ErrorView, action: str) -> None:
            super().__init__()
            self.view = view
            self.card = view.card
            self.action = action

        @property
        def control(self) -> ErrorView:
            """The error view whose action was chosen."""
            return self.view

    def __init__(self, card: ErrorCard, focusable: bool = False, **kwargs: object) -> None:
        super().__init__(classes="error-view", **kwargs)  # type: ignore[arg-type]
        self.card = card
        # On a page (no frame around it) the card itself is a Tab stop: from a text box, where its keys are typed,
        # the student Tabs to it and its keys work, Enter the first (an outsider pressed d in a field to no avail).
        self.can_focus = focusable

    def key_enter(self) -> None:
        """Enter on a focused card: its first action."""
        self.choose()

    def compose(self) -> ComposeResult:
        card = self.card
        summary = f"⚠ {card.summary}" if card.summary else fallback_summary(card)
        yield Static(Content(clean(summary)), markup=False, classes="error-summary")
        if card.actions:
            with Horizontal():
                for i, (action, label) in enumerate(card.actions):
                    key = ACTION_KEYS.get(action)
                    shown = Content(clean(f"{label} {key}" if key else label))
                    button = Button(
                        shown, compact=True, variant="primary" if i == 0 else "default", id=f"error-{action}"
                    )
                    button.can_focus = False  # keys live on the card; Tab goes from card to card
                    yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = str(event.button.id or "").removeprefix("error-")
        self.post_message(self.Chosen(self, action))

    def choose(self, action: str | None = None) -> bool:
        """Take `action` (None: the first one) if the card offers it; False when it does not."""
        offered = [a for a, _ in self.card.actions]
        chosen = action if action is not None else (offered[0] if offered else None)
        if chosen is None or chosen not in offered:
            return False
        self.post_message(self.Chosen(self, chosen))
        return True
