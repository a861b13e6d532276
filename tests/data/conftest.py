"""Fixtures for the store tests: a fresh database per test, on each driver, and row builders.

Tests that take `store` or `database` run twice: on a SQLite file and on a database of a
throwaway PostgreSQL server (tests/conftest.py: one server per test session, started from the
PostgreSQL binaries on the machine; skipped, with the reason, where there are none). Tests that
take `db_path` are about SQLite's file itself (WAL, pragmas, killed processes): SQLite only.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from data import FinishedGame, HandResultRow, Seat, SeatResult, Store, TableRecord
from tests.pg_server import PostgresServer

RULES_JSON = json.dumps({"name": "classic"})
DRIVERS = ("sqlite", "postgresql")


def integrity_errors() -> tuple[type[BaseException], ...]:
    """What each driver raises when a constraint or trigger refuses a write."""
    found: list[type[BaseException]] = [sqlite3.IntegrityError]
    try:
        import asyncpg
    except ImportError:
        pass
    else:
        found.append(asyncpg.IntegrityConstraintViolationError)
    return tuple(found)


INTEGRITY_ERRORS = integrity_errors()


@pytest.fixture(params=DRIVERS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "nested" / "ohhell.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


async def raw_write(store: Store, sql: str, *params: Any) -> None:
    """One statement straight to the store's write path, as a damaged or forged row would be
    written (`?` placeholders on both drivers)."""
    await store._statement(sql, params)


class FakeClock:
    """A clock the test moves by hand, so stored times are predictable."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "ohhell.sqlite3"


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    opened = await Store.open(database, clock=FakeClock())
    try:
        yield opened
    finally:
        await opened.close()


async def new_table(
    store: Store, channel_id: int = 100, guild_id: int = 1, seats: Sequence[Seat] | None = None
) -> TableRecord:
    """A lobby with two humans and a computer unless seats are given."""
    if seats is None:
        seats = [
            Seat("Ann", user_id=11),
            Seat("Bob", user_id=12),
            Seat("Computer", computer_level="easy"),
        ]
    return await store.create_table(
        guild_id=guild_id, channel_id=channel_id, host_id=11, rules_json=RULES_JSON, seats=seats
    )


def result(
    totals: Sequence[int],
    user_ids: Sequence[int | None],
    *,
    hands: Sequence[tuple[Sequence[int], Sequence[int]]] = (),
    winners: Sequence[int] | None = None,
) -> FinishedGame:
    """A finished game from final totals; hands are (bids, tricks) pairs, points follow classic.

    Winners default to the highest totals; placings use competition ranking (1, 1, 3).
    """
    count = len(totals)
    best = max(totals)
    winner_seats = set(winners) if winners is not None else {
        i for i, t in enumerate(totals) if t == best
    }
    seats = tuple(
        SeatResult(
            seat=i,
            name=f"P{uid}" if uid is not None else f"CPU{i}",
            user_id=uid,
            total=totals[i],
            placing=1 if i in winner_seats else 1 + sum(
                1 for j in range(count) if j in winner_seats or totals[j] > totals[i]
            ),
            winner=i in winner_seats,
            computer_level=None if uid is not None else "easy",
        )
        for i, uid in enumerate(user_ids)
    )
    rows = []
    running = [0] * count
    for number, (bids, tricks) in enumerate(hands, start=1):
        made = tuple(b == t for b, t in zip(bids, tricks, strict=True))
        points = tuple(10 + t if m else 0 for t, m in zip(tricks, made, strict=True))
        running = [r + p for r, p in zip(running, points, strict=True)]
        rows.append(
            HandResultRow(
                hand_number=number,
                hand_size=sum(tricks),
                dealer=(number - 1) % count,
                trump_card="10H",
                trump_suit="H",
                bids=tuple(bids),
                tricks=tuple(tricks),
                made=made,
                points=points,
                totals=tuple(running),
            )
        )
    return FinishedGame(preset="classic", rules_json=RULES_JSON, seats=seats, hands=tuple(rows))


@pytest.fixture
def second_database(database: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A second, separate database on the same driver as `database`."""
    if database.startswith("postgresql://"):
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return server.new_database()
    return str(tmp_path / "second.sqlite3")
