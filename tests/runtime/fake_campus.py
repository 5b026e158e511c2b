"""A fake PKU campus on a loopback port, answering like IAAA, treehole, the card chain, elective, cwfw and bdkj.

Each service answers as the independent clients that work against the live one say it does (issue 17), cited at
each handler: pkucli (`pkuinfo/pkucli`, `crates/<service>/src/*.rs`, `docs/treehole-api.md`), PKUAutoElective
(`autoelective/elective.py`, `exceptions.py`), a public Python IAAA client (`PKUIAAALoginClient`, whose docstrings
list IAAA's answer codes) and public treehole web clients. Where no client says, the comment says so.

Requests reach it through `CampusNet(origin=…)`, which keeps the real host in the `Host` header; the fake
dispatches on it. IAAA holds a real RSA key pair and decrypts the password; a bound mobile token makes the
right TOTP code a condition of login. Every service sets a canary cookie, so tests can prove that no cookie
reaches a plugin.
"""

from __future__ import annotations

import base64
import io
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import segno
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tui.runtime.campus.totp import totp

CANARY = "CANARY-cookie-7f3a9e"
_KEY = rsa.generate_private_key(public_exponent=65537, key_size=1024)  # one key for every fake: fast enough
_PEM_BODY = "".join(
    _KEY.public_key()
    .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    .decode()
    .splitlines()[1:-1]
)
# The QR login's picture: a real QR code (version 1, 21 modules) that the app reads back and draws again.
QR_PAYLOAD = "PKU-QR-TEST"

Answer = tuple[int, dict[str, str], bytes]


def _json(doc: Any, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    return status, {"content-type": "application/json", **(headers or {})}, json.dumps(doc, ensure_ascii=False).encode()


def _current(secret: str, code: Any) -> bool:
    """The code of this 30 s step or the one before, as TOTP servers accept (a test may cross a step)."""
    now = time.time()
    return code in (totp(secret, now), totp(secret, now - 30))


def _redirect(location: str, headers: dict[str, str] | None = None) -> Answer:
    return 302, {"location": location, **(headers or {})}, b""


@dataclass
class Seen:
    """One request as the fake received it."""

    host: str
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes


@dataclass
class FakeCampus:
    """The campus's state; tests change it (expire a session, require verification) and read what it saw."""

    users: dict[str, str] = field(default_factory=lambda: {"2100012345": "correct horse"})
    otp: dict[str, str] = field(default_factory=dict)
    """Bound mobile tokens: student id → base32 secret."""
    seen: list[Seen] = field(default_factory=list)
    iaaa_logins: list[str] = field(default_factory=list)
    """App ids of successful IAAA password logins."""
    tokens: dict[str, tuple[str, str]] = field(default_factory=dict)
    """One-time IAAA tokens → (app id, student id)."""
    issued: list[str] = field(default_factory=list)
    """Every one-time IAAA token ever handed out (spent ones too)."""
    treehole_jwts: set[str] = field(default_factory=set)
    card_jwts: set[str] = field(default_factory=set)
    treehole_needs_login_sms: bool = False
    treehole_course_authorised: bool = False
    sms: dict[str, str] = field(default_factory=dict)
    """The last code texted, by purpose (login, course, bind)."""
    sms_sent_at: dict[str, float] = field(default_factory=dict)
    qr_scanned: bool = False
    qr_expired: bool = False
    delay: float = 0.0
    """Seconds every treehole API answer waits (concurrency tests)."""
    bind_user: str | None = None
    bind_sms_ok: bool = False
    bind_secret: str | None = None
    barcodes: list[str] = field(default_factory=list)
    """The payment codes the card endpoint handed out last."""
    unregistered: list[str] = field(default_factory=list)
    """The fresh credentials every echo handed out (CAS ticket, jsessionid, token, access_token)."""
    failing: dict[str, int] = field(default_factory=dict)
    """Paths that answer this HTTP status (a service in trouble), whatever the request."""
    sms_login: set[str] = field(default_factory=set)
    """Accounts whose IAAA second factor is SMS (authenMode SMS): a login needs the texted `smsCode` (E04)."""
    next_sms: str | None = None
    """The code IAAA texts next (a test that types it before it is sent); random when None."""
    captcha_after: int | None = None
    """Wrong passwords after which IAAA wants the picture code (E03) for every login of the account."""
    wrong_passwords: int = 0
    cwfw_token: str | None = None
    cookie_sessions: set[str] = field(default_factory=set)
    """Live sessions of the cookie services (elective, cwfw): the session cookie values the server still knows."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    # -- controls -----------------------------------------------------------------------------------
    def expire_sessions(self) -> None:
        """Every service token lapses at once (the server side of an expired session)."""
        with self.lock:
            self.treehole_jwts.clear()
            self.card_jwts.clear()
            self.cookie_sessions.clear()

    def count(self, path_part: str) -> int:
        return sum(1 for s in self.seen if path_part in s.path)

    def credentials(self, password: str = "correct horse") -> list[str]:
        """Every credential this campus handed out or was sent, and the student's password: none may show."""
        sent = [s.headers.get(h, "") for s in self.seen for h in ("authorization", "synjones-auth", "uuid", "cookie")]
        bearer = [v[7:] for v in sent if v.lower().startswith("bearer ")]
        cookies = [c.split("=", 1)[1] for v in sent if "=" in v for c in v.split("; ")]
        uuids = [s.headers["uuid"] for s in self.seen if "uuid" in s.headers]
        handed = [*self.treehole_jwts, *self.card_jwts, *self.issued, *self.unregistered, *self.barcodes]
        return [c for c in {*bearer, *cookies, *uuids, *handed, CANARY, password} if len(c) >= 6]

    # -- dispatch -------------------------------------------------------------------------------------
    def serve(self, seen: Seen) -> Answer:
        with self.lock:
            self.seen.append(seen)
        if seen.path in self.failing:
            return _json({"success": False, "msg": "系统维护中"}, self.failing[seen.path])
        handler = {
            "iaaa.pku.edu.cn": self.iaaa,
            "treehole.pku.edu.cn": self.treehole,
            "portal.pku.edu.cn": self.portal,
            "bdcard.pku.edu.cn": self.card,
            "bdkj.pku.edu.cn": self.bdkj,
            "course.pku.edu.cn": self.blackboard,
            "elective.pku.edu.cn": self.elective,
            "cwfw.pku.edu.cn": self.cwfw,
            "its.pku.edu.cn": self.its,
        }.get(seen.host)
        if handler is None:
            return 404, {}, b"no such host"
        return handler(seen)

    @staticmethod
    def form(seen: Seen) -> dict[str, str]:
        return {k: v[0] for k, v in parse_qs(seen.body.decode(), keep_blank_values=True).items()}

    # -- IAAA -----------------------------------------------------------------------------------------
    # pkucli `crates/common/src/iaaa.rs` (getPublicKey, oauthlogin, the QR flow: oauth.jsp → genQRCode → poll with
    # E10 / E99); the Python IAAA client's docstrings (the E-codes, sendSMSCode.do); token binding as campus.md §2.3
    # describes it (no independent client binds a token: unconfirmed).
    def iaaa(self, seen: Seen) -> Answer:
        path = seen.path.removeprefix("/iaaa")
        if path == "/getPublicKey.do":
            return _json({"success": True, "key": _PEM_BODY})
        if path == "/oauthlogin.do":
            return self._password_login(self.form(seen))
        if path == "/sendSMSCode.do":
            # The IAAA client's send_sms_code: {success, mobileMask}, or {success: false, msg}; 60 s between texts.
            user = (seen.query.get("userName") or [""])[0]
            if user not in self.sms_login:
                return _json({"success": False, "msg": "您没有绑定手机号或者无需短信验证登录。"})
            if time.time() - self.sms_sent_at.get("iaaa", 0) < 60:
                return _json({"success": False, "msg": "请60秒后再试"})
            self.sms["iaaa"] = self.next_sms or f"{secrets.randbelow(10**6):06d}"
            self.sms_sent_at["iaaa"] = time.time()
            return _json({"success": True, "mobileMask": "138****0000"})
        if path == "/oauth.jsp":
            return 200, {"set-cookie": "JSESSIONID=qr-session; Path=/iaaa"}, b"<html>IAAA</html>"
        if path == "/genQRCode.do":
            return 200, {"content-type": "image/png"}, qr_png(QR_PAYLOAD)
        if path == "/oauthlogin4QRCode.do":
            if self.qr_expired:
                return _json({"success": False, "errors": {"code": "E99", "msg": "二维码已过期"}})
            if not self.qr_scanned:
                return _json({"success": False, "errors": {"code": "E10", "msg": "无有效绑定"}})
            self.qr_scanned = False  # one scan, one token for one app (targetAppId): the next service needs its own
            return _json({"success": True, "token": self._token(self.form(seen)["targetAppId"], "2100012345")})
        return self._bind(path, seen)

    def _token(self, app_id: str, user: str) -> str:
        token = "iaaa-" + secrets.token_hex(8)
        self.tokens[token] = (app_id, user)
        self.issued.append(token)
        return token

    def _password_login(self, form: dict[str, str]) -> Answer:
        user = form.get("userName", "")
        try:
            password = _KEY.decrypt(base64.b64decode(form.get("password", "")), padding.PKCS1v15()).decode()
        except ValueError:
            return _json({"success": False, "errors": {"code": "E01", "msg": "密码格式错误"}})
        # Codes as the Python IAAA client lists them: E01 password, E03 picture code, E05 mobile token.
        if self.captcha_after is not None and self.wrong_passwords >= self.captcha_after and not form.get("randCode"):
            return _json({"success": False, "errors": {"code": "E03", "msg": "请输入验证码"}})
        if self.users.get(user) != password:
            self.wrong_passwords += 1
            return _json({"success": False, "errors": {"code": "E01", "msg": "用户名或密码错误"}})
        if user in self.sms_login and (not form.get("smsCode") or form.get("smsCode") != self.sms.get("iaaa")):
            return _json({"success": False, "errors": {"code": "E04", "msg": "短信验证码错误"}})
        secret = self.otp.get(user)
        if secret and not _current(secret, form.get("otpCode")):
            return _json(
                {"success": False, "errors": {"code": "E05", "msg": "动态口令错误"}}
            )  # the code, not the words
        self.iaaa_logins.append(form.get("appid", ""))
        return _json({"success": True, "token": self._token(form.get("appid", ""), user)})

    def _bind(self, path: str, seen: Seen) -> Answer:
        form = self.form(seen)
        if path == "/auth4Bind.do":
            if self.users.get(form.get("userName", "")) != form.get("password"):  # sent plain here (campus.md §2.3)
                return _json({"success": False, "errors": {"msg": "用户名或密码错误"}})
            self.bind_user = form["userName"]
            return _json({"success": True})
        base = "/pageFlows/identity/otpBind"
        if path == f"{base}/sendSMSCodeBind.do" and self.bind_user:
            self.sms["bind"] = f"{secrets.randbelow(10**6):06d}"
            return _json({"success": True, "mobileMask": "138****0000"})
        if path == f"{base}/checkSms.do":
            self.bind_sms_ok = form.get("smsCode") == self.sms.get("bind")
            return _json({"success": self.bind_sms_ok, "message": "" if self.bind_sms_ok else "短信验证码错误"})
        if path == f"{base}/genOtpKey.do" and self.bind_sms_ok:
            self.bind_secret = base64.b32encode(secrets.token_bytes(10)).decode()
            return _json(
                {"success": True, "personId": self.bind_user, "personName": "张三", "secKey": self.bind_secret}
            )
        if path == f"{base}/userBind.do" and self.bind_secret and self.bind_user:
            if not _current(self.bind_secret, form.get("otpCode")):
                return _json({"success": False, "errMsg": "令牌验证码错误"})
            self.otp[self.bind_user] = self.bind_secret
            return _json({"success": True})
        return _json({"success": False, "errMsg": "out of order"}, 400)

    def _take(self, token: str | None, app_id: str) -> str | None:
        """The student a one-time IAAA token was issued to (for `app_id`), spending it."""
        with self.lock:
            issued = self.tokens.pop(token or "", None)
        return issued[1] if issued and issued[0] == app_id else None

    # -- treehole -------------------------------------------------------------------------------------
    # pkucli `crates/treehole/src/` and `docs/treehole-api.md`: cas_iaaa_login → 302 with the JWT and an absolute
    # `expires_in`, Bearer + `uuid` headers, 401 when the JWT is not accepted, jwt_send_msg / jwt_msg_verify
    # (`valid_code`), codes 40002 / 40077, the course token endpoints.
    def treehole(self, seen: Seen) -> Answer:
        canary = {"set-cookie": f"canary={CANARY}; Path=/"}
        if seen.path == "/chapi/cas_iaaa_login":
            user = self._take((seen.query.get("token") or [""])[0], "PKU Helper")
            if user is None or not seen.query.get("uuid"):
                return _json({"success": False, "message": "token invalid"}, 400)
            jwt = "jwt-" + secrets.token_hex(12)
            self.treehole_jwts.add(jwt)
            expires = int(time.time()) + 7 * 24 * 3600
            query = urlencode({"is_mobile": 0, "token": jwt, "expires_in": expires, "uid": user})
            return _redirect(f"/ch/web/iaaa_success?{query}", canary)
        if self.delay:
            time.sleep(self.delay)
        auth = seen.headers.get("authorization", "")
        if not auth.startswith("Bearer ") or auth[7:] not in self.treehole_jwts or "uuid" not in seen.headers:
            return _json({"code": 40001, "success": False, "message": "请登录"}, 401)
        body = json.loads(seen.body or b"{}") if seen.method == "POST" else {}
        path = seen.path.removeprefix("/chapi/api")
        if path == "/jwt_send_msg":
            return self._send_sms("login", canary)
        if path == "/jwt_msg_verify":
            ok = body.get("valid_code") == self.sms.get("login")
            self.treehole_needs_login_sms = self.treehole_needs_login_sms and not ok
            return _json({"code": 20000 if ok else 40003, "success": ok, "message": "验证成功" if ok else "验证码错误"})
        if seen.path == "/api/login_iaaa_check_token":
            # The web bundle's login check by mobile token: root /api, `{code}` (three public treehole clients);
            # `/chapi/api/check_otp`, in pkucli's docs but used by no client, is not served.
            secret = self.otp.get("2100012345")
            ok = bool(secret) and _current(secret or "", body.get("code"))
            self.treehole_needs_login_sms = self.treehole_needs_login_sms and not ok
            return _json({"code": 20000 if ok else 40003, "success": ok, "message": "验证成功" if ok else "令牌错误"})
        if self.treehole_needs_login_sms:
            return _json({"code": 40002, "success": False, "message": "请进行短信验证"}, 200, canary)
        if path == "/course/send_get_token_message":
            return self._send_sms("course", canary)
        if path in ("/course/mobile_message_get_token", "/course/password_get_token"):
            secret = self.otp.get("2100012345")
            if path.endswith("password_get_token"):
                ok = bool(secret) and _current(secret or "", body.get("code"))
            else:
                ok = body.get("code") == self.sms.get("course")
            self.treehole_course_authorised = self.treehole_course_authorised or ok
            return _json({"code": 20000 if ok else 40005, "success": ok, "message": "成功" if ok else "验证码错误"})
        if path.startswith("/course/") or path.startswith("/getCoursetable"):
            if not self.treehole_course_authorised:
                return _json({"code": 40077, "success": False, "message": "请先获取授权码"}, 200, canary)
            return _json({"code": 20000, "success": True, "data": SCORES}, 200, canary)
        if path == "/v3/events/list":
            return _json({"code": 20000, "success": True, "data": {"list": EVENTS}}, 200, canary)
        if path.startswith("/v3/hole/list_comments"):
            return _json({"code": 20000, "success": True, "data": {"list": [{"pid": 1, "text": "hello"}]}}, 200, canary)
        if path == "/v3/echo":
            # Reflects the signed request (its headers, its URL) and hands out credentials nobody registered:
            # the tests check that a plugin sees none of it.
            return self.echo(seen, canary)
        if path == "/v3/away":
            return _redirect("https://evil.example/steal")
        if path == "/v3/flaky":
            return _json({"success": False, "message": "busy"}, 503)
        return _json({"code": 40400, "success": False, "message": f"no {path}"}, 404)

    def _send_sms(self, purpose: str, headers: dict[str, str]) -> Answer:
        now = time.time()
        if now - self.sms_sent_at.get(purpose, 0) < 120:
            return _json({"code": 40010, "success": False, "message": "验证码未过期，请勿重复发送"}, 200, headers)
        self.sms[purpose] = f"{secrets.randbelow(10**6):06d}"
        self.sms_sent_at[purpose] = now
        return _json({"code": 20000, "success": True, "message": "发送成功"}, 200, headers)

    def echo(self, seen: Seen, headers: dict[str, str]) -> Answer:
        """The signed request reflected back (headers with the JWT, uuid and cookies; the URL), plus fresh
        credentials in the shapes campus services use, in the body and in headers."""
        url = f"https://{seen.host}{seen.path}" + (f"?{urlencode(seen.query, doseq=True)}" if seen.query else "")
        fresh = secrets.token_hex(10)
        ticket, jsid, token, access = f"ST-4242-{fresh}-cas", f"JSID{fresh}", f"tok{fresh}", f"acc{fresh}"
        self.unregistered += [ticket, jsid, token, access]
        nxt = f"https://{seen.host}/app;jsessionid={jsid}?ticket={ticket}&token={token}&access_token={access}"
        doc = {"success": True, "data": {"headers": seen.headers, "query": seen.query, "url": url, "next": nxt,
                                         "session": {"token": token}}}  # fmt: skip
        return _json(doc, 200, {**headers, "x-next": nxt, "location": nxt})

    # -- the card chain -------------------------------------------------------------------------------
    # pkucli `crates/campuscard/src/login.rs`, `client.rs`, `api.rs`: portal ssoLogin.do → redirectToCard.do →
    # berserker-auth → `synjones-auth=` in a redirect; the Android UA and `synAccessSource=h5`; `code: 401` in a 200.
    def portal(self, seen: Seen) -> Answer:
        if seen.path == "/portal2017/ssoLogin.do":
            user = self._take((seen.query.get("token") or [""])[0], "portal2017")
            if user is None:
                return 200, {}, b"<html>iaaa.pku.edu.cn/iaaa/oauth.jsp</html>"
            return 200, {"set-cookie": f"SESSION=portal-{user}; Path=/portal2017"}, b"<html>portal</html>"
        if seen.path == "/portal2017/util/redirectToCard.do":
            if "SESSION=portal-" not in seen.headers.get("cookie", ""):
                return _redirect("https://iaaa.pku.edu.cn/iaaa/oauth.jsp")
            cas = "cas-" + secrets.token_hex(8)
            self.issued.append(cas)
            return _redirect(f"https://bdcard.pku.edu.cn/berserker-auth/cas/login/pku?token={cas}&targetUrl=x")
        return 404, {}, b""

    def card(self, seen: Seen) -> Answer:
        if seen.path == "/berserker-auth/cas/login/pku":
            jwt = "card-" + secrets.token_hex(12)
            self.card_jwts.add(jwt)
            return _redirect(f"https://bdcard.pku.edu.cn/plat/?synjones-auth={jwt}&name=x")
        auth = seen.headers.get("synjones-auth", "")
        if not auth.startswith("bearer ") or auth[7:] not in self.card_jwts:
            return _json({"code": 401, "success": False, "message": "登录已过期"})  # HTTP 200 with code 401
        if not seen.headers.get("user-agent", "").startswith("PKUANDROID") or seen.query.get("synAccessSource") != [
            "h5"
        ]:
            return _json({"code": 400, "success": False, "msg": "bad client"})
        if seen.path == "/berserker-app/ykt/tsm/queryCard":
            return _json({"code": 200, "success": True, "data": {"card": [CARD]}, "msg": "ok"})
        if seen.path == "/berserker-app/ykt/tsm/batchGetBarCodeGet":
            # Payment codes (campus.md §3.2): show on screen only, never in tool results.
            self.barcodes = [f"{secrets.randbelow(10**18):018d}" + "7" for _ in range(2)]
            return _json({"code": 200, "success": True, "data": {"barcode": self.barcodes}, "msg": "ok"})
        if seen.path == "/berserker-app/echo":
            return self.echo(seen, {})
        return _json({"code": 404, "success": False, "msg": "no such path"})

    # -- bdkj (a cookie service) ----------------------------------------------------------------------
    # pkucli `crates/bdkj/src/login.rs`: /login/oauth?token= sets the cookies, /personal/user checks them; a
    # refused token shows IAAA's oauth.jsp. Its expiry answer is unconfirmed (pkucli trusts a 24 h timer).
    def bdkj(self, seen: Seen) -> Answer:
        if seen.path == "/login/oauth":
            user = self._take((seen.query.get("token") or [""])[0], "bdkj")
            if user is None:
                return 200, {}, b"<html>iaaa.pku.edu.cn/iaaa/oauth.jsp</html>"
            return _redirect("/personal", {"set-cookie": "SESSION=bdkj-ok; Path=/"})
        if "SESSION=bdkj-ok" not in seen.headers.get("cookie", ""):
            return _redirect("https://iaaa.pku.edu.cn/iaaa/oauth.jsp?appID=bdkj")
        if seen.path == "/personal":
            return 200, {}, b"<html>personal</html>"
        if seen.path == "/personal/user":
            return _json({"account": "2100012345", "name": "张三"})
        return 404, {}, b""

    # -- blackboard, elective, cwfw, its --------------------------------------------------------------
    # blackboard: pkucli `crates/course/src/api.rs` `get_homepage` (an expired session lands on a login page).
    def blackboard(self, seen: Seen) -> Answer:
        if seen.path == "/webapps/bb-sso-BBLEARN/execute/authValidate/campusLogin":
            if self._take((seen.query.get("token") or [""])[0], "blackboard") is None:
                return 200, {}, b"<html>IAAA login <form action='https://iaaa.pku.edu.cn/iaaa/oauth.jsp'></form></html>"
            return _redirect("/webapps/portal/execute/tabs/tabAction", {"set-cookie": "s_session_id=bb-ok; Path=/"})
        if "s_session_id=bb-ok" not in seen.headers.get("cookie", ""):
            return 200, {}, b"<html><h1>IAAA</h1> please login <form action='/webapps/login/'></form></html>"
        return 200, {"content-type": "text/html"}, "<html><span class='moduleTitle'>当前学期课程</span></html>".encode()

    def elective(self, seen: Seen) -> Answer:
        base = "/elective2008/ssoLogin.do"
        cookie = seen.headers.get("cookie", "")
        if seen.path == base and "token" in seen.query:
            if "JSESSIONID=" not in cookie:
                # PKUAutoElective `sso_login`: "without some Cookie it answers 101" — its code for a status that is
                # not 200 (StatusCodeError); which status is not recorded.
                return 400, {}, b"<html>Bad Request</html>"
            if self._take(seen.query["token"][0], "syllabus") is None:
                # PKUAutoElective InvalidTokenError (312): a spent token, on elective's 系统异常 page
                return 200, {}, ELECTIVE_PAGE.format(words="Token无效").encode()
            page = f"<div id='div1'><a href='ssoLogin.do?sida={SIDA}&sttp=bzx'>主修</a></div><div id='div2'></div>"
            return 200, {"set-cookie": "JSESSIONID=el-pending; Path=/"}, page.encode()  # a dual-degree student
        if seen.path == base and seen.query.get("sttp") == ["bzx"] and seen.query.get("sida") == [SIDA]:
            sid = "el-ok-" + secrets.token_hex(6)
            self.cookie_sessions.add(sid)
            return _redirect("/elective2008/edu/pku/stu/elective/controller/help/HelpController.jpf",
                             {"set-cookie": f"JSESSIONID={sid}; Path=/"})  # fmt: skip
        if not any(f"JSESSIONID={sid}" in cookie for sid in self.cookie_sessions if sid.startswith("el-")):
            # PKUAutoElective SessionExpiredError (313): HTTP 200, elective's own page, not a redirect
            return 200, {}, ELECTIVE_PAGE.format(words="您尚未登录或者会话超时,请重新登录.").encode()
        if not seen.headers.get("referer", "").startswith("https://elective.pku.edu.cn/"):
            return 200, {}, ELECTIVE_PAGE.format(words="请不要用刷课机刷课，否则会受到学校严厉处分！").encode()  # 311
        return 200, {}, "<html>选课结果</html>".encode()

    def cwfw(self, seen: Seen) -> Answer:
        """pkucli `crates/cwfw/src/login.rs` (the four hops), `context.rs` (loadRolesMenu's userContext) and
        `api.rs` (`$$$SYS_ERROR$$$` when the server rejects a request)."""
        cookie = seen.headers.get("cookie", "")
        if seen.path == "/WFManager/home2.jsp":
            user = self._take((seen.query.get("token") or [""])[0], "IIPF")
            if user is None:
                return 200, {}, b"<html>iaaa.pku.edu.cn oauth.jsp</html>"
            self.cwfw_token = seen.query["token"][0]
            return 200, {"set-cookie": "JSESSIONID=cw1; Path=/"}, b"<html>home2</html>"
        if seen.path == "/WFManager/findpages_postData.action":
            ok = self.form(seen).get("token") == self.cwfw_token and "JSESSIONID=cw1" in cookie
            return 200, {}, b"ok" if ok else b"fail"
        if seen.path == "/WFManager/home3.jsp":
            return (
                200,
                {},
                b'<div id="WF_CWBS" url="WINOPEN../WF_CWBS/main2.jsp?context=x&amp;token=sub1&amp;pId=WF_CWBS">',
            )
        if seen.path == "/WF_CWBS/main2.jsp" and seen.query.get("token") == ["sub1"]:
            sid = "cw2-" + secrets.token_hex(6)
            self.cookie_sessions.add(sid)
            return 200, {"set-cookie": f"WF_CWBSsid={sid}; Path=/"}, b"<html>main</html>"
        if not any(f"WF_CWBSsid={sid}" in cookie for sid in self.cookie_sessions if sid.startswith("cw2-")):
            if seen.path.endswith("loadRolesMenu.action"):
                return 200, {}, b"<html><body>menu</body></html>"  # no userContext: the session is gone
            return 200, {}, "<html>系统超时 <a href='login.html'>login</a></html>".encode()
        if seen.path.endswith("commonUpdate_responseButtonEvent.action"):
            return 200, {}, b"$$$SYS_ERROR$$$java.lang.NullPointerException"  # a request the server rejects
        return 200, {}, b"<input id='userContext' value='[{}]'>"

    def its(self, seen: Seen) -> Answer:
        if seen.path == "/cas/webLogin":  # pkucli `crates/portal/src/netfee.rs`
            form = self.form(seen)
            if self.users.get(form.get("username", "")) != form.get("password"):
                return 200, {}, '<script>alert("密码错误");history.back();</script>'.encode()
            return 200, {"set-cookie": "JSESSIONID=its-ok; Path=/"}, "<html>账户余额：12.34 元</html>".encode()
        if "JSESSIONID=its-ok" not in seen.headers.get("cookie", ""):
            return 200, {}, b"<html>login</html>"
        return 200, {}, "<table class='itsutil_account'><td class='td_name'>余　　额</td><td>10元</td></table>".encode()

    # -- a loopback server ----------------------------------------------------------------------------
    @contextmanager
    def running(self) -> Iterator[str]:
        """Serve on 127.0.0.1; yields the origin to give CampusNet."""
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                host = (self.headers.get("host") or "").split(":")[0]
                headers = {k.lower(): v for k, v in self.headers.items()}
                seen = Seen(
                    host, self.command, parts.path, parse_qs(parts.query, keep_blank_values=True), headers, body
                )
                status, out_headers, data = fake.serve(seen)
                self.send_response(status)
                for k, v in out_headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _any

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()


#: elective's error page (PKUAutoElective `SystemException`: "<title>系统异常</title>"), with its words
ELECTIVE_PAGE = "<html><head><title>系统异常</title></head><body><table><tr><td>{words}</td></tr></table></body></html>"
#: a dual-degree chooser's sida: 32 characters that are not all lowercase hex (pkucli accepts `\\S{32}`)
SIDA = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
#: score_v2's data as pkucli `crates/treehole/src/api.rs` `get_scores` reads it: the per-term GPAs are top level
SCORES = {
    "score": {
        "cjxx": [
            {"kcmc": "高等数学 (B)", "xf": "5", "xqcj": "92", "kclbmc": "必修", "xnd": "25-26", "xq": "1"},
            {"kcmc": "体育", "xf": "1", "xqcj": "合格", "kclbmc": "必修", "xnd": "25-26", "xq": "1"},
        ],
        "gpa": {"gpa": "3.85", "xxxf": "6"},
    },
    "gpa": {"data": [{"gpa": "3.85", "xndxq": "25-26-1"}]},
}
EVENTS = [
    {
        "event_name": "讲座：大模型与校园",
        "event_start_time": "2026-12-01 19:00:00",
        "event_location": "英杰交流中心",
        "event_organizer": "信息科学技术学院",
        "event_introduction": "<p>欢迎参加</p>",
        "event_type_name": "讲座",
    }
]
CARD = {
    "sno": "2100012345",
    "name": "张三",
    "account": "123456",
    "cardname": "校园卡",
    "lostflag": "0",
    "freezeflag": "0",
    "expdate": "20300701",
    "elec_accamt": 12345,
    "accinfo": [{"balance": 12345, "name": "电子钱包", "type": "1", "daycostamt": 1500, "daycostlimit": 30000}],
}


def qr_png(payload: str) -> bytes:
    """`payload` as a QR code PNG like IAAA's: 4 pixels a module, a 4-module white border."""
    out = io.BytesIO()
    segno.make_qr(payload).save(out, kind="png", scale=4, border=4)
    return out.getvalue()
