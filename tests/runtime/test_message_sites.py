"""Real raise sites of the runtime: `str(e)` is the English sentence it always was (logs, the CLI, the model read
it) and `say_error(e, "zh")` is the Chinese a Chinese screen shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.runtime.campus.iaaa import LoginError, password_login
from tui.runtime.campus.net import CampusNet
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.totp import BadSecret, normalise_secret
from tui.runtime.campus.vault import FileVault, MemoryVault, VaultError
from tui.runtime.flows import cross_plugin_refusal
from tui.runtime.message import Message, say, say_error
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.plugins.review import OFFICIAL_REPO
from tui.runtime.runtime import Runtime
from tui.runtime.scheduler.checks import Checks
from tui.runtime.secrets import Secrets
from tui.runtime.store import Store

#: The accepted link forms as the refusals have always listed them.
FORMS_EN = (
    "a GitHub folder (https://github.com/OWNER/REPO/tree/REF/PATH), "
    "a GitHub repository (https://github.com/OWNER/REPO, PLUGIN.md at its root), "
    "a GitHub file (https://github.com/OWNER/REPO/blob/REF/PATH/PLUGIN.md), "
    "any https:// URL ending in /PLUGIN.md, "
    "pkuharness://plugin?src=<one of those, URL-encoded>, "
    "or a local plugin folder"
)


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


def test_a_bad_install_link(runtime: Runtime) -> None:
    link = "https://example.com/plugins/notes"
    with pytest.raises(InstallError) as caught:
        Installer(runtime, PluginFetcher(transport=FakeGitHub().transport())).prepare(link)
    assert str(caught.value) == f"{link}: a URL must point at a PLUGIN.md file; accepted: {FORMS_EN}"
    zh = say_error(caught.value, "zh")
    assert zh.startswith(f"{link}：网址必须指向一个 PLUGIN.md 文件；可以填：GitHub 文件夹（https://github.com/")
    assert zh.endswith("或本地插件文件夹") and "a GitHub" not in zh
    assert say_error(caught.value, "en") == str(caught.value)


def test_an_installer_refusal_of_a_plugin_imitating_the_official_mark(runtime: Runtime) -> None:
    github = FakeGitHub()
    files = plugin_files()
    files["PLUGIN.md"] = (
        files["PLUGIN.md"].replace("name: 笔记", "name: 官方笔记").replace("author: tests", "author: pkuinfo")
    )
    github.push("someone", "plugins", files, prefix="plugins/notes/")
    link = "https://github.com/someone/plugins/tree/main/plugins/notes"
    with pytest.raises(InstallError) as caught:
        Installer(runtime, PluginFetcher(transport=github.transport())).prepare(link)
    assert str(caught.value) == (
        f"{link} is a community plugin, but its name '官方笔记' uses the word 官方; its author 'pkuinfo' uses the "
        f"name 'pkuinfo': only plugins built into the app or from {OFFICIAL_REPO} carry the official mark, so this "
        "one is refused (its author can give it an id, a name and an author of their own)"
    )
    assert say_error(caught.value, "zh") == (
        f"{link} 是社区插件，但它的 name '官方笔记' 用了「官方」二字；它的 author 'pkuinfo' 用了名字 'pkuinfo'："
        f"只有 App 内置的插件和来自 {OFFICIAL_REPO} 的插件才有官方标记，所以拒绝安装"
        "（作者可以给它起自己的 id、名称和作者名）"
    )


def test_an_update_outcome_is_said_too(runtime: Runtime) -> None:
    github = FakeGitHub()
    github.push("someone", "plugins", plugin_files(), prefix="plugins/notes/")
    inst = Installer(runtime, PluginFetcher(transport=github.transport()))
    inst.install(inst.prepare("https://github.com/someone/plugins/tree/main/plugins/notes"))
    outcome = inst.check("notes")
    assert outcome.message == "notes 1.0.0 is up to date"
    assert say(outcome.message, "zh") == "notes 1.0.0 已是最新"


def test_a_wrong_vault_password(tmp_path: Path) -> None:
    path = tmp_path / "vault.json"
    FileVault(path).unlock("the right one")
    with pytest.raises(VaultError) as caught:
        FileVault(path).unlock("a wrong one")
    assert str(caught.value) == f"wrong password for {path}"
    assert say_error(caught.value, "zh") == f"{path} 的密码不对"


def test_a_bad_totp_secret() -> None:
    with pytest.raises(BadSecret) as caught:
        normalise_secret("not base32 at all!")
    assert str(caught.value) == "the mobile-token secret is not base32 (letters A-Z and digits 2-7)"
    assert say_error(caught.value, "zh") == "手机令牌密钥不是 base32（只能有字母 A-Z 和数字 2-7）"


def failing_net(error: type[httpx.TransportError] | None = None, status: int = 200) -> CampusNet:
    def answer(request: httpx.Request) -> httpx.Response:
        if error is not None:
            raise error("no route", request=request)
        return httpx.Response(status)

    return CampusNet(transport=httpx.MockTransport(answer))


@pytest.mark.parametrize(
    ("net", "english", "chinese"),
    [
        (lambda: failing_net(httpx.ConnectError), "cannot reach IAAA (ConnectError)", "连不上 IAAA（ConnectError）"),
        (lambda: failing_net(httpx.ConnectTimeout), "IAAA did not answer in time", "IAAA 没有及时回应"),
        (
            lambda: failing_net(status=503),
            "IAAA answered HTTP 503 to the public-key request; try again later",
            "IAAA 对获取公钥的请求返回了 HTTP 503；请稍后再试",
        ),
    ],
    ids=["unreachable", "timeout", "http-503"],
)
async def test_an_iaaa_network_failure(net: object, english: str, chinese: str) -> None:
    with pytest.raises(LoginError) as caught:
        await password_login(net(), "PKU Helper", "https://treehole.pku.edu.cn/x", "2100012345", "pw", None)  # type: ignore[operator]
    assert caught.value.kind in ("network", "server")
    assert str(caught.value) == english and say_error(caught.value, "zh") == chinese


async def test_a_login_without_stored_credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PKU_USERNAME", raising=False)
    monkeypatch.delenv("PKU_PASSWORD", raising=False)
    store = Store(tmp_path / "app.sqlite3")
    try:
        with pytest.raises(LoginError) as caught:
            await CampusSession(store, Secrets(), MemoryVault()).login("treehole")
    finally:
        store.close()
    assert caught.value.kind == "missing"
    # The service is named in the reader's language: no Chinese title inside the English sentence.
    assert str(caught.value) == "no stored campus login for Treehole: please log in"
    assert say_error(caught.value, "en") == "no stored campus login for Treehole: please log in"
    assert say_error(caught.value, "zh") == "没有保存树洞的校园账号：请先登录"


def test_the_cross_plugin_refusal_of_a_scheduled_task() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    refusal = cross_plugin_refusal("search.web", "search", True, schema, {"q": "高等数学 92"}, ["marks"], "看看成绩")
    assert isinstance(refusal, Message)
    assert refusal == (
        "a scheduled task may not pass text the model wrote ('高等数学 92') into a network request of another "
        "plugin: results of marks are in this task, and search.web (search) sends requests"
    )
    assert say(refusal, "zh") == (
        "定时任务不能把模型写的文字（'高等数学 92'）放进另一个插件的网络请求：这个任务里已经有 marks 的结果，"
        "而 search.web（search）会发送请求"
    )


def test_a_check_refused_as_it_is_made(runtime: Runtime) -> None:
    with pytest.raises(ValueError) as caught:
        Checks(runtime.store).add("余额", "every 0m", tool="card.balance")
    assert str(caught.value) == "a check runs at most once a minute"
    assert say_error(caught.value, "zh") == "定时检查最多每分钟运行一次"
