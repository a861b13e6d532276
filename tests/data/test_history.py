"""History (a server's finished games, newest first, paged, filtered, through indexes) and
forgetting a person (no trace of their name in any table), on both drivers."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import pytest

from data import (
    FORMER_PLAYER,
    TABLE_MESSAGE,
    Action,
    FinishedGame,
    KeptMessage,
    PlayerSeated,
    Seat,
    Store,
    TableStatus,
)
from data.history import history_query
from data.nudges import PostedNudge

from .conftest import INTEGRITY_ERRORS, raw_write, result

_channels = itertools.count(20_000)
NAME = "Ottoline Quark"
OTTO = 11


def named(game: FinishedGame, names: dict[int, str]) -> FinishedGame:
    """The game with these people's names on their seats."""
    return replace(
        game,
        seats=tuple(
            replace(s, name=names.get(s.user_id, s.name)) if s.user_id is not None else s
            for s in game.seats
        ),
    )


async def play(
    store: Store,
    game: FinishedGame,
    *,
    guild_id: int = 1,
    message_id: int | None = None,
    autopilot: Sequence[int] = (),
) -> int:
    """Open a table for the game's seats (each person joining by the log), finish it, and
    return the game id. Seats in autopilot are a person's seat a computer finished."""
    seats = [
        Seat(s.name, user_id=s.user_id, computer_level=s.computer_level) for s in game.seats
    ]
    for index in autopilot:
        seats[index] = replace(seats[index], computer_level="easy")
        game = replace(
            game,
            seats=tuple(
                replace(s, user_id=None, computer_level="easy") if s.seat == index else s
                for s in game.seats
            ),
        )
    table = await store.create_table(
        guild_id=guild_id, channel_id=next(_channels), host_id=seats[0].user_id or 1,
        rules_json='{"name": "classic"}', seats=seats[:1], message_id=message_id,
        action=Action("open", seat=0, user_id=seats[0].user_id, payload={"options": {}}),
    )
    for index, seat in enumerate(seats[1:], start=1):
        table = replace(table, seats=tuple(seats[: index + 1]))
        if seat.user_id is not None:
            await store.save_table(
                table, Action("join", seat=index, user_id=seat.user_id,
                              payload={"name": seat.name}))
        else:
            await store.save_table(table, Action("add_computer", seat=index))
        table = replace(table, saves=table.saves + 1)  # each save moves the counter on
    table = replace(table, status=TableStatus.PLAYING, snapshot_json='{"phase": "game_over"}')
    await store.save_table(table, Action("bid", seat=0, user_id=seats[0].user_id,
                                         payload={"bid": 1}))
    table = replace(table, saves=table.saves + 1)
    return (await store.finish_game(table, game, Action("play", seat=0))).game_id


def game_of(totals: Sequence[int], users: Sequence[int | None], preset: str = "classic",
            names: dict[int, str] | None = None) -> FinishedGame:
    hands = [(tuple(1 for _ in totals), tuple(1 for _ in totals))]
    return replace(named(result(totals, users, hands=hands), names or {}), preset=preset)


async def test_history_pages_newest_first(store: Store) -> None:
    ids = [await play(store, game_of([20 + i, 10], [OTTO, 12]), message_id=500 + i)
           for i in range(5)]
    await play(store, game_of([1, 2], [OTTO, 12]), guild_id=2)
    shown: list[int] = []
    before = None
    pages = 0
    while True:
        page = await store.history(1, before=before, limit=2)
        shown += [g.game_id for g in page.games]
        pages += 1
        if page.next_before is None:
            break
        before = page.next_before
    assert shown == ids[::-1]
    assert pages == 3
    newest = (await store.history(1, limit=1)).games[0]
    assert newest.message_id == 504 and newest.preset == "classic" and newest.hands == 1
    assert [s.name for s in newest.winners] == ["P11"]
    assert [(s.name, s.total) for s in newest.seats] == [("P11", 24), ("P12", 10)]
    assert (await store.history(3)).games == ()


async def test_history_filters_by_member_and_preset(store: Store) -> None:
    a = await play(store, game_of([20, 10, 5], [OTTO, 12, None]))
    b = await play(store, game_of([20, 10, 5], [13, 12, None], preset="vanikar"))
    c = await play(store, game_of([20, 10, 5], [OTTO, 13, None], preset="vanikar"))
    d = await play(store, game_of([20, 10, 5], [14, 13, OTTO]), autopilot=[2])

    async def ids(**filters: object) -> list[int]:
        return [g.game_id for g in (await store.history(1, **filters)).games]  # type: ignore[arg-type]

    assert await ids() == [d, c, b, a]
    assert await ids(user_id=OTTO) == [c, a]  # on autopilot at the end of d: not their game
    assert await ids(preset="vanikar") == [c, b]
    assert await ids(user_id=OTTO, preset="vanikar") == [c]
    assert await ids(user_id=13, before=c) == [b]
    assert await ids(user_id=99) == []
    with pytest.raises(ValueError, match="1 to 25"):
        await store.history(1, limit=26)


@pytest.mark.parametrize(
    "filters", [{}, {"preset": "classic"}, {"user_id": 11}, {"user_id": 11, "preset": "classic"}]
)
async def test_history_reads_through_an_index(tmp_path: object, filters: dict[str, object]) -> None:
    """SQLite's plan for a page searches indexes: no table is scanned whole."""
    store = await Store.open(str(tmp_path) + "/plan.sqlite3")
    try:
        sql, params = history_query(
            1, filters.get("user_id"), filters.get("preset"), None, 10  # type: ignore[arg-type]
        )
        plan = [row[3] for row in await store._read("EXPLAIN QUERY PLAN " + sql, params)]
    finally:
        await store.close()
    assert plan and not [step for step in plan if step.startswith("SCAN")], plan
    assert any("INDEX" in step for step in plan), plan


async def text_holding(store: Store, text: str) -> list[str]:
    """Every (table, column) whose text holds `text`, over every table's every text column."""
    if store.dialect == "sqlite":
        names = [r[0] for r in await store._read(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = [
            (table, r[1]) for table in names
            for r in await store._read(f"PRAGMA table_info({table})")
            if "TEXT" in str(r[2]).upper()
        ]
    else:
        columns = [(r[0], r[1]) for r in await store._read(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')")]
    assert len(columns) > 10
    found = []
    for table, column in columns:
        rows = await store._read(
            f'SELECT COUNT(*) FROM {table} WHERE "{column}" LIKE ?', (f"%{text}%",))
        if rows[0][0]:
            found.append(f"{table}.{column}")
    return found


async def otto_everywhere(store: Store) -> dict[str, int]:
    """Ottoline plays in two servers, once on autopilot, leaves a lobby, sets a notify way."""
    games = {
        "one": await play(store, game_of([30, 10, 5], [OTTO, 12, None], names={OTTO: NAME})),
        "two": await play(store, game_of([5, 30, 10], [OTTO, 12, 13], names={OTTO: NAME})),
        "pilot": await play(store, game_of([5, 10, 30], [12, 13, OTTO], names={OTTO: NAME}),
                            autopilot=[2]),
        "other": await play(store, game_of([30, 10], [OTTO, 12], names={OTTO: NAME}),
                            guild_id=2),
    }
    lobby = await store.create_table(
        guild_id=1, channel_id=next(_channels), host_id=12, rules_json='{"name": "classic"}',
        seats=[Seat("P12", user_id=12)])
    joined = replace(lobby, seats=(*lobby.seats, Seat(NAME, user_id=OTTO)))
    await store.save_table(joined, Action("join", seat=1, user_id=OTTO, payload={"name": NAME}))
    # the lobby's message, and her DM channel and closed DMs, as the bot keeps them (0014)
    await store.keep_messages([KeptMessage(lobby.id, TABLE_MESSAGE, 77, lobby.channel_id),
                               KeptMessage(lobby.id, OTTO, None, channel_id=555,
                                           dm_failed=True)])
    await store.save_table(replace(lobby, saves=joined.saves + 1),
                           Action("leave", seat=1, user_id=OTTO))
    await store.set_notify(OTTO, "mention")
    await store.set_locale(OTTO, "no")
    await store.set_locale(12, "no")
    # a nudge whose delete Discord refused outlives its table
    await store.keep_nudge(PostedNudge(lobby.id, OTTO, lobby.channel_id, 99))
    games["lobby table"] = lobby.id  # a table, not a game: the nudge's
    return games


async def test_forget_me_leaves_no_trace_of_the_name(store: Store) -> None:
    games = await otto_everywhere(store)
    lobby_table = games.pop("lobby table")
    sheet_before = {key: await store.get_game(game_id) for key, game_id in games.items()}
    before = await text_holding(store, NAME)
    assert {"game_seats.display_name", "players.display_name", "game_tables.seats_json",
            "action_log.payload_json"} <= set(before)

    forgotten = await store.forget_player(OTTO)

    assert await text_holding(store, NAME) == []
    assert forgotten.names == (NAME,)
    assert forgotten.games == 4
    for key, game_id in games.items():
        sheet = await store.get_game(game_id)
        assert sheet is not None and (old := sheet_before[key]) is not None
        assert sheet.hands == old.hands  # every scoresheet still adds up
        assert [s.total for s in sheet.seats] == [s.total for s in old.seats]
        assert FORMER_PLAYER in [s.name for s in sheet.seats]
        assert OTTO not in [s.user_id for s in sheet.seats]
    for guild in (1, 2):
        assert OTTO not in [p.user_id for p in await store.leaderboard(guild)]
        assert await store.player_stats(guild, OTTO) is None
    assert await store.player_stats(1, 12) is not None  # the others keep their record
    assert await store.rating_changes(games["two"]) != []
    assert OTTO not in [c.user_id for c in await store.rating_changes(games["two"])]
    assert await store.get_notify(OTTO) is None
    assert await store.get_locale(OTTO) is None
    assert await store.get_locale(12) == "no"  # another person's stays
    assert await store.posted_nudges(lobby_table) == []
    assert [(k.user_id, k.message_id) for k in await store.kept_messages(lobby_table)] == [
        (TABLE_MESSAGE, 77)]  # the table's own message names nobody: it stays
    assert await store.history(1, user_id=OTTO) == await store.history(1, user_id=99)


async def test_forget_in_one_server_keeps_the_others(store: Store) -> None:
    games = await otto_everywhere(store)
    forgotten = await store.forget_player(OTTO, guild_id=1)
    assert forgotten.names == (NAME,) and forgotten.games == 3
    assert await store.player_stats(1, OTTO) is None
    kept = await store.player_stats(2, OTTO)
    assert kept is not None and kept.name == NAME
    other = await store.get_game(games["other"])
    assert other is not None and other.seats[0].name == NAME
    assert await store.get_notify(OTTO) == "mention"
    assert await store.get_locale(OTTO) is None  # no server's: it goes with any forgetting
    assert await store.posted_nudges(games["lobby table"]) == []  # the lobby was in server 1
    assert [k.user_id for k in await store.kept_messages(games["lobby table"])] == [
        TABLE_MESSAGE]
    one = await store.get_game(games["one"])
    assert one is not None and one.seats[0].name == FORMER_PLAYER


async def test_forget_is_refused_while_seated_at_a_table_in_progress(store: Store) -> None:
    await play(store, game_of([30, 10], [OTTO, 12], names={OTTO: NAME}))
    table = await store.create_table(
        guild_id=1, channel_id=4242, host_id=OTTO, rules_json='{"name": "classic"}',
        seats=[Seat(NAME, user_id=OTTO)],
        action=Action("open", seat=0, user_id=OTTO, payload={"options": {}}))
    before = await text_holding(store, NAME)
    with pytest.raises(PlayerSeated) as refused:
        await store.forget_player(OTTO)
    assert refused.value.channel_ids == (4242,)
    assert await text_holding(store, NAME) == before
    await store.save_table(replace(table, status=TableStatus.CANCELLED), Action("end"))
    await store.forget_player(OTTO)
    assert await text_holding(store, NAME) == []


async def test_the_log_keeps_its_moves_when_names_may_go(store: Store) -> None:
    game_id = await play(store, game_of([30, 10], [OTTO, 12], names={OTTO: NAME}))
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await raw_write(store, "UPDATE action_log SET payload_json = '{}' WHERE action = 'bid'")
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await raw_write(store, "UPDATE action_log SET user_id = 5 WHERE action = 'join'")
    await store.forget_player(OTTO)
    summary = await store.game_summary(game_id)
    assert summary is not None
    assert [s.name for s in summary.seats] == [FORMER_PLAYER, "P12"]
    table_id = summary.table_id
    assert table_id is not None
    log = await store.actions(table_id)
    assert [(a.action, a.user_id) for a in log] == [
        ("open", None), ("join", 12), ("bid", None), ("play", None)]
    assert log[2].payload == {"bid": 1}

