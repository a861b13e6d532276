"""Server leaderboards and personal stats: queries over finished games, humans only.

Every figure is computed from game_seats (one row per seat of a finished game, with that seat's
hand count and exact bids) joined with players (names and ratings), so nothing can drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import aiosqlite

# Sort keys the leaderboard accepts (higher first).
# Each key is a column of the stats query, so it goes into ORDER BY only after this check.
SORT_KEYS: tuple[str, ...] = (
    "rating",
    "wins",
    "games",
    "win_rate",
    "avg_points",
    "points_per_hand",
    "bid_accuracy",
    "best_game",
    "streak",
)
DEFAULT_SORT = "rating"


@dataclass(frozen=True)
class PlayerStats:
    """One human's record in one server (a leaderboard row, or the stats command).

    win_rate and bid_accuracy are fractions 0..1; bid_accuracy = exact bids / bids made.
    rating is the openskill ordinal (mu - 3 * sigma, 0 for a newcomer); best_game is the best
    final total (best_game_id, its game, is filled by player_stats only); streak is the number
    of games won in a row up to the latest one; points_per_hand and bid_accuracy are None when
    no hand was scored (a single-hand "quick" game with no scoresheet).
    """

    user_id: int
    name: str
    games: int
    wins: int
    win_rate: float
    avg_points: float
    points_per_hand: float | None
    bid_accuracy: float | None
    best_game: int
    streak: int
    rating: float
    mu: float
    sigma: float
    rated_games: int
    best_game_id: int | None = None


# One pass over the covering index (guild, user, game) aggregates everything but the streak; the
# streak is then a short index range per listed player: the games after their last non-win.
_STATS_SQL = """
WITH agg AS (
    SELECT user_id,
           COUNT(*) AS games,
           SUM(winner) AS wins,
           SUM(total) AS points,
           SUM(hands) AS hands,
           SUM(exact_bids) AS exact,
           MAX(total) AS best_game,
           MAX(CASE WHEN winner = 0 THEN game_id END) AS last_loss
    FROM game_seats INDEXED BY game_seats_human
    WHERE guild_id = :guild AND user_id IS NOT NULL {user_filter}
    GROUP BY user_id
    HAVING COUNT(*) >= :min_games
)
SELECT a.user_id,
       COALESCE(p.display_name, CAST(a.user_id AS TEXT)) AS name,
       a.games,
       a.wins,
       1.0 * a.wins / a.games AS win_rate,
       1.0 * a.points / a.games AS avg_points,
       1.0 * a.points / NULLIF(a.hands, 0) AS points_per_hand,
       1.0 * a.exact / NULLIF(a.hands, 0) AS bid_accuracy,
       a.best_game,
       (SELECT COUNT(*) FROM game_seats s INDEXED BY game_seats_human
        WHERE s.guild_id = :guild AND s.user_id = a.user_id
          AND s.game_id > COALESCE(a.last_loss, 0)) AS streak,
       COALESCE(p.mu - 3 * p.sigma, :mu0 - 3 * :sigma0) AS rating,
       COALESCE(p.mu, :mu0) AS mu,
       COALESCE(p.sigma, :sigma0) AS sigma,
       COALESCE(p.rated_games, 0) AS rated_games
FROM agg a LEFT JOIN players p ON p.guild_id = :guild AND p.user_id = a.user_id
"""


def _row_to_stats(row: Sequence[Any]) -> PlayerStats:
    return PlayerStats(*row)


async def leaderboard(
    db: aiosqlite.Connection,
    guild_id: int,
    *,
    sort: str,
    limit: int,
    min_games: int,
    mu0: float,
    sigma0: float,
) -> list[PlayerStats]:
    """The top humans of one server by a whitelisted key; ties go to more games, then user id."""
    if sort not in SORT_KEYS:
        raise ValueError(f"unknown sort key {sort!r}; use one of: {', '.join(SORT_KEYS)}")
    if limit < 1:
        raise ValueError("limit must be at least 1")
    rows = await db.execute_fetchall(
        _STATS_SQL.format(user_filter="")
        + f" ORDER BY {sort} DESC, a.games DESC, a.user_id LIMIT :limit",
        {
            "guild": guild_id,
            "min_games": max(1, min_games),
            "limit": limit,
            "mu0": mu0,
            "sigma0": sigma0,
        },
    )
    return [_row_to_stats(row) for row in rows]


async def player_stats(
    db: aiosqlite.Connection, guild_id: int, user_id: int, *, mu0: float, sigma0: float
) -> PlayerStats | None:
    """One human's stats in one server, or None when they have no finished game there."""
    params = {"guild": guild_id, "user": user_id, "min_games": 1, "mu0": mu0, "sigma0": sigma0}
    rows = list(
        await db.execute_fetchall(_STATS_SQL.format(user_filter="AND user_id = :user"), params)
    )
    if not rows:
        return None
    best = list(
        await db.execute_fetchall(
            "SELECT game_id FROM game_seats WHERE guild_id = ? AND user_id = ?"
            " ORDER BY total DESC, game_id DESC LIMIT 1",
            (guild_id, user_id),
        )
    )
    stats = _row_to_stats(rows[0])
    return replace(stats, best_game_id=best[0][0] if best else None)
