"""Finished games: scoresheets, per-seat results and the per-server skill ratings they feed.

The bot hands the store a FinishedGame, built from the engine with FinishedGame.from_engine (or
by hand in tests). Ratings use openskill's Plackett-Luce model. Only humans are rated, among
themselves, in the order of their placings: computer seats still occupy placings (a human who
finishes behind a computer is placed lower), but a computer has no rating to win or lose, and a
game with fewer than two humans changes no rating.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from data.driver import Session
from data.errors import StoreError

if TYPE_CHECKING:
    from data.tables import Seat
    from engine import Game, Rules

RATING_MODEL = PlackettLuce()
"""Default mu 25, sigma 25/3; ordinal = mu - 3 * sigma starts at 0."""


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished. user_id None means a computer seat (never in human stats).

    placing: 1 is first; ties share a placing and the next placing is skipped (1, 1, 3).
    Every winner has placing 1.
    """

    seat: int
    name: str
    user_id: int | None
    total: int
    placing: int
    winner: bool
    computer_level: str | None = None


@dataclass(frozen=True)
class HandResultRow:
    """One scored hand: one entry per seat in each list, in seat order.

    trump_card is a Card.code ("10H") or None; trump_suit a suit letter ("H") or None (no trump).
    totals are the running totals after this hand.
    """

    hand_number: int
    hand_size: int
    dealer: int
    trump_card: str | None
    trump_suit: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    made: tuple[bool, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class FinishedGame:
    """Everything kept about a finished game; guild and channel come from its table."""

    preset: str
    rules_json: str
    seats: tuple[SeatResult, ...]
    hands: tuple[HandResultRow, ...]
    hints: bool = False
    """The table allowed hints (the hard computer's suggestions): the game is kept, not rated."""

    @classmethod
    def from_engine(
        cls, game: Game, rules: Rules, seats: Sequence[Seat], hints: bool = False
    ) -> FinishedGame:
        """Convert a game in Phase.GAME_OVER: scoresheet, totals, winners, placings.

        seats are the table's seats (names, user ids, computer levels) in seat order. Winners
        are game.winners (placing 1, ties share); the others are placed by total, highest first.
        A seat a computer plays at the end (a kicked human's included) counts as a computer
        seat: it keeps its placing but gets no stats and no rating.
        """
        totals = list(game.scores)
        winners = set(game.winners)

        def placing(seat: int) -> int:
            if seat in winners:
                return 1
            ahead = (o for o in range(len(totals)) if o in winners or totals[o] > totals[seat])
            return 1 + sum(1 for _ in ahead)

        results = tuple(
            SeatResult(
                seat=index,
                name=seat.name,
                user_id=None if seat.is_computer else seat.user_id,
                total=totals[index],
                placing=placing(index),
                winner=index in winners,
                computer_level=seat.computer_level,
            )
            for index, seat in enumerate(seats)
        )
        hands = tuple(
            HandResultRow(
                hand_number=record.hand_number,
                hand_size=record.hand_size,
                dealer=record.dealer,
                trump_card=record.trump_card.code if record.trump_card is not None else None,
                trump_suit=record.trump_suit.letter if record.trump_suit is not None else None,
                bids=tuple(int(b) for b in record.bids),
                tricks=tuple(record.tricks),
                made=tuple(bool(m) for m in record.made),
                points=tuple(record.points),
                totals=tuple(record.totals),
            )
            for record in game.scoresheet
        )
        return cls(
            preset=rules.name,
            rules_json=rules.model_dump_json(),
            seats=results,
            hands=hands,
            hints=hints,
        )

    def _nobody_may_win(self) -> bool:
        """Quick's rule: the winner made the exact bid, so a hand nobody made has no winner."""
        try:
            return bool(json.loads(self.rules_json).get("winner_rule") == "exact_bid")
        except (ValueError, AttributeError):
            return False

    def check(self) -> None:
        """Raise StoreError when the result contradicts itself (so nothing half-true is stored)."""
        count = len(self.seats)
        if count == 0:
            raise StoreError("a finished game needs at least one seat")
        if sorted(s.seat for s in self.seats) != list(range(count)):
            raise StoreError("finished game seats must be numbered 0..n-1, each once")
        humans = [s.user_id for s in self.seats if s.user_id is not None]
        if len(humans) != len(set(humans)):
            raise StoreError("a user holds two seats in one finished game")
        for seat in self.seats:
            if not 1 <= seat.placing <= count:
                raise StoreError(f"seat {seat.seat} has placing {seat.placing} of {count}")
            if seat.winner and seat.placing != 1:
                raise StoreError(f"seat {seat.seat} is a winner but placed {seat.placing}")
        if not any(s.winner for s in self.seats) and not self._nobody_may_win():
            raise StoreError("a finished game needs at least one winner")
        numbers = [h.hand_number for h in self.hands]
        if len(numbers) != len(set(numbers)):
            raise StoreError("hand numbers repeat in the scoresheet")
        for hand in self.hands:
            lists = (hand.bids, hand.tricks, hand.made, hand.points, hand.totals)
            if any(len(values) != count for values in lists):
                raise StoreError(f"hand {hand.hand_number} does not have one entry per seat")


@dataclass(frozen=True)
class RatingChange:
    """A human's rating before and after one game, for the bot to show.

    ordinal = mu - 3 * sigma (a cautious skill estimate; 0 for a newcomer).
    """

    user_id: int
    name: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def ordinal_before(self) -> float:
        """The shown rating before the game."""
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self) -> float:
        """The shown rating after the game."""
        return self.mu_after - 3 * self.sigma_after

    @property
    def delta(self) -> float:
        """How much the shown rating moved."""
        return self.ordinal_after - self.ordinal_before


def exact_bids(game: FinishedGame) -> list[int]:
    """Per seat, the hands where the tricks taken equal the bid."""
    exact = [0] * len(game.seats)
    for hand in game.hands:
        for seat, (bid, tricks) in enumerate(zip(hand.bids, hand.tricks, strict=True)):
            exact[seat] += bid == tricks
    return exact


async def insert_game(
    session: Session,
    *,
    table_id: int | None,
    guild_id: int,
    channel_id: int,
    game: FinishedGame,
    now: float,
) -> int:
    """Store the game, its seats and its scoresheet; return the game id."""
    game.check()
    # games.hints defaults to 0: a game without hints writes the very row it always did
    hints_column, hints_value = (", hints", ", ?") if game.hints else ("", "")
    rows = await session.fetch(
        "INSERT INTO games (table_id, guild_id, channel_id, preset, rules_json, players, hands,"
        f" finished_at{hints_column}) VALUES (?, ?, ?, ?, ?, ?, ?, ?{hints_value}) RETURNING id",
        (
            table_id,
            guild_id,
            channel_id,
            game.preset,
            game.rules_json,
            len(game.seats),
            len(game.hands),
            now,
            *([1] if game.hints else []),
        ),
    )
    game_id = int(rows[0][0])
    exact = exact_bids(game)
    await session.executemany(
        "INSERT INTO game_seats (game_id, seat, guild_id, user_id, computer_level, display_name,"
        " total, \"placing\", winner, hands, exact_bids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                s.seat,
                guild_id,
                s.user_id,
                s.computer_level,
                s.name,
                s.total,
                s.placing,
                int(s.winner),
                len(game.hands),
                exact[s.seat],
            )
            for s in game.seats
        ],
    )
    await session.executemany(
        "INSERT INTO game_hands (game_id, hand_number, hand_size, dealer, trump_card, trump_suit)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (game_id, h.hand_number, h.hand_size, h.dealer, h.trump_card, h.trump_suit)
            for h in game.hands
        ],
    )
    await session.executemany(
        "INSERT INTO hand_scores (game_id, hand_number, seat, bid, tricks, made, points, total)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                h.hand_number,
                seat,
                h.bids[seat],
                h.tricks[seat],
                int(h.made[seat]),
                h.points[seat],
                h.totals[seat],
            )
            for h in game.hands
            for seat in range(len(game.seats))
        ],
    )
    return game_id


async def rate_game(
    session: Session,
    guild_id: int,
    seats: Sequence[SeatResult],
    now: float,
    hints: bool = False,
) -> list[RatingChange]:
    """Record the humans' names and, with two humans or more in a game without hints, update
    their ratings."""
    humans = [s for s in seats if s.user_id is not None]
    if not humans:
        return []
    before: dict[int, tuple[float, float]] = {}
    for seat in humans:
        rows = await session.fetch(
            "SELECT mu, sigma FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, seat.user_id),
        )
        assert seat.user_id is not None
        before[seat.user_id] = (
            (rows[0][0], rows[0][1]) if rows else (RATING_MODEL.mu, RATING_MODEL.sigma)
        )
    after = dict(before)
    rated = len(humans) >= 2 and not hints
    if rated:
        teams = [[RATING_MODEL.rating(*before[s.user_id])] for s in humans if s.user_id is not None]
        new = RATING_MODEL.rate(teams, ranks=[float(s.placing) for s in humans])
        for seat, (rating,) in zip(humans, new, strict=True):
            assert seat.user_id is not None
            after[seat.user_id] = (rating.mu, rating.sigma)
    await session.executemany(
        "INSERT INTO players (guild_id, user_id, display_name, mu, sigma, rated_games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
        " rated_games = players.rated_games + excluded.rated_games,"
        " updated_at = excluded.updated_at",
        [
            (guild_id, s.user_id, s.name, *after[s.user_id], int(rated), now)
            for s in humans
            if s.user_id is not None
        ],
    )
    if not rated:
        return []
    return [
        RatingChange(s.user_id, s.name, *before[s.user_id], *after[s.user_id])
        for s in humans
        if s.user_id is not None
    ]


async def save_rating_changes(
    session: Session, game_id: int, changes: Sequence[RatingChange]
) -> None:
    """Keep a game's rating changes with it (read back by `read_rating_changes`)."""
    await session.executemany(
        "INSERT INTO game_ratings (game_id, user_id, display_name, mu_before, sigma_before,"
        " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, c.user_id, c.name, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
         for c in changes],
    )


async def read_rating_changes(session: Session, game_id: int) -> list[RatingChange]:
    """The rating changes a finished game made, as finish_game returned them (none for a game
    with fewer than two humans, or one stored before migration 0008)."""
    rows = await session.fetch(
        "SELECT user_id, display_name, mu_before, sigma_before, mu_after, sigma_after"
        " FROM game_ratings WHERE game_id = ? ORDER BY user_id", (game_id,))
    return [RatingChange(int(r[0]), r[1], r[2], r[3], r[4], r[5]) for r in rows]


async def read_game(session: Session, game_id: int) -> FinishedGame | None:
    """A finished game as it was stored (for the scoresheet command and for tests)."""
    rows = await session.fetch(
        "SELECT preset, rules_json, hints FROM games WHERE id = ?", (game_id,)
    )
    if not rows:
        return None
    preset, rules_json, hints = rows[0]
    seats = tuple(
        SeatResult(
            seat=r[0], name=r[1], user_id=r[2], total=r[3], placing=r[4], winner=bool(r[5]),
            computer_level=r[6],
        )
        for r in await session.fetch(
            "SELECT seat, display_name, user_id, total, \"placing\", winner, computer_level"
            " FROM game_seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
    )
    scores: dict[int, list[tuple[int, int, bool, int, int]]] = {}
    for r in await session.fetch(
        "SELECT hand_number, bid, tricks, made, points, total FROM hand_scores"
        " WHERE game_id = ? ORDER BY hand_number, seat",
        (game_id,),
    ):
        scores.setdefault(r[0], []).append((r[1], r[2], bool(r[3]), r[4], r[5]))
    hands = []
    for r in await session.fetch(
        "SELECT hand_number, hand_size, dealer, trump_card, trump_suit FROM game_hands"
        " WHERE game_id = ? ORDER BY hand_number",
        (game_id,),
    ):
        columns = list(zip(*scores.get(r[0], []), strict=True)) or [(), (), (), (), ()]
        hands.append(
            HandResultRow(
                hand_number=r[0], hand_size=r[1], dealer=r[2], trump_card=r[3], trump_suit=r[4],
                bids=tuple(columns[0]), tricks=tuple(columns[1]), made=tuple(columns[2]),
                points=tuple(columns[3]), totals=tuple(columns[4]),
            )
        )
    return FinishedGame(
        preset=preset, rules_json=rules_json, seats=seats, hands=tuple(hands), hints=bool(hints)
    )

