"""A click leaves no cyclic garbage: with 1,000 tables, the garbage collector's full passes over
a large heap are what would stall the event loop (see bench/bot.py)."""

from __future__ import annotations

import gc
from collections import Counter

from tests.discord.driver import Driver
from tests.discord.harness import Harness


async def test_clicks_leave_no_cyclic_garbage(h: Harness) -> None:
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=9)
    await d.lobby(max_cards=3)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # warm up: first-use caches are not garbage
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(8):
            seat, m = d.awaited()[0]
            await d.act_controls(seat, m)
        gc.collect()
        kinds = Counter(type(o).__module__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    ours = {k: v for k, v in kinds.items() if k.startswith(("discord", "cogs"))}
    assert not ours, ours


async def test_finished_hands_leave_no_cyclic_garbage(h: Harness) -> None:
    """Each hand's DM messages are let go at its end: freed as they are dropped, not left for a
    full collection (which bot/client.py runs only once memory grew by half)."""
    d = Driver(h, [h.member("alice"), h.member("bob"), h.member("carol")], seed=4)
    await d.lobby(max_cards=2)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # warm up: first-use caches are not garbage
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        await d.play_out("controls")  # every hand to the end of the game
        gc.collect()
        kinds = Counter(type(o).__qualname__ for o in gc.garbage
                        if type(o).__module__.startswith(("discord", "cogs")))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert d.view() is None  # the game did end
    assert not kinds, kinds
