"""The hard player's budget: deals, its own CPU time, and a wall-clock cap."""

from __future__ import annotations

import math
import time
from types import SimpleNamespace
from typing import Any

import pytest

import engine.ai.hard as hard_module
from engine import Game, PlayerView, Rules
from engine.ai import create_player
from engine.ai.hard import (
    MAX_DEALS,
    WALL_FACTOR,
    WALL_FLOOR,
    Budget,
    HardPlayer,
)


def test_an_iteration_budget_stops_at_its_count() -> None:
    budget = Budget(limit=5)
    assert [budget.more(deals) for deals in range(7)] == [True] * 5 + [False] * 2


def test_a_spent_cpu_allowance_stops_after_the_two_deals_every_decision_takes() -> None:
    budget = Budget(limit=100, cpu=time.thread_time() - 1.0)
    assert budget.more(0) and budget.more(1)
    assert not budget.more(2)


def test_the_wall_clock_caps_a_decision_whose_cpu_allowance_is_not_spent() -> None:
    """On a busy machine the CPU allowance lasts longer than the wall clock allows."""
    budget = Budget(limit=100, cpu=math.inf, wall=time.perf_counter() - 1.0)
    assert budget.more(1)
    assert not budget.more(2)


def test_a_timed_budget_gives_the_wall_clock_more_room_than_the_cpu() -> None:
    wall_before, cpu_before = time.perf_counter(), time.thread_time()
    budget = Budget.timed(0.5, limit=100)
    wall_after, cpu_after = time.perf_counter(), time.thread_time()
    assert cpu_before + 0.5 <= budget.cpu <= cpu_after + 0.5
    assert wall_before + WALL_FACTOR * 0.5 <= budget.wall <= wall_after + WALL_FACTOR * 0.5
    assert WALL_FACTOR > 1
    assert Budget.timed(None, limit=7) == Budget(limit=7)


def test_a_short_cpu_budget_still_gets_the_wall_clock_floor() -> None:
    """A hint's few milliseconds of CPU are not cut short by a busy machine's clock: the wall
    limit never falls below WALL_FLOOR."""
    wall_before = time.perf_counter()
    budget = Budget.timed(0.035, limit=100)
    assert budget.wall >= wall_before + WALL_FLOOR
    assert WALL_FLOOR > WALL_FACTOR * 0.035


def test_a_timed_decision_stops_at_max_deals_with_time_to_spare() -> None:
    """Play stops improving near 200 deals; a decision given far more time still stops at
    MAX_DEALS, so tables thinking at once on a busy machine do not spend CPU past it. (This
    lead, with no cap, searches thousands of deals.)"""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7], "hand_count": 1})
    game = Game.new(4, rules, seed=3, dealer=3)
    for seat in range(4):
        game.apply(seat, create_player("medium", seed=seat).choose_move(game.view(seat)))
    player = create_player("hard", seed=2, think_time=20.0)
    assert isinstance(player, HardPlayer)
    player.choose_move(game.view(0))
    assert player.last_deals == MAX_DEALS


class FakeClock:
    """CPU and wall time that advance only as the search works: `per_draw` a deal drawn and
    `per_play` a deal played out after a candidate card, so a timed search runs the same on a
    busy machine as on an idle one."""

    def __init__(self, per_draw: float, per_play: float) -> None:
        self.now = 0.0
        self.per_draw = per_draw
        self.per_play = per_play

    def __call__(self) -> float:
        return self.now


def opening_lead() -> PlayerView:
    """Seat 0 leading the first trick of a 7-card hand: several cards to choose between."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7], "hand_count": 1})
    game = Game.new(4, rules, seed=3, dealer=3)
    for seat in range(4):
        game.apply(seat, create_player("medium", seed=seat).choose_move(game.view(seat)))
    return game.view(0)


def test_a_timed_card_decision_sizes_its_last_batch_to_end_inside_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The batches are sized by what a deal has cost so far: an opening lead uses most of its
    10 ms on the fake clock and stops inside them, not a batch later."""
    clock = FakeClock(per_draw=0.0002, per_play=0.0001)
    monkeypatch.setattr(hard_module, "time", SimpleNamespace(thread_time=clock,
                                                             perf_counter=clock))
    drawer = HardPlayer._drawer
    batch_values = hard_module.batch_values

    def costly(self: HardPlayer, sampler: Any, model: Any) -> Any:
        deals = drawer(self, sampler, model)
        draw_rows = deals.draw_rows

        def timed(rows: Any, count: int, *args: Any) -> Any:
            clock.now += clock.per_draw * count
            return draw_rows(rows, count, *args)

        deals.draw_rows = timed
        return deals

    def played(rows: Any, weights: Any, rules: Any, bids: Any, me: int, table: Any,
               branch_at: int, candidates: Any, alive: Any, *rest: Any) -> Any:
        clock.now += clock.per_play * len(rows) * len(alive)
        return batch_values(rows, weights, rules, bids, me, table, branch_at, candidates,
                            alive, *rest)

    monkeypatch.setattr(HardPlayer, "_drawer", costly)
    monkeypatch.setattr(hard_module, "batch_values", played)
    player = HardPlayer(seed=2, think_time=0.01)
    player.choose_move(opening_lead())
    assert clock.now <= 0.01 + 1e-9, "the last batch ran past the budget"
    assert player.last_deals >= 8


def test_a_fixed_iteration_decision_never_exceeds_its_cap() -> None:
    """Iterations make a decision reproducible: the count is never passed, though it is no
    multiple of the batch size."""
    player = HardPlayer(seed=2, iterations=30)
    player.choose_move(opening_lead())
    assert player.last_deals == 30



def test_a_special_card_decision_starts_no_deal_that_would_end_past_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the special-card presets a deal rolls out every option on the engine's rules: a
    decision must stop before a deal it expects to end past its 18 ms, not start it because
    some time was left. Here the CPU clock moves only as deals are drawn, 7 ms each."""
    import engine.ai.special as special_module

    clock = FakeClock(per_draw=0.007, per_play=0.0)
    monkeypatch.setattr(hard_module, "time", SimpleNamespace(thread_time=clock,
                                                             perf_counter=clock))
    real_deal = special_module.SpecialSearch.deal

    def costly(self: Any, *args: Any) -> Any:
        clock.now += clock.per_draw
        return real_deal(self, *args)

    monkeypatch.setattr(special_module.SpecialSearch, "deal", costly)
    rules = Rules.preset("wizard").model_copy(update={"hand_sizes": [5], "hand_count": 1})
    game = Game.new(4, rules, seed=3, dealer=3)
    player = HardPlayer(seed=2, think_time=0.018)
    player.choose_move(game.view(game.actor_seats()[0]))
    assert player.last_deals == 2  # 7 and 14 ms spent: a third deal would end at 21
    assert clock.now <= 0.018
