"""The footer's key hints, only as many as fit: Textual's footer lets the last ones run past the screen's edge,
cut in half (at 80 columns a focused dashboard widget's five keys push 刷新 Refresh over it)."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from tui.app.watchers import Footer


def hint_width(key: FooterKey) -> int:
    """Cells a key hint takes (Textual pads the key by one each side and the description by one after)."""
    return cell_len(key.key_display) + 2 + (cell_len(key.description) + 1 if key.description else 0)


#: The actions whose key hint is never left out (F1 / ? lists the rest).
KEPT = ("help", "app.help")


class FittingFooter(Footer):
    """A footer that leaves out the key hints that would not fit whole; `?` lists every key."""

    def compose(self) -> ComposeResult:
        widgets: list[Widget] = list(super().compose())
        # The palette's key and the help key stay whatever the width: F1 is where every other key is listed (at 80
        # columns the English dashboard dropped it first, being last).
        kept = [w for w in widgets if w.has_class("-command-palette") or getattr(w, "action", None) in KEPT]
        room = self.width_there_is() - sum(hint_width(w) for w in kept if isinstance(w, FooterKey))
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget not in kept:
                room -= hint_width(widget)
                if room < 0:
                    continue
            yield widget

    def width_there_is(self) -> int:
        """The footer's own width once laid out (with F1's panel open it is the screen's less the panel), else the
        screen's."""
        return self.size.width or self.app.size.width

    #: What the keys on show were built from (see `_keys_shown`); None before the first build.
    _shown: tuple[object, ...] | None = None

    def _keys_shown(self) -> tuple[object, ...]:
        """Everything the built keys depend on: the width and each shown binding with its state."""
        hints = tuple(
            (
                binding.key,
                self.app.get_key_display(binding),
                binding.action,
                binding.description,
                binding.group,
                enabled,
                tooltip,
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.width_there_is(), self.show_command_palette, hints)

    async def recompose(self) -> None:
        # Textual rebuilds every key on each bindings signal — every focus change, thousands per session — though
        # mostly nothing on show changed; a rebuild costs a CSS pass per key, so build only when something did.
        if not self.is_attached or self._pruning:
            return  # removed while the rebuild waited for the next refresh (Textual's own recompose checks this)
        shown = self._keys_shown()
        if shown == self._shown and self.children:
            return
        self._shown = shown
        await super().recompose()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.recompose)
