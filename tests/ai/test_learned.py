"""The learned hard player (engine/ai/learned.py): legal, deterministic, and searching only where
its models say the candidates are close."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Phase, PlayerView, Rules
from engine.ai import create_player
from engine.ai.hard import HardPlayer
from engine.ai.knowledge import read_view
from engine.ai.learned import BID_FEATURES, CARD_FEATURES, bid_features, card_features
from engine.moves import Bid, Play

from .helpers import check_legal

STANDARD_PRESETS = [
    name for name in Rules.preset_names() if Rules.preset(name).special_cards == "none"
]


def view_after(preset: str, players: int, seed: int, steps: int) -> PlayerView | None:
    """The acting seat's view after `steps` moves of medium players (None once the game ends)."""
    rules = Rules.preset(preset)
    game = Game.new(players, rules, seed=seed)
    medium = create_player("medium", seed=seed)
    for _ in range(steps):
        if game.phase is Phase.GAME_OVER:
            return None
        seat = game.actor_seats()[0]
        game.apply(seat, medium.choose_move(game.view(seat)))
    if game.phase is Phase.GAME_OVER:
        return None
    return game.view(game.actor_seats()[0])


@st.composite
def views(draw: st.DrawFn) -> PlayerView | None:
    preset = draw(st.sampled_from(STANDARD_PRESETS))
    rules = Rules.preset(preset)
    players = draw(st.integers(rules.min_players, rules.max_players))
    return view_after(preset, players, draw(st.integers(0, 10_000)), draw(st.integers(0, 120)))


@settings(max_examples=60, deadline=None)
@given(views(), st.integers(0, 3))
def test_the_learned_player_always_answers_with_a_legal_move(
    view: PlayerView | None, close: int
) -> None:
    if view is None:
        return
    player = create_player("hard", seed=1, iterations=3, learned=1, close=close * 10)
    check_legal(view, player.choose_move(view))


@settings(max_examples=30, deadline=None)
@given(views())
def test_the_features_have_the_models_width_on_every_preset(view: PlayerView | None) -> None:
    if view is None or view.phase.awaits not in (Bid, Play) or not view.hand:
        return
    k = read_view(view)
    width = BID_FEATURES if view.phase.awaits is Bid else CARD_FEATURES
    reader = bid_features if view.phase.awaits is Bid else card_features
    assert reader(view, k).shape == (width,)


def decisions(preset: str = "classic") -> list[PlayerView]:
    """Views with a real choice of bid or card, from a few medium games."""
    found = []
    for seed in range(6):
        for steps in range(0, 40, 3):
            view = view_after(preset, 4, seed, steps)
            if view is None or view.phase.awaits not in (Bid, Play):
                continue
            options = view.legal_bids if view.phase.awaits is Bid else view.legal_cards
            if len(options) > 1:
                found.append(view)
    return found


def test_inference_is_deterministic_and_pure_model_decisions_search_nothing() -> None:
    for view in decisions():
        first = HardPlayer(seed=1, iterations=50, learned=1, close=0)
        second = HardPlayer(seed=99, iterations=50, learned=1, close=0)
        assert first.choose_move(view) == second.choose_move(view)
        assert first.last_values == second.last_values
        assert first.last_deals == 0


def test_the_search_runs_only_where_the_margin_allows_it() -> None:
    searched = 0
    for view in decisions():
        always = HardPlayer(seed=1, iterations=6, learned=1, close=10_000)
        always.choose_move(view)
        searched += always.last_deals > 0
        never = HardPlayer(seed=1, iterations=6, learned=1, close=0)
        never.choose_move(view)
        assert never.last_deals == 0
    assert searched > 0


def test_today_s_hard_is_the_default() -> None:
    player = create_player("hard", seed=1, iterations=4)
    assert isinstance(player, HardPlayer) and player.settings.learned == 0
