"""A game's state as the modules around the game read it: the player view (`engine.view`) and
the snapshot codec with its soundness checks (`engine.snapshot`).

`engine.game.Game` matches this protocol; the readers name it instead of importing the game, so
the game imports them and nothing imports back.
"""

from __future__ import annotations

from typing import Protocol

from engine.cards import Card, Suit
from engine.moves import Declaration, Phase
from engine.outcome import Trick
from engine.rules import Rules
from engine.scoring import HandRecord
from engine.snapshot_text import SnapshotText


class GameState(Protocol):
    """Every field of a game (the private ones are the snapshot's), and what is derived from
    them."""

    players: int
    rules: Rules
    seed: int
    phase: Phase
    turn: int | None
    dealer: int
    hand_number: int
    hand_size: int
    tricks_in_hand: int
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    declarations: dict[Card, Declaration]
    blind: bool
    bids: list[int | None]
    tricks_won: list[int]
    current_trick: list[tuple[int, Card]]
    trick_number: int
    trump_broken: bool
    discarded: list[list[Card]]
    scores: list[int]
    winners: list[int]
    _held: list[list[list[Card]]]
    _plan: list[int]
    _deal_index: int
    _extra_hands: int
    _pending: list[int]
    _stock: list[Card]
    _tricks_played: list[Trick]
    _scoresheet: list[HandRecord]
    _snapshot_text: SnapshotText | None

    @property
    def hand_count(self) -> int | None: ...

    @property
    def scoresheet(self) -> list[HandRecord]: ...

    @property
    def last_trick(self) -> Trick | None: ...

    @property
    def tricks_played(self) -> list[Trick]: ...

    @property
    def led_suit(self) -> Suit | None: ...

    @property
    def hook_bid(self) -> int | None: ...

    def actor_seats(self) -> list[int]: ...

    def hand_of(self, seat: int) -> list[Card]: ...

    def legal_trumps(self) -> list[Suit]: ...

    def legal_bids(self, seat: int | None = None) -> list[int]: ...

    def legal_cards(self, seat: int | None = None) -> list[Card]: ...

    def legal_declarations(self, card: Card, seat: int | None = None) -> list[Declaration]: ...

    def card_values(self) -> tuple[tuple[Card, str], ...]: ...

    def discards_needed(self, seat: int) -> int: ...

    def _discards_needed(self) -> int: ...

    def _trick_winner(self, trick: list[tuple[int, Card]] | Trick) -> tuple[int, bool]: ...

    def _cache_rule_flags(self) -> None: ...

    def _restored(self) -> None: ...


__all__ = ["GameState"]
