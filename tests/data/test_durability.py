"""Durability: child processes that write through the Store are killed with SIGKILL at random
moments; every write they acknowledged must be there, whole, and the file must stay sound.

Each database gets several lives: a child is started on it (resuming the tables it finds),
killed, the file checked, and the next child started on the same file. Some kills land while the
child is still opening (migrations, loading), most while it writes at full speed.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from data.connection import migrations
from tests.killable import KillableChild

CHILD = Path(__file__).with_name("durability_child.py")
CHANNELS = 6
DATABASES = 3
LIVES = 7  # kills per database; DATABASES * LIVES trials in all


class Child(KillableChild[str]):
    """A running durability child: one acknowledged line per stored write."""

    def __init__(self, db_path: Path) -> None:
        super().__init__(str(CHILD), [str(db_path), str(CHANNELS)],
                         lambda raw: raw.decode().strip())

    def acks(self) -> int:
        return len(self.lines)


def wait_for_acks(child: Child, acks: int) -> None:
    deadline = time.monotonic() + 30
    while child.acks() < acks:
        if child.process.poll() is not None:
            break  # died on its own: kill() reports it
        assert time.monotonic() < deadline, "child made no progress"
        time.sleep(0.001)


def check_database(path: Path, acknowledged: list[str]) -> None:
    """Every acknowledged write is stored; every game is whole; the file is sound."""
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        has_schema = db.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'schema_version'"
        ).fetchall()
        if not has_schema:  # killed during the very first migration: nothing was acknowledged
            assert acknowledged == []
            return
        migrated = db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        if migrated < len(migrations("sqlite")):  # killed between migrations: the store never
            assert acknowledged == []  # opened, so nothing was written
            return
        for line in acknowledged:
            kind, *ids = line.split()
            if kind == "open":
                assert db.execute("SELECT 1 FROM game_tables WHERE id = ?", (ids[0],)).fetchall()
            elif kind == "save":
                row = db.execute(
                    "SELECT table_id, json_extract(payload_json, '$.n') FROM action_log"
                    " WHERE id = ?",
                    (ids[1],),
                ).fetchone()
                assert row == (int(ids[0]), int(ids[2])), f"lost {line}"
            elif kind == "finish":
                row = db.execute(
                    "SELECT g.table_id, t.status FROM games g JOIN game_tables t"
                    " ON t.id = g.table_id WHERE g.id = ?",
                    (ids[1],),
                ).fetchone()
                assert row == (int(ids[0]), "finished"), f"lost {line}"
        # Snapshot and log agree for every table, acknowledged or not.
        for table_id, status, saves, n, plays, actions, game in db.execute(
            "SELECT t.id, t.status, t.saves, json_extract(t.snapshot_json, '$.n'),"
            " (SELECT COUNT(*) FROM action_log a WHERE a.table_id = t.id AND action = 'play'),"
            " (SELECT COUNT(*) FROM action_log a WHERE a.table_id = t.id),"
            " (SELECT id FROM games g WHERE g.table_id = t.id)"
            " FROM game_tables t"
        ):
            assert actions == saves + 1, f"table {table_id}: {saves} saves, {actions} actions"
            assert (n or 0) == plays, f"table {table_id}: snapshot at {n}, {plays} plays logged"
            assert (status == "finished") == (game is not None), f"table {table_id}: {status}"
            seats = 3 if game is not None else 0
            assert db.execute(
                "SELECT COUNT(*) FROM game_seats WHERE game_id = ?", (game,)
            ).fetchone() == (seats,)
            assert db.execute(
                "SELECT COUNT(*) FROM hand_scores WHERE game_id = ?", (game,)
            ).fetchone() == (2 * seats,)
        open_per_channel = db.execute(
            "SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM game_tables"
            " WHERE status IN ('lobby', 'playing') GROUP BY channel_id)"
        ).fetchone()[0]
        assert open_per_channel in (None, 1)
        # Ratings and running totals moved once per finished game, with its results.
        rated = db.execute("SELECT COALESCE(SUM(rated_games), 0) FROM players").fetchone()[0]
        humans = db.execute(
            "SELECT COUNT(*) FROM game_seats WHERE user_id IS NOT NULL"
        ).fetchone()[0]
        assert rated == humans
        totals = db.execute("SELECT COALESCE(SUM(games), 0) FROM player_totals").fetchone()[0]
        assert totals == humans


@pytest.mark.parametrize("database", range(DATABASES))
def test_killed_writers_never_lose_an_acknowledged_write(tmp_path: Path, database: int) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    path = tmp_path / "durable.sqlite3"
    for life in range(LIVES):
        child = Child(path)
        if rng.random() < 0.3:
            time.sleep(rng.uniform(0.0, 0.4))  # anywhere: importing, migrating, loading
        else:
            wait_for_acks(child, rng.randint(1, 300))
            time.sleep(rng.uniform(0.0, 0.005))
        acknowledged = child.kill()
        try:
            check_database(path, acknowledged)
        except AssertionError as err:
            raise AssertionError(f"seed {seed}, life {life}: {err}") from err
    # After all those kills the store still opens and resumes every open table.
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import asyncio, sys; sys.path.insert(0, sys.argv[2]); from data import Store\n"
            "async def main():\n"
            "    store = await Store.open(sys.argv[1])\n"
            "    loaded = await store.load_active_tables(validate=lambda t: None)\n"
            "    print(len(loaded.ok), len(loaded.broken))\n"
            "    await store.close()\n"
            "asyncio.run(main())",
            str(path),
            str(CHILD.resolve().parents[2]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    opened, broken = map(int, result.stdout.split())
    assert broken == 0 and opened <= CHANNELS
