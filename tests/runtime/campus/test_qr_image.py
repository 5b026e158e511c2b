"""The QR PNG decoder and sampler: a known module grid survives PNG encoding (several formats) and comes back."""

from __future__ import annotations

import pytest

from tui.runtime.campus.qr_image import ImageError, decode_png, half_blocks, modules

from ..fake_campus import grid21, png


@pytest.mark.parametrize("mode", ["gray8", "rgba", "pal1"])
@pytest.mark.parametrize("scale", [1, 3, 4])
def test_a_grid_comes_back_from_its_png(mode: str, scale: int) -> None:
    grid = grid21()
    assert modules(decode_png(png(grid, scale, 4, mode))) == grid


def test_half_blocks_draw_two_rows_per_line() -> None:
    lines = half_blocks([[True, False], [False, False], [True, True]], quiet=0, light_as_block=False)
    assert lines == ["▀ ", "▀▀"]
    framed = half_blocks(grid21())
    assert len(framed) == 13 and {len(line) for line in framed} == {25}
    assert framed[0] == "█" * 25  # the light quiet zone, drawn for a dark terminal


def test_not_a_png_is_a_clear_error() -> None:
    with pytest.raises(ImageError, match="not a PNG"):
        decode_png(b"GIF89a")
    with pytest.raises(ImageError, match="blank"):
        modules([[False] * 4] * 4)
