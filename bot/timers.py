"""Turn timers: each awaited turn's two moments (a warning at half time, the deadline) kept in
the process's one scheduler (bot/scheduler.py), not in a task per table.

TurnTimers only keeps time. What a warning or a timeout does is the runner's (bot/runner.py):
it passes the two moments when it arms a table, and at their time each is posted to the
table's inbox as a job. The deadline itself lives on the table (LiveTable.next_deadline) and
in its store row, so timers come back after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.scheduler import Scheduler
from bot.table import LiveTable

log = logging.getLogger(__name__)

Moment = Callable[[LiveTable, datetime], Awaitable[None]]
"""What happens at a timer's moment, given the table and the deadline it was armed for; run
as a job in the table's inbox."""


class TurnTimers:
    """Arms, re-arms and cancels each table's moments in the scheduler."""

    def __init__(self, scheduler: Scheduler) -> None:
        self._scheduler = scheduler
        self._armed: dict[int, datetime] = {}  # table id -> the deadline its moments are for
        self._busy: set[int] = set()
        self._closed = False
        self._paused = False
        self._held: set[int] = set()  # tables whose timers are paused (their server is down)

    def arm(self, t: LiveTable, *, warn: Moment, expire: Moment) -> None:
        """(Re)set the moments for the table's current deadline (none: no moments). Moments
        already set for that very deadline are kept."""
        deadline = t.deadline
        if deadline is not None and self._armed.get(t.id) == deadline:
            return
        self.disarm(t)
        if deadline is None or self._closed or self._paused or t.id in self._held:
            return
        self._armed[t.id] = deadline
        if not t.warned:
            half = deadline - timedelta(seconds=t.turn_timeout / 2)
            self._scheduler.at(("warn", t.id), half, lambda: self._post(t, deadline, warn))
        self._scheduler.at(("expire", t.id), deadline, lambda: self._post(t, deadline, expire))

    def disarm(self, t: LiveTable) -> None:
        """Forget the table's moments."""
        self._drop(t.id)

    def pause(self, table_ids: set[int] | None = None) -> None:
        """Forget every waiting moment, or only those of `table_ids`, and arm none of them
        until `resume`: the deadlines stay on the tables, to be moved on by the caller."""
        if table_ids is None:
            self._paused = True
        else:
            self._held |= table_ids
        for table_id in list(self._armed):
            if table_ids is None or table_id in table_ids:
                self._drop(table_id)

    def resume(self, table_ids: set[int] | None = None) -> None:
        """Arm timers again, all or those of `table_ids` (the caller re-arms each table)."""
        if table_ids is None:
            self._paused = False
        else:
            self._held -= table_ids

    @property
    def busy(self) -> bool:
        """A moment came and its job has not ended yet."""
        return bool(self._busy)

    async def close(self) -> None:
        """Forget every moment; a job already posted ends in its inbox."""
        self._closed = True
        for table_id in list(self._armed):
            self._drop(table_id)

    def _drop(self, table_id: int) -> None:
        if self._armed.pop(table_id, None) is not None:
            self._scheduler.cancel(("warn", table_id))
            self._scheduler.cancel(("expire", table_id))

    def _post(self, t: LiveTable, deadline: datetime, moment: Moment) -> None:
        """The scheduler says a moment came: run it in the table's inbox."""
        if self._armed.get(t.id) != deadline:
            return
        if self._scheduler.when(("expire", t.id)) is None:
            del self._armed[t.id]  # its last moment: the next arm sets new ones
        self._busy.add(t.id)

        async def job() -> None:
            try:
                await moment(t, deadline)
            except Exception:
                log.exception("turn timer failed at table %s", t.id)

        t.inbox.post(job).add_done_callback(lambda _: self._busy.discard(t.id))


__all__ = ["Moment", "TurnTimers"]
