"""Tables in progress and their append-only action log.

A table row holds everything needed to resume a game after a restart: ids of the Discord
messages, seats, rules, the engine snapshot and the turn deadline. The functions here run inside a
transaction the Store opens (or are one statement); they never commit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from data.driver import Dialect, Session
from data.errors import StoreError, TableNotFound


class TableStatus(StrEnum):
    """Where a table is in its life. LOBBY and PLAYING are "open": they are resumed at start-up."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    BROKEN = "broken"


OPEN_STATUSES = (TableStatus.LOBBY, TableStatus.PLAYING)


@dataclass(frozen=True)
class Seat:
    """One seat at a table, in seat order (seat i of the engine game is seats[i]).

    A human seat has user_id; a computer seat has computer_level ("easy", "hard"...) and
    user_id None. A human replaced by a computer (kicked, autopiloted) may keep user_id with
    computer_level set. hand_message_id/dm_channel_id point at the seat's DM hand message for
    the current hand (None when there is none or the DM failed).
    """

    name: str
    user_id: int | None = None
    computer_level: str | None = None
    hand_message_id: int | None = None
    dm_channel_id: int | None = None
    timeouts: int = 0

    @property
    def is_computer(self) -> bool:
        """True when a computer plays this seat."""
        return self.computer_level is not None


@dataclass(frozen=True)
class TableRecord:
    """A stored table: pass an updated copy (dataclasses.replace) to Store.save_table.

    turn_deadline is unix time in seconds (time.time()), or None when no timer runs.
    snapshot_json is Game.to_json() (None in the lobby, before the deal); rules_json is
    Rules.model_dump_json(). meta is the service's own data about the table (any JSON
    object: its options, per-seat flags...), saved and read back whole; the store never looks
    inside it. Open tables stored before migration 0003 got theirs from their action log
    (migration 0013).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    rules_json: str
    seats: tuple[Seat, ...]
    message_id: int | None = None
    snapshot_json: str | None = None
    turn_deadline: float | None = None
    broken_reason: str | None = None
    saves: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def is_open(self) -> bool:
        """True for a lobby or a game being played."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True)
class Action:
    """An accepted action to append to a table's log, saved with the table in one transaction.

    action names what happened ("join", "deal", "bid", "play", "timeout", "kick", ...); payload
    is anything JSON can hold ({"bid": 3}, {"card": "10H"}) so the game can be replayed and
    audited. user_id is the Discord user who acted (None for computers, timers and the system).
    """

    action: str
    seat: int | None = None
    user_id: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LoggedAction:
    """An action read back from the log; id increases in the order actions were stored."""

    id: int
    table_id: int
    action: str
    seat: int | None
    user_id: int | None
    payload: dict[str, Any]
    at: float


@dataclass(frozen=True)
class BrokenTable:
    """A table that could not be resumed; the bot may tell its channel why."""

    table: TableRecord
    reason: str


@dataclass(frozen=True)
class LoadedTables:
    """What start-up gets back: the tables to resume, and the ones marked broken."""

    ok: list[TableRecord]
    broken: list[BrokenTable]


Validator = Callable[[TableRecord], None]
"""Raises (any exception) when a stored table cannot be resumed; the message becomes the reason."""


def engine_validator(table: TableRecord) -> None:
    """The default check: the rules and the snapshot must parse with today's engine."""
    from engine import Game, Rules

    Rules.model_validate_json(table.rules_json)
    if table.snapshot_json is not None:
        Game.from_json(table.snapshot_json)


TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, rules_json, message_id, snapshot_json, "
    "turn_deadline, broken_reason, saves, created_at, updated_at, seats_json, meta_json"
)


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))
"""A seat's stored keys, in field order (as `dataclasses.asdict` wrote them: its deep copy of
values that are all immutable cost more than the rest of a save's statement)."""


def seats_to_json(seats: Iterable[Seat]) -> str:
    """Seats as stored: a JSON list in seat order. Refuses a seat with no player at all."""
    rows = []
    for index, seat in enumerate(seats):
        if seat.user_id is None and seat.computer_level is None:
            raise StoreError(f"seat {index} ({seat.name!r}) has neither a user nor a computer")
        rows.append({name: getattr(seat, name) for name in _SEAT_FIELDS})
    return json.dumps(rows, separators=(",", ":"))


def seats_from_json(text: str) -> tuple[Seat, ...]:
    """Seats as stored; raises (TypeError, ValueError) when the JSON is not a seat list."""
    return tuple(Seat(**row) for row in json.loads(text))


def meta_to_json(meta: Mapping[str, Any]) -> str:
    """A table's meta as stored: a JSON object. Refuses anything else."""
    if not isinstance(meta, Mapping):
        raise StoreError(f"table meta must be a mapping, not {type(meta).__name__}")
    return json.dumps(dict(meta), separators=(",", ":"))


def meta_from_json(text: str) -> dict[str, Any]:
    """A table's meta as stored; raises ValueError when it is not a JSON object."""
    meta = json.loads(text)
    if not isinstance(meta, dict):
        raise ValueError(f"table meta is not a JSON object: {text[:80]}")
    return meta


def table_from_row(row: Sequence[Any]) -> TableRecord:
    """A stored row as a TableRecord; raises when its seats or meta cannot be read."""
    return _record(row, seats_from_json(row[13]), meta_from_json(row[14]))


def broken_from_row(row: Sequence[Any], reason: str) -> TableRecord:
    """A stored row as a broken TableRecord; seats or meta that cannot be read are left out."""
    try:
        seats = seats_from_json(row[13])
    except (TypeError, ValueError):
        seats = ()
    try:
        meta = meta_from_json(row[14])
    except (TypeError, ValueError):
        meta = {}
    return replace(_record(row, seats, meta), status=TableStatus.BROKEN, broken_reason=reason)


def _record(row: Sequence[Any], seats: tuple[Seat, ...], meta: dict[str, Any]) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=TableStatus(row[4]),
        rules_json=row[5],
        message_id=row[6],
        snapshot_json=row[7],
        turn_deadline=row[8],
        broken_reason=row[9],
        saves=row[10],
        created_at=row[11],
        updated_at=row[12],
        seats=seats,
        meta=meta,
    )


def insert_table(
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    rules_json: str,
    seats: Sequence[Seat],
    message_id: int | None,
    status: TableStatus,
    now: float,
    meta: Mapping[str, Any] | None = None,
    owner: str | None = None,
) -> tuple[str, tuple[Any, ...]]:
    """The INSERT of a new table that returns its row. A second open table in one channel is
    refused by the partial unique index game_tables_open_channel (see is_channel_busy). owner:
    the process that drives it (None: whoever resumes it)."""
    return (
        "INSERT INTO game_tables (guild_id, channel_id, host_id, status, rules_json, message_id,"
        " seats_json, meta_json, created_at, updated_at, owner)"
        f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {TABLE_COLUMNS}",
        (
            guild_id,
            channel_id,
            host_id,
            str(status),
            rules_json,
            message_id,
            seats_to_json(seats),
            meta_to_json(meta if meta is not None else {}),
            now,
            now,
            owner,
        ),
    )


def is_channel_busy(error: Exception) -> bool:
    """True when a driver error is the one-open-table-per-channel index refusing a table."""
    text = str(error)
    return "game_tables.channel_id" in text or "game_tables_open_channel" in text


_SAVE_COLUMNS = (
    "table_id, host_id, status, rules_json, message_id, snapshot_json, seats_json, meta_json,"
    " turn_deadline, broken_reason, updated_at, action, seat, user_id, payload_json, owner,"
    " saves"
)
_SAVE_RETURNING = {
    # SQLite's INSERT into a view returns the values given; the trigger's work is read back.
    "sqlite": "(SELECT last_action_id FROM game_tables WHERE id = table_id)",
    # PostgreSQL returns the row as the INSTEAD OF trigger left it.
    "postgresql": "action_id",
}
NOT_OPEN = "table is not open"
"""The trigger's refusal of a save to a table that is not open (or does not exist)."""
TAKEN_OVER = "table is driven by another process"
"""The trigger's refusal of a save from a process that does not own the table."""
STALE = "table was saved since this copy was read"
"""The trigger's refusal of a save from a copy whose save counter is behind the stored one."""


class NotOpen(StoreError):
    """Inside a transaction: the save was refused; the store says why once it rolled back."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is not open")
        self.table_id = table_id


def save_statement(
    dialect: Dialect,
    table: TableRecord,
    action: Action | None,
    now: float,
    owner: str | None = None,
) -> tuple[str, tuple[Any, ...]]:
    """The one statement that saves the whole table and logs the action (migrations 0004, 0005
    and 0010): returns one row, the action's log id (None without an action). owner: the
    process saving (refused unless it owns the table, or nobody does). table.saves: the save
    counter of the copy saved (refused when the stored table was saved since)."""
    payload = None if action is None else payload_to_json(action.payload)
    return (
        f"INSERT INTO table_saves ({_SAVE_COLUMNS}) VALUES ({', '.join('?' * 17)})"
        f" RETURNING {_SAVE_RETURNING[dialect]}",
        (
            table.id,
            table.host_id,
            str(table.status),
            table.rules_json,
            table.message_id,
            table.snapshot_json,
            seats_to_json(table.seats),
            meta_to_json(table.meta),
            table.turn_deadline,
            table.broken_reason,
            now,
            None if action is None else action.action,
            None if action is None else action.seat,
            None if action is None else action.user_id,
            payload,
            owner,
            table.saves,
        ),
    )


def payload_to_json(payload: Mapping[str, Any]) -> str:
    """An action's payload as stored (TypeError for what JSON cannot hold)."""
    return json.dumps(dict(payload), separators=(",", ":"))


async def refusal(session: Session, table_id: int) -> StoreError:
    """Why a save was refused: TableNotFound, or the status the table is in."""
    rows = await session.fetch("SELECT status FROM game_tables WHERE id = ?", (table_id,))
    if not rows:
        return TableNotFound(table_id)
    return StoreError(f"table {table_id} is {rows[0][0]}; it can no longer be saved")


async def append_action(session: Session, table_id: int, action: Action, now: float) -> int:
    """Append one row to the action log; return its id."""
    rows = await session.fetch(
        "INSERT INTO action_log (table_id, seat, user_id, action, payload_json, at)"
        " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        (table_id, action.seat, action.user_id, action.action, payload_to_json(action.payload),
         now),
    )
    return int(rows[0][0])


MARK_BROKEN = (
    "UPDATE game_tables SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?"
    " AND (CAST(? AS TEXT) IS NULL OR owner IS NULL OR owner = ?) RETURNING id"
)
"""Set a table aside with the reason it cannot be resumed; params (reason, now, table id,
owner, owner). Only its owner's store (or one opened without an owner) may: a process that
found a table wanting, while another process was driving it meanwhile, must not end the other's
game (no row back: no such table, or another process drives it)."""

GET_TABLE = f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE id = ?"

OPEN_TABLES = (
    f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
)
"""The raw rows of every lobby and game in play, oldest first (parsed by the loader, so one
unreadable row cannot stop the others)."""

OWNED_TABLES = (
    f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE status IN ('lobby', 'playing') AND owner = ?"
    " ORDER BY id"
)
"""The open tables one process drives."""


async def read_actions(session: Session, table_id: int, after_id: int = 0) -> list[LoggedAction]:
    """The log of one table in the order it was written (after after_id, to page)."""
    rows = await session.fetch(
        "SELECT id, table_id, action, seat, user_id, payload_json, at FROM action_log"
        " WHERE table_id = ? AND id > ? ORDER BY id",
        (table_id, after_id),
    )
    return [
        LoggedAction(
            id=row[0],
            table_id=row[1],
            action=row[2],
            seat=row[3],
            user_id=row[4],
            payload=json.loads(row[5]),
            at=row[6],
        )
        for row in rows
    ]


async def read_logs(session: Session, table_ids: Sequence[int]) -> dict[int, list[LoggedAction]]:
    """The logs of several tables in one statement (each in the order it was written)."""
    marks = ", ".join("?" * len(table_ids))
    rows = await session.fetch(
        "SELECT id, table_id, action, seat, user_id, payload_json, at FROM action_log"
        f" WHERE table_id IN ({marks}) ORDER BY table_id, id",
        tuple(table_ids),
    )
    logs: dict[int, list[LoggedAction]] = {table_id: [] for table_id in table_ids}
    for row in rows:
        logs[row[1]].append(LoggedAction(id=row[0], table_id=row[1], action=row[2], seat=row[3],
                                         user_id=row[4], payload=json.loads(row[5]), at=row[6]))
    return logs


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild to (discord.py's formula); the SQL below says the same."""
    return (guild_id >> 22) % shard_count


def claim_statement(
    owner: str,
    shard_count: int,
    shard_ids: Sequence[int],
    takeover_ids: Sequence[int],
    alive_since: float,
) -> tuple[str, tuple[Any, ...]]:
    """One UPDATE that makes owner the driver of open tables, and returns their ids:

    - of its own shards (shard_ids), those nobody drives, it drives already, or whose driver's
      lease was last renewed before alive_since (that process died);
    - of takeover_ids, the same, but only while no live process has the shard as its own (a
      shard's own process, restarted, comes first).
    """
    own = ", ".join("?" for _ in shard_ids) or "NULL"
    other = ", ".join("?" for _ in takeover_ids) or "NULL"
    return (
        "UPDATE game_tables SET owner = ? WHERE status IN ('lobby', 'playing')"
        " AND (owner IS NULL OR owner = ? OR owner NOT IN"
        "      (SELECT p.owner FROM processes p WHERE p.renewed_at >= ?))"
        f" AND ((guild_id >> 22) % ? IN ({own})"
        f"      OR ((guild_id >> 22) % ? IN ({other}) AND NOT EXISTS"
        "          (SELECT 1 FROM processes h WHERE h.renewed_at >= ? AND h.owner <> ?"
        "           AND ',' || h.shards || ',' LIKE"
        "               '%,' || CAST((game_tables.guild_id >> 22) % ? AS TEXT) || ',%')))"
        " RETURNING id",
        (
            owner, owner, alive_since,
            shard_count, *shard_ids,
            shard_count, *takeover_ids,
            alive_since, owner, shard_count,
        ),
    )


def hand_back_statement(
    owner: str, shard_count: int, takeover_ids: Sequence[int], alive_since: float
) -> tuple[str, tuple[Any, ...]]:
    """One UPDATE that gives each table owner drives in its takeover shards back to the live
    process that has the shard as its own (restarted after a crash); returns their ids."""
    other = ", ".join("?" for _ in takeover_ids) or "NULL"
    home = (
        "(SELECT h.owner FROM processes h WHERE h.renewed_at >= ? AND h.owner <> ?"
        " AND ',' || h.shards || ',' LIKE"
        " '%,' || CAST((game_tables.guild_id >> 22) % ? AS TEXT) || ',%'"
        " ORDER BY h.renewed_at DESC, h.owner LIMIT 1)"
    )
    return (
        f"UPDATE game_tables SET owner = {home} WHERE owner = ?"
        " AND status IN ('lobby', 'playing')"
        f" AND (guild_id >> 22) % ? IN ({other}) AND {home} IS NOT NULL RETURNING id",
        (
            alive_since, owner, shard_count,
            owner, shard_count, *takeover_ids,
            alive_since, owner, shard_count,
        ),
    )
