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
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from data import connection
from data.driver import Dialect, Row, WriteQueue
from data.errors import DatabaseUnavailable, SchemaTooNew, StoreError

T = TypeVar("T")

MIGRATION_LOCK = 0x0_4F_48_48_45_4C_4C  # "OHHELL": the advisory lock key for migrations
READERS = 4
"""Read connections per process (reads run side by side; writes go one at a time)."""
CONNECT_TIMEOUT = 5.0
"""Seconds a new write connection may take before the write waiting for it fails."""
RECONNECT_FIRST = 0.2
RECONNECT_MOST = 5.0
"""Seconds between two tries to reach a database that is away: the first wait, doubling up to
the most."""

_CONNECTION_LOST = (
    OSError,
    asyncpg.InterfaceError,  # "connection is closed" (and misuse, told apart below)
    asyncpg.PostgresConnectionError,  # closed in the middle of a query
    asyncpg.exceptions.AdminShutdownError,  # the server is restarting
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
)
"""What a query raises when the connection under it is gone."""

_PLACEHOLDER = re.compile(r"\?")
_log = logging.getLogger(__name__)


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

    def __init__(
        self,
        dsn: str,
        writer: asyncpg.Connection,
        readers: asyncpg.Pool,
        settings: dict[str, str] | None = None,
    ) -> None:
        """Use PostgresDriver.open."""
        self.dsn = dsn
        self.label = str(connection.DatabaseAddress("postgresql", dsn=dsn))
        self._settings = settings if settings is not None else _settings("NORMAL")
        self._writer = PostgresSession(writer)
        self._readers = PostgresSession(readers)
        self._queue = WriteQueue()
        self._backoff = RECONNECT_FIRST
        self._next_try = 0.0

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
        return cls(dsn, writer, readers, settings)

    # -- the write connection, connected again after it was lost --------------------------------

    async def _session(self) -> PostgresSession:
        """The write session; when its connection was lost (the server restarted, the network
        dropped it), a new one first. Tries to connect at once, then no more often than a
        backoff that doubles up to RECONNECT_MOST while the server stays away; a write in
        between fails at once with DatabaseUnavailable."""
        if not self._writer.target.is_closed():
            return self._writer
        now = time.monotonic()
        if now < self._next_try:
            raise DatabaseUnavailable(
                f"the PostgreSQL database {self.label} is unreachable (next try in "
                f"{self._next_try - now:.1f} s)"
            )
        try:
            fresh = await asyncpg.connect(
                self.dsn, server_settings=self._settings, timeout=CONNECT_TIMEOUT
            )
        except (TimeoutError, OSError, asyncpg.PostgresError) as err:
            self._next_try = now + self._backoff
            self._backoff = min(self._backoff * 2, RECONNECT_MOST)
            raise DatabaseUnavailable(
                f"cannot reach the PostgreSQL database {self.label}: {err}"
            ) from err
        self._backoff, self._next_try = RECONNECT_FIRST, 0.0
        self._writer.target = fresh
        _log.warning("connected to the PostgreSQL database %s again", self.label)
        return self._writer

    async def _write(self, job: Callable[[PostgresSession], Awaitable[T]]) -> T:
        """job on the write session, in its turn; a lost connection is DatabaseUnavailable
        (the write may or may not have landed), and the next write connects again."""

        async def run() -> T:
            session = await self._session()
            try:
                return await job(session)
            except _CONNECTION_LOST as err:
                if isinstance(err, asyncpg.InterfaceError) and not session.target.is_closed():
                    raise  # a misuse of a live connection, not a lost one
                if not session.target.is_closed():
                    session.target.terminate()  # so the next write connects afresh
                raise DatabaseUnavailable(
                    f"lost the connection to the PostgreSQL database {self.label}: {err}"
                ) from err

        return await self._queue.run(run)

    async def statement(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement, its own transaction, one round trip, in its turn."""
        return await self._write(lambda session: session.fetch(sql, params))

    async def transaction(self, body: Callable[[PostgresSession], Awaitable[T]]) -> T:
        """body in one transaction on the write connection, in its turn."""

        async def job(session: PostgresSession) -> T:
            async with session.target.transaction():
                return await body(session)

        return await self._write(job)

    async def exclusive(self, body: Callable[[PostgresSession], Awaitable[T]]) -> T:
        """body alone on the write connection, outside any transaction."""
        return await self._write(body)

    async def settled(self) -> None:
        """Wait until the writes queued before this call have ended."""
        await self._queue.drain()

    async def probe(self) -> None:
        """A round trip on the write connection (connecting again if it was lost): raises
        DatabaseUnavailable while writes cannot reach the database."""
        await self._write(lambda session: session.fetch("SELECT 1"))

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
        if self._writer.target.is_closed():
            self._writer.target.terminate()
        else:
            await self._writer.target.close()
        await self._readers.target.close()
