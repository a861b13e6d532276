"""Shared helpers for the computer-player tests: packs that deal chosen hands, a game driver."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import (
    STANDARD_DECK,
    Bid,
    Card,
    Discard,
    Game,
    Move,
    NameTrump,
    Phase,
    Play,
    PlayerView,
    Rules,
)
from engine.ai import Player


def pack_dealing(
    hands: dict[int, list[str]], players: int, dealer: int, turned: str | None
) -> list[Card]:
    """A pack (top first) that deals `hands` (seat -> cards; other seats get the rest)."""
    size = len(next(iter(hands.values())))
    slots: list[Card | None] = [None] * 52
    for seat, cards in hands.items():
        offset = (seat - dealer - 1) % players
        for i, code in enumerate(cards):
            slots[offset + i * players] = Card.parse(code)
    if turned is not None:
        slots[size * players] = Card.parse(turned)
    used = {card for card in slots if card is not None}
    rest = iter(card for card in STANDARD_DECK if card not in used)
    return [card if card is not None else next(rest) for card in slots]


def act(game: Game, seat: int, move: Move) -> None:
    game.apply(seat, move)


def check_legal(view: PlayerView, move: Move) -> None:
    """The move is the one the view's phase awaits, and one the view offered."""
    assert isinstance(move, view.phase.awaits), (view.phase, move)  # type: ignore[arg-type]
    if isinstance(move, Bid):
        assert move.tricks in view.legal_bids, (move, view.legal_bids)
        assert view.hook_bid is None or view.seat != view.dealer or move.tricks != view.hook_bid
    elif isinstance(move, Play):
        assert move.card in view.legal_cards, (move, view.legal_cards)
    elif isinstance(move, NameTrump):
        assert move.suit in view.legal_trumps
    elif isinstance(move, Discard):
        assert len(move.cards) == view.discards_needed == len(set(move.cards))
        assert all(card in view.hand for card in move.cards)


def play_game(
    players: Sequence[Player],
    rules: Rules,
    seed: int,
    on_decision: Callable[[PlayerView, Move], None] | None = None,
    max_hands: int | None = None,
) -> Game:
    """Play a whole game (or `max_hands` hands) with these players; every action is checked."""
    game = Game.new(len(players), rules, seed=seed)
    while game.phase is not Phase.GAME_OVER:
        if max_hands is not None and game.hand_number > max_hands:
            break
        for seat in game.actor_seats():
            view = game.view(seat)
            move = players[seat].choose_move(view)
            check_legal(view, move)
            if on_decision is not None:
                on_decision(view, move)
            act(game, seat, move)
            break
    return game
