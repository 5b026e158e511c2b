"""IAAA's QR-code PNG as terminal text: a small PNG decoder (no imaging library) and a sampler that turns the
picture back into its modules, drawn two rows per line with half blocks.
"""

from __future__ import annotations

import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class ImageError(ValueError):
    """Not a PNG this decoder reads (the message says what)."""


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode_png(data: bytes) -> list[list[bool]]:
    """The image as rows of booleans, True for a dark pixel (transparent counts as light).

    Raises:
        ImageError: not a PNG, interlaced, 16-bit, or damaged.
    """
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ImageError("not a PNG image")
    pos, idat, palette = 8, bytearray(), b""
    width = height = depth = color = 0
    try:
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
                if interlace or depth == 16 or color not in _CHANNELS or width * height > 4_000_000:
                    raise ImageError("only small non-interlaced 1–8-bit PNG images are read")
            elif kind == b"PLTE":
                palette = body
            elif kind == b"IDAT":
                idat += body
            elif kind == b"IEND":
                break
        raw = zlib.decompress(bytes(idat))
    except (struct.error, zlib.error) as e:
        raise ImageError(f"damaged PNG ({e})") from None
    channels = _CHANNELS[color]
    bpp = max(1, channels * depth // 8)
    stride = (width * channels * depth + 7) // 8
    rows: list[list[bool]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        if start + 1 + stride > len(raw):
            raise ImageError("damaged PNG (short image data)")
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if method > 4:
            raise ImageError(f"damaged PNG (filter {method} on row {y})")
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = previous[i], previous[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[method]) & 0xFF
        previous = line
        rows.append([_dark(_sample(line, x, channels, depth), color, depth, palette) for x in range(width)])
    return rows


def _sample(line: bytearray, x: int, channels: int, depth: int) -> tuple[int, ...]:
    if depth == 8:
        return tuple(line[x * channels : x * channels + channels])
    per_byte = 8 // depth
    byte = line[x // per_byte]
    shift = 8 - depth * (x % per_byte + 1)
    return ((byte >> shift) & ((1 << depth) - 1),)


def _dark(px: tuple[int, ...], color: int, depth: int, palette: bytes) -> bool:
    top = (1 << depth) - 1
    if color == 3:
        i = px[0] * 3
        r, g, b = palette[i : i + 3] if i + 3 <= len(palette) else (255, 255, 255)
        return (r * 299 + g * 587 + b * 114) // 1000 < 128
    if color in (0, 4):
        if color == 4 and px[1] < 128:
            return False
        return px[0] * 255 // top < 128
    if color == 6 and px[3] < 128:
        return False
    r, g, b = px[:3]
    return (r * 299 + g * 587 + b * 114) // 1000 < 128


def modules(pixels: list[list[bool]]) -> list[list[bool]]:
    """The QR modules: the dark area's bounding box, cut into squares as wide as a seventh of the top-left
    finder pattern, each read at its centre.

    Raises:
        ImageError: no dark pixels (nothing to show).
    """
    dark_rows = [y for y, row in enumerate(pixels) if any(row)]
    if not dark_rows:
        raise ImageError("the image is blank")
    top, bottom = dark_rows[0], dark_rows[-1]
    left = min(row.index(True) for row in pixels if any(row))
    right = max(len(row) - 1 - row[::-1].index(True) for row in pixels if any(row))
    run = 0
    while left + run <= right and pixels[top][left + run]:
        run += 1
    size = max(1.0, run / 7)
    count = max(1, round((right - left + 1) / size))
    return [
        [pixels[min(bottom, int(top + (r + 0.5) * size))][min(right, int(left + (c + 0.5) * size))]
         for c in range(count)]
        for r in range(max(1, round((bottom - top + 1) / size)))
    ]  # fmt: skip


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
        return half_blocks(modules(decode_png(png)), light_as_block=light_as_block), True
    except ImageError as e:
        return [f"(the QR code cannot be drawn here: {e})"], False
