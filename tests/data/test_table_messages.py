"""The messages a table keeps on Discord, in rows of their own (migration 0014), on every
driver: kept and replaced per table and person, written only for an open table by the process
that drives it, dropped once the table closed."""

from __future__ import annotations

from dataclasses import replace

from data import TABLE_MESSAGE, Action, KeptMessage, Seat, Store, TableStatus

from .conftest import new_table


async def test_rows_are_kept_replaced_and_read_by_table(store: Store) -> None:
    table, other = await new_table(store, channel_id=100), await new_table(store, channel_id=101)
    assert await store.kept_messages(table.id) == []
    channel = KeptMessage(table.id, TABLE_MESSAGE, 500, channel_id=100)
    ann = KeptMessage(table.id, 11, 700, channel_id=800, hand_number=1)
    await store.keep_messages([channel, ann, KeptMessage(other.id, TABLE_MESSAGE, 501, 101)])
    assert await store.kept_messages(table.id) == [channel, ann]
    # the next hand's message replaces the person's row; closed DMs are a row too
    ann_next = replace(ann, message_id=701, hand_number=2)
    bob = KeptMessage(table.id, 12, None, dm_failed=True)
    await store.keep_messages([ann_next, bob])
    assert await store.kept_messages(table.id) == [channel, ann_next, bob]
    assert await store.kept_messages_of([table.id, other.id, 999]) == {
        table.id: [channel, ann_next, bob],
        other.id: [KeptMessage(other.id, TABLE_MESSAGE, 501, 101)],
    }
    # a Discord id needs 64 bits
    big = KeptMessage(table.id, (1 << 62) + 3, (1 << 62) + 5, (1 << 62) + 7, 3)
    await store.keep_messages([big])
    assert big in await store.kept_messages(table.id)


async def test_a_closed_table_gets_no_rows_and_loses_its_own(store: Store) -> None:
    table = await new_table(store)
    kept = KeptMessage(table.id, TABLE_MESSAGE, 500, channel_id=100)
    await store.keep_messages([kept])
    await store.keep_messages([], closed_tables=[table.id])  # still open: nothing goes
    assert await store.kept_messages(table.id) == [kept]
    await store.save_table(replace(table, status=TableStatus.CANCELLED), Action("end"))
    await store.keep_messages([replace(kept, message_id=501)])  # a late id: not written
    assert await store.kept_messages(table.id) == [kept]
    await store.keep_messages([], closed_tables=[table.id])
    assert await store.kept_messages(table.id) == []
    await store.keep_messages([KeptMessage(999, TABLE_MESSAGE, 1)])  # no such table
    assert await store.kept_messages(999) == []


async def test_only_the_process_driving_a_table_writes_its_rows(database: str) -> None:
    first = await Store.open(database, owner="process-a")
    second = await Store.open(database, owner="process-b")
    try:
        table = await first.create_table(
            guild_id=1, channel_id=100, host_id=11, rules_json='{"name": "classic"}',
            seats=[Seat("Ann", user_id=11)])
        mine = KeptMessage(table.id, TABLE_MESSAGE, 500, channel_id=100)
        await first.keep_messages([mine])
        # b lost the table (or never had it): whatever it keeps is not written
        await second.keep_messages([replace(mine, message_id=666),
                                    KeptMessage(table.id, 11, 667, 800, 1)])
        assert await second.kept_messages(table.id) == [mine]
    finally:
        await first.close()
        await second.close()
