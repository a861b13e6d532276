"""Shared helpers for the computer-player tests: packs that deal chosen hands, a game driver."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import STANDARD_DECK, Card, Game, Phase, PlayerView, Rules
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


def act(game: Game, seat: int, action: object) -> None:
    game.apply(seat, action)  # type: ignore[arg-type]


def check_legal(view: PlayerView, action: object) -> None:
    """The action is one the view offered."""
    phase = view.phase
    if phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        assert action in view.legal_bids, (action, view.legal_bids)
        assert view.hook_bid is None or view.seat != view.dealer or action != view.hook_bid
    elif phase is Phase.PLAYING:
        assert action in view.legal_cards, (action, view.legal_cards)
    elif phase is Phase.TRUMP_CHOICE:
        assert action in view.legal_trumps
    elif phase is Phase.DISCARD:
        assert isinstance(action, list)
        assert len(action) == view.discards_needed == len(set(action))
        assert all(card in view.hand for card in action)


def play_game(
    players: Sequence[Player],
    rules: Rules,
    seed: int,
    on_decision: Callable[[PlayerView, object], None] | None = None,
    max_hands: int | None = None,
) -> Game:
    """Play a whole game (or `max_hands` hands) with these players; every action is checked."""
    game = Game.new(len(players), rules, seed=seed)
    while game.phase is not Phase.GAME_OVER:
        if max_hands is not None and game.hand_number > max_hands:
            break
        for seat in game.actor_seats():
            view = game.view(seat)
            action = players[seat].choose_action(view)
            check_legal(view, action)
            if on_decision is not None:
                on_decision(view, action)
            act(game, seat, action)
            break
    return game
