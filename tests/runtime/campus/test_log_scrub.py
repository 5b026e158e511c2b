"""No token, cookie or password in any log record, of any logger, through any handler (issue 15 item 3).

The real httpx/httpcore stack logs at DEBUG against the fake campus: `httpcore.http11` writes every answer's
headers (the redirect that hands out the treehole JWT, the card's `synjones-auth`, Set-Cookie), `httpx` every
request line (the exchange's `token=`); `openai._base_client` writes what is sent to the model. Records are
caught at the root (caplog) and by a handler on a child logger directly.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tui.lang.host import HostError, HttpRequest
from tui.runtime.campus.session import CampusSession
from tui.runtime.secrets import Secrets

from ..fake_campus import FakeCampus
from ..fake_openai import FakeOpenAI, text
from .conftest import PASSWORD, USER


class Keep(logging.Handler):
    """A handler on one logger that keeps every formatted record."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def child_handler() -> Iterator[Keep]:
    logger = logging.getLogger("httpcore.http11")
    keep, level = Keep(), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.DEBUG)
    yield keep
    logger.removeHandler(keep)
    logger.setLevel(level)


async def test_a_whole_login_and_an_echo_at_debug_log_no_credential(
    session: CampusSession, fake: FakeCampus, caplog: pytest.LogCaptureFixture, child_handler: Keep
) -> None:
    caplog.set_level(logging.DEBUG)  # the root logger: every child's records reach caplog's handler
    session.remember_account(USER, PASSWORD, remember=False)
    for service, path in [("treehole", "/chapi/api/v3/echo"), ("card", "/berserker-app/echo"),
                          ("bdkj", "/personal/user"), ("treehole", "/chapi/api/v3/echo")]:  # fmt: skip
        host = {"treehole": "treehole.pku.edu.cn", "card": "bdcard.pku.edu.cn", "bdkj": "bdkj.pku.edu.cn"}[service]
        await session.request(HttpRequest("GET", f"https://{host}{path}", {}, None, service))
    names = {r.name for r in caplog.records}
    assert {"httpcore.http11", "httpcore.connection", "httpx"} <= names  # the child loggers did log …
    assert any("location" in r.getMessage().lower() for r in caplog.records if r.name == "httpcore.http11")
    secrets = fake.credentials(PASSWORD)
    assert len(secrets) >= 8  # JWTs, IAAA and CAS tokens, cookies, the uuid, the password
    everything = caplog.text + "\n".join(r.getMessage() for r in caplog.records) + "\n".join(child_handler.lines)
    leaked = [s for s in secrets if s in everything]
    assert leaked == [], leaked  # … and no credential is in any record, at the root or on the child
    assert "token=‹secret›" in everything and "‹secret›" in "\n".join(child_handler.lines)


async def test_the_model_clients_own_loggers_log_no_registered_secret(caplog: pytest.LogCaptureFixture) -> None:
    """openai logs through its own child loggers (openai._base_client, and its vendored httpx2/httpcore2, which
    no filter on `httpx`/`httpcore`/`openai` ever covered): a key in a proxy's base URL stays out of them."""
    from tui.runtime.chat.client import ModelClient
    from tui.runtime.chat.providers import ModelConfig

    secrets = Secrets()
    key = "CANARY-proxy-key-5d4c3b2a"
    secrets.add(key)
    caplog.set_level(logging.DEBUG)
    fake = FakeOpenAI(text("好"))
    with fake.serve() as url:
        client = ModelClient(ModelConfig("custom", url.replace("/v1", f"/{key}/v1"), "any"), "sk-test")

        async def emit(event: object) -> None:
            pass

        try:
            await client.complete([{"role": "user", "content": "你好"}], [], emit)
        finally:
            await client.close()
    names = {r.name for r in caplog.records}
    assert any(n.startswith("openai.") for n in names) and len(names) >= 3
    assert any("/‹secret›/v1/chat/completions" in r.getMessage() for r in caplog.records)  # logged, masked
    assert key not in caplog.text


def test_exception_text_and_arguments_are_scrubbed(caplog: pytest.LogCaptureFixture) -> None:
    secrets = Secrets()
    secrets.add("jwt-in-an-exception-0123")
    caplog.set_level(logging.DEBUG)
    log = logging.getLogger("tui.some.module")
    try:
        raise HostError("network", "GET https://x.pku.edu.cn/?a=jwt-in-an-exception-0123 failed")
    except HostError:
        log.exception("request failed with %s", "jwt-in-an-exception-0123")
    log.debug("redirect to %s", "https://bdcard.pku.edu.cn/plat/?synjones-auth=unregistered-jwt-9f8e&name=x")
    assert "jwt-in-an-exception-0123" not in caplog.text and "unregistered-jwt-9f8e" not in caplog.text
    assert "HostError" in caplog.text and "synjones-auth=‹secret›" in caplog.text


async def test_a_token_a_redirect_hands_on_is_registered_before_the_hop_that_carries_it(
    session: CampusSession, fake: FakeCampus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card chain's CAS hop and treehole's exchange carry one-time tokens in their URLs: each is a known
    secret before that URL is sent (and logged), not only after the login finished."""
    from urllib.parse import parse_qs, urlsplit

    from tui.runtime.campus.net import CampusNet

    unknown_when_sent: list[str] = []
    send = CampusNet.send

    async def watching(self: CampusNet, jar: object, method: str, url: str, **kw: object) -> object:
        tokens = parse_qs(urlsplit(url).query).get("token", [])
        unknown_when_sent.extend(t for t in tokens if session.secrets.scrub_text(t) == t)  # not masked: unknown
        return await send(self, jar, method, url, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(CampusNet, "send", watching)
    await session.login("card", USER, PASSWORD)
    await session.login("treehole", USER, PASSWORD)
    cas = [t for t in fake.issued if t.startswith("cas-")]
    assert cas and any(cas[0] in s.query.get("token", []) for s in fake.seen)  # the CAS hop was made …
    assert unknown_when_sent == []  # … and no hop carried a token the app did not already treat as secret
