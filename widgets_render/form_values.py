"""What a rendered form holds (genui.md §2.5): the values a student gave and the required fields left empty.

One reading of the fields serves both the submit check and the copy into the screen's state, so "empty" means
the same thing to both: a blank text box (spaces only) or a select with nothing chosen. An empty field is "not
given", so the tool's own defaults apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.dom import DOMNode
from textual.widgets import Input, Select, Switch

#: The class the renderer puts on every form field, and the one it adds to a required field.
FIELD_CLASS = "gen-input"
REQUIRED_CLASS = "-required"


@dataclass
class FormValues:
    """The fields of one form: what was given (by field name) and which required fields are empty."""

    given: dict[str, Any] = field(default_factory=dict)
    empty: set[str] = field(default_factory=set)
    missing: set[str] = field(default_factory=set)


def number_or_text(text: str) -> Any:
    """A number field's text as a number (whole numbers as int); text that is not one stays text, so the tool's
    input check can name the field."""
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() else number


def field_value(widget: DOMNode) -> tuple[bool, Any]:
    """(given, value) for one field widget; an unknown widget is never given."""
    if isinstance(widget, Input):
        text = widget.value.strip()
        if not text:
            return False, None
        return True, number_or_text(text) if widget.type == "number" else text
    if isinstance(widget, Select):
        return (False, None) if widget.value is Select.NULL else (True, widget.value)
    if isinstance(widget, Switch):
        return True, widget.value
    return False, None


def read_form(form: DOMNode) -> FormValues:
    """Read every named field under `form`."""
    values = FormValues()
    for widget in form.query(f".{FIELD_CLASS}"):
        if not widget.name:
            continue
        given, value = field_value(widget)
        if given:
            values.given[widget.name] = value
        else:
            values.empty.add(widget.name)
            if widget.has_class(REQUIRED_CLASS):
                values.missing.add(widget.name)
    return values
