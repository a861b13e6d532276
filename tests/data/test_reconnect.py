"""A PostgreSQL store after the database restarts: writes fail while it is away (and the health
check says so), then the store connects again by itself and every write lands, with no restart
of the bot. Uses a server of its own (it is stopped and started), from tests/pg_server.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.health import check, heartbeat_loop
from data import Action, DatabaseUnavailable, Store, TableRecord
from tests.pg_server import PostgresServer, find_binaries

from .conftest import new_table

PATIENCE = 60.0  # seconds a restarted server and the store's backoff may take on a busy machine


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    binaries, reason = find_binaries()
    if binaries is None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PostgresServer.start(fast=True)
    try:
        yield server
    finally:
        server.stop()


async def one_beat(path: Path, store: Store) -> str | None:
    """What `python -m bot health` says after one pass of the bot's heartbeat loop."""

    async def stop(_: float) -> None:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await heartbeat_loop(path, lambda: True, check_writes=store.check_writes, sleep=stop)
    return check(path)


async def save_until_it_lands(store: Store, table: TableRecord, n: int) -> int:
    """Save move n, trying again while the database is away; the tries it took."""
    deadline = time.monotonic() + PATIENCE
    tries = 0
    while True:
        tries += 1
        try:
            await store.save_table(replace(table, snapshot_json=f'{{"n": {n}}}'),
                                   Action("bid", payload={"n": n}))
            return tries
        except DatabaseUnavailable:
            assert time.monotonic() < deadline, "the store never connected again"
            await asyncio.sleep(0.2)


async def test_writes_heal_after_the_database_restarts(
    own_server: PostgresServer, tmp_path: Path
) -> None:
    heartbeat = tmp_path / "heartbeat"
    async with await Store.open(own_server.new_database()) as store:
        table = await new_table(store)
        await store.save_table(replace(table, snapshot_json='{"n": 1}'),
                               Action("bid", payload={"n": 1}))
        assert await one_beat(heartbeat, store) is None

        own_server.down()
        with pytest.raises(DatabaseUnavailable):
            await store.save_table(replace(table, saves=1, snapshot_json='{"n": 2}'),
                                   Action("bid", payload={"n": 2}))
        said = await one_beat(heartbeat, store)
        assert said is not None and said.startswith("unhealthy: the database does not take")

        own_server.up()
        await save_until_it_lands(store, replace(table, saves=1), 2)
        await store.save_table(replace(table, saves=2, snapshot_json='{"n": 3}'),
                               Action("bid", payload={"n": 3}))
        assert await one_beat(heartbeat, store) is None
        assert [a.payload["n"] for a in await store.actions(table.id)] == [1, 2, 3]
        stored = await store.get_table(table.id)
        assert stored is not None and stored.snapshot_json == '{"n": 3}'

