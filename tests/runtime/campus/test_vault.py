"""Where secrets live: keyring (one JSON entry per name), a password-protected file, or memory with a warning."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from tui.runtime.campus.session import CampusSession, choose_vault
from tui.runtime.campus.vault import FileVault, KeyringVault, MemoryVault, VaultError, keyring_usable
from tui.runtime.secrets import Secrets
from tui.runtime.settings import write_setting
from tui.runtime.store import Store

from ...conftest import MemoryKeyring


def test_the_keyring_holds_one_json_entry_per_name(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    session = CampusSession(store, Secrets())
    assert isinstance(session.vault, KeyringVault) and session.vault_note is None
    session.remember_account("2100012345", "pw-secret-1", remember=True)
    session.set_otp_secret("JBSWY3DPEHPK3PXP")
    entries = {k[1]: json.loads(v) for k, v in memory_keyring.items.items() if k[0] == "pku-harness"}
    assert entries["campus:account"] == {"username": "2100012345", "password": "pw-secret-1"}
    assert entries["campus:otp"]["secret"] == "JBSWY3DPEHPK3PXP"
    store.db.commit()
    assert b"pw-secret-1" not in (tmp_path / "db.sqlite3").read_bytes()
    session.remember_account("2100012345", "pw-secret-1", remember=False)  # unticking "remember" forgets it
    assert "campus:account" not in {k[1] for k in memory_keyring.items}
    assert session.account() == ("2100012345", "pw-secret-1")  # for this session only
    store.close()


def test_no_keyring_means_memory_for_this_session_and_a_plain_message(tmp_path: Path) -> None:
    keyring.set_keyring(fail.Keyring())
    assert not keyring_usable()
    store = Store(tmp_path / "db.sqlite3")
    session = CampusSession(store, Secrets())
    assert isinstance(session.vault, MemoryVault)
    assert session.vault_note and "no usable keyring" in session.vault_note and "--vault-file" in session.vault_note
    session.remember_account("2100012345", "pw", remember=True)  # kept, but only in memory
    assert session.account() == ("2100012345", "pw")
    assert CampusSession(store, Secrets()).account() is None  # a restart has forgotten it: nothing on disk
    store.close()


def test_a_plaintext_keyring_backend_is_not_a_keyring() -> None:
    class PlaintextKeyring(MemoryKeyring):
        pass

    keyring.set_keyring(PlaintextKeyring())
    assert not keyring_usable()


def test_the_file_vault_is_encrypted_and_private(tmp_path: Path) -> None:
    path = tmp_path / "vault" / "campus.vault"
    vault = FileVault(path)
    with pytest.raises(VaultError, match="locked"):
        vault.get("account")
    vault.unlock("file password")
    vault.put("account", {"username": "2100012345", "password": "pw-in-file"})
    raw = path.read_bytes()
    assert b"pw-in-file" not in raw and b"2100012345" not in raw
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = FileVault(path)
    with pytest.raises(VaultError, match="wrong password"):
        again.unlock("guess")
    again.unlock("file password")
    assert again.get("account") == {"username": "2100012345", "password": "pw-in-file"}
    again.delete("account")
    assert again.get("account") is None


def test_the_chosen_file_vault_wins_over_the_keyring(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    write_setting(store, "campus.vaultFile", str(tmp_path / "my.vault"))
    vault = choose_vault(store)
    assert isinstance(vault, FileVault) and vault.locked
    store.close()


def test_what_no_password_can_open_is_named_before_asking(tmp_path: Path) -> None:
    vault = FileVault(tmp_path / "v.vault")
    assert vault.problem() == f"the vault file {vault.path} is missing"
    vault.unlock("pw")
    assert vault.problem() is None  # a real vault file: only the password decides
    for text in ("not json", '{"salt": 1}', "[]"):
        vault.path.write_text(text, "utf-8")
        assert vault.problem() == f"{vault.path} is not a vault file"
    assert "cannot be read" in str(FileVault(tmp_path).problem())  # a folder


def test_forgetting_the_vault_file_goes_back_to_the_keyring(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    from tui.runtime.campus.session import forget_vault_file

    store = Store(tmp_path / "db.sqlite3")
    write_setting(store, "campus.vaultFile", str(tmp_path / "v.vault"))
    assert isinstance(choose_vault(store), FileVault)
    forget_vault_file(store)
    assert isinstance(choose_vault(store), KeyringVault)
