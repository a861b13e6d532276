"""The hard player's budget: deals, its own CPU time, and a wall-clock cap."""

from __future__ import annotations

import math
import time

from engine import Game, Rules
from engine.ai import create_player
from engine.ai.hard import MAX_DEALS, WALL_FACTOR, WALL_FLOOR, Budget, HardPlayer


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
