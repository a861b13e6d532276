"""No level can read a hidden hand: equal views give equal decisions, whatever the hidden cards."""

from __future__ import annotations

import ast
import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest

from engine import STANDARD_DECK, Card, Game, Phase, PlayerView, Rules
from engine.ai import LEVELS, create_player

from .helpers import act

RULES = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
PLAYERS = 4
DEALER = 3
ME = 0


def _holder_map(deck: list[Card]) -> dict[Card, int]:
    """Card -> seat holding it after the deal (-1: stock or the turned card)."""
    where: dict[Card, int] = {}
    dealt = 7 * PLAYERS
    for position, card in enumerate(deck):
        where[card] = (DEALER + 1 + position) % PLAYERS if position < dealt else -1
    return where


def _swapped_deck(deck: list[Card], played: set[Card], rng: random.Random) -> list[Card]:
    """The deck with unplayed same-suit cards swapped between other hands and the stock."""
    where = _holder_map(deck)
    turned = deck[7 * PLAYERS]
    out = deck[:]
    position = {card: i for i, card in enumerate(out)}
    hidden = [
        card for card in deck
        if where[card] != ME and card not in played and card is not turned
    ]
    rng.shuffle(hidden)
    swaps = 0
    for first in hidden:
        for second in hidden:
            if (
                first.suit == second.suit
                and where[first] != where[second]
                and first is not second
            ):
                i, j = position[first], position[second]
                if out[i] is first and out[j] is second:
                    out[i], out[j] = second, first
                    position[first], position[second] = j, i
                    swaps += 1
                    break
    assert swaps, "no hidden card could be swapped"
    return out


def _decision_points(seed: int) -> tuple[list[Card], list[tuple[list[object], PlayerView]]]:
    """Play a hand; return its pack and, for each decision of seat ME, the actions before it
    and the view."""
    rng = random.Random(seed)
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    game = Game.new(PLAYERS, RULES, seed=seed, dealer=DEALER, deck=deck)
    others = [create_player("medium", seed=seed + s) for s in range(PLAYERS)]
    actions: list[object] = []
    points: list[tuple[list[object], PlayerView]] = []
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        view = game.view(seat)
        if seat == ME:
            points.append((actions[:], view))
        action = others[seat].choose_move(view)
        act(game, seat, action)
        actions.append(action)
    return deck, points


@pytest.mark.parametrize("level", LEVELS)
def test_swapping_hidden_cards_changes_no_decision(level: str) -> None:
    checked = 0
    for seed in range(3):
        deck_a, points = _decision_points(seed)
        for actions, view_a in points[::2]:
            played = {card for trick in view_a.tricks_played for _, card in trick}
            played |= {card for _, card in view_a.current_trick}
            deck_b = _swapped_deck(deck_a, played, random.Random(seed))
            game_b = Game.new(PLAYERS, RULES, seed=seed, dealer=DEALER, deck=deck_b)
            game_a = Game.new(PLAYERS, RULES, seed=seed, dealer=DEALER, deck=deck_a)
            for action in actions:
                seat = game_b.actor_seats()[0]
                act(game_b, seat, action)
                act(game_a, seat, action)
            view_b = game_b.view(ME)
            assert view_b == view_a
            assert deck_b != deck_a  # unplayed cards moved between other hands and the stock
            assert game_a.hand_of(ME) == game_b.hand_of(ME)
            first = create_player(level, seed=42, iterations=30).choose_move(view_a)
            second = create_player(level, seed=42, iterations=30).choose_move(view_b)
            assert first == second
            checked += 1
    assert checked >= 6


def test_a_view_holds_no_game_and_no_other_hand() -> None:
    game = Game.new(4, RULES, seed=3, dealer=DEALER)
    view = game.view(ME)
    for field in dataclasses.fields(view):
        value = getattr(view, field.name)
        assert not isinstance(value, Game)
    own = set(view.hand)
    for seat in range(1, 4):
        assert not own & set(game.hand_of(seat))
    assert len(view.hand) == 7


FORBIDDEN_NAMES = {"Game", "hand_of", "gc", "inspect", "_stock", "hands", "sys"}


def test_the_players_never_touch_a_game() -> None:
    """engine/ai imports no Game and reaches for no hidden state."""
    folder = Path(__file__).resolve().parents[2] / "engine" / "ai"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not {alias.name for alias in node.names} & FORBIDDEN_NAMES, path
            if isinstance(node, ast.Import):
                assert not {alias.name for alias in node.names} & FORBIDDEN_NAMES, path
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"hand_of", "_stock"}, path


def test_in_a_later_hand_hidden_cards_change_no_decision() -> None:
    """From the second hand on, `hard` also reads the earlier hands' play off the scoresheet:
    moving the cards the seat cannot see between two other hands still changes nothing."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7, 7]})
    checked = 0
    for seed in range(2):
        game = Game.new(PLAYERS, rules, seed=seed, dealer=DEALER)
        players = [create_player("medium", seed=seed + s) for s in range(PLAYERS)]
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            if seat == ME and game.scoresheet and len(view.legal_cards) != 1:
                twin = _with_hidden_cards_swapped(game, random.Random(seed))
                if twin is not None:
                    assert twin.view(ME) == view and twin.to_json() != game.to_json()
                    first = create_player("hard", seed=42, iterations=30).choose_move(view)
                    second = create_player("hard", seed=42, iterations=30).choose_move(
                        twin.view(ME))
                    assert first == second
                    checked += 1
            game.apply(seat, players[seat].choose_move(view))
    assert checked >= 4


def _with_hidden_cards_swapped(game: Game, rng: random.Random) -> Game | None:
    """The same game with two unplayed cards of one suit traded between two other seats
    (shown voids still hold), or None when no such trade exists."""
    data = json.loads(game.to_json())
    hands = data["hands"]
    others = [seat for seat in range(PLAYERS) if seat != ME]
    rng.shuffle(others)
    for a, b in itertools.permutations(others, 2):
        for first, second in itertools.product(hands[a], hands[b]):
            if Card.parse(first).suit == Card.parse(second).suit:
                hands[a] = [second if c == first else c for c in hands[a]]
                hands[b] = [first if c == second else c for c in hands[b]]
                return Game.from_json(json.dumps(data))
    return None
