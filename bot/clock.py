"""Time, injectable: the real clock for the bot, a manual one so tests never sleep."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """What the table service needs from time: now (aware UTC) and a sleep to a moment."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait about `seconds` (0 or less: just yield to the loop)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Wait until `when` (returns at once if it has passed)."""
        ...


class SystemClock:
    """The wall clock and asyncio.sleep."""

    def now(self) -> datetime:
        """Current aware UTC time."""
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        """asyncio.sleep, never negative."""
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, when: datetime) -> None:
        """Sleep the remaining time until `when`."""
        await asyncio.sleep(max(0.0, (when - self.now()).total_seconds()))


class ManualClock:
    """A clock that moves only when a test calls `advance`; sleepers wake in time order.

    `await clock.advance(30)` moves time on by 30 seconds, waking every sleeper whose moment
    came, and lets the woken tasks run before it returns.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2030, 1, 1, tzinfo=UTC)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> datetime:
        """The manual time."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Sleep in manual time (0 or less: just yield)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await self.sleep_until(self._now + timedelta(seconds=seconds))

    async def sleep_until(self, when: datetime) -> None:
        """Park until `advance` reaches `when`."""
        if when <= self._now:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._ids), fut))
        await fut

    @property
    def sleepers(self) -> int:
        """How many tasks are waiting on this clock (cancelled ones excluded)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float, *, rounds: int = 50) -> None:
        """Move time forward, waking sleepers in order, and let the loop run `rounds` times after
        each."""
        target = self._now + timedelta(seconds=seconds)
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, fut = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not fut.done():
                fut.set_result(None)
                await run_pending(rounds)
        self._now = target
        await run_pending(rounds)


async def run_pending(rounds: int = 50) -> None:
    """Yield to the loop several times so woken tasks finish their synchronous steps."""
    for _ in range(rounds):
        await asyncio.sleep(0)


__all__ = ["Clock", "ManualClock", "SystemClock", "run_pending"]
