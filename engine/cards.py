"""Cards and suits.

Cards are interned: there is exactly one object per card, so the hot path compares and hashes
cheaply, and a deck is a list of shared immutable values. The `kind` slot leaves room for cards
that are not rank-and-suit (jokers, wizards, jesters) without changing the standard pack.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any, ClassVar


class Suit(IntEnum):
    """The four suits, in the order a sorted hand shows them."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def label(self) -> str:
        """The plural English name, for sentences ("You hold a heart" uses `singular`)."""
        return self.name.lower()

    @property
    def singular(self) -> str:
        return self.name.lower()[:-1]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, symbol or name ("h", "♥", "hearts")."""
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a suit: use C, D, H or S")
        key = text.strip().lower()
        suit = _SUIT_NAMES.get(key)
        if suit is None:
            raise ValueError(f"{text!r} is not a suit: use C, D, H or S")
        return suit


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_SUIT_NAMES: dict[str, Suit] = {}
for _suit in Suit:
    for _key in (_suit.letter, _suit.symbol, _suit.name, _suit.name[:-1]):
        _SUIT_NAMES[_key.lower()] = _suit
_OUTLINE_SYMBOLS = {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_SUIT_NAMES.update(_OUTLINE_SYMBOLS)

RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_RANK_PARSE = {str(r): r for r in range(2, 11)} | {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_CARD_TEXT = re.compile(r"^\s*(10|[2-9TJQKA])\s*(?:of\s+)?([CDHS♣♦♥♠♤♡♢♧]|[a-z]+)\s*$", re.I)


class Card:
    """A playing card: an immutable value, equal and hashable by rank and suit.

    Equality is identity: `Card(...)`, `Card.parse` and unpickling all return the one interned
    object per card, so identity is the same as equal rank and suit, and list membership and
    removal stay in C on the hot path.

    `rank` runs 2..14 (Ace high). `index` is a dense number 0..51 for the standard pack, useful
    for bit sets and arrays in search code.
    """

    __slots__ = ("code", "index", "kind", "rank", "suit")

    rank: int
    suit: Suit
    index: int
    kind: str
    code: str

    _interned: ClassVar[dict[tuple[int, int], Card]] = {}

    def __new__(cls, rank: int, suit: Suit | int) -> Card:
        card = cls._interned.get((rank, int(suit)))
        if card is not None:
            return card
        if not (2 <= rank <= 14) or not (0 <= int(suit) <= 3):
            raise ValueError(f"no such card: rank {rank}, suit {suit}")
        card = object.__new__(cls)
        suit = Suit(suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", int(suit) * 13 + rank - 2)
        object.__setattr__(card, "kind", "standard")
        object.__setattr__(card, "code", RANK_NAMES.get(rank, str(rank)) + suit.letter)
        cls._interned[(rank, int(suit))] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, int(self.suit)))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @property
    def name(self) -> str:
        """The card in words ("Queen of hearts"), for sentences."""
        return f"{_RANK_WORDS.get(self.rank, str(self.rank))} of {self.suit.label}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written rank then suit: "AS", "10h", "TH", "Q♦", "q of hearts"."""
        match = _CARD_TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(
                f"{text!r} is not a card: write the rank then the suit, like 10H, QS or A♦"
            )
        rank = _RANK_PARSE[match.group(1).upper()]
        return cls(rank, Suit.parse(match.group(2)))

    @classmethod
    def from_index(cls, index: int) -> Card:
        return STANDARD_DECK[index]


STANDARD_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))
"""The 52-card pack in a fixed order (clubs 2..A, diamonds, hearts, spades): `index` order."""


def sort_hand(cards: list[Card]) -> list[Card]:
    """A hand as players hold it: by suit, then rank high to low."""
    return sorted(cards, key=lambda card: (card.suit, -card.rank))
