"""The turn nudges on Discord (migration 0011): which message shows each person's nudge at a
table, so a restarted bot can take it down when it is due (cogs/nudges.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.driver import Session


@dataclass(frozen=True)
class PostedNudge:
    """One nudge message on Discord: `user_id`'s at table `table_id`."""

    table_id: int
    user_id: int
    channel_id: int
    message_id: int


def put_nudge(nudge: PostedNudge) -> tuple[str, tuple[Any, ...]]:
    """The one statement that keeps a posted nudge (it replaces the person's previous one)."""
    return (
        "INSERT INTO posted_nudges (table_id, user_id, channel_id, message_id)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, message_id = excluded.message_id",
        (nudge.table_id, nudge.user_id, nudge.channel_id, nudge.message_id),
    )


def drop_nudge(nudge: PostedNudge) -> tuple[str, tuple[Any, ...]]:
    """The one statement that forgets a deleted nudge (not a newer one kept since)."""
    return (
        "DELETE FROM posted_nudges WHERE table_id = ? AND user_id = ? AND message_id = ?",
        (nudge.table_id, nudge.user_id, nudge.message_id),
    )


async def get_nudges(session: Session, table_id: int) -> list[PostedNudge]:
    """The nudges kept for a table."""
    rows = await session.fetch(
        "SELECT table_id, user_id, channel_id, message_id FROM posted_nudges"
        " WHERE table_id = ? ORDER BY user_id",
        (table_id,),
    )
    return [PostedNudge(int(t), int(u), int(c), int(m)) for t, u, c, m in rows]


async def get_nudges_of(session: Session, table_ids: Sequence[int]) -> dict[int, list[PostedNudge]]:
    """The nudges kept for several tables, by table (tables without any left out)."""
    rows = await session.fetch(
        "SELECT table_id, user_id, channel_id, message_id FROM posted_nudges"
        f" WHERE table_id IN ({', '.join('?' * len(table_ids))}) ORDER BY table_id, user_id",
        tuple(table_ids),
    )
    kept: dict[int, list[PostedNudge]] = {}
    for t, u, c, m in rows:
        kept.setdefault(int(t), []).append(PostedNudge(int(t), int(u), int(c), int(m)))
    return kept
