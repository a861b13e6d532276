"""The hard player's bid search: which bids it weighs, and when a timed bid stops."""

from __future__ import annotations

import time

import pytest

from engine import Game, Rules
from engine.ai import create_player
from engine.ai.hard import HardPlayer
from engine.ai.knowledge import read_view
from engine.ai.policy import TrickEstimator
from engine.view import PlayerView


def _first_bid(seed: int, tricks: int = 7) -> PlayerView:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [tricks], "hand_count": 1})
    game = Game.new(4, rules, seed=seed, dealer=3)
    return game.view(0)


def _estimate(view: PlayerView) -> float:
    k = read_view(view)
    return TrickEstimator(k.players, k.tricks_in_hand, k.trump, k.turned).estimate(k.hand)


@pytest.mark.parametrize("seed", range(6))
def test_a_seven_card_bid_weighs_only_the_bids_near_its_estimate(seed: int) -> None:
    """Issue 24: the best bid is rarely more than 1.5 tricks from the estimate, so the 20 ms a
    bid gets are spent on those (docs/rules.md: any bid from 0 to the hand size is legal)."""
    view = _first_bid(seed)
    player = HardPlayer(seed=seed, iterations=12, bid_window=15)
    bid = player.choose_bid(view)
    guess = _estimate(view)
    near = {b for b in view.legal_bids if abs(b - guess) <= 1.5}
    assert {int(b) for b in player.last_values} == near
    assert bid in near
    assert len(near) < len(view.legal_bids)


def test_a_zero_bid_that_scores_more_than_a_made_one_is_weighed_even_far_from_the_estimate(
) -> None:
    """With zero_bid "five_plus_hand" (docs/rules.md), a made zero scores 5 + the hand size, more
    than a made bid of one: the window must not drop it."""
    for seed in range(40):
        view = _first_bid(seed)
        if _estimate(view) > 1.5:
            break
    else:
        pytest.fail("no seat with an estimate above 1.5 in 40 deals")
    rules = view.rules.model_copy(update={"zero_bid": "five_plus_hand"})
    rich = Game.new(4, rules, seed=seed, dealer=3).view(0)
    player = HardPlayer(seed=seed, iterations=12, bid_window=15)
    player.choose_bid(rich)
    assert 0 in {int(b) for b in player.last_values}
    plain = HardPlayer(seed=seed, iterations=12, bid_window=15)
    plain.choose_bid(view)
    assert 0 not in {int(b) for b in plain.last_values}


def test_by_default_every_legal_bid_is_weighed() -> None:
    """The default player (0.5 s) bids as before the window: it searches its 200 deals anyway."""
    view = _first_bid(0)
    player = HardPlayer(seed=0, iterations=12)
    player.choose_bid(view)
    assert {int(b) for b in player.last_values} == set(view.legal_bids)


def test_the_same_seed_and_deals_give_the_same_bid_and_values() -> None:
    view = _first_bid(4)
    first, second = HardPlayer(seed=9, iterations=30), HardPlayer(seed=9, iterations=30)
    assert first.choose_bid(view) == second.choose_bid(view)
    assert first.last_values == second.last_values


def test_a_timed_bid_starts_no_deal_that_would_end_past_its_think_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bid is one decision in eight and issue 24 allows 5% over 20 ms: every bid must end
    inside its budget. Here the CPU clock moves only as deals are drawn, 0.7 ms each."""
    clock = [100.0]
    monkeypatch.setattr(time, "thread_time", lambda: clock[0])
    real_drawer = HardPlayer._drawer

    def slow_drawer(self: HardPlayer, sampler: object, model: object) -> object:
        drawer = real_drawer(self, sampler, model)  # type: ignore[arg-type]
        draw = drawer.draw

        def timed() -> object:
            clock[0] += 0.0007
            return draw()

        drawer.draw = timed  # type: ignore[method-assign]
        return drawer

    monkeypatch.setattr(HardPlayer, "_drawer", slow_drawer)
    player = create_player("hard", seed=1, think_time=0.02, bid_window=15)
    assert isinstance(player, HardPlayer)
    player.choose_bid(_first_bid(2))
    assert clock[0] - 100.0 <= 0.02
    assert player.last_deals >= 25
