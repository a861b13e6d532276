"""Every level plays whole games of every preset and table size, legally."""

from __future__ import annotations

import pytest

from engine import Phase, Rules
from engine.ai import LEVELS, create_player

from .helpers import play_game

PRESETS = Rules.preset_names()


def _sizes(rules: Rules) -> range:
    return range(rules.min_players, rules.max_players + 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_cheap_levels_play_every_preset_and_table_size(preset: str) -> None:
    rules = Rules.preset(preset)
    for players in _sizes(rules):
        for level in ("random", "easy", "medium"):
            seats = [create_player(level, seed=players * 10 + i) for i in range(players)]
            game = play_game(seats, rules, seed=players)
            assert game.phase is Phase.GAME_OVER
            assert game.winners


VARIANTS = {
    "simultaneous": {"bidding": "simultaneous", "hook": False},
    "blind_first_hand": {"blind_hand": 1, "hand_sizes": [3, 2, 1]},
    "after_broken_must_trump": {"trump_lead": "after_broken", "must_trump": True},
    "penalty_five_plus": {"scoring": "penalty", "zero_bid": "five_plus_hand"},
    "wizard_scoring": {"scoring": "wizard"},
    "blind_simultaneous": {"bidding": "simultaneous", "hook": False, "blind_hand": 2},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_levels_play_rule_variants(variant: str) -> None:
    update = {"hand_sizes": [5, 4, 3, 2, 1]} | VARIANTS[variant]
    rules = Rules.preset("classic").model_copy(update=update)
    for players in (3, 5):
        seats = [
            create_player(level, seed=i, iterations=3)
            for i, level in enumerate(("medium", "hard", "easy", "random", "medium")[:players])
        ]
        game = play_game(seats, rules, seed=players)
        assert game.phase is Phase.GAME_OVER


@pytest.mark.parametrize(
    "preset", ["classic", "oh_well", "dealer_picks", "extra_card", "ouch", "la_podrida", "kachuful"]
)
def test_hard_plays_legally_with_a_tiny_budget(preset: str) -> None:
    rules = Rules.preset(preset)
    players = 4
    seats = [create_player("hard", seed=i, iterations=2) for i in range(2)] + [
        create_player("medium", seed=9) for _ in range(players - 2)
    ]
    play_game(seats, rules, seed=5, max_hands=2)


def test_every_level_is_available() -> None:
    for level in LEVELS:
        assert create_player(level, seed=1).level == level
    with pytest.raises(ValueError):
        create_player("grandmaster")
