"""Several processes on one database: each drives the tables of its shards, a dead one's tables
are taken over once its lease runs out, and a save from a process that lost a table, or from a
copy that is behind, is refused."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from data import Action, Seat, StaleTable, Store, TableRecord, TableTakenOver
from data.tables import shard_of

from .conftest import RULES_JSON, result

SHARDS = 2
GUILD_0 = 2 << 22  # shard 0 of 2
GUILD_1 = 3 << 22  # shard 1 of 2
LEASE = 30.0


class SharedClock:
    """One clock for every process of a test, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> SharedClock:
    return SharedClock()


@pytest.fixture
async def stores(database: str, clock: SharedClock) -> AsyncIterator[tuple[Store, Store]]:
    first = await Store.open(database, clock=clock, owner="process-a")
    second = await Store.open(database, clock=clock, owner="process-b")
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def open_table(store: Store, guild: int, channel: int) -> TableRecord:
    return await store.create_table(
        guild_id=guild, channel_id=channel, host_id=1, rules_json=RULES_JSON,
        seats=[Seat("Ann", user_id=1), Seat("Bob", user_id=2)],
    )


def test_the_shard_of_a_guild_is_discords() -> None:
    assert shard_of(GUILD_0, SHARDS) == 0 and shard_of(GUILD_1, SHARDS) == 1
    assert shard_of(81384788765712384, 1) == 0


async def test_each_process_claims_only_its_shards_tables(
    stores: tuple[Store, Store], clock: SharedClock
) -> None:
    a, b = stores
    await a.renew_lease([0])
    await b.renew_lease([1])
    mine = await open_table(a, GUILD_0, 1)
    theirs = await open_table(b, GUILD_1, 2)
    orphan = await open_table(a, GUILD_1, 3)
    # a created `orphan` in b's shard: it is a's until a dies, b does not claim it
    claimed_a = await a.claim_tables(SHARDS, [0], LEASE, validate=lambda t: None)
    claimed_b = await b.claim_tables(SHARDS, [1], LEASE, validate=lambda t: None)
    assert [t.id for t in claimed_a.ok] == [mine.id]
    assert [t.id for t in claimed_b.ok] == [theirs.id]
    assert await a.table_owner(orphan.id) == "process-a"
    # Neither writes the other's tables.
    with pytest.raises(TableTakenOver):
        await b.save_table(replace(mine, snapshot_json="{}"), Action("bid"))
    with pytest.raises(TableTakenOver):
        await a.save_table(replace(theirs, snapshot_json="{}"), Action("bid"))
    assert await a.actions(mine.id) == [] and await a.actions(theirs.id) == []
    # Leaderboards read every process's games.
    game = result([30, 20], [1, 2])
    await a.finish_game(mine, game)
    await b.finish_game(theirs, game)
    assert [row.games for row in await b.leaderboard(GUILD_0)] == [1, 1]
    assert [row.games for row in await a.leaderboard(GUILD_1)] == [1, 1]


async def test_a_dead_process_tables_are_taken_over_after_its_lease(
    stores: tuple[Store, Store], clock: SharedClock
) -> None:
    a, b = stores
    await a.renew_lease([0])
    await b.renew_lease([1])
    table = await open_table(a, GUILD_0, 1)
    await a.save_table(replace(table, snapshot_json='{"n": 1}'), Action("bid", seat=0))
    # b may take shard 0 over, but not while a renews its lease.
    clock.now += LEASE - 1
    await b.renew_lease([1])
    assert (await b.claim_tables(SHARDS, [1], LEASE, takeover_ids=[0])).ok == []
    await a.renew_lease([0])
    clock.now += LEASE - 1
    await b.renew_lease([1])
    assert (await b.claim_tables(SHARDS, [1], LEASE, takeover_ids=[0])).ok == []
    # a stops renewing (it died): one lease later b takes its table, as a committed it.
    clock.now += 2
    loaded = await b.claim_tables(
        SHARDS, [1], LEASE, takeover_ids=[0], validate=lambda t: None
    )
    [taken] = loaded.ok
    assert taken.id == table.id and taken.snapshot_json == '{"n": 1}' and taken.saves == 1
    assert await b.table_owner(table.id) == "process-b"
    # a wakes up and tries to go on: refused, nothing written.
    with pytest.raises(TableTakenOver):
        await a.save_table(replace(table, snapshot_json='{"n": 2}'), Action("play", seat=1))
    await b.save_table(replace(taken, snapshot_json='{"n": 2}'), Action("play", seat=1))
    assert [x.action for x in await b.actions(table.id)] == ["bid", "play"]
    stored = await b.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"n": 2}' and stored.saves == 2


async def test_a_shard_goes_to_its_own_live_process_before_a_takeover(
    stores: tuple[Store, Store], clock: SharedClock, database: str
) -> None:
    a, b = stores
    await a.renew_lease([0])
    table = await open_table(a, GUILD_0, 1)
    clock.now += LEASE + 1  # a died
    restarted = await Store.open(database, clock=clock, owner="process-a2")
    try:
        await restarted.renew_lease([0])  # shard 0's own process is back
        await b.renew_lease([1])
        assert (await b.claim_tables(SHARDS, [1], LEASE, takeover_ids=[0])).ok == []
        loaded = await restarted.claim_tables(SHARDS, [0], LEASE, validate=lambda t: None)
        assert [t.id for t in loaded.ok] == [table.id]
    finally:
        await restarted.close()


async def test_a_store_without_an_owner_cannot_write_an_owned_table(
    stores: tuple[Store, Store], database: str
) -> None:
    a, _b = stores
    table = await open_table(a, GUILD_0, 1)
    async with await Store.open(database) as plain:
        with pytest.raises(TableTakenOver):
            await plain.save_table(table, Action("bid"))
        unowned = await open_table(plain, GUILD_0, 2)
        await plain.save_table(unowned, Action("bid"))  # single process: nobody owns tables
        assert await plain.table_owner(unowned.id) is None
        with pytest.raises(Exception, match="owner"):
            await plain.renew_lease([0])


async def test_taken_over_tables_go_back_to_their_shards_restarted_process(
    stores: tuple[Store, Store], clock: SharedClock, database: str
) -> None:
    a, b = stores
    await a.renew_lease([0])
    table = await open_table(a, GUILD_0, 1)
    own = await open_table(b, GUILD_1, 2)
    clock.now += LEASE + 1  # a died
    await b.renew_lease([1])
    assert await b.hand_back(SHARDS, [0], LEASE) == []  # nobody to give it to
    await b.claim_tables(SHARDS, [1], LEASE, takeover_ids=[0])
    assert await b.table_owner(table.id) == "process-b"
    async with await Store.open(database, clock=clock, owner="process-a2") as restarted:
        await restarted.renew_lease([0])
        assert await b.hand_back(SHARDS, [0], LEASE) == [table.id]
        assert await b.table_owner(table.id) == "process-a2"
        assert await b.table_owner(own.id) == "process-b"  # its own shard's tables stay
        with pytest.raises(TableTakenOver):
            await b.save_table(table, Action("bid"))
        loaded = await restarted.claim_tables(SHARDS, [0], LEASE, validate=lambda t: None)
        assert [t.id for t in loaded.ok] == [table.id]


async def test_a_stalled_process_handed_its_table_back_cannot_save_its_stale_copy(
    stores: tuple[Store, Store], clock: SharedClock
) -> None:
    """a stalls past its lease (SIGSTOP, a long GC pause) holding table at its first move; b takes
    the table over and plays on; a wakes, renews, b hands the table back: a owns it again, but
    its copy is behind. Its save is refused by the store, and b's moves stay."""
    a, b = stores
    await a.renew_lease([0])
    table = await open_table(a, GUILD_0, 1)
    await a.save_table(replace(table, snapshot_json='{"n": 1}'), Action("bid", payload={"n": 1}))
    stale = replace(table, saves=1, snapshot_json='{"n": 1}')  # a's copy in memory

    clock.now += LEASE + 1  # a stalls
    await b.renew_lease([1])
    taken = await b.claim_tables(SHARDS, [1], LEASE, takeover_ids=[0], validate=lambda t: None)
    current = taken.ok[0]
    for n in (2, 3):
        current = replace(current, snapshot_json=f'{{"n": {n}}}')
        await b.save_table(current, Action("bid", payload={"n": n}))
        current = replace(current, saves=current.saves + 1)

    await a.renew_lease([0])  # a wakes
    assert await b.hand_back(SHARDS, [0], LEASE) == [table.id]
    assert await a.table_owner(table.id) == "process-a"
    with pytest.raises(StaleTable):
        await a.save_table(replace(stale, snapshot_json='{"n": 2}'), Action("bid"))
    with pytest.raises(TableTakenOver):  # what a service drops a table for, StaleTable is one
        await a.finish_game(replace(stale, snapshot_json='{"n": 2}'), result([1, 2], [1, 2]))

    stored = await a.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"n": 3}' and stored.saves == 3
    assert [x.payload["n"] for x in await a.actions(table.id)] == [1, 2, 3]
    assert await a.game_for_table(table.id) is None
    # Read again from the store, the table saves again.
    loaded = await a.claim_tables(SHARDS, [0], LEASE, validate=lambda t: None)
    fresh = loaded.ok[0]
    await a.save_table(replace(fresh, snapshot_json='{"n": 4}'), Action("bid", payload={"n": 4}))
    assert [x.payload["n"] for x in await a.actions(table.id)] == [1, 2, 3, 4]


async def test_two_saves_from_one_copy_land_once(stores: tuple[Store, Store]) -> None:
    """Two writers racing from the same copy (the same save counter): the first lands, the second
    is refused, on either driver, also when both are in flight together."""
    a, _ = stores
    table = await open_table(a, GUILD_0, 1)
    first, second = await asyncio.gather(
        a.save_table(replace(table, snapshot_json='{"by": 1}'), Action("bid")),
        a.save_table(replace(table, snapshot_json='{"by": 2}'), Action("bid")),
        return_exceptions=True,
    )
    assert isinstance(first, int) and isinstance(second, StaleTable)
    stored = await a.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"by": 1}' and stored.saves == 1
    assert len(await a.actions(table.id)) == 1


async def test_only_the_driving_process_may_set_a_table_aside(
    stores: tuple[Store, Store], clock: SharedClock, database: str
) -> None:
    """b read a table while a drove it; what b read is a moment old (a move landed meanwhile),
    so b's judgement that the table is damaged must not end a's game."""
    a, b = stores
    await a.renew_lease([0])
    table = await open_table(a, GUILD_0, 1)
    with pytest.raises(TableTakenOver):
        await b.mark_broken(table.id, "the action log does not replay to the saved game")
    stored = await a.get_table(table.id)
    assert stored is not None and stored.is_open
    await a.mark_broken(table.id, "damaged")
    async with await Store.open(database, clock=clock) as admin:  # no owner: any table
        other = await open_table(b, GUILD_1, 2)
        await admin.mark_broken(other.id, "damaged")
        assert (await admin.get_table(other.id)) is not None
        assert not (await admin.get_table(other.id)).is_open  # type: ignore[union-attr]


async def test_a_log_is_read_with_the_copy_it_led_to(stores: tuple[Store, Store]) -> None:
    """Resuming judges a table's snapshot against its log: a log read after the table moved on
    (a save landed between the two reads) is refused, not compared with the older snapshot."""
    a, _ = stores
    table = await open_table(a, GUILD_0, 1)
    await a.save_table(replace(table, snapshot_json='{"n": 1}'), Action("bid", payload={"n": 1}))
    read = await a.get_table(table.id)
    assert read is not None and len(await a.actions_of(read)) == 1
    await a.save_table(replace(read, snapshot_json='{"n": 2}'), Action("bid", payload={"n": 2}))
    with pytest.raises(StaleTable):
        await a.actions_of(read)
    fresh = await a.get_table(table.id)
    assert fresh is not None and [x.payload["n"] for x in await a.actions_of(fresh)] == [1, 2]
