"""What follows a commit: whose turn it is now, the timer for it, the computers' run, and the
publish of everything committed.

Turns is the one place that joins the timers, the computer runs and the presenter. Each of those
is handed what it needs when it is started (a timer its two moments, a run its follow-up), so
none of them holds the others and there is no cycle to wire.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.computer_runs import ComputerRuns
from bot.config import ServiceConfig
from bot.directory import TableDirectory
from bot.events import (
    Event,
    SeatAutopiloted,
    TimedOut,
    TimerWarning,
    TurnChanged,
    TurnResumed,
)
from bot.models import TableStatus
from bot.presenter import Presenter
from bot.table import LiveTable
from bot.timers import TurnTimers
from engine import Phase

log = logging.getLogger(__name__)


class Turns:
    """Settles and publishes tables after commits; runs their timers' moments."""

    def __init__(
        self,
        directory: TableDirectory,
        presenter: Presenter,
        timers: TurnTimers,
        computers: ComputerRuns,
        config: ServiceConfig,
    ) -> None:
        self._directory = directory
        self._presenter = presenter
        self._timers = timers
        self._computers = computers
        self._config = config

    async def follow(self, t: LiveTable, events: list[Event], *, moved: bool = True) -> None:
        """Under the lock, after a commit: settle, publish, and forget a closed table."""
        await self.settle(t, events, moved=moved)
        await self.publish(t, events)
        self.forget_if_closed(t)

    async def settle(self, t: LiveTable, events: list[Event], *, moved: bool) -> None:
        """(Re)set the turn timer, wake the computers, say whose turn it is."""
        game = t.game
        if t.status is not TableStatus.PLAYING or game is None:
            self.disarm(t)
            return
        self._timers.arm(t, warn=self._warn, expire=self._expire)
        self._computers.wake(t, self._after_run)
        if moved or t.deadline_changed:
            events.append(
                TurnChanged(
                    seats=tuple(game.actor_seats()),
                    awaits=game.phase.awaits,
                    hand_number=game.hand_number,
                    deadline=t.deadline,
                )
            )

    async def resume(self, t: LiveTable, now: datetime) -> None:
        """A table brought back from the store: the people it awaits are told to the presenter
        (TurnResumed: their turn began before `now`), then its timer and any computer move."""
        game = t.game
        async with t.lock:
            people = t.awaited_people()
            if game is not None and people:
                began = now
                if t.deadline is not None and t.turn_timeout > 0:
                    began = min(now, t.deadline - timedelta(seconds=t.turn_timeout))
                await self.publish(t, [TurnResumed(seats=tuple(game.actor_seats()),
                                                   awaits=game.phase.awaits,
                                                   hand_number=game.hand_number, began=began)])
        self._timers.arm(t, warn=self._warn, expire=self._expire)
        self._computers.wake(t, self._after_run)

    async def publish(self, t: LiveTable, events: list[Event]) -> None:
        """Hand committed events to the presenter; its failure never undoes the action."""
        if t.unpublished:  # committed computer moves not told yet go first
            events = [*t.unpublished, *events]
            t.unpublished = []
        if not events:
            return
        try:
            await self._presenter.publish(t.view(), events)
        except Exception:
            log.exception("presenter failed on table %s", t.id)

    def disarm(self, t: LiveTable) -> None:
        """Stop the table's timer and computer run."""
        self._timers.disarm(t)
        self._computers.stop(t)

    def forget_if_closed(self, t: LiveTable) -> None:
        if t.status.active:
            return
        self.disarm(t)
        self._directory.remove(t)

    async def _after_run(self, t: LiveTable, events: list[Event]) -> None:
        if t.status.active:
            await self.settle(t, events, moved=True)
        await self.publish(t, events)
        self.forget_if_closed(t)

    # ---- the timer's moments ---------------------------------------------------------------

    async def _warn(self, t: LiveTable, deadline: datetime) -> None:
        async with t.lock:
            if t.deadline != deadline or not t.status.active or t.warned:
                return
            t.warned = True
            people = t.awaited_people()
            if people:
                await self.publish(t, [TimerWarning(tuple(people), deadline)])

    async def _expire(self, t: LiveTable, deadline: datetime) -> None:
        """Time is up: the timeout computer moves for every person still awaited."""
        async with t.lock:
            if t.deadline != deadline or not t.status.active:
                return
            game = t.game
            assert game is not None
            events: list[Event] = []
            for seat in t.awaited_people():
                if game.phase is Phase.GAME_OVER or seat not in game.actor_seats():
                    continue
                s = t.seats[seat]
                s.timeouts += 1
                events.append(TimedOut(seat, s.timeouts))
                if s.timeouts >= self._config.autopilot_after:
                    s.autopilot = True
                    events.append(SeatAutopiloted(seat, True))
                await self._computers.move_for(t, seat, self._config.timeout_level, "timeout",
                                               events)
            await self.follow(t, events)


__all__ = ["Turns"]
