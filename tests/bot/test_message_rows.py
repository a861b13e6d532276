"""The one writer of the message rows (bot/messages.py): a burst of ids becomes one write, a
failed write is tried again with the newest rows, and nothing is written for a table let go."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot import messages
from bot.clock import ManualClock
from bot.messages import MessageRows
from bot.presenter import RecordingPresenter
from bot.service import TableService
from data import TABLE_MESSAGE, KeptMessage, Store, StoreError
from tests.bot.conftest import CHANNEL, HOST
from tests.bot.helpers import start_game


class CountingStore:
    """A store whose keep_messages is counted, and fails while `failing` says so."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writes: list[tuple[list[KeptMessage], list[int]]] = []
        self.failing = 0

    @property
    def closed(self) -> bool:
        return self.store.closed

    async def keep_messages(self, kept: Sequence[KeptMessage],
                            closed_tables: Sequence[int] = ()) -> None:
        self.writes.append((list(kept), list(closed_tables)))
        if self.failing:
            self.failing -= 1
            raise StoreError("the database is away")
        await self.store.keep_messages(kept, closed_tables)


async def settle(rows: MessageRows) -> None:
    """Until the writer has nothing left to do (retries included)."""
    for _ in range(1000):
        if rows.idle:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the writer never ended")


async def test_a_burst_of_ids_is_one_write_of_the_newest(
    service: TableService, store: Store,
) -> None:
    tid = (await start_game(service)).table_id
    counting = CountingStore(store)
    rows = MessageRows(counting)  # type: ignore[arg-type]
    for message_id in range(100, 110):  # the table message re-posted again and again
        rows.keep(KeptMessage(tid, TABLE_MESSAGE, message_id, channel_id=1))
    rows.keep(KeptMessage(tid, HOST, 700, channel_id=800, hand_number=1))
    await settle(rows)
    assert len(counting.writes) == 1
    assert await store.kept_messages(tid) == [
        KeptMessage(tid, TABLE_MESSAGE, 109, channel_id=1),
        KeptMessage(tid, HOST, 700, channel_id=800, hand_number=1)]


async def test_a_burst_at_many_tables_is_written_in_bounded_transactions(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(messages, "ROWS_PER_WRITE", 2)
    tid = (await start_game(service)).table_id
    counting = CountingStore(store)
    rows = MessageRows(counting)  # type: ignore[arg-type]
    people = [HOST, 1, 2, 3, 4]
    for user_id in people:
        rows.keep(KeptMessage(tid, user_id, 700 + user_id, channel_id=800, hand_number=1))
    await settle(rows)
    assert [len(kept) for kept, _closed in counting.writes] == [2, 2, 1]
    assert [k.user_id for k in await store.kept_messages(tid)] == sorted(people)


async def test_a_failed_write_is_tried_again_with_the_newest_rows(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(messages, "FIRST_RETRY", 0.001)
    tid = (await start_game(service)).table_id
    counting = CountingStore(store)
    counting.failing = 2
    rows = MessageRows(counting)  # type: ignore[arg-type]
    rows.keep(KeptMessage(tid, TABLE_MESSAGE, 100, channel_id=1))
    await asyncio.sleep(0)
    await asyncio.sleep(0)  # the first write failed; a newer id comes while it waits
    rows.keep(KeptMessage(tid, TABLE_MESSAGE, 101, channel_id=1))
    await settle(rows)
    assert len(counting.writes) == 3
    assert await store.kept_messages(tid) == [KeptMessage(tid, TABLE_MESSAGE, 101, channel_id=1)]
    assert service.directory.table(tid).status.active  # the table never noticed


async def test_rows_of_a_table_let_go_are_not_written(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(messages, "FIRST_RETRY", 0.001)
    tid = (await start_game(service)).table_id
    counting = CountingStore(store)
    counting.failing = 1
    rows = MessageRows(counting)  # type: ignore[arg-type]
    rows.keep(KeptMessage(tid, TABLE_MESSAGE, 100, channel_id=1))
    await asyncio.sleep(0)
    rows.let_go(tid)  # another process drives it now, while the write fails
    rows.keep(KeptMessage(tid + 1, TABLE_MESSAGE, 200, channel_id=2))
    await settle(rows)
    assert await store.kept_messages(tid) == []


async def test_closing_writes_what_waits(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), clock=clock)
    try:
        tid = (await start_game(service)).table_id
        service.directory.set_table_message(tid, 555)
    finally:
        await service.close()  # before the writer had a turn
    try:
        assert await store.kept_messages(tid) == [
            KeptMessage(tid, TABLE_MESSAGE, 555, channel_id=CHANNEL)]
    finally:
        await store.close()


async def test_closing_while_the_store_is_away_does_not_wait_for_it(
    service: TableService, store: Store,
) -> None:
    tid = (await start_game(service)).table_id
    counting = CountingStore(store)
    counting.failing = 1_000_000  # it never comes back
    rows = MessageRows(counting)  # type: ignore[arg-type]
    rows.keep(KeptMessage(tid, TABLE_MESSAGE, 100, channel_id=1))
    await asyncio.sleep(0)  # the first write failed: the writer waits to try again
    await asyncio.wait_for(rows.close(), timeout=60)  # a hang detector, not a timing check
    assert len(counting.writes) == 2  # the last try, at closing
    assert await store.kept_messages(tid) == []
