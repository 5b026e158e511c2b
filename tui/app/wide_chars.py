"""Chinese text stays whole under an overlay: a toast, a dialog, a select's menu, the palette.

Textual's compositor cuts every screen line at every widget's left and right edge ("cuts") and asks each widget,
front to back, for the pieces between cuts it is the first to cover. A piece boundary that falls inside a double-
width character turns that character into two spaces (`Strip.divide` cannot split a cell in half). So a toast over
the notices widget lost a character wherever an edge of a widget *behind* it crossed its text: "已移除「校园活动」"
was drawn "已  除「校园活动」" at 80×24 (seen in tmux; the bytes Textual wrote had the two spaces). Upstream:
Textualize/textual#6357 (open in 8.2.8, the version pinned here).

The widget in front needs no cut where it covers both sides of one: `_render_chops` below divides a widget's line
only where it changes between pieces it wins and pieces a widget in front already took, and gives the merged piece
to the first cut of its run, with empty strips holding the other cuts (so nothing behind claims them). A partial
update crops each piece at its "end"; `render_partial_update` computes the ends from the pieces, not the cuts.

Written here (not copied from the upstream discussion) against Textual 8.2.8's compositor; `keep_wide_characters`
checks that the two methods it replaces are still the ones it was written for, and leaves Textual alone otherwise.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Mapping, Sequence

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

#: Hashes of the Textual methods this replaces (8.2.8); another version keeps its own compositor.
REPLACED = {
    "_render_chops": "ca8c3359d7afd017",
    "render_partial_update": "888dccc892d8ecc2",
}

_EMPTY = Strip([], 0)

#: Textual's own methods, kept when replaced (the tests compare both on the same screens).
ORIGINALS: dict[str, Callable[..., object]] = {}


def _digest(method: Callable[..., object]) -> str:
    return hashlib.sha256(inspect.getsource(method).encode()).hexdigest()[:16]


def _render_chops(
    self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]
) -> Sequence[Mapping[int, Strip]]:
    """Textual's `_render_chops`, dividing a widget's line only where what it may fill changes."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    for region, clip, strips in self._get_renders(crop):
        render_region = region.intersection(clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips, strict=False):
            if not is_rendered_line(y):
                continue
            line = chops[y]
            edges = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            starts = edges[:-1]
            if not starts:
                continue  # a widget with no width on this line covers no piece
            free = [line.get(cut) is None for cut in starts]
            # Divide only between a piece this widget fills and one already taken by a widget in front of it.
            divisions = [i for i in range(1, len(starts)) if free[i] != free[i - 1]]
            # `divide` wants every end, the line's own included (its last piece is dropped otherwise).
            pieces = strip.divide([*(starts[i] - render_x for i in divisions), last_cut - render_x])
            runs = zip([0, *divisions], [*divisions, len(starts)], strict=True)
            for (begin, end), piece in zip(runs, pieces, strict=False):
                if not free[begin]:
                    continue
                line[starts[begin]] = piece
                for i in range(begin + 1, end):
                    line[starts[i]] = _EMPTY  # covered by the piece before: nothing behind may fill it
    return chops  # type: ignore[return-value]  # every cut on a rendered line holds a strip now


def _render_partial_update(self: Compositor) -> ChopsUpdate | None:
    """Textual's `render_partial_update`, with each piece's end where the piece ends (a merged piece spans
    several cuts)."""
    screen_region = self.size.region
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(update_regions).intersection(screen_region)
    spans = list(self._regions_to_spans(update_regions))
    is_rendered_line = {y for y, _, _ in spans}.__contains__
    chops = self._render_chops(crop, is_rendered_line)
    chop_ends = []
    for cut_set, line in zip(self.cuts, chops, strict=True):
        pieces = zip(line.items(), cut_set[1:], strict=True)
        chop_ends.append([x + strip.cell_length if strip is not None else end for (x, strip), end in pieces])
    return ChopsUpdate(chops, spans, chop_ends)


def keep_wide_characters() -> bool:
    """Replace the two compositor methods (once); False when Textual is not the version they were written for."""
    if getattr(Compositor, "_keeps_wide_characters", False):
        return True
    if any(_digest(getattr(Compositor, name)) != digest for name, digest in REPLACED.items()):
        return False
    ORIGINALS.update({name: getattr(Compositor, name) for name in REPLACED})
    Compositor._render_chops = _render_chops  # type: ignore[method-assign]
    Compositor.render_partial_update = _render_partial_update  # type: ignore[method-assign]
    Compositor._keeps_wide_characters = True  # type: ignore[attr-defined]
    return True
