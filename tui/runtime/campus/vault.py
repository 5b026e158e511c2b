"""Where campus secrets live: the OS keyring, or — only when the student chooses — a password-protected file,
or memory for this session. Never a silent plaintext fallback (threats.md S1).

Entries are JSON objects under one name each: `account` (student id, password), `otp` (the mobile-token
secret), `session:<service>` (that service's token, cookies and expiry).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from pathlib import Path
from typing import Any, Protocol

from tui.runtime.message import Message

KEYRING_SERVICE = "pku-harness"

NO_KEYRING = (
    "no usable keyring (e.g. a headless Linux without Secret Service): campus logins are kept in memory for "
    "this session only. To keep them, install and unlock a keyring (gnome-keyring, KeePassXC), or choose a "
    "password-protected file: pku-harness login --vault-file PATH."
)


class VaultError(Exception):
    """The vault cannot be read or written (locked, wrong password, keyring refused); the message says why."""


def keyring_usable() -> bool:
    """True when the active keyring backend really stores secrets (not keyring's `fail` or a plaintext one)."""
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    name = type(backend).__module__ + "." + type(backend).__name__
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 1) <= 0:
        return False
    # keyrings.alt's plaintext file backend would be a silent plaintext fallback.
    return "PlaintextKeyring" not in name


class Vault(Protocol):
    """A small store of JSON secrets."""

    kind: str
    """keyring, file or memory."""

    def get(self, name: str) -> dict[str, Any] | None: ...

    def put(self, name: str, value: dict[str, Any]) -> None: ...

    def delete(self, name: str) -> None: ...


class KeyringVault:
    """Entries in the OS keyring under the service `pku-harness`, one per name."""

    kind = "keyring"

    def get(self, name: str) -> dict[str, Any] | None:
        import keyring
        from keyring.errors import KeyringError

        try:
            raw = keyring.get_password(KEYRING_SERVICE, f"campus:{name}")
        except KeyringError as e:
            raise VaultError(Message("vault_keyring_read", error=str(e))) from None
        return _parse(raw)

    def put(self, name: str, value: dict[str, Any]) -> None:
        import keyring
        from keyring.errors import KeyringError

        try:
            keyring.set_password(KEYRING_SERVICE, f"campus:{name}", json.dumps(value, ensure_ascii=False))
        except KeyringError as e:
            raise VaultError(Message("vault_keyring_save", error=str(e))) from None

    def delete(self, name: str) -> None:
        import keyring
        from keyring.errors import KeyringError, PasswordDeleteError

        try:
            keyring.delete_password(KEYRING_SERVICE, f"campus:{name}")
        except PasswordDeleteError:
            pass
        except KeyringError as e:
            raise VaultError(Message("vault_keyring_delete", error=str(e))) from None


class MemoryVault:
    """Secrets for this session only: gone when the app exits."""

    kind = "memory"

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def get(self, name: str) -> dict[str, Any] | None:
        value = self.items.get(name)
        return dict(value) if value is not None else None

    def put(self, name: str, value: dict[str, Any]) -> None:
        self.items[name] = dict(value)

    def delete(self, name: str) -> None:
        self.items.pop(name, None)


def _parse(raw: str | None) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# scrypt at n=2^15 takes ~0.1 s: slow enough to make guessing the file's password expensive, fast enough to open.
_SCRYPT = {"n": 2**15, "r": 8, "p": 1}


class FileVault:
    """All entries in one file, encrypted with AES-GCM under a key derived from the student's password (scrypt),
    written atomically with mode 0600. Locked until `unlock(password)`."""

    kind = "file"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._key: bytes | None = None
        self._salt: bytes | None = None
        self._items: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    @property
    def locked(self) -> bool:
        return self._key is None

    def problem(self) -> str | None:
        """Why no password can open the file — it is missing, cannot be read, or is not a vault file — or None,
        when only the password decides. Asked before asking for a password that could open nothing."""
        try:
            doc = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return f"the vault file {self.path} is missing"
        except OSError as e:
            return f"the vault file {self.path} cannot be read ({e.strerror or type(e).__name__})"
        except ValueError:
            return f"{self.path} is not a vault file"
        if not isinstance(doc, dict) or not all(isinstance(doc.get(k), str) for k in ("salt", "nonce", "data")):
            return f"{self.path} is not a vault file"
        return None

    def unlock(self, password: str) -> None:
        """Open the file (or start a new one) with `password`.

        Raises:
            VaultError: the password is wrong or the file is damaged.
        """
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if not password:
            raise VaultError(Message("vault_needs_password"))
        if not self.path.exists():
            self._salt = os.urandom(16)
            self._key = self._derive(password, self._salt, _SCRYPT)
            self._items = {}
            self._save()
            return
        try:
            doc = json.loads(self.path.read_text("utf-8"))
            salt = base64.b64decode(doc["salt"])
            key = self._derive(password, salt, doc.get("kdf", _SCRYPT))
            plain = AESGCM(key).decrypt(base64.b64decode(doc["nonce"]), base64.b64decode(doc["data"]), b"pku-harness")
        except InvalidTag:
            raise VaultError(Message("vault_wrong_password", path=str(self.path))) from None
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise VaultError(Message("vault_unreadable", path=str(self.path), kind=type(e).__name__)) from None
        self._salt, self._key = salt, key
        self._items = json.loads(plain)

    @staticmethod
    def _derive(password: str, salt: bytes, params: dict[str, int]) -> bytes:
        from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

        # The file names its own cost; capped, so a tampered file cannot make opening it take minutes.
        n, r, p = min(int(params["n"]), 2**20), min(int(params["r"]), 16), min(int(params["p"]), 4)
        return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(password.encode())

    def _save(self) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        assert self._key is not None and self._salt is not None
        nonce = os.urandom(12)
        data = AESGCM(self._key).encrypt(nonce, json.dumps(self._items, ensure_ascii=False).encode(), b"pku-harness")
        doc = {
            "v": 1,
            "kdf": _SCRYPT,
            "salt": base64.b64encode(self._salt).decode(),
            "nonce": base64.b64encode(nonce).decode(),
            "data": base64.b64encode(data).decode(),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _need_open(self) -> None:
        if self._key is None:
            raise VaultError(Message("vault_locked", path=str(self.path)))

    def get(self, name: str) -> dict[str, Any] | None:
        self._need_open()
        value = self._items.get(name)
        return dict(value) if value is not None else None

    def put(self, name: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._need_open()
            self._items[name] = dict(value)
            self._save()

    def delete(self, name: str) -> None:
        with self._lock:
            self._need_open()
            if self._items.pop(name, None) is not None:
                self._save()
