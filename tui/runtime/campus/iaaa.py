"""IAAA (统一身份认证), the university's single sign-on: password login with the page's RSA encryption, QR login,
and binding a mobile token (campus.md §2). Each flow uses its own throw-away cookie jar.
"""

from __future__ import annotations

import base64
import random
from dataclasses import dataclass, field
from typing import Any

import httpx

from tui.runtime.campus.net import BodyTooLarge, CampusNet
from tui.runtime.credentials import credential_values
from tui.runtime.message import Message

IAAA = "https://iaaa.pku.edu.cn/iaaa"
_XHR = {"X-Requested-With": "XMLHttpRequest", "Referer": f"{IAAA}/oauth.jsp"}


class LoginError(Exception):
    """A login that did not succeed. `kind`: password, otp, sms, captcha, activation, expired (QR), network, server,
    missing."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _rand() -> str:
    return repr(random.random())


def encrypt_password(public_key_pem: str, password: str) -> str:
    """The password as the IAAA page sends it: RSA PKCS#1 v1.5 under the page's key (JSEncrypt), base64.

    Raises:
        LoginError: the key IAAA sent is not an RSA public key.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    pem = public_key_pem.strip()
    if "BEGIN" not in pem:  # IAAA sends the bare base64 body; JSEncrypt accepts both
        pem = "-----BEGIN PUBLIC KEY-----\n" + pem + "\n-----END PUBLIC KEY-----"
    try:
        key = serialization.load_pem_public_key(pem.encode())
    except ValueError:
        raise LoginError("server", Message("iaaa_key_unreadable")) from None
    if not isinstance(key, rsa.RSAPublicKey):
        raise LoginError("server", Message("iaaa_key_not_rsa"))
    return base64.b64encode(key.encrypt(password.encode(), padding.PKCS1v15())).decode()


def _json(response: httpx.Response, what: Message) -> dict[str, Any]:
    if response.status_code >= 500:
        raise LoginError("server", Message("iaaa_http", status=response.status_code, what=what))
    try:
        doc = response.json()
    except ValueError:
        raise LoginError("server", Message("iaaa_not_json", what=what)) from None
    if not isinstance(doc, dict):
        raise LoginError("server", Message("iaaa_unexpected", what=what))
    return doc


#: IAAA's answer codes (a public Python IAAA client, `PKUIAAALoginClient`, lists them in its docstrings; pkucli
#: `common/src/iaaa.rs` knows E02, E10 and E99): what each asks of the student, as a `LoginError` kind.
CODES = {
    "E01": "password",  # wrong user name or password
    "E02": "activation",  # the account is not activated
    "E03": "captcha",  # the picture code is wrong or now needed (after failures): a browser login clears it
    "E04": "sms",  # the SMS code is missing or wrong
    "E05": "otp",  # the mobile-token code is missing or wrong
    "E06": "otp",  # a mobile token must be bound first (QR login)
    "E07": "password",  # isMobileAuthen.do: the user name did not validate
}


def _failure(doc: dict[str, Any]) -> LoginError:
    """IAAA's refusal as a LoginError: by its code, and by its wording only when the code is one nobody lists."""
    raw = doc.get("errors")
    errors: dict[str, Any] = raw if isinstance(raw, dict) else {}
    code = str(errors.get("code", ""))
    message = str(errors.get("msg") or doc.get("errMsg") or doc.get("message") or "登录失败")
    kind = CODES.get(code)
    if kind is None:
        lowered = message.lower()
        if "令牌" in message or "otp" in lowered or "动态口令" in message:
            kind = "otp"
        elif "短信" in message:
            kind = "sms"
        elif "验证码" in message:
            kind = "captcha"
        else:
            kind = "password"
    if kind == "activation":
        return LoginError(kind, Message("iaaa_activation", message=message))
    return LoginError(kind, Message("iaaa_said", message=message))


async def login_send(net: CampusNet, jar: httpx.Cookies, method: str, url: str, **kw: Any) -> httpx.Response:
    """`net.send` for a login flow: a network failure becomes LoginError("network") naming who did not answer.

    A token the hop carries in its URL is registered as a secret before the hop is sent (and logged), and one
    its redirect hands on before the next hop carries it.
    """
    host = httpx.URL(url).host
    who = "IAAA" if host == "iaaa.pku.edu.cn" else host
    net.register(credential_values(url))
    try:
        response = await net.send(jar, method, url, **kw)
    except httpx.TimeoutException:
        raise LoginError("network", Message("net_timeout", who=who)) from None
    except (httpx.HTTPError, BodyTooLarge) as e:
        raise LoginError("network", Message("net_unreachable", who=who, kind=type(e).__name__)) from None
    net.register(credential_values(response.headers.get("location", "")))
    return response


async def send_sms_code(net: CampusNet, app_id: str, username: str) -> str:
    """Text the student IAAA's login code (accounts whose second factor is SMS); the masked number it went to.

    The IAAA client's `send_sms_code`: `GET sendSMSCode.do?userName&appId&_rand`, `{success, mobileMask}` or
    `{success: false, msg}` (e.g. 您没有绑定手机号或者无需短信验证登录); it asks for 60 s between texts.

    Raises:
        LoginError: kind `sms` with IAAA's words when it did not send; the network.
    """
    doc = _json(
        await login_send(
            net, httpx.Cookies(), "GET", f"{IAAA}/sendSMSCode.do",
            params={"userName": username, "appId": app_id, "_rand": _rand()}, headers=_XHR,
        ),
        Message("iaaa_what_sms"),
    )  # fmt: skip
    if doc.get("success") is not True:
        message = str(doc.get("msg") or doc.get("errMsg") or (doc.get("errors") or {}).get("msg") or "短信发送失败")
        raise LoginError("sms", Message("iaaa_said", message=message))
    return str(doc.get("mobileMask") or "")


async def password_login(
    net: CampusNet,
    app_id: str,
    redirect: str,
    username: str,
    password: str,
    otp_code: str | None,
    sms_code: str | None = None,
) -> str:
    """Log in at IAAA for one app; the one-time token to exchange at the service.

    Raises:
        LoginError: wrong password, a missing or wrong mobile-token or SMS code, the network.
    """
    jar = httpx.Cookies()
    key = _json(await login_send(net, jar, "GET", f"{IAAA}/getPublicKey.do", headers=_XHR), Message("iaaa_what_key"))
    if key.get("success") is not True or not isinstance(key.get("key"), str):
        raise LoginError("server", Message("iaaa_no_key"))
    form = {
        "appid": app_id,
        "userName": username,
        "password": encrypt_password(key["key"], password),
        "randCode": "",
        "smsCode": sms_code or "",
        "otpCode": otp_code or "",
        "redirUrl": redirect,
    }
    doc = _json(
        await login_send(net, jar, "POST", f"{IAAA}/oauthlogin.do", data=form, headers=_XHR), Message("iaaa_what_login")
    )
    if doc.get("success") is True and isinstance(doc.get("token"), str):
        return str(doc["token"])
    raise _failure(doc)


@dataclass
class QrLogin:
    """A QR-code login in progress: show `png`, then `poll()` every ~3 s until it gives a token."""

    net: CampusNet
    app_id: str
    redirect: str
    jar: httpx.Cookies = field(default_factory=httpx.Cookies)
    png: bytes = b""

    async def start(self) -> bytes:
        """Seed IAAA's session and fetch the QR image (PNG).

        Raises:
            LoginError: IAAA cannot be reached or sent no image.
        """
        await login_send(
            self.net, self.jar, "GET", f"{IAAA}/oauth.jsp",
            params={"appID": self.app_id, "appName": "", "redirectUrl": self.redirect},
        )  # fmt: skip
        image = await login_send(
            self.net, self.jar, "GET", f"{IAAA}/genQRCode.do",
            params={"userName": "", "_rand": _rand(), "appId": self.app_id},
            headers={"Referer": f"{IAAA}/oauth.jsp"},  # pkucli `common/src/iaaa.rs` login_qrcode
        )  # fmt: skip
        if image.status_code != 200 or not image.content.startswith(b"\x89PNG"):
            raise LoginError("server", Message("iaaa_no_qr"))
        self.png = image.content
        return self.png

    async def poll(self) -> str | None:
        """The token once the code was scanned and confirmed; None while waiting.

        Raises:
            LoginError: the code expired (kind `expired`), the account needs activation, the network.
        """
        form = {"appId": "PKUApp", "issuerAppId": "iaaa", "targetAppId": self.app_id, "redirectUrl": self.redirect}
        doc = _json(
            await login_send(self.net, self.jar, "POST", f"{IAAA}/oauthlogin4QRCode.do", data=form, headers=_XHR),
            Message("iaaa_what_qr"),
        )
        if doc.get("success") is True and isinstance(doc.get("token"), str):
            return str(doc["token"])
        code = str((doc.get("errors") or {}).get("code", "")) if isinstance(doc.get("errors"), dict) else ""
        if code == "E99":
            raise LoginError("expired", Message("iaaa_qr_expired"))
        if code == "E02":
            raise _failure(doc)
        return None  # E10 (not scanned yet) and anything else: keep waiting, as the official client does


@dataclass
class OtpBinding:
    """Binding a mobile token through IAAA (campus.md §2.3): `start` texts a code, `finish` returns the secret."""

    net: CampusNet
    username: str
    jar: httpx.Cookies = field(default_factory=httpx.Cookies)

    async def start(self, password: str) -> str:
        """Authenticate and text the verification code; the masked phone number it went to.

        Raises:
            LoginError: a wrong password, or IAAA refused to send.
        """
        doc = _json(
            await login_send(
                self.net, self.jar, "POST", f"{IAAA}/auth4Bind.do",
                data={"userName": self.username, "password": password, "randCode": ""},
            ),
            Message("iaaa_what_bind_login"),
        )  # fmt: skip
        if doc.get("success") is not True:
            raise _failure(doc)
        sent = _json(
            await login_send(
                self.net, self.jar, "GET", f"{IAAA}/pageFlows/identity/otpBind/sendSMSCodeBind.do",
                params={"_rand": _rand()},
            ),
            Message("iaaa_what_sms"),
        )  # fmt: skip
        if sent.get("success") is not True:
            raise LoginError("server", Message("iaaa_said", message=str(sent.get("errMsg") or "短信发送失败")))
        return str(sent.get("mobileMask") or "")

    async def finish(self, sms_code: str) -> dict[str, str]:
        """Check the texted code, get a new secret and confirm it with its first code: `{secret, personId, name}`.

        Raises:
            LoginError: a wrong code, or IAAA refused a step (its message).
        """
        from tui.runtime.campus.totp import totp

        base = f"{IAAA}/pageFlows/identity/otpBind"
        checked = _json(
            await login_send(self.net, self.jar, "POST", f"{base}/checkSms.do",
                        data={"userId": self.username, "smsCode": sms_code}),
            Message("iaaa_what_sms_check"),
        )  # fmt: skip
        if checked.get("success") is not True:
            raise LoginError("password", Message("iaaa_said", message=str(checked.get("message") or "短信验证码错误")))
        key = _json(
            await login_send(self.net, self.jar, "GET", f"{base}/genOtpKey.do", params={"_rand": _rand()}),
            Message("iaaa_what_secret"),
        )
        secret = key.get("secKey")
        if key.get("success") is not True or not isinstance(secret, str):
            raise LoginError("server", Message("iaaa_said", message=str(key.get("errMsg") or "没有生成令牌密钥")))
        person = str(key.get("personId") or self.username)
        bound = _json(
            await login_send(self.net, self.jar, "POST", f"{base}/userBind.do",
                        data={"userId": person, "otpCode": totp(secret)}),
            Message("iaaa_what_binding"),
        )  # fmt: skip
        if bound.get("success") is not True:
            raise LoginError("server", Message("iaaa_said", message=str(bound.get("errMsg") or "绑定失败")))
        return {"secret": secret, "personId": person, "name": str(key.get("personName") or "")}
