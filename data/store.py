"""The Store: the one object the bot holds to reach the database.

One write connection, owned by one thread (data/worker.py): every write is one IMMEDIATE
transaction that runs there whole, as plain sqlite3 code, so transactions from many tables queue
up in the order they were requested and never interleave, and the event loop is woken once per
write, not once per statement. Reads go the same way through a second, read-only connection and
thread (WAL lets it read while a write is in progress). A write, once requested, runs to its end
even if the awaiting task is cancelled, so a cancelled caller cannot leave a transaction
half-done (it just does not learn whether it landed, as after a crash); when the call returns,
the transaction is committed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from data import results, settings, stats, tables
from data.connection import (
    DEFAULT_SYNCHRONOUS,
    Synchronous,
    check_writer_options,
    checkpoint,
    open_checkpointer,
    open_reader,
    open_writer,
)
from data.errors import ChannelBusy, StoreError
from data.results import RATING_MODEL, FinishedGame, RatingChange
from data.settings import GuildSettings
from data.stats import DEFAULT_SORT, PlayerStats
from data.tables import (
    Action,
    BrokenTable,
    LoadedTables,
    LoggedAction,
    Seat,
    TableRecord,
    TableStatus,
    Validator,
)
from data.worker import ConnectionThread

_log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 100
"""Writes between two WAL checkpoints (a save adds about 3 pages; SQLite's default was one
checkpoint per 1,000 pages, run inside a commit)."""

T = TypeVar("T")

MAX_REASON = 500


@dataclass(frozen=True)
class RecordedGame:
    """What finish_game stored: the finished game's id and the rating changes to show."""

    game_id: int
    rating_changes: list[RatingChange]


def record_game(
    db: sqlite3.Connection,
    *,
    table_id: int | None,
    guild_id: int,
    channel_id: int,
    game: FinishedGame,
    now: float,
) -> RecordedGame:
    """Store a finished game's rows, add it to its humans' totals, rate them (in the caller's
    transaction: finish_game's, or a benchmark's bulk load)."""
    game_id = results.insert_game(
        db, table_id=table_id, guild_id=guild_id, channel_id=channel_id, game=game, now=now
    )
    exact = results.exact_bids(game)
    stats.add_game(db, guild_id, game_id, game.seats, len(game.hands), exact)
    changes = results.rate_game(db, guild_id, game.seats, now)
    return RecordedGame(game_id, changes)


class Store:
    """Tables in progress, finished games, leaderboards and server settings in one SQLite file.

    Open with ``store = await Store.open(path)`` (or ``async with await Store.open(path)``), and
    ``await store.close()`` at shutdown. Every method is a coroutine; every write has returned only
    once it is committed. Refusals raise StoreError (or ValueError for a bad argument).
    """

    def __init__(
        self,
        path: Path,
        writer: ConnectionThread,
        reader: ConnectionThread,
        clock: Callable[[], float],
        checkpointer: ConnectionThread,
    ) -> None:
        """Use Store.open."""
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer
        self._writes_since_checkpoint = 0
        self._checkpointing: asyncio.Future[Any] | None = None
        self._clock = clock
        self._closing: asyncio.Future[Any] | None = None

    # -- opening and closing -------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        clock: Callable[[], float] = time.time,
    ) -> Store:
        """Open (or create) the database: folder, WAL, foreign keys, busy timeout, migrations.

        Raises SchemaTooNew (a StoreError), leaving the file untouched, when the database was
        written by newer code; StoreError when the file is not a SQLite database.
        clock gives the unix time stamped on rows (tests pass a fake one).
        """
        db_path = Path(path)
        check_writer_options(db_path, synchronous)
        writer = ConnectionThread("store-writer")
        reader = ConnectionThread("store-reader")
        checkpointer = ConnectionThread("store-checkpoint")
        try:
            await writer.start(partial(open_writer, db_path, synchronous))
            await reader.start(partial(open_reader, db_path))
            await checkpointer.start(partial(open_checkpointer, db_path))
        except BaseException:
            writer.stop()  # whichever thread did open its connection closes it and ends
            reader.stop()
            checkpointer.stop()
            raise
        return cls(db_path, writer, reader, clock, checkpointer)

    async def close(self) -> None:
        """Wait for the writes and reads requested before, then close the three connections.

        Idempotent; a write or read requested once close() was called raises StoreError. The
        connections close even if the awaiting task is cancelled.
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(asyncio.gather(
                self._writer.stop(), self._reader.stop(), self._checkpointer.stop()
            ))
        await asyncio.shield(self._closing)

    async def __aenter__(self) -> Store:
        """``async with await Store.open(path) as store:`` closes the store on the way out."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        return await self._read(
            lambda db: int(db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
        )

    # -- the one write path and the read path --------------------------------------------------

    async def _write(self, body: Callable[[sqlite3.Connection, float], T]) -> T:
        """Run body(connection, now) in one IMMEDIATE transaction in the writer thread, after
        every write requested before; commit, or roll back whole if body raises.

        body is plain synchronous sqlite3 code (no awaits) and must not commit. The write is
        queued before this coroutine first suspends, and runs to its end even if the awaiting
        task is cancelled; when this returns, it is committed.
        """
        self._check_open()
        done = self._writer.submit(partial(_in_transaction, body, self._clock()))
        self._maybe_checkpoint()
        return await done

    def _maybe_checkpoint(self) -> None:
        """Every CHECKPOINT_EVERY writes, have the checkpoint thread copy the WAL back into the
        database, off the write path (one checkpoint at a time; a failed one is logged and the
        next one catches up, as the WAL stays valid meanwhile)."""
        self._writes_since_checkpoint += 1
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or (
            self._checkpointing is not None and not self._checkpointing.done()
        ):
            return
        self._writes_since_checkpoint = 0
        self._checkpointing = self._checkpointer.submit(checkpoint)
        self._checkpointing.add_done_callback(_log_checkpoint_failure)

    async def _read(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run body(connection) in the reader thread on one consistent snapshot (a read
        transaction), for reads of several statements."""
        self._check_open()
        return await self._reader.submit(partial(_in_snapshot, body))

    async def checkpoint(self) -> tuple[int, int, int]:
        """Checkpoint the WAL now (tests, tools); returns (busy, WAL pages, pages copied)."""
        self._check_open()
        return await self._checkpointer.submit(checkpoint)

    def _check_open(self) -> None:
        if self._closing is not None:
            raise StoreError("the store is closed")

    # -- tables in progress --------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules_json: str,
        seats: Sequence[Seat] = (),
        message_id: int | None = None,
        status: TableStatus = TableStatus.LOBBY,
        action: Action | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> TableRecord:
        """Store a new table (usually a lobby) and return it with its id.

        Raises ChannelBusy when the channel already has an open table (one table per channel).
        The optional action (e.g. "open") starts the table's log in the same transaction.
        meta: the caller's own data about the table (a JSON object; default {}), saved with it.
        """

        def body(db: sqlite3.Connection, now: float) -> TableRecord:
            try:
                table_id = tables.insert_table(
                    db,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    rules_json=rules_json,
                    seats=seats,
                    message_id=message_id,
                    status=status,
                    now=now,
                    meta=meta,
                )
            except sqlite3.IntegrityError as err:
                if "game_tables.channel_id" in str(err):
                    raise ChannelBusy(channel_id) from err
                raise
            if action is not None:
                tables.append_action(db, table_id, action, now)
            table = tables.get_table(db, table_id)
            assert table is not None
            return table

        return await self._write(body)

    async def save_table(self, table: TableRecord, action: Action | None = None) -> int | None:
        """Save the whole table (status, seats, snapshot, message ids, deadline, meta) and log
        action.

        Both land in ONE transaction: after this returns, the action and the state it led to are
        committed together (or, if it raises, neither is). Returns the action's log id (None
        without an action). Pass ``dataclasses.replace(table, snapshot_json=game.to_json(), ...)``.
        Raises TableNotFound, or StoreError when the stored table is no longer open (finished,
        cancelled or broken): a closed table is never reopened by a late save.
        """

        def body(db: sqlite3.Connection, now: float) -> int | None:
            tables.update_table(db, table, now)
            if action is None:
                return None
            return tables.append_action(db, table.id, action, now)

        return await self._write(body)

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The stored table with that id, or None."""
        return await self._read(partial(tables.get_table, table_id=table_id))

    async def load_active_tables(self, validate: Validator | None = None) -> LoadedTables:
        """Every lobby and game in play, for resuming at start-up.

        Each table is checked with validate (default: its rules and snapshot must parse with
        the engine, Rules.model_validate_json and Game.from_json). A table that fails is marked
        broken with the reason and returned in .broken; the others come back in .ok. One bad
        table never stops the rest. An ImportError is not a damaged table: it propagates.
        """
        check = validate if validate is not None else tables.engine_validator
        rows = await self._read(tables.open_table_rows)
        ok: list[TableRecord] = []
        broken: list[BrokenTable] = []
        for row in rows:
            try:
                table = tables.table_from_row(row)
                check(table)
            except ImportError:
                raise
            except Exception as err:
                reason = f"{type(err).__name__}: {err}"[:MAX_REASON]
                await self.mark_broken(row[0], reason)
                broken.append(BrokenTable(tables.broken_from_row(row, reason), reason))
            else:
                ok.append(table)
        return LoadedTables(ok=ok, broken=broken)

    async def mark_broken(self, table_id: int, reason: str) -> None:
        """Set a table aside as broken (it will not be resumed again) with the reason."""

        def body(db: sqlite3.Connection, now: float) -> None:
            tables.mark_broken(db, table_id, reason[:MAX_REASON], now)

        await self._write(body)

    async def actions(self, table_id: int, after_id: int = 0) -> list[LoggedAction]:
        """A table's action log in the order it was written (empty for an unknown table)."""
        return await self._read(partial(tables.read_actions, table_id=table_id, after_id=after_id))

    # -- finished games ------------------------------------------------------------------------

    async def finish_game(
        self, table: TableRecord, result: FinishedGame, action: Action | None = None
    ) -> RecordedGame:
        """Record a finished game, all in ONE transaction.

        Saves the table (its final snapshot) with status FINISHED and the final action, stores
        the scoresheet, totals, placings and winners, and updates the humans' running totals and
        ratings in the table's server. Returns the game id and the rating changes (empty when
        fewer than two humans played). Raises StoreError for a result that contradicts itself
        or a table that is no longer open (so a game is never counted twice).
        """
        result.check()

        def body(db: sqlite3.Connection, now: float) -> RecordedGame:
            tables.update_table(db, replace(table, status=TableStatus.FINISHED), now)
            if action is not None:
                tables.append_action(db, table.id, action, now)
            return record_game(
                db,
                table_id=table.id,
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                game=result,
                now=now,
            )

        return await self._write(body)

    async def get_game(self, game_id: int) -> FinishedGame | None:
        """A finished game's full record (scoresheet, seats), or None."""
        return await self._read(partial(results.read_game, game_id=game_id))

    async def game_for_table(self, table_id: int) -> int | None:
        """The id of the finished game played at a table, or None."""
        row = await self._read(
            lambda db: db.execute("SELECT id FROM games WHERE table_id = ?", (table_id,)).fetchone()
        )
        return int(row[0]) if row is not None else None

    # -- leaderboards and stats ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: str = DEFAULT_SORT, limit: int = 10, min_games: int = 1
    ) -> list[PlayerStats]:
        """The server's human players, best first by sort (one of stats.SORT_KEYS).

        Only players with at least min_games finished games are listed. An unknown server
        gives []. An unknown sort key raises ValueError naming the allowed keys.
        """
        return await self._read(
            partial(
                stats.leaderboard,
                guild_id=guild_id,
                sort=sort,
                limit=limit,
                min_games=min_games,
                mu0=RATING_MODEL.mu,
                sigma0=RATING_MODEL.sigma,
            )
        )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One human's stats in one server, or None when they finished no game there."""
        return await self._read(
            partial(
                stats.player_stats,
                guild_id=guild_id,
                user_id=user_id,
                mu0=RATING_MODEL.mu,
                sigma0=RATING_MODEL.sigma,
            )
        )

    # -- server settings -----------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults when it never set any)."""
        return await self._read(partial(settings.get_settings, guild_id=guild_id))

    async def save_settings(self, value: GuildSettings) -> None:
        """Replace the server's settings."""

        def body(db: sqlite3.Connection, now: float) -> None:
            settings.put_settings(db, value, now)

        await self._write(body)


def _in_transaction(
    body: Callable[[sqlite3.Connection, float], T], now: float, db: sqlite3.Connection
) -> T:
    """In the writer thread: body in one IMMEDIATE transaction, committed or rolled back whole."""
    db.execute("BEGIN IMMEDIATE")
    try:
        value = body(db, now)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return value


def _in_snapshot(body: Callable[[sqlite3.Connection], T], db: sqlite3.Connection) -> T:
    """In the reader thread: body in one read transaction, so its statements see one state."""
    db.execute("BEGIN")
    try:
        return body(db)
    finally:
        if db.in_transaction:
            db.execute("COMMIT")


def _log_checkpoint_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        _log.error("WAL checkpoint failed", exc_info=future.exception())
