"""Computer players under the special-card presets: legal to the end, and sensible."""

import pytest

from engine import Card, Declaration, Game, Phase, Play, Rules, Suit
from engine.ai import LEVELS, create_player
from engine.ai.special import outcome
from tests.engine.test_special import bid_all, game_of

SPECIAL = Rules.preset_names(special_cards=True)[len(Rules.preset_names()):]


def player(level: str, seed: int = 1):  # type: ignore[no-untyped-def]
    return create_player(level, seed=seed, iterations=12)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", SPECIAL)
def test_every_level_plays_every_special_preset_to_the_end(preset: str, level: str) -> None:
    rules = Rules.preset(preset)
    rules = rules.model_copy(update={"hand_sizes": [4] if preset == "quick" else [4, 2]})
    players = rules.min_players
    game = Game.new(players, rules, seed=5)
    bots = [player(level, seed) for seed in range(players)]
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        move = bots[seat].choose_move(game.view(seat))
        game.apply(seat, move)  # refuses (raises) anything illegal
    assert len(game.scoresheet) == len(rules.plan(players)) or preset == "quick"


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_wizard_is_a_sure_trick_and_a_jester_a_sure_loss_when_bidding(level: str) -> None:
    game = game_of("wizard", {0: ["W1", "N1"], 1: ["2C", "3D"], 2: ["4C", "5D"]},
                   turned="9S", dealer=2)
    assert player(level).choose_bid(game.view(0)) == 1


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_jester_is_played_to_lose_and_a_wizard_to_win(level: str) -> None:
    game = game_of("wizard", {0: ["2C", "3D"], 1: ["N1", "W1"], 2: ["AC", "5D"]},
                   turned="9S", dealer=2)
    bid_all(game, [0, 0, 1])
    game.play(0, "2C")
    assert player(level).choose_card(game.view(1)) == Card.parse("N1")
    game = game_of("wizard", {0: ["2C", "3D"], 1: ["N1", "W1"], 2: ["AC", "5D"]},
                   turned="9S", dealer=2)
    bid_all(game, [0, 1, 0])
    game.play(0, "2C")
    assert player(level).choose_card(game.view(1)) == Card.parse("W1")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_high_joker_is_declared_to_win_when_the_bid_needs_the_trick(level: str) -> None:
    hands = {0: ["AS"], 1: ["JKH"], 2: ["KS"], 3: ["QS"]}
    game = game_of("love_that_joker", hands, turned="9S")
    bid_all(game, [1, 1, 0, 1])
    game.play(0, "AS")
    move = player(level).choose_move(game.view(1))
    assert move == Play(Card.parse("JKH"), Declaration(Suit.SPADES, True))
    outcome = game.apply(1, move)
    assert outcome.declared == Declaration(Suit.SPADES, True)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_joker_is_declared_low_when_the_bid_is_made(level: str) -> None:
    hands = {0: ["2S", "2C"], 1: ["JKH", "3C"], 2: ["KS", "4C"], 3: ["QS", "5C"]}
    game = game_of("love_that_joker", hands, turned="9S")
    bid_all(game, [1, 0, 0, 0])
    game.play(0, "2S")
    view = game.view(1)
    move = player(level).choose_move(view)
    assert isinstance(move, Play)
    if move.card == Card.parse("JKH"):
        assert move.declaration is not None and move.declaration.high is False
    game.apply(1, move)
    game.play(2, "KS")
    game.play(3, "QS")
    assert game.tricks_won[1] == 0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_first_blackout_joker_is_declared_high_when_the_trick_is_needed(level: str) -> None:
    hands = {
        0: ["AC", "KD"], 1: ["3C", "JK"], 2: ["5C", "6D"], 3: ["8C", "9D"], 4: ["JC", "QD"],
    }
    rules = Rules.preset("blackout_jokers").model_copy(update={"hand_sizes": [2]})
    from tests.engine.test_special import pack_for

    game = Game.new(5, rules, seed=1, dealer=4, deck=pack_for(rules, 5, hands, 4, None))
    bid_all(game, [1, 1, 0, 0, 1])
    for seat, card in [(0, "AC"), (1, "3C"), (2, "5C"), (3, "8C"), (4, "JC")]:
        game.play(seat, card)
    game.play(0, "KD")
    move = player(level).choose_move(game.view(1))
    assert move == Play(Card.parse("JK"), Declaration(None, True))


def test_under_quick_a_made_bid_is_worth_a_win_only_when_no_higher_bid_is_made() -> None:
    rules = Rules.preset("quick").model_copy(update={"hand_sizes": [3]})
    game = Game.new(4, rules, seed=5)
    view = game.view(0)
    assert outcome(view, [1, 0, 0, 2], [1, 0, 0, 2]) == 0.0  # seat 3's higher bid wins
    assert outcome(view, [1, 0, 0, 2], [1, 0, 1, 1]) == 1.0
    assert outcome(view, [1, 0, 0, 2], [2, 0, 0, 1]) == 0.0
