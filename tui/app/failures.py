"""Errors a student can act on: an error card's sentence and actions from its kind, and what each action does.

The runtime classifies every failure where it happens (`tui.lang.steps.errors.Cause`: not logged in, network,
the service's error, the plugin's bug …) and carries it on the error value (`CallOutcome.cause`,
`SourceError.cause`). Here that kind becomes one short sentence in the app's language and the actions that help:
登录 opens the login screen for the service, 重试 refetches, 详情 shows the technical text (file:line, step, URL,
ids). Nothing here reads a message string to guess what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from tui.app.i18n import t
from tui.runtime.campus.services import SERVICES
from widgets_render.viewmodel import ErrorCard

#: The actions each kind offers, the first the one Enter takes.
ACTIONS: dict[str, tuple[str, ...]] = {
    "login": ("login", "detail"),
    "network": ("retry", "detail"),
    "timeout": ("retry", "detail"),
    "service": ("retry", "detail"),
    "internal": ("retry", "detail"),
    "plugin": ("detail",),
    "input": ("detail",),
    "refused": ("detail",),
    "unrecorded": ("detail",),
}
LABELS = {"login": "login", "retry": "error_action_retry", "detail": "detail"}


def service_title(service: str | None, locale: str) -> str:
    """A campus service's name in the locale (树洞, 校园卡 …), or the generic word when it is unknown."""
    known = SERVICES.get(service or "")
    return known.title_for(locale) if known else t("campus_account", locale)


def summary(kind: str, service: str | None, locale: str) -> str:
    """The one sentence a card of this kind shows (an unknown kind reads as the app's own failure)."""
    key = f"failure_{kind if kind in ACTIONS else 'internal'}"
    return t(key, locale).format(service=service_title(service, locale))


def explain(card: ErrorCard, locale: str) -> ErrorCard:
    """The card with its sentence and actions filled in the locale. A login without a known service to log in to
    cannot open the login screen: it offers 重试 instead."""
    kind = card.kind if card.kind in ACTIONS else "internal"
    actions = ACTIONS[kind] if kind != "login" or card.service in SERVICES else ("retry", "detail")
    card.summary = summary(kind, card.service, locale)
    card.actions = [(a, t(LABELS[a], locale)) for a in actions]
    return card


def failed(
    code: str,
    file: str,
    path: str,
    message: str,
    cause: str | None,
    service: str | None,
    locale: str,
    words: str = "",
) -> ErrorCard:
    """An explained card for a failure the runtime classified (`cause`; None: the app's own). `words`, the plugin
    author's own sentence for the student (a check's `error:`), replaces the cause's sentence."""
    card = explain(ErrorCard(code, file, path, message, kind=cause or "internal", service=service), locale)
    if words.strip():
        card.summary = words.strip()
    return card


def detail_text(card: ErrorCard, locale: str) -> str:
    """What 详情 shows: the card's technical text, and for a plugin's bug how its author finds it."""
    text = card.detail()
    if card.kind == "plugin":
        text += "\n\n" + t("error_for_author", locale).format(plugin=card.file.split("/", 1)[0])
    return text


Retry = Callable[[], object]
"""Refetches what failed (a worker starts; nothing is awaited)."""


async def act(app: App[Any], card: ErrorCard, action: str, locale: str, retry: Retry) -> None:
    """Do what the student chose on an error card: log in (then retry), retry, or show the detail."""
    from tui.app.dialogs.error_detail import ErrorDetailDialog
    from tui.app.dialogs.login import LoginScreen

    if action == "detail":
        app.push_screen(ErrorDetailDialog(card.summary, detail_text(card, locale), locale))
    elif action == "retry":
        retry()
    elif action == "login" and card.service in SERVICES:
        if any(isinstance(s, LoginScreen) for s in app.screen_stack):
            return  # one login screen at a time (one may have opened by itself)
        runtime = app.runtime  # type: ignore[attr-defined]
        services = [card.service, *(s for s in runtime.campus_services() if s != card.service)]
        reason = t("login_needed", locale).format(service=service_title(card.service, locale))
        if await app.push_screen_wait(LoginScreen(runtime.campus, services, locale, reason=reason)):
            app.notify(t("campus_saved", locale), markup=False)
            retry()
