"""Moves as values: one frozen type per step of a hand, and the phase that awaits each.

A move travels unchanged from the Discord edge (a button, a select, a slash command), through the
table service and the engine, into the action log. Its payload is the one serialised form: a dict
for the log (`payload()` / `move_from_payload`) and a short code for custom_ids (`code()` /
`move_from_code`), so nobody above the engine re-encodes cards or suits.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from engine.cards import Card, Suit
from engine.phrase import Refusal


class Phase(StrEnum):
    """Where a hand stands; `awaits` names the move type it asks for."""

    TRUMP_CHOICE = "trump_choice"
    DISCARD = "discard"
    BIDDING = "bidding"
    SIMULTANEOUS_BIDDING = "simultaneous_bidding"
    PLAYING = "playing"
    GAME_OVER = "game_over"

    @property
    def awaits(self) -> type[Move] | None:
        """The move type this phase takes (None once the game is over)."""
        return _AWAITS[self]

    @property
    def simultaneous(self) -> bool:
        """Several seats act at once (one deadline covers them all)."""
        return self in (Phase.SIMULTANEOUS_BIDDING, Phase.DISCARD)

    @property
    def bidding(self) -> bool:
        return self in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING)


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a special card is declared to be as it is played (a joker's suit and high/low).

    `suit` None means no suit is declared; `high` None means the rules ask no high/low.
    """

    suit: Suit | None = None
    high: bool | None = None

    def code(self) -> str:
        suit = self.suit.letter if self.suit is not None else "-"
        high = "-" if self.high is None else ("h" if self.high else "l")
        return suit + high

    def text(self, trump: Suit | None) -> str:
        """The declaration in words: "high trump ♠", "low ♦", "high trump", "high"."""
        high = {True: "high", False: "low", None: ""}[self.high]
        if self.suit is None:
            return f"{high} trump".strip() if trump is None else high or "as it is"
        suit = f"trump {self.suit.symbol}" if self.suit == trump else self.suit.symbol
        return f"{high} {suit}".strip()

    @classmethod
    def parse(cls, text: str, trump: Suit | None) -> Declaration:
        """Read what a player types: "high trump", "low diamond", "High ♠", "low", "h s".

        "trump" means the hand's trump suit (no suit when there is none: after a turned joker
        the other joker may be declared trump). Raises ValueError with a hint.
        """
        words = text.replace(",", " ").lower().split() if isinstance(text, str) else []
        high: bool | None = None
        suit: Suit | None = None
        for word in words:
            if word in ("high", "hi", "h", "up", "wins", "win", "høy", "hoy"):
                high = True
            elif word in ("low", "lo", "l", "down", "loses", "lose", "lav"):
                high = False
            elif word in ("trump", "trumps", "t", "trumf"):
                suit = trump
            elif word in ("of", "as", "the", "a", "som"):
                continue
            else:
                try:
                    suit = Suit.parse(word)
                except ValueError:
                    raise Refusal(
                        "{text!r} is not a declaration: say high or low and a suit, like "
                        "'high trump' or 'low diamond'.", text=text
                    ) from None
        if high is None:
            raise Refusal(
                "{text!r} does not say high or low: like 'high trump' or 'low diamond'.",
                text=text,
            )
        return cls(suit=suit, high=high)

    @classmethod
    def from_code(cls, text: str) -> Declaration:
        if len(text) != 2:
            raise ValueError(f"{text!r} is not a declaration")
        suit = None if text[0] == "-" else Suit.parse(text[0])
        high = {"-": None, "h": True, "l": False}.get(text[1])
        if high is None and text[1] != "-":
            raise ValueError(f"{text!r} is not a declaration")
        return cls(suit=suit, high=high)


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid a number of tricks."""

    tricks: int

    def payload(self) -> dict[str, Any]:
        return {"bid": self.tricks}

    def code(self) -> str:
        return f"b{self.tricks}"

    def describe(self) -> str:
        return f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card (with its declaration when the card is one that needs it)."""

    card: Card
    declaration: Declaration | None = None

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"card": self.card.code}
        if self.declaration is not None:
            payload["declare"] = self.declaration.code()
        return payload

    def code(self) -> str:
        suffix = "" if self.declaration is None else "/" + self.declaration.code()
        return f"p{self.card.code}{suffix}"

    def describe(self) -> str:
        if self.declaration is not None:
            return f"played {self.card} ({self.declaration.text(None)})"
        return f"played {self.card}"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The dealer names trump (dealer_picks, a turned Wizard)."""

    suit: Suit

    def payload(self) -> dict[str, Any]:
        return {"suit": self.suit.letter}

    def code(self) -> str:
        return f"t{self.suit.letter}"

    def describe(self) -> str:
        return f"named {self.suit.label} trump"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard cards face down before bidding (ouch)."""

    cards: tuple[Card, ...]

    def payload(self) -> dict[str, Any]:
        return {"cards": [card.code for card in self.cards]}

    def code(self) -> str:
        return "d" + ".".join(card.code for card in self.cards)

    def describe(self) -> str:
        return f"discarded {len(self.cards)} card" + ("s" if len(self.cards) != 1 else "")


Move: TypeAlias = Bid | Play | NameTrump | Discard
"""Every step a seat can take."""

_AWAITS: dict[Phase, type[Move] | None] = {
    Phase.TRUMP_CHOICE: NameTrump,
    Phase.DISCARD: Discard,
    Phase.BIDDING: Bid,
    Phase.SIMULTANEOUS_BIDDING: Bid,
    Phase.PLAYING: Play,
    Phase.GAME_OVER: None,
}


def move_from_payload(payload: dict[str, Any]) -> Move:
    """Read a move back from its action-log payload. Raises ValueError when it is not one."""
    if not isinstance(payload, dict):
        raise ValueError("a move payload is a mapping")
    try:
        if "bid" in payload:
            tricks = payload["bid"]
            if isinstance(tricks, bool) or not isinstance(tricks, int):
                raise ValueError("a bid is a whole number")
            return Bid(tricks)
        if "card" in payload:
            declared = payload.get("declare")
            declaration = Declaration.from_code(declared) if declared is not None else None
            return Play(Card.parse(payload["card"]), declaration)
        if "suit" in payload:
            return NameTrump(Suit.parse(payload["suit"]))
        if "cards" in payload:
            return Discard(tuple(Card.parse(code) for code in payload["cards"]))
    except (TypeError, AttributeError) as error:
        raise ValueError(f"unreadable move payload {payload!r}: {error}") from None
    raise ValueError(f"unreadable move payload {payload!r}")


def move_from_code(text: str) -> Move:
    """Read a move from its short code (as custom_ids carry it). Raises ValueError."""
    if not isinstance(text, str) or len(text) < 2:
        raise ValueError(f"{text!r} is not a move code")
    kind, body = text[0], text[1:]
    if kind == "b":
        if not body.isdigit():
            raise ValueError(f"{text!r} is not a move code")
        return Bid(int(body))
    if kind == "p":
        card, _, declared = body.partition("/")
        return Play(Card.parse(card), Declaration.from_code(declared) if declared else None)
    if kind == "t":
        return NameTrump(Suit.parse(body))
    if kind == "d":
        return Discard(tuple(Card.parse(code) for code in body.split(".")))
    raise ValueError(f"{text!r} is not a move code")



@dataclass(frozen=True, slots=True)
class DeclarationWord:
    """What a joker is declared inside a sentence (engine/phrase.py): "high trump ♠", given the
    hand's trump."""

    declaration: Declaration
    trump: Suit | None

    def __str__(self) -> str:
        return self.declaration.text(self.trump)


__all__ = [
    "Bid",
    "Declaration",
    "DeclarationWord",
    "Discard",
    "Move",
    "NameTrump",
    "Phase",
    "Play",
    "move_from_code",
    "move_from_payload",
]
