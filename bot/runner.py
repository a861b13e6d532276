"""The owner of every live table: each change runs in its table's inbox, committed, then told.

TableRunner is the one place a table changes (docs/architecture.md section 1). People's commands,
computer moves, timeouts, warnings and a deleted channel are all jobs in the
table's inbox (bot/inbox.py): one at a time, in order, no lock. A job commits through the one
Ledger operation (`Ledger.apply`: commit, rollback, "may have landed"), then the runner settles
what follows (the turn's timer, the computers) and hands the events to the presenter. Nothing
below it calls back up: the timers and the computers' runs are told which job to post when the
runner starts them.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.computer_runs import ComputerRuns, MovePlan, Run
from bot.config import ServiceConfig
from bot.directory import CLOSED, TableDirectory
from bot.errors import TableError
from bot.events import (
    Event,
    SeatAutopiloted,
    TimedOut,
    TimerWarning,
    TurnChanged,
    TurnResumed,
)
from bot.ledger import Change, Ledger, no_change
from bot.models import TableStatus, TableView
from bot.presenter import Presenter
from bot.scheduler import Scheduler
from bot.table import LiveTable
from bot.timers import TurnTimers
from data import Action, StoreError, TableTakenOver
from engine import Move, Phase, Phrase

log = logging.getLogger(__name__)

NOT_SAVED = Phrase("Your move could not be saved just now, so nothing changed: the game is as "
                   "it was. Please try again in a moment.")
TAKEN_OVER = Phrase(
    "This table moved to another copy of the bot a moment ago: please try again.")
RETRY_FIRST, RETRY_MOST = 1.0, 60.0
"""Seconds before a computer move whose save failed is tried again, doubling up to the most."""


class TableRunner:
    """Runs every change to the live tables through their inboxes (see the module docstring)."""

    def __init__(
        self,
        directory: TableDirectory,
        ledger: Ledger,
        presenter: Presenter,
        timers: TurnTimers,
        computers: ComputerRuns,
        config: ServiceConfig,
        scheduler: Scheduler,
    ) -> None:
        self._directory = directory
        self._ledger = ledger
        self._presenter = presenter
        self._timers = timers
        self._computers = computers
        self._config = config
        self._scheduler = scheduler

    # ---- commands ------------------------------------------------------------------------------

    async def change(self, t: LiveTable, change: Change) -> TableView:
        """Run `change` in the table's inbox: commit it, then publish. TableError when the
        table closed (or left this process) before its turn came, or the change refuses."""

        async def job() -> TableView:
            self._need_live(t)
            try:
                events = await self._apply(t, change)
            except TableError:
                raise
            except StoreError:
                log.exception("table %s: a change could not be saved", t.id)
                raise TableError.of(NOT_SAVED) from None
            told = await self._follow(t, events)
            return told if told is not None else t.view()

        return await t.inbox.run(job)

    async def tell(self, t: LiveTable, events: list[Event]) -> None:
        """Publish events that change nothing stored (a table just opened), in order with the
        table's changes."""

        async def job() -> None:
            await self._publish(t, events)

        await t.inbox.run(job)

    async def finish_found_over(self, t: LiveTable) -> None:
        """A table resumed with its game over but not recorded: record and announce it."""

        async def job() -> None:
            events: list[Event] = []
            await self._ledger.finish(t, events, None)
            self._disarm(t)
            await self._publish(t, events)
            self._forget_if_closed(t)

        await t.inbox.run(job)

    async def resume(self, t: LiveTable, now: datetime) -> None:
        """A table brought back from the store: the people it awaits are told to the presenter
        (TurnResumed: their turn began before `now`), then its timer and any computer move."""

        async def job() -> None:
            game = t.game
            if game is not None and t.awaited_people():
                began = now
                if t.deadline is not None and t.turn_timeout > 0:
                    began = min(now, t.deadline - timedelta(seconds=t.turn_timeout))
                await self._publish(t, [TurnResumed(seats=tuple(game.actor_seats()),
                                                    awaits=game.phase.awaits,
                                                    hand_number=game.hand_number, began=began)])
            self._arm(t)

        await t.inbox.run(job)

    async def hand_over(self, t: LiveTable) -> None:
        """Stop driving the table (another process does now): after the job in progress, its
        timer and computers stop and it leaves memory; nothing is published or saved."""

        async def job() -> None:
            self._disarm(t)
            self._directory.remove(t, let_go=True)

        await t.inbox.run(job)

    async def give_time_back(self, t: LiveTable, paused_at: datetime) -> None:
        """The turn awaited at `t` gets the time it had left at `paused_at` (a whole turn if
        it began after), saved and shown, and its timer runs again."""

        async def job() -> None:
            if not self._holds(t) or t.status is not TableStatus.PLAYING or t.deadline is None:
                return
            now = self._ledger.clock.now()
            left = min(float(t.turn_timeout), (t.deadline - paused_at).total_seconds())
            t.deadline = now + timedelta(seconds=max(0.0, left))
            try:
                await self._apply(t, no_change)
            except Exception:
                log.exception("could not save the new deadline of table %s", t.id)
            await self._follow(t, [], announce=True)

        await t.inbox.run(job)

    async def publish_committed(self, t: LiveTable) -> None:
        """Closing: tell the moves committed but not told yet (a computer run stopped between
        its commits and its publish), with whose turn it is now."""

        async def job() -> None:
            events: list[Event] = []
            if t.status.active:
                self._settle(t, events, announce=True)
            await self._publish(t, events)

        if t.unpublished:
            await t.inbox.run(job)

    def disarm(self, t: LiveTable) -> None:
        """Stop the table's timer and computer run (the service is closing or hands it on)."""
        self._disarm(t)

    async def _apply(self, t: LiveTable, change: Change) -> list[Event]:
        """`Ledger.apply`; a table another process took over is dropped from memory (its
        next claim here rebuilds it from the store, bot/shards.py) and the change refused."""
        try:
            return await self._ledger.apply(t, change)
        except TableTakenOver:
            log.warning("table %s is driven by another process now: dropped here", t.id)
            self._disarm(t)
            self._directory.drop(t)
            raise TableError.of(TAKEN_OVER) from None

    # ---- what follows a commit -----------------------------------------------------------------

    async def _follow(self, t: LiveTable, events: list[Event], *,
                      announce: bool = False) -> TableView | None:
        """After a commit: settle, publish, and forget a closed table. Returns the view
        published (None: nothing was): the table as the change left it, which the command's
        caller gets too (one view a click, not two; the presenter's message-id bookkeeping
        lands in the table, not in views already handed out)."""
        self._settle(t, events, announce=announce or t.last_moved)
        told = await self._publish(t, events)
        self._forget_if_closed(t)
        return told

    def _settle(self, t: LiveTable, events: list[Event], *, announce: bool) -> None:
        """(Re)set the turn timer, wake the computers, say whose turn it is."""
        game = t.game
        if t.status is not TableStatus.PLAYING or game is None:
            self._disarm(t)
            return
        self._arm(t)
        if announce or t.deadline_changed:
            events.append(
                TurnChanged(
                    seats=tuple(game.actor_seats()),
                    awaits=game.phase.awaits,
                    hand_number=game.hand_number,
                    deadline=t.deadline,
                )
            )

    async def _publish(self, t: LiveTable, events: list[Event]) -> TableView | None:
        """Hand committed events to the presenter; its failure never undoes the action.
        Returns the view handed over (None: there was nothing to tell)."""
        if t.unpublished:  # committed computer moves not told yet go first
            events = [*t.unpublished, *events]
            t.unpublished = []
        if not events:
            return None
        view = t.view()
        try:
            await self._presenter.publish(view, events)
        except Exception:
            log.exception("presenter failed on table %s", t.id)
        return view

    def _arm(self, t: LiveTable) -> None:
        self._timers.arm(t, warn=self._warn, expire=self._expire)
        self._computers.wake(t, self._computer_step)

    def _disarm(self, t: LiveTable) -> None:
        self._timers.disarm(t)
        self._computers.stop(t)
        self._scheduler.cancel(("computers", t.id))

    def _forget_if_closed(self, t: LiveTable) -> None:
        if t.status.active:
            return
        self._disarm(t)
        self._directory.remove(t)

    def _holds(self, t: LiveTable) -> bool:
        return self._directory.holds_table(t)

    def _live(self, t: LiveTable) -> bool:
        return t.status.active and self._holds(t)

    def _need_live(self, t: LiveTable) -> None:
        if not t.status.active or not self._holds(t):
            raise TableError.of(self._directory.why_closed(t.id) or CLOSED)

    # ---- computers -----------------------------------------------------------------------------

    async def _computer_step(self, t: LiveTable, run: Run, plan: MovePlan | None,
                             move: Move | None) -> MovePlan | None:
        """A step of a computer run, in the table's inbox: apply `move` decided for `plan`
        (if no action was committed meanwhile), then plan the next move. When the run ends
        here (None), its committed moves are published in one batch."""

        async def job() -> MovePlan | None:
            try:
                if (plan is not None and move is not None and t.moves == plan.moves
                        and self._live(t)):
                    t.unpublished.extend(await self._apply(t, ComputerRuns.change(plan, move)))
                    run.moved = True
                    t.computer_retry = 0.0
                following = self._computers.next_plan(t, run) if self._live(t) else None
            except Exception:
                await self._end_run(t, run)  # the moves before it are committed: tell them
                self._retry_computers(t)
                raise
            if following is None:
                await self._end_run(t, run)
            return following

        return await t.inbox.run(job)

    def _retry_computers(self, t: LiveTable) -> None:
        """A computer's move could not be saved: try again later, waiting longer each time,
        so no table waits on a computer for ever."""
        if not self._live(t):
            return
        t.computer_retry = min(RETRY_MOST, max(RETRY_FIRST, 2 * t.computer_retry))
        when = self._ledger.clock.now() + timedelta(seconds=t.computer_retry)

        def due() -> None:
            if self._live(t):
                self._computers.wake(t, self._computer_step)

        self._scheduler.at(("computers", t.id), when, due)

    async def _end_run(self, t: LiveTable, run: Run) -> None:
        self._computers.release(t)
        if not run.moved:
            return
        if self._live(t):
            await self._follow(t, [], announce=True)
        else:
            await self._publish(t, [])
            self._forget_if_closed(t)

    # ---- the timer's moments -------------------------------------------------------------------

    async def _warn(self, t: LiveTable, deadline: datetime) -> None:
        """Half the turn is gone (a job in the table's inbox, posted by the timers)."""
        if t.deadline != deadline or not t.status.active or t.warned:
            return
        t.warned = True
        people = t.awaited_people()
        if people:
            await self._publish(t, [TimerWarning(tuple(people), deadline)])

    async def _expire(self, t: LiveTable, deadline: datetime) -> None:
        """Time is up (a job in the table's inbox): the timeout computer moves for every
        person still awaited."""
        if t.deadline != deadline or not t.status.active or not self._holds(t):
            return
        game = t.game
        assert game is not None
        events: list[Event] = []
        for seat in t.awaited_people():
            if game.phase is Phase.GAME_OVER or seat not in game.actor_seats():
                continue
            plan = self._computers.plan(t, seat, self._config.timeout_level, "timeout")
            move = await self._computers.think(t, plan)
            events.extend(await self._apply(t, self._timed_out(plan, move)))
        await self._follow(t, events, announce=True)

    def _timed_out(self, plan: MovePlan, move: Move) -> Change:
        move_for = self._computers.change(plan, move)

        def change(t: LiveTable, events: list[Event]) -> Action | None:
            s = t.seats[plan.seat]
            s.timeouts += 1
            events.append(TimedOut(plan.seat, s.timeouts))
            if s.timeouts >= self._config.autopilot_after:
                s.autopilot = True
                events.append(SeatAutopiloted(plan.seat, True))
            return move_for(t, events)

        return change


__all__ = ["TableRunner"]
