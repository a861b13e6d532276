"""The garbage collector's policy (bot/client.py): each collection examines only what was born
since the last (the survivors are frozen), and a cycle that died frozen is still freed, by the
full pass that comes once the frozen heap has grown."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.client import FULL_PASS_GROWTH, release_garbage_collector, tune_garbage_collector


class Node:
    """An object that can point at itself (a cycle reference counting never frees)."""

    def __init__(self) -> None:
        self.me: Node | None = None


async def test_a_cycle_that_died_frozen_is_freed_once_the_heap_grew() -> None:
    owner = object()
    tune_garbage_collector(owner)
    try:
        cycle = Node()
        cycle.me = cycle
        alive = weakref.ref(cycle)
        gc.collect()  # it survives the collection, so it is frozen
        del cycle
        gc.collect()
        assert alive() is not None  # frozen: no collection examines it
        growth = [[] for _ in range(int(gc.get_freeze_count() * (FULL_PASS_GROWTH - 1)) + 1)]
        gc.collect()  # the new lists are frozen too: the heap grew past the mark
        await asyncio.sleep(0)  # the loop runs the full pass it was asked for
        assert alive() is None
        del growth
    finally:
        release_garbage_collector(owner)
