"""A finished game told again, hand by hand and trick by trick.

`replay_game(game, moves)` plays a fresh game (as `Game.new` dealt it) through the moves it was
played with and keeps what each hand showed: everyone's dealt cards, the turned card, the trump
named, the bids in the order they were made, each trick with its winner, and the scoresheet row.
Everyone's cards are only ever told for a game that is over: moves that leave the game in play
raise NotFinished, so a replay never shows a card of a game still being played.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, Suit, sort_hand
from engine.game import Game
from engine.moves import Bid, Declaration, Move, NameTrump, Phase, Play
from engine.scoring import HandRecord


class NotFinished(ValueError):
    """The moves leave the game in play: it is not replayable (its hands are still secret)."""


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of a trick: who played it, and what it was declared (jokers) or took."""

    seat: int
    card: Card
    declared: Declaration | None = None


@dataclass(frozen=True, slots=True)
class TrickReplay:
    """A trick: its cards in play order (the first led) and the seat that won it."""

    number: int
    cards: tuple[PlayedCard, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class HandReplay:
    """One hand as it was played.

    dealt: each seat's cards as dealt, sorted. in_play: each seat's cards when the first card was
    played, where that differs from `dealt` (discards in ouch, cards lost or added after the
    bids), else None. trump_card / trump_suit are as the hand was scored (None: no trump);
    named_by: the seat that named trump (dealer_picks, a turned Wizard), or None. bids: (seat,
    bid) in the order bids were made (simultaneous bids are revealed together). record: the
    scoresheet row.
    """

    dealt: tuple[tuple[Card, ...], ...]
    in_play: tuple[tuple[Card, ...], ...] | None
    named_by: int | None
    bids: tuple[tuple[int, int], ...]
    tricks: tuple[TrickReplay, ...]
    record: HandRecord

    @property
    def number(self) -> int:
        return self.record.hand_number

    @property
    def trump_card(self) -> Card | None:
        return self.record.trump_card

    @property
    def trump_suit(self) -> Suit | None:
        return self.record.trump_suit


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A whole finished game: its hands in order and the winners' seats."""

    players: int
    hands: tuple[HandReplay, ...]
    winners: tuple[int, ...]
    final: Game

    def steps(self) -> list[tuple[int, int | None]]:
        """Every step to show, in order: (hand index, None) for a hand's deal and bids, then
        (hand index, trick index) for each of its tricks (the last one with the scores)."""
        found: list[tuple[int, int | None]] = []
        for index, hand in enumerate(self.hands):
            found.append((index, None))
            found += [(index, trick) for trick in range(len(hand.tricks))]
        return found


class _HandInProgress:
    def __init__(self, game: Game) -> None:
        self.dealt = tuple(tuple(sort_hand(game.hand_of(s))) for s in range(game.players))
        self.in_play: tuple[tuple[Card, ...], ...] | None = None
        self.named_by: int | None = None
        self.bids: list[tuple[int, int]] = []
        self.tricks: list[TrickReplay] = []
        self.declared: dict[tuple[int, Card], Declaration | None] = {}

    def done(self, record: HandRecord) -> HandReplay:
        in_play = None if self.in_play == self.dealt else self.in_play
        return HandReplay(self.dealt, in_play, self.named_by, tuple(self.bids),
                          tuple(self.tricks), record)


def _unscored_row(game: Game) -> HandRecord:
    """The row a hand would have had on a sheet, for a game that keeps none (the exact bid
    wins, docs/rules.md `quick`): bids, tricks and made, and no points."""
    bids = tuple(bid if bid is not None else 0 for bid in game.bids)
    tricks = tuple(game.tricks_won)
    return HandRecord(
        hand_number=game.hand_number, hand_size=game.hand_size,
        tricks_in_hand=game.tricks_in_hand, dealer=game.dealer, trump_card=game.trump_card,
        trump_suit=game.trump_suit, bids=bids, tricks=tricks,
        made=tuple(bid == took for bid, took in zip(bids, tricks, strict=True)),
        points=(0,) * game.players, totals=tuple(game.scores),
    )


def replay_game(game: Game, moves: Iterable[tuple[int, Move]]) -> GameReplay:
    """Play `game` (fresh from Game.new, no move made) through `moves` ((seat, move) in the order
    they were accepted) and keep every hand. Raises IllegalAction when a move does not apply,
    NotFinished when the game is not over after the last move."""
    if game.scoresheet or game.tricks_played or game.current_trick:
        raise ValueError("a replay starts from a game as it was dealt")
    hands: list[HandReplay] = []
    hand = _HandInProgress(game)
    for seat, move in moves:
        if game.phase is Phase.GAME_OVER:
            raise ValueError("a move follows the end of the game")
        if isinstance(move, Play) and hand.in_play is None:
            hand.in_play = tuple(tuple(sort_hand(game.hand_of(s))) for s in range(game.players))
        outcome = game.apply(seat, move)
        if isinstance(move, Bid):
            hand.bids.append((seat, move.tricks))
        elif isinstance(move, NameTrump):
            hand.named_by = seat
        if isinstance(move, Play):
            hand.declared[(seat, move.card)] = outcome.declared or move.declaration
        if outcome.trick is not None:
            hand.tricks.append(TrickReplay(
                outcome.trick.trick_number,
                tuple(PlayedCard(s, card, hand.declared.get((s, card)))
                      for s, card in outcome.trick.cards),
                outcome.trick.winner,
            ))
        if outcome.scored is not None:
            hands.append(hand.done(outcome.scored))
            if outcome.next_hand is not None:
                hand = _HandInProgress(game)
    if game.phase is not Phase.GAME_OVER:
        raise NotFinished("this game is still being played: it can be replayed once it is over")
    if not hands:  # quick: its one hand ends the game without a sheet row
        hands.append(hand.done(_unscored_row(game)))
    return GameReplay(game.players, tuple(hands), tuple(game.winners), game)


__all__ = [
    "GameReplay",
    "HandReplay",
    "NotFinished",
    "PlayedCard",
    "TrickReplay",
    "replay_game",
]
