"""Durability on PostgreSQL: the same killed children as test_durability.py (tests/data/
durability_child.py, through the same Store), writing to a PostgreSQL database; every write they
acknowledged must be there, whole, with snapshot and log agreeing, after each SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time

from data import Store
from tests.pg_server import PostgresServer

from .test_durability import CHANNELS, Child, wait_for_acks

LIVES = 5


async def check_database(dsn: str, acknowledged: list[str]) -> None:
    """Every acknowledged write is stored; every game is whole."""
    async with await Store.open(dsn) as store:
        for line in acknowledged:
            kind, *ids = line.split()
            if kind == "open":
                assert await store._read("SELECT 1 FROM game_tables WHERE id = ?", (int(ids[0]),))
            elif kind == "save":
                rows = await store._read(
                    "SELECT table_id, payload_json FROM action_log WHERE id = ?", (int(ids[1]),)
                )
                assert rows, f"lost {line}"
                assert (rows[0][0], json.loads(rows[0][1])["n"]) == (int(ids[0]), int(ids[2]))
            elif kind == "finish":
                rows = await store._read(
                    "SELECT g.table_id, t.status FROM games g JOIN game_tables t"
                    " ON t.id = g.table_id WHERE g.id = ?",
                    (int(ids[1]),),
                )
                assert [tuple(r) for r in rows] == [(int(ids[0]), "finished")], f"lost {line}"
        tables = await store._read(
            "SELECT t.id, t.status, t.saves, t.snapshot_json,"
            " (SELECT COUNT(*) FROM action_log a WHERE a.table_id = t.id AND action = 'play'),"
            " (SELECT COUNT(*) FROM action_log a WHERE a.table_id = t.id),"
            " (SELECT id FROM games g WHERE g.table_id = t.id)"
            " FROM game_tables t"
        )
        for table_id, status, saves, snapshot, plays, actions, game in tables:
            assert actions == saves + 1, f"table {table_id}: {saves} saves, {actions} actions"
            n = json.loads(snapshot)["n"] if snapshot else 0
            assert n == plays, f"table {table_id}: snapshot at {n}, {plays} plays logged"
            assert (status == "finished") == (game is not None), f"table {table_id}: {status}"
            if game is not None:
                seats = await store._read(
                    "SELECT COUNT(*) FROM game_seats WHERE game_id = ?", (game,)
                )
                assert seats[0][0] == 3
        busy = await store._read(
            "SELECT channel_id FROM game_tables WHERE status IN ('lobby', 'playing')"
            " GROUP BY channel_id HAVING COUNT(*) > 1"
        )
        assert busy == []


def test_killed_writers_never_lose_an_acknowledged_write_on_postgresql(
    postgres_server: PostgresServer,
) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    dsn = postgres_server.new_database()
    for life in range(LIVES):
        child = Child(dsn)  # type: ignore[arg-type]  # the child opens its Store on a URL too
        if rng.random() < 0.3:
            time.sleep(rng.uniform(0.0, 0.4))  # anywhere: importing, migrating, loading
        else:
            wait_for_acks(child, rng.randint(1, 300))
            time.sleep(rng.uniform(0.0, 0.005))
        acknowledged = child.kill()
        try:
            asyncio.run(check_database(dsn, acknowledged))
        except AssertionError as err:
            raise AssertionError(f"seed {seed}, life {life}: {err}") from err
    assert CHANNELS > 0
