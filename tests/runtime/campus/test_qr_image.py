"""The QR login's picture: real QR codes, resized the ways a server or a proxy resizes pictures, are read back
(zxing-cpp) and drawn again (segno) as exactly the code that was encoded; anything else is a message."""

from __future__ import annotations

import functools
import io
import itertools
import struct
import zlib
from collections.abc import Iterator

import pytest
import segno
from PIL import Image

from tui.runtime.campus import qr_image
from tui.runtime.campus.qr_image import MAX_PIXELS, draw, half_blocks, modules, read_payload

# Payloads like IAAA's (a login URL with a token, a bare token) and a few others: versions 2 to 7.
PAYLOADS = [
    ("https://iaaa.pku.edu.cn/iaaa/qrLogin.do?token=8f3a9e2c71d04b5f", "m"),
    ("8f3a9e2c71d04b5fa61c0e9d2b7f4a13", "l"),
    ("PKUAPP:IAAA:2b7f4a13-8f3a-4e2c-9d04-b5fa61c0e9d2", "q"),
    ("https://iaaa.pku.edu.cn/iaaa/oauthlogin4QRCode.do?appId=PKU%20Helper&qrCode=" + "c0e9d2b7f4a138f3" * 2, "m"),
    ("IAAA-QR-0001", "h"),
    ("北大 IAAA 扫码登录 https://iaaa.pku.edu.cn/?t=" + "x" * 60, "l"),
]
# Pixels a module after resizing: fractional ones put module edges inside pixels.
PIXELS_A_MODULE = [1.5, 1.8, 2.0, 2.3, 2.5, 3.0, 3.4, 4.0, 4.7, 6.0, 7.5]
RESAMPLERS = [Image.Resampling.NEAREST, Image.Resampling.BILINEAR, Image.Resampling.BICUBIC, Image.Resampling.LANCZOS]
GREY = 200
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def picture(code: segno.QRCode, pixels: int = 1, border: int = 4) -> Image.Image:
    """`code` as a crisp grey picture: `pixels` a module, a white border of `border` modules."""
    grid = code.matrix
    size = len(grid) + 2 * border
    data = bytearray([255]) * (size * size)
    for y, row in enumerate(grid):
        for x, dark in enumerate(row):
            if dark:
                data[(y + border) * size + x + border] = 0
    image = Image.frombytes("L", (size, size), bytes(data))
    return image.resize((size * pixels, size * pixels), Image.Resampling.NEAREST) if pixels > 1 else image


def png(image: Image.Image, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1, **options)
    return out.getvalue()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def adam7(image: Image.Image) -> bytes:
    """`image` (grey) as an interlaced PNG, which Pillow reads but does not write."""
    w, h = image.size
    pixels = image.tobytes()
    raw = bytearray()
    for x0, y0, dx, dy in ADAM7:
        if x0 < w:
            for y in range(y0, h, dy):
                raw += b"\0" + pixels[y * w + x0 : (y + 1) * w : dx]
    header = _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 1))
    return b"\x89PNG\r\n\x1a\n" + header + _chunk(b"IDAT", zlib.compress(bytes(raw))) + _chunk(b"IEND", b"")


def resized_cases() -> Iterator[tuple[str, segno.QRCode, bytes, str]]:
    """Every payload at every size with every resampler: drawn crisp at 1 or 4 pixels a module, resized, pasted
    at an offset on a grey background (so the picture has a border beyond the code's own quiet zone)."""
    codes = {text: segno.make_qr(text, error=error) for text, error in PAYLOADS}
    combos = itertools.product(PAYLOADS, PIXELS_A_MODULE, RESAMPLERS)
    for i, ((text, _), per_module, resampler) in enumerate(combos):
        code = codes[text]
        base = 1 + 3 * (i % 2)
        crisp = picture(code, base)
        side = round(crisp.width / base * per_module)
        resized = crisp.resize((side, side), resampler)
        dx, dy = 3 + i % 9, 2 + i % 5
        canvas = Image.new("L", (side + dx + 11, side + dy + 7), GREY)
        canvas.paste(resized, (dx, dy))
        data = png(canvas if i % 3 else canvas.convert("RGB"))
        yield text, code, data, f"v{code.version} {per_module}px {resampler.name}"


def drawn_modules(lines: list[str], light_as_block: bool, quiet: int = 2) -> list[list[bool]]:
    """Half-block lines back to the code's modules (dark = True), without the quiet zone."""
    upper, lower = {"█": 1, "▀": 1, "▄": 0, " ": 0}, {"█": 1, "▀": 0, "▄": 1, " ": 0}
    rows = []
    for line in lines:
        rows += [[upper[c] != light_as_block for c in line], [lower[c] != light_as_block for c in line]]
    size = len(lines[0]) - 2 * quiet
    return [row[quiet : quiet + size] for row in rows[quiet : quiet + size]]


def test_every_resized_code_is_read_and_drawn_as_the_same_code(monkeypatch: pytest.MonkeyPatch) -> None:
    # segno spends ~15 ms choosing a mask; `modules` is a pure function of what was read, so it is encoded once
    # per distinct (payload, level) — a misread payload is a different key and is encoded (and fails) for real.
    monkeypatch.setattr(qr_image, "modules", functools.lru_cache(modules))
    failed, count = [], 0
    for _text, code, image, case in resized_cases():
        count += 1
        lines, ok = draw(image, light_as_block=False)
        if not ok or drawn_modules(lines, light_as_block=False) != [[bool(m) for m in row] for row in code.matrix]:
            failed.append(case)
    assert count == 264
    assert not failed, f"{len(failed)}/{count} not drawn back: {failed}"


@pytest.mark.parametrize(
    ("payload", "resampler"),
    [(1, Image.Resampling.BILINEAR), (1, Image.Resampling.LANCZOS), (0, Image.Resampling.LANCZOS)],
)
def test_a_small_smoothed_picture_is_read_once_enlarged(payload: int, resampler: Image.Resampling) -> None:
    """1.5 pixels a module, smoothed: zxing-cpp finds nothing in the picture as it is, nor with a fixed
    threshold; enlarged three times (smoothly) it reads it."""
    import zxingcpp

    text, error = PAYLOADS[payload]
    code = segno.make_qr(text, error=error)
    crisp = picture(code)
    side = round(crisp.width * 1.5)
    canvas = Image.new("L", (side + 15, side + 9), GREY)
    canvas.paste(crisp.resize((side, side), resampler), (4, 5))
    for binarizer in (zxingcpp.Binarizer.LocalAverage, zxingcpp.Binarizer.FixedThreshold):
        assert not zxingcpp.read_barcodes(canvas, binarizer=binarizer)
    lines, ok = draw(png(canvas), light_as_block=False)
    assert ok and drawn_modules(lines, light_as_block=False) == [[bool(m) for m in row] for row in code.matrix]


def test_the_payload_and_its_level_are_read() -> None:
    text, error = PAYLOADS[5]  # UTF-8 bytes in byte mode: they come back byte for byte
    assert read_payload(png(picture(segno.make_qr(text, error=error), 3))) == (text.encode(), "L")
    assert read_payload(png(picture(segno.make_qr("IAAA-QR-0001", error="h"), 3))) == (b"IAAA-QR-0001", "H")


@pytest.mark.parametrize("mode", ["1", "L", "P", "RGB", "RGBA", "LA", "I;16", "interlaced"])
def test_every_kind_of_png_is_read(mode: str) -> None:
    code = segno.make_qr(PAYLOADS[0][0], error="m")
    image = picture(code, 3)
    if mode == "interlaced":
        data = adam7(image)
    elif mode in ("RGBA", "LA"):
        # transparent around the code, black where transparent: the picture must be read as on white
        framed = Image.new("RGBA", (image.width + 40, image.height + 40), (0, 0, 0, 0))
        framed.paste(image.convert("RGBA"), (20, 20))
        data = png(framed.convert(mode))
    elif mode == "I;16":
        data = png(image.convert("I").point(lambda v: v * 256).convert("I;16"))
    else:
        data = png(image.convert(mode))
    lines, ok = draw(data, light_as_block=False)
    assert ok, lines
    assert drawn_modules(lines, light_as_block=False) == [[bool(m) for m in row] for row in code.matrix]


def test_light_blocks_for_a_dark_terminal() -> None:
    code = segno.make_qr("IAAA-QR-0001", error="h")
    lines, ok = draw(png(picture(code, 4)))
    assert ok and lines[0] == "█" * (len(code.matrix) + 4)  # the light quiet zone, drawn
    assert drawn_modules(lines, light_as_block=True) == [[bool(m) for m in row] for row in code.matrix]


def test_a_short_payload_is_a_qr_code_never_a_micro_qr() -> None:
    assert len(modules(b"1")) == 21


def test_half_blocks_draw_two_rows_per_line() -> None:
    lines = half_blocks([[True, False], [False, False], [True, True]], quiet=0, light_as_block=False)
    assert lines == ["▀ ", "▀▀"]
    framed = half_blocks([[False] * 21] * 21)
    assert len(framed) == 13 and {len(line) for line in framed} == {25}


def test_anything_but_a_readable_qr_png_is_a_message_not_an_exception() -> None:
    good = png(picture(segno.make_qr(PAYLOADS[0][0]), 3))
    header = _chunk(b"IHDR", struct.pack(">IIBBBBB", 5000, 5000, 8, 0, 0, 0, 0))
    huge = b"\x89PNG\r\n\x1a\n" + header + _chunk(b"IDAT", zlib.compress(b"")) + _chunk(b"IEND", b"")
    damaged = [good[:n] for n in range(0, len(good), 97)]
    damaged += [good[:n] + bytes([good[n] ^ 0x5A]) + good[n + 1 :] for n in range(8, len(good), 61)]
    inputs = [b"", b"GIF89a", b"<html>IAAA</html>", huge, png(Image.new("L", (90, 90), 255)), *damaged]
    messages = {}
    for data in inputs:
        lines, ok = draw(data)
        if not ok:
            assert len(lines) == 1 and lines[0].startswith("(the QR code cannot be drawn here: ")
            messages[data] = lines[0]
    assert "not a PNG" in messages[b"GIF89a"] and "not a PNG" in messages[b""]
    assert "too large (5000×5000)" in messages[huge] and MAX_PIXELS < 5000 * 5000
    assert "no QR code" in messages[png(Image.new("L", (90, 90), 255))]
    assert all(data in messages for data in damaged)  # a flipped byte breaks a checksum or the zlib stream
