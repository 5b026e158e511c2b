"""Plugin, server and model text is data: a scan of the app's code (`tui/app`, `widgets_render`) for every place
Textual reads a `str` as markup or shows it on the terminal — `notify(...)`, `Static(...)`, `Button(...)`,
`border_title = …`, `Select` options, DataTable cells, `.update(...)`, … — fails unless the text given there is
provably app text or passed through a safe constructor:

- a string literal, or an i18n lookup `t("key", locale)` with a literal key and no data formatted into it;
- where Textual wants content: `plain(...)` / `literal(...)` (cleaned, never markup), or `Content`/`Text` of a
  cleaned text;
- where Textual wants a plain `str` (Markdown, Input, TextArea, titles, `notify(..., markup=False)`): `clean(...)` or
  `one_line(...)`;
- where Textual only takes markup (the command palette, `notify` without `markup=False`): `as_markup(...)`.

A name counts when every assignment to it in its function is one of these. The one escape hatch is a trailing
`# markup: <why this is app text>` comment, for a value provably drawn by the app; the list stays short.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOTS = [REPO / "tui" / "app", REPO / "widgets_render"]

CONTENT, TEXT, MARKUP = "content", "text", "markup"
#: The calls that make a kind of text safe. `diff_text` (draft_write_line.py) is a `Text` built with `append` of
#: cleaned lines and a style per line: styled, never parsed as markup.
SAFE_CALLS = {CONTENT: {"plain", "literal", "diff_text"}, TEXT: {"clean", "one_line"}, MARKUP: {"as_markup"}}

#: Widgets whose text argument (positions, keywords) Textual reads as markup when it is a str.
CONTENT_CTORS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "Static": ((0,), ("content",)),
    "Label": ((0,), ("content",)),
    "Button": ((0,), ("label",)),
    "GenButton": ((0,), ("label",)),
    "Checkbox": ((0,), ("label",)),
    "RadioButton": ((0,), ("label",)),
    "ToggleButton": ((0,), ("label",)),
    "Option": ((0,), ("prompt",)),
    "Tab": ((0,), ("label",)),
    "TabPane": ((0,), ("title",)),
    "Collapsible": ((), ("title",)),
    "Tooltip": ((0,), ()),
}
#: Widgets that show a plain str as it is (no markup, but every escape reaches the terminal).
TEXT_CTORS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "Markdown": ((0,), ("markdown",)),
    "Input": ((0,), ("value", "placeholder")),
    "TextArea": ((0,), ("text", "placeholder")),
    "ChatInput": ((0,), ("placeholder",)),
}
#: Methods that put a plain str into a text box as it is (`TextArea.load_text`).
TEXT_METHODS = {"load_text"}
#: Markup-only places: the command palette reads a command's title and help as markup, always.
MARKUP_CTORS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "SystemCommand": ((0, 1), ("title", "help")),
    "Hit": ((1,), ("match_display", "text", "help")),
    "DiscoveryHit": ((0,), ("display", "text", "help")),
}
#: Attributes whose assigned value is shown: border titles and labels as markup, screen titles as plain text.
CONTENT_ATTRS = {"border_title", "border_subtitle", "tooltip", "label"}
TEXT_ATTRS = {"title", "sub_title", "placeholder", "prompt"}
#: Widget types for `.update(...)` / `.append(...)` on a variable of that type (Markdown takes a str).
WIDGET_TYPES = {"Static", "Label", "Markdown", "GenCountdown"}
HATCH = re.compile(r"#\s*markup:\s*(\S.*)$")


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.what}"


def _name(node: ast.AST) -> str | None:
    """`Static` for `Static(...)` and `widgets.Static(...)`; `notify` for `self.app.notify(...)`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


class Scope:
    """The assignments of one function (and, as a fallback, of the functions around it and the module)."""

    def __init__(self, node: ast.AST, parent: Scope | None) -> None:
        self.parent = parent
        self.values: dict[str, list[ast.expr | None]] = {}
        params = node.args if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) else None
        if params is not None:
            for arg in [*params.posonlyargs, *params.args, *params.kwonlyargs, params.vararg, params.kwarg]:
                if arg is not None:
                    self.values.setdefault(arg.arg, []).append(None)  # a parameter: anything may come in
        for child in _own_nodes(node):
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    self._bind(target, child.value)
            elif isinstance(child, ast.AnnAssign) and child.value is not None:
                self._bind(child.target, child.value)
            elif isinstance(child, ast.AugAssign | ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
                targets = (
                    [child.target]
                    if not isinstance(child, ast.With | ast.AsyncWith)
                    else [item.optional_vars for item in child.items if item.optional_vars is not None]
                )
                for target in targets:
                    self._bind(target, None)
            elif isinstance(child, ast.NamedExpr):
                self._bind(child.target, child.value)

    def _bind(self, target: ast.AST, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self.values.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self._bind(elt, None)  # unpacked: not followed

    def lookup(self, name: str) -> list[ast.expr | None] | None:
        if name in self.values:
            return self.values[name]
        return self.parent.lookup(name) if self.parent else None


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes of a function or module body, not those of functions nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        out.append(child)
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(child))
    return out


def safe(node: ast.AST | None, kind: str, scope: Scope, seen: frozenset[str] = frozenset()) -> bool:
    """Whether this expression is app text or passed through the safe constructor for `kind`."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str | int | float | bool)
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) for v in node.values)  # an f-string with no values
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name == "t" and isinstance(node.func, ast.Name):
            return len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and not node.keywords
        if name in SAFE_CALLS[kind] and not isinstance(node.func, ast.Attribute):
            return True
        if kind == CONTENT and name in ("Content", "Text") and isinstance(node.func, ast.Name):
            return bool(node.args) and safe(node.args[0], TEXT, scope, seen)
        if name == "map" and node.args:
            return _name(node.args[0]) in SAFE_CALLS[kind]
        return False
    if isinstance(node, ast.IfExp):
        return safe(node.body, kind, scope, seen) and safe(node.orelse, kind, scope, seen)
    if isinstance(node, ast.BoolOp):
        return all(safe(v, kind, scope, seen) for v in node.values)
    if isinstance(node, ast.Subscript):
        return safe(node.value, kind, scope, seen)  # a slice of safe text
    if isinstance(node, ast.Starred):
        return safe(node.value, kind, scope, seen)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(safe(e, kind, scope, seen) for e in node.elts)
    if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
        return safe(node.elt, kind, scope, seen)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return safe(node.left, kind, scope, seen) and safe(node.right, kind, scope, seen)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # [literal("")] * n
        lists = [s for s in (node.left, node.right) if isinstance(s, ast.List)]
        return len(lists) == 1 and safe(lists[0], kind, scope, seen)
    if isinstance(node, ast.Name) and node.id not in seen:
        values = scope.lookup(node.id)
        return bool(values) and all(safe(v, kind, scope, seen | {node.id}) for v in values or [])
    return False


def _options_safe(node: ast.AST | None, scope: Scope, seen: frozenset[str] = frozenset()) -> bool:
    """A Select's options: every (prompt, value) pair has a safe prompt (lists of them spread into one another,
    joined with `+` or given as `a or b` included)."""
    if isinstance(node, ast.List | ast.Tuple):
        return all(
            _options_safe(e.value, scope, seen)
            if isinstance(e, ast.Starred)
            else isinstance(e, ast.Tuple) and bool(e.elts) and safe(e.elts[0], CONTENT, scope)
            for e in node.elts
        )
    if isinstance(node, ast.BoolOp):
        return all(_options_safe(v, scope, seen) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _options_safe(node.body, scope, seen) and _options_safe(node.orelse, scope, seen)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _options_safe(node.left, scope, seen) and _options_safe(node.right, scope, seen)
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        return isinstance(node.elt, ast.Tuple) and bool(node.elt.elts) and safe(node.elt.elts[0], CONTENT, scope)
    if isinstance(node, ast.Name) and node.id not in seen:
        values = scope.lookup(node.id)
        return bool(values) and all(_options_safe(v, scope, seen | {node.id}) for v in values or [])
    return False


class Scanner(ast.NodeVisitor):
    """Walks one module; `findings` are the places that give Textual unchecked text."""

    def __init__(self, file: str, source: str) -> None:
        self.file = file
        self.lines = source.splitlines()
        self.findings: list[Finding] = []
        self.hatches: list[Finding] = []
        tree = ast.parse(source)
        self.widgets = self._widget_names(tree)
        self.scope = Scope(tree, None)
        self.classes: list[ast.ClassDef] = []
        self.visit(tree)

    @staticmethod
    def _widget_names(tree: ast.AST) -> dict[str, str]:
        """Variables and attributes the module binds to a widget (by constructor or annotation) → its type."""
        found: dict[str, str] = {}
        for node in ast.walk(tree):
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []  # fmt: skip
            kinds = set()
            if isinstance(value, ast.Call):
                if _name(value.func) in WIDGET_TYPES:
                    kinds.add(str(_name(value.func)))
                elif _name(value.func) == "query_one":
                    kinds.add("Static")
            if isinstance(node, ast.AnnAssign):
                kinds |= {n.id for n in ast.walk(node.annotation) if isinstance(n, ast.Name) and n.id in WIDGET_TYPES}
            for target in targets:
                dotted = _dotted(target)
                if dotted and kinds:
                    found[dotted] = "Markdown" if kinds == {"Markdown"} else "Static"
        return found

    def report(self, node: ast.AST, what: str) -> None:
        start, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0) or getattr(node, "lineno", 0)
        for line in self.lines[start - 1 : end]:
            hatch = HATCH.search(line)
            if hatch:
                self.hatches.append(Finding(self.file, start, hatch.group(1)))
                return
        self.findings.append(Finding(self.file, start, f"{what}: {ast.unparse(node)[:110]}"))

    def check(self, node: ast.AST | None, kind: str, where: ast.AST, what: str) -> None:
        if node is not None and not safe(node, kind, self.scope):
            self.report(where, f"{what} ({kind})")

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        outer, self.scope = self.scope, Scope(node, self.scope)
        self.generic_visit(node)
        self.scope = outer

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node)
        self.generic_visit(node)
        self.classes.pop()

    def _args(self, node: ast.Call, spec: tuple[tuple[int, ...], tuple[str, ...]], kind: str, what: str) -> None:
        positions, keywords = spec
        for i in positions:
            if i < len(node.args) and not any(isinstance(a, ast.Starred) for a in node.args[: i + 1]):
                self.check(node.args[i], kind, node, what)
        for kw in node.keywords:
            if kw.arg in keywords:
                self.check(kw.value, kind, node, f"{what} {kw.arg}=")

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        for kw in node.keywords:
            if kw.arg == "markup" and not (isinstance(kw.value, ast.Constant) and kw.value.value is False):
                self.report(node, "markup switched on")
        if name in CONTENT_CTORS:
            self._args(node, CONTENT_CTORS[name], CONTENT, name)
        elif name in TEXT_CTORS:
            self._args(node, TEXT_CTORS[name], TEXT, name)
        elif name in MARKUP_CTORS:
            self._args(node, MARKUP_CTORS[name], MARKUP, name)
        elif name == "OptionList":
            for arg in node.args:
                self.check(arg, CONTENT, node, "OptionList option")
        elif name in ("Select", "SteadySelect") and node.args:
            if not _options_safe(node.args[0], self.scope):
                self.report(node, "Select option prompts")
        elif name == "notify" and isinstance(node.func, ast.Attribute):
            off = any(k.arg == "markup" for k in node.keywords)
            self.check(node.args[0] if node.args else None, TEXT if off else MARKUP, node, "notify message")
            for kw in node.keywords:
                if kw.arg == "title":
                    self.check(kw.value, TEXT, node, "notify title")
        elif name in ("add_row", "add_columns", "add_column") and isinstance(node.func, ast.Attribute):
            cells = node.args[:1] if name == "add_column" else node.args
            for cell in cells:
                self.check(cell, CONTENT, node, f"DataTable {name}")
        elif name in ("update_cell", "update_cell_at") and isinstance(node.func, ast.Attribute):
            at = 2 if name == "update_cell" else 1
            value = node.args[at] if len(node.args) > at else next(
                (k.value for k in node.keywords if k.arg == "value"), None)  # fmt: skip
            self.check(value, CONTENT, node, f"DataTable {name}")
        elif name in TEXT_METHODS and isinstance(node.func, ast.Attribute) and node.args:
            self.check(node.args[0], TEXT, node, f"{name}")
        elif name in ("from_markup",) and node.args and not isinstance(node.args[0], ast.Constant):
            self.report(node, "markup parsed from a variable")
        elif name in ("update", "append") and isinstance(node.func, ast.Attribute) and len(node.args) == 1:
            widget = self._receiver(node.func.value)
            if widget is not None and (name == "update" or widget == "Markdown"):
                self.check(node.args[0], TEXT if widget == "Markdown" else CONTENT, node, f"{widget}.{name}")
        self.generic_visit(node)

    def _receiver(self, node: ast.expr) -> str | None:
        """The widget type of `x` in `x.update(...)`, when the module shows it is a widget."""
        if isinstance(node, ast.Call) and _name(node.func) == "query_one":
            return "Static"
        if isinstance(node, ast.Name) and node.id == "self" and self.classes:
            bases = {_name(b) for b in self.classes[-1].bases}
            return "Static" if bases & WIDGET_TYPES else None
        dotted = _dotted(node)
        return self.widgets.get(dotted) if dotted else None

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr in CONTENT_ATTRS:
                self.check(node.value, CONTENT, node, target.attr)
            elif isinstance(target, ast.Attribute) and target.attr in TEXT_ATTRS:
                self.check(node.value, TEXT, node, target.attr)
        self.generic_visit(node)


def scan(path: Path) -> Scanner:
    return Scanner(str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))


def sources() -> list[Path]:
    return sorted(p for root in ROOTS for p in root.rglob("*.py"))


def test_every_text_given_to_textual_is_app_text_or_made_safe() -> None:
    findings = [f for path in sources() for f in scan(path).findings]
    assert not findings, "text that can hold plugin data reaches Textual unchecked:\n" + "\n".join(map(str, findings))


def test_the_escape_hatch_stays_short_and_says_why() -> None:
    hatches = [h for path in sources() for h in scan(path).hatches]
    assert len(hatches) <= 3, "\n".join(map(str, hatches))
    assert all(len(h.what) >= 20 for h in hatches), hatches


SINKS = """
from textual.widgets import Button, Select, Static
def compose(self, data, loc):
    label = data["label"]
    ok = plain(data["label"])
    yield Static(data)
    yield Static(data, markup=False)
    yield Static(f"x {data}")
    yield Static(t("k", loc).format(name=data))
    yield Button(label)
    yield Select([(label, 1)])
    self.notify(label)
    self.notify(clean(label))
    self.app.notify(plain(label), markup=False)
    self.border_title = label
    table.add_row(label, *cells)
    self.title = label
    self.query_one("#x", Static).update(label)
    yield Static(data, markup=True)
    yield TextArea(data)
    box.load_text(label)
    yield Select([*[(label, 1)], ("中文", "zh")])
    yield Select(choices or [(label, 1)])
    yield Static(ok)
    yield Static(plain(data), markup=False)
    yield Static(t("k", loc))
    yield Button(plain(label) if data else "OK")
    yield Select([(literal(label), 1), ("中文", "zh")])
    self.notify(clean(label), markup=False, title=one_line(data))
    self.notify(t("done", loc))
    self.border_title = plain(label)
    table.add_row(*map(literal, cells), literal(label), key=label)
    self.title = clean(label)
    self.query_one("#x", Static).update(plain(label))
    yield ChatInput(t("k", loc))
    box.load_text(clean(label))
    yield Select([*([(t("k", loc), 1)] if data else []), (literal(label), 2)] or [("—", "")])
    yield Static(data)  # markup: a value the test declares app-owned
"""


def test_the_scanner_finds_each_kind_of_sink() -> None:
    """The scanner itself: every unsafe line of the sample is found, none of the safe ones."""
    scanner = Scanner("sample.py", SINKS)
    flagged = sorted({f.line for f in scanner.findings})
    assert flagged == list(range(6, 24)), [str(f) for f in scanner.findings]
    assert [h.line for h in scanner.hatches] == [38]
