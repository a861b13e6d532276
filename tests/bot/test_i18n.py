"""The message catalogue (bot/i18n.py): both languages hold the same keys with the same
placeholders, plural forms follow each catalogue's rule, and Discord's and POSIX locales pick
the right one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir

from bot.i18n import LANGS, Lang, catalogue, has, lang_for, t, tc, tn
from engine import Rules

PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}|%\((\w+)\)[sd]")
ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"t": (2,), "tn": (2, 3), "tc": ((2, "c"), 3)}


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def forms(message: Message) -> list[str]:
    string = message.string
    return list(string) if isinstance(string, tuple | list) else [string]


def ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, ids(m)[0]) for m in catalog if m.id}


def entries(lang: Lang) -> Iterator[Message]:
    return (m for m in catalogue(lang) if m.id)


def test_both_languages_hold_the_same_keys() -> None:
    en, nb = keys(catalogue("en")), keys(catalogue("nb"))
    assert en - nb == set(), "missing in Norwegian"
    assert nb - en == set(), "missing in English"


@pytest.mark.parametrize("lang", LANGS)
def test_every_translation_and_plural_form_has_the_source_placeholders(lang: Lang) -> None:
    wrong = []
    for message in entries(lang):
        source = set().union(*(placeholders(i) for i in ids(message)))
        for form in filter(None, forms(message)):
            found = placeholders(form)
            if message.pluralizable:  # a form may say "one" for {n}
                found, expected = found - {"n"}, source - {"n"}
            else:
                expected = source
            if found != expected:
                wrong.append((message.id, form))
    assert wrong == []


def test_norwegian_translates_every_message_in_every_plural_form() -> None:
    untranslated = [m.id for m in entries("nb") if not all(forms(m))]
    assert untranslated == []
    assert catalogue("nb").num_plurals == 2


def test_every_message_the_code_asks_for_is_in_the_catalogue() -> None:
    """A message written in code but never added to the catalogues fails here, not in play."""
    asked: set[tuple[str | None, str]] = set()
    for folder in ("bot", "cogs"):
        for _file, _line, message, _comments, context in extract_from_dir(
                ROOT / folder, keywords=KEYWORDS, method_map=[("**.py", "python")]):
            asked.add((context, message if isinstance(message, str) else message[0]))
    assert asked - keys(catalogue("nb")) == set()


@pytest.mark.parametrize(("locale", "lang"), [
    ("no", "nb"), ("nb", "nb"), ("nn", "nb"), ("nb_NO.UTF-8", "nb"), ("nn_NO", "nb"),
    ("en-US", "en"), ("en-GB", "en"), ("sv-SE", "en"), ("C.UTF-8", "en"), ("", "en"),
    (None, "en"),
])
def test_norwegian_locales_read_bokmal_and_the_rest_english(locale: str | None,
                                                            lang: Lang) -> None:
    assert lang_for(locale) == lang


def test_placeholders_and_plural_forms_are_filled_by_the_library() -> None:
    assert tn("nb", "{n} trick", "{n} tricks", 1) == "1 stikk"
    assert tn("nb", "{n} card", "{n} cards", 3) == "3 kort"
    assert tn("en", "{n} card", "{n} cards", 1) == "1 card"
    assert tn("en", "{n} card", "{n} cards", 0) == "0 cards"
    assert tc("nb", "slash name", "bid") == "meld"
    assert t("en", "no such message {x}", x=1) == "no such message 1"


@pytest.mark.parametrize("lang", LANGS)
def test_a_plural_form_read_again_is_the_one_read_first(lang: Lang) -> None:
    """tn keeps each count's form: asked twice, in any order, a count reads the same (1 pt,
    then 2 pts, then 1 pt again), and a field besides the count is filled each time."""
    counts = [1, 2, 1, 0, -1, 2, 21, 0]
    first = [tn(lang, "{points} pt", "{points} pts", abs(n), points=n) for n in counts]
    again = [tn(lang, "{points} pt", "{points} pts", abs(n), points=n) for n in counts]
    assert first == again
    assert first[0] != first[1] and first[0] == first[2]
    assert first[4].startswith("-1 ") and first[0].startswith("1 ")


def test_every_preset_title_reads_norwegian() -> None:
    """Preset titles are the engine's English; the catalogue names each in Norwegian."""
    titles = {Rules.preset(name).title for name in Rules.preset_names(special_cards=True)}
    assert {title for title in titles if not has("nb", "preset", title)} == set()
    assert tc("nb", "preset", "Classic Oh Hell") == "Klassisk Oh Hell"


def test_no_message_is_asked_for_inside_an_f_string() -> None:
    """Extraction cannot see `f"{t(lang, '…')}"`, so such a message would silently stay
    English: every message is asked for outside f-string braces."""
    inside = re.compile(r"\{\s*t[nc]?\(")
    found = [f"{path}:{number}" for folder in ("bot", "cogs")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if inside.search(line)]
    assert found == []
