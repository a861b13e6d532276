"""The process's one clock (bot/scheduler.py): deadlines that come due together are handed on one
a loop iteration, so a run of them (the nudges of many tables dealt at once, or many entries
moved since) never holds the event loop: at 10,000 tables one dispatch step held it 23 ms
(bench/bot.py's docstring, stop 27)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import bot.scheduler
from bot.clock import ManualClock
from bot.scheduler import Scheduler


async def test_deadlines_due_together_let_other_work_run_between_them() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    seen: list[str] = []
    loop = asyncio.get_running_loop()

    def due(name: str) -> None:
        seen.append(name)
        if name == "first":  # work that comes meanwhile, say a click
            loop.call_soon(seen.append, "click")

    soon = clock.now() + timedelta(seconds=1)
    for name in ("first", "second", "third"):
        scheduler.at(name, soon, lambda name=name: due(name))
    await clock.advance(1)
    assert seen == ["first", "click", "second", "third"]
    await scheduler.close()


async def test_a_run_of_moved_deadlines_lets_the_loop_run_while_it_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.scheduler, "STALE_RUN", 2)

    async def ticks_between(moved: int) -> int:
        """Loop iterations between two deadlines due together with `moved` entries between
        them that were moved later since (a ticker started by the first counts them)."""
        clock = ManualClock()
        scheduler = Scheduler(clock)
        loop = asyncio.get_running_loop()
        ticks: list[int] = []
        at_second: list[int] = []

        def tick() -> None:
            ticks.append(1)
            if len(ticks) < 50:
                loop.call_soon(tick)

        soon = clock.now() + timedelta(seconds=1)
        scheduler.at("first", soon, lambda: loop.call_soon(tick))
        for i in range(moved):  # each moved later: its first entry stays in the heap, stale
            scheduler.at(("moved", i), soon, lambda: None)
            scheduler.at(("moved", i), soon + timedelta(hours=1), lambda: None)
        scheduler.at("second", soon, lambda: at_second.append(len(ticks)))
        await clock.advance(1)
        await scheduler.close()
        return at_second[0]

    assert await ticks_between(6) >= await ticks_between(0) + 3
