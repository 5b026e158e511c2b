"""The install review and the update approval as typed modal screens: True means install / accept.

They show plain review data (`tui.runtime.plugins.review`); fetching, validating and storing are the installer's.
Every text that came from the plugin is cleaned of terminal control codes and shown without markup.
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Markdown, Static

from tui.app.dialogs.base import Dialog
from tui.app.i18n import t, term
from tui.app.keys import LocalBindings
from tui.app.navigation import ScrollStop
from tui.app.words import colon, listed, reach_words
from tui.lang.documents.common import Effect
from tui.runtime.plugins import InstallReview, UpdateReview
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

R = TypeVar("R", InstallReview, UpdateReview)


def _effect(effect: str | None, locale: str) -> str:
    """An effect in the seed's words (读取, 修改, 花钱, 公开), the same words as the approval card and 设置."""
    return term(effect, locale) if effect else "—"


def _line(text: str, *classes: str) -> Static:
    return Static(plain(text), markup=False, classes=" ".join(classes))


REVIEW_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 90; max-width: 100%; height: 90%; border: thick $primary; background: $surface; }}
{name} VerticalScroll {{ padding: 0 2; }}
{name} .heading {{ text-style: bold; margin-top: 1; color: $accent; }}
{name} .muted {{ color: $text-muted; }}
{name} .badge-official {{ background: $success 30%; padding: 0 1; }}
{name} .badge-community {{ background: $warning 30%; padding: 0 1; }}
{name} .effect-money, {name} .effect-public {{ color: $error; }}
{name} .effect-write {{ color: $warning; }}
{name} Markdown {{ margin: 0; padding: 0; background: $boost; }}
{name} #buttons {{ height: auto; dock: bottom; align: right middle; padding: 0 2; }}
{name} Button {{ margin-left: 1; }}
"""


class _Review(LocalBindings, Dialog[bool], Generic[R]):
    """A review page: Escape or the first button says no, the primary button (id `YES`) says yes."""

    YES = "yes"

    def __init__(self, review: R, locale: str = "zh") -> None:
        super().__init__()
        self.review: R = review
        self.locale = locale

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == self.YES)


class InstallReviewDialog(_Review[InstallReview]):
    """The install review: who made it, what it may reach, every tool with its effect, its instructions."""

    DEFAULT_CSS = REVIEW_CSS.format(name="InstallReviewDialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer(False)", "cancel"),
        Binding("i", "answer(True)", "install"),
    ]
    YES = "install"

    def __init__(self, review: InstallReview, locale: str = "zh") -> None:
        super().__init__(review, locale)
        self.effects: dict[str, Effect] = {}
        """A remote plugin's tools: the effect picked for each, read when 安装 is pressed."""

    def dismiss(self, result: bool | None = None) -> AwaitComplete:
        if result and self.review.remote is not None and self.query("RemoteToolsPanel"):
            from tui.app.widgets.remote_tools import RemoteToolsPanel

            self.effects = self.query_one(RemoteToolsPanel).chosen()
        return super().dismiss(result)

    def compose(self) -> ComposeResult:
        r, loc = self.review, self.locale
        with Vertical():
            with ScrollStop():
                yield _line(f"{t('install_title', loc)} · {r.name} {r.version}", "heading")
                kind = "official" if r.official else "community"
                yield Label(plain(t(kind, loc)), markup=False, classes=f"badge-{kind}", id="kind")
                yield _line(f"{r.author} · {r.source}", "muted")
                if r.ref:
                    yield _line(t(f"ref_{r.ref.kind}", loc).format(name=r.ref.name, commit=r.ref.commit), "muted")
                yield _line(r.description)
                yield _line(t("reach", loc), "heading")
                for key, values in (("campus", r.campus), ("network", r.network), ("abilities", r.abilities)):
                    words = reach_words(key, values, loc)
                    yield _line(f"{t(key, loc)}{colon(loc)}{listed(words, loc) if words else t('none', loc)}", key)
                if r.tools or r.remote is None:  # a remote plugin's tools are its server's, listed below
                    yield _line(t("tools", loc), "heading")
                for tool in r.tools:
                    only = f" · {t('user_only', loc)}" if tool.user_only else ""
                    yield _line(f"{tool.title}  [{_effect(tool.effect, loc)}]{only}", f"effect-{tool.effect}")
                    if tool.summary:
                        yield _line(f"  {tool.summary}", "muted")
                if r.asks_first:
                    yield _line(t("asks_first", loc), "effect-write", "asks-first")
                if r.remote is not None:
                    from tui.app.widgets.remote_tools import RemoteToolsPanel

                    yield RemoteToolsPanel(r.remote, loc)
                yield _line(t("instructions", loc), "heading")
                yield Markdown(clean(r.instructions), open_links=False)
            with Horizontal(id="buttons"):
                # the keys on the buttons, as on the confirm dialog's (取消 n): the footer below is the page's
                yield Button(plain(f"{t('cancel', loc)} esc"), id="cancel")
                yield Button(plain(f"{t('install', loc)} i"), id="install", variant="primary")


class UpdateApprovalDialog(_Review[UpdateReview]):
    """A paused update: what it adds to the scope, which effects got stronger, which texts changed."""

    DEFAULT_CSS = REVIEW_CSS.format(name="UpdateApprovalDialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer(False)", "keep"),
        Binding("a", "answer(True)", "accept"),
    ]
    YES = "accept"

    def compose(self) -> ComposeResult:
        r, loc = self.review, self.locale
        with Vertical():
            with ScrollStop():
                yield _line(f"{t('update_title', loc)} · {r.name} {r.old_version} → {r.new_version}", "heading")
                added = [
                    (t(key, loc), reach_words(key, values, loc))
                    for key, values in (
                        ("campus", r.added_campus),
                        ("network", r.added_network),
                        ("abilities", r.added_abilities),
                    )
                    if values
                ]
                if added:
                    yield _line(t("added", loc), "heading")
                    for label, values in added:
                        yield _line(f"+ {label}{colon(loc)}{listed(values, loc)}", "added")
                if r.stronger:
                    yield _line(t("stronger", loc), "heading")
                    for change in r.stronger:
                        old = _effect(change.old, loc) if change.old else t("new_tool", loc)
                        new = _effect(change.new, loc)
                        yield _line(f"{change.tool}{colon(loc)}{old} → {new}", f"effect-{change.new}")
                if r.loosened or r.lost_guards or r.remote:
                    yield _line(t("looser", loc), "heading")
                    for mode in r.loosened:
                        said = t("looser_mode", loc).format(
                            effect=_effect(mode.effect, loc), old=term(mode.old, loc), new=term(mode.new, loc)
                        )
                        yield _line(said, "effect-write")
                    for guard in r.lost_guards:
                        yield _line(t(f"lost_{guard.guard}", loc).format(tool=guard.tool), "effect-money")
                    if r.remote:
                        old, new = (u or t("none", loc) for u in r.remote)
                        yield _line(f"{t('remote', loc)}{colon(loc)}{old} → {new}", "effect-money")
                if r.removed_tools:
                    yield _line(f"{t('removed', loc)}{colon(loc)}{listed(r.removed_tools, loc)}", "muted")
                if r.texts:
                    yield _line(t("texts", loc), "heading")
                    for text in r.texts:
                        what = t(text.what, loc)
                        yield _line(f"{text.tool} · {what}", "text-change")
                        yield _line(f"  - {text.old[:300]}", "effect-money")
                        yield _line(f"  + {text.new[:300]}", "tone-ok")
                if r.instructions:
                    yield _line(t("instructions_changed", loc), "heading")
                    yield Markdown(clean(r.instructions[1]), open_links=False)
            with Horizontal(id="buttons"):
                yield Button(plain(f"{t('keep', loc)} esc"), id="keep")
                yield Button(plain(f"{t('accept', loc)} a"), id="accept", variant="warning")
