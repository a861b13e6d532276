"""One clock for the whole process: every deadline in one heap, one task sleeping to the first.

Turn timers (bot/timers.py) and the cogs' turn notifications keep their moments here instead of
a task each (docs/architecture.md section 1, "one scheduler for the whole process"). A deadline
is a key, a moment and what to do then: a synchronous `due` that only hands the work on (posts
a job to a table's inbox, bot/inbox.py), so the scheduler never waits on a table. Setting a key
again moves its deadline; cancelling it forgets it. The dispatching task exists only while
deadlines wait, so an idle process holds no task for them. Deadlines that must outlive the
process are stored by their owners (a turn's deadline is in its table's row) and set again at
start-up.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Callable, Hashable
from datetime import datetime

from bot.clock import Clock

log = logging.getLogger(__name__)

STALE_RUN = 256
"""Entries moved or cancelled since that the dispatcher drops before it lets the loop run (at
10,000 tables the heap holds ~28,000 entries, a fifth of them stale; a pop costs a few us)."""

Due = Callable[[], None]
"""What happens at a deadline: hand the work on, quickly, without waiting for it."""


class Scheduler:
    """The process's deadlines (see the module docstring)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._heap: list[tuple[datetime, int, Hashable]] = []
        self._entries: dict[Hashable, tuple[int, datetime, Due]] = {}
        self._ids = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until: datetime | None = None
        self._closed = False

    def at(self, key: Hashable, when: datetime, due: Due) -> None:
        """Call `due` at `when` (replacing the deadline `key` had)."""
        if self._closed:
            return
        seq = next(self._ids)
        self._entries[key] = (seq, when, due)
        heapq.heappush(self._heap, (when, seq, key))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._dispatch())
        elif self._sleeping_until is not None and when < self._sleeping_until:
            self._task.cancel()  # it sleeps past the new earliest: start again
            self._task = asyncio.get_running_loop().create_task(self._dispatch())

    def cancel(self, key: Hashable) -> None:
        """Forget the deadline of `key` (its stale heap entry is skipped when it comes up)."""
        self._entries.pop(key, None)

    def when(self, key: Hashable) -> datetime | None:
        """The deadline of `key`, or None."""
        entry = self._entries.get(key)
        return None if entry is None else entry[1]

    def __len__(self) -> int:
        return len(self._entries)

    async def close(self) -> None:
        """Forget every deadline and stop the dispatching task."""
        self._closed = True
        self._entries.clear()
        self._heap.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _dispatch(self) -> None:
        """Hand on each deadline as it comes, one a loop iteration: a run of them (say the
        nudges of many tables dealt together) never holds the loop at once, nor a run of
        entries moved or cancelled since (STALE_RUN)."""
        me = asyncio.current_task()
        try:
            skipped = 0
            while self._heap:
                when, seq, key = self._heap[0]
                entry = self._entries.get(key)
                if entry is None or entry[0] != seq:
                    heapq.heappop(self._heap)  # moved or cancelled since
                    skipped += 1
                    if skipped >= STALE_RUN:
                        skipped = 0
                        await asyncio.sleep(0)
                    continue
                if when > self._clock.now():
                    self._sleeping_until = when
                    await self._clock.sleep_until(when)
                    self._sleeping_until = None
                    continue
                heapq.heappop(self._heap)
                del self._entries[key]
                try:
                    entry[2]()
                except Exception:
                    log.exception("the deadline %r failed", key)
                skipped = 0
                await asyncio.sleep(0)  # the loop runs what waits before the next deadline
        finally:
            if self._task is me:
                self._task = None
                self._sleeping_until = None


__all__ = ["Due", "Scheduler"]
