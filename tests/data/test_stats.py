"""Leaderboards and personal stats: the figures, the sort keys, and bad input."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from data import SORT_KEYS, FinishedGame, PlayerStats, Store, connection, results
from data.connection import migrations, split_statements
from data.driver import Session

from .conftest import raw_write, result
from .test_results import finish


async def play_scenario(store: Store) -> None:
    """Ann (11) and Bob (12) in guild 1, with a computer; Ann and Cy (13) in guild 2."""
    await finish(
        store,
        result(
            [30, 20, 40],
            [11, 12, None],
            hands=[((1, 0, 1), (1, 0, 0)), ((2, 1, 0), (1, 1, 1))],
        ),
    )
    await finish(store, result([50, 50], [11, 12], hands=[((1, 1), (1, 0))]))
    await finish(store, result([10, 25], [12, 11], hands=[((0, 1), (0, 1))]))
    await finish(store, result([5, 60], [11, 13], hands=[((0, 1), (0, 1))]), guild_id=2)


async def test_personal_stats(store: Store) -> None:
    await play_scenario(store)
    ann = await store.player_stats(1, 11)
    assert ann is not None
    assert (ann.user_id, ann.name, ann.games, ann.wins) == (11, "P11", 3, 2)
    assert ann.win_rate == pytest.approx(2 / 3)
    assert ann.avg_points == pytest.approx(105 / 3)
    assert ann.points_per_hand == pytest.approx(105 / 4)
    assert ann.bid_accuracy == pytest.approx(3 / 4)
    assert ann.best_game == 50
    assert ann.best_game_id is not None
    assert ann.streak == 2
    assert ann.rated_games == 3
    bob = await store.player_stats(1, 12)
    assert bob is not None
    assert (bob.games, bob.wins, bob.best_game, bob.streak) == (3, 1, 50, 0)
    assert bob.avg_points == pytest.approx(80 / 3)
    assert bob.bid_accuracy == pytest.approx(3 / 4)
    assert ann.rating > bob.rating
    # Guild 2 is a separate world.
    ann2 = await store.player_stats(2, 11)
    assert ann2 is not None and (ann2.games, ann2.wins, ann2.streak) == (1, 0, 0)


async def test_leaderboard_sorts_and_leaves_computers_out(store: Store) -> None:
    await play_scenario(store)
    board = await store.leaderboard(1)
    assert [row.user_id for row in board] == [11, 12]
    assert not any(row.name.startswith("CPU") for row in board)
    assert [r.user_id for r in await store.leaderboard(1, sort="streak")] == [11, 12]
    # Ties (same accuracy, same games) fall back to the user id, so the order is stable.
    assert [r.user_id for r in await store.leaderboard(1, sort="bid_accuracy")] == [11, 12]
    assert [r.user_id for r in await store.leaderboard(2, sort="wins")] == [13, 11]
    assert len(await store.leaderboard(1, limit=1)) == 1
    assert await store.leaderboard(2, min_games=2) == []
    for key in SORT_KEYS:
        rows = await store.leaderboard(1, sort=key)
        values = [getattr(row, key) for row in rows]
        assert values == sorted(values, reverse=True)


async def test_a_leaderboard_row_matches_personal_stats(store: Store) -> None:
    await play_scenario(store)
    [row] = [r for r in await store.leaderboard(1) if r.user_id == 12]
    stats = await store.player_stats(1, 12)
    assert stats is not None
    assert row.games == stats.games and row.rating == stats.rating
    assert row.bid_accuracy == stats.bid_accuracy and row.streak == stats.streak


async def test_bad_input_gets_an_empty_result_or_a_clear_error(store: Store) -> None:
    assert await store.leaderboard(424242) == []
    assert await store.player_stats(424242, 11) is None
    await play_scenario(store)
    assert await store.player_stats(1, 999) is None
    assert await store.player_stats(1, 13) is None  # plays only in guild 2
    with pytest.raises(ValueError, match="unknown sort key") as caught:
        await store.leaderboard(1, sort="wins; DROP TABLE games")
    for key in SORT_KEYS:
        assert key in str(caught.value)
    with pytest.raises(ValueError, match="limit"):
        await store.leaderboard(1, limit=0)
    assert len(await store.leaderboard(1)) == 2  # nothing was harmed


async def test_computer_only_games_list_nobody(store: Store) -> None:
    await finish(store, result([30, 20, 10], [None, None, None]))
    assert await store.leaderboard(1) == []


def random_game(rng: random.Random, users: Sequence[int]) -> FinishedGame:
    """3-5 seats, some computers, random hands; ties and computer winners happen."""
    count = rng.randint(3, 5)
    seats: list[int | None] = [*rng.sample(list(users), rng.randint(1, count))]
    seats += [None] * (count - len(seats))
    rng.shuffle(seats)
    hands = [
        (tuple(rng.randint(0, 2) for _ in seats), tuple(rng.randint(0, 2) for _ in seats))
        for _ in range(rng.randint(0, 4))
    ]
    totals = [rng.choice([10, 20, 30]) for _ in seats]
    return result(totals, seats, hands=hands)


async def board(store: Store, guild_id: int) -> list[PlayerStats]:
    return await store.leaderboard(guild_id, sort="wins", limit=1000)


async def test_running_totals_match_the_definition_over_all_games(store: Store) -> None:
    """The totals kept per game equal migration 0002's backfill over game_seats."""
    rng = random.Random(5)
    for _ in range(60):
        await finish(store, random_game(rng, range(1, 9)), guild_id=rng.choice([1, 2]))
    kept = [await board(store, 1), await board(store, 2)]
    backfill = split_statements(migrations(store._driver.dialect)[1].sql)[-1]
    await raw_write(store, "DELETE FROM player_totals")
    await raw_write(store, backfill)
    assert [await board(store, 1), await board(store, 2)] == kept
    assert sum(row.games for rows in kept for row in rows) > 60


async def test_upgrading_a_version_1_database_backfills_the_totals(
    database: str, second_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(9)
    games = [random_game(rng, range(1, 6)) for _ in range(25)]

    native = await Store.open(second_database)
    for game in games:
        await finish(native, game)
    expected = await board(native, 1)
    await native.close()

    shipped = connection.migrations
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped(dialect)[:1])
    old = await Store.open(database)
    assert await old.schema_version() == 1
    for game in games:  # what version 1 of finish_game wrote
        async def body(session: Session, now: float, game: FinishedGame = game) -> None:
            await results.insert_game(
                session, table_id=None, guild_id=1, channel_id=1, game=game, now=now
            )
            await results.rate_game(session, 1, game.seats, now)

        await old._transaction(body)
    await old.close()
    monkeypatch.undo()

    upgraded = await Store.open(database)
    try:
        assert await upgraded.schema_version() == len(migrations(upgraded._driver.dialect))
        assert await board(upgraded, 1) == expected
    finally:
        await upgraded.close()
