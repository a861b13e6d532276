"""Opening the SQLite file: pragmas, schema version check and numbered migrations.

The version is checked before anything touches the file (not even the journal mode), so a
database written by newer code is refused unchanged. These functions are synchronous: they run
in the store's connection threads (data/worker.py), which alone use the connections they open.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

from data.errors import SchemaTooNew, StoreError

# WAL with synchronous=NORMAL: a commit is written to the WAL (the OS page cache) before it returns,
# so it survives a crash or SIGKILL of the process, which is what the bot must survive (and what
# tests/data/test_durability.py checks); only a power loss or kernel crash may roll back the last
# few commits, never corrupt the file. FULL adds an fsync of the WAL per commit, for a guarantee
# (power loss) the bot does not promise. Measured by `python bench/store.py` on the 2-core build
# machine: NORMAL p50 0.7 ms per save, FULL p50 1.1-3.9 ms depending on disk load, and FULL's
# throughput 40-60% lower when the disk is busy (saves through aiosqlite; since a save runs whole
# in the writer thread, NORMAL p50 0.25-0.4 ms and FULL p50 0.6-4 ms, FULL's throughput still
# 40-80% lower). Pass synchronous="FULL" to Store.open to choose it.
Synchronous = Literal["NORMAL", "FULL"]
DEFAULT_SYNCHRONOUS: Synchronous = "NORMAL"
BUSY_TIMEOUT_MS = 5000

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file from data/migrations/."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The shipped migrations in version order (they are package data, see pyproject)."""
    found: list[Migration] = []
    for entry in resources.files("data").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations must be numbered 1..n without gaps, found {versions}")
    return found


def latest_version() -> int:
    """The schema version this code writes."""
    return len(migrations())


def split_statements(sql: str) -> list[str]:
    """Split a migration into statements (triggers included) so they run in our transaction.

    executescript() would commit any open transaction first, which breaks "one migration, one
    transaction".
    """
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if _has_code(statement):
                statements.append(statement)
            buffer = ""
    if _has_code(buffer):
        raise StoreError(f"unterminated SQL statement in migration: {buffer.strip()[:80]}")
    return statements


def _has_code(text: str) -> bool:
    return any(
        line.strip() and not line.strip().startswith("--") for line in text.splitlines()
    )


def _connect(target: str | Path, *, uri: bool = False) -> sqlite3.Connection:
    """Open a sqlite3 connection in autocommit mode (the store writes BEGIN/COMMIT itself).

    Called in the store's connection thread, which then alone uses the connection.
    """
    connection = sqlite3.connect(target, isolation_level=None, uri=uri)
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    except BaseException:
        connection.close()
        raise
    return connection


def _schema_version(db: sqlite3.Connection) -> int:
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchall()
    if not found:
        return 0
    return int(db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def check_writer_options(path: Path, synchronous: str) -> None:
    """Refuse, before any thread starts or any file is touched, what open_writer cannot open."""
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', not {synchronous!r}")
    if str(path) == ":memory:" or str(path).startswith("file:"):
        raise ValueError("the store needs a file path (use a temporary folder in tests)")


def open_writer(path: Path, synchronous: Synchronous = DEFAULT_SYNCHRONOUS) -> sqlite3.Connection:
    """Open the one write connection: refuse a newer schema, set pragmas, apply migrations."""
    check_writer_options(path, synchronous)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = _connect(path)
    try:
        known = latest_version()
        try:
            found = _schema_version(db)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{path} is not a usable SQLite database: {err}") from err
        if found > known:
            raise SchemaTooNew(str(path), found, known)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {synchronous}")
        db.execute("PRAGMA foreign_keys = ON")
        # The store's checkpoint thread copies the WAL back into the database every
        # CHECKPOINT_EVERY writes, off the write path (Store._maybe_checkpoint). SQLite's own
        # checkpoint, run inside whichever commit crosses WAL_AUTOCHECKPOINT pages, stays as the
        # safety valve that restarts the WAL (a background checkpoint racing the writer never
        # can); by then nearly every page is copied already, so that commit stays quick.
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT}")
        apply_migrations(db, str(path))
    except BaseException:
        db.close()
        raise
    return db


WAL_AUTOCHECKPOINT = 2000
"""WAL pages at which a commit checkpoints (and the WAL restarts); SQLite's default is 1,000."""


def open_checkpointer(path: Path) -> sqlite3.Connection:
    """Open the connection that only checkpoints the WAL (it needs write access to the file)."""
    return _connect(path)


def checkpoint(db: sqlite3.Connection) -> tuple[int, int, int]:
    """Copy what the WAL holds back into the database without waiting for anyone (PASSIVE: the
    writer goes on appending meanwhile); returns SQLite's (busy, WAL pages, pages copied)."""
    busy, pages, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(busy), int(pages), int(copied)


def open_reader(path: Path) -> sqlite3.Connection:
    """Open a read-only connection; WAL lets it read while the writer writes."""
    return _connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def apply_migrations(db: sqlite3.Connection, label: str) -> int:
    """Apply every pending migration, each in its own IMMEDIATE transaction; return the version.

    The version is read again inside each transaction, so two processes opening the same file
    at once do not apply a migration twice.
    """
    known = migrations()
    for migration in known:
        db.execute("BEGIN IMMEDIATE")
        try:
            current = _schema_version(db)
            if current > len(known):
                raise SchemaTooNew(label, current, len(known))
            if current >= migration.version:
                db.execute("COMMIT")
                continue
            for statement in split_statements(migration.sql):
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, time.time()),
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return _schema_version(db)
