"""Mounts a resolved view model as Textual widgets (genui.md §2.4). Every text goes in as `plain()` content (or
`literal()` Text where a widget wants Rich text): cleaned of terminal escapes and never read as markup, so tool data
like `[/bold]` shows literally and can never raise, and `[@click=…]` is text, not an action.

Imported only by the app (it needs Textual); `widgets_render/__init__.py` stays Textual-free.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import (
    Button,
    DataTable,
    Input,
    Label,
    ListItem,
    ListView,
    ProgressBar,
    Rule,
    Select,
    Sparkline,
    Static,
    Switch,
    TabbedContent,
    TabPane,
)

from widgets_render.error_view import ACTION_KEYS, ErrorView
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import (
    GenCountdown,
    aligned,
    as_text,
    literal,
    number,
    plain,
    spaced,
    stat_widget,
    static_text,
    text_widget,
    time_text,
    truthy,
)
from widgets_render.steady_select import SteadySelect
from widgets_render.viewmodel import ErrorCard, Resolved, VNode

BAR_WIDTH = 16


class GenButton(Button):
    """A button that carries its genui action (unevaluated; the screen runs it when pressed)."""

    def __init__(
        self,
        label: Content,
        action: dict[str, object] | None,
        form: str | None = None,
        confirm: str | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(label, **kwargs)  # type: ignore[arg-type]
        self.gen_action = action
        self.gen_form = form
        """The state key of the form this button submits, if it is a form's submit button."""
        self.gen_confirm = confirm
        """The button's `confirm` question (resolved text): asked, Y/N, before its action runs."""


class GenTable(DataTable[Text]):
    """A screen table whose rows remember their item, so a rowAction can run with it."""

    def __init__(self, action: dict[str, object] | None, items: list[object], **kwargs: object) -> None:
        super().__init__(zebra_stripes=True, cursor_type="row", **kwargs)  # type: ignore[arg-type]
        self.gen_action = action
        self.gen_items = items


class GenList(ListView):
    """A screen list whose rows remember their item, so an itemAction can run with it (Enter or a click)."""

    DEFAULT_CSS = "GenList { height: auto; max-height: 30; } GenList > ListItem { height: auto; }"

    def __init__(self, rows: list[Widget], action: dict[str, object], items: list[object], alias: object) -> None:
        super().__init__(*[ListItem(row) for row in rows], classes="gen-list")
        self.gen_action = action
        self.gen_items = items
        self.gen_alias = alias if isinstance(alias, str) else None
        """The list's `as` name, bound to the item like `item` when the action runs."""


class GenTabs(Widget):
    """A screen's `tabs` node as a TabbedContent (panes can only be given to it while composing)."""

    DEFAULT_CSS = "GenTabs { height: auto; } GenTabs TabPane { height: auto; }"

    def __init__(self, panes: list[TabPane]) -> None:
        super().__init__(classes="gen-tabs")
        self.panes = panes

    def compose(self) -> ComposeResult:
        with TabbedContent():
            yield from self.panes


def field_widget(node: VNode) -> Widget:
    """An editable field on a screen: select for options, switch for toggles, else a text input."""
    p = node.props
    name = str(p.get("name") or "")
    value = p.get("value") if p.get("value") is not None else p.get("default")
    options = p.get("options")
    labels = p.get("optionLabels") or {}
    if isinstance(options, list) and options:
        # An option is chosen as the value it is: 50 stays a number (as text, wallet.recharge's own amounts were
        # refused with "must be a whole number"); only a list or an object is chosen as its text.
        choices = [
            (str(labels.get(str(o), o)), o if isinstance(o, str | int | float) else str(o)) for o in options[:200]
        ]
        matches = [key for _, key in choices if value is not None and (key == value or str(key) == str(value))]
        initial = matches[0] if matches else Select.NULL
        # A required select still starts blank when nothing is chosen: picking for the user would hide the choice.
        blank = initial is Select.NULL or not p.get("required")
        # Text, not Content: Select's type-to-search reads Text and str prompts only.
        prompts = [(literal(shown), key) for shown, key in choices]
        prompt = "Select" if p.get("locale") == "en" else "请选择"
        widget: Widget = SteadySelect(prompts, prompt=prompt, value=initial, allow_blank=blank, name=name)
    elif p.get("input") == "toggle":
        widget = Switch(value=bool(value), name=name)
    else:
        widget = Input(
            value="" if value is None else clean(as_text(value)),
            placeholder=clean(str(p.get("placeholder") or "")),
            type="number" if p.get("input") == "number" else "text",
            name=name,
        )
    widget.add_class("gen-input")
    if p.get("required") and not isinstance(widget, Switch):
        widget.add_class("-required")  # the screen refuses to submit its form while this is empty
    label = str(p.get("label") or name)
    return Vertical(Static(plain(label), markup=False, classes="gen-field-label"), widget, classes="gen-field")


def build(node: VNode, screen: bool = False) -> Widget:
    """The Textual widget for one view-model node."""
    k, p = node.kind, node.props
    if k == "form" and screen:
        fields = [field_widget(c) if c.kind == "field" else build(c, screen) for c in node.children]
        submit = p.get("submit") if isinstance(p.get("submit"), dict) else None
        label = str(p.get("submitLabel") or "OK")
        button = GenButton(plain(label), submit, form=p.get("bind") or "form", variant="primary", classes="gen-submit")
        return Vertical(*fields, button, classes="gen-form")
    if k in ("column", "card", "form", "tab"):
        box = Vertical(*spaced([build(c, screen) for c in node.children], p.get("gap"), "bottom"), classes=f"gen-{k}")
        aligned(box, p.get("align"))
        if k == "card" and p.get("title"):
            box.border_title = plain(str(p["title"]))
        return box
    if k == "row":
        parts = spaced([build(c, screen) for c in node.children], p.get("gap"), "right")
        strip = Horizontal(*parts, classes="gen-row")
        aligned(strip, p.get("align"))
        return strip
    if k == "grid":
        grid = Grid(*[build(c, screen) for c in node.children], classes="gen-grid")
        columns = int(number(p.get("columns")) or 2)
        grid.styles.grid_size_columns = max(1, min(4, columns))
        grid.styles.grid_gutter_horizontal = 1
        grid.styles.height = "auto"
        return grid
    if k == "text":
        return text_widget(node)
    if k == "stat":
        return stat_widget(node)
    if k == "badge":
        return Label(plain(f" {p.get('text', '')} "), markup=False, classes=f"gen-badge tone-{node.tone or 'neutral'}")
    if k == "notice":
        return static_text(str(p.get("text", "")), node, "gen-notice")
    if k == "divider":
        if not str(p.get("label") or "").strip():
            return Rule()
        # A labelled divider is one line: the label, then the rule to the edge (cut there, never wrapped).
        line = static_text(f"── {p['label']} {'─' * 400}", node, "gen-divider", "tone-muted")
        line.styles.text_wrap = "nowrap"
        line.styles.text_overflow = "clip"
        line.styles.margin = (1, 0, 0, 0)
        return line
    if k == "image":
        return static_text(f"▣ {p.get('alt', '')}", node, "gen-image")  # never fetched
    if k == "kv":
        colon = ": " if p.get("locale") == "en" else "："
        return static_text("\n".join(f"{c.props['k']}{colon}{c.props['v']}" for c in node.children), node)
    if k == "list":
        rows = [build(c, screen) for c in node.children]
        if p.get("error"):
            rows = [static_text(str(p["error"]), node, "tone-bad")]
        elif not node.children and p.get("emptyText"):
            rows = [static_text(str(p["emptyText"]), node, "tone-muted")]
        action = p.get("itemAction")
        items = p.get("itemValues")
        if screen and isinstance(action, dict) and isinstance(items, list) and len(items) == len(node.children):
            listed = GenList(rows, action, items, p.get("as"))
            return Vertical(listed, static_text(f"+{p['more']}", None, "tone-muted")) if p.get("more") else listed
        if p.get("more"):
            rows.append(static_text(f"+{p['more']}", None, "tone-muted"))
        return Vertical(*rows, classes="gen-list")
    if k == "bars":
        if p.get("error"):
            return static_text(str(p["error"]), node, "tone-bad")
        top = max([number(c.props.get("max")) or number(c.props.get("value")) for c in node.children] or [1.0]) or 1.0
        lines = []
        for c in node.children:
            cap = number(c.props.get("max")) or top
            filled = round(BAR_WIDTH * min(1.0, number(c.props.get("value")) / cap)) if cap else 0
            shown = c.props.get("display") or as_text(c.props.get("value"))
            lines.append(
                static_text(
                    f"{str(c.props.get('label', ''))[:8]:<8} {'█' * filled}{'░' * (BAR_WIDTH - filled)} {shown}", c
                )
            )
        if p.get("more"):
            lines.append(static_text(f"+{p['more']}", None, "tone-muted"))
        return Vertical(*lines, classes="gen-bars")
    if k == "table":
        if p.get("error"):
            return static_text(str(p["error"]), node, "tone-bad")
        if screen:
            table_rows = [r for r in node.children if r.kind == "tablerow"]
            action = p.get("rowAction") if isinstance(p.get("rowAction"), dict) else None
            table = GenTable(action, [r.props.get("item") for r in table_rows], classes="gen-table")
            table.add_columns(*[literal(h) for h in p.get("headers", [])])
            for i, row in enumerate(table_rows):
                table.add_row(*[literal(c) for c in row.props.get("cells", [])], key=str(i))
            if not table_rows and (p.get("emptyText") or node.children):
                empty = [build(c, screen) for c in node.children] or [
                    static_text(str(p["emptyText"]), node, "tone-muted")
                ]
                return Vertical(table, *empty, classes="gen-column")
            return table
        head = " │ ".join(str(h) for h in p.get("headers", []))
        body = "\n".join(" │ ".join(str(c) for c in r.props.get("cells", [])) for r in node.children)
        return static_text(f"{head}\n{body}" if body else head, node)
    if k == "progress":
        # `max` is 1 unless given, as HTML's <progress>: `pct(part, whole)` (0 to 1) fills it as it should.
        total = number(p.get("max")) if p.get("max") is not None else 1.0
        bar = ProgressBar(total=total or 1.0, show_eta=False, show_percentage=bool(p.get("showPct")))
        bar.progress = number(p.get("value"))
        return (
            Vertical(static_text(str(p.get("label", "")), node), bar, classes="gen-progress") if p.get("label") else bar
        )
    if k == "sparkline":
        raw = p.get("values")
        values: list[object] = raw if isinstance(raw, list) else []
        # `min`/`max` bound the values drawn: one far outside (a glitch in the data) does not flatten the rest
        low = number(p.get("min")) if p.get("min") is not None else float("-inf")
        high = number(p.get("max")) if p.get("max") is not None else float("inf")
        return Sparkline([min(max(number(v), low), high) for v in values][-500:])
    if k == "countdown":
        countdown = GenCountdown(node)
        if truthy(p.get("big")):
            countdown.styles.text_style = "bold"
        return countdown
    if k == "time":
        return static_text(time_text(node), node, "gen-time")
    if k == "button":
        action = p.get("action") if isinstance(p.get("action"), dict) else None
        variant = {"primary": "primary", "danger": "error"}.get(str(p.get("variant")), "default")
        confirm = p.get("confirm")
        question = str(confirm) if isinstance(confirm, str | int | float) and str(confirm).strip() else None
        caption = plain(str(p.get("label", "")))
        return GenButton(caption, action, confirm=question, variant=variant, disabled=bool(p.get("disabled")))
    if k == "field":
        return static_text(f"{p.get('label') or p.get('name')}: …", node, "gen-field")
    if k == "tabs":
        if screen and node.children:
            # plain(...) is literal text: a str title would be read as markup ("[b]" in plugin text).
            panes = [
                TabPane(plain(str(c.props.get("label") or f"{i + 1}")), *[build(b, screen) for b in c.children])
                for i, c in enumerate(node.children)
            ]
            return GenTabs(panes)
        return Vertical(*[build(c, screen) for c in node.children], classes="gen-tabs")
    return static_text(f"[不支持: {k}]", node, "tone-muted")


#: the i18n keys that describe the error-card keys in the footer and the key panel (the app translates them)
ACTION_WORDS = {"login": "login", "retry": "error_action_retry", "detail": "detail"}


class WidgetFrame(Vertical):
    """One dashboard slot: a bordered box with the widget's title, its body or its error card."""

    DEFAULT_CSS = """
    WidgetFrame { border: round $primary 50%; height: auto; min-height: 4; padding: 0 1; }
    WidgetFrame { border-title-color: $text-primary; }
    WidgetFrame.-error { border: round $error; }
    WidgetFrame:focus { border: round $accent; }
    WidgetFrame .tone-muted { color: $text-muted; }
    WidgetFrame .tone-bad { color: $error; }
    WidgetFrame .tone-warn { color: $warning; }
    WidgetFrame .tone-ok { color: $success; }
    WidgetFrame .tone-accent, WidgetFrame .gen-stat { color: $accent; text-style: bold; }
    WidgetFrame .gen-row { height: auto; }
    WidgetFrame .gen-row > * { width: auto; margin-right: 1; }
    WidgetFrame .gen-list, WidgetFrame .gen-bars, WidgetFrame .gen-column, WidgetFrame .gen-progress { height: auto; }
    WidgetFrame .gen-badge { background: $boost; }
    """

    can_focus = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "tap", "key_open", show=False),
        # On an error card only (check_action): elsewhere `r` stays the app's refresh of every widget.
        *[Binding(key, f"error('{action}')", ACTION_WORDS[action], show=False) for action, key in ACTION_KEYS.items()],
    ]

    class Tapped(Message):
        """The user chose a widget (Enter or a click): its `tap` opens a screen; without one the app shows what
        the widget shows more fully."""

        def __init__(self, frame: WidgetFrame) -> None:
            super().__init__()
            self.frame = frame

    def __init__(
        self,
        resolved: Resolved,
        file: str,
        stale: bool | str | None = False,
        tap: dict[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.resolved = resolved
        self.file = file
        self.tap = tap
        # A stale widget keeps its last good data and says how old it is in the title (genui §2.6).
        mark = f" ⟳ {stale}" if isinstance(stale, str) else " ⟳" if stale else ""
        self.border_title = plain(resolved.title + mark)

    @property
    def error(self) -> ErrorCard | None:
        """The error card this frame shows, if any."""
        return self.resolved.body if isinstance(self.resolved.body, ErrorCard) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "error":
            card = self.error
            return card is not None and any(a == parameters[0] for a, _ in card.actions)
        return True

    def action_error(self, action: str) -> None:
        for view in self.query(ErrorView):
            view.choose(action)

    def action_tap(self) -> None:
        card = self.error
        if card is not None:
            # Enter on an error card takes its first action (登录, 重试 or 详情), not the widget's screen.
            if card.actions:
                self.action_error(card.actions[0][0])
            return
        self.post_message(self.Tapped(self))

    def on_click(self) -> None:
        if self.error is None:  # an error card's buttons take their own clicks
            self.action_tap()

    def compose(self) -> ComposeResult:
        body = self.resolved.body
        if isinstance(body, ErrorCard):
            self.add_class("-error")
            yield ErrorView(body)
            return
        try:
            yield build(body)
        except Exception as e:
            self.add_class("-error")
            yield Static(
                plain(f"⚠ 小组件无法显示 · {self.file} · INTERNAL: {type(e).__name__}: {e}"[:300]), markup=False
            )
