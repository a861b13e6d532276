"""What a move caused, told by the engine itself.

`Game.apply(seat, move)` returns an `Outcome`: the card played, the trick it completed and who won
it, the end of bidding, the hand it scored, the next hand dealt, the trump named, the game's end.
The table service narrates from it; nobody above the engine compares states to find out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.cards import Card, Suit
from engine.moves import Declaration, Move, Phase
from engine.scoring import HandRecord

Trick: TypeAlias = tuple[tuple[int, Card], ...]
"""(seat, card) pairs in play order."""


def over_under(total: int, tricks: int) -> str:
    """"over", "under" or "even": the bids' total against the tricks in the hand."""
    if total > tricks:
        return "over"
    return "under" if total < tricks else "even"


@dataclass(frozen=True, slots=True)
class TrickResult:
    """A completed trick: its cards in play order and the seat that won it."""

    trick_number: int
    cards: Trick
    winner: int


@dataclass(frozen=True, slots=True)
class BiddingResult:
    """Every bid is in: the total against the tricks in the hand."""

    bids: tuple[int, ...]
    total: int
    tricks: int
    over_under: str


@dataclass(frozen=True, slots=True)
class HandStart:
    """A newly dealt hand, as everyone sees it (trump None: none turned, or not yet named)."""

    hand_number: int
    hand_size: int
    tricks_in_hand: int
    dealer: int
    trump_card: Card | None
    trump_suit: Suit | None
    phase: Phase


@dataclass(frozen=True, slots=True)
class Outcome:
    """Everything one accepted move caused, in the order it happened.

    `hidden` is set when the move itself is secret from the other seats (a simultaneous bid).
    `trump_named` is the suit named by this move, or trump set as a consequence of it.
    `declared` is what a played joker was declared, or the value it took by itself (the second
    joker in Blackout). `turned_up` is the trump card turned because of this move (after the
    bids, in super_screw), with its `super_trump`. `cards_lost` says the bids added up and every
    player lost a card (each sees their own in `PlayerView.discarded`). `extra_card` says
    everyone was dealt one more card: the hook bid in extra_card, or even bids in a 1-card hand
    of super_screw.
    """

    seat: int
    move: Move
    hand_number: int
    hidden: bool = False
    trick_number: int | None = None
    trump_named: Suit | None = None
    declared: Declaration | None = None
    turned_up: Card | None = None
    super_trump: Card | None = None
    cards_lost: bool = False
    extra_card: bool = False
    bidding: BiddingResult | None = None
    trick: TrickResult | None = None
    scored: HandRecord | None = None
    next_hand: HandStart | None = None
    winners: tuple[int, ...] | None = None

    @property
    def game_over(self) -> bool:
        return self.winners is not None


__all__ = [
    "BiddingResult",
    "HandStart",
    "Outcome",
    "Trick",
    "TrickResult",
    "over_under",
]
