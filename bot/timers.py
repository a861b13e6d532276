"""Turn timers: one task per table that waits for half time (a warning) and the deadline.

TurnTimers only keeps time. What a warning or a timeout does is the caller's (bot/turns.py):
it passes the two moments as callbacks when it arms a table, and they run under the table's
lock there. The deadline itself lives on the table (LiveTable.next_deadline) and in its store
row, so timers come back after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.clock import Clock
from bot.table import LiveTable

log = logging.getLogger(__name__)

Moment = Callable[[LiveTable, datetime], Awaitable[None]]
"""What happens at a timer's moment, given the table and the deadline it was armed for."""


class TurnTimers:
    """Arms, re-arms and cancels the timer task of each table."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._tasks: dict[int, tuple[datetime, asyncio.Task[None]]] = {}
        self._busy: set[int] = set()
        self._closed = False
        self._paused = False
        self._held: set[int] = set()  # tables whose timers are paused (their server is down)

    def arm(self, t: LiveTable, *, warn: Moment, expire: Moment) -> None:
        """(Re)start the task for the table's current deadline (none: no task). A task
        already waiting for that very deadline is kept."""
        current = asyncio.current_task()
        held = self._tasks.pop(t.id, None)
        if held is not None:
            deadline, task = held
            if task is not current and not task.done():
                if deadline == t.deadline:
                    self._tasks[t.id] = held
                    return
                task.cancel()
        if t.deadline is not None and not self._closed and not self._paused \
                and t.id not in self._held:
            task = asyncio.create_task(self._run(t, t.deadline, warn, expire))
            self._tasks[t.id] = (t.deadline, task)

    def disarm(self, t: LiveTable) -> None:
        """Cancel the table's timer (unless it is the task calling)."""
        held = self._tasks.pop(t.id, None)
        if held is not None and held[1] is not asyncio.current_task():
            held[1].cancel()

    def pause(self, table_ids: set[int] | None = None) -> None:
        """Stop every timer still waiting (one handling its moment finishes), or only those
        of `table_ids`, and arm none of them until `resume`: the deadlines stay on the tables,
        to be moved on by the caller."""
        if table_ids is None:
            self._paused = True
        else:
            self._held |= table_ids
        for table_id, (_, task) in list(self._tasks.items()):
            if table_ids is not None and table_id not in table_ids:
                continue
            if table_id not in self._busy and task is not asyncio.current_task():
                task.cancel()
                del self._tasks[table_id]

    def resume(self, table_ids: set[int] | None = None) -> None:
        """Arm timers again, all or those of `table_ids` (the caller re-arms each table)."""
        if table_ids is None:
            self._paused = False
        else:
            self._held -= table_ids

    @property
    def busy(self) -> bool:
        """A timer is past its sleep, handling its warning or timeout."""
        return bool(self._busy)

    async def close(self) -> None:
        """Cancel every timer and wait for them to end."""
        self._closed = True
        tasks = [task for _, task in self._tasks.values() if not task.done()]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, t: LiveTable, deadline: datetime, warn: Moment, expire: Moment) -> None:
        try:
            if not t.warned:
                await self._clock.sleep_until(deadline - timedelta(seconds=t.turn_timeout / 2))
                self._busy.add(t.id)
                await warn(t, deadline)
                self._busy.discard(t.id)
            await self._clock.sleep_until(deadline)
            self._busy.add(t.id)
            held = self._tasks.get(t.id)
            if held is not None and held[1] is asyncio.current_task():
                del self._tasks[t.id]
            await expire(t, deadline)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", t.id)
        finally:
            self._busy.discard(t.id)


__all__ = ["Moment", "TurnTimers"]
