"""The IAAA mobile token (手机令牌): RFC 6238 TOTP with HMAC-SHA1, 6 digits, 30 s steps (campus.md §2.4)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import time
from urllib.parse import quote

from tui.runtime.message import Message

DIGITS = 6
PERIOD = 30


class BadSecret(ValueError):
    """A TOTP secret that is not base32."""


def normalise_secret(secret: str) -> str:
    """The secret in upper case without spaces or dashes, padded to a whole base32 block.

    Raises:
        BadSecret: the text is not base32.
    """
    text = "".join(secret.split()).replace("-", "").upper().rstrip("=")
    if not text:
        raise BadSecret(Message("totp_empty"))
    padded = text + "=" * (-len(text) % 8)
    try:
        base64.b32decode(padded)
    except (binascii.Error, ValueError):
        raise BadSecret(Message("totp_not_base32")) from None
    return padded


def hotp(key: bytes, counter: int, digits: int = DIGITS, digest: str = "sha1") -> str:
    """RFC 4226: the HMAC of the 8-byte counter, dynamically truncated, kept mod 10^digits."""
    mac = hmac.new(key, struct.pack(">Q", counter), digest).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def totp(secret: str, at: float | None = None, digits: int = DIGITS, period: int = PERIOD) -> str:
    """The code for base32 `secret` at Unix time `at` (now by default).

    Raises:
        BadSecret: the secret is not base32.
    """
    key = base64.b32decode(normalise_secret(secret))
    moment = time.time() if at is None else at
    return hotp(key, int(moment // period), digits, hashlib.sha1().name)


def otpauth_uri(secret: str, account: str) -> str:
    """The `otpauth://` link an authenticator app (FreeOTP, Google Authenticator) imports as a QR code."""
    label = quote(f"iaaa.pku.edu.cn:{account}")
    return f"otpauth://totp/{label}?secret={normalise_secret(secret).rstrip('=')}&issuer=iaaa.pku.edu.cn"
