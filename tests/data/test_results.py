"""Finished games: the scoresheet round trip, one transaction with the ratings, refusals."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from data import (
    Action,
    FinishedGame,
    RecordedGame,
    Seat,
    Store,
    StoreError,
    TableRecord,
    TableStatus,
)

from .conftest import INTEGRITY_ERRORS, new_table, result

_channels = itertools.count(10_000)


async def table_for(store: Store, game: FinishedGame, guild_id: int = 1) -> TableRecord:
    seats = [
        Seat(s.name, user_id=s.user_id, computer_level=s.computer_level) for s in game.seats
    ]
    table = await new_table(store, channel_id=next(_channels), guild_id=guild_id, seats=seats)
    return replace(table, status=TableStatus.PLAYING, snapshot_json='{"phase": "game_over"}')


async def finish(store: Store, game: FinishedGame, guild_id: int = 1) -> RecordedGame:
    table = await table_for(store, game, guild_id)
    return await store.finish_game(table, game, Action("play", seat=0, payload={"card": "AS"}))


async def test_scoresheet_round_trips(store: Store) -> None:
    game = result(
        [21, 10, 0],
        [11, 12, None],
        hands=[((1, 0, 1), (1, 0, 0)), ((2, 1, 0), (2, 0, 1))],
        winners=[0],
    )
    recorded = await finish(store, game)
    assert await store.get_game(recorded.game_id) == game
    assert await store.get_game(recorded.game_id + 1) is None


async def test_finish_closes_the_table_with_its_last_action(store: Store) -> None:
    game = result([30, 20], [11, 12], hands=[((1, 0), (1, 0))])
    table = await table_for(store, game)
    recorded = await store.finish_game(table, game, Action("play", seat=1, payload={"c": "2C"}))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.FINISHED
    assert stored.snapshot_json == '{"phase": "game_over"}'
    assert [a.action for a in await store.actions(table.id)] == ["play"]
    assert await store.game_for_table(table.id) == recorded.game_id
    assert (await store.load_active_tables(validate=lambda t: None)).ok == []


async def test_a_game_is_never_counted_twice(store: Store) -> None:
    game = result([30, 20], [11, 12])
    table = await table_for(store, game)
    await store.finish_game(table, game)
    with pytest.raises(StoreError, match="finished"):
        await store.finish_game(table, game)
    stats = await store.player_stats(1, 11)
    assert stats is not None and stats.games == 1


async def test_a_contradictory_result_stores_nothing(store: Store) -> None:
    game = result([30, 20, 10], [11, 12, 13])
    table = await table_for(store, game)
    bad_games = [
        replace(game, seats=(replace(game.seats[0], placing=2), *game.seats[1:])),
        replace(game, seats=tuple(replace(s, winner=False) for s in game.seats)),
        replace(game, seats=(game.seats[0], replace(game.seats[1], seat=0), game.seats[2])),
        replace(game, seats=(game.seats[0], replace(game.seats[1], user_id=11), game.seats[2])),
        replace(game, seats=(game.seats[0], game.seats[1], replace(game.seats[2], placing=9))),
        replace(game, hands=result([1, 0], [11, 12], hands=[((1, 0), (1, 0))]).hands),
    ]
    for bad in bad_games:
        with pytest.raises(StoreError):
            await store.finish_game(table, bad)
    # A failure deep inside the transaction (after the table and game rows were written).
    nameless = replace(game, seats=(*game.seats[:2], replace(game.seats[2], name=None)))
    with pytest.raises(INTEGRITY_ERRORS):
        await store.finish_game(table, nameless, Action("play"))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.LOBBY and stored.saves == 0
    assert await store.actions(table.id) == []
    assert await store.game_for_table(table.id) is None
    assert await store.leaderboard(1) == []


async def test_ratings_move_for_humans_only(store: Store) -> None:
    recorded = await finish(store, result([40, 30, 20, 10], [None, 11, 12, 13]))
    changes = {c.user_id: c for c in recorded.rating_changes}
    assert set(changes) == {11, 12, 13}
    assert changes[11].delta > 0 > changes[13].delta
    assert changes[11].ordinal_before == pytest.approx(0.0)
    assert changes[11].mu_after > changes[12].mu_after > changes[13].mu_after
    assert all(c.sigma_after < c.sigma_before for c in changes.values())
    # The next game starts from the stored ratings.
    again = await finish(store, result([40, 30], [11, 12]))
    ann = next(c for c in again.rating_changes if c.user_id == 11)
    assert ann.mu_before == pytest.approx(changes[11].mu_after)


async def test_tied_humans_share_their_placing(store: Store) -> None:
    recorded = await finish(store, result([40, 40], [11, 12]))
    first, second = recorded.rating_changes
    assert first.mu_after == pytest.approx(second.mu_after)


async def test_a_lone_human_gets_no_rating_change(store: Store) -> None:
    recorded = await finish(store, result([40, 10, 5], [11, None, None]))
    assert recorded.rating_changes == []
    stats = await store.player_stats(1, 11)
    assert stats is not None
    assert (stats.games, stats.wins, stats.rated_games, stats.rating) == (1, 1, 0, 0.0)


async def test_a_game_with_hints_is_kept_and_says_so_but_rates_nobody(store: Store) -> None:
    game = replace(result([40, 30, 20], [11, 12, 13]), hints=True)
    recorded = await finish(store, game)
    assert recorded.rating_changes == []
    stored = await store.get_game(recorded.game_id)
    assert stored == game and stored.hints
    for user in (11, 12, 13):
        stats = await store.player_stats(1, user)
        assert stats is not None
        assert (stats.games, stats.rated_games, stats.rating) == (1, 0, 0.0)
    plain = await finish(store, result([40, 30], [11, 12]))
    assert plain.rating_changes  # the next game without hints is rated as ever
    assert not (await store.get_game(plain.game_id)).hints  # type: ignore[union-attr]


async def test_ratings_are_per_server(store: Store) -> None:
    await finish(store, result([40, 10], [11, 12]), guild_id=1)
    recorded = await finish(store, result([40, 10], [11, 12]), guild_id=2)
    ann = next(c for c in recorded.rating_changes if c.user_id == 11)
    assert ann.ordinal_before == pytest.approx(0.0)


async def test_the_last_finished_table_of_a_channel_is_the_latest_game(store: Store) -> None:
    game = result([30, 20], [11, 12], hands=[((1, 0), (1, 0))])
    first = await table_for(store, game)
    assert await store.last_finished_table(first.channel_id) is None  # nothing finished yet
    await store.finish_game(first, game)
    assert await store.last_finished_table(first.channel_id) == first.id
    second = await new_table(store, channel_id=first.channel_id, seats=list(first.seats))
    second = replace(second, status=TableStatus.PLAYING, snapshot_json='{"phase": "game_over"}')
    await store.finish_game(second, game)
    assert await store.last_finished_table(first.channel_id) == second.id
    assert await store.last_finished_table(first.channel_id + 1) is None


async def test_a_games_rating_changes_are_read_back_as_recorded(store: Store) -> None:
    recorded = await finish(store, result([40, 30, 20, 10], [None, 11, 12, 13]))
    assert recorded.rating_changes
    assert await store.rating_changes(recorded.game_id) == sorted(
        recorded.rating_changes, key=lambda c: c.user_id)
    lone = await finish(store, result([30, 20], [11, None]))  # one human: no rating moves
    assert await store.rating_changes(lone.game_id) == []
