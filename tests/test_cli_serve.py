"""`pku-harness serve` (issue 24): the app in a web page, driven in a real browser.

One server per module (`serve --demo` on a free loopback port) and one headless Chromium (Debian's, through
Playwright's `executable_path`; no browser is ever downloaded). xterm.js draws the terminal on a canvas, so what
the app shows is read where the browser gets it: the websocket's frames, escape sequences taken out. The page
tests skip, saying why, where that browser or Playwright is missing; the token and address checks need no browser.

`SERVE_SCREENSHOTS=screenshots pytest tests/test_cli_serve.py` also writes the README's two pictures there.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tui.app.i18n import t
from tui.app.widgets.dashboard import SMALL_ONLY
from tui.runtime.chat.demo_rules import EN_MARK, ZH_MARK

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
#: A busy machine (two cores, the suite beside) starts an app in a few seconds; these waits are generous.
START_S, ANSWER_S = 60.0, 60.0
ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b.")


@dataclass
class Served:
    """A running `pku-harness serve`: its process, port, printed lines and the folder its demos keep data in."""

    proc: subprocess.Popen[str]
    port: int
    tmp: Path
    out: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> str:
        """Stop it as Ctrl+C would, and give back what it printed since it started (stdout, then stderr)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return out + err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tmp: Path, *args: str) -> Served:
    """`pku-harness serve ARGS --port <free>`, once it answers; its demos' throw-away folders go under `tmp`."""
    port = free_port()
    env = {**os.environ, "TMPDIR": str(tmp), "PKU_HARNESS_DATA": str(tmp / "data"), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", *args, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    served = Served(proc, port, tmp)
    assert proc.stdout is not None
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"serve exited with {proc.wait()}: {served.stop()}")
        served.out.append(line)
        if "Ctrl+C stops it" in line:
            return served
    served.stop()
    raise AssertionError("serve did not say where it listens in time")


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """Status, headers and body of a GET (a refusal is an answer too)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def demo_folders(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("pku-harness-demo-*"))


def processes_under(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


# -- the guard: no browser needed --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = start(tmp_path_factory.mktemp("serve"), "--demo")
    yield served
    served.stop()


def test_loopback_needs_no_token_but_this_machines_name(served: Served) -> None:
    assert served.out[0].startswith(f"serving PKU harness on http://127.0.0.1:{served.port}/ (this machine only)")
    before = set(processes_under(served.proc.pid))
    status, headers, page = get(served.url)
    assert status == 200 and "textual-terminal" in page
    assert headers["Referrer-Policy"] == "no-referrer"
    assert 'class=""' in page  # no phone frame unless asked
    assert 'class="phone"' in get(served.url + "?phone=1")[2]
    assert (
        f'data-session-websocket-url="ws://localhost:{served.port}/ws"'
        in get(served.url, {"Host": f"localhost:{served.port}"})[2]
    )  # the page's addresses are the ones the browser used
    # A site whose name was re-pointed at 127.0.0.1 sends its own name: refused, the page and its files alike.
    for path in ("", "static/js/textual.js", "ws"):
        status, _, body = get(served.url + path, {"Host": f"attacker.example:{served.port}"})
        assert status == 403 and "this machine's own address" in body
        assert body.startswith(f"403 禁止访问：{t('web_refused_host', 'zh')}")  # Chinese first, then English
    # Another site's page may open a websocket anywhere: the app's one only for this origin.
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
    upgrade["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
    status, _, body = get(served.url + "ws", {**upgrade, "Origin": "https://attacker.example"})
    assert status == 403 and "only for the page served here" in body
    assert set(processes_under(served.proc.pid)) <= before  # no app was started for any of them


def test_beyond_loopback_the_token_is_asked_everywhere(tmp_path: Path) -> None:
    served = start(tmp_path, "--demo", "--host", "0.0.0.0", "--phone")
    try:
        printed = "".join(served.out)
        token = re.search(r"\?token=([A-Za-z0-9_-]{20,})", printed)
        assert token, printed
        assert "█" in printed  # the QR code of the link, for the phone's camera
        base = served.url
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
        upgrade["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
        for path, headers in [
            ("", {}),
            ("?token=wrong", {}),
            ("?token=" + token.group(1)[:-1], {}),
            ("static/js/textual.js", {}),
            ("ws", upgrade),
            ("", {"Cookie": f"pku_harness_token_{served.port}=wrong"}),
            ("", {"Cookie": f"pku_harness_token_{served.port + 1}={token.group(1)}"}),  # another server's
        ]:
            status, _, body = get(base + path, headers)
            assert status == 403, path
            assert "needs the link with its token" in body and token.group(1) not in body
        status, headers, page = get(f"{base}?token={token.group(1)}")
        assert status == 200 and 'class="phone"' in page  # --phone: the frame by default
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        kept = {"Cookie": cookie.split(";")[0]}
        assert get(base + "static/js/textual.js", kept)[0] == 200
        assert 'class=""' in get(base + "?phone=0", kept)[2]
    finally:
        err = served.stop()
    assert "beyond this machine" in err
    assert "no campus login" in err and "campus login included" not in err  # the demo has none to give away


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        *[("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True), ("[::1]", True)],
        *[("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("example.com", False), ("", False)],
    ],
)
def test_only_loopback_binds_go_without_a_token(host: str, loopback: bool) -> None:
    from tui.cli.web_guard import is_loopback

    assert is_loopback(host) is loopback


# -- the page in a browser ---------------------------------------------------------------------------------------


@dataclass
class Screen:
    """What one page's terminal received and sent on its websocket."""

    received: list[bytes] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)

    def text(self, since: int = 0) -> str:
        data = b"".join(self.received[since:]).decode("utf-8", "replace")
        return ESCAPES.sub("", data)

    def size(self) -> tuple[int, int]:
        """The terminal's size in cells, as the page last told the app."""
        sizes = [m for m in self.sent if m.startswith('["resize"')]
        found = re.search(r'"width":(\d+),"height":(\d+)', sizes[-1]) if sizes else None
        assert found, self.sent
        return int(found.group(1)), int(found.group(2))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the dev extra has it)")
    if not CHROMIUM.is_file():
        pytest.skip(f"no browser: {CHROMIUM} is missing (.ci/run installs Debian's chromium where apt-get works)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser
        browser.close()


#: The browser's notifications, recorded as the page makes them (headless Chromium shows none), and the page's
#: websocket, to say the focus moved at a chosen moment (a headless window's own focus events come when they come).
RECORD_PAGE = """
window.shownNotifications = [];
window.pageSockets = [];
{
  const Native = window.Notification;
  window.Notification = class extends Native {
    constructor(title, options) { super(title, options); window.shownNotifications.push([title, options.body]); }
  };
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url, protocols) { super(url, protocols); window.pageSockets.push(this); }
  };
}
"""
#: The page's own message that the student looked elsewhere (or came back), as textual.js sends it.
TELL_FOCUS = "kind => window.pageSockets[0].send(JSON.stringify([kind]))"
#: Enter, then the terminal's report that the window lost the focus (xterm's focus-out sequence), in one input:
#: Textual counts a key as the student being there, and reads the two in this order only when they come together
#: (a blur sent on its own may overtake the key, and the demo model's card comes at once).
ENTER_AND_LEAVE = """() => window.pageSockets[0].send(JSON.stringify(["stdin", "\\r\\u001b[O"]))"""


def open_page(
    browser: Any, url: str, width: int, height: int, touch: bool = False, density: float = 1
) -> tuple[Any, Screen]:
    """A page of the served app in a new browser window that allows notifications (a phone's touch screen with
    `touch`, a screen of `density` device pixels per CSS pixel); what its terminal gets."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch,
        device_scale_factor=density,
    )
    context.grant_permissions(["notifications"], origin=url.split("?")[0].rstrip("/"))
    context.add_init_script(RECORD_PAGE)
    page = context.new_page()
    screen = Screen()

    def watch(ws: Any) -> None:
        ws.on("framereceived", lambda p: screen.received.append(p) if isinstance(p, bytes) else None)
        ws.on("framesent", lambda p: screen.sent.append(p) if isinstance(p, str) else None)

    page.on("websocket", watch)
    page.goto(url)
    return page, screen


def wait_for(page: Any, screen: Screen, *texts: str, since: int = 0, within: float = START_S) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        shown = screen.text(since)
        if all(t in shown for t in texts):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"not shown within {within} s: {[t for t in texts if t not in shown]}\n{shown[-2000:]}")


def ask(page: Any, screen: Screen, question: str) -> int:
    """Go to 助手 with `2` and send `question` there, typed as keys; where the answer's frames start."""
    page.focus("textarea.xterm-helper-textarea")  # the keys go to the terminal (a click would be the app's)
    since = len(screen.received)
    page.keyboard.press("2")
    wait_for(page, screen, "发送", since=since)  # the chat's send button: the tab is up
    # The focus lands in the chat's box after the tab's next refresh (keys before it go elsewhere, as in a
    # terminal): a generous pause, and the question must then come back whole.
    page.wait_for_timeout(1500)
    since = len(screen.received)
    page.keyboard.type(question)
    page.keyboard.press("Enter")
    wait_for(page, screen, question, since=since)
    return since


def all_closed(served: Served) -> bool:
    """Whether every tab's app has ended, and its demo removed its folder, within the wait."""
    deadline = time.monotonic() + START_S
    while (processes_under(served.proc.pid) or demo_folders(served.tmp)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not processes_under(served.proc.pid) and not demo_folders(served.tmp)


def picture(page: Any, path: Path) -> Any:
    from PIL import Image

    page.screenshot(path=str(path))
    shown = os.environ.get("SERVE_SCREENSHOTS")
    if shown:
        Image.open(path).save(Path(shown) / f"serve-{path.stem}.png", optimize=True)
    return Image.open(path).convert("RGB")


def test_the_app_in_a_page_answers_and_its_tab_closing_quits_it(served: Served, browser: Any, tmp_path: Path) -> None:
    assert all_closed(served)
    page, screen = open_page(browser, served.url, 1280, 800)
    wait_for(page, screen, "首页", "助手", "校园活动")  # the dashboard's tabs and a widget of the demo
    assert screen.size()[0] >= 100  # the wide layout: two columns of widgets
    assert len(processes_under(served.proc.pid)) == 1  # one app for the tab
    since = ask(page, screen, "What is my card balance?")
    wait_for(page, screen, EN_MARK + "Your campus card has", "123.45", "spent today", since=since, within=ANSWER_S)
    shot = picture(page, tmp_path / "desktop.png")
    assert shot.size == (1280, 800) and len(shot.getcolors(1 << 24)) > 20  # drawn: text in several colours

    # The student looks elsewhere while the assistant asks to top up the card: the approval card calls them back
    # with a browser notification and a mark in the tab's title (设置 → 提醒), gone when they come back.
    typed = len(screen.received)
    page.keyboard.type("Top up my card with 50 yuan")
    wait_for(page, screen, "Top up my card with 50 yuan", since=typed)
    page.evaluate(ENTER_AND_LEAVE)  # sent, and the student looks at another window: the page tells the app so
    deadline = time.monotonic() + ANSWER_S
    while not page.evaluate("window.shownNotifications.length") and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    shown = page.evaluate("window.shownNotifications")
    assert shown == [[t("attention_approval", "zh"), "校园卡 · 校园卡充值"]], screen.text(typed)[-3000:]
    assert page.title() == t("attention_window", "zh").format(what=t("attention_window_approval", "zh"))
    page.evaluate(TELL_FOCUS, "focus")  # back
    page.wait_for_function("document.title === 'PKU harness'", timeout=ANSWER_S * 1000)
    opened = len(screen.received)
    page.keyboard.press("Control+p")  # the palette (the page keeps the key from the browser's print)
    wait_for(page, screen, t("palette_search", "zh"), since=opened)

    assert len(demo_folders(served.tmp)) == 1  # the tab's demo keeps its data in its own throw-away folder
    page.context.close()  # the tab closes: its app quits as with `q` (the demo removes its folder: a kill would not)
    assert all_closed(served)
    assert served.proc.poll() is None  # the server goes on for other tabs


def test_the_phone_frame_holds_the_narrow_app(served: Served, browser: Any, tmp_path: Path) -> None:
    page, screen = open_page(browser, served.url + "?phone=1", 390, 844, touch=True)
    wait_for(page, screen, "首页", "助手", "校园卡")
    box = page.locator("#terminal").bounding_box()
    assert (box["width"], box["height"]) == (390, 844)  # a window as small as the phone: all of it
    width, _ = screen.size()
    assert 30 <= width < SMALL_ONLY  # the app's narrow layout: one column of small widgets
    since = ask(page, screen, "校园卡余额多少？")
    wait_for(page, screen, ZH_MARK + "校园卡余额", "123.45", since=since, within=ANSWER_S)
    tapped = len(screen.received)
    page.touchscreen.tap(135, 27)  # a finger on 插件 in the tab bar (second row, columns 13-16)
    wait_for(page, screen, "添加插件", since=tapped)
    tapped = len(screen.received)
    page.touchscreen.tap(20, 27)  # and on 首页 (first columns): the dashboard, for the picture below
    wait_for(page, screen, "校园活动", since=tapped)

    page.set_viewport_size({"width": 1000, "height": 1000})  # a desktop's window: the phone in its bezel
    page.wait_for_timeout(500)
    screen_box = page.locator(".phone-screen").bounding_box()
    assert (screen_box["width"], screen_box["height"]) == (390, 844)
    shot = picture(page, tmp_path / "phone.png")
    assert shot.getpixel((5, 5)) == (0xD8, 0xDE, 0xE4)  # the page around the phone
    assert shot.getpixel((500, 70)) == (0x11, 0x14, 0x18)  # the bezel above the screen
    assert len(shot.crop((305, 78, 695, 922)).getcolors(1 << 24)) > 20  # the app drawn on the screen
    page.context.close()
    assert all_closed(served)


#: The footer's colours in the default theme: its background, and its keys' (`q`, `^p`).
FOOTER, FOOTER_KEY = (0x24, 0x2F, 0x38), (0xFF, 0xA6, 0x2B)
#: What the terminal's canvases measure, in CSS and in device pixels.
CANVASES = """() => [...document.querySelectorAll('#terminal canvas')].map(c => {
  const box = c.getBoundingClientRect();
  return [box.x, box.y, box.width, box.height, c.width, c.height];
})"""


@pytest.mark.parametrize(
    ("width", "height", "touch", "densities"),
    [(390, 844, True, (2, 3)), (1280, 800, False, (2,))],
    ids=["phone", "desktop"],
)
def test_a_dense_screen_shows_the_whole_app_crisp(
    served: Served, browser: Any, tmp_path: Path, width: int, height: int, touch: bool, densities: tuple[int, ...]
) -> None:
    """A phone's or a Retina laptop's screen (2 or 3 device pixels to the CSS pixel): the terminal's canvases have
    that many pixels, and the whole app is on them, from the tab bar to the footer's right end (Chromium's
    emulated density once drew it 2-3x too big, its top-left corner only)."""
    for density in densities:
        page, screen = open_page(browser, served.url + ("?phone=1" if touch else ""), width, height, touch, density)
        wait_for(page, screen, "首页", "助手", "插件", "设置", "命令面板")  # the tab bar and the footer, sent
        page.wait_for_timeout(500)  # drawn
        canvases = page.evaluate(CANVASES)
        assert canvases and all(
            abs(c[4] - round(c[2] * density)) <= 1 and abs(c[5] - round(c[3] * density)) <= 1 for c in canvases
        ), canvases
        x, y, w, h = (round(v * density) for v in canvases[0][:4])
        shot = picture(page, tmp_path / f"{'phone' if touch else 'desktop'}-dpr{density}.png")
        assert shot.size == (width * density, height * density)
        cell = round(h / screen.size()[1])
        footer = shot.crop((x, y + h - cell, x + w, y + h))  # the terminal's last row
        colours = {colour: n for n, colour in footer.getcolors(1 << 24)}
        assert colours.get(FOOTER, 0) > footer.width * footer.height // 2, sorted(colours.items())[-5:]
        right = footer.crop((footer.width * 3 // 4, 0, footer.width, footer.height))  # ^p, at the right end
        assert any(colour == FOOTER_KEY for _, colour in right.getcolors(1 << 24))
        top = shot.crop((x, y, x + w, y + 2 * cell))  # the title and the tab bar: all of it, 设置 the last
        assert len(top.getcolors(1 << 24)) > 8
        page.context.close()
    assert all_closed(served)


def test_the_page_says_a_demo_ended_and_the_server_stopped(tmp_path: Path, browser: Any) -> None:
    """`q` ends the tab's demo: the page says the demo kept nothing (not "everything is saved"); 重新打开 starts
    another. Once the server stops, the page says so, and 重新打开 says it again rather than leaving for the
    browser's "can't be reached"."""
    served = start(tmp_path, "--demo")
    try:
        page, screen = open_page(browser, served.url, 800, 600)
        wait_for(page, screen, "首页", "助手")
        page.focus("textarea.xterm-helper-textarea")
        page.keyboard.press("q")
        page.wait_for_selector(".closed-dialog .ended", state="visible", timeout=START_S * 1000)
        assert page.inner_text(".closed-dialog .ended") == t("web_ended_demo", "zh")
        assert not page.is_visible(".closed-dialog .stopped")
        since = len(screen.received)
        page.click(".closed-dialog button")
        wait_for(page, screen, "首页", "助手", since=since)  # another demo
        assert not page.is_visible(".closed-dialog")
    finally:
        served.stop()
    page.wait_for_selector(".closed-dialog .stopped", state="visible", timeout=START_S * 1000)
    assert page.inner_text(".closed-dialog .stopped") == t("web_stopped", "zh")
    assert not page.is_visible(".closed-dialog .ended")
    page.click(".closed-dialog button")  # the server is gone: the page stays, saying so
    page.wait_for_timeout(1000)
    assert page.url.startswith(served.url) and page.is_visible(".closed-dialog .stopped")
    picture(page, tmp_path / "stopped.png")
    page.context.close()


def test_export_in_a_page_is_a_download(served: Served, browser: Any, tmp_path: Path) -> None:
    """Ctrl+S in 助手 in a page hands the conversation to the browser as a download (written on the server's
    machine it was out of reach of a phone), and says so."""
    page, screen = open_page(browser, served.url, 1280, 800)
    downloads: list[Any] = []
    page.context.on("page", lambda tab: tab.on("download", lambda d: downloads.append(d)))  # textual.js opens a tab
    page.on("download", lambda d: downloads.append(d))
    wait_for(page, screen, "首页", "助手")
    since = ask(page, screen, "What is my card balance?")
    wait_for(page, screen, "123.45", since=since, within=ANSWER_S)
    since = len(screen.received)
    page.keyboard.press("Control+s")
    wait_for(page, screen, "交给浏览器下载", since=since)
    deadline = time.monotonic() + ANSWER_S
    while not downloads and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert downloads, "no download"
    saved = tmp_path / downloads[0].suggested_filename
    downloads[0].save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert saved.suffix == ".md" and "What is my card balance?" in text and "123.45" in text
    assert not (ROOT / saved.name).exists()  # not written on the server (the demo wrote it in its folder)
    page.context.close()
    assert all_closed(served)


def test_an_app_that_cannot_start_ends_its_session(tmp_path: Path) -> None:
    """A damaged data folder: the app exits at once (its sentence on the server's terminal), and the page's
    connection closes, so the page says the session ended instead of starting for ever."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import aiohttp

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "pku-harness.sqlite3").write_bytes(b"not a database" * 100)
    served = start(tmp_path)  # the student's own data, not the demo

    async def session() -> aiohttp.WSMessage:
        async with aiohttp.ClientSession() as client, client.ws_connect(served.url + "ws") as ws:
            return await asyncio.wait_for(ws.receive(), START_S)

    try:  # on a thread of its own: Playwright's loop may be running on this one (the browser tests' fixture)
        with ThreadPoolExecutor(1) as thread:
            message = thread.submit(asyncio.run, session()).result()
    finally:
        err = served.stop()
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert "pku-harness.sqlite3" in err  # the app's own sentence, relayed to the server's terminal


def test_two_tabs_at_once_are_two_apps_on_one_data_folder(tmp_path: Path) -> None:
    """Each browser session is an app process of its own, both on the student's data folder (the store takes
    concurrent writers); closing them quits both, and the database is whole afterwards."""
    import asyncio
    import sqlite3
    from concurrent.futures import ThreadPoolExecutor

    import aiohttp

    served = start(tmp_path)
    shown: list[str] = []

    async def tabs() -> None:
        async with aiohttp.ClientSession() as client:
            sockets = [await client.ws_connect(served.url + "ws?width=100&height=30") for _ in range(2)]
            for ws in sockets:
                seen = b""
                while "首页" not in ESCAPES.sub("", seen.decode("utf-8", "replace")):
                    message = await asyncio.wait_for(ws.receive(), START_S)
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    seen += message.data
            shown.append(str(len(processes_under(served.proc.pid))))
            for ws in sockets:
                await ws.close()  # the tab closes

    try:
        with ThreadPoolExecutor(1) as thread:  # Playwright's loop may be running on this one
            thread.submit(asyncio.run, tabs()).result()
        assert shown == ["2"]
        assert all_closed(served)
    finally:
        print(served.stop())  # the apps' own words, shown when the test fails
    with sqlite3.connect(tmp_path / "data" / "pku-harness.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_link_a_screen_opens_comes_up_in_a_new_tab(tmp_path: Path, browser: Any) -> None:
    """A plugin screen's `openUrl` (its `browser.open` ability) opens a new tab of the student's browser."""
    from tests.app.test_open_url import link_plugin

    served = start(tmp_path, "--demo", "--with", str(link_plugin(tmp_path / "links", declared=True)))
    try:
        page, screen = open_page(browser, served.url, 1280, 800)
        page.context.route("https://lib.example.org/**", lambda route: route.fulfill(body="<p>new books</p>"))
        wait_for(page, screen, "首页", "助手")
        page.focus("textarea.xterm-helper-textarea")
        since = len(screen.received)
        page.keyboard.press("Control+p")
        wait_for(page, screen, t("palette_search", "zh"), since=since)
        since = len(screen.received)
        page.keyboard.type("链接")
        wait_for(page, screen, "链接", since=since)
        page.wait_for_timeout(500)
        since = len(screen.received)
        page.keyboard.press("Enter")
        wait_for(page, screen, "打开新书", since=since)  # the plugin's screen, its button focused
        page.wait_for_timeout(500)
        with page.context.expect_page(timeout=ANSWER_S * 1000) as opened:
            page.keyboard.press("Enter")
        tab = opened.value
        tab.wait_for_load_state()
        assert tab.url == "https://lib.example.org/new?q=%E4%BA%8C"
        # and the address is said: the app draws its toast after it has asked the browser to open the tab, so the
        # toast may come after the tab (the toast may wrap the address, so only its words are looked for)
        wait_for(page, screen, t("opened_url", "zh"), since=since, within=ANSWER_S)
        assert len(page.context.pages) == 2  # a new tab: the app's page stays
    finally:
        print(served.stop())
