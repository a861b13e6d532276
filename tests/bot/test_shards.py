"""Two bot processes on one PostgreSQL, each with its own shard (bot/shards.py): each plays its
own tables to the end, neither touches the other's, and when one dies the other, set to take its
shard over, resumes its tables from the last committed move: no move lost, none doubled.

Each "process" here is what a bot process holds: its own store (its own connections, its own
owner name), table service and shard lease. Killing one is what a crash leaves: it stops
renewing its lease and acting, its connections are cut, nothing is released.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta

import pytest

from bot.clock import ManualClock
from bot.errors import TableError
from bot.models import TableOptions, TableView
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from bot.shards import LEASE_KEY, ShardLeases, ShardPlan
from data import Store, TableRecord
from engine import Game, Phase
from tests.bot.helpers import is_open, move
from tests.pg_server import PostgresServer

SHARDS = 2
GUILD_0 = 2 << 22  # Discord routes it to shard 0 of 2
GUILD_1 = 3 << 22  # shard 1
HOST = 11
LEASE = 30.0


class LeaseClock:
    """The stores' clock (it stamps leases): moved by hand, shared by both processes."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Process:
    """One bot process: store, service, lease."""

    name: str
    store: Store
    service: TableService
    leases: ShardLeases


async def start(dsn: str, name: str, plan: ShardPlan, clock: LeaseClock) -> Process:
    store = await Store.open(dsn, owner=name, clock=clock)
    service = TableService(
        store,
        RecordingPresenter(),
        config=ServiceConfig(default_turn_timeout=60, computer_delay=0),
        clock=ManualClock(),
    )
    leases = ShardLeases(store, service, plan)
    await leases.tick()  # what start() does, without the background renewals (ticked by hand)
    return Process(name, store, service, leases)


@pytest.fixture
async def two(
    postgres_server: PostgresServer,
) -> AsyncIterator[tuple[Process, Process, LeaseClock]]:
    dsn = postgres_server.new_database()
    clock = LeaseClock()
    a = await start(dsn, "process-a", ShardPlan(SHARDS, (0,), (), LEASE), clock)
    b = await start(dsn, "process-b", ShardPlan(SHARDS, (1,), (0,), LEASE), clock)
    try:
        yield a, b, clock
    finally:
        for p in (a, b):
            await p.service.close()
            await p.store.close()


async def open_game(p: Process, guild: int, channel: int, seed: int) -> TableView:
    view = await p.service.open_table(
        guild, channel, HOST, "Host",
        TableOptions(computers=2, seed=seed, max_cards=2, computer_level="random"),
    )
    await p.service.deal(view.table_id, HOST)
    await p.service.wait_idle()
    return p.service.directory.table(view.table_id)


async def play_to_the_end(p: Process, table_id: int) -> None:
    while is_open(p.service, table_id):
        await move(p.service, table_id, HOST)
        await p.service.wait_idle()


async def moves_logged(store: Store, table_id: int) -> list[tuple[str, int | None]]:
    log = await store.actions(table_id)
    return [(a.action, a.seat) for a in log if a.action in ("bid", "play")]


def moves_in(game: Game) -> int:
    """Every bid and card of a finished game, from its scoresheet."""
    return sum(len(hand.bids) * (1 + hand.hand_size) for hand in game.scoresheet)


async def test_each_process_plays_its_own_tables_to_the_end(
    two: tuple[Process, Process, LeaseClock],
) -> None:
    a, b, _clock = two
    mine = [await open_game(a, GUILD_0, 100 + i, seed=i) for i in range(2)]
    theirs = [await open_game(b, GUILD_1, 200 + i, seed=10 + i) for i in range(2)]
    for view in mine:
        assert await a.store.table_owner(view.table_id) == "process-a"
    await b.leases.tick()  # b renews and claims: a is alive, so nothing of a's
    await a.leases.tick()
    assert {v.table_id for v in a.service.directory.tables()} == {v.table_id for v in mine}
    assert {v.table_id for v in b.service.directory.tables()} == {v.table_id for v in theirs}
    for view in mine:
        await play_to_the_end(a, view.table_id)
    for view in theirs:
        await play_to_the_end(b, view.table_id)
    for p, views in ((a, mine), (b, theirs)):
        for view in views:
            record = await p.store.get_table(view.table_id)
            assert record is not None and record.snapshot_json is not None
            game = Game.from_json(record.snapshot_json)
            assert game.phase is Phase.GAME_OVER
            assert len(await moves_logged(p.store, view.table_id)) == moves_in(game)
            assert await p.store.game_for_table(view.table_id) is not None
    # Leaderboards read across processes: each sees the other's server.
    assert [row.games for row in await a.store.leaderboard(GUILD_1)] == [2]
    assert [row.games for row in await b.store.leaderboard(GUILD_0)] == [2]


async def test_a_dead_process_tables_go_on_in_the_other_with_no_move_lost_or_doubled(
    two: tuple[Process, Process, LeaseClock],
) -> None:
    a, b, clock = two
    table = (await open_game(a, GUILD_0, 100, seed=3)).table_id
    other = (await open_game(b, GUILD_1, 200, seed=4)).table_id
    for _ in range(3):
        await move(a.service, table, HOST)
        await a.service.wait_idle()
    last_seen_by_a = a.service.directory.table(table)
    logged_by_a = await moves_logged(a.store, table)

    # a dies: no more renewals, no more moves. While its lease lasts b leaves its table alone.
    clock.now += LEASE - 1
    await b.leases.tick()
    assert not is_open(b.service, table)
    clock.now += 2
    await b.leases.tick()  # a's lease ran out: b resumes a's table where a committed it
    assert is_open(b.service, table)
    assert b.service.directory.table(table) == last_seen_by_a
    assert await b.store.table_owner(table) == "process-b"

    # a wakes up (it had only stalled) and tries to go on: refused in words, nothing written,
    # and a no longer holds its stale copy (issue 23)
    with pytest.raises(TableError, match="moved to another copy of the bot"):
        await move(a.service, table, HOST)
    assert await moves_logged(b.store, table) == logged_by_a
    assert not is_open(a.service, table)

    await play_to_the_end(b, table)
    await play_to_the_end(b, other)
    record = await b.store.get_table(table)
    assert record is not None and record.snapshot_json is not None
    game = Game.from_json(record.snapshot_json)
    assert game.phase is Phase.GAME_OVER
    logged = await moves_logged(b.store, table)
    assert logged[: len(logged_by_a)] == logged_by_a  # a's moves kept, in order
    assert len(logged) == moves_in(game)  # every move of the game logged once, none twice
    assert await b.store.game_for_table(table) is not None


async def test_a_restarted_process_gets_its_tables_back(
    two: tuple[Process, Process, LeaseClock], postgres_server: PostgresServer
) -> None:
    """After the takeover, shard 0's own process comes back (a restart, a new process): the
    one that took the table over hands it back at its next renewal (Discord sends the shard's
    interactions to the restarted process), and the game goes on there."""
    a, b, clock = two
    table = (await open_game(a, GUILD_0, 100, seed=5)).table_id
    await move(a.service, table, HOST)
    await a.service.wait_idle()
    clock.now += LEASE + 1  # a died
    await b.leases.tick()
    assert is_open(b.service, table)
    await move(b.service, table, HOST)  # the game goes on at b meanwhile
    await b.service.wait_idle()
    logged = await moves_logged(b.store, table)
    seen = b.service.directory.table(table)

    restarted = await start(a.store.address.dsn or "", "process-a2",
                            ShardPlan(SHARDS, (0,), (), LEASE), clock)
    try:
        assert not is_open(restarted.service, table)  # b is alive and still holds it
        await b.leases.tick()  # b sees shard 0's own process alive: hands the table back
        assert not is_open(b.service, table)
        with pytest.raises(Exception, match="another process"):
            await b.store.save_table(await b.store.get_table(table) or _missing(table))
        await restarted.leases.tick()
        assert restarted.service.directory.table(table) == seen
        await play_to_the_end(restarted, table)
        record = await restarted.store.get_table(table)
        assert record is not None and record.snapshot_json is not None
        game = Game.from_json(record.snapshot_json)
        all_moves = await moves_logged(restarted.store, table)
        assert all_moves[: len(logged)] == logged and len(all_moves) == moves_in(game)
    finally:
        await restarted.service.close()
        await restarted.store.close()


def _missing(table_id: int) -> TableRecord:
    raise AssertionError(f"table {table_id} is gone")


async def test_the_lease_is_renewed_by_the_process_scheduler_while_it_runs(
    two: tuple[Process, Process, LeaseClock],
) -> None:
    """A started process renews its lease at the deadlines of its one scheduler (no loop of
    its own), so the takeover process leaves its tables alone for as long as it runs; once it
    stops renewing, they move."""
    a, b, clock = two
    table = (await open_game(a, GUILD_0, 100, seed=6)).table_id
    await a.leases.start()
    a_clock = a.service.clock
    assert isinstance(a_clock, ManualClock)
    for _ in range(4):  # four thirds of a lease: a renews at each third
        clock.now += LEASE / 3
        await a_clock.advance(LEASE / 3)
        renewed_at = a_clock.now() + timedelta(seconds=LEASE / 3)
        while a.service.scheduler.when(LEASE_KEY) != renewed_at:  # its renewal is done
            await asyncio.sleep(0.01)
        await b.leases.tick()
        assert not is_open(b.service, table)
    await a.leases.stop()
    clock.now += 1
    await b.leases.tick()  # a gave its lease up: b drives the table now
    assert is_open(b.service, table)
