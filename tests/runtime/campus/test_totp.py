"""The mobile token's codes against RFC 6238's SHA-1 test vectors (appendix B)."""

from __future__ import annotations

import pytest

from tui.runtime.campus.totp import BadSecret, normalise_secret, otpauth_uri, totp

RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # base32 of "12345678901234567890"


@pytest.mark.parametrize(
    ("at", "code"),
    [
        (59, "94287082"),
        (1111111109, "07081804"),
        (1111111111, "14050471"),
        (1234567890, "89005924"),
        (2000000000, "69279037"),
        (20000000000, "65353130"),
    ],
)
def test_rfc_6238_sha1_vectors(at: int, code: str) -> None:
    assert totp(RFC_SECRET, at, digits=8) == code
    assert totp(RFC_SECRET, at) == code[-6:]  # IAAA's 6 digits are the same truncation mod 10^6


def test_secret_forms_are_normalised() -> None:
    assert totp("gezd gnbv gy3t qojq gezd gnbv gy3t qojq", 59) == "287082"
    assert normalise_secret("JBSWY3DPEHPK3PXP") == "JBSWY3DPEHPK3PXP"
    assert normalise_secret("mfrg-gzdf") == "MFRGGZDF"
    assert normalise_secret("MFRGG") == "MFRGG==="  # unpadded input gets its padding
    assert totp("JBSWY3DPEHPK3PXP", 0) == "282760"  # a zero counter keeps its leading zeros


def test_step_boundaries() -> None:
    assert totp(RFC_SECRET, 30) == totp(RFC_SECRET, 59) != totp(RFC_SECRET, 29)


@pytest.mark.parametrize("bad", ["", "   ", "not base32!", "1890"])
def test_bad_secrets_are_refused(bad: str) -> None:
    with pytest.raises(BadSecret):
        totp(bad)


def test_otpauth_uri_for_authenticator_apps() -> None:
    uri = otpauth_uri("jbsw y3dp", "2100012345")
    assert uri == "otpauth://totp/iaaa.pku.edu.cn%3A2100012345?secret=JBSWY3DP&issuer=iaaa.pku.edu.cn"
