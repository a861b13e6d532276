"""The Store: the one object the bot holds to reach the database, whichever driver is behind it.

``Store.open(target)`` takes a path or a URL (data/connection.py): a SQLite file through
aiosqlite (data/sqlite.py, the default) or a PostgreSQL server through asyncpg
(data/postgres.py). Both keep the same promises, and the same tests check them on both:

- Every write is one transaction, and returns only once it is committed. A save (the table and
  its action) is one statement, so one round trip to the driver.
- Writes from this process land in the order they were requested, and a write, once requested,
  runs to its end even if the awaiting task is cancelled: a cancelled caller cannot leave a
  transaction half-done (it just does not learn whether it landed, as after a crash).
- The action log is append-only (a trigger refuses updates).
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from data import history, messages, nudges, results, settings, stats, tables
from data.connection import DatabaseAddress, parse_address
from data.driver import Driver, Session
from data.errors import ChannelBusy, StaleTable, StoreError, TableNotFound, TableTakenOver
from data.history import Forgotten, GameSummary, HistoryPage
from data.messages import KeptMessage
from data.nudges import PostedNudge
from data.results import RATING_MODEL, FinishedGame, RatingChange
from data.settings import GuildSettings
from data.sqlite import DEFAULT_SYNCHRONOUS, SqliteDriver, Synchronous
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
LOGS_PER_READ = 500
"""Tables whose logs one statement of `logs_of` reads (well under any driver's limit on
parameters)."""


@dataclass(frozen=True)
class RecordedGame:
    """What finish_game stored: the finished game's id and the rating changes to show."""

    game_id: int
    rating_changes: list[RatingChange]


async def record_game(
    session: Session,
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
        session, table_id=table_id, guild_id=guild_id, channel_id=channel_id, game=game, now=now
    )
    exact = results.exact_bids(game)
    await stats.add_game(session, guild_id, game_id, game.seats, len(game.hands), exact)
    changes = await results.rate_game(session, guild_id, game.seats, now, game.hints)
    await results.save_rating_changes(session, game_id, changes)
    return RecordedGame(game_id, changes)


async def open_driver(
    address: DatabaseAddress, synchronous: Synchronous = DEFAULT_SYNCHRONOUS
) -> Driver:
    """Open the driver the address names (migrations applied)."""
    if address.dialect == "sqlite":
        assert address.path is not None
        return await SqliteDriver.open(address.path, synchronous)
    from data.postgres import PostgresDriver  # asyncpg is imported only when it is used

    assert address.dsn is not None
    return await PostgresDriver.open(address.dsn, synchronous)


class Store:
    """Tables in progress, finished games, leaderboards and server settings in one database.

    Open with ``store = await Store.open(path_or_url)`` (or ``async with await Store.open(...)``),
    and ``await store.close()`` at shutdown. Every method is a coroutine; every write has
    returned only once it is committed. Refusals raise StoreError (or ValueError for a bad
    argument).
    """

    def __init__(
        self,
        address: DatabaseAddress,
        driver: Driver,
        clock: Callable[[], float],
        owner: str | None = None,
    ) -> None:
        """Use Store.open."""
        self.address = address
        self.path = address.path
        self.owner = owner
        self._driver = driver
        self._clock = clock
        self._closing: asyncio.Future[Any] | None = None

    # -- opening and closing -------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        synchronous: Synchronous = DEFAULT_SYNCHRONOUS,
        clock: Callable[[], float] = time.time,
        owner: str | None = None,
    ) -> Store:
        """Open (or create) the database and apply its migrations.

        target: a SQLite path, ``sqlite:///path`` or ``postgresql://...``. Raises SchemaTooNew (a
        StoreError), leaving the database untouched, when it was written by newer code;
        StoreError when a file is not a SQLite database. synchronous: "NORMAL" (default) or
        "FULL", how hard a commit waits for the disk (see data/sqlite.py and data/postgres.py).
        clock gives the unix time stamped on rows and leases (tests pass a fake one). owner
        names this process when several share the database (see claim_tables): the tables it
        creates are its own, and its saves are refused on tables another process drives.
        """
        address = parse_address(target if isinstance(target, str) else Path(target))
        driver = await open_driver(address, synchronous)
        return cls(address, driver, clock, owner)

    async def close(self) -> None:
        """Wait for the writes requested before, then close the connections.

        Idempotent; a write or read requested once close() was called raises StoreError. The
        connections close even if the awaiting task is cancelled.
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._driver.close())
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

    @property
    def closed(self) -> bool:
        """close() was called: every write and read from now raises StoreError."""
        return self._closing is not None

    @property
    def dialect(self) -> str:
        """"sqlite" or "postgresql"."""
        return self._driver.dialect

    async def check_writes(self) -> None:
        """Raise (DatabaseUnavailable, StoreError or the driver's error) while a write could
        not reach the database; the health check calls it. Writes nothing. A PostgreSQL store
        whose connection was lost connects again here, as on any write."""
        self._check_open()
        await self._driver.probe()

    async def writes_settled(self) -> None:
        """Wait until every write requested before this call has ended, those whose callers
        were cancelled included (each runs to its end): a caller cancelled while writing
        reads the outcome back after this."""
        await self._driver.settled()

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        rows = await self._read("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0])

    # -- the write and read paths --------------------------------------------------------------

    async def _statement(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """One write statement, its own transaction (see Driver.statement)."""
        self._check_open()
        return await self._driver.statement(sql, params)

    async def _transaction(self, body: Callable[[Session, float], Awaitable[T]]) -> T:
        """body(session, now) in one write transaction (see Driver.transaction)."""
        self._check_open()
        now = self._clock()
        return await self._driver.transaction(lambda session: body(session, now))

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        self._check_open()
        return await self._driver.read(sql, params)

    async def _reading(self, body: Callable[[Session], Awaitable[T]]) -> T:
        """body on the read session, for reads of several statements."""
        self._check_open()
        return await body(self._driver.reader)

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
        sql, params = tables.insert_table(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules_json=rules_json,
            seats=seats,
            message_id=message_id,
            status=status,
            now=self._clock(),
            meta=meta,
            owner=self.owner,
        )
        if action is not None:
            tables.payload_to_json(action.payload)  # refuse what JSON cannot hold before writing

        async def body(session: Session, now: float) -> TableRecord:
            row = (await session.fetch(sql, params))[0]
            if action is not None:
                await tables.append_action(session, row[0], action, now)
            return tables.table_from_row(row)

        try:
            if action is None:
                return tables.table_from_row((await self._statement(sql, params))[0])
            return await self._transaction(body)
        except Exception as err:
            if tables.is_channel_busy(err):
                raise ChannelBusy(channel_id) from err
            raise

    async def save_table(self, table: TableRecord, action: Action | None = None) -> int | None:
        """Save the whole table (status, seats, snapshot, message ids, deadline, meta) and log
        action.

        Both land in ONE transaction, one statement: after this returns, the action and the state
        it led to are committed together (or, if it raises, neither is). Returns the action's
        log id (None without an action). Pass ``dataclasses.replace(table,
        snapshot_json=game.to_json(), ...)``. Raises TableNotFound, or StoreError when the
        stored table is no longer open (finished, cancelled or broken): a closed table is never
        reopened by a late save.

        table.saves is the save counter of the copy being saved: the stored counter it was read
        at, plus one for each save of it since (the stored counter grows by one per save). When
        the stored table was saved since (its counter is ahead), the save is refused with
        StaleTable (a TableTakenOver: drop the copy, read the table again), so a process that
        stalled past its lease cannot write an old game over moves made meanwhile.
        """
        sql, params = tables.save_statement(
            self._driver.dialect, table, action, self._clock(), self.owner
        )
        try:
            rows = await self._statement(sql, params)
        except Exception as err:
            if tables.TAKEN_OVER in str(err):
                raise TableTakenOver(table.id) from None
            if tables.STALE in str(err):
                raise StaleTable(table.id) from None
            if tables.NOT_OPEN in str(err):
                raise await self._reading(lambda s: tables.refusal(s, table.id)) from None
            raise
        action_id = rows[0][0]
        return None if action_id is None else int(action_id)

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The stored table with that id, or None."""
        rows = await self._read(tables.GET_TABLE, (table_id,))
        return tables.table_from_row(rows[0]) if rows else None

    async def load_active_tables(self, validate: Validator | None = None) -> LoadedTables:
        """Every lobby and game in play, for resuming at start-up.

        Each table is checked with validate (default: its rules and snapshot must parse with
        the engine, Rules.model_validate_json and Game.from_json). A table that fails is marked
        broken with the reason and returned in .broken; the others come back in .ok. One bad
        table never stops the rest. An ImportError is not a damaged table: it propagates.
        """
        return await self._load(await self._read(tables.OPEN_TABLES), validate)

    async def _load(
        self, rows: Sequence[Sequence[Any]], validate: Validator | None
    ) -> LoadedTables:
        """Parse and check open tables' rows; mark the ones that fail broken."""
        check = validate if validate is not None else tables.engine_validator
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
                try:
                    await self.mark_broken(row[0], reason)
                except TableTakenOver:
                    continue  # another process drives it now: not this one's to set aside
                broken.append(BrokenTable(tables.broken_from_row(row, reason), reason))
            else:
                ok.append(table)
        return LoadedTables(ok=ok, broken=broken)

    async def mark_broken(self, table_id: int, reason: str) -> None:
        """Set a table aside as broken (it will not be resumed again) with the reason.

        Raises TableTakenOver when another process drives the table: what this process read of
        it may be a moment old, and the other's game goes on."""
        rows = await self._statement(
            tables.MARK_BROKEN,
            (reason[:MAX_REASON], self._clock(), table_id, self.owner, self.owner),
        )
        if not rows:
            if await self.get_table(table_id) is not None:
                raise TableTakenOver(table_id)
            raise TableNotFound(table_id)

    async def actions_of(self, table: TableRecord) -> list[LoggedAction]:
        """The action log that led to this copy of the table, read after it: raises StaleTable
        when the table was saved since the copy was read (its log may then have moved on), so
        a log is never judged against a snapshot from another moment."""
        log = await self.actions(table.id)
        rows = await self._read("SELECT saves FROM game_tables WHERE id = ?", (table.id,))
        if not rows or int(rows[0][0]) != table.saves:
            raise StaleTable(table.id)
        return log

    async def logs_of(self, copies: Sequence[TableRecord]) -> dict[int, list[LoggedAction]]:
        """`actions_of` for many tables at once (a few statements, not three per table): the
        logs of the copies still as stored; a copy saved since it was read is left out (read
        it again, as StaleTable says)."""
        logs: dict[int, list[LoggedAction]] = {}
        for start in range(0, len(copies), LOGS_PER_READ):
            chunk = {t.id: t.saves for t in copies[start:start + LOGS_PER_READ]}
            ids = tuple(chunk)
            read = await self._reading(functools.partial(tables.read_logs, table_ids=ids))
            marks = ", ".join("?" * len(chunk))
            rows = await self._read(f"SELECT id, saves FROM game_tables WHERE id IN ({marks})",
                                    tuple(chunk))
            logs.update((int(table_id), read[int(table_id)]) for table_id, saves in rows
                        if int(saves) == chunk[int(table_id)])
        return logs

    async def actions(self, table_id: int, after_id: int = 0) -> list[LoggedAction]:
        """A table's action log in the order it was written (empty for an unknown table)."""
        return await self._reading(lambda s: tables.read_actions(s, table_id, after_id))

    # -- several processes on one database (PostgreSQL) ---------------------------------------

    def _need_owner(self) -> str:
        if self.owner is None:
            raise StoreError("this store was opened without an owner (Store.open(..., owner=))")
        return self.owner

    async def renew_lease(self, shard_ids: Sequence[int]) -> None:
        """Say this process (the store's owner) is alive and drives these shards of its own.
        Other processes take its tables over only once it stopped renewing for a lease."""
        await self._statement(
            "INSERT INTO processes (owner, shards, renewed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (owner) DO UPDATE SET shards = excluded.shards,"
            " renewed_at = excluded.renewed_at",
            (self._need_owner(), ",".join(str(s) for s in shard_ids), self._clock()),
        )

    async def claim_tables(
        self,
        shard_count: int,
        shard_ids: Sequence[int],
        lease_seconds: float,
        takeover_ids: Sequence[int] = (),
        validate: Validator | None = None,
    ) -> LoadedTables:
        """Make this process the driver of the open tables it may drive, and load them (as
        load_active_tables: damaged ones are marked broken and returned apart).

        A table belongs to the shard of its guild ((guild_id >> 22) % shard_count, Discord's
        rule). Claimed: tables of shard_ids that nobody drives, this process drives already, or
        whose driver has not renewed its lease for lease_seconds (it died); and the same of
        takeover_ids, while no live process has that shard as its own. One statement, so two
        processes claiming at once never both get a table.
        """
        owner = self._need_owner()
        sql, params = tables.claim_statement(
            owner, shard_count, shard_ids, takeover_ids, self._clock() - lease_seconds
        )
        claimed = {int(row[0]) for row in await self._statement(sql, params)}
        rows = await self._read(tables.OWNED_TABLES, (owner,))
        return await self._load([row for row in rows if int(row[0]) in claimed], validate)

    async def hand_back(
        self, shard_count: int, takeover_ids: Sequence[int], lease_seconds: float
    ) -> list[int]:
        """Give the tables this process took over back to their shard's own process once it is
        alive again (restarted): it drives them from its next claim_tables on; this process's
        saves to them are refused from now. Returns their ids (stop driving them)."""
        sql, params = tables.hand_back_statement(
            self._need_owner(), shard_count, takeover_ids, self._clock() - lease_seconds
        )
        return [int(row[0]) for row in await self._statement(sql, params)]

    async def release_lease(self) -> None:
        """Give this process's lease up (a clean shutdown): its tables may be taken over now."""
        await self._statement("DELETE FROM processes WHERE owner = ?", (self._need_owner(),))

    async def table_owner(self, table_id: int) -> str | None:
        """The process driving a table (None: whoever resumes it)."""
        rows = await self._read("SELECT owner FROM game_tables WHERE id = ?", (table_id,))
        return None if not rows else rows[0][0]

    # -- finished games ------------------------------------------------------------------------

    async def finish_game(
        self, table: TableRecord, result: FinishedGame, action: Action | None = None
    ) -> RecordedGame:
        """Record a finished game, all in ONE transaction.

        Saves the table (its final snapshot) with status FINISHED and the final action, stores
        the scoresheet, totals, placings and winners, and updates the humans' running totals and
        ratings in the table's server. Returns the game id and the rating changes (empty when
        fewer than two humans played). Raises StoreError for a result that contradicts itself
        or a table that is no longer open (so a game is never counted twice); StaleTable as
        save_table.
        """
        result.check()
        finished = replace(table, status=TableStatus.FINISHED)
        dialect = self._driver.dialect

        async def body(session: Session, now: float) -> RecordedGame:
            sql, params = tables.save_statement(dialect, finished, action, now, self.owner)
            try:
                await session.fetch(sql, params)
            except Exception as err:
                if tables.TAKEN_OVER in str(err):
                    raise TableTakenOver(table.id) from err
                if tables.STALE in str(err):
                    raise StaleTable(table.id) from err
                if tables.NOT_OPEN in str(err):
                    raise tables.NotOpen(table.id) from err
                raise
            return await record_game(
                session,
                table_id=table.id,
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                game=result,
                now=now,
            )

        try:
            return await self._transaction(body)
        except tables.NotOpen:
            raise await self._reading(lambda s: tables.refusal(s, table.id)) from None

    async def get_game(self, game_id: int) -> FinishedGame | None:
        """A finished game's full record (scoresheet, seats), or None."""
        return await self._reading(lambda s: results.read_game(s, game_id))

    async def game_for_table(self, table_id: int) -> int | None:
        """The id of the finished game played at a table, or None."""
        rows = await self._read("SELECT id FROM games WHERE table_id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes a finished game made, in user id order (see RecordedGame)."""
        return await self._reading(lambda s: results.read_rating_changes(s, game_id))

    async def last_finished_table(self, channel_id: int) -> int | None:
        """The table of the latest game finished in this channel (or thread), or None: its
        stored row keeps the final snapshot, so `/ohhell scores` shows it after a restart."""
        rows = await self._read(
            "SELECT table_id FROM games WHERE channel_id = ? AND table_id IS NOT NULL"
            " ORDER BY id DESC LIMIT 1", (channel_id,))
        return int(rows[0][0]) if rows else None

    # -- looking back, and forgetting -----------------------------------------------------------

    async def history(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        preset: str | None = None,
        before: int | None = None,
        limit: int = 10,
    ) -> HistoryPage:
        """A server's finished games, newest first: those user_id held a seat in (as a person,
        not on autopilot) and of that preset when given; only games older than the game id
        `before` (the previous page's next_before). ValueError unless 1 <= limit <= 25."""
        return await self._reading(
            lambda s: history.history(
                s, guild_id, user_id=user_id, preset=preset, before=before, limit=limit
            )
        )

    async def game_summary(self, game_id: int) -> GameSummary | None:
        """One finished game as history lists it, or None."""
        return await self._reading(lambda s: history.game_summary(s, game_id))

    async def forget_player(self, user_id: int, guild_id: int | None = None) -> Forgotten:
        """Remove a person's name from every stored game, table, action and leaderboard
        (everywhere, or in one server), and delete their ratings, totals, their Discord locale
        and (everywhere) their notification choice, in ONE transaction. Their finished seats
        read "a former player" so every scoresheet still adds up. Raises PlayerSeated, changing
        nothing, while they hold a seat at a table in progress."""
        return await self._transaction(lambda s, _now: history.forget(s, user_id, guild_id))

    # -- leaderboards and stats ----------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: str = DEFAULT_SORT, limit: int = 10, min_games: int = 1
    ) -> list[PlayerStats]:
        """The server's human players, best first by sort (one of stats.SORT_KEYS).

        Only players with at least min_games finished games are listed. An unknown server
        gives []. An unknown sort key raises ValueError naming the allowed keys.
        """
        return await self._reading(
            lambda s: stats.leaderboard(
                s,
                guild_id,
                sort=sort,
                limit=limit,
                min_games=min_games,
                mu0=RATING_MODEL.mu,
                sigma0=RATING_MODEL.sigma,
            )
        )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One human's stats in one server, or None when they finished no game there."""
        return await self._reading(
            lambda s: stats.player_stats(
                s, guild_id, user_id, mu0=RATING_MODEL.mu, sigma0=RATING_MODEL.sigma
            )
        )

    # -- server settings -----------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults when it never set any)."""
        return await self._reading(lambda s: settings.get_settings(s, guild_id))

    async def save_settings(self, value: GuildSettings) -> None:
        """Replace the server's settings."""
        await self._statement(*settings.put_settings(value, self._clock()))

    async def get_notify(self, user_id: int) -> str | None:
        """How this person chose to be told it is their turn ("dm", "mention", "off"), or None
        when they never chose."""
        return await self._reading(lambda s: settings.get_notify(s, user_id))

    async def set_notify(self, user_id: int, how: str) -> None:
        """Store a person's choice (ValueError for anything but "dm", "mention", "off")."""
        await self._statement(*settings.put_notify(user_id, how, self._clock()))

    async def get_locale(self, user_id: int) -> str | None:
        """This person's Discord locale as last seen in an interaction (None: never seen)."""
        return await self._reading(lambda s: settings.get_locale(s, user_id))

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Store a person's Discord locale (the caller writes only when it changed)."""
        await self._statement(*settings.put_locale(user_id, locale, self._clock()))

    # -- turn nudges on Discord ----------------------------------------------------------------

    async def keep_nudge(self, nudge: PostedNudge) -> None:
        """A nudge was posted (it replaces the row of the person's previous one)."""
        await self._statement(*nudges.put_nudge(nudge))

    async def forget_nudge(self, nudge: PostedNudge) -> None:
        """A nudge was deleted on Discord."""
        await self._statement(*nudges.drop_nudge(nudge))

    async def posted_nudges(self, table_id: int) -> list[PostedNudge]:
        """The nudges kept for a table (after a restart: to take down when due)."""
        return await self._reading(lambda s: nudges.get_nudges(s, table_id))

    async def posted_nudges_of(self, table_ids: Sequence[int]) -> dict[int, list[PostedNudge]]:
        """The nudges kept for several tables (those that have some), in one read."""
        if not table_ids:
            return {}
        return await self._reading(functools.partial(nudges.get_nudges_of, table_ids=table_ids))

    # -- the messages a table keeps on Discord -------------------------------------------------

    async def keep_messages(
        self, kept: Sequence[KeptMessage], closed_tables: Sequence[int] = ()
    ) -> None:
        """Keep these rows (each replaces its table's and person's row) and forget the rows of
        `closed_tables`, in one transaction (data/messages.py). A row of a table that is not
        open, or that another process drives, is not written."""
        if kept or closed_tables:
            await self._transaction(
                lambda s, _now: messages.write(s, kept, closed_tables, self.owner))

    async def kept_messages(self, table_id: int) -> list[KeptMessage]:
        """The rows kept for a table, in user id order (the table's own message first)."""
        return (await self.kept_messages_of([table_id])).get(table_id, [])

    async def kept_messages_of(self, table_ids: Sequence[int]) -> dict[int, list[KeptMessage]]:
        """The rows kept for several tables (those that have some), a few reads in all."""
        kept: dict[int, list[KeptMessage]] = {}
        for start in range(0, len(table_ids), LOGS_PER_READ):
            chunk = tuple(table_ids[start:start + LOGS_PER_READ])
            kept.update(await self._reading(functools.partial(messages.read_of, table_ids=chunk)))
        return kept
