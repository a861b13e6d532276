"""The Store: the one object the bot holds to reach the database.

One write connection, used under an asyncio.Lock: every write is one IMMEDIATE transaction, so
transactions from many tables queue up whole and never interleave. Reads go through a second,
read-only connection (WAL lets it read while a write is in progress). A write, once requested,
runs to its end even if the awaiting task is cancelled, so a cancelled caller cannot leave a
transaction half-done (it just does not learn whether it landed, as after a crash); when the
call returns, the transaction is committed.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiosqlite

from data import results, settings, stats, tables
from data.connection import DEFAULT_SYNCHRONOUS, Synchronous, open_reader, open_writer
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

T = TypeVar("T")

MAX_REASON = 500


@dataclass(frozen=True)
class RecordedGame:
    """What finish_game stored: the finished game's id and the rating changes to show."""

    game_id: int
    rating_changes: list[RatingChange]


async def record_game(
    db: aiosqlite.Connection,
    *,
    table_id: int | None,
    guild_id: int,
    channel_id: int,
    game: FinishedGame,
    now: float,
) -> RecordedGame:
    """Store a finished game's rows, add it to its humans' totals, rate them (in the caller's
    transaction: finish_game's, or a benchmark's bulk load)."""
    game_id = await results.insert_game(
        db, table_id=table_id, guild_id=guild_id, channel_id=channel_id, game=game, now=now
    )
    exact = results.exact_bids(game)
    await stats.add_game(db, guild_id, game_id, game.seats, len(game.hands), exact)
    changes = await results.rate_game(db, guild_id, game.seats, now)
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
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        clock: Callable[[], float],
    ) -> None:
        """Use Store.open."""
        self.path = path
        self._writer = writer
        self._reader = reader
        self._clock = clock
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._closed = False

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
        writer = await open_writer(db_path, synchronous)
        try:
            reader = await open_reader(db_path)
        except BaseException:
            await writer.close()
            raise
        return cls(db_path, writer, reader, clock)

    async def close(self) -> None:
        """Wait for the writes and reads in progress, then close both connections (idempotent)."""
        async with self._write_lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            await self._reader.close()
            await self._writer.close()

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
        async with self._reading() as db:
            rows = list(await db.execute_fetchall("SELECT MAX(version) FROM schema_version"))
        return int(rows[0][0])

    # -- the one write path and the read path --------------------------------------------------

    async def _write(self, body: Callable[[aiosqlite.Connection, float], Awaitable[T]]) -> T:
        """Run body in one IMMEDIATE transaction under the write lock; commit or roll back whole."""
        return await asyncio.shield(asyncio.ensure_future(self._run_write(body)))

    async def _run_write(self, body: Callable[[aiosqlite.Connection, float], Awaitable[T]]) -> T:
        async with self._write_lock:
            self._check_open()
            db = self._writer
            await db.execute("BEGIN IMMEDIATE")
            try:
                value = await body(db, self._clock())
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            return value

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent snapshot on the read-only connection, for reads of several statements."""
        async with self._read_lock:
            self._check_open()
            db = self._reader
            await db.execute("BEGIN")
            try:
                yield db
            finally:
                await db.execute("COMMIT")

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

        async def body(db: aiosqlite.Connection, now: float) -> TableRecord:
            try:
                table_id = await tables.insert_table(
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
                await tables.append_action(db, table_id, action, now)
            table = await tables.get_table(db, table_id)
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

        async def body(db: aiosqlite.Connection, now: float) -> int | None:
            await tables.update_table(db, table, now)
            if action is None:
                return None
            return await tables.append_action(db, table.id, action, now)

        return await self._write(body)

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The stored table with that id, or None."""
        async with self._reading() as db:
            return await tables.get_table(db, table_id)

    async def load_active_tables(self, validate: Validator | None = None) -> LoadedTables:
        """Every lobby and game in play, for resuming at start-up.

        Each table is checked with validate (default: its rules and snapshot must parse with
        the engine, Rules.model_validate_json and Game.from_json). A table that fails is marked
        broken with the reason and returned in .broken; the others come back in .ok. One bad
        table never stops the rest. An ImportError is not a damaged table: it propagates.
        """
        check = validate if validate is not None else tables.engine_validator
        async with self._reading() as db:
            rows = await tables.open_table_rows(db)
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

        async def body(db: aiosqlite.Connection, now: float) -> None:
            await tables.mark_broken(db, table_id, reason[:MAX_REASON], now)

        await self._write(body)

    async def actions(self, table_id: int, after_id: int = 0) -> list[LoggedAction]:
        """A table's action log in the order it was written (empty for an unknown table)."""
        async with self._reading() as db:
            return await tables.read_actions(db, table_id, after_id)

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

        async def body(db: aiosqlite.Connection, now: float) -> RecordedGame:
            await tables.update_table(db, replace(table, status=TableStatus.FINISHED), now)
            if action is not None:
                await tables.append_action(db, table.id, action, now)
            return await record_game(
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
        async with self._reading() as db:
            return await results.read_game(db, game_id)

    async def game_for_table(self, table_id: int) -> int | None:
        """The id of the finished game played at a table, or None."""
        async with self._reading() as db:
            rows = list(
                await db.execute_fetchall("SELECT id FROM games WHERE table_id = ?", (table_id,))
            )
        return int(rows[0][0]) if rows else None

    # -- leaderboards and stats ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: str = DEFAULT_SORT, limit: int = 10, min_games: int = 1
    ) -> list[PlayerStats]:
        """The server's human players, best first by sort (one of stats.SORT_KEYS).

        Only players with at least min_games finished games are listed. An unknown server
        gives []. An unknown sort key raises ValueError naming the allowed keys.
        """
        async with self._reading() as db:
            return await stats.leaderboard(
                db,
                guild_id,
                sort=sort,
                limit=limit,
                min_games=min_games,
                mu0=RATING_MODEL.mu,
                sigma0=RATING_MODEL.sigma,
            )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One human's stats in one server, or None when they finished no game there."""
        async with self._reading() as db:
            return await stats.player_stats(
                db, guild_id, user_id, mu0=RATING_MODEL.mu, sigma0=RATING_MODEL.sigma
            )

    # -- server settings -----------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults when it never set any)."""
        async with self._reading() as db:
            return await settings.get_settings(db, guild_id)

    async def save_settings(self, value: GuildSettings) -> None:
        """Replace the server's settings."""

        async def body(db: aiosqlite.Connection, now: float) -> None:
            await settings.put_settings(db, value, now)

        await self._write(body)
