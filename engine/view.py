"""What a seat may see (`PlayerView`) and what everyone may see (`PublicState`).

Both are frozen copies: a renderer or a computer player can keep them while the game moves on,
and neither ever holds a card still in another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.moves import Declaration, Phase
from engine.outcome import Trick, over_under
from engine.rules import Rules
from engine.scoring import HandRecord


def _over_under_of(bids: tuple[int | None, ...], tricks: int) -> str | None:
    if any(bid is None for bid in bids):
        return None
    return over_under(sum(bid for bid in bids if bid is not None), tricks)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what one seat may know: its own hand and everything public. Never another hand.

    With special cards: `super_trump` (super_screw, once turned), `declarations` (each joker
    played this hand and what it was declared, or the value it took), `led_suit` (the suit to
    follow, which a led Wizard or joker may leave unset), `legal_declarations` (for each legal
    card that is declared as it is played, the declarations open to it) and `card_values` (what
    each special card is worth this hand, in words).
    """

    seat: int
    players: int
    rules: Rules
    phase: Phase
    turn: int | None
    actor_seats: tuple[int, ...]
    dealer: int
    hand_number: int
    hand_count: int | None
    hand_size: int
    tricks_in_hand: int
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    blind: bool
    hand: tuple[Card, ...]
    discarded: tuple[Card, ...]
    bids: tuple[int | None, ...]
    has_bid: tuple[bool, ...]
    hook_bid: int | None
    tricks_won: tuple[int, ...]
    current_trick: Trick
    led_suit: Suit | None
    declarations: tuple[tuple[Card, Declaration], ...]
    tricks_played: tuple[Trick, ...]
    trick_number: int
    trump_broken: bool
    scores: tuple[int, ...]
    scoresheet: tuple[HandRecord, ...]
    legal_bids: tuple[int, ...]
    legal_cards: tuple[Card, ...]
    legal_declarations: tuple[tuple[Card, tuple[Declaration, ...]], ...]
    card_values: tuple[tuple[Card, str], ...]
    legal_trumps: tuple[Suit, ...]
    discards_needed: int
    winners: tuple[int, ...]

    def declarations_for(self, card: Card) -> tuple[Declaration, ...]:
        """The declarations open to `card` if it is played now (empty: it takes none)."""
        for legal, options in self.legal_declarations:
            if legal is card:
                return options
        return ()

    @property
    def to_act(self) -> bool:
        return self.seat in self.actor_seats

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks_played[-1] if self.tricks_played else None

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" once every bid is known to this seat, else None."""
        return _over_under_of(self.bids, self.tricks_in_hand)


@dataclass(frozen=True, slots=True)
class PublicState:
    """The game's public state: what everyone at the table may see (hidden bids stay hidden)."""

    phase: Phase
    players: int
    hand_number: int
    hand_count: int | None
    hand_size: int
    tricks_in_hand: int
    dealer: int
    turn: int | None
    actor_seats: tuple[int, ...]
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    current_trick: Trick
    declarations: tuple[tuple[Card, Declaration], ...]
    last_trick: Trick | None
    trick_number: int
    scores: tuple[int, ...]
    hook_bid: int | None
    scoresheet: tuple[HandRecord, ...]
    winners: tuple[int, ...]

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" once every bid is in and shown, else None."""
        return _over_under_of(self.bids, self.tricks_in_hand)

    @property
    def bid_total(self) -> int:
        return sum(bid for bid in self.bids if bid is not None)


__all__ = ["PlayerView", "PublicState"]
