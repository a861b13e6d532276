"""Migrations: a fresh file gets the latest version, re-opening changes nothing, a newer file is
refused untouched, a failing migration leaves no trace, and processes starting together on an
empty database all start."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from data import TABLE_MESSAGE, KeptMessage, SchemaTooNew, Store, StoreError, connection
from data.connection import (
    DIALECTS,
    Migration,
    latest_version,
    migrations,
    parse_address,
    split_statements,
)

from .conftest import raw_write


def version_rows(path: Path) -> list[tuple[int, str, float]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT version, name, applied_at FROM schema_version").fetchall()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def writer_pragma(store: Store, name: str) -> Any:
    """A pragma as the store's own write connection has it."""

    async def read(session: Any) -> Any:
        return (await session.fetch(f"PRAGMA {name}"))[0][0]

    return await store._driver.exclusive(read)


async def stored_versions(store: Store) -> list[tuple[int, str, float]]:
    rows = await store._read("SELECT version, name, applied_at FROM schema_version ORDER BY 1")
    return [tuple(row) for row in rows]  # type: ignore[misc]


async def table_names(store: Store) -> set[str]:
    if store.dialect == "sqlite":
        rows = await store._read("SELECT name FROM sqlite_master")
    else:
        rows = await store._read(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    return {row[0] for row in rows}


async def test_fresh_database_gets_latest_version_and_pragmas(db_path: Path) -> None:
    assert not db_path.parent.exists()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == latest_version() == len(migrations())
        assert await writer_pragma(store, "journal_mode") == "wal"
        assert await writer_pragma(store, "foreign_keys") == 1
        assert await writer_pragma(store, "busy_timeout") > 0
        assert await writer_pragma(store, "synchronous") == 1  # NORMAL
        assert await writer_pragma(store, "wal_autocheckpoint") == 0  # ours are off the write path
    finally:
        await store.close()
    assert [row[0] for row in version_rows(db_path)] == list(range(1, latest_version() + 1))


async def test_reopening_is_a_no_op(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    before = version_rows(db_path)
    with sqlite3.connect(db_path) as db:
        schema_before = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    store = await Store.open(db_path, synchronous="FULL")
    try:
        assert await store.schema_version() == latest_version()
        assert await writer_pragma(store, "synchronous") == 2  # FULL
    finally:
        await store.close()
    assert version_rows(db_path) == before
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema_before


async def test_newer_database_is_refused_unchanged(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    newer = latest_version() + 1
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA journal_mode = DELETE")  # so any later pragma would show in the file
        db.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future', 0)",
            (newer,),
        )
    before = digest(db_path)
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(db_path)
    assert caught.value.found == newer
    assert caught.value.known == latest_version()
    assert "upgrade" in str(caught.value)
    assert isinstance(caught.value, StoreError)
    assert digest(db_path) == before
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


async def test_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not sqlite at all" * 100)
    before = digest(path)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        await Store.open(path)
    assert digest(path) == before


async def test_failing_migration_is_rolled_back_whole(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await (await Store.open(database)).close()
    dialect = parse_address(database).dialect
    good = migrations(dialect)
    bad = Migration(
        len(good) + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": [*good, bad])
    with pytest.raises(Exception, match="no_such_table"):
        await Store.open(database)
    monkeypatch.undo()
    async with await Store.open(database) as store:
        assert "half_done" not in await table_names(store)
        assert [row[0] for row in await stored_versions(store)] == list(range(1, len(good) + 1))


async def test_every_driver_gets_the_latest_version_once(database: str) -> None:
    dialect = parse_address(database).dialect
    async with await Store.open(database) as store:
        assert await store.schema_version() == latest_version(dialect)
        first = await stored_versions(store)
    async with await Store.open(database) as store:  # re-opening applies nothing
        assert await stored_versions(store) == first
    assert [(v, n) for v, n, _ in first] == [(m.version, m.name) for m in migrations(dialect)]


async def test_a_newer_schema_is_refused_on_every_driver(database: str) -> None:
    async with await Store.open(database) as store:
        newer = await store.schema_version() + 1
        await store._statement(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future', 0)",
            (newer,),
        )
        before = await stored_versions(store)
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(database)
    assert caught.value.found == newer and "upgrade" in str(caught.value)
    shipped = connection.migrations
    try:  # read it back with code that knows the newer version: nothing was touched
        connection.migrations = lambda dialect="sqlite": [  # type: ignore[assignment]
            *shipped(dialect), Migration(newer, "future", "SELECT 1;")
        ]
        async with await Store.open(database) as store:
            assert await stored_versions(store) == before
    finally:
        connection.migrations = shipped  # type: ignore[assignment]


def test_both_dialects_ship_the_same_migrations() -> None:
    sqlite, postgresql = (migrations(dialect) for dialect in DIALECTS)
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]


def test_database_addresses() -> None:
    assert parse_address("ohhell.sqlite3") == connection.DatabaseAddress(
        "sqlite", path=Path("ohhell.sqlite3")
    )
    assert parse_address("sqlite:///data/x.sqlite3").path == Path("data/x.sqlite3")
    assert parse_address("sqlite:////data/x.sqlite3").path == Path("/data/x.sqlite3")
    pg = parse_address("postgresql://bot:secret@db:5432/ohhell")
    assert pg.dialect == "postgresql" and pg.dsn == "postgresql://bot:secret@db:5432/ohhell"
    assert "secret" not in str(pg)
    assert parse_address("postgres://db/x").dialect == "postgresql"
    for bad in ("mysql://db/x", "sqlite://x.sqlite3", "sqlite:///"):
        with pytest.raises(ValueError, match="sqlite:///"):
            parse_address(bad)


def test_split_statements_keeps_triggers_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_no_update BEFORE UPDATE ON t\n"
        "BEGIN SELECT RAISE(ABORT, 'no'); END;\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_shipped_migrations_are_numbered_without_gaps() -> None:
    for dialect in DIALECTS:
        found = migrations(dialect)
        assert [m.version for m in found] == list(range(1, len(found) + 1))
        assert all(m.sql.strip() for m in found)
    assert all(split_statements(m.sql) for m in migrations("sqlite"))


async def test_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="file path"):
        await Store.open(":memory:")
    assert not Path(":memory:").exists()


def test_a_program_that_forgets_to_close_the_store_still_exits(tmp_path: Path) -> None:
    """A non-daemon connection thread would keep the process alive at exit; the store's do
    not."""
    script = (
        "import asyncio, sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from data import Store\n"
        "async def main():\n"
        "    global store\n"
        "    store = await Store.open(sys.argv[1])\n"
        "    raise SystemExit(3)\n"
        "asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "db.sqlite3"), str(root)],
        capture_output=True,
        timeout=120,  # a hang detector, not a timing assertion
    )
    assert done.returncode == 3, done.stderr.decode()


async def test_upgrade_from_version_2_keeps_tables_loadable(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database written before 0003 (no meta column) opens, upgrades and resumes its tables;
    their meta is read from their action log (0013) and can be saved from then on."""
    from dataclasses import replace

    from data import TableStatus

    shipped = migrations()
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped[:2])
    await (await Store.open(db_path)).close()
    with sqlite3.connect(db_path) as db:  # rows as the version-2 code wrote them
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 2
        seats = '[{"name":"Ann","user_id":11,"computer_level":null,"hand_message_id":null,' \
            '"dm_channel_id":null,"timeouts":0},{"name":"Bot 1","user_id":null,' \
            '"computer_level":"easy","hand_message_id":null,"dm_channel_id":null,"timeouts":0}]'
        table_id = db.execute(
            "INSERT INTO game_tables (guild_id, channel_id, host_id, status, rules_json,"
            " seats_json, created_at, updated_at) VALUES (1, 100, 11, 'lobby', ?, ?, 1, 1)",
            ('{"name": "classic"}', seats),
        ).lastrowid
        db.execute(
            "INSERT INTO action_log (table_id, seat, user_id, action, payload_json, at)"
            " VALUES (?, 0, 11, 'open', '{\"options\":{\"bots\":1}}', 1)",
            (table_id,),
        )
    with sqlite3.connect(db_path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(game_tables)")]
    assert "meta_json" not in columns

    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped)
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == latest_version() >= 3
        loaded = await store.load_active_tables(validate=lambda table: None)
        assert loaded.broken == []
        [table] = loaded.ok
        assert table.id == table_id and table.meta == {
            "options": {"bots": 1}, "dm_failed_seats": [], "replaced_user_ids": {}}
        assert [(s.name, s.user_id, s.computer_level) for s in table.seats] == [
            ("Ann", 11, None),
            ("Bot 1", None, "easy"),
        ]
        assert [a.action for a in await store.actions(table.id)] == ["open"]
        await store.save_table(replace(table, meta={"options": {"bots": 1}, "x": [1]}))
        stored = await store.get_table(table.id)
        assert stored is not None and stored.meta == {"options": {"bots": 1}, "x": [1]}
        assert stored.status is TableStatus.LOBBY
    finally:
        await store.close()
    assert [row[1] for row in version_rows(db_path)] == [m.name for m in shipped]


async def test_open_tables_stored_before_meta_get_it_from_their_log(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 0013 on each driver: an open table whose meta is still {} (stored before 0003)
    gets the host's options, the seats whose DMs failed and who each computer replaced
    mid-game, read from its action log; tables with meta, and closed ones, are left alone."""
    dialect = parse_address(database).dialect
    shipped = migrations(dialect)
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped[:3])
    people = [{"name": n, "user_id": u, "computer_level": None if u else "easy",
               "hand_message_id": None, "dm_channel_id": None, "timeouts": 0}
              for n, u in (("Ann", 11), ("Bob", 12), ("Cy", 13), ("Dee", 14))]
    computer = {**people[0], "name": "Computer", "user_id": None, "computer_level": "medium"}
    with_meta = {"options": {"preset": "classic"}, "dm_failed_seats": [],
                 "replaced_user_ids": {}}
    tables = {  # id: (status, seats, meta)
        1: ("lobby", people[:3], {}),
        2: ("playing", [people[0], computer, computer, computer], {}),
        3: ("lobby", people[:2], with_meta),  # written after 0003: its meta is the truth
        4: ("finished", people[:3], {}),  # closed: nothing resumes it
        5: ("lobby", people[:1], {}),  # a log without its open row
    }
    log = [  # (table, seat, user, action, payload)
        (1, 0, 11, "open", {"options": {"preset": "oh_pshaw", "computers": 1}}),
        (1, 1, 12, "join", {"name": "Bob"}),
        (1, None, None, "dm_failed", {"user_id": 12}),
        (2, 0, 11, "open", {"options": {"preset": "classic", "max_cards": 3}}),
        (2, 1, 12, "join", {"name": "Bob"}),
        (2, 2, 13, "join", {"name": "Cy"}),
        (2, 3, 15, "join", {"name": "Eve"}),
        (2, 3, 15, "leave", {}),  # in the lobby: the seat went, nobody was replaced
        (2, 3, 14, "join", {"name": "Dee"}),
        (2, None, 11, "deal", {"seed": 1, "players": 4}),
        (2, None, None, "dm_failed", {"user_id": 11}),
        (2, 1, 12, "leave", {}),
        (2, 2, 11, "kick", {"target": 13}),
        (2, None, None, "dm_failed", {"user_id": 14}),  # Dee's seat is a computer's now
        (2, 3, 11, "kick", {"target": 14}),
        (2, 3, None, "leave", {}),  # who left was forgotten since (0009): no one to name
        (3, None, None, "dm_failed", {"user_id": 11}),
        (4, 0, 11, "open", {"options": {"preset": "classic"}}),
        (5, 0, 11, "join", {"name": "Ann"}),
    ]
    async with await Store.open(database) as store:  # rows as the version-3 code wrote them
        for table_id, (status, seats, meta) in tables.items():
            await raw_write(
                store,
                "INSERT INTO game_tables (id, guild_id, channel_id, host_id, status, rules_json,"
                " seats_json, meta_json, created_at, updated_at)"
                " VALUES (?, 1, ?, 11, ?, '{}', ?, ?, 1, 1)",
                table_id, 100 + table_id, status, json.dumps(seats), json.dumps(meta),
            )
        for number, (table_id, seat, user_id, action, payload) in enumerate(log, start=1):
            await raw_write(
                store,
                "INSERT INTO action_log (id, table_id, seat, user_id, action, payload_json, at)"
                " VALUES (?, ?, ?, ?, ?, ?, 1)",
                number, table_id, seat, user_id, action, json.dumps(payload),
            )

    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped)
    async with await Store.open(database) as store:
        metas = {}
        for table_id in tables:
            record = await store.get_table(table_id)
            assert record is not None
            metas[table_id] = record.meta
    assert metas == {
        1: {"options": {"preset": "oh_pshaw", "computers": 1}, "dm_failed_seats": [1],
            "replaced_user_ids": {}},
        2: {"options": {"preset": "classic", "max_cards": 3}, "dm_failed_seats": [0],
            "replaced_user_ids": {"1": 12, "2": 13, "3": 14}},
        3: with_meta,
        4: {},
        5: {"options": {}, "dm_failed_seats": [], "replaced_user_ids": {}},
    }


CHILD = Path(__file__).with_name("migrating_child.py")
STARTS = 4  # empty databases, each opened by two or three processes at once


def start_together(target: str, processes: int) -> list[subprocess.CompletedProcess[str]]:
    """`processes` processes open the store on one empty database at the same moment."""
    start_at = time.time() + 2.0  # after every child has imported the code
    children = [
        subprocess.Popen([sys.executable, str(CHILD), target, str(start_at)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    done = []
    for child in children:
        out, err = child.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(child.args, child.returncode, out, err))
    return done


async def test_processes_starting_together_on_an_empty_database_all_start(
    database: str, second_database: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two or three bot processes started at once (a first `docker compose up`) each migrate the
    same empty database: every one starts, and each migration is applied exactly once."""
    targets = [database, second_database]
    while len(targets) < STARTS:
        targets.append(
            request.getfixturevalue("postgres_server").new_database()
            if database.startswith("postgresql://")
            else str(tmp_path / f"round{len(targets)}.sqlite3")
        )
    for index, target in enumerate(targets):
        for child in start_together(target, 3 if index % 2 else 2):
            assert child.returncode == 0, f"round {index}: a process failed:\n{child.stderr}"
        async with await Store.open(target) as store:
            versions = [row[0] for row in await stored_versions(store)]
        assert versions == list(range(1, latest_version() + 1))


async def test_open_tables_keep_their_message_ids_in_rows_of_their_own(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 0014 on each driver: the table message, DM hand messages (with the hand they
    show), DM channels and closed DMs of every open table move from its row into
    table_messages, so a restart after the upgrade edits the same messages; closed tables are
    left out, and a damaged snapshot does not stop the upgrade."""
    dialect = parse_address(database).dialect
    shipped = migrations(dialect)
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped[:13])

    def seat(name: str, user_id: int | None, hand: int | None = None,
             channel: int | None = None) -> dict[str, object]:
        return {"name": name, "user_id": user_id, "computer_level": None if user_id else "easy",
                "hand_message_id": hand, "dm_channel_id": channel, "timeouts": 0}

    tables = {  # id: (status, message id, seats, snapshot, failed seats)
        1: ("playing", 9001, [seat("Ann", 11, 7011, 8011), seat("Bob", 12, None, 8012),
                              seat("Cy", 13), seat("Computer", None)],
            '{"hand_number": 3, "players": 4}', [1]),
        2: ("lobby", 9002, [seat("Ann", 11), seat("Dee", 14)], None, [1]),
        3: ("finished", 9003, [seat("Ann", 11, 7031, 8031)], '{"hand_number": 9}', []),
        4: ("playing", None, [seat("Eve", 15, 7041, 8041)], "not json {", []),
    }
    async with await Store.open(database) as store:  # rows as the version-13 code wrote them
        assert await store.schema_version() == 13
        for table_id, (status, message, seats, snapshot, failed) in tables.items():
            meta = {"options": {}, "dm_failed_seats": failed, "replaced_user_ids": {}}
            await raw_write(
                store,
                "INSERT INTO game_tables (id, guild_id, channel_id, message_id, host_id, status,"
                " rules_json, snapshot_json, seats_json, meta_json, created_at, updated_at)"
                " VALUES (?, 1, ?, ?, 11, ?, '{}', ?, ?, ?, 1, 1)",
                table_id, 100 + table_id, message, status, snapshot, json.dumps(seats),
                json.dumps(meta),
            )

    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped)
    async with await Store.open(database) as store:
        assert await store.schema_version() == latest_version(dialect)
        kept = await store.kept_messages_of(list(tables))
    assert kept == {
        1: [KeptMessage(1, TABLE_MESSAGE, 9001, channel_id=101),
            KeptMessage(1, 11, 7011, channel_id=8011, hand_number=3),
            KeptMessage(1, 12, None, channel_id=8012, dm_failed=True)],
        2: [KeptMessage(2, TABLE_MESSAGE, 9002, channel_id=102),
            KeptMessage(2, 14, None, dm_failed=True)],
        4: [KeptMessage(4, 15, 7041, channel_id=8041, hand_number=None)],
    }
