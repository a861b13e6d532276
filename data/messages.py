"""The Discord messages a table keeps (migration 0014), in rows of their own: the table's own
message in its channel, and each person's DM hand message, DM channel and closed DMs. Writing
one is a small upsert, never a save of the table's row (docs/architecture.md section 4).

Only the process that drives a table writes its rows: an upsert lands only while the table is
open and its owner is the writing process (or nobody), as a save of the table itself does
(data/tables.py, save_statement); a process that lost the table writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.driver import Session

TABLE_MESSAGE = 0
"""The user id of a table's own message (in its channel): no person has id 0 on Discord."""


@dataclass(frozen=True, slots=True)
class KeptMessage:
    """A table's message, or a person's DM state at a table (`user_id`; TABLE_MESSAGE for the
    table's message in `channel_id`). `hand_number`: the hand a DM hand message shows."""

    table_id: int
    user_id: int
    message_id: int | None
    channel_id: int | None = None
    hand_number: int | None = None
    dm_failed: bool = False


UPSERT = (
    "INSERT INTO table_messages"
    " (table_id, user_id, channel_id, message_id, hand_number, dm_failed)"
    " SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),"
    " CAST(? AS INTEGER), CAST(? AS BOOLEAN)"
    " WHERE EXISTS (SELECT 1 FROM game_tables g WHERE g.id = ?"
    " AND g.status IN ('lobby', 'playing') AND (g.owner IS NULL OR g.owner = ?))"
    " ON CONFLICT (table_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,"
    " message_id = excluded.message_id, hand_number = excluded.hand_number,"
    " dm_failed = excluded.dm_failed"
)
"""Keep one row, if the writing process (the last parameter) may write the table's rows."""

DROP_CLOSED = (
    "DELETE FROM table_messages WHERE table_id = ? AND NOT EXISTS"
    " (SELECT 1 FROM game_tables g WHERE g.id = ? AND g.status IN ('lobby', 'playing'))"
)
"""Forget a closed table's rows (an open table's stay, whoever asks)."""

COLUMNS = "table_id, user_id, message_id, channel_id, hand_number, dm_failed"


def upsert_rows(rows: Sequence[KeptMessage], owner: str | None) -> list[tuple[Any, ...]]:
    """The parameters of UPSERT for each row, written by `owner` (None: a single process)."""
    return [(r.table_id, r.user_id, r.channel_id, r.message_id, r.hand_number, r.dm_failed,
             r.table_id, owner) for r in rows]


async def write(session: Session, rows: Sequence[KeptMessage], closed: Sequence[int],
                owner: str | None) -> None:
    """Keep `rows` and forget the rows of the `closed` tables, in the caller's transaction."""
    if rows:
        await session.executemany(UPSERT, upsert_rows(rows, owner))
    if closed:
        await session.executemany(DROP_CLOSED, [(t, t) for t in closed])


def _kept(row: Sequence[Any]) -> KeptMessage:
    table_id, user_id, message_id, channel_id, hand_number, dm_failed = row
    return KeptMessage(
        table_id=int(table_id),
        user_id=int(user_id),
        message_id=None if message_id is None else int(message_id),
        channel_id=None if channel_id is None else int(channel_id),
        hand_number=None if hand_number is None else int(hand_number),
        dm_failed=bool(dm_failed),
    )


async def read_of(session: Session, table_ids: Sequence[int]) -> dict[int, list[KeptMessage]]:
    """The rows of these tables, by table (tables without any left out), in user id order."""
    if not table_ids:
        return {}
    rows = await session.fetch(
        f"SELECT {COLUMNS} FROM table_messages"
        f" WHERE table_id IN ({', '.join('?' * len(table_ids))}) ORDER BY table_id, user_id",
        tuple(table_ids),
    )
    kept: dict[int, list[KeptMessage]] = {}
    for row in rows:
        message = _kept(row)
        kept.setdefault(message.table_id, []).append(message)
    return kept


__all__ = ["TABLE_MESSAGE", "KeptMessage", "read_of", "write"]
