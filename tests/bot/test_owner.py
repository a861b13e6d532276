"""The table's one owner (docs/architecture.md section 1) when the store misbehaves (issue 23).

A computer move that could not be saved is tried again until it is; a person's move that could
not be saved is refused in words and changes nothing; a closing action stands whatever
bookkeeping waits; a table another process took over leaves this process's memory; shutting
down waits for a timeout in progress before the store closes.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bot import computer
from bot.clock import ManualClock
from bot.errors import TableError
from bot.presenter import RecordingPresenter
from bot.runner import NOT_SAVED, TAKEN_OVER
from bot.service import ServiceConfig, TableService
from data import Store, StoreError, TableTakenOver
from data import TableStatus as StoredStatus
from tests.bot.conftest import CHANNEL, GUILD, HOST
from tests.bot.helpers import is_open, move, start_game


class FailingStore:
    """The real store, whose next saves fail before writing anything (a full disk, the
    database gone for a moment), or say the table was taken over."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.fail_computers = 0
        self.fail_people = 0
        self.taken_over = False
        self.closed = False
        self.late: list[Any] = []  # saves after the service closed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def save_table(self, record: Any, action: Any = None) -> Any:
        if self.closed:
            self.late.append(action)
        if self.taken_over:
            raise TableTakenOver(record.id)
        by = None if action is None else action.payload.get("by")
        if by is not None and self.fail_computers:
            self.fail_computers -= 1
            raise StoreError("disk full")
        if by is None and action is not None and self.fail_people:
            self.fail_people -= 1
            raise StoreError("disk full")
        return await self._store.save_table(record, action)


def service_on(store: Any, clock: ManualClock, **knobs: Any) -> TableService:
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0, **knobs)
    return TableService(store, RecordingPresenter(), config=config, clock=clock)


async def computers_to_move(service: TableService, table_id: int) -> bool:
    view = service.directory.table(table_id)
    assert view.state is not None
    return any(view.seats[s].user_id is None for s in view.state.actor_seats)


async def test_a_computer_move_that_could_not_be_saved_is_tried_again(
    store: Store, clock: ManualClock
) -> None:
    failing = FailingStore(store)
    service = service_on(failing, clock)
    try:
        view = await start_game(service, computers=2)
        tid = view.table_id
        failing.fail_computers = 3  # three saves in a row fail, then the store is back
        for _ in range(20):  # the host moves until a computer is to move after them
            await move(service, tid, HOST)
            await service.wait_idle()
            if failing.fail_computers < 3:
                break
        assert failing.fail_computers < 3, "no computer move was tried"
        for _ in range(10):  # each retry waits longer; none waits past a minute
            await clock.advance(60)
            await service.wait_idle()
        assert failing.fail_computers == 0
        after = service.directory.table(tid)
        assert not await computers_to_move(service, tid), "the table still waits on a computer"
        assert after.state is not None and HOST in [after.seats[s].user_id
                                                    for s in after.state.actor_seats]
    finally:
        await service.close()


async def test_a_move_that_could_not_be_saved_is_refused_in_words(
    store: Store, clock: ManualClock
) -> None:
    failing = FailingStore(store)
    service = service_on(failing, clock)
    try:
        view = await start_game(service, computers=2)
        tid = view.table_id
        before = service.directory.table(tid)
        failing.fail_people = 1
        with pytest.raises(TableError) as refused:
            await move(service, tid, HOST)
        assert str(refused.value) == str(NOT_SAVED)
        assert service.directory.table(tid).state == before.state  # nothing changed
        await move(service, tid, HOST)  # and the same move goes through once the store is back
        assert service.directory.table(tid).state != before.state
    finally:
        await service.close()


async def test_ending_a_table_stands_whatever_bookkeeping_waits(
    store: Store, clock: ManualClock
) -> None:
    service = service_on(store, clock)
    try:
        view = await start_game(service, computers=2)
        tid = view.table_id
        # a closed DM and a message were noted, and their rows still wait to be written
        service.directory.set_dm_failed(tid, HOST)
        service.directory.set_table_message(tid, 555)
        ended = await service.end(tid, HOST)
        assert not ended.status.active
        assert not is_open(service, tid)
        stored = await store.get_table(tid)
        assert stored is not None and stored.status is StoredStatus.CANCELLED
        await service.wait_idle()
        assert await store.kept_messages(tid) == []  # a closed table keeps no message rows
        # the channel is free again
        again = await service.open_table(GUILD, CHANNEL, HOST, "Host")
        assert again.table_id != tid
    finally:
        await service.close()


async def test_a_table_taken_over_leaves_memory_and_comes_back_from_the_store(
    store: Store, clock: ManualClock
) -> None:
    failing = FailingStore(store)
    service = service_on(failing, clock)
    try:
        view = await start_game(service, computers=2)
        tid = view.table_id
        failing.taken_over = True
        with pytest.raises(TableError) as refused:
            await move(service, tid, HOST)
        assert str(refused.value) == str(TAKEN_OVER)
        assert not is_open(service, tid)  # this process no longer drives it
        failing.taken_over = False
        report = await service.resume_all()  # it is handed back: read from the store
        assert tid in report.resumed
        await move(service, tid, HOST)
    finally:
        await service.close()


async def test_close_waits_for_a_timeout_in_progress(store: Store, clock: ManualClock) -> None:
    loop = asyncio.get_running_loop()
    thinking = asyncio.Event()
    gate = threading.Event()

    def slow(level: str, seed: int, view: Any) -> Any:
        loop.call_soon_threadsafe(thinking.set)
        gate.wait(10)
        return computer.decide(level, seed, view)

    config = ServiceConfig(default_turn_timeout=60, computer_delay=0)
    watched = FailingStore(store)
    service = TableService(watched, RecordingPresenter(),  # type: ignore[arg-type]
                           config=config, clock=clock)
    view = await start_game(service, computers=2)
    tid = view.table_id
    service._computers._decide = slow  # the timeout's computer thinks until let go
    closed = False
    try:
        await clock.advance(61)  # the host's time runs out: a computer moves for them
        await asyncio.wait_for(thinking.wait(), 10)
        closing = asyncio.ensure_future(service.close())
        await asyncio.sleep(0.05)
        assert not closing.done()  # it waits for the timeout's move
        gate.set()
        await closing
        closed = watched.closed = True
        await asyncio.sleep(0.2)
        assert watched.late == []  # nothing was saved once close returned
        log = await store.actions(tid)
        assert any(a.payload.get("by") == "timeout" for a in log)
    finally:
        gate.set()
        if not closed:
            await service.close()
