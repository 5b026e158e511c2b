"""Credentials recognised by their shape (masked before anyone registered them), and look-alikes left alone."""

from __future__ import annotations

import pytest

from tui.runtime.credentials import cookie_values, credential_values, mask_credentials

M = "‹secret›"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (
            "/ch/web/iaaa_success?is_mobile=0&token=jwt-abc.def&uid=1",
            f"/ch/web/iaaa_success?is_mobile=0&token={M}&uid=1",
        ),
        (
            "https://bdcard.pku.edu.cn/plat/?synjones-auth=eyJ.x.y&name=x",
            f"https://bdcard.pku.edu.cn/plat/?synjones-auth={M}&name=x",
        ),
        ("redirect=https%3A%2F%2Fx%2F%3Ftoken%3Dabc123%26y%3D1", f"redirect=https%3A%2F%2Fx%2F%3Ftoken%3D{M}%26y%3D1"),
        ("/app;jsessionid=A1B2C3?x=1", f"/app;jsessionid={M}?x=1"),
        ("ticket=ST-12345-AbCdEf-cas&x", f"ticket={M}&x"),
        ("see ST-12345-AbCdEf-cas there", f"see {M} there"),
        ("CAS ST=TGT-1-abc", f"CAS ST={M}"),
        ("access_token=a1&refresh_token=b2&id_token=c3", f"access_token={M}&refresh_token={M}&id_token={M}"),
        ("Authorization: Bearer eyJhbGciOi.x", f"Authorization: {M}"),
        ("header bearer abcdefgh12345 end", f"header bearer {M} end"),
        ('{"token": "jwt-1", "Ticket":"t2"}', f'{{"token": "{M}", "Ticket":"{M}"}}'),
        (
            "[(b'Set-Cookie', b'SESSION=portal-1; Path=/'), (b'Cookie', b'a=b')]",
            f"[(b'Set-Cookie', b'{M}'), (b'Cookie', b'{M}')]",
        ),
        ("cookie: canary=CANARY\nnext line", f"cookie: {M}\nnext line"),
        ("uuid: Web_PKUHOLE_2.0.0_WEB_UUID_x", f"uuid: {M}"),
    ],
)
def test_a_credential_is_masked_by_its_shape(text: str, masked: str) -> None:
    assert mask_credentials(text) == masked


@pytest.mark.parametrize(
    "text",
    [
        "mytoken=abc&list=1&st=5",  # a longer name, and a lower-case st= is an ordinary parameter
        "x-cookie-y: keep",
        "cookies are tasty",
        "the bearer of news",
        "BEST-12-abc",
        '{"tokens": "many"}',
        "北京大学 2026-11-30 10:00",
    ],
)
def test_look_alikes_are_left_alone(text: str) -> None:
    assert mask_credentials(text) == text


def test_in_a_campus_answer_uuid_is_an_ordinary_name() -> None:
    assert (
        mask_credentials('{"uuid": "hole-1", "cookie": "a=b"}', answer=True) == f'{{"uuid": "hole-1", "cookie": "{M}"}}'
    )


def test_the_values_a_login_hop_carries() -> None:
    url = "https://x.pku.edu.cn/a;jsessionid=J1?token=T1&ticket=ST-1-x&name=n&synjones-auth=bearer%20J2"
    assert sorted(credential_values(url)) == ["J1", "ST-1-x", "T1", "bearer J2"]
    assert cookie_values("SESSION=portal-1; Path=/; HttpOnly") == ["portal-1"] and cookie_values("x=; Path=/") == []
