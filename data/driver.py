"""What the store needs from a database driver, and the write queue both drivers share.

The store speaks SQL through two small interfaces so that one set of queries serves SQLite
(aiosqlite, data/sqlite.py) and PostgreSQL (asyncpg, data/postgres.py):

- a Session runs statements: fetch (rows back), execute, executemany. SQL is written with `?`
  placeholders; the PostgreSQL driver numbers them ($1, $2...). Where the dialects differ, the
  caller branches on session.dialect.
- a Driver runs writes: `statement` (one statement, atomic on its own: one round trip to the
  driver where the driver allows it, on SQLite committed together with the statements
  requested while the writer was busy),
  `transaction` (several statements in one transaction), and reads (`read` and the `reader`
  session).

Writes that must not interleave go through a WriteQueue: jobs run one at a time in the order
they were requested, each in its own task, so a job runs to its end even when the task awaiting it
is cancelled (a cancelled caller does not learn whether its write landed, as after a crash; it
never leaves a transaction half done).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Literal, Protocol, TypeVar

T = TypeVar("T")

Dialect = Literal["sqlite", "postgresql"]
Row = Sequence[Any]

_log = logging.getLogger(__name__)


class Session(Protocol):
    """Statements on one connection (inside a transaction when the driver opened one)."""

    dialect: Dialect

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement and return its rows (a write's RETURNING rows included)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...


class Driver(Protocol):
    """One database behind the store: a write path, a read path, opening and closing."""

    dialect: Dialect

    async def statement(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one write statement after every write requested before, as its own
        transaction or committed together with others (it lands or fails as if alone); return
        its rows. Runs to its end even if the caller is cancelled."""
        ...

    async def transaction(self, body: Callable[[Session], Awaitable[T]]) -> T:
        """Run body in one write transaction, after every write requested before; commit, or
        roll back whole if body raises. Runs to its end even if the caller is cancelled."""
        ...

    async def exclusive(self, body: Callable[[Session], Awaitable[T]]) -> T:
        """Run body alone on the write connection with no transaction opened for it (tests hold
        the writer with it; migrations-like work)."""
        ...

    async def settled(self) -> None:
        """Wait until every write requested before this call has ended (those whose callers
        were cancelled included): a write is queued before its caller first suspends."""
        ...

    async def probe(self) -> None:
        """Go through the write path without writing anything: raises while writes cannot
        reach the database (the health check asks)."""
        ...

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one read statement (it sees one consistent state of the database)."""
        ...

    @property
    def reader(self) -> Session:
        """The session reads of several statements use."""
        ...

    async def close(self) -> None:
        """Finish the writes requested before, then close every connection."""
        ...


class WriteQueue:
    """Write jobs, one at a time, in the order they were requested, each in its own task."""

    def __init__(self) -> None:
        """An empty queue."""
        self._lock = asyncio.Lock()

    async def run(self, job: Callable[[], Awaitable[T]]) -> T:
        """Queue job and await its result. The job is queued before this first suspends, and
        runs to its end even if the caller is cancelled (a failure nobody awaits is logged)."""
        return await run_to_end(self.submit(job))

    def submit(self, job: Callable[[], Awaitable[T]]) -> asyncio.Task[T]:
        """Queue job behind the jobs already queued; the task runs it."""
        return asyncio.ensure_future(self._in_turn(job))

    async def _in_turn(self, job: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:  # asyncio.Lock wakes its waiters first come, first served
            return await job()

    async def drain(self) -> None:
        """Wait until every job queued before this call has ended."""
        await self.run(_nothing)


async def _nothing() -> None:
    return None


async def run_to_end(task: asyncio.Future[T]) -> T:
    """Await task without letting a cancellation of the caller reach it; if the caller is
    cancelled, the task goes on, and its failure (if any) is logged since nobody awaits it."""
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_log_failure_nobody_awaits)
        raise


def _log_failure_nobody_awaits(task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        _log.error("store write failed after its caller was cancelled", exc_info=error)
