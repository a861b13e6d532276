"""A click leaves no cyclic garbage: with 1,000 tables, the garbage collector's full passes over
a large heap are what would stall the event loop (see bench/bot.py)."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tests.discord.driver import Driver
from tests.discord.harness import Harness


@asynccontextmanager
async def cyclic_garbage() -> AsyncIterator[Counter[str]]:
    """With the collector off inside, the discord and cogs objects left in cycles, by type
    (filled when the block ends)."""
    kinds: Counter[str] = Counter()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield kinds
        gc.collect()
        kinds.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
                     if type(o).__module__.startswith(("discord", "cogs")))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_clicks_leave_no_cyclic_garbage(h: Harness) -> None:
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=9)
    await d.lobby(max_cards=3)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # warm up: first-use caches are not garbage
    async with cyclic_garbage() as kinds:
        for _ in range(8):
            seat, m = d.awaited()[0]
            await d.act_controls(seat, m)
    assert not kinds, kinds


async def test_finished_hands_leave_no_cyclic_garbage(h: Harness) -> None:
    """Each hand's DM messages are let go at its end: freed as they are dropped, not left for a
    full collection (which bot/client.py runs only once memory grew by half)."""
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=4)
    await d.lobby(max_cards=2)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # warm up: first-use caches are not garbage
    async with cyclic_garbage() as kinds:
        await d.play_out("controls")  # every hand to the end of the game
    assert d.view() is None  # the game did end
    assert not kinds, kinds
