"""Saves on an idle SQLite writer commit inline, on the event loop's thread; saves requested while
the writer is busy, or while another connection holds the write lock, go through the group path
(data/sqlite.py). Either way a save lands as it would alone, and the saves of one table land in
the order they were requested."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from data import Action, StaleTable, Store, TableRecord
from data.sqlite import SqliteDriver

from .conftest import FakeClock, new_table


def driver_of(store: Store) -> SqliteDriver:
    driver = store._driver
    assert isinstance(driver, SqliteDriver)
    return driver


async def hold_writer(store: Store) -> tuple[threading.Event, asyncio.Future[Any]]:
    """A job on the writer that blocks its thread until the event is set (it takes no lock):
    writes requested meanwhile queue behind it."""
    gate = threading.Event()
    driver = driver_of(store)
    await driver._writer.connection.create_function("hold", 0, lambda: gate.wait(30))  # guard
    held = asyncio.ensure_future(driver.exclusive(lambda s: s.fetch("SELECT hold()")))
    for _ in range(2):  # the job started, its statement is on the writer's thread
        await asyncio.sleep(0)
    return gate, held


def counts(store: Store) -> tuple[int, int, int]:
    driver = driver_of(store)
    return driver.written_inline, driver.written_in_groups, driver.inline_refused


def step(table: TableRecord, n: int) -> tuple[TableRecord, Action]:
    """The table's copy after n saves, and the n-th move (numbered in its payload)."""
    copy = replace(table, saves=table.saves + n, snapshot_json=f'{{"n": {n}}}')
    return copy, Action("play", seat=n % 3, payload={"n": n})


async def test_a_save_commits_inline_when_the_writer_is_idle_and_in_a_group_when_busy(
    db_path: Path,
) -> None:
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        before = counts(store)
        first = await store.save_table(*step(table, 0))
        assert counts(store) == (before[0] + 1, before[1], before[2])
        gate, held = await hold_writer(store)
        second = asyncio.ensure_future(store.save_table(*step(table, 1)))
        await asyncio.sleep(0)
        assert counts(store) == (before[0] + 1, before[1] + 1, before[2])
        assert not second.done()  # behind the busy writer
        gate.set()
        await held
        second_id = await second  # landed once it returns (the read below may not wait for it)
        logged = await store.actions(table.id)
        assert [a.id for a in logged] == [first, second_id]
        stored = await store.get_table(table.id)
        assert stored is not None and stored.saves == 2 and stored.snapshot_json == '{"n": 1}'


async def test_the_saves_of_one_table_land_in_the_order_requested_across_both_paths(
    db_path: Path,
) -> None:
    """Saves of one table requested without waiting for each other, while the writer turns
    busy and idle again: a save requested while any write is queued or running goes behind it,
    so none overtakes an earlier one (an overtaken save would be refused as stale)."""
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        before = counts(store)
        saving: list[asyncio.Future[int | None]] = []

        def save() -> None:
            saving.append(asyncio.ensure_future(store.save_table(*step(table, len(saving)))))

        for _ in range(3):
            save()  # the writer idle: inline
            gate, held = await hold_writer(store)
            save()
            save()  # both behind the held writer, in one group
            await asyncio.sleep(0)
            gate.set()
            save()  # the group not run yet: behind it
            await held
            save()  # the group may be running: behind it
            await asyncio.gather(*saving)
        ids = await asyncio.gather(*saving)
        logged = await store.actions(table.id)
        assert [a.payload["n"] for a in logged] == list(range(len(saving)))
        assert [a.id for a in logged] == ids
        stored = await store.get_table(table.id)
        assert stored is not None and stored.saves == len(saving)
        inline, grouped, _refused = counts(store)
        assert inline > before[0] and grouped > before[1]  # both paths were taken


async def test_a_save_still_lands_when_another_connection_holds_the_write_lock(
    db_path: Path,
) -> None:
    """The inline writer never waits: SQLite answers BUSY, and the save goes to the group path,
    whose writer waits for the lock (busy_timeout) and commits once it is let go."""
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        before = counts(store)
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            saving = asyncio.ensure_future(store.save_table(*step(table, 0)))
            await asyncio.sleep(0.05)
            assert not saving.done()  # waiting for the lock
            assert counts(store) == (before[0], before[1] + 1, before[2] + 1)
            other.execute("COMMIT")
            action_id = await saving
        finally:
            other.close()
        [logged] = await store.actions(table.id)
        assert logged.id == action_id and logged.payload == {"n": 0}
        stored = await store.get_table(table.id)
        assert stored is not None and stored.saves == 1


async def test_a_save_refused_inline_changes_nothing_and_the_next_save_lands_inline(
    db_path: Path,
) -> None:
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        before = counts(store)
        first = await store.save_table(*step(table, 0))
        with pytest.raises(StaleTable):
            await store.save_table(*step(table, 0))  # the copy the first save was made from
        second = await store.save_table(*step(table, 1))
        assert counts(store) == (before[0] + 3, before[1], before[2])
        assert [a.id for a in await store.actions(table.id)] == [first, second]
        stored = await store.get_table(table.id)
        assert stored is not None and stored.saves == 2 and stored.snapshot_json == '{"n": 1}'


async def test_a_save_whose_caller_was_cancelled_has_landed_once_writes_settled(
    db_path: Path,
) -> None:
    """What bot/ledger.py reads back after a cancelled save: writes_settled returns only once
    the queued write ended, so the read sees it."""
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        gate, held = await hold_writer(store)
        saving = asyncio.ensure_future(store.save_table(*step(table, 0)))
        await asyncio.sleep(0.01)
        saving.cancel()  # its caller goes; the write stays queued behind the held job
        with pytest.raises(asyncio.CancelledError):
            await saving
        settling = asyncio.ensure_future(store.writes_settled())
        await asyncio.sleep(0.05)
        assert not settling.done()  # the write has not run yet
        gate.set()
        await settling
        await held
        stored = await store.get_table(table.id)
        assert stored is not None and stored.saves == 1
        assert [a.payload for a in await store.actions(table.id)] == [{"n": 0}]


async def test_a_save_during_a_background_checkpoint_goes_to_the_writer_not_inline(
    db_path: Path,
) -> None:
    """A checkpoint's disk writes could hold an inline statement, and with it the whole event
    loop, for a quarter of a second: while one runs, a save waits on the writer's thread
    instead, and lands once it may."""
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table = await new_table(store)
        driver = driver_of(store)
        if driver.checkpointing is not None:
            await driver.checkpointing
        gate = threading.Event()
        checkpointer = driver._checkpointer.connection
        await checkpointer.create_function("hold", 0, lambda: gate.wait(30))  # guard
        held = asyncio.ensure_future(checkpointer.execute("SELECT hold()"))
        driver.checkpointing = asyncio.ensure_future(driver.checkpoint())  # behind the hold
        before = counts(store)
        try:
            saving = asyncio.ensure_future(store.save_table(*step(table, 0)))
            await asyncio.sleep(0)
            assert counts(store) == (before[0], before[1] + 1, before[2])  # not inline
            action_id = await saving  # the writer is free: it lands without the checkpoint
            assert not driver.checkpointing.done()
        finally:
            gate.set()
            await held
            await driver.checkpointing
        await store.save_table(*step(table, 1))  # the checkpoint over: inline again
        assert counts(store) == (before[0] + 1, before[1] + 1, before[2])
        [logged, _second] = await store.actions(table.id)
        assert logged.id == action_id and logged.payload == {"n": 0}
