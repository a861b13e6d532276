"""Turning engine state changes into events, and the game's public state into a snapshot.

The engine does not report what happened; it only changes state. Comparing a small "before"
with the game after one action tells the story (the card played, the trick it completed, the
hand it scored, the next hand dealt) without reaching into the engine's internals.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.events import (
    BiddingDone,
    BidMade,
    CardPlayed,
    DiscardsMade,
    Event,
    HandDealt,
    HandScored,
    TrickWon,
    TrumpChosen,
)
from bot.models import PublicState
from engine import Card, Game, Phase, Suit

BIDDING_PHASES = (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING)
SIMULTANEOUS_PHASES = (Phase.SIMULTANEOUS_BIDDING, Phase.DISCARD)
"""Steps where several seats act at once (one deadline covers them all)."""

ACTION_OF_PHASE = {
    Phase.BIDDING: "bid",
    Phase.SIMULTANEOUS_BIDDING: "bid",
    Phase.PLAYING: "play",
    Phase.TRUMP_CHOICE: "trump",
    Phase.DISCARD: "discard",
}


def public_state(game: Game) -> PublicState:
    """Copy what everyone may see (hidden simultaneous bids stay hidden)."""
    phase = game.phase
    bids: tuple[int | None, ...] = tuple(game.bids)
    if phase is Phase.SIMULTANEOUS_BIDDING:
        bids = tuple(None for _ in bids)
    return PublicState(
        phase=phase,
        players=game.players,
        hand_number=game.hand_number,
        hand_count=game.hand_count,
        hand_size=game.hand_size,
        dealer=game.dealer,
        turn=game.turn,
        actor_seats=tuple(game.actor_seats()),
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
        bids=bids,
        tricks_won=tuple(game.tricks_won),
        current_trick=tuple(game.current_trick),
        last_trick=game.last_trick,
        trick_number=game.trick_number,
        scores=tuple(game.scores),
        hook_bid=game.hook_bid,
        scoresheet=tuple(game.scoresheet),
        winners=tuple(game.winners),
    )


@dataclass(frozen=True, slots=True)
class Before:
    """The few facts about a game needed to narrate the next action."""

    phase: Phase
    hand_number: int
    scored_hands: int
    trick: tuple[tuple[int, Card], ...]
    tricks_won: tuple[int, ...]
    trump_card: Card | None
    trump_suit: Suit | None

    @classmethod
    def of(cls, game: Game) -> Before:
        """Take the facts now."""
        return cls(
            phase=game.phase,
            hand_number=game.hand_number,
            scored_hands=len(game.scoresheet),
            trick=tuple(game.current_trick),
            tricks_won=tuple(game.tricks_won),
            trump_card=game.trump_card,
            trump_suit=game.trump_suit,
        )


def hand_dealt(game: Game) -> HandDealt:
    """The event for the hand now in play."""
    return HandDealt(
        hand_number=game.hand_number,
        hand_size=game.hand_size,
        dealer=game.dealer,
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
    )


def narrate(before: Before, game: Game, kind: str, seat: int, move: object) -> list[Event]:
    """The events of one accepted move (`kind` bid/play/trump/discard by `seat`)."""
    events: list[Event] = []
    same_hand = game.hand_number == before.hand_number
    if kind == "bid":
        hidden = before.phase is Phase.SIMULTANEOUS_BIDDING
        events.append(BidMade(seat=seat, bid=None if hidden else int(move)))  # type: ignore[call-overload]
    elif kind == "trump":
        events.append(TrumpChosen(seat=seat, suit=game.trump_suit))
    elif kind == "discard":
        events.append(DiscardsMade(seat=seat, count=len(move)))  # type: ignore[arg-type]
    elif kind == "play":
        assert isinstance(move, Card)
        trick_number = sum(before.tricks_won) + 1
        events.append(CardPlayed(seat=seat, card=move, trick_number=trick_number))
        if len(before.trick) + 1 == game.players:
            after = game.tricks_won if same_hand else game.scoresheet[before.scored_hands].tricks
            winner = next(s for s in range(game.players) if after[s] != before.tricks_won[s])
            events.append(
                TrickWon(
                    winner=winner, cards=(*before.trick, (seat, move)), trick_number=trick_number
                )
            )
    if before.phase in BIDDING_PHASES and game.phase not in BIDDING_PHASES and same_hand:
        bids = tuple(b if b is not None else 0 for b in game.bids)
        total = sum(bids)
        tricks = game.tricks_in_hand
        over_under = "over" if total > tricks else "under" if total < tricks else "even"
        events.append(BiddingDone(bids=bids, total=total, tricks=tricks, over_under=over_under))
    if (
        same_hand
        and kind != "trump"
        and (game.trump_suit, game.trump_card) != (before.trump_suit, before.trump_card)
    ):
        events.append(TrumpChosen(seat=game.dealer, suit=game.trump_suit))
    for record in game.scoresheet[before.scored_hands :]:
        events.append(HandScored(record=record))
    if not same_hand and game.phase is not Phase.GAME_OVER:
        events.append(hand_dealt(game))
    return events


__all__ = [
    "ACTION_OF_PHASE",
    "BIDDING_PHASES",
    "SIMULTANEOUS_PHASES",
    "Before",
    "hand_dealt",
    "narrate",
    "public_state",
]
