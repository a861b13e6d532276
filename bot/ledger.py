"""Committing a table to the store: its row, its action-log row and, at the end, its result.

Every change to a table goes through `Ledger.apply` before anyone is told of it
(docs/architecture.md section 4): it runs the change, commits it with its log row, and puts the
table back when the save did not land. The row carries the deadline of the turn that follows,
so timers survive a restart. Only the table's runner (bot/runner.py) calls it, from the
table's inbox, so no two changes of one table ever interleave.

A write may land although its caller never hears so (the store finishes a write whose caller
was cancelled; a connection may drop after the commit): such a write is "may have landed", never
"failed". A cancelled caller waits for its write's outcome; a failed one reads the table's save
counter back from the store. When it landed, the table in memory counts it as saved (`t.saves`
moves on) and the caller keeps the move instead of undoing it (see `landed`), so the move is
never made, and logged, a second time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from bot.clock import Clock
from bot.config import ServiceConfig
from bot.errors import TableError
from bot.events import Event, GameOver, RatingChange, Standing
from bot.models import TableStatus
from bot.moves import LOG_NAMES
from bot.table import LiveTable
from data import Action, FinishedGame, Store, StoreError, TableRecord, TableTakenOver
from data import RatingChange as StoredRatingChange
from data import Seat as StoredSeat
from data import TableStatus as StoredStatus
from engine import Phase

log = logging.getLogger(__name__)
T = TypeVar("T")

Change = Callable[[LiveTable, list[Event]], Action | None]
"""A change to a table: checks it (TableError refuses, changing nothing), makes it, appends
what happened to the events, and returns its action-log row (None: a save without one)."""

TURN_ACTIONS = frozenset({"deal", *LOG_NAMES.values()})
"""Logged actions that start a new turn (a new deadline): the deal and every move."""


def no_change(t: LiveTable, events: list[Event]) -> None:
    """A change already made in memory (a turn's deadline given back): only save it."""


class Ledger:
    """Writes tables to the store (see the module docstring); called from the table's inbox."""

    def __init__(self, store: Store, config: ServiceConfig, clock: Clock) -> None:
        self.store = store
        self.config = config
        self.clock = clock

    async def apply(self, t: LiveTable, change: Change) -> list[Event]:
        """The one way a table changes: run `change`, commit what it did, and return its
        events (to publish). A refusal (TableError) changes nothing. When the save fails the
        table is put back as it was and the error raised, unless the write landed all the
        same ("may have landed"): then the change stands. Cancelled while saving (the service
        closing), a change that landed waits in `t.unpublished` for the next publish."""
        events: list[Event] = []
        memento, saves = t.memento(), t.saves
        t.changing()
        try:
            action = change(t, events)
        except TableError:
            t.restore(memento, game=False)  # refusals come before any change to the game
            raise
        except BaseException:
            t.restore(memento)
            raise
        try:
            await self._commit(t, action, events)
        except asyncio.CancelledError:
            if t.saves == saves:
                t.restore(memento)
            else:  # committed: told with the next publish
                t.unpublished.extend(events)
            raise
        except BaseException:
            if t.saves == saves:
                t.restore(memento)
                raise
            # a failure after the write landed: the change stands, as if all went well
        return events

    async def _commit(self, t: LiveTable, action: Action | None, events: list[Event]) -> None:
        """Save the table and its action in one transaction, with the deadline of the turn
        that follows; a game that just ended is recorded (results, ratings) in that same
        transaction."""
        moved = action is not None and action.action in TURN_ACTIONS
        t.last_moved = moved
        if action is not None:
            t.moves += 1  # a computer deciding meanwhile must plan again
        game = t.game
        if t.status is TableStatus.PLAYING and game is not None:
            if game.phase is Phase.GAME_OVER:
                await self.finish(t, events, action)
                return
            t.deadline_changed = t.next_deadline(self.clock.now(), moved=moved)
            if game.hand_number != t.dm_hand_number:
                # A new hand gets new DM hand messages: the stored ids always belong to the
                # stored hand (the DM channels stay).
                for seat in t.seats:
                    seat.dm_message_id = None
                t.dm_hand_number = game.hand_number
        else:
            t.deadline_changed = t.deadline is not None
            t.deadline = None
        record = t.record(self.config.timeout_level)
        try:
            await self._save(record, action)
        except TableTakenOver:
            raise  # refused outright (another process drives it, or this copy is stale)
        except BaseException:
            if not await self._landed(t, record):
                raise
            self._saved(t, record, 1)
            raise
        self._saved(t, record, 1)

    @staticmethod
    def _saved(t: LiveTable, record: TableRecord, saves: int) -> None:
        t.saves += saves
        t.saved_game_json = record.snapshot_json

    async def _save(self, record: TableRecord, action: Action | None) -> None:
        """store.save_table, in the caller's own task: a save on an idle writer ends without
        the loop in between (no task, no hops). When the caller is cancelled meanwhile, the
        write goes on (the store runs every write to its end): wait for the store's writes to
        settle before the cancellation goes on, so the read-back (`_landed`) sees its outcome."""
        try:
            await self.store.save_table(record, action)
        except asyncio.CancelledError:
            await _outlive_cancel(self.store.writes_settled())
            raise

    async def _landed(self, t: LiveTable, record: TableRecord) -> bool:
        """Did the save of `record` land although commit saw it fail or was cancelled? The
        store's save counter says: it moved past the record's."""
        try:
            stored = await _outlive_cancel(self.store.get_table(t.id))
        except Exception:
            log.exception("could not read table %s back after a failed save", t.id)
            return False
        landed = (stored is not None and stored.saves > record.saves
                  and stored.snapshot_json == record.snapshot_json)
        if landed:
            log.warning("table %s: a save reported as failed or cancelled had landed; "
                        "keeping it", t.id)
        return landed

    async def _recorded_changes(self, t: LiveTable) -> tuple[RatingChange, ...]:
        """The rating changes of the game recorded at this table, read back from the store
        (its record landed although the caller never heard so); none if they cannot be read."""
        try:
            game_id = await _outlive_cancel(self.store.game_for_table(t.id))
            if game_id is None:
                return ()
            return _shown(await _outlive_cancel(self.store.rating_changes(game_id)))
        except Exception:
            log.exception("could not read back the rating changes of table %s", t.id)
            return ()

    async def finish(self, t: LiveTable, events: list[Event], action: Action | None) -> None:
        """Record a finished game (result and ratings in one transaction) and announce it."""
        game = t.game
        assert game is not None and t.rules is not None
        t.deadline = None
        record = t.record(self.config.timeout_level)
        people_seats = tuple(
            StoredSeat(name=s.name, user_id=s.user_id, computer_level=s.computer) for s in t.seats
        )
        result = FinishedGame.from_engine(game, t.rules, people_seats, hints=t.options.hints)
        landed_but: BaseException | None = None
        try:
            recorded = await _outlive_cancel(self.store.finish_game(record, result, action))
            changes = _shown(recorded.rating_changes)
        except TableTakenOver:
            raise  # not this process's table (or a stale copy): nothing was written
        except StoreError:
            # A result the store refuses must not keep the game open for ever: close it
            # without a result (this raises, and so undoes the move, if even that fails).
            log.exception("could not record the finished game at table %s", t.id)
            await self.store.save_table(replace(record, status=StoredStatus.FINISHED), action)
            changes = ()
        except BaseException as err:  # cancelled, or the connection went: did it land?
            if not await self._landed(t, record):
                raise
            changes, landed_but = await self._recorded_changes(t), err  # read back
        t.status = TableStatus.FINISHED
        t.saves += 1
        t.saved_game_json = record.snapshot_json
        standings = tuple(
            sorted(
                (
                    Standing(
                        place=r.placing,
                        seat=r.seat,
                        name=r.name,
                        user_id=t.seats[r.seat].user_id,
                        score=r.total,
                    )
                    for r in result.seats
                ),
                key=lambda s: (s.place, s.seat),
            )
        )
        events.append(
            GameOver(
                standings=standings,
                winners=tuple(game.winners),
                rating_changes=changes,
                hints=t.options.hints,
            )
        )
        if isinstance(landed_but, asyncio.CancelledError):
            raise landed_but


def _shown(changes: Sequence[StoredRatingChange]) -> tuple[RatingChange, ...]:
    return tuple(RatingChange(user_id=c.user_id, before=c.ordinal_before,
                              after=c.ordinal_after, name=c.name) for c in changes)


async def _outlive_cancel(call: Awaitable[T]) -> T:
    """Await `call` in its own task; if the caller is cancelled meanwhile, wait for the call to
    end (its result is then learned by reading back), and raise the CancelledError after."""
    task = asyncio.ensure_future(call)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait([task])
        raise


__all__ = ["TURN_ACTIONS", "Change", "Ledger", "no_change"]
