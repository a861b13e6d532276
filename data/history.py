"""A server's finished games looked back at, and a person forgotten on request.

History pages through finished games newest first with keyset pagination (the id of the last
game shown is where the next page starts), always through an index (migration 0009): a server's
games by games_guild, one preset's by games_guild_preset, one member's by game_seats_human. So a
page costs the same at a million stored games as at ten.

Forgetting (Discord's developer policy: delete what is kept about a person who asks) removes a
person's name from every stored game, table and leaderboard, and deletes their ratings and
totals. Their finished seats stay, named FORMER_PLAYER with no user id, so every scoresheet still
adds up. The moves in the action log are untouched (games still replay); only who made them and
a join's name are cleared, which is all migration 0009's trigger allows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.driver import Session
from data.errors import StoreError
from data.results import SeatResult
from data.tables import OPEN_STATUSES

FORMER_PLAYER = "a former player"
"""The name a forgotten person's seats keep."""

MAX_PAGE = 25
_NO_BOUND = 2**62
_SEATING_ACTIONS = "('open', 'join', 'take_back')"


class PlayerSeated(StoreError):
    """A person cannot be forgotten while they hold a seat at a table in progress: the table
    would write their name back at its next save."""

    def __init__(self, user_id: int, channel_ids: Sequence[int]) -> None:
        self.user_id = user_id
        self.channel_ids = tuple(channel_ids)
        super().__init__(
            f"user {user_id} is seated at a table in progress (channels {list(channel_ids)})"
        )


@dataclass(frozen=True)
class GameSummary:
    """One finished game as history lists it. message_id is the table message (for a jump
    link), None when the game has no table row or the message was never posted."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    table_id: int | None
    preset: str
    finished_at: float
    hands: int
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[SeatResult, ...]:
        """The seats that won (several on a shared win; none in a quick game nobody made)."""
        return tuple(seat for seat in self.seats if seat.winner)


@dataclass(frozen=True)
class HistoryPage:
    """One page of history; next_before is the `before` of the next (older) page, None at the
    oldest game."""

    games: tuple[GameSummary, ...]
    next_before: int | None


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a person changed: the names they were known by (now gone), the
    finished games whose seat now reads FORMER_PLAYER, and the tables rewritten."""

    names: tuple[str, ...]
    games: int
    tables: int


_SUMMARY_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, t.message_id, g.table_id, g.preset, g.finished_at, g.hands"
)


def history_query(
    guild_id: int, user_id: int | None, preset: str | None, before: int | None, limit: int
) -> tuple[str, tuple[Any, ...]]:
    """The statement of one page (limit + 1 rows, to know whether an older page exists)."""
    bound = _NO_BOUND if before is None else before
    preset_clause = "" if preset is None else " AND g.preset = ?"
    preset_params: tuple[Any, ...] = () if preset is None else (preset,)
    if user_id is None:
        return (
            f"SELECT {_SUMMARY_COLUMNS} FROM games g"
            " LEFT JOIN game_tables t ON t.id = g.table_id"
            f" WHERE g.guild_id = ?{preset_clause} AND g.id < ? ORDER BY g.id DESC LIMIT ?",
            (guild_id, *preset_params, bound, limit + 1),
        )
    return (
        f"SELECT {_SUMMARY_COLUMNS} FROM game_seats s JOIN games g ON g.id = s.game_id"
        " LEFT JOIN game_tables t ON t.id = g.table_id"
        " WHERE s.guild_id = ? AND s.user_id = ? AND s.game_id < ?"
        f"{preset_clause} ORDER BY s.game_id DESC LIMIT ?",
        (guild_id, user_id, bound, *preset_params, limit + 1),
    )


async def history(
    session: Session,
    guild_id: int,
    *,
    user_id: int | None,
    preset: str | None,
    before: int | None,
    limit: int,
) -> HistoryPage:
    """A page of a server's finished games, newest first (see Store.history)."""
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"a history page holds 1 to {MAX_PAGE} games")
    rows = await session.fetch(*history_query(guild_id, user_id, preset, before, limit))
    shown = rows[:limit]
    games = await _summaries(session, shown)
    next_before = int(shown[-1][0]) if len(rows) > limit else None
    return HistoryPage(games, next_before)


async def game_summary(session: Session, game_id: int) -> GameSummary | None:
    """One finished game as history shows it, or None."""
    rows = await session.fetch(
        f"SELECT {_SUMMARY_COLUMNS} FROM games g LEFT JOIN game_tables t ON t.id = g.table_id"
        " WHERE g.id = ?",
        (game_id,),
    )
    found = await _summaries(session, rows)
    return found[0] if found else None


async def _summaries(session: Session, rows: Sequence[Sequence[Any]]) -> tuple[GameSummary, ...]:
    if not rows:
        return ()
    ids = [int(row[0]) for row in rows]
    seats: dict[int, list[SeatResult]] = {game_id: [] for game_id in ids}
    for r in await session.fetch(
        "SELECT game_id, seat, display_name, user_id, total, \"placing\", winner, computer_level"
        f" FROM game_seats WHERE game_id IN ({', '.join('?' * len(ids))})"
        " ORDER BY game_id, seat",
        ids,
    ):
        seats[int(r[0])].append(
            SeatResult(seat=r[1], name=r[2], user_id=r[3], total=r[4], placing=r[5],
                       winner=bool(r[6]), computer_level=r[7])
        )
    return tuple(
        GameSummary(
            game_id=int(row[0]), guild_id=int(row[1]), channel_id=int(row[2]),
            message_id=None if row[3] is None else int(row[3]),
            table_id=None if row[4] is None else int(row[4]),
            preset=row[5], finished_at=float(row[6]), hands=int(row[7]),
            seats=tuple(seats[int(row[0])]),
        )
        for row in rows
    )


async def forget(session: Session, user_id: int, guild_id: int | None) -> Forgotten:
    """Forget a person everywhere (guild_id None) or in one server, in the caller's
    transaction. Raises PlayerSeated, changing nothing, while they sit at an open table."""
    names: set[str] = set()
    guild_clause = "" if guild_id is None else " AND t.guild_id = ?"
    guild_params: tuple[Any, ...] = () if guild_id is None else (guild_id,)
    tables = await session.fetch(
        "SELECT DISTINCT t.id, t.status, t.seats_json, t.channel_id FROM action_log a"
        " JOIN game_tables t ON t.id = a.table_id"
        f" WHERE a.user_id = ? AND a.action IN {_SEATING_ACTIONS}{guild_clause}",
        (user_id, *guild_params),
    )
    seated_open = [
        int(row[3]) for row in tables
        if row[1] in OPEN_STATUSES and _seats_of(json.loads(row[2]), user_id)
    ]
    if seated_open:
        raise PlayerSeated(user_id, seated_open)
    games: set[int] = set()
    for table_id, status, seats_json, _channel in tables:
        seats = json.loads(seats_json)
        mine = _seats_of(seats, user_id)
        for index in mine:
            names.add(str(seats[index]["name"]))
            seats[index] = {**seats[index], "name": FORMER_PLAYER, "user_id": None}
        if mine:
            await session.execute(
                "UPDATE game_tables SET seats_json = ?,"
                " host_id = CASE WHEN host_id = ? THEN 0 ELSE host_id END WHERE id = ?",
                (json.dumps(seats, separators=(",", ":")), user_id, table_id),
            )
        for log_id, payload_json in await session.fetch(
            "SELECT id, payload_json FROM action_log"
            " WHERE table_id = ? AND action = 'join' AND user_id = ?",
            (table_id, user_id),
        ):
            payload = json.loads(payload_json)
            names.add(str(payload.get("name", "")))
            payload["name"] = FORMER_PLAYER
            await session.execute(
                "UPDATE action_log SET payload_json = ? WHERE id = ?",
                (json.dumps(payload, separators=(",", ":")), log_id),
            )
        await session.execute(
            "UPDATE action_log SET user_id = NULL WHERE table_id = ? AND user_id = ?",
            (table_id, user_id),
        )
        game_rows = await session.fetch("SELECT id FROM games WHERE table_id = ?", (table_id,))
        if game_rows and mine and status not in OPEN_STATUSES:
            game_id = int(game_rows[0][0])
            games.add(game_id)
            for index in mine:
                for (name,) in await session.fetch(
                    "SELECT display_name FROM game_seats WHERE game_id = ? AND seat = ?",
                    (game_id, index),
                ):
                    names.add(str(name))
                await session.execute(
                    "UPDATE game_seats SET display_name = ?, user_id = NULL"
                    " WHERE game_id = ? AND seat = ?",
                    (FORMER_PLAYER, game_id, index),
                )
    await _forget_results(session, user_id, guild_id, names, games)
    names.discard("")
    names.discard(FORMER_PLAYER)
    return Forgotten(tuple(sorted(names)), len(games), len(tables))


def _seats_of(seats: list[dict[str, Any]], user_id: int) -> list[int]:
    return [index for index, seat in enumerate(seats) if seat.get("user_id") == user_id]


async def _forget_results(
    session: Session, user_id: int, guild_id: int | None, names: set[str], games: set[int]
) -> None:
    """Their seats in finished games (also games with no table row; added to games), the
    ratings of all those games, totals, their Discord locale and, when forgotten everywhere,
    their notification choice."""
    if guild_id is None:
        guild_rows = await session.fetch(
            "SELECT guild_id FROM player_totals WHERE user_id = ?"
            " UNION SELECT guild_id FROM players WHERE user_id = ?",
            (user_id, user_id),
        )
        guilds = [int(row[0]) for row in guild_rows]
    else:
        guilds = [guild_id]
    for guild in guilds:
        for game_id, name in await session.fetch(
            "SELECT game_id, display_name FROM game_seats WHERE guild_id = ? AND user_id = ?",
            (guild, user_id),
        ):
            games.add(int(game_id))
            names.add(str(name))
        await session.execute(
            "UPDATE game_seats SET display_name = ?, user_id = NULL"
            " WHERE guild_id = ? AND user_id = ?",
            (FORMER_PLAYER, guild, user_id),
        )
        for (name,) in await session.fetch(
            "SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?",
            (guild, user_id),
        ):
            names.add(str(name))
        await session.execute(
            "DELETE FROM players WHERE guild_id = ? AND user_id = ?", (guild, user_id)
        )
        await session.execute(
            "DELETE FROM player_totals WHERE guild_id = ? AND user_id = ?", (guild, user_id)
        )
    for game_id in sorted(games):
        for (name,) in await session.fetch(
            "SELECT display_name FROM game_ratings WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        ):
            names.add(str(name))
        await session.execute(
            "DELETE FROM game_ratings WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
    # a nudge row outlives its table only when Discord refused its delete, a message row
    # (0014) when the person left an open table or its table's rows were not dropped when it
    # closed: the person's id goes with the rest
    # their locale is no server's: it goes whether they are forgotten everywhere or in one
    await session.execute("DELETE FROM person_locales WHERE user_id = ?", (user_id,))
    if guild_id is None:
        await session.execute("DELETE FROM notify_prefs WHERE user_id = ?", (user_id,))
        for kept in ("posted_nudges", "table_messages"):
            await session.execute(f"DELETE FROM {kept} WHERE user_id = ?", (user_id,))
    else:
        for kept in ("posted_nudges", "table_messages"):
            await session.execute(
                f"DELETE FROM {kept} WHERE user_id = ? AND table_id IN"
                " (SELECT id FROM game_tables WHERE guild_id = ?)",
                (user_id, guild_id),
            )
