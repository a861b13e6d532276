"""The WAL: copied back into the database by the checkpoint thread as saves go, and bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

import data.store
from data import Action, Store

from .conftest import FakeClock, new_table

PAD = "x" * 8_000  # several pages per save: 600 saves would make a WAL of about 20 MB


async def _fill(store: Store, saves: int) -> int:
    """A table saved `saves` times with a padded action each; returns its id."""
    table = await new_table(store)
    for i in range(saves):
        await store.save_table(table, Action("play", seat=i % 3, payload={"pad": PAD}))
    return table.id


async def test_the_checkpoint_thread_copies_the_wal_as_saves_go(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.store, "CHECKPOINT_EVERY", 10)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        await _fill(store, 50)
        assert store._checkpointing is not None
        busy, _pages, copied = await store._checkpointing
        assert busy == 0
        assert copied > 0


async def test_the_wal_stays_bounded_under_steady_saves(db_path: Path) -> None:
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table_id = await _fill(store, 600)
        wal = Path(f"{db_path}-wal").stat().st_size
        assert len(await store.actions(table_id)) == 600
    assert wal < 10_000_000  # the 2,000-page restart point, not every save ever made


async def test_data_survive_reopening_after_checkpoints(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.store, "CHECKPOINT_EVERY", 7)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        table_id = await _fill(store, 50)
    async with await Store.open(db_path, clock=FakeClock()) as store:
        busy, _pages, _copied = await store.checkpoint()
        assert busy == 0
        loaded = await store.load_active_tables()
        assert [t.id for t in loaded.ok] == [table_id]
        assert len(await store.actions(table_id)) == 50
