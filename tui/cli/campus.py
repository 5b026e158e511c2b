"""`pku-harness login | logout | status`: the campus session from the command line.

Passwords are read with hidden prompts (or PKU_USERNAME / PKU_PASSWORD for scripts), never as arguments.
`login mcp-<id>` and `logout mcp-<id>` are for a remote plugin's server instead (remote_login.py).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from datetime import datetime

import click

from tui.cli.output import ask, cells, echo, fail, line, pad, usage_error
from tui.cli.remote_login import is_remote, login_remote, logout_remote
from tui.runtime.campus.iaaa import LoginError, OtpBinding, QrLogin
from tui.runtime.campus.qr_image import draw
from tui.runtime.campus.services import SERVICES, UnsupportedService, service
from tui.runtime.campus.session import ENV_PASSWORD, CampusSession, choose_vault, forget_vault_file
from tui.runtime.campus.totp import BadSecret
from tui.runtime.campus.vault import FileVault, VaultError
from tui.runtime.runtime import Runtime
from tui.runtime.settings import read_setting, write_setting

QR_POLLS, QR_EVERY = 60, 3.0  # about three minutes, as the official page waits (campus.md §2.2)
STATES = {
    "logged_in": "logged in",
    "expired": "expired (logs in again by itself when a password is stored)",
    "logged_out": "not logged in",
    "verification": "logged in; treehole waits for a verification code",
    "unsupported": "not supported yet",
}


#: What to do about a chosen vault file no password can open.
VAULT_ADVICE = (
    "`pku-harness logout --forget-vault` stops using it, or `pku-harness login --vault-file PATH` chooses a file "
    "(a new one is made when none is there)"
)


def _session(runtime: Runtime, vault_file: str | None, needs_vault: bool = True) -> CampusSession:
    """The runtime's campus session with its vault open: a chosen file is unlocked with a hidden prompt.

    A file given with --vault-file is remembered only once its password opened it (an aborted prompt or a wrong
    password changes nothing). A remembered file that is missing or is not a vault file stops the commands that
    need it (`needs_vault`) with what to do; the others say so and go on without its secrets.
    """
    session = runtime.campus
    if vault_file:
        chosen = FileVault(os.path.abspath(vault_file))
        _unlock(chosen)
        write_setting(runtime.store, "campus.vaultFile", str(chosen.path))
        session.use_vault(chosen)
    vault = session.vault
    if isinstance(vault, FileVault) and vault.locked:
        problem = vault.problem()
        if problem is None:
            _unlock(vault)
        elif needs_vault:
            raise fail(f"{problem}: {VAULT_ADVICE}")
        else:
            echo(f"note: {problem}, so the secrets kept there cannot be read: {VAULT_ADVICE}", err=True)
    if session.vault_note:
        echo(f"note: {session.vault_note}", err=True)
    return session


def _unlock(vault: FileVault) -> None:
    new = not vault.path.exists()
    password = ask(f"password for the vault file {vault.path}", hide_input=True, confirmation_prompt=new)
    try:
        vault.unlock(password)
    except VaultError as e:
        raise fail(str(e)) from None


@click.command("login")
@click.argument("service_name", metavar="[SERVICE]", required=False)
@click.option("--user", "username", help="Student or staff id (asked when not given).")
@click.option("--remember/--no-remember", default=True, show_default=True, help="Keep the password in the vault.")
@click.option("--qr", is_flag=True, help="Scan a QR code with the 北京大学 app instead of typing the password.")
@click.option("--otp-secret", is_flag=True, help="Enter an existing mobile-token secret (base32, hidden).")
@click.option("--bind-otp", is_flag=True, help="Bind a new mobile token through IAAA (a code is texted to you).")
@click.option("--vault-file", type=click.Path(dir_okay=False), help="Keep secrets in this password-protected file.")
@click.option(
    "--timeout",
    type=click.FloatRange(1, 3600),
    default=300,
    show_default=True,
    help="For mcp-ID with OAuth: seconds to wait for the browser to come back.",
)
def login(
    service_name: str | None,
    username: str | None,
    remember: bool,
    qr: bool,
    otp_secret: bool,
    bind_otp: bool,
    vault_file: str | None,
    timeout: float,
) -> None:
    """Log in to campus services (every one your plugins use, or SERVICE), or to a remote plugin's server (mcp-ID).

    A remote server's bearer token is read from a hidden prompt, or from standard input when it is not a terminal;
    OAuth opens the browser."""
    if is_remote(service_name):
        if username or qr or otp_secret or bind_otp or vault_file:
            raise usage_error("--user, --qr, --otp-secret, --bind-otp and --vault-file are for campus services")
        login_remote(str(service_name), timeout)
        return
    runtime = Runtime.open()
    try:
        session = _session(runtime, vault_file)
        if service_name:
            try:
                service(service_name)
            except UnsupportedService as e:
                raise fail(str(e)) from None
        if otp_secret:
            _enter_secret(session)
            return
        if bind_otp:
            asyncio.run(_bind(session, username))
            return
        names = [service_name] if service_name else runtime.campus_services()
        if qr:
            asyncio.run(_qr(session, names))
            return
        asyncio.run(_password(session, names, username, remember))
    finally:
        runtime.close()


def _credentials(session: CampusSession, username: str | None) -> tuple[str, str]:
    user = username or ask("student id", default=session.username() or None)
    password = os.environ.get(ENV_PASSWORD) or ask("IAAA password", hide_input=True)
    return str(user).strip(), password


async def _password(session: CampusSession, names: list[str], username: str | None, remember: bool) -> None:
    user, password = _credentials(session, username)
    code: str | None = None
    sms: str | None = None
    failed = 0
    for name in names:
        try:
            await session.login(name, user, password, code, sms)
        except LoginError as e:
            asked = await _second_factor(session, name, user, e) if code is None and sms is None else None
            if asked is not None:  # the account has a second factor: ask for its code once
                code, sms = asked
                try:
                    await session.login(name, user, password, code, sms)
                except LoginError as again:
                    e = again
                else:
                    echo(f"{name}: logged in")
                    continue
            failed += 1
            echo(f"{name}: {e}", err=True)
            if e.kind in ("password", "otp", "sms", "captcha", "activation"):
                break  # the same credentials fail everywhere: stop before IAAA locks the account
            continue
        echo(f"{name}: logged in")
    if failed < len(names):
        try:
            session.remember_account(user, password, remember)
        except VaultError as e:
            echo(f"note: the password is kept for this session only ({e})", err=True)
    await session.net.aclose()
    if failed:
        sys.exit(1)


async def _second_factor(
    session: CampusSession, name: str, user: str, e: LoginError
) -> tuple[str | None, str | None] | None:
    """(mobile-token code, SMS code) typed after IAAA asked for one (E05 / E04), or None for any other refusal.
    For SMS the code is texted first (IAAA asks for 60 s between texts: one text per `login`)."""
    if e.kind == "otp":
        return ask("mobile-token code (手机令牌)").strip(), None
    if e.kind != "sms":
        return None
    try:
        phone = await session.send_sms_code(name, user)
    except LoginError as not_sent:
        echo(f"{name}: {not_sent}", err=True)
        return None
    echo(f"IAAA texted a login code to {phone or 'your phone'}")
    return None, ask("SMS code (短信验证码)").strip()


def _enter_secret(session: CampusSession) -> None:
    secret = ask("mobile-token secret (base32)", hide_input=True)
    try:
        session.set_otp_secret(secret)
    except (BadSecret, VaultError) as e:
        raise fail(str(e)) from None
    echo("mobile token saved: logins and treehole's course check use it by themselves")


async def _bind(session: CampusSession, username: str | None) -> None:
    user, password = _credentials(session, username)
    binding = OtpBinding(session.net, user)
    try:
        mask = await binding.start(password)
        code = ask(f"the code texted to {mask or 'your phone'}").strip()
        bound = await binding.finish(code)
        session.set_otp_secret(bound["secret"], bound["personId"])
    except (LoginError, VaultError) as e:
        raise fail(str(e)) from None
    finally:
        await session.net.aclose()
    echo("mobile token bound and saved. Other authenticator apps can share it: pku-harness status --otp-uri")


async def _qr(session: CampusSession, names: list[str]) -> None:
    """One QR code per service: IAAA's QR token is for one app (`targetAppId`), so each service needs its scan."""
    iaaa = [n for n in names if service(n).app_id is not None and service(n).redirect is not None]
    if not iaaa:
        raise fail(f"{names[0]} has its own login; QR login is for IAAA services")
    try:
        for number, name in enumerate(iaaa, 1):
            svc = service(name)
            assert svc.app_id is not None and svc.redirect is not None
            flow = QrLogin(session.net, svc.app_id, svc.redirect.format(device=session.device()))
            echo("\n".join(draw(await flow.start())[0]))  # light blocks: right for a dark terminal
            each = f" ({number} of {len(iaaa)}: a scan logs in one service, so each needs its own)"
            each = each if len(iaaa) > 1 else ""
            echo(f"scan it with the 北京大学 app and confirm there, for {name}{each}…", err=True)
            if not await _scanned(session, flow, name):
                raise fail("the QR code was not confirmed within three minutes")
            echo(f"{name}: logged in")
    except LoginError as e:
        raise fail(str(e)) from None
    finally:
        await session.net.aclose()


async def _scanned(session: CampusSession, flow: QrLogin, name: str) -> bool:
    for _ in range(QR_POLLS):
        token = await flow.poll()
        if token:
            await session.login_with_token(name, token)
            return True
        await asyncio.sleep(QR_EVERY + (time.time() % 0.5))  # 3.0–3.5 s, as the official page polls
    return False


@click.command("logout")
@click.argument("service_name", metavar="[SERVICE]", required=False)
@click.option("--forget-password", is_flag=True, help="Also remove the stored student id and password.")
@click.option("--forget-token", is_flag=True, help="Also remove the mobile-token secret.")
@click.option(
    "--forget-vault",
    is_flag=True,
    help="Stop using the file chosen with login --vault-file (it is left as it is; no password needed): secrets "
    "are kept in the keyring again. Given alone.",
)
def logout(service_name: str | None, forget_password: bool, forget_token: bool, forget_vault: bool) -> None:
    """Forget campus sessions (all, or SERVICE), or with --forget-vault the choice of a vault file; `logout mcp-ID`
    forgets a remote plugin's server login (its token, OAuth tokens and client registration)."""
    if is_remote(service_name):
        if forget_password or forget_token or forget_vault:
            raise usage_error("--forget-password, --forget-token and --forget-vault are for campus services")
        logout_remote(str(service_name))
        return
    if forget_vault and (service_name or forget_password or forget_token):
        raise usage_error("--forget-vault goes alone (then log out of what the keyring holds, if you want to)")
    runtime = Runtime.open()
    try:
        if forget_vault:
            _forget_vault(runtime)
            return
        session = _session(runtime, None)
        if service_name and service_name not in SERVICES:
            raise fail(f"{service_name!r} is not a campus service")
        session.logout(service_name, forget_account=forget_password)
        if forget_token:
            session.set_otp_secret(None)
        echo(f"logged out of {service_name or 'every campus service'}")
    finally:
        runtime.close()


def _forget_vault(runtime: Runtime) -> None:
    chosen = read_setting(runtime.store, "campus.vaultFile")
    if not chosen:
        echo("no vault file was chosen: secrets are kept in the keyring (or in memory without one)")
        return
    forget_vault_file(runtime.store)
    now = choose_vault(runtime.store).kind
    echo(f"stopped using the vault file {chosen} (it is left as it is); secrets are kept in {now} from now on")


@click.command("status")
@click.option("--otp-uri", is_flag=True, help="Print the mobile token's otpauth:// link (it contains the secret).")
def status(otp_uri: bool) -> None:
    """Campus login state of every service, and where secrets are kept."""
    from tui.runtime.campus.totp import otpauth_uri

    runtime = Runtime.open()
    try:
        session = _session(runtime, None, needs_vault=False)
        user = session.username()
        stored = "yes" if session.account() else "no"
        token = "bound" if session.otp_secret() else "no"
        line(
            f"account: {user or '(none)'}  password stored: {stored}  mobile token: {token}  "
            f"secrets in: {session.vault.kind}"
        )
        rows = session.status()
        name_w, title_w = max(cells(r.name) for r in rows), max(cells(r.title) for r in rows)
        for row in rows:
            until = ""
            if row.expires_at and row.state == "logged_in":
                until = "  until " + datetime.fromtimestamp(row.expires_at).strftime("%Y-%m-%d %H:%M")
            line(f"{pad(row.name, name_w)}  {pad(row.title, title_w)}  {STATES[row.state]}{until}")
        secret = session.otp_secret()
        if otp_uri and secret:
            echo(otpauth_uri(secret, user or "student"))
    finally:
        runtime.close()
