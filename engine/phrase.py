"""Sentences as data: what the engine says (refusals, the rules in words) as an English message
with `{placeholders}` and the values that fill them.

The engine knows no language: a `Phrase`'s message is the key a front end looks up in its
catalogue (bot/i18n.py `say`), and `str(phrase)` is the English sentence (logs, tests). Values
are kept as they are (a card, a suit as engine.cards.SuitWord, a joker's declaration as
engine.moves.DeclarationWord, another phrase) so a translation can name them in its own words;
this module names none of them, so every engine module may say phrases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self


@dataclass(frozen=True, slots=True)
class Term:
    """A name inside a sentence that a catalogue translates under a context (a preset's title:
    `Term("preset", "Classic Oh Hell")`)."""

    context: str
    text: str

    def __str__(self) -> str:
        return self.text


class Phrase:
    """An English message with `{name}` placeholders and its field values."""

    __slots__ = ("fields", "message")

    def __init__(self, message: str, /, **fields: object) -> None:
        self.message = message
        self.fields: Mapping[str, object] = fields

    def __str__(self) -> str:
        return self.message.format(**{k: _english(v) for k, v in self.fields.items()})

    def __repr__(self) -> str:
        return f"Phrase({self.message!r}, {dict(self.fields)!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Phrase) and other.message == self.message
                and dict(other.fields) == dict(self.fields))

    def __hash__(self) -> int:
        return hash(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_phrase, (self.message, dict(self.fields)))


def _phrase(message: str, fields: dict[str, object]) -> Phrase:
    return Phrase(message, **fields)


def _english(value: object) -> object:
    if isinstance(value, list | tuple):
        return ", ".join(str(_english(item)) for item in value)
    return str(value) if isinstance(value, Phrase | Term) else value


class Refusal(ValueError):
    """Something the rules refuse, as a phrase; `str(err)` is its English sentence."""

    def __init__(self, message: str, /, **fields: object) -> None:
        self.phrase = Phrase(message, **fields)
        super().__init__(str(self.phrase))

    @classmethod
    def of(cls, phrase: Phrase) -> Self:
        """The refusal saying `phrase` (a phrase made elsewhere, or another refusal's)."""
        error = cls.__new__(cls)
        error.phrase = phrase
        ValueError.__init__(error, str(phrase))
        return error

    def __reduce__(self) -> tuple[Any, ...]:
        return (_refusal, (type(self), self.phrase))


def _refusal(kind: type[Refusal], phrase: Phrase) -> Refusal:
    return kind.of(phrase)


__all__ = ["Phrase", "Refusal", "Term"]
