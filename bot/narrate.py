"""Turning what the engine says a move caused (its `Outcome`) into the events presenters render."""

from __future__ import annotations

from bot.events import (
    BiddingDone,
    BidMade,
    CardPlayed,
    DiscardsMade,
    EvenBids,
    Event,
    HandDealt,
    HandScored,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
)
from engine import Bid, Discard, Game, HandStart, NameTrump, Outcome, Play


def hand_dealt(game: Game) -> HandDealt:
    """The event for the hand now in play (the first deal: no move caused it)."""
    return HandDealt(
        hand_number=game.hand_number,
        hand_size=game.hand_size,
        dealer=game.dealer,
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
    )


def _dealt(start: HandStart) -> HandDealt:
    return HandDealt(
        hand_number=start.hand_number,
        hand_size=start.hand_size,
        dealer=start.dealer,
        trump_card=start.trump_card,
        trump_suit=start.trump_suit,
    )


def narrate(outcome: Outcome, dealer: int) -> list[Event]:
    """The events of one accepted move, in the order they happened. `dealer`: the dealer of
    the hand the move was made in (who named a trump set as a consequence of the move)."""
    events: list[Event] = []
    move, seat = outcome.move, outcome.seat
    if isinstance(move, Bid):
        events.append(BidMade(seat=seat, bid=None if outcome.hidden else move.tricks))
    elif isinstance(move, NameTrump):
        events.append(TrumpChosen(seat=seat, suit=move.suit))
    elif isinstance(move, Discard):
        events.append(DiscardsMade(seat=seat, count=len(move.cards)))
    elif isinstance(move, Play):
        trick_number = outcome.trick_number or 0
        events.append(CardPlayed(seat=seat, card=move.card, trick_number=trick_number,
                                 declaration=outcome.declared))
        if outcome.trick is not None:
            trick = outcome.trick
            events.append(TrickWon(winner=trick.winner, cards=trick.cards,
                                   trick_number=trick.trick_number))
    if outcome.bidding is not None:
        done = outcome.bidding
        events.append(BiddingDone(bids=done.bids, total=done.total, tricks=done.tricks,
                                  over_under=done.over_under))
    if outcome.cards_lost or outcome.extra_card:
        events.append(EvenBids(lost=outcome.cards_lost))
    if outcome.turned_up is not None and outcome.next_hand is None:
        events.append(TrumpTurned(card=outcome.turned_up, suit=outcome.trump_named,
                                  super_trump=outcome.super_trump))
    elif (outcome.trump_named is not None and not isinstance(move, NameTrump)
            and outcome.next_hand is None):
        events.append(TrumpChosen(seat=dealer, suit=outcome.trump_named))
    if outcome.scored is not None:
        events.append(HandScored(record=outcome.scored))
    if outcome.next_hand is not None and not outcome.game_over:
        events.append(_dealt(outcome.next_hand))
    return events


__all__ = ["hand_dealt", "narrate"]
