"""IAAA's QR-code PNG as terminal text: zxing-cpp reads the code's payload from the picture (Pillow decodes the
PNG), segno encodes that payload again, and its modules are drawn two rows per line with half blocks.

Reading the payload instead of sampling the picture's pixels is what makes a resized or smoothed image work:
the old sampler took the module size from the finder pattern's width and misread many codes scaled to a
fractional number of pixels a module.
The three libraries are imported on the first QR login, not when the app starts.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from tui.runtime.message import Message

if TYPE_CHECKING:
    import PIL.Image

# A QR code needs a few hundred pixels a side; anything far larger is not IAAA's picture (and would cost memory).
MAX_PIXELS = 4_000_000


class ImageError(ValueError):
    """No QR code could be read from the picture (the message says why)."""


def _picture(png: bytes) -> PIL.Image.Image:
    """The PNG as an 8-bit grey image, transparent parts light (a phone shows them on white)."""
    from PIL import Image, UnidentifiedImageError

    try:
        picture: PIL.Image.Image = Image.open(io.BytesIO(png), formats=["PNG"])
        if picture.width * picture.height > MAX_PIXELS:
            raise ImageError(f"the image is too large ({picture.width}×{picture.height})")
        picture.load()
        if picture.mode.startswith("I"):  # 16-bit grey: Pillow's conversion to 8 bits clips instead of scaling
            picture = picture.convert("I").point(lambda v: v / 256)
        elif picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
            white = Image.new("RGBA", picture.size, (255, 255, 255, 255))
            picture = Image.alpha_composite(white, picture.convert("RGBA"))
        return picture.convert("L")
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError("not a PNG image") from None
    except Exception as e:
        # Pillow reports a damaged PNG as OSError, SyntaxError, ValueError, EOFError or zlib's error, depending
        # on where the damage is: whichever it is, the login screen says so instead of failing.
        raise ImageError(f"damaged PNG ({e})") from None


def read_payload(png: bytes) -> tuple[bytes, str]:
    """The payload of the QR code in `png` and its error-correction level (`L`, `M`, `Q` or `H`).

    Raises:
        ImageError: not a PNG, damaged, too large, or no QR code found in it.
    """
    import zxingcpp
    from PIL.Image import Resampling

    picture = _picture(png)
    # zxing-cpp's default binarizer reads crisp and most scaled pictures. A small picture smoothed by its
    # resizing (1.5–2.5 pixels a module) can fail it: a fixed threshold, or the picture enlarged smoothly, then
    # reads it. Each attempt costs about a millisecond and runs only when the ones before found nothing.
    local, fixed = zxingcpp.Binarizer.LocalAverage, zxingcpp.Binarizer.FixedThreshold
    qr = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    for scale, binarizer in ((1, local), (1, fixed), (2, local), (3, local)):
        size = (picture.width * scale, picture.height * scale)
        if size[0] * size[1] > MAX_PIXELS:  # enlarging helps small pictures only
            break
        image = picture if scale == 1 else picture.resize(size, Resampling.BILINEAR)
        found = zxingcpp.read_barcodes(image, formats=qr, binarizer=binarizer)
        if found:
            level = found[0].ec_level
            return found[0].bytes, level if level in ("L", "M", "Q", "H") else "M"
    raise ImageError("no QR code found in the image")


def modules(payload: bytes, error: str = "M") -> list[list[bool]]:
    """The modules of a QR code (never a Micro QR: phones do not read those) for `payload`, True for dark.

    The code is made at least at `error`'s level, higher when that fits in the same size.

    Raises:
        ImageError: the payload does not fit in a QR code at that level.
    """
    import segno

    try:
        code = segno.make_qr(payload, error=error)
    except segno.DataOverflowError as e:
        raise ImageError(f"the payload does not fit in a QR code ({e})") from None
    return [[bool(bit) for bit in row] for row in code.matrix]


def half_blocks(grid: list[list[bool]], quiet: int = 2, light_as_block: bool = True) -> list[str]:
    """Two module rows per text line. With `light_as_block` the light modules are drawn (right for a dark
    terminal, as `qrencode -t UTF8` does); otherwise the dark ones (for a light background set by the caller)."""
    width = len(grid[0]) + 2 * quiet
    padded = [[False] * width for _ in range(quiet)]
    padded += [[False] * quiet + row + [False] * quiet for row in grid]
    padded += [[False] * width for _ in range(quiet + (len(padded) + quiet) % 2)]
    lines = []
    for y in range(0, len(padded), 2):
        upper, lower = padded[y], padded[y + 1]
        line = ""
        for a, b in zip(upper, lower, strict=True):
            a, b = (not a, not b) if light_as_block else (a, b)
            line += "█" if a and b else "▀" if a else "▄" if b else " "
        lines.append(line)
    return lines


def draw(png: bytes, light_as_block: bool = True) -> tuple[list[str], bool]:
    """IAAA's QR image as half-block lines, and whether it could be drawn (else one line saying why)."""
    try:
        return half_blocks(modules(*read_payload(png)), light_as_block=light_as_block), True
    except ImageError as e:
        return [Message("qr_not_drawn", error=str(e))], False
