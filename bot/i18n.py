"""The message catalogue: every text a person reads, in English and Norwegian Bokmål.

Why gettext through Babel: plural forms (Norwegian, like English, has two, but the rule lives in
each catalogue's header, not in our code) and the catalogue files are the standard ones
translators and tools read. The `.po` sources under bot/locale/ are loaded directly (Babel
compiles them in memory at first use), so no compiled `.mo` lives in git. bot/ holds it so the
terminal (bot/) and Discord (cogs/) read one catalogue.

English is the source language: a message's msgid is its English text with `{name}`
placeholders, and en's catalogue leaves msgstr empty. Adding a message: write it in code as
`t(lang, "…")`, `tn(lang, "…", "…", n)` or `tc(lang, "context", "…")` (never inside an f-string's
braces, where extraction cannot see it), then add the entry to both .po files, its Norwegian in
bot/locale/nb/LC_MESSAGES/messages.po. Not every entry is in code: the slash commands' texts
(contexts "slash" and "slash name", bot/slash_locale.py) and the presets' titles (context
"preset") are data, so do not let `pybabel update` drop them as obsolete.
tests/bot/test_i18n.py fails until every key is in both languages with the same placeholders,
and tests/discord/test_commands.py until every slash text has its Norwegian.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from io import BytesIO
from pathlib import Path
from typing import Literal

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from engine.cards import Card, Suit, SuitWord
from engine.moves import Declaration, DeclarationWord
from engine.phrase import Phrase, Term

Lang = Literal["en", "nb"]
LANGS: tuple[Lang, ...] = ("en", "nb")
DEFAULT_LANG: Lang = "en"
LOCALE_DIR = Path(__file__).parent / "locale"
NORWEGIAN = frozenset({"no", "nb", "nn"})
"""Discord calls Norwegian `no`; POSIX locales say nb_NO or nn_NO. Nynorsk readers get Bokmål,
which every Norwegian reads, rather than English."""


def lang_for(locale: object) -> Lang:
    """The catalogue for a Discord locale (`discord.Locale.norwegian` is "no") or a POSIX one
    ("nb_NO.UTF-8"); anything else, or none, reads English."""
    text = str(getattr(locale, "value", locale) or "")
    base = text.replace("-", "_").split(".")[0].split("_")[0].lower()
    return "nb" if base in NORWEGIAN else DEFAULT_LANG


def environment_lang(environ: Mapping[str, str]) -> Lang:
    """The terminal's language from POSIX locale settings, first set of LC_ALL, LC_MESSAGES
    and LANG (the order the C library reads them)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return lang_for(environ[name])
    return DEFAULT_LANG


def po_path(lang: Lang) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"


@functools.cache
def catalogue(lang: Lang) -> Catalog:
    """The language's .po as written. A malformed entry (say, a msgid without its msgstr, as a
    careless merge leaves) stops the bot at start and fails tests/bot/test_i18n.py, rather than
    printing a warning and dropping the entry."""
    with po_path(lang).open("rb") as source:
        return read_po(source, locale=lang, abort_invalid=True)


@functools.cache
def translations(lang: Lang) -> Translations:
    """The language's catalogue compiled in memory once."""
    catalog = catalogue(lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(fp=compiled)


TEXTS_KEPT = 4096
"""Messages per language whose translation `t` keeps (the catalogue's few hundred, and room)."""


@functools.cache
def _texts(lang: Lang) -> dict[str | tuple[str, str], str]:
    return {}


def t(lang: Lang, message: str, /, **fields: object) -> str:
    """The message in `lang`, its `{name}` placeholders filled from `fields`. A message's
    translation is looked up once (every message rendered after a move asks for a few dozen)."""
    texts = _texts(lang)
    text = texts.get(message)
    if text is None:
        text = translations(lang).gettext(message)
        if len(texts) < TEXTS_KEPT:
            texts[message] = text
    return text.format(**fields) if fields else text


@functools.cache
def _plurals(lang: Lang) -> dict[tuple[str, str, int], str]:
    return {}


def tn(lang: Lang, singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The plural form for `n` in `lang` (the catalogue's rule); `{n}` and `fields` filled.
    The form is looked up once per count (the table message counts a dozen things a move)."""
    forms = _plurals(lang)
    key = (singular, plural, n)
    text = forms.get(key)
    if text is None:
        text = translations(lang).ngettext(singular, plural, n)
        if len(forms) < TEXTS_KEPT:
            forms[key] = text
    return text.format(n=n, **fields)


def tc(lang: Lang, context: str, message: str, /, **fields: object) -> str:
    """A message whose English is ambiguous alone (a command's name, a card's suit)."""
    texts = _texts(lang)
    text = texts.get((context, message))
    if text is None:
        text = str(translations(lang).pgettext(context, message))
        if len(texts) < TEXTS_KEPT:
            texts[context, message] = text
    return text.format(**fields) if fields else text


def has(lang: Lang, context: str | None, message: str) -> bool:
    """Whether `lang`'s catalogue translates the message itself (English falls back to msgid)."""
    entry = catalogue(lang).get(message, context=context)
    return entry is not None and bool(entry.string)


def say(lang: Lang, phrase: Phrase) -> str:
    """A phrase (engine/phrase.py: a refusal, a rule line) in `lang`: its message through the
    catalogue, each value in `lang`'s words too (a nested phrase, a suit, a special card)."""
    text = translations(lang).gettext(phrase.message)
    return text.format(**{name: _value(lang, value) for name, value in phrase.fields.items()})


def card_word(lang: Lang, card: Card) -> str:
    """A card as a sentence names it: "Q♥", and a special card's name in `lang` ("Høy joker")."""
    return tc(lang, "card", str(card)) if card.special else str(card)


def declaration_words(lang: Lang, declaration: Declaration, trump: Suit | None) -> str:
    """What a joker was declared: "high trump ♠", "low ♦", "high" ("høy trumf ♠")."""
    if lang == DEFAULT_LANG:
        return declaration.text(trump)
    high = {True: t(lang, "high"), False: t(lang, "low"), None: ""}[declaration.high]
    trump_word = t(lang, "trump")
    if declaration.suit is None:
        if trump is None:
            return f"{high} {trump_word}".strip()
        return high or t(lang, "as it is")
    suit = (f"{trump_word} {declaration.suit.symbol}" if declaration.suit == trump
            else declaration.suit.symbol)
    return f"{high} {suit}".strip()


def _value(lang: Lang, value: object) -> object:
    if isinstance(value, Phrase):
        return say(lang, value)
    if isinstance(value, SuitWord):
        return str(value) if lang == DEFAULT_LANG else tc(lang, "suit", value.suit.label)
    if isinstance(value, Term):
        return tc(lang, value.context, value.text)
    if isinstance(value, Card):
        return card_word(lang, value)
    if isinstance(value, DeclarationWord):
        return declaration_words(lang, value.declaration, value.trump)
    if isinstance(value, list | tuple):
        return ", ".join(str(_value(lang, item)) for item in value)
    return value
