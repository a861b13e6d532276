"""The garbage collector's policy (bot/client.py): the loop starts the young collections between
callbacks, each examines only what was born since the last (the survivors are frozen), and a
cycle that died frozen is still freed, by the full pass that comes once the process's memory
has grown."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot import client
from bot.client import release_garbage_collector, resident_bytes, tune_garbage_collector


class Node:
    """An object that can point at itself (a cycle reference counting never frees)."""

    def __init__(self) -> None:
        self.me: Node | None = None


@pytest.mark.skipif(resident_bytes() == 0, reason="resident memory is read from Linux's /proc")
async def test_a_cycle_that_died_frozen_is_freed_once_memory_grew(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "FULL_PASS_GROWTH", 1.01)
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
        # 10% more memory, every page written: well past FULL_PASS_GROWTH even where the
        # collections above gave pages back (a process that loaded the compiled kernels
        # holds a large heap; 2% was not always enough in the whole suite)
        growth = b"x" * (resident_bytes() // 10)
        gc.collect()
        await asyncio.sleep(0)  # the loop runs the full pass it was asked for
        assert alive() is None
        del growth
    finally:
        release_garbage_collector(owner)


async def test_young_garbage_is_collected_by_the_loop_not_amid_the_code_that_made_it() -> None:
    before = gc.get_threshold()
    owner = object()
    tune_garbage_collector(owner)
    try:
        made = []
        for _ in range(client.YOUNG_GENERATION_THRESHOLD * 2):  # twice what starts a collection
            cycle = Node()
            cycle.me = cycle
            made.append(weakref.ref(cycle))
        del cycle
        assert all(ref() is not None for ref in made)  # no collection inside this code
        await asyncio.sleep(client.COLLECT_EVERY * 10)  # the loop looks meanwhile
        assert all(ref() is None for ref in made)
    finally:
        release_garbage_collector(owner)
    assert gc.get_threshold() == before  # Python's own collections again
