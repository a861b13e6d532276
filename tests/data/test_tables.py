"""Tables in progress: saving with the action log, reading back, resuming and refusals."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import threading
from dataclasses import replace

import pytest

from data import (
    Action,
    ChannelBusy,
    GuildSettings,
    Seat,
    StaleTable,
    Store,
    StoreError,
    TableNotFound,
    TableRecord,
    TableStatus,
)

from .conftest import INTEGRITY_ERRORS, RULES_JSON, new_table, raw_write


async def test_create_table_returns_the_stored_lobby(store: Store) -> None:
    table = await new_table(store)
    assert table.id > 0
    assert table.status is TableStatus.LOBBY
    assert table.is_open
    assert [seat.name for seat in table.seats] == ["Ann", "Bob", "Computer"]
    assert table.seats[2].is_computer and not table.seats[0].is_computer
    assert table.snapshot_json is None
    assert await store.get_table(table.id) == table


async def test_save_table_stores_everything_and_logs_the_action(store: Store) -> None:
    table = await new_table(store)
    seats = tuple(
        replace(seat, hand_message_id=900 + i, dm_channel_id=800 + i, timeouts=i)
        for i, seat in enumerate(table.seats)
    )
    saved = replace(
        table,
        status=TableStatus.PLAYING,
        message_id=555,
        snapshot_json='{"hand": 1}',
        turn_deadline=1_700_000_123.5,
        seats=seats,
    )
    action_id = await store.save_table(
        saved, Action("bid", seat=0, user_id=11, payload={"bid": 2})
    )
    assert action_id is not None
    stored = await store.get_table(table.id)
    assert stored is not None
    assert stored.status is TableStatus.PLAYING
    assert stored.message_id == 555
    assert stored.snapshot_json == '{"hand": 1}'
    assert stored.turn_deadline == 1_700_000_123.5
    assert stored.seats == seats
    assert stored.saves == 1
    assert stored.updated_at > table.updated_at
    [logged] = await store.actions(table.id)
    assert (logged.id, logged.action, logged.seat, logged.user_id) == (action_id, "bid", 0, 11)
    assert logged.payload == {"bid": 2}


async def test_seats_can_change_and_shrink(store: Store) -> None:
    table = await new_table(store)
    await store.save_table(replace(table, seats=table.seats[:1]), Action("leave", seat=1))
    stored = await store.get_table(table.id)
    assert stored is not None and [s.name for s in stored.seats] == ["Ann"]
    kicked = (replace(table.seats[0], computer_level="hard"), *table.seats[1:])
    await store.save_table(replace(table, seats=kicked, saves=1))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.seats[0].is_computer and stored.seats[0].user_id == 11


async def test_action_log_reads_back_in_order_and_pages(store: Store) -> None:
    table = await new_table(store)
    ids = [
        await store.save_table(
            replace(table, saves=i), Action("play", seat=i % 3, payload={"card": f"{i + 2}H"})
        )
        for i in range(5)
    ]
    log = await store.actions(table.id)
    assert [entry.id for entry in log] == ids
    assert [entry.payload["card"] for entry in log] == ["2H", "3H", "4H", "5H", "6H"]
    assert [entry.id for entry in await store.actions(table.id, after_id=ids[2])] == ids[3:]
    assert await store.actions(99_999) == []


async def test_action_log_is_append_only(store: Store) -> None:
    table = await new_table(store)
    await store.save_table(table, Action("deal"))
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await raw_write(store, "UPDATE action_log SET action = 'forged'")
    assert [a.action for a in await store.actions(table.id)] == ["deal"]


async def test_one_open_table_per_channel(store: Store) -> None:
    first = await new_table(store, channel_id=7)
    with pytest.raises(ChannelBusy):
        await new_table(store, channel_id=7)
    await store.save_table(replace(first, status=TableStatus.CANCELLED), Action("cancel"))
    second = await new_table(store, channel_id=7)
    assert second.id != first.id


async def test_closed_table_is_never_reopened_by_a_late_save(store: Store) -> None:
    table = await new_table(store)
    await store.save_table(replace(table, status=TableStatus.CANCELLED), Action("cancel"))
    with pytest.raises(StoreError, match="cancelled"):
        await store.save_table(replace(table, status=TableStatus.PLAYING), Action("bid"))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.CANCELLED
    assert [a.action for a in await store.actions(table.id)] == ["cancel"]


async def test_unknown_table_is_a_clear_error(store: Store) -> None:
    ghost = TableRecord(
        id=4242, guild_id=1, channel_id=1, host_id=1, status=TableStatus.PLAYING,
        rules_json=RULES_JSON, seats=(),
    )
    with pytest.raises(TableNotFound):
        await store.save_table(ghost, Action("bid"))
    with pytest.raises(TableNotFound):
        await store.mark_broken(4242, "gone")
    assert await store.get_table(4242) is None


async def test_failed_save_changes_nothing(store: Store) -> None:
    table = await new_table(store)
    await store.save_table(replace(table, snapshot_json='{"v": 1}'), Action("deal"))
    # A payload JSON cannot hold fails after the table's UPDATE ran, inside the transaction.
    bad = replace(table, snapshot_json='{"v": 2}', seats=table.seats[:1], saves=1)
    with pytest.raises(TypeError):
        await store.save_table(bad, Action("bid", payload={"when": object()}))
    # A seat that is neither human nor computer is refused before anything is written.
    with pytest.raises(StoreError, match="neither a user nor a computer"):
        await store.save_table(replace(bad, seats=(Seat("nobody"),)), Action("bid"))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"v": 1}'
    assert stored.seats == table.seats
    assert [a.action for a in await store.actions(table.id)] == ["deal"]
    # The rolled-back transaction left the write connection ready for the next one.
    await store.save_table(replace(table, snapshot_json='{"v": 3}', saves=1), Action("bid"))
    stored = await store.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"v": 3}' and stored.saves == 2
    assert [a.action for a in await store.actions(table.id)] == ["deal", "bid"]


async def test_load_active_tables_skips_closed_ones(store: Store) -> None:
    lobby = await new_table(store, channel_id=1)
    playing = await new_table(store, channel_id=2)
    await store.save_table(replace(playing, status=TableStatus.PLAYING, snapshot_json="{}"))
    done = await new_table(store, channel_id=3)
    await store.save_table(replace(done, status=TableStatus.CANCELLED))
    loaded = await store.load_active_tables(validate=lambda table: None)
    assert [t.id for t in loaded.ok] == [lobby.id, playing.id]
    assert loaded.broken == []


def json_validator(table: TableRecord) -> None:
    """A stand-in for the engine check: the snapshot must be JSON naming a known preset."""
    rules = json.loads(table.rules_json)
    if rules.get("name") not in ("classic", "oh_pshaw"):
        raise ValueError(f"unknown rules preset {rules.get('name')!r}")
    if table.snapshot_json is not None:
        json.loads(table.snapshot_json)


async def test_damaged_tables_are_marked_broken_and_the_rest_load(store: Store) -> None:
    good = await new_table(store, channel_id=1)
    await store.save_table(replace(good, status=TableStatus.PLAYING, snapshot_json='{"ok": 1}'))
    bad_json = await new_table(store, channel_id=2)
    await store.save_table(replace(bad_json, status=TableStatus.PLAYING, snapshot_json='{"tru'))
    bad_rules = await new_table(store, channel_id=3)
    await store.save_table(
        replace(bad_rules, rules_json='{"name": "forgotten_variant"}', snapshot_json="{}")
    )
    lobby = await new_table(store, channel_id=4)

    loaded = await store.load_active_tables(validate=json_validator)

    assert [t.id for t in loaded.ok] == [good.id, lobby.id]
    reasons = {b.table.id: b.reason for b in loaded.broken}
    assert set(reasons) == {bad_json.id, bad_rules.id}
    assert "JSONDecodeError" in reasons[bad_json.id]
    assert "forgotten_variant" in reasons[bad_rules.id]
    for broken in loaded.broken:
        stored = await store.get_table(broken.table.id)
        assert stored is not None
        assert stored.status is TableStatus.BROKEN
        assert stored.broken_reason == broken.reason
    # Broken tables stay out of the next start-up, and free their channel.
    again = await store.load_active_tables(validate=json_validator)
    assert [t.id for t in again.ok] == [good.id, lobby.id] and again.broken == []
    await new_table(store, channel_id=2)


async def test_unreadable_seats_mark_a_table_broken(store: Store) -> None:
    good = await new_table(store, channel_id=1)
    bad = await new_table(store, channel_id=2)
    await raw_write(
        store,
        "UPDATE game_tables SET seats_json = '[{\"name\": \"x\", \"wormhole\": 1}]'"
        " WHERE id = ?",
        bad.id,
    )
    loaded = await store.load_active_tables(validate=lambda table: None)
    assert [t.id for t in loaded.ok] == [good.id]
    [broken] = loaded.broken
    assert broken.table.id == bad.id and broken.table.seats == ()
    assert broken.table.status is TableStatus.BROKEN and "wormhole" in broken.reason


async def test_a_missing_engine_is_not_a_damaged_table(store: Store) -> None:
    await new_table(store)

    def no_engine(table: TableRecord) -> None:
        raise ImportError("engine is not installed")

    with pytest.raises(ImportError):
        await store.load_active_tables(validate=no_engine)
    assert len((await store.load_active_tables(validate=lambda t: None)).ok) == 1


async def test_concurrent_writers_never_interleave(store: Store) -> None:
    """Many tables save at once; one save fails mid-transaction; every other save lands whole."""
    tables = [await new_table(store, channel_id=1000 + i) for i in range(20)]
    rounds = 15

    async def play(table: TableRecord) -> None:
        for n in range(1, rounds + 1):
            snapshot = json.dumps({"table": table.id, "n": n, "pad": "x" * 500})
            await store.save_table(
                replace(table, status=TableStatus.PLAYING, snapshot_json=snapshot, saves=n - 1),
                Action("play", seat=n % 3, payload={"n": n}),
            )
            await asyncio.sleep(0)

    async def sabotage(table: TableRecord) -> None:
        for _ in range(rounds):
            with pytest.raises(TypeError):
                await store.save_table(
                    replace(table, snapshot_json='{"sabotage": true}', seats=table.seats[:1]),
                    Action("sabotage", payload={"bad": object()}),
                )
            await asyncio.sleep(0)

    seen = 0
    writers_done = asyncio.Event()

    async def read_while_writing() -> None:
        """A reader only ever sees whole transactions: saves and logged actions agree."""
        nonlocal seen
        while True:
            finished = writers_done.is_set()
            rows = await store._read(
                "SELECT t.saves, (SELECT COUNT(*) FROM action_log a WHERE a.table_id = t.id)"
                " FROM game_tables t"
            )
            for saves, logged in rows:
                assert saves == logged
                seen += saves
            if finished:
                return
            await asyncio.sleep(0)

    async def write_all() -> None:
        await asyncio.gather(*(play(t) for t in tables), sabotage(victim))
        writers_done.set()

    victim = await new_table(store, channel_id=999)
    await asyncio.gather(write_all(), read_while_writing(), read_while_writing())
    assert seen >= len(tables) * rounds

    for table in tables:
        stored = await store.get_table(table.id)
        assert stored is not None
        assert stored.saves == rounds
        assert json.loads(stored.snapshot_json or "")["n"] == rounds
        log = await store.actions(table.id)
        assert [a.payload["n"] for a in log] == list(range(1, rounds + 1))
    stored_victim = await store.get_table(victim.id)
    assert stored_victim is not None and stored_victim.saves == 0
    assert stored_victim.snapshot_json is None and stored_victim.seats == victim.seats
    assert await store.actions(victim.id) == []


async def test_a_cancelled_caller_cannot_leave_half_a_transaction(store: Store) -> None:
    table = await new_table(store)
    tasks = [
        asyncio.create_task(
            store.save_table(replace(table, snapshot_json=json.dumps({"n": n})), Action("p"))
        )
        for n in range(30)
    ]
    await asyncio.sleep(0)
    for task in tasks[::2]:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # Writes that started run to the end; wait for the write queue to drain.
    await drained(store)
    stored = await store.get_table(table.id)
    assert stored is not None
    assert stored.saves == len(await store.actions(table.id))


async def drained(store: Store) -> None:
    """Wait until every write requested before has ended (it queues behind them)."""
    await store._driver.exclusive(_nothing)


async def _nothing(session: object) -> None:
    return None


def hold_the_writer(store: Store) -> asyncio.Event:
    """Keep the write path busy until the returned event is set, so that the writes requested
    meanwhile are all waiting in its queue at once."""
    gate = asyncio.Event()

    async def hold(session: object) -> None:
        await gate.wait()

    _held.append(asyncio.ensure_future(store._driver.exclusive(hold)))
    return gate


_held: list[asyncio.Future[None]] = []


async def test_a_write_whose_caller_is_cancelled_still_commits(store: Store) -> None:
    table = await new_table(store)
    gate = hold_the_writer(store)
    saving = asyncio.create_task(
        store.save_table(replace(table, snapshot_json='{"n": 1}'), Action("bid", seat=0))
    )
    await asyncio.sleep(0)  # the save is requested: it waits behind the held writer
    saving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await saving
    gate.set()
    await drained(store)
    stored = await store.get_table(table.id)
    assert stored is not None and stored.snapshot_json == '{"n": 1}' and stored.saves == 1
    assert [a.action for a in await store.actions(table.id)] == ["bid"]


async def test_a_failed_write_whose_caller_is_gone_is_logged(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    table = await new_table(store)
    await store.save_table(replace(table, status=TableStatus.CANCELLED), Action("cancel"))
    gate = hold_the_writer(store)
    saving = asyncio.create_task(
        store.save_table(replace(table, snapshot_json="{}"), Action("bid"))
    )
    await asyncio.sleep(0)
    saving.cancel()
    gate.set()
    await drained(store)
    assert "caller was cancelled" in caplog.text and "table is not open" in caplog.text
    stored = await store.get_table(table.id)
    assert stored is not None and stored.saves == 1 and stored.snapshot_json is None
    assert [a.action for a in await store.actions(table.id)] == ["cancel"]


async def test_writes_land_in_the_order_they_were_requested(store: Store) -> None:
    table = await new_table(store)
    gate = hold_the_writer(store)
    saves = [
        asyncio.create_task(
            store.save_table(replace(table, saves=n), Action("play", payload={"n": n}))
        )
        for n in range(40)
    ]
    await asyncio.sleep(0)  # all 40 are queued behind the held writer
    gate.set()
    ids = await asyncio.gather(*saves)
    log = await store.actions(table.id)
    assert [entry.payload["n"] for entry in log] == list(range(40))
    assert [entry.id for entry in log] == ids


async def test_close_waits_for_the_writes_requested_before_it(database: str) -> None:
    store = await Store.open(database)
    table = await new_table(store)
    gate = hold_the_writer(store)
    saves = [
        asyncio.create_task(
            store.save_table(replace(table, saves=n), Action("play", payload={"n": n}))
        )
        for n in range(5)
    ]
    await asyncio.sleep(0)
    closing = asyncio.create_task(store.close())
    await asyncio.sleep(0)
    with pytest.raises(StoreError, match="closed"):
        await store.save_table(table, Action("too late"))
    assert not closing.done()
    gate.set()
    await closing
    async with await Store.open(database) as again:
        assert [a.action for a in await again.actions(table.id)] == ["play"] * 5
    assert all(isinstance(action_id, int) for action_id in await asyncio.gather(*saves))


async def test_a_closed_store_says_so(database: str) -> None:
    store = await Store.open(database)
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.get_table(1)
    with pytest.raises(StoreError, match="closed"):
        await store.save_settings(GuildSettings(1))


async def test_meta_is_saved_and_read_back_whole(store: Store) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=100, host_id=11, rules_json=RULES_JSON,
        seats=[Seat("Ann", user_id=11)], meta={"options": {"preset": "classic"}},
    )
    assert table.meta == {"options": {"preset": "classic"}}
    assert (await store.get_table(table.id)) == table
    meta = {"options": {"preset": "oh_pshaw"}, "dm_failed_seats": [0]}
    await store.save_table(replace(table, meta=meta), Action("dm_failed", seat=0))
    [loaded] = (await store.load_active_tables()).ok
    assert loaded.meta == meta
    plain = await new_table(store, channel_id=101)
    assert plain.meta == {}


async def test_meta_must_be_a_json_object(store: Store) -> None:
    table = await new_table(store)
    with pytest.raises(StoreError, match="mapping"):
        await store.save_table(replace(table, meta=[1, 2]))  # type: ignore[arg-type]
    with pytest.raises(INTEGRITY_ERRORS):
        await raw_write(store, "UPDATE game_tables SET meta_json = '[1]' WHERE id = ?", table.id)
    assert (await store.get_table(table.id)) == table


async def test_a_save_already_handed_to_sqlite_lands_when_its_caller_is_cancelled(
    db_path: object,
) -> None:
    """SQLite's fast path: a save joins the writer's next group before its caller suspends.
    Its caller cancelled while it waits there, it still commits, after the writes before it."""
    store = await Store.open(str(db_path))
    try:
        table = await new_table(store)
        gate = threading.Event()
        writer = store._driver._writer.connection  # type: ignore[attr-defined]
        await writer.create_function("hold", 0, lambda: gate.wait(30))  # 30 s: a hang guard
        holding = asyncio.ensure_future(store._driver.exclusive(  # type: ignore[attr-defined]
            lambda session: session.fetch("SELECT hold()")))
        for _ in range(2):  # the hold's group started, its statement is on the writer's thread
            await asyncio.sleep(0)
        saving = asyncio.ensure_future(
            store.save_table(replace(table, snapshot_json='{"n": 1}'), Action("bid", seat=0))
        )
        await asyncio.sleep(0)  # the save is in the next group, behind the hold
        saving.cancel()
        gate.set()
        with pytest.raises(asyncio.CancelledError):
            await saving
        await holding
        await store._statement("SELECT 1")  # queued behind the save on the same connection:
        # once it answers, the save (whose caller is gone, so nobody can await it) has run
        stored = await store.get_table(table.id)
        assert stored is not None and stored.snapshot_json == '{"n": 1}' and stored.saves == 1
        assert [a.action for a in await store.actions(table.id)] == ["bid"]
    finally:
        await store.close()


async def test_saves_committed_together_land_or_fail_each_as_if_alone(db_path: object) -> None:
    """Saves requested while the writer is busy commit as one group (data/sqlite.py): one
    refused in the middle (a stale copy) fails alone and changes nothing, and the others land,
    each with its own state and its own logged action."""
    store = await Store.open(str(db_path))
    try:
        tables = [await new_table(store, channel_id=500 + i) for i in range(4)]
        await store.save_table(tables[2], Action("bid", seat=0))  # tables[2] is behind now
        gate = threading.Event()
        writer = store._driver._writer.connection  # type: ignore[attr-defined]
        await writer.create_function("hold", 0, lambda: gate.wait(30))  # 30 s: a hang guard
        traced: list[str] = []
        await writer.set_trace_callback(traced.append)
        held = asyncio.ensure_future(store._driver.exclusive(  # type: ignore[attr-defined]
            lambda session: session.fetch("SELECT hold()")))
        for _ in range(2):  # the hold's group started, its statement is on the writer's thread
            await asyncio.sleep(0)
        saving = [asyncio.ensure_future(store.save_table(
            replace(t, snapshot_json=f'{{"n": {i}}}'), Action("play", seat=1, payload={"i": i})))
            for i, t in enumerate(tables)]
        await asyncio.sleep(0)  # all four wait behind the held writer, in one group
        gate.set()
        await held
        outcomes = await asyncio.gather(*saving, return_exceptions=True)
        await writer.set_trace_callback(None)
        statements = [sql.split(" (")[0] for sql, _ in itertools.groupby(traced)]  # a trigger's
        assert statements == [  # steps are traced with their statement's text: one per run
            "SELECT hold()", "BEGIN IMMEDIATE", *["INSERT INTO table_saves"] * 4, "COMMIT"]
        assert isinstance(outcomes[2], StaleTable)
        for i, table in enumerate(tables):
            stored = await store.get_table(table.id)
            actions = await store.actions(table.id)
            assert stored is not None
            if i == 2:
                assert stored.snapshot_json == table.snapshot_json and stored.saves == 1
                assert [a.action for a in actions][-1] == "bid"
            else:
                assert stored.snapshot_json == f'{{"n": {i}}}' and stored.saves == 1
                assert actions[-1].action == "play" and actions[-1].payload == {"i": i}
                assert outcomes[i] == actions[-1].id
    finally:
        await store.close()


async def test_a_statement_that_ends_its_group_s_transaction_fails_alone(db_path: object) -> None:
    """A statement whose failure makes SQLite roll the group's whole transaction back (here ON
    CONFLICT ROLLBACK) fails alone: the saves before it, undone with it, run again and land, and
    the save after it (run outside the transaction) lands once."""
    store = await Store.open(str(db_path))
    try:
        tables = [await new_table(store, channel_id=600 + i) for i in range(2)]
        claim = "INSERT OR ROLLBACK INTO processes (owner, shards, renewed_at) VALUES ('p', '', 0)"
        await store._statement(claim)
        gate = threading.Event()
        writer = store._driver._writer.connection  # type: ignore[attr-defined]
        await writer.create_function("hold", 0, lambda: gate.wait(30))  # 30 s: a hang guard
        held = asyncio.ensure_future(store._driver.exclusive(  # type: ignore[attr-defined]
            lambda session: session.fetch("SELECT hold()")))
        for _ in range(2):  # the hold's group started, its statement is on the writer's thread
            await asyncio.sleep(0)
        first = asyncio.ensure_future(store.save_table(tables[0], Action("bid", seat=0)))
        again = asyncio.ensure_future(store._statement(claim))
        last = asyncio.ensure_future(store.save_table(tables[1], Action("bid", seat=1)))
        await asyncio.sleep(0)  # all three in the next group
        gate.set()
        await held
        with pytest.raises(sqlite3.IntegrityError):
            await again
        for table, saving in zip(tables, (first, last), strict=True):
            actions = await store.actions(table.id)
            assert await saving == actions[-1].id and [a.action for a in actions] == ["bid"]
            stored = await store.get_table(table.id)
            assert stored is not None and stored.saves == 1
    finally:
        await store.close()


async def test_save_returns_the_id_of_the_action_it_logged(store: Store) -> None:
    first = await new_table(store, channel_id=1)
    second = await new_table(store, channel_id=2)
    ids: dict[int, list[int | None]] = {first.id: [], second.id: []}
    saved = {first.id: 0, second.id: 0}
    for table in (first, second, first, second):
        copy = replace(table, saves=saved[table.id])
        ids[table.id].append(await store.save_table(copy, Action("play", payload={"t": table.id})))
        assert await store.save_table(replace(copy, saves=copy.saves + 1)) is None
        saved[table.id] += 2
    for table in (first, second):
        log = await store.actions(table.id)
        assert [entry.id for entry in log] == ids[table.id]
        assert all(entry.payload == {"t": table.id} for entry in log)
    assert ids[first.id][0] < ids[second.id][0] < ids[first.id][1] < ids[second.id][1]
