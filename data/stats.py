"""Server leaderboards and personal stats over finished games, humans only.

Each finished game adds its humans' results to player_totals (one row per server and player) in
the same transaction that stores the game, so a leaderboard reads one row per player rather than
every seat ever played. Migration 0002 defines the same figures over game_seats (its backfill),
and the tests check that both agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.driver import Session
from data.results import SeatResult

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
    final total and best_game_id the (latest) game where it was scored; streak is the number of
    games won in a row up to the latest one; points_per_hand and bid_accuracy are None when no
    hand was scored (a single-hand "quick" game with no scoresheet).
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


# One query for both dialects: ratios are cast to DOUBLE PRECISION (SQLite reads that as REAL;
# PostgreSQL would otherwise compute NUMERIC), parameters are positional: mu0, sigma0 (x3),
# guild, min_games, then the caller's filter's.
_STATS_SQL = """
SELECT t.user_id,
       COALESCE(p.display_name, CAST(t.user_id AS TEXT)) AS name,
       t.games,
       t.wins,
       CAST(t.wins AS DOUBLE PRECISION) / t.games AS win_rate,
       CAST(t.points AS DOUBLE PRECISION) / t.games AS avg_points,
       CAST(t.points AS DOUBLE PRECISION) / NULLIF(t.hands, 0) AS points_per_hand,
       CAST(t.exact_bids AS DOUBLE PRECISION) / NULLIF(t.hands, 0) AS bid_accuracy,
       t.best_game,
       t.streak,
       COALESCE(p.mu - 3 * p.sigma, CAST(? AS DOUBLE PRECISION) - 3 * CAST(? AS DOUBLE PRECISION))
           AS rating,
       COALESCE(p.mu, CAST(? AS DOUBLE PRECISION)) AS mu,
       COALESCE(p.sigma, CAST(? AS DOUBLE PRECISION)) AS sigma,
       COALESCE(p.rated_games, 0) AS rated_games,
       t.best_game_id
FROM player_totals t
LEFT JOIN players p ON p.guild_id = t.guild_id AND p.user_id = t.user_id
WHERE t.guild_id = ? AND t.games >= ? {user_filter}
"""


def _row_to_stats(row: Sequence[Any]) -> PlayerStats:
    return PlayerStats(*row)


async def add_game(
    session: Session,
    guild_id: int,
    game_id: int,
    seats: Sequence[SeatResult],
    hands: int,
    exact_bids: Sequence[int],
) -> None:
    """Add one finished game to its humans' totals (inside finish_game's transaction)."""
    await session.executemany(
        "INSERT INTO player_totals (guild_id, user_id, games, wins, points, hands, exact_bids,"
        " best_game, best_game_id, streak, last_game_id) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " games = player_totals.games + 1,"
        " wins = player_totals.wins + excluded.wins,"
        " points = player_totals.points + excluded.points,"
        " hands = player_totals.hands + excluded.hands,"
        " exact_bids = player_totals.exact_bids + excluded.exact_bids,"
        " best_game_id = CASE WHEN excluded.best_game >= player_totals.best_game"
        "     THEN excluded.best_game_id ELSE player_totals.best_game_id END,"
        " best_game = CASE WHEN excluded.best_game > player_totals.best_game"
        "     THEN excluded.best_game ELSE player_totals.best_game END,"
        " streak = CASE WHEN excluded.wins = 1 THEN player_totals.streak + 1 ELSE 0 END,"
        " last_game_id = excluded.last_game_id",
        [
            (
                guild_id,
                s.user_id,
                int(s.winner),
                s.total,
                hands,
                exact_bids[s.seat],
                s.total,
                game_id,
                int(s.winner),
                game_id,
            )
            for s in seats
            if s.user_id is not None
        ],
    )


async def leaderboard(
    session: Session,
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
    rows = await session.fetch(
        _STATS_SQL.format(user_filter="")
        + f" ORDER BY {sort} DESC NULLS LAST, t.games DESC, t.user_id LIMIT ?",
        (mu0, sigma0, mu0, sigma0, guild_id, max(1, min_games), limit),
    )
    return [_row_to_stats(row) for row in rows]


async def player_stats(
    session: Session, guild_id: int, user_id: int, *, mu0: float, sigma0: float
) -> PlayerStats | None:
    """One human's stats in one server, or None when they have no finished game there."""
    rows = await session.fetch(
        _STATS_SQL.format(user_filter="AND t.user_id = ?"),
        (mu0, sigma0, mu0, sigma0, guild_id, 1, user_id),
    )
    return _row_to_stats(rows[0]) if rows else None
