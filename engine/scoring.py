"""Scoring schemes of docs/rules.md section 3, with the zero-bid and blind modifiers, and the
scoresheet record of a finished hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.rules import Rules


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand on the scoresheet."""

    hand_number: int
    hand_size: int
    tricks_in_hand: int
    dealer: int
    trump_card: Card | None
    trump_suit: Suit | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    made: tuple[bool, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    blind: bool = False
    leaders: tuple[int, ...] = ()
    """The seat that led each trick. Empty in snapshots saved before hands kept their play."""
    plays: tuple[Card, ...] = ()
    """Every card of the hand in the order played, trick after trick: with `leaders`, the hand
    as everyone at the table saw it, so a player can remember how the others played."""

    def tricks_played(self) -> tuple[tuple[tuple[int, Card], ...], ...]:
        """The hand's tricks as (seat, card) in play order (empty if its play was not kept)."""
        players = len(self.bids)
        size = len(self.plays) // len(self.leaders) if self.leaders else 0
        return tuple(
            tuple(
                ((leader + position) % players, self.plays[number * size + position])
                for position in range(size)
            )
            for number, leader in enumerate(self.leaders)
        )


def hand_points(rules: Rules, bid: int, tricks: int, tricks_in_hand: int, blind: bool) -> int:
    """Points for one player's hand: exact bids earn the scheme's bonus, misses its penalty."""
    scheme = rules.scoring
    if bid == tricks:
        if bid == 0 and rules.zero_bid != "standard":
            zero_bid = rules.zero_bid
            points = 5 + tricks_in_hand if zero_bid == "five_plus_hand" else (
                5 if zero_bid == "five" else 10
            )
        elif scheme == "bonus_only":
            points = 10
        elif scheme == "wizard":
            points = 20 + 10 * tricks
        else:  # common, strict and penalty agree on an exact bid: 10 + the tricks (= the bid)
            points = 10 + tricks
        return points * rules.blind_multiplier if blind else points
    if scheme == "common":
        return tricks
    if scheme == "penalty":
        return -abs(bid - tricks)
    if scheme == "wizard":
        return -10 * abs(bid - tricks)
    return 0  # strict and bonus_only: a missed bid scores nothing


def exact_bid_winners(bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """Quick's winners (docs/rules.md section 4): the players who made their exact bid, the
    highest such bid first; nobody when nobody made it."""
    made = [seat for seat, (bid, took) in enumerate(zip(bids, tricks, strict=True)) if bid == took]
    if not made:
        return []
    top = max(bids[seat] for seat in made)
    return [seat for seat in made if bids[seat] == top]
