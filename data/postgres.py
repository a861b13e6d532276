"""The PostgreSQL driver: one server shared by several bot processes, through asyncpg.

One write connection per process, fed by the store's WriteQueue (an asyncpg connection runs one
query at a time), and a small pool for reads. The same statements as SQLite (data/tables.py...;
`?` placeholders are numbered here), the same migrations in PostgreSQL's dialect
(data/migrations/postgresql), the same promises:

- A save is one statement (an INSERT into the view table_saves, whose INSTEAD OF trigger updates
  the table and appends the action), so one round trip and one transaction.
- Every write runs in a task of its own, so a cancelled caller never cancels a query half way:
  the write lands (or fails) whole, as it would have.
- Migrations run one transaction each under a session advisory lock, so processes starting
  together apply each migration once; a database written by newer code is refused before
  anything runs.

synchronous: "NORMAL" (default) commits with synchronous_commit = off: a commit is in the server's
memory when it returns, so it survives any crash of a bot process (the server holds it), and a
crash of the database server or its machine may lose the last fraction of a second of commits,
never corrupt anything: the same promise as SQLite's NORMAL. "FULL" waits for the server's disk.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from data import connection
from data.driver import Dialect, Row, WriteQueue
from data.errors import SchemaTooNew, StoreError

T = TypeVar("T")

MIGRATION_LOCK = 0x0_4F_48_48_45_4C_4C  # "OHHELL": the advisory lock key for migrations
READERS = 4
"""Read connections per process (reads run side by side; writes go one at a time)."""

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's $1, $2... (the store's SQL has no `?` in literals)."""
    count = itertools.count(1)
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


class PostgresSession:
    """Statements on one asyncpg connection (or on the read pool, a connection per call)."""

    dialect: Dialect = "postgresql"

    def __init__(self, target: asyncpg.Connection | asyncpg.Pool) -> None:
        """Wrap a connection or a pool."""
        self.target = target

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement and return its rows."""
        return list(await self.target.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement (without parameters, a script of several)."""
        if params:
            await self.target.execute(numbered(sql), *params)
        else:
            await self.target.execute(sql)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement per row of parameters."""
        batch = [tuple(row) for row in rows]
        if batch:
            await self.target.executemany(numbered(sql), batch)


def _settings(synchronous: str) -> dict[str, str]:
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', not {synchronous!r}")
    return {
        "synchronous_commit": "off" if synchronous == "NORMAL" else "on",
        "application_name": "ohhell-bot",
    }


async def _schema_version(session: PostgresSession) -> int:
    rows = await session.fetch("SELECT to_regclass('schema_version') IS NOT NULL")
    if not rows[0][0]:
        return 0
    rows = await session.fetch("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(rows[0][0])


async def apply_migrations(writer: asyncpg.Connection, label: str) -> int:
    """Apply every pending migration, each in its own transaction, holding the migration lock
    from before the first transaction to after the last.

    The lock is the session's, taken outside any transaction, so each transaction begins once
    the lock is held: a process that waited for it then reads the version (and the catalog)
    that the process before it committed. Taken inside a transaction, the wait happens after the
    transaction began, and the catalog lookup may still answer from before (schema_version
    "missing", so it is created twice: DuplicateTableError when processes start together).
    """
    session = PostgresSession(writer)
    known = connection.migrations("postgresql")
    await session.fetch("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
    try:
        for migration in known:
            async with writer.transaction():
                current = await _schema_version(session)
                if current > len(known):
                    raise SchemaTooNew(label, current, len(known))
                if current < migration.version:
                    await session.execute(migration.sql)
                    await session.execute(
                        "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                        (migration.version, migration.name, time.time()),
                    )
        return await _schema_version(session)
    finally:
        await session.fetch("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))


class PostgresDriver:
    """The store's PostgreSQL database: see the module docstring."""

    dialect: Dialect = "postgresql"

    def __init__(self, dsn: str, writer: asyncpg.Connection, readers: asyncpg.Pool) -> None:
        """Use PostgresDriver.open."""
        self.dsn = dsn
        self._writer = PostgresSession(writer)
        self._readers = PostgresSession(readers)
        self._queue = WriteQueue()

    @classmethod
    async def open(cls, dsn: str, synchronous: str = "NORMAL") -> PostgresDriver:
        """Connect, refuse a newer schema, apply migrations, open the read pool."""
        settings = _settings(synchronous)
        label = str(connection.DatabaseAddress("postgresql", dsn=dsn))
        try:
            writer = await asyncpg.connect(dsn, server_settings=settings)
        except (OSError, asyncpg.PostgresError) as err:
            raise StoreError(f"cannot reach the PostgreSQL database {label}: {err}") from err
        try:
            found = await _schema_version(PostgresSession(writer))
            known = len(connection.migrations("postgresql"))
            if found > known:
                raise SchemaTooNew(label, found, known)
            await apply_migrations(writer, label)
            readers = await asyncpg.create_pool(
                dsn, min_size=1, max_size=READERS, server_settings=settings
            )
        except BaseException:
            await asyncio.shield(writer.close())
            raise
        return cls(dsn, writer, readers)

    async def statement(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement, its own transaction, one round trip, in its turn."""
        return await self._queue.run(lambda: self._writer.fetch(sql, params))

    async def transaction(self, body: Callable[[PostgresSession], Awaitable[T]]) -> T:
        """body in one transaction on the write connection, in its turn."""

        async def job() -> T:
            async with self._writer.target.transaction():
                return await body(self._writer)

        return await self._queue.run(job)

    async def exclusive(self, body: Callable[[PostgresSession], Awaitable[T]]) -> T:
        """body alone on the write connection, outside any transaction."""
        return await self._queue.run(lambda: body(self._writer))

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One read statement on a pooled connection."""
        return await self._readers.fetch(sql, params)

    @property
    def reader(self) -> PostgresSession:
        """The read pool as a session."""
        return self._readers

    async def close(self) -> None:
        """Finish the writes requested before, then close the connections."""
        await self._queue.drain()
        await self._writer.target.close()
        await self._readers.target.close()
