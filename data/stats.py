"""Server leaderboards and personal stats over finished games, humans only.

Each finished game adds its humans' results to player_totals (one row per server and player) in
the same transaction that stores the game, so a leaderboard reads one row per player rather than
every seat ever played. Migration 0002 defines the same figures over game_seats (its backfill),
and the tests check that both agree.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


_STATS_SQL = """
SELECT t.user_id,
       COALESCE(p.display_name, CAST(t.user_id AS TEXT)) AS name,
       t.games,
       t.wins,
       1.0 * t.wins / t.games AS win_rate,
       1.0 * t.points / t.games AS avg_points,
       1.0 * t.points / NULLIF(t.hands, 0) AS points_per_hand,
       1.0 * t.exact_bids / NULLIF(t.hands, 0) AS bid_accuracy,
       t.best_game,
       t.streak,
       COALESCE(p.mu - 3 * p.sigma, :mu0 - 3 * :sigma0) AS rating,
       COALESCE(p.mu, :mu0) AS mu,
       COALESCE(p.sigma, :sigma0) AS sigma,
       COALESCE(p.rated_games, 0) AS rated_games,
       t.best_game_id
FROM player_totals t
LEFT JOIN players p ON p.guild_id = t.guild_id AND p.user_id = t.user_id
WHERE t.guild_id = :guild AND t.games >= :min_games {user_filter}
"""


def _row_to_stats(row: Sequence[Any]) -> PlayerStats:
    return PlayerStats(*row)


def add_game(
    db: sqlite3.Connection,
    guild_id: int,
    game_id: int,
    seats: Sequence[SeatResult],
    hands: int,
    exact_bids: Sequence[int],
) -> None:
    """Add one finished game to its humans' totals (inside finish_game's transaction)."""
    db.executemany(
        "INSERT INTO player_totals (guild_id, user_id, games, wins, points, hands, exact_bids,"
        " best_game, best_game_id, streak, last_game_id) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " games = games + 1,"
        " wins = wins + excluded.wins,"
        " points = points + excluded.points,"
        " hands = hands + excluded.hands,"
        " exact_bids = exact_bids + excluded.exact_bids,"
        " best_game_id = CASE WHEN excluded.best_game >= best_game"
        "     THEN excluded.best_game_id ELSE best_game_id END,"
        " best_game = MAX(best_game, excluded.best_game),"
        " streak = CASE WHEN excluded.wins = 1 THEN streak + 1 ELSE 0 END,"
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


def leaderboard(
    db: sqlite3.Connection,
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
    rows = db.execute(
        _STATS_SQL.format(user_filter="")
        + f" ORDER BY {sort} DESC, t.games DESC, t.user_id LIMIT :limit",
        {
            "guild": guild_id,
            "min_games": max(1, min_games),
            "limit": limit,
            "mu0": mu0,
            "sigma0": sigma0,
        },
    ).fetchall()
    return [_row_to_stats(row) for row in rows]


def player_stats(
    db: sqlite3.Connection, guild_id: int, user_id: int, *, mu0: float, sigma0: float
) -> PlayerStats | None:
    """One human's stats in one server, or None when they have no finished game there."""
    params = {"guild": guild_id, "user": user_id, "min_games": 1, "mu0": mu0, "sigma0": sigma0}
    rows = db.execute(_STATS_SQL.format(user_filter="AND t.user_id = :user"), params).fetchall()
    return _row_to_stats(rows[0]) if rows else None
