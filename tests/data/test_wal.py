"""The WAL: copied back into the database in the background as saves go, and bounded by the
valve whether or not the background checkpoint keeps up (so a loaded machine changes nothing)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

import data.sqlite
from data import Action, Store
from data.sqlite import SqliteDriver, wal_size

from .conftest import FakeClock, new_table

PAD = "x" * 8_000  # several pages per save: 600 saves would make a WAL of about 20 MB


async def _fill(store: Store, saves: int, tables: int = 1) -> list[int]:
    """Tables saved `saves` times in all with a padded action each, `tables` at once; returns
    the largest WAL file seen after any save and the table ids."""
    opened = [await new_table(store, channel_id=100 + i) for i in range(tables)]
    largest = 0

    async def play(index: int) -> None:
        nonlocal largest
        table = opened[index]
        for i in range(index, saves, tables):
            await store.save_table(table, Action("play", seat=i % 3, payload={"pad": PAD}))
            table = replace(table, saves=table.saves + 1)
            largest = max(largest, wal_size(Path(store.path or "")))

    await asyncio.gather(*(play(i) for i in range(tables)))
    return [largest, *(t.id for t in opened)]


async def test_the_checkpoint_thread_copies_the_wal_as_saves_go(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.sqlite, "CHECKPOINT_EVERY", 10)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        await _fill(store, 50)
        driver = store._driver
        assert isinstance(driver, SqliteDriver) and driver.checkpointing is not None
        [(busy, _pages, copied)] = await driver.checkpointing
        assert busy == 0
        assert copied > 0


async def test_the_wal_stays_bounded_under_steady_saves(db_path: Path) -> None:
    async with await Store.open(db_path, clock=FakeClock()) as store:
        largest, table_id = await _fill(store, 600)
        assert len(await store.actions(table_id)) == 600
    assert largest < data.sqlite.WAL_VALVE_BYTES + 100_000 < 10_000_000


async def _no_checkpoint(self: SqliteDriver) -> list[tuple[int, int, int]]:
    """A background checkpoint that never gets to copy anything (a starved thread)."""
    return [(0, 0, 0)]


@pytest.mark.parametrize("tables", [1, 20])
async def test_the_bound_holds_when_the_background_checkpoint_never_keeps_up(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, tables: int
) -> None:
    """The bound does not depend on the checkpoint thread: with it doing nothing at all, the
    valve alone keeps the WAL within one valve plus the saves already queued (one per table)."""
    monkeypatch.setattr(SqliteDriver, "checkpoint", _no_checkpoint)
    monkeypatch.setattr(data.sqlite, "WAL_VALVE_BYTES", 1_000_000)
    monkeypatch.setattr(data.sqlite, "WAL_KEEP_BYTES", 250_000)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        largest, *table_ids = await _fill(store, 600, tables)
        assert sum([len(await store.actions(t)) for t in table_ids]) == 600
    one_save = 40_000  # an 8 KB action with its table row and index pages, in 4 KB WAL frames
    assert 1_000_000 <= largest <= 1_000_000 + tables * one_save


async def test_data_survive_reopening_after_checkpoints(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.sqlite, "CHECKPOINT_EVERY", 7)
    monkeypatch.setattr(data.sqlite, "WAL_VALVE_BYTES", 300_000)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        _largest, table_id = await _fill(store, 50)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        driver = store._driver
        assert isinstance(driver, SqliteDriver)
        [(busy, _pages, _copied)] = await driver.checkpoint()
        assert busy == 0
        loaded = await store.load_active_tables(validate=lambda t: None)
        assert [t.id for t in loaded.ok] == [table_id]
        assert len(await store.actions(table_id)) == 50


def _wal_generation(path: Path) -> int:
    """The WAL header's checkpoint sequence number: SQLite adds one each time it writes the WAL
    afresh from its start."""
    with open(f"{path}-wal", "rb") as wal:
        return int.from_bytes(wal.read(16)[12:16], "big")


async def test_the_writer_starts_the_wal_afresh_after_a_checkpoint_copied_it_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first write into a WAL copied back whole writes it afresh and syncs its header (an
    fsync). The writer makes that write, queued as the checkpoint ends, so the save that comes
    next neither waits for the fsync on the event loop's thread nor starts the WAL itself."""
    monkeypatch.setattr(data.sqlite, "CHECKPOINT_EVERY", 5)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        driver = store._driver
        assert isinstance(driver, SqliteDriver)
        table = await new_table(store)
        saves = 0
        while driver.checkpointing is None:
            await store.save_table(replace(table, saves=table.saves + saves), Action("bid", 0))
            saves += 1
        generation = _wal_generation(db_path)
        [(busy, frames, copied)] = await driver.checkpointing
        assert busy == 0 and frames == copied > 0  # nothing was written during it
        in_groups = driver.written_in_groups
        await store.save_table(replace(table, saves=table.saves + saves), Action("bid", 1))
        assert driver.written_in_groups == in_groups + 1  # behind the writer's one-row write
        assert driver.wal_starts == 1
        assert _wal_generation(db_path) == generation + 1
        assert await driver.read("SELECT restarts FROM wal_restarts") == [(1,)]
        inline = driver.written_inline
        await store.save_table(replace(table, saves=table.saves + saves + 1), Action("bid", 2))
        assert driver.written_inline == inline + 1  # and inline again after it
        assert _wal_generation(db_path) == generation + 1
        assert len(await store.actions(table.id)) == saves + 2


async def test_a_failed_fresh_start_of_the_wal_is_logged_and_the_saves_go_on(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(data.sqlite, "CHECKPOINT_EVERY", 5)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        driver = store._driver
        assert isinstance(driver, SqliteDriver)
        await driver.exclusive(lambda session: session.execute("DROP TABLE wal_restarts"))
        table = await new_table(store)
        saves = 0
        while driver.checkpointing is None:
            await store.save_table(replace(table, saves=table.saves + saves), Action("bid", 0))
            saves += 1
        await driver.checkpointing
        for n in range(3):  # the first waits behind the failed write; the writer is free after
            await store.save_table(replace(table, saves=table.saves + saves + n), Action("bid", n))
        assert driver.wal_starts == 0
        assert "WAL restart failed" in caplog.text
        assert len(await store.actions(table.id)) == saves + 3
