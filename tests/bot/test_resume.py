"""A restart resumes every table where it stood: a new service on the same database file."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.events import GameOver, TimedOut, TurnResumed
from bot.models import TableOptions, TableStatus
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store, connection
from data.connection import migrations
from engine import Play
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, HOST
from tests.bot.helpers import is_open, move, start_game

CONFIG = ServiceConfig(default_turn_timeout=60, computer_delay=0)


async def _restart(
    old: TableService, old_store: Store, path: Path, clock: ManualClock
) -> tuple[TableService, Store, RecordingPresenter]:
    await old.close()
    await old_store.close()
    store = await Store.open(path)
    presenter = RecordingPresenter()
    service = TableService(store, presenter, config=CONFIG, clock=clock)
    return service, store, presenter


async def test_restart_mid_hand_resumes_where_it_stood(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    view = await start_game(service, computers=2, max_cards=3, turn_timeout=60)
    tid = view.table_id
    for _ in range(3):
        await move(service, tid, HOST)
        await service.wait_idle()
    before = service.directory.table(tid)
    hand = service.directory.hand_view(tid, HOST)
    assert before.state is not None and before.state.phase.value == "playing"

    service, store, presenter = await _restart(service, store, db_path, clock)
    try:
        report = await service.resume_all()
        assert report.resumed == [tid] and report.broken == []
        after = service.directory.table(tid)
        assert after == before
        assert service.directory.hand_view(tid, HOST) == hand
        # resuming says nothing but whose turn goes on, and since when (for its nudge)
        resumed = presenter.events(tid)
        assert resumed == [TurnResumed(seats=before.state.actor_seats, awaits=Play,
                                       hand_number=before.hand_number or 0,
                                       began=before.deadline - timedelta(seconds=60))]
        while is_open(service, tid):
            await move(service, tid, HOST)
            await service.wait_idle()
        assert isinstance(presenter.events(tid)[-1], GameOver)
    finally:
        await service.close()
        await store.close()


async def test_restart_resumes_pending_computer_moves(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    slow = ServiceConfig(default_turn_timeout=0, computer_delay=5)
    service = TableService(store, RecordingPresenter(), config=slow, clock=clock)
    view = await service.open_table(
        GUILD, CHANNEL, HOST, "Host", TableOptions(computers=2, seed=4, max_cards=2)
    )
    await service.deal(view.table_id, HOST)
    await service.wait_idle()
    tid = view.table_id
    state = service.directory.table(tid).state
    assert state is not None
    if state.actor_seats == (0,):  # make the host move so computers are awaited
        await move(service, tid, HOST)
        await service.wait_idle()
    state = service.directory.table(tid).state
    assert state is not None and 0 not in state.actor_seats  # the computers sleep their delay

    service, store, presenter = await _restart(service, store, db_path, clock)
    try:
        await service.resume_all()
        await service.wait_idle()
        state = service.directory.table(tid).state
        assert state is not None and state.actor_seats == (0,)
        assert presenter.events(tid)  # their moves were published after the restart
    finally:
        await service.close()
        await store.close()


async def test_timers_survive_a_restart(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    view = await start_game(service, computers=2, turn_timeout=60)
    tid = view.table_id
    deadline = view.deadline
    assert deadline == clock.now() + timedelta(seconds=60)
    await clock.advance(40)  # past the warning
    await service.wait_idle()

    service, store, presenter = await _restart(service, store, db_path, clock)
    try:
        await service.resume_all()
        resumed = service.directory.table(tid)
        assert resumed.deadline == deadline and resumed.warned
        await clock.advance(20)
        await service.wait_idle()
        assert TimedOut(seat=0, timeouts_in_row=1) in presenter.events(tid)
    finally:
        await service.close()
        await store.close()


async def test_lobby_resumes_with_its_options(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    options = TableOptions(preset="oh_pshaw", computers=1, computer_level="easy", turn_timeout=30)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    service.directory.set_dm_failed(tid, ALICE)
    await service.wait_idle()

    service, store, _presenter = await _restart(service, store, db_path, clock)
    try:
        await service.resume_all()
        view = service.directory.table_for_channel(CHANNEL)
        assert view.status is TableStatus.LOBBY and view.options == options
        assert [s.name for s in view.seats] == ["Host", "Bot 1", "Alice"]
        assert view.seats[2].dm_failed
        view = await service.deal(tid, HOST)
        assert view.rules is not None and view.rules.name == "oh_pshaw"
    finally:
        await service.close()
        await store.close()


async def test_broken_table_is_reported_and_skipped(db_path: Path, clock: ManualClock) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    good = await start_game(service, computers=2, channel=CHANNEL)
    bad = await start_game(service, computers=2, channel=CHANNEL + 1)
    record = await store.get_table(bad.table_id)
    assert record is not None
    await store.save_table(replace(record, snapshot_json='{"version": 1, "oops": true}'))

    service, store, _presenter = await _restart(service, store, db_path, clock)
    try:
        report = await service.resume_all()
        assert report.resumed == [good.table_id]
        assert [table_id for table_id, _ in report.broken] == [bad.table_id]
        assert service.directory.find_table(CHANNEL + 1) is None
        assert service.directory.table(good.table_id).state == good.state
    finally:
        await service.close()
        await store.close()


async def test_restart_reads_options_and_dm_failures_from_meta(
    db_path: Path, clock: ManualClock
) -> None:
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    options = TableOptions(preset="oh_pshaw", computers=1, computer_level="easy",
                           turn_timeout=30, seed=3)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    service.directory.set_dm_failed(tid, ALICE)
    await service.wait_idle()
    record = await store.get_table(tid)
    assert record is not None  # the closed DMs are in their row (0014), not yet in the meta
    assert record.meta == {"options": options.model_dump(mode="json"), "dm_failed_seats": [],
                           "replaced_user_ids": {}}
    await service.join(tid, BOB, "Bob")  # a save of the table: its meta says it from now on
    record = await store.get_table(tid)
    assert record is not None and record.meta["dm_failed_seats"] == [2]

    service, store, _presenter = await _restart(service, store, db_path, clock)
    try:
        report = await service.resume_all()
        assert report.resumed == [tid]
        view = service.directory.table(tid)
        assert view.options == options
        assert [s.dm_failed for s in view.seats] == [False, False, True, False]
        await service.deal(tid, HOST)
        view = service.directory.table(tid)
        assert view.rules is not None and view.rules.name == "oh_pshaw"
        assert view.seats[2].dm_failed
    finally:
        await service.close()
        await store.close()


async def test_a_game_stored_before_meta_resumes_whole_after_migrating(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stored by a release before migration 0003 (no meta in its row) is resumed, once
    the database is migrated, with the host's options, the closed DMs and the person a computer
    replaced, all as they were: migration 0013 read them from the action log."""
    played = tmp_path / "played.sqlite3"
    store = await Store.open(played)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    options = TableOptions(preset="oh_pshaw", computers=1, computer_level="easy",
                           turn_timeout=30, seed=5, max_cards=3)
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, BOB, "Bob")
    await service.leave(tid, BOB)  # in the lobby: the seat goes, nobody is replaced
    await service.join(tid, ALICE, "Alice")
    await service.join(tid, BOB, "Bob")
    service.directory.set_dm_failed(tid, BOB)
    await service.deal(tid, HOST)
    await service.leave(tid, ALICE)
    await service.wait_idle()
    before = service.directory.table(tid)
    assert [(s.replaced_user_id, s.dm_failed) for s in before.seats] == [
        (None, False), (None, False), (ALICE, False), (None, True)]
    await service.close()
    await store.close()

    old = tmp_path / "old.sqlite3"  # the same rows, in a database at version 2
    shipped = migrations()
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped[:2])
    await (await Store.open(old)).close()
    tables = ("id, guild_id, channel_id, message_id, host_id, status, rules_json, snapshot_json,"
              " seats_json, turn_deadline, broken_reason, saves, created_at, updated_at")
    actions = "id, table_id, seat, user_id, action, payload_json, at"
    with sqlite3.connect(played) as source, sqlite3.connect(old) as target:
        for columns, name in ((tables, "game_tables"), (actions, "action_log")):
            rows = source.execute(f"SELECT {columns} FROM {name}").fetchall()
            marks = ", ".join("?" * len(rows[0]))
            target.executemany(f"INSERT INTO {name} ({columns}) VALUES ({marks})", rows)
        # that release logged a closed DM as an action (0014 keeps it in a message row)
        target.execute("INSERT INTO action_log (table_id, action, payload_json, at)"
                       " VALUES (?, 'dm_failed', ?, 1)", (tid, json.dumps({"user_id": BOB})))
    monkeypatch.setattr(connection, "migrations", lambda dialect="sqlite": shipped)

    store = await Store.open(old)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    try:
        report = await service.resume_all()
        assert report.resumed == [tid] and report.broken == []
        after = service.directory.table(tid)
        assert after == before
        assert after.options == options and after.rules is not None
        assert after.rules.name == "oh_pshaw"
    finally:
        await service.close()
        await store.close()


async def test_restart_keeps_who_a_computer_replaced(db_path: Path, clock: ManualClock) -> None:
    """The seat a computer took from a person who left still says whose it was."""
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    options = TableOptions(computers=1, seed=5, max_cards=3, computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.join(tid, ALICE, "Alice")
    await service.deal(tid, HOST)
    await service.leave(tid, ALICE)
    await service.wait_idle()
    before = service.directory.table(tid)
    assert before.seats[2].replaced_user_id == ALICE and before.seats[2].user_id is None

    service, store, _presenter = await _restart(service, store, db_path, clock)
    try:
        await service.resume_all()
        after = service.directory.table(tid)
        assert after.seats[2].replaced_user_id == ALICE
        assert after == before
    finally:
        await service.close()
        await store.close()


async def test_a_snapshot_saved_before_hands_kept_their_play_still_resumes(
    db_path: Path, clock: ManualClock
) -> None:
    """Scoresheet records gained `leaders` and `plays`; a game saved by the release before has
    neither, and must resume, not be set aside as broken. A record that differs otherwise is
    still refused."""
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    game = await start_game(service, computers=2, max_cards=3, turn_timeout=60)
    other = await start_game(service, computers=2, max_cards=3, turn_timeout=60,
                             channel=CHANNEL + 1)
    for view in (game, other):
        while not service.directory.table(view.table_id).state.scoresheet:  # type: ignore[union-attr]
            await move(service, view.table_id, HOST)
            await service.wait_idle()
    for view, damage in ((game, False), (other, True)):
        record = await store.get_table(view.table_id)
        assert record is not None and record.snapshot_json is not None
        data = json.loads(record.snapshot_json)
        for hand in data["scoresheet"]:
            assert hand.pop("plays") and hand.pop("leaders")  # as the release before saved it
            if damage:
                hand["points"][0] += 1
        await store.save_table(replace(record, snapshot_json=json.dumps(data)))
    before = service.directory.table(game.table_id)

    service, store, _presenter = await _restart(service, store, db_path, clock)
    try:
        report = await service.resume_all()
        assert report.resumed == [game.table_id]
        assert [table_id for table_id, _ in report.broken] == [other.table_id]
        assert service.directory.table(game.table_id).state == before.state
        while is_open(service, game.table_id):
            await move(service, game.table_id, HOST)
            await service.wait_idle()
        finished = await store.get_table(game.table_id)
        assert finished is not None and finished.status.value == "finished"
        assert [len(hand["plays"]) for hand in json.loads(finished.snapshot_json or "")[
            "scoresheet"]] == [9, 6, 3, 6, 9]  # every hand's play, the first from the log
    finally:
        await service.close()
        await store.close()


async def test_message_ids_noted_after_the_last_move_survive_a_kill(
    db_path: Path, clock: ManualClock
) -> None:
    """The presenter notes the table message and a DM hand message after the last move, and
    the process dies before anything else happens: the restarted bot still knows both (their
    rows, migration 0014), so it edits those messages instead of posting new ones."""
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    view = await start_game(service, computers=2, max_cards=3, turn_timeout=60)
    tid = view.table_id
    await move(service, tid, HOST)
    await service.wait_idle()
    saves = service.directory.table(tid).saves
    service.directory.set_table_message(tid, 5555)
    service.directory.set_dm_message(tid, HOST, view.hand_number or 1, 7777, channel_id=8888)
    await service.wait_idle()  # the rows are written; no move follows, the table row is as was
    assert service.directory.table(tid).saves == saves
    # killed: neither the service nor the store is closed; a new process opens the file
    restarted = await Store.open(db_path)
    again = TableService(restarted, RecordingPresenter(), config=CONFIG, clock=clock)
    try:
        assert (await again.resume_all()).resumed == [tid]
        resumed = again.directory.table(tid)
        assert resumed.message_id == 5555
        assert (resumed.seats[0].dm_message_id, resumed.seats[0].dm_channel_id) == (7777, 8888)
        assert resumed.seats[0].dm_hand_number == view.hand_number
        assert resumed.saves == saves
    finally:
        await again.close()
        await restarted.close()
        await service.close()  # the dead process's objects, after the fact
        await store.close()


async def test_an_upgrade_to_message_rows_keeps_the_live_tables_messages(
    db_path: Path, clock: ManualClock
) -> None:
    """A database at 0013 (message ids only in the table row) holding a game in play is
    upgraded: the restarted bot edits the same table message and DM hand message."""
    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    view = await start_game(service, computers=2, max_cards=3, turn_timeout=60)
    tid = view.table_id
    service.directory.set_table_message(tid, 5555)
    service.directory.set_dm_message(tid, HOST, view.hand_number or 1, 7777, channel_id=8888)
    await move(service, tid, HOST)  # a save of the table: its row holds the ids, as 0013 had
    await service.wait_idle()
    before = service.directory.table(tid)
    await service.close()
    await store.close()
    with sqlite3.connect(db_path) as db:  # back to version 13: no message rows
        db.execute("DROP TABLE table_messages")
        db.execute("DROP TABLE wal_restarts")  # 0015's
        db.execute("DELETE FROM schema_version WHERE version >= 14")

    store = await Store.open(db_path)
    service = TableService(store, RecordingPresenter(), config=CONFIG, clock=clock)
    try:
        assert [k.message_id for k in await store.kept_messages(tid)] == [5555, 7777]
        await service.resume_all()
        after = service.directory.table(tid)
        assert after == before
        assert after.message_id == 5555 and after.seats[0].dm_message_id == 7777
    finally:
        await service.close()
        await store.close()
