"""The runtime's message table: both languages for every key, the same placeholders in both, Chinese without
English sentences, and no key nobody says."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from tests.app import test_one_language as one_language
from tui.runtime import messages as tables
from tui.runtime.message import MESSAGES

ROOT = Path(__file__).resolve().parents[2] / "tui"
#: Three English words in a row make a sentence (a product name, a path or a command is one token, or not a word).
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
#: Words that may stand together in Chinese text: the product's name.
NAMES = {"pku", "harness"}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def english_runs(text: str) -> list[str]:
    """Runs of three or more English words, placeholders left out (the one-language check's rule)."""
    return one_language.english_runs(re.sub(r"\{[^}]*\}", " ", text), NAMES)


def problems(table: dict[str, dict[str, str]]) -> list[str]:
    found = []
    for key, entry in table.items():
        zh, en = entry.get("zh"), entry.get("en")
        if not zh or not en:
            found.append(f"{key}: needs both zh and en")
            continue
        if placeholders(zh) != placeholders(en):
            found.append(f"{key}: placeholders {sorted(placeholders(zh))} in zh, {sorted(placeholders(en))} in en")
        if runs := english_runs(zh):
            found.append(f"{key}: English in zh: {runs}")
        if not CJK.search(zh):
            found.append(f"{key}: zh has no Chinese")
    return found


def test_the_checks_can_fail() -> None:
    bad = {
        "one": {"zh": "只有中文"},
        "two": {"zh": "没有 {name}", "en": "there is no {thing}"},
        "three": {"zh": "the plugin was refused", "en": "the plugin was refused"},
    }
    assert problems(bad) == [
        "one: needs both zh and en",
        "two: placeholders ['name'] in zh, ['thing'] in en",
        "three: English in zh: ['the plugin was refused']",
        "three: zh has no Chinese",
    ]
    assert english_runs("{link}：网址必须指向一个 PLUGIN.md 文件；请用 `plugins update {id}` 更新") == []


def test_every_message_has_both_languages_with_the_same_placeholders_and_chinese_without_english() -> None:
    assert problems(MESSAGES) == []


def test_no_key_is_defined_in_two_tables() -> None:
    """Every module of tui.runtime.messages is merged, and no key twice (the merge refuses a repeat)."""
    import importlib
    import pkgutil

    parts = [importlib.import_module(f"{tables.__name__}.{m.name}") for m in pkgutil.iter_modules(tables.__path__)]
    assert sum(len(p.MESSAGES) for p in parts) == len(MESSAGES)


def used(key: str, sources: str) -> bool:
    """The key is said somewhere: written out (`Message("key"`, `"key" if … else`), or built from its prefix
    (`f"effect_{…}"`)."""
    prefix = key.rsplit("_", 1)[0]
    return f'"{key}"' in sources or f'f"{prefix}_{{' in sources


@pytest.fixture(scope="module")
def sources() -> str:
    files = [p for p in ROOT.rglob("*.py") if "messages" not in p.relative_to(ROOT).parts]
    return "\n".join(p.read_text("utf-8") for p in files)


def test_the_dead_key_check_can_fail(sources: str) -> None:
    assert used("campus_no_login", sources) and used("effect_money", sources)
    assert not used("nobody_says_this", sources)


def test_every_key_is_said_somewhere(sources: str) -> None:
    assert [key for key in MESSAGES if not used(key, sources)] == []
