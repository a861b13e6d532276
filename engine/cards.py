"""Cards and suits, and the special cards some rule systems add (jokers, Wizards, Jesters).

Cards are interned: there is exactly one object per card, so the hot path compares and hashes
cheaply, and a deck is a list of shared immutable values. The 52 standard cards have `index`
0..51 (search code keeps hands as bit sets over it); special cards follow from 52 on. A special
card has no suit or rank of its own (`suit` None, `rank` 0): what it is worth depends on the rule
system and the hand, and the game says so (`PlayerView.card_values`). Packs that hold two alike
(two plain jokers, four Wizards) get one object each, told apart by a number in the code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

from engine.phrase import Refusal


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
        suit = _SUIT_NAMES.get(text.strip().lower()) if isinstance(text, str) else None
        if suit is None:
            raise Refusal("{text!r} is not a suit: use C, D, H or S.", text=text)
        return suit


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_SUIT_NAMES: dict[str, Suit] = {}
for _suit in Suit:
    for _key in (_suit.letter, _suit.symbol, _suit.name, _suit.name[:-1]):
        _SUIT_NAMES[_key.lower()] = _suit
_OUTLINE_SYMBOLS = {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
_SUIT_NAMES.update(_OUTLINE_SYMBOLS)
_SUIT_NAMES.update({"kløver": Suit.CLUBS, "klover": Suit.CLUBS, "ruter": Suit.DIAMONDS,
                    "hjerter": Suit.HEARTS, "spar": Suit.SPADES})
"""Norwegian players' suit names, read too (a front end may speak Norwegian)."""

RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_RANK_PARSE = {str(r): r for r in range(2, 11)} | {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_CARD_TEXT = re.compile(r"^\s*(10|[2-9TJQKA])\s*(?:of\s+)?([CDHS♣♦♥♠♤♡♢♧]|[a-zæøå]+)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class SuitWord:
    """A suit named inside a sentence (engine/phrase.py): English "hearts", or "heart" when
    `singular`."""

    suit: Suit
    singular: bool = False

    def __str__(self) -> str:
        return self.suit.singular if self.singular else self.suit.label


class Card:
    """A playing card: an immutable value, equal and hashable by rank and suit.

    Equality is identity: `Card(...)`, `Card.parse` and unpickling all return the one interned
    object per card, so identity is the same as equal rank and suit, and list membership and
    removal stay in C on the hot path.

    `rank` runs 2..14 (Ace high). `index` is a dense number 0..51 for the standard pack, useful
    for bit sets and arrays in search code; special cards (`kind` other than "standard") have
    indexes from 52, `suit` None and `rank` 0.
    """

    __slots__ = ("code", "index", "kind", "rank", "suit")

    rank: int
    suit: Suit | None
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
        if self.suit is None:
            return (_special_by_code, (self.code,))
        return (Card, (self.rank, int(self.suit)))

    @property
    def special(self) -> bool:
        """A joker, Wizard or Jester: a card without a rank and suit of its own."""
        return self.index >= 52

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        if self.suit is None:
            return _SPECIAL_WORDS[self.kind]
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @property
    def name(self) -> str:
        """The card in words ("Queen of hearts", "Wizard"), for sentences."""
        if self.suit is None:
            return _SPECIAL_WORDS[self.kind]
        return f"{_RANK_WORDS.get(self.rank, str(self.rank))} of {self.suit.label}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as a player types it: rank then suit ("AS", "10h", "TH", "Q♦",
        "q of hearts"), or a special card ("JK", "joker", "High joker", "W", "wizard",
        "Jester"). A special card named without its number is the first of its kind: the game
        lets a player play any one of the alike cards they hold."""
        if not isinstance(text, str):
            match = None
        else:
            special = _SPECIAL_NAMES.get(_squash(text))
            if special is not None:
                return special
            match = _CARD_TEXT.match(text)
        if match is None:
            raise Refusal(
                "{text!r} is not a card: write the rank then the suit, like 10H, QS or A♦ "
                "(or JK, W, Jester for special cards).", text=text
            )
        rank = _RANK_PARSE[match.group(1).upper()]
        return cls(rank, Suit.parse(match.group(2)))

    @classmethod
    def from_index(cls, index: int) -> Card:
        return ALL_CARDS[index]

    @classmethod
    def _make_special(cls, index: int, kind: str, code: str) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", 0)
        object.__setattr__(card, "suit", None)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "kind", kind)
        object.__setattr__(card, "code", code)
        return card


STANDARD_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))
"""The 52-card pack in a fixed order (clubs 2..A, diamonds, hearts, spades): `index` order."""

_SPECIAL_WORDS = {
    "joker": "Joker",
    "high_joker": "High Joker",
    "low_joker": "Low Joker",
    "super_joker": "Super Joker",
    "loser_joker": "Loser Joker",
    "wizard": "Wizard",
    "jester": "Jester",
}
_SPECIAL_SPECS = [
    ("joker", "JK"), ("joker", "JK2"),
    ("high_joker", "JKH"), ("low_joker", "JKL"),
    ("super_joker", "JKS"), ("loser_joker", "JKX"),
    ("wizard", "W1"), ("wizard", "W2"), ("wizard", "W3"), ("wizard", "W4"),
    ("jester", "N1"), ("jester", "N2"), ("jester", "N3"), ("jester", "N4"),
]
SPECIAL_CARDS: tuple[Card, ...] = tuple(
    Card._make_special(52 + offset, kind, code)
    for offset, (kind, code) in enumerate(_SPECIAL_SPECS)
)
"""Every special card, in `index` order from 52."""
ALL_CARDS: tuple[Card, ...] = STANDARD_DECK + SPECIAL_CARDS
"""Every card any rule system uses, `ALL_CARDS[card.index] is card`."""

JOKER, JOKER_2, HIGH_JOKER, LOW_JOKER, SUPER_JOKER, LOSER_JOKER = SPECIAL_CARDS[:6]
WIZARDS: tuple[Card, ...] = SPECIAL_CARDS[6:10]
JESTERS: tuple[Card, ...] = SPECIAL_CARDS[10:14]


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


_SPECIAL_NAMES: dict[str, Card] = {card.code.lower(): card for card in SPECIAL_CARDS}
for _card, _names in (
    (JOKER, ("joker", "jk", "j k", "🃏", "the joker")),
    (HIGH_JOKER, ("high joker", "high", "hj", "joker high", "the high joker")),
    (LOW_JOKER, ("low joker", "low", "joker low", "the low joker")),
    (SUPER_JOKER, ("super joker", "super", "sj", "joker super", "the super joker")),
    (LOSER_JOKER, ("loser joker", "loser", "joker loser", "the loser joker")),
    (WIZARDS[0], ("w", "wizard", "wiz", "a wizard", "the wizard")),
    (JESTERS[0], ("n", "jester", "a jester", "the jester", "jest")),
):
    for _name in _names:
        _SPECIAL_NAMES[_name] = _card


def _special_by_code(code: str) -> Card:
    return _SPECIAL_NAMES[code.lower()]


def sort_hand(cards: list[Card]) -> list[Card]:
    """A hand as players hold it: by suit, then rank high to low; special cards last."""
    return sorted(cards, key=_hand_order)


def _hand_order(card: Card) -> int:
    if card.suit is None:
        return card.index * 16
    return int(card.suit) * 16 + 14 - card.rank
