"""The plugin reference's widgets and screens sections, generated from the genui spec models (`widgets_render.spec`)
and the vocabulary the spec validator checks with (`widgets_render.catalog`): every component type with its props,
every action, the top-level fields of a widget and of a screen, and the names their templates see."""

from __future__ import annotations

from typing import get_args

from pydantic import BaseModel

from tui.lang.documents.model_markdown import fields_inline, model_tables
from widgets_render.catalog import ITEM_NAMES, SCREEN_NAMES, SCREEN_ONLY_COMPONENTS, TEMPLATE_NAMES
from widgets_render.spec import Action, Common, OpenThen, Screen, SetThen, Widget
from widgets_render.spec_words import MODELS

ACTIONS = get_args(Action)
"""Every action model, from the union an action prop takes."""

#: Models each section describes on lines of their own, not as tables under Widget and Screen.
_LINED = [
    *(m.__name__ for m in MODELS.values()),
    *(a.__name__ for a in ACTIONS),
    *("Common", "SetThen", "OpenThen", "I18nText"),
]


def _words(values: object) -> str:
    return " ".join(f"`{v}`" for v in values)  # type: ignore[attr-defined]


def _doc(model: type) -> str:
    return " ".join((model.__doc__ or "").split())


def _sub_models() -> dict[str, type[BaseModel]]:
    """Models a component refers to beside nodes and actions (a table's columns, a kv pair, a tab)."""
    found: dict[str, type[BaseModel]] = {}
    for model in MODELS.values():
        for info in model.model_fields.values():
            for arg in _flat(info.annotation):
                if isinstance(arg, type) and issubclass(arg, BaseModel) and arg.__name__ not in _LINED:
                    found[arg.__name__] = arg
    return found


def _flat(annotation: object) -> list[object]:
    args = get_args(annotation)
    return [annotation] if not args else [x for a in args for x in _flat(a)]


def widgets_markdown() -> str:
    """`widgets/NAME.json`: the widget's fields, names in templates, common props, every component and action."""
    common = set(Common.model_fields) | {"type"}
    components = [
        f"- **{kind}**{' (screens only)' if kind in SCREEN_ONLY_COMPONENTS else ''} — "
        + (fields_inline(model, skip=common) or "no props of its own")
        for kind, model in MODELS.items()
    ]
    subs = [f"- **{name}** — {fields_inline(model)}" for name, model in _sub_models().items()]
    actions = [f"- {fields_inline(a)} — {_doc(a)}" for a in ACTIONS]
    return "\n".join(
        [
            "## Widgets",
            "A widget is `widgets/NAME.json`, named in the manifest's `widgets`. Every string is a template; a "
            'string that is exactly one `${…}` keeps the value\'s type (`"items": "${data}"` is the list), so '
            "props needing a list, number or boolean take a whole `${…}`. A failing prop shows its `fallback` or —. "
            f"Names in templates: {_words(TEMPLATE_NAMES)}, `let` names, shared constants and functions; "
            f"{_words(ITEM_NAMES)} (and the `as` name) inside per-item props (a list's `item`, a table's "
            f"`columns`, …); screens add {_words(SCREEN_NAMES)}. `data` is the widget's `source` (a `dataSources` "
            'name), `sources.<alias>` each of its `sources`. `text|{zh,en}` = text or `{ "zh": …, "en": … }`; '
            "`*` = required.\n",
            model_tables(Widget, "Widget (widgets/NAME.json)", leave_out=_LINED),
            "### Props every component has",
            fields_inline(Common) + "\n",
            "### Components (`type`)",
            *components,
            *subs,
            "",
            "### Actions (`action`, `tap`, `itemAction`, `rowAction`, `submit`)",
            *actions,
            f"- `then` of `invoke`: `toast`|`refresh`|`close`, {{{fields_inline(SetThen)}}} or "
            f"{{{fields_inline(OpenThen)}}}",
        ]
    )


def screens_markdown() -> str:
    """`screens/NAME.json`: the screen's fields and its sources; its components are the widgets section's."""
    return "\n".join(
        [
            "## Screens",
            "A screen is a whole page, `screens/NAME.json`, named in the manifest's `screens`, opened by "
            '`{ "open": "screen:NAME", "params": {…} }` or a command. It uses the components and actions of '
            f"the widgets section, and only screens have {_words(SCREEN_ONLY_COMPONENTS)} and the `set` action. "
            f"Its templates also see {_words(SCREEN_NAMES)}: `params` (declared like tool input fields: `type`, "
            "`enum`, `default`), `state` (plus `state.pending`, `state.error`). A screen has no `source` and no "
            "`data`: it names all it reads in `sources` (a `dataSources` name, or a read tool with `args`) and "
            "reads `sources.<alias>`.\n",
            model_tables(Screen, "Screen (screens/NAME.json)", leave_out=_LINED),
        ]
    )
