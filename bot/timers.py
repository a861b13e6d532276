"""Turn timers of the table service: deadlines, arming, the half-time warning, the timeout
(a computer moves for the person) and the autopilot bookkeeping that follows timeouts.

TimerMixin is part of TableService (bot/service.py); its methods run under the table's lock
unless they say otherwise, and use the service's pipeline (_commit, _settle, _publish).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.events import Event, SeatAutopiloted, TimedOut, TimerWarning
from bot.models import TableOptions
from bot.table import LiveTable
from engine import Phase

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.service import ServiceConfig

log = logging.getLogger(__name__)


class TimerMixin:
    """Turn timers (see the module docstring)."""

    if TYPE_CHECKING:
        config: ServiceConfig
        clock: Clock
        _closed: bool

        async def _publish(self, t: LiveTable, events: list[Event]) -> None: ...
        async def _settle(self, t: LiveTable, events: list[Event], *, moved: bool) -> None: ...
        def _forget_if_closed(self, t: LiveTable) -> None: ...
        async def _machine_move(
            self, t: LiveTable, seat: int, level: str, why: str, events: list[Event]
        ) -> None: ...

    def _timeout_of(self, options: TableOptions) -> int:
        if options.turn_timeout is not None:
            return options.turn_timeout
        return self.config.default_turn_timeout

    def _disarm(self, t: LiveTable) -> None:
        current = asyncio.current_task()
        for name in ("timer", "runner"):
            task: asyncio.Task[None] | None = getattr(t, name)
            if task is not None and task is not current and not task.done():
                task.cancel()
            setattr(t, name, None)

    def _arm_timer(self, t: LiveTable) -> None:
        """(Re)start the task that warns and times out the current deadline."""
        current = asyncio.current_task()
        if t.timer is not None and t.timer is not current and not t.timer.done():
            if t.timer_deadline == t.deadline:
                return
            t.timer.cancel()
        t.timer = None
        t.timer_deadline = t.deadline
        if t.deadline is not None and not self._closed:
            t.timer = asyncio.create_task(self._run_timer(t, t.deadline))

    async def _run_timer(self, t: LiveTable, deadline: datetime) -> None:
        try:
            if not t.warned:
                await self.clock.sleep_until(deadline - timedelta(seconds=t.turn_timeout / 2))
                t.timer_busy = True
                async with t.lock:
                    if t.deadline != deadline or not t.status.active or t.warned:
                        return
                    t.warned = True
                    people = self._awaited_people(t)
                    if people:
                        await self._publish(t, [TimerWarning(tuple(people), deadline)])
                t.timer_busy = False
            await self.clock.sleep_until(deadline)
            t.timer_busy = True
            async with t.lock:
                if t.deadline != deadline or not t.status.active:
                    return
                if t.timer is asyncio.current_task():
                    t.timer = None
                await self._time_out(t)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed at table %s", t.id)
        finally:
            t.timer_busy = False

    async def _time_out(self, t: LiveTable) -> None:
        """Time is up: the medium computer moves for every person still awaited."""
        game = t.game
        assert game is not None
        events: list[Event] = []
        for seat in self._awaited_people(t):
            if game.phase is Phase.GAME_OVER or seat not in game.actor_seats():
                continue
            s = t.seats[seat]
            s.timeouts += 1
            events.append(TimedOut(seat, s.timeouts))
            if s.timeouts >= self.config.autopilot_after:
                s.autopilot = True
                events.append(SeatAutopiloted(seat, True))
            await self._machine_move(t, seat, self.config.timeout_level, "timeout", events)
        await self._settle(t, events, moved=True)
        await self._publish(t, events)
        self._forget_if_closed(t)

    def _awaited_people(self, t: LiveTable) -> list[int]:
        """The awaited seats that a person plays themself now (the timer runs for them)."""
        game = t.game
        if game is None or game.phase is Phase.GAME_OVER:
            return []
        return [seat for seat in game.actor_seats() if not t.seats[seat].machine_plays]

    def _update_deadline(self, t: LiveTable, *, moved: bool) -> bool:
        """Set the deadline for whoever is awaited now; True when it changed.

        A move starts a new turn (a new deadline), except in the simultaneous steps where
        the same deadline covers everyone still to bid or discard.
        """
        people = self._awaited_people(t)
        if not people or t.turn_timeout <= 0:
            new = None
        elif t.deadline is not None and (
            not moved
            or (
                t.game is not None
                and t.game.phase.simultaneous
                and t.deadline_phase == (t.game.hand_number, t.game.phase)
            )
        ):
            new = t.deadline
        else:
            new = self.clock.now() + timedelta(seconds=t.turn_timeout)
        if t.game is not None:
            t.deadline_phase = (t.game.hand_number, t.game.phase)
        if new == t.deadline:
            return False
        t.deadline = new
        t.warned = False
        return True


__all__ = ["TimerMixin"]
