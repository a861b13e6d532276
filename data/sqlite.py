"""The SQLite driver: one file in WAL mode, through aiosqlite and, for saves, a plain connection.

Three aiosqlite connections, each with its own thread: the writer, a read-only reader (WAL lets it
read while the writer writes) and a checkpointer; and one stdlib sqlite3 connection used on the
event loop's own thread, the inline writer.

- A save is one statement (an INSERT into the view table_saves, whose trigger updates the table
  and appends the action; migration 0004). When the writer is idle (no job of the WriteQueue
  running or queued), it runs inline: BEGIN IMMEDIATE, the statement and COMMIT on the inline
  writer, about 0.4 ms of the loop's time at p50 with 10,000 tables (as with 1,000), without the
  two thread hand-offs (loop -> aiosqlite's thread -> loop) that cost a save over 1 ms of its
  1.5 ms at p50 (bench/bot.py). It never waits: its
  busy_timeout is 0, so when SQLite answers BUSY or LOCKED (another connection or process holds
  the write lock) the save takes the group path below instead, as does any save requested while
  a job is in the queue, so the saves of one table keep their order (an inline save runs whole
  before the loop goes on: nothing can come between its request and its commit). Nor does a save
  go inline while a background checkpoint runs: a statement on the inline writer then waited,
  on the loop's thread, for the checkpoint's disk writes (SQLite's WAL locks sleep and retry
  whatever the busy_timeout): 52-245 ms stalls of the whole bot in about one run in four of
  `bench/bot.py --tables 10000` (`--stall-stacks 40`: 197 of 200 samples of the loop in the
  inline statement, the checkpointer in disk wait). A statement
  SQLite refuses fails alone (its transaction holds nothing else); when COMMIT itself fails,
  nothing landed and the statement goes to the group path, which runs it again (as _together
  does). Why a second connection rather than aiosqlite's own sqlite3 connection: that one lives
  in aiosqlite's private attributes (`_conn`, `_thread`), which the bot may not touch (issue
  22), and it belongs to aiosqlite's thread; two connections of one process on a WAL file are
  what SQLite's locks are for. It has the writer's pragmas (synchronous, foreign keys, no
  automatic checkpoint, journal_size_limit), so NORMAL or FULL hold for it too (FULL's fsync
  then runs on the loop). The aiosqlite writer stays the driver for everything else.
- Saves requested while the writer is busy go through the store's
  WriteQueue in groups: a statement joins the group not started yet if nothing else was queued
  since it, or starts one. So the statements requested while the writer is busy run together,
  in order: BEGIN IMMEDIATE, the statements and COMMIT handed to aiosqlite's queue at once, so
  its thread runs them back to back instead of waiting for a busy event loop between saves, and
  one commit for the group (group commit; each caller is answered once the group committed, so
  an answered save is committed). Each lands or fails as it would alone (SQLite undoes a refused
  statement alone; see _together for the rare failures that end the transaction). A statement
  is in its group before its caller first suspends, so it lands even if the caller is cancelled.
  Each statement is still one trip to the thread (execute_fetchall: a save returns its action's
  id, so executemany, which returns no rows, does not fit); a busy loop holds the GIL for up to
  the switch interval (bot/client.py) at each of them.
- Transactions of several statements (finishing a game, opening a table with its first action)
  hold the WriteQueue from BEGIN IMMEDIATE to COMMIT, in a task of their own.
- Checkpoints stay off the write path: every CHECKPOINT_EVERY writes the checkpointer copies the
  WAL back into the database (PASSIVE: the writer goes on meanwhile), and SQLite's own checkpoint
  inside commits is off. They come often and small, so that one often ends with the whole WAL
  copied before the next write begins: that write then starts the WAL afresh, without anyone
  waiting (SQLite restarts a WAL only then). It also syncs the WAL's new header (an fsync, under
  NORMAL as under FULL), so it is not left to a save, which would make it on the loop's thread:
  when a checkpoint copied the whole WAL, a one-row write (wal_restarts, migration 0015) is
  queued on the writer at once, and saves take the group path behind it. As an inline save,
  that write held the loop 0.9-1.1 ms at p50 and up to 9-15 ms, one save in ten (a plain
  sqlite3 loop of 3,000 saves at 120/s on the build machine, a PASSIVE checkpoint every 10: the
  save after each checkpoint p50 0.94-1.10 ms, max 9.3-14.6; the others p50 0.29-0.34; with a
  one-row write first, those saves p50 0.32 ms, max 0.8, and the write 0.42 ms at p50). In
  bench/bot.py at 10,000 tables, quiet, three pairs in turn: save p99 0.57-0.80 against
  0.88-1.13 ms, save max 1.4-2.2 against 2.5-4.7 ms, no click's step of the loop over 6 ms
  against 6.2-7.3 ms, the same share of saves on the group path (40-61 against 48-58 a run).
- The WAL's bound does not depend on the checkpoint thread keeping up: when the WAL file reaches
  WAL_VALVE_BYTES, the next write waits for a checkpoint run on the writer itself, after which
  the WAL restarts from its beginning and is cut back to WAL_KEEP_BYTES. So the WAL never grows
  past the valve by more than the writes already queued, however loaded the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from data import connection
from data.connection import split_statements
from data.driver import Dialect, Row, Session, WriteQueue, run_to_end
from data.errors import SchemaTooNew, StoreError

T = TypeVar("T")

_log = logging.getLogger(__name__)

# WAL with synchronous=NORMAL: a commit is written to the WAL (the OS page cache) before it returns,
# so it survives a crash or SIGKILL of the process, which is what the bot must survive (and what
# tests/data/test_durability.py checks); only a power loss or kernel crash may roll back the last
# few commits, never corrupt the file. FULL adds an fsync of the WAL per commit, for a guarantee
# (power loss) the bot does not promise. Measured by `python bench/store.py` on the 2-core build
# machine: NORMAL p50 0.1-0.4 ms per save, FULL p50 0.4-4 ms depending on disk load, and FULL's
# throughput 40-80% lower when the disk is busy. Pass synchronous="FULL" to Store.open to choose it.
Synchronous = Literal["NORMAL", "FULL"]
DEFAULT_SYNCHRONOUS: Synchronous = "NORMAL"
BUSY_TIMEOUT_MS = 5000

CHECKPOINT_EVERY = 10
"""Writes between two background checkpoints (a save adds about 3 pages). Every 100 writes, a
checkpoint took long enough that writes always came during it, the WAL never restarted and the
valve stopped the writer every few seconds, for 35-250 ms (`bench/bot.py` prints the valves)."""
WAL_VALVE_BYTES = 8 * 1024 * 1024
"""WAL file size at which the next write waits for a checkpoint on the writer (the bound)."""
WAL_KEEP_BYTES = 2 * 1024 * 1024
"""What a restarted WAL file is cut back to (journal_size_limit)."""


def check_options(path: Path, synchronous: str) -> None:
    """Refuse, before any thread starts or any file is touched, what open cannot open."""
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', not {synchronous!r}")
    if str(path) == ":memory:" or str(path).startswith("file:"):
        raise ValueError("the store needs a file path (use a temporary folder in tests)")


class SqliteSession:
    """Statements on one aiosqlite connection; each call is one round trip to its thread."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        """Wrap an open connection."""
        self.connection = connection

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run the statement to its end (a write commits, outside a transaction) and return its
        rows, in one round trip."""
        return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        await self.connection.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement per row of parameters, in one round trip."""
        await self.connection.executemany(sql, rows)


class _Failed:
    """What a statement of a group raised (its caller gets it)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


Outcome = list[Row] | _Failed
Statement = tuple[str, Sequence[Any]]


class _Group:
    """Single statements waiting to run together on the writer, and their callers' futures."""

    __slots__ = ("futures", "statements")

    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.futures: list[asyncio.Future[list[Row]]] = []

    def add(self, sql: str, params: Sequence[Any]) -> asyncio.Future[list[Row]]:
        """Add a statement; the future of its rows."""
        future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        self.statements.append((sql, params))
        self.futures.append(future)
        return future

    def settle(self, outcomes: Sequence[Outcome]) -> None:
        """Answer each caller (one cancelled meanwhile is skipped: its statement ran all the
        same)."""
        for future, outcome in zip(self.futures, outcomes, strict=True):
            if future.done():
                continue
            if isinstance(outcome, _Failed) and isinstance(outcome.error, asyncio.CancelledError):
                future.cancel()
            elif isinstance(outcome, _Failed):
                future.set_exception(outcome.error)
            else:
                future.set_result(outcome)


def _ended_before_commit(error: BaseException) -> bool:
    """True when COMMIT found no transaction: SQLite had ended it (or BEGIN had failed)."""
    return isinstance(error, sqlite3.OperationalError) and "no transaction is active" in str(error)


def _connect(target: str, *, uri: bool = False) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (the store writes BEGIN/COMMIT itself), not
    yet started, whose thread is a daemon: a program that dies without closing the store still
    exits (aiosqlite's threads would keep it alive), and SQLite treats that like a crash, which
    the store is built to survive. aiosqlite has no option for it, but a thread takes its daemon
    flag from the thread that creates it, and aiosqlite creates its thread in connect(): so
    connect() runs in a short-lived daemon thread."""
    made: list[aiosqlite.Connection] = []
    maker = threading.Thread(
        target=lambda: made.append(aiosqlite.connect(target, uri=uri, isolation_level=None)),
        name="ohhell-sqlite-connect", daemon=True,
    )
    maker.start()
    maker.join()
    if not made:
        raise StoreError(f"cannot prepare a connection to {target}")
    return made[0]


async def _schema_version(session: Session) -> int:
    found = await session.fetch(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not found:
        return 0
    rows = await session.fetch("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(rows[0][0])


async def apply_migrations(session: Session, label: str) -> int:
    """Apply every pending migration, each in its own IMMEDIATE transaction; return the version.

    The version is read again inside each transaction, so two processes opening the same file at
    once do not apply a migration twice.
    """
    known = connection.migrations("sqlite")
    for migration in known:
        await session.execute("BEGIN IMMEDIATE")
        try:
            current = await _schema_version(session)
            if current > len(known):
                raise SchemaTooNew(label, current, len(known))
            if current < migration.version:
                for statement in split_statements(migration.sql):
                    await session.execute(statement)
                await session.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, time.time()),
                )
            await session.execute("COMMIT")
        except BaseException:
            await _rollback(session)
            raise
    return await _schema_version(session)


async def _rollback(session: Session) -> None:
    # No transaction may be open any more (BEGIN failed, or SQLite ended it): nothing to undo.
    with contextlib.suppress(sqlite3.OperationalError):
        await session.execute("ROLLBACK")


class SqliteDriver:
    """The store's SQLite file: see the module docstring."""

    dialect: Dialect = "sqlite"

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        checkpointer: aiosqlite.Connection,
        inline: sqlite3.Connection,
    ) -> None:
        """Use SqliteDriver.open."""
        self.path = path
        self._inline = inline
        self._wal = Path(f"{path}-wal")
        self._writer = SqliteSession(writer)
        self._reader = SqliteSession(reader)
        self._checkpointer = SqliteSession(checkpointer)
        self._queue = WriteQueue()
        self._jobs = 0
        """Jobs of the queue not ended yet (running or waiting): saves go inline only at 0."""
        self._closing = False
        self._forming: _Group | None = None
        """The group not started yet, if nothing else was queued since it was."""
        self._writes_since_checkpoint = 0
        self.checkpointing: asyncio.Future[list[Row]] | None = None
        self._valve: asyncio.Future[None] | None = None
        self.valves = 0
        """Times the valve opened (the writer waited for a checkpoint): a figure for benches."""
        self.wal_starts = 0
        """Times the writer started the WAL afresh after a checkpoint copied it whole."""
        self.written_inline = 0
        """Statements run inline (the writer idle; committed or refused): a figure for benches
        and tests."""
        self.written_in_groups = 0
        """Statements sent to the group path (the writer busy, or the inline writer refused)."""
        self.inline_refused = 0
        """Of those, the ones the inline writer tried first and SQLite refused (BUSY, LOCKED) or
        whose COMMIT failed."""

    @classmethod
    async def open(cls, path: Path, synchronous: Synchronous = DEFAULT_SYNCHRONOUS) -> SqliteDriver:
        """Open (or create) the file: refuse a newer schema before touching it, then WAL,
        pragmas, migrations; then the reader and the checkpointer."""
        check_options(path, synchronous)
        path.parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        try:
            writer = await _started(_connect(str(path)), opened)
            session = SqliteSession(writer)
            await session.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            known = len(connection.migrations("sqlite"))
            try:
                found = await _schema_version(session)
            except sqlite3.DatabaseError as err:
                raise StoreError(f"{path} is not a usable SQLite database: {err}") from err
            if found > known:
                raise SchemaTooNew(str(path), found, known)
            await _in_wal_mode(session)
            for pragma in _writing_pragmas(synchronous):
                await session.execute(f"PRAGMA {pragma}")
            await apply_migrations(session, str(path))
            reader = await _started(
                _connect(path.resolve().as_uri() + "?mode=ro", uri=True), opened
            )
            await SqliteSession(reader).execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            checkpointer = await _started(_connect(str(path)), opened)
            await SqliteSession(checkpointer).execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            inline = _inline_writer(path, synchronous)
        except BaseException:
            # Close each in its thread and end the thread, before the caller's loop may close.
            stopping = [c.stop() for c in opened]
            await asyncio.shield(asyncio.gather(*(f for f in stopping if f is not None)))
            raise
        return cls(path, writer, reader, checkpointer, inline)

    # -- writes --------------------------------------------------------------------------------

    async def statement(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement, inline when the writer is idle, else in the writer's next group,
        landing or failing as if alone (see the module docstring)."""
        if self._jobs == 0 and not self._closing and self._checkpoint_idle():
            try:
                rows = self._run_inline(sql, params)
            except BaseException:  # refused by SQLite, inline: its outcome
                self.written_inline += 1
                self._after_write()
                raise
            if rows is not None:
                self.written_inline += 1
                self._after_write()
                return rows
            self.inline_refused += 1
        self.written_in_groups += 1
        group = self._forming
        if group is None:
            group = self._forming = _Group()
            self._submit(lambda: self._run_group(group))
        try:
            return await run_to_end(group.add(sql, params))
        finally:
            self._after_write()

    def _run_inline(self, sql: str, params: Sequence[Any]) -> list[Row] | None:
        """The statement in a transaction of its own on the inline writer; None when it did not
        land and the group path must run it (the write lock was taken, or COMMIT failed). A
        statement SQLite refuses raises here, alone: nothing else is in its transaction."""
        connection = self._inline
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            return None  # the group path waits for the lock, or meets the same error itself
        try:
            rows: list[Row] = connection.execute(sql, params).fetchall()
        except sqlite3.OperationalError as err:
            _end(connection)
            if _busy(err):
                return None
            raise
        except BaseException:
            _end(connection)
            raise
        try:
            connection.execute("COMMIT")
        except sqlite3.Error:
            _end(connection)  # nothing landed: the group path runs it again (see _together)
            return None
        return rows

    async def _run_group(self, group: _Group) -> None:
        """In the WriteQueue's turn: the group's statements, answered once they committed."""
        if self._forming is group:  # from now on, statements start the next group
            self._forming = None
        outcomes: list[Outcome] = []
        try:
            if len(group.statements) == 1:
                outcomes = [await self._alone(group.statements[0])]
            else:
                outcomes = await self._together(group.statements)
        except BaseException as err:  # cancelled (the loop is closing): nobody is left waiting
            outcomes = [_Failed(err)] * len(group.statements)
            raise
        finally:
            group.settle(outcomes)

    async def _alone(self, statement: Statement) -> Outcome:
        try:
            return await self._writer.fetch(*statement)
        except Exception as err:
            return _Failed(err)

    async def _together(self, statements: Sequence[Statement]) -> list[Outcome]:
        """BEGIN IMMEDIATE, the statements and COMMIT, all handed to aiosqlite's queue at once,
        so its thread runs them back to back without waiting for the event loop in between.

        A statement refused by SQLite (a trigger's RAISE(ABORT), a constraint) is undone alone
        and the transaction goes on, so every outcome is the one it would have had alone, in
        this order. When the COMMIT failed, nothing landed: each statement runs again, alone.
        When SQLite itself ended the transaction before COMMIT (BEGIN failed, ON CONFLICT
        ROLLBACK, a disk, I/O or memory error), the statements after the last failure ran
        alone, outside it, and stand (committed before the others' second run); the others run
        again alone. Should an earlier failure have ended it, the statements between landed
        alone and run twice (a save's second run is refused as stale): never a lost write
        answered as landed."""
        steps = [("BEGIN IMMEDIATE", ()), *statements, ("COMMIT", ())]
        done = await asyncio.gather(*(asyncio.ensure_future(self._writer.fetch(sql, params))
                                      for sql, params in steps), return_exceptions=True)
        ran = done[1:-1]
        outcomes: list[Outcome] = [_Failed(r) if isinstance(r, BaseException) else r
                                   for r in ran]
        commit = done[-1]
        if not isinstance(commit, BaseException):
            return outcomes
        again = len(statements)
        if self._writer.connection.in_transaction:
            await _rollback(self._writer)
        elif _ended_before_commit(commit):
            again = max((i for i, r in enumerate(done[:-1]) if isinstance(r, BaseException)),
                        default=0)
        return [await self._alone(s) for s in statements[:again]] + outcomes[again:]

    async def transaction(self, body: Callable[[Session], Awaitable[T]]) -> T:
        """body between BEGIN IMMEDIATE and COMMIT, alone on the writer, in a task of its own."""

        async def job() -> T:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                value = await body(self._writer)
                await self._writer.execute("COMMIT")
            except BaseException:
                await _rollback(self._writer)
                raise
            return value

        try:
            return await run_to_end(self._in_turn(job))
        finally:
            self._after_write()

    async def exclusive(self, body: Callable[[Session], Awaitable[T]]) -> T:
        """body alone on the writer, outside any transaction."""
        return await run_to_end(self._in_turn(lambda: body(self._writer)))

    async def settled(self) -> None:
        """Wait until the writes queued before this call have ended (an inline save ends before
        its caller could be cancelled)."""
        await self._queue.drain()

    async def probe(self) -> None:
        """Take the write lock and let it go, in its turn on the writer: raises while the file
        cannot be written (locked past the busy timeout, read-only, gone)."""

        async def job() -> None:
            await self._writer.execute("BEGIN IMMEDIATE")
            await self._writer.execute("ROLLBACK")

        await run_to_end(self._in_turn(job))

    def _in_turn(self, job: Callable[[], Awaitable[T]]) -> asyncio.Task[T]:
        """Queue a job that is not a group's; statements requested later join no group before
        it."""
        self._forming = None
        return self._submit(job)

    def _submit(self, job: Callable[[], Awaitable[T]]) -> asyncio.Task[T]:
        """Queue a job, counted in _jobs from now until its task ended, so no save goes inline
        before it or while it runs."""
        self._jobs += 1
        task = self._queue.submit(job)
        task.add_done_callback(self._job_ended)
        return task

    def _job_ended(self, _task: asyncio.Future[Any]) -> None:
        self._jobs -= 1

    # -- reads ---------------------------------------------------------------------------------

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One read statement on the reader connection."""
        return await self._reader.fetch(sql, params)

    @property
    def reader(self) -> SqliteSession:
        """The read-only session."""
        return self._reader

    # -- the WAL -------------------------------------------------------------------------------

    def _after_write(self) -> None:
        """Start a background checkpoint every CHECKPOINT_EVERY writes; open the valve when the
        WAL file reached WAL_VALVE_BYTES (a stat, a few microseconds)."""
        self._writes_since_checkpoint += 1
        if self._writes_since_checkpoint >= CHECKPOINT_EVERY and self._checkpoint_idle():
            self._writes_since_checkpoint = 0
            self.checkpointing = asyncio.ensure_future(self.checkpoint())
            self.checkpointing.add_done_callback(self._checkpointed)
        if self._valve is not None and not self._valve.done():
            return
        try:
            size = self._wal.stat().st_size
        except FileNotFoundError:
            return
        if size >= WAL_VALVE_BYTES:
            self.valves += 1
            self._valve = self._in_turn(self._restart_wal)
            self._valve.add_done_callback(_log_failure("WAL valve checkpoint"))

    def _checkpointed(self, done: asyncio.Future[list[Row]]) -> None:
        """After a background checkpoint that copied the whole WAL (nothing was written during
        it): the writer starts the WAL afresh, queued at once, so no save goes inline before it
        (see the module docstring)."""
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            _log.error("WAL checkpoint failed", exc_info=error)
            return
        [(busy, frames, copied)] = done.result()
        if busy == 0 and frames > 0 and copied == frames and not self._closing:
            self._in_turn(self._start_wal).add_done_callback(_log_failure("WAL restart"))

    async def _start_wal(self) -> None:
        """In the writer's turn: a one-row write, the first into a WAL copied back whole, so
        SQLite writes the WAL afresh and syncs its new header here, on the writer's thread (a
        group of one: its steps go to aiosqlite's queue at once)."""
        [outcome] = await self._together([("UPDATE wal_restarts SET restarts = restarts + 1", ())])
        if isinstance(outcome, _Failed):
            raise outcome.error
        self.wal_starts += 1

    def _checkpoint_idle(self) -> bool:
        """No background checkpoint runs now."""
        return self.checkpointing is None or self.checkpointing.done()

    async def checkpoint(self) -> list[Row]:
        """Copy the WAL back into the database without waiting for anyone (PASSIVE); returns
        SQLite's [(busy, WAL pages, pages copied)]."""
        return await self._checkpointer.fetch("PRAGMA wal_checkpoint(PASSIVE)")

    async def _restart_wal(self) -> None:
        """On the writer, between writes: wait for the background checkpoint, then checkpoint
        everything and wait for readers to leave the WAL, so the next write starts it afresh."""
        if self.checkpointing is not None:
            await asyncio.wait([self.checkpointing])
        await self._writer.fetch("PRAGMA wal_checkpoint(RESTART)")
        await self._start_wal()

    # -- closing -------------------------------------------------------------------------------

    async def close(self) -> None:
        """Finish the writes requested before, then close the four connections."""
        self._closing = True
        await self._queue.drain()
        if self.checkpointing is not None:
            await asyncio.wait([self.checkpointing])
        self._inline.close()
        for session in (self._writer, self._reader, self._checkpointer):
            await session.connection.close()


def _writing_pragmas(synchronous: Synchronous) -> tuple[str, ...]:
    """What every connection that writes sets: the durability chosen, foreign keys, and no
    automatic checkpoint (ours are off the write path)."""
    return (f"synchronous = {synchronous}", "foreign_keys = ON", "wal_autocheckpoint = 0",
            f"journal_size_limit = {WAL_KEEP_BYTES}")


def _inline_writer(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    """The stdlib connection for inline saves, with the writer's pragmas; it never waits for a
    lock (busy_timeout 0: the group path does the waiting, off the loop)."""
    inline = sqlite3.connect(str(path), isolation_level=None)
    try:
        inline.execute("PRAGMA busy_timeout = 0")
        for pragma in _writing_pragmas(synchronous):
            inline.execute(f"PRAGMA {pragma}")
    except BaseException:
        inline.close()
        raise
    return inline


async def _in_wal_mode(session: SqliteSession) -> None:
    """Switch the file to WAL, trying again for up to BUSY_TIMEOUT_MS while another process
    holds its lock: two processes opening one new file at the same moment (a first `docker
    compose up`) each need the lock from the shared one they hold, and SQLite refuses one of
    them at once, without waiting (waiting there could wait forever), so in 2 of 6 runs one
    process of tests/data/test_migrations.py's start-together test failed to start."""
    give_up = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await session.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as err:
            if not _busy(err) or time.monotonic() > give_up:
                raise
        await asyncio.sleep(0.01)


def _busy(error: sqlite3.OperationalError) -> bool:
    """SQLite refused for a lock another connection holds (SQLITE_BUSY or SQLITE_LOCKED)."""
    return (error.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _end(connection: sqlite3.Connection) -> None:
    """Roll back the inline writer's transaction, if SQLite has not ended it already."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


async def _started(
    connection: aiosqlite.Connection, opened: list[aiosqlite.Connection]
) -> aiosqlite.Connection:
    """Start the connection's thread and open it there; keep it in opened (to close on failure).
    Started in a task of its own, so a cancelled caller cannot leave it half opened."""
    opened.append(connection)
    await run_to_end(asyncio.ensure_future(_await_connection(connection)))
    return connection


async def _await_connection(connection: aiosqlite.Connection) -> aiosqlite.Connection:
    return await connection


def _log_failure(what: str) -> Callable[[asyncio.Future[Any]], None]:
    def log(future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is not None:
            _log.error("%s failed", what, exc_info=future.exception())

    return log


def wal_size(path: Path) -> int:
    """The WAL file's size in bytes (0 when there is none)."""
    try:
        return os.stat(f"{path}-wal").st_size
    except FileNotFoundError:
        return 0
