"""A plugin's campus request on the wire: signed with the service's credentials, redirects followed by hand on the
service's host only (and signed again there), reads retried after a 5xx or a timeout.

The session (session.py) decides whether a login is needed and whether an answer means it lapsed; this module only
sends. Headers a plugin may not set (`APP_HEADERS`) are dropped by the session before this is called.
"""

from __future__ import annotations

import asyncio

import httpx

from tui.lang.host import HostError
from tui.runtime.campus.net import BodyTooLarge, CampusNet
from tui.runtime.campus.services import Service, ServiceState

MAX_HOPS = 5


async def send_signed(
    net: CampusNet,
    jar: httpx.Cookies,
    backoff: tuple[float, ...],
    svc: Service,
    state: ServiceState,
    method: str,
    url: httpx.URL,
    headers: dict[str, str],
    content: bytes | None,
    effect: str,
) -> tuple[int, str, dict[str, str], bytes]:
    """Sign and send, following redirects on the service's host; retry reads after 5xx or a timeout."""
    attempts = len(backoff) + 1 if effect == "read" else 1
    for attempt in range(attempts):
        try:
            result = await _send_once(net, jar, svc, state, method, url, headers, content)
        except (httpx.TimeoutException, httpx.NetworkError) as e:
            if attempt + 1 < attempts:
                await asyncio.sleep(backoff[attempt])
                continue
            timeout = isinstance(e, httpx.TimeoutException)
            what = "did not answer in time" if timeout else "could not be reached"
            # A change that timed out may have happened: say so rather than retrying it.
            tail = "" if effect == "read" else "; it may or may not have been done: check before trying again"
            raise HostError("timeout" if timeout else "network", f"{svc.title} {what}{tail}") from None
        except BodyTooLarge as e:
            raise HostError("limit", str(e)) from None
        except (httpx.InvalidURL, httpx.ProtocolError) as e:  # e.g. `Location: https:\\x`, which httpx cannot join
            raise HostError("network", f"{svc.title} sent an answer the app cannot follow ({e})") from None
        if result[0] >= 500 and attempt + 1 < attempts:
            await asyncio.sleep(backoff[attempt])
            continue
        return result
    raise AssertionError("unreachable")


async def _send_once(
    net: CampusNet,
    jar: httpx.Cookies,
    svc: Service,
    state: ServiceState,
    method: str,
    url: httpx.URL,
    headers: dict[str, str],
    body: bytes | None,
) -> tuple[int, str, dict[str, str], bytes]:
    for _ in range(MAX_HOPS + 1):
        signed = dict(headers)
        params = svc.sign(state, signed)  # the app's credentials go on last, over anything else
        target = url
        for k, v in params.items():
            if k not in target.params:
                target = target.copy_add_param(k, v)
        response = await net.send(jar, method, str(target), headers=signed, content=body)
        lowered = {k.lower(): v for k, v in response.headers.items()}
        location = lowered.get("location")
        if response.status_code in (301, 302, 303, 307, 308) and location:
            nxt = url.join(location)
            lapsed = svc.expired(response.status_code, lowered, b"", str(target))
            if nxt.host != svc.host or nxt.scheme != "https" or lapsed:
                # Never signed again off the service's host (threats.md C4): the caller sees the redirect.
                return response.status_code, str(target), lowered, response.content
            if response.status_code == 303 or (response.status_code in (301, 302) and method == "POST"):
                method, body = "GET", None
                headers = {k: v for k, v in headers.items() if k != "content-type"}
            url = nxt
            continue
        return response.status_code, str(response.request.url), lowered, response.content
    raise HostError("network", f"more than {MAX_HOPS} redirects on {svc.title}")
