"""Treehole's second factor behind `verify.treehole` and `verify.treeholeSendCode` (seed 003, campus.md §3.1).

Treehole answers code 40002 when the login needs an SMS check (first login, then about monthly) and 40077 when
course data (grades, timetable) needs a short-lived authorisation. The pending kind is remembered with the
session, so "send a code" and "here is the code" can come in later calls (or later processes).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tui.lang.host import HostError, HttpRequest
from tui.lang.netpolicy import PolicyError, campus_url
from tui.lang.steps.requests import query_items, with_query
from tui.runtime.campus.session import CampusSession

KINDS = ("login", "course")
#: Where a code is submitted, by (kind, via). The login check by mobile token is the web bundle's
#: `POST /api/login_iaaa_check_token {code}` (root `/api`, not `/chapi`): three public treehole clients post there,
#: and one that read the bundle's `otp-*.js` chunk says 40002 "请手机短信验证" is answered by it as well as by SMS.
#: pkucli's `docs/treehole-api.md` lists `check_otp` too, but no client uses it.
SUBMIT = {
    ("login", "sms"): ("/chapi/api/jwt_msg_verify", "valid_code"),
    ("login", "otp"): ("/api/login_iaaa_check_token", "code"),
    ("course", "sms"): ("/chapi/api/course/mobile_message_get_token", "code"),
    ("course", "otp"): ("/chapi/api/course/password_get_token", "code"),
}
SEND = {"login": "/chapi/api/jwt_send_msg", "course": "/chapi/api/course/send_get_token_message"}
SMS_COOLDOWN = 60.0
ASK = {
    "login": "树洞需要验证登录：请提供手机令牌的 6 位验证码，或者发送短信验证码后提供它。",
    "course": "读取课程数据前树洞需要验证：请提供手机令牌的 6 位验证码，或者发送短信验证码后提供它。",
}


def _code_of(doc: dict[str, Any]) -> str:
    return str(doc.get("code", ""))


class Treehole:
    """The verification state machine over the campus session."""

    def __init__(self, session: CampusSession) -> None:
        self.session = session
        self._sent: dict[str, float] = {}

    # -- pending kind -----------------------------------------------------------------------------------
    def pending(self) -> str | None:
        state = self.session.state("treehole")
        kind = state.extra.get("pending") if state else None
        return kind if kind in KINDS else None

    def _set_pending(self, kind: str | None) -> None:
        state = self.session.state("treehole")
        if state is None or state.extra.get("pending") == kind:
            return
        if kind is None:
            state.extra.pop("pending", None)
        else:
            state.extra["pending"] = kind
        self.session.persist("treehole")

    # -- requests ---------------------------------------------------------------------------------------
    def _request(self, spec: Any) -> HttpRequest:
        if not isinstance(spec, dict) or not isinstance(spec.get("url"), str):
            raise HostError("ability", "verify.treehole needs request: { url: '/chapi/…' }")
        method = str(spec.get("method") or "GET").upper()
        if method not in ("GET", "POST"):
            raise HostError("ability", f"verify.treehole sends GET or POST, not {method}")
        try:
            url = campus_url("treehole", spec["url"])
        except PolicyError as e:
            raise HostError("ability", f"verify.treehole: {e}") from None
        # the plugin language's own rule for query values (numbers as JavaScript prints them, lists repeated)
        items = query_items(spec["query"]) if isinstance(spec.get("query"), dict) else []
        headers: dict[str, str] = {}
        body = None
        if "json" in spec:
            body = json.dumps(spec["json"], ensure_ascii=False).encode()
            headers["content-type"] = "application/json"
        return HttpRequest(method, with_query(url, items), headers, body, "treehole")

    async def _json(self, request: HttpRequest, effect: str) -> dict[str, Any]:
        response = await self.session.request(request, effect)
        try:
            doc = json.loads(response.body)
        except ValueError:
            raise HostError(
                "ability", f"treehole answered HTTP {response.status} with something that is not JSON", cause="service"
            ) from None
        if not isinstance(doc, dict):
            raise HostError("ability", "treehole answered with something that is not an object", cause="service")
        return doc

    async def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        body = json.dumps(payload).encode()
        request = HttpRequest("POST", str(campus_url("treehole", path)), {"content-type": "application/json"}, body,
                              "treehole")  # fmt: skip
        return await self._json(request, "write")

    async def _submit(self, kind: str, via: str, code: str) -> None:
        path, field = SUBMIT[(kind, via)]
        doc = await self._post(path, {field: code})
        if doc.get("success") is not True:
            message = f"treehole did not accept the code: {doc.get('message') or '验证失败'}"
            raise HostError("ability", message, cause="input")

    # -- the abilities ------------------------------------------------------------------------------------
    async def verify(self, args: dict[str, Any], check: Callable[[HttpRequest], None] | None = None) -> dict[str, Any]:
        """`verify.treehole { request, code?, via?, kind? }`: treehole's JSON answer, or verification_required.

        `check` sees the plugin's request before anything is sent (the outgoing-secret check).
        """
        request = self._request(args.get("request"))
        if check is not None:
            check(request)
        code = args.get("code")
        via = args.get("via") or "sms"
        if via not in ("sms", "otp"):
            raise HostError("ability", "verify.treehole: via is 'sms' or 'otp'")
        if isinstance(code, str) and code.strip():
            kind = self.pending() or args.get("kind")
            if kind not in KINDS:
                raise HostError(
                    "ability",
                    "verify.treehole: no verification is waiting; say which one the code is for with kind: "
                    "'login' or 'course'",
                )
            await self._submit(kind, via, code.strip())
            self._set_pending(None)
        tried_token = False
        while True:
            doc = await self._json(request, "read")
            kind = {"40002": "login", "40077": "course"}.get(_code_of(doc))
            if kind is None:
                if doc.get("success") is not True:
                    message = f"treehole: {doc.get('message') or 'the request did not succeed'}"
                    raise HostError("ability", message, cause="service")
                return doc
            self._set_pending(kind)
            token_code = self.session.otp_code() if not tried_token else None
            if token_code is None:
                return self._required(kind, doc)
            tried_token = True  # the bound mobile token, once; then the student is asked
            try:
                await self._submit(kind, "otp", token_code)
            except HostError:
                return self._required(kind, doc)
            self._set_pending(None)

    def _required(self, kind: str, doc: dict[str, Any]) -> dict[str, Any]:
        methods = ["sms", "otp"]
        return {
            "status": "verification_required",
            "kind": kind,
            "methods": methods,
            "message": ASK[kind] + (f"（树洞：{doc['message']}）" if doc.get("message") else ""),
            "next": "Ask the user for the code. For sms, first send it with verify.treeholeSendCode "
            f"{{ kind: '{kind}' }}; then call again with code and via ('sms' or 'otp').",
        }

    async def send_code(self, args: dict[str, Any]) -> dict[str, Any]:
        """`verify.treeholeSendCode { kind? }`: text the code for the pending (or named) verification."""
        kind = self.pending() or args.get("kind")
        if kind not in KINDS:
            raise HostError(
                "ability", "verify.treeholeSendCode: no verification is waiting; pass kind: 'login' or 'course'"
            )
        now = self.session.clock()
        last = self._sent.get(kind)
        if last is not None and now - last < SMS_COOLDOWN:
            wait = int(SMS_COOLDOWN - (now - last)) + 1
            return {"sent": True, "kind": kind, "message": f"验证码刚刚发过，请查看短信（{wait} 秒后可以再发）"}
        doc = await self._post(SEND[kind], {})
        message = str(doc.get("message") or "")
        # "not expired yet" means a code already on its way is still valid: for the student that is "sent".
        if doc.get("success") is not True and "未过期" not in message:
            raise HostError("ability", f"treehole did not send the code: {message or '发送失败'}", cause="service")
        self._sent[kind] = now
        return {"sent": True, "kind": kind, "message": message or "验证码已发送"}
