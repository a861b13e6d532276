"""A write that may have landed is reconciled with the store, never taken as failed (issue 11).

The store finishes a write whose caller was cancelled, and a connection can drop after a
commit: the service then reads the table's save counter back. Through the service and the
engine: the action log never holds a move twice and always replays to the stored snapshot.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.events import BidMade, CardPlayed, GameOver
from bot.moves import LOG_NAMES, replay
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store
from engine import Rules
from tests.bot.conftest import HOST
from tests.bot.helpers import is_open, move, start_game

MOVES = set(LOG_NAMES.values())


class LandingStore:
    """The real store with two faults: a save that lands and then raises (the connection
    dropped after the commit), and saves held at a gate that finish even when their caller is
    cancelled, and that `writes_settled` waits for (as the store promises)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.raise_after_next = False
        self.raise_after_finish = False
        self.hold_computers = False
        self.gate = asyncio.Event()
        self.held = asyncio.Event()
        self.holding: set[asyncio.Future[Any]] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def finish_game(self, *args: Any) -> Any:
        recorded = await self._store.finish_game(*args)
        if self.raise_after_finish:
            raise ConnectionResetError("connection reset after the commit")
        return recorded

    async def save_table(self, record: Any, action: Any = None) -> Any:
        if self.raise_after_next:
            self.raise_after_next = False
            await self._store.save_table(record, action)
            raise ConnectionResetError("connection reset after the commit")
        if self.hold_computers and action is not None and action.payload.get("by"):
            async def write() -> Any:
                self.held.set()
                await self.gate.wait()
                return await self._store.save_table(record, action)
            writing = asyncio.ensure_future(write())
            self.holding.add(writing)
            writing.add_done_callback(self.holding.discard)
            return await asyncio.shield(writing)
        return await self._store.save_table(record, action)

    async def writes_settled(self) -> None:
        if self.holding:
            await asyncio.wait(self.holding)
        await self._store.writes_settled()


async def check_log(store: Store, table_id: int) -> None:
    """No move logged twice; the log replays to the stored snapshot; the save counter and the
    log agree."""
    record = await store.get_table(table_id)
    assert record is not None
    log = await store.actions(table_id)
    keys = [json.dumps([a.seat, a.action, a.payload.get("hand"),
                        {k: v for k, v in a.payload.items() if k not in ("by", "level")}])
            for a in log if a.action in MOVES]
    assert len(keys) == len(set(keys)), "a move was logged twice"
    game = replay(Rules.model_validate_json(record.rules_json), log)
    assert game is not None and game.to_json() == record.snapshot_json


async def test_a_save_that_landed_before_the_connection_dropped_stands(store: Store) -> None:
    landing = LandingStore(store)
    service = TableService(landing, RecordingPresenter(),  # type: ignore[arg-type]
                           config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    try:
        view = await start_game(service, computers=2, max_cards=2)
        tid = view.table_id
        landing.raise_after_next = True
        after = await move(service, tid, HOST)  # lands, then the connection drops
        assert after.saves == view.saves + 1  # not undone: the person's move stands
        stored = await store.get_table(tid)  # the computers may have moved on since
        assert stored is not None and stored.saves >= after.saves
        log = await store.actions(tid)
        moves = set(LOG_NAMES.values())
        assert [a.user_id for a in log if a.action in moves].count(HOST) == 1  # logged once
        for _ in range(200):  # play on to the end
            await service.wait_idle()
            if not is_open(service, tid):
                break
            await move(service, tid, HOST)
        await check_log(store, tid)
    finally:
        await service.close()


async def test_a_cancelled_computer_run_whose_move_landed_is_told_not_redone(
        store: Store) -> None:
    landing = LandingStore(store)
    presenter = RecordingPresenter()
    service = TableService(landing, presenter,  # type: ignore[arg-type]
                           config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    view = await start_game(service, computers=2, max_cards=2, seed=11)
    tid = view.table_id
    landing.hold_computers = True
    acting = asyncio.ensure_future(move(service, tid, HOST))
    await asyncio.wait_for(landing.held.wait(), 10)  # a computer's move is being written
    await acting
    closing = asyncio.ensure_future(service.close())  # cancels the computer run mid-write
    await asyncio.sleep(0.01)
    landing.gate.set()  # the write lands all the same
    await closing
    stored = await store.get_table(tid)
    assert stored is not None
    log = await store.actions(tid)
    last = log[-1]
    assert last.payload.get("by") == "computer"  # the cancelled run's move is in the log
    told = [e for e in presenter.events(tid) if isinstance(e, BidMade | CardPlayed)]
    assert told and told[-1].seat == last.seat  # and it was told before the bot left
    await check_log(store, tid)
    # a new process resumes the table where the store has it and plays on
    service2 = TableService(store, RecordingPresenter(),
                            config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    try:
        report = await service2.resume_all()
        assert report.broken == [] and tid in report.resumed
        for _ in range(200):
            await service2.wait_idle()
            if not is_open(service2, tid):
                break
            await move(service2, tid, HOST)
        await check_log(store, tid)
    finally:
        await service2.close()


async def test_a_finished_game_whose_record_landed_is_over(store: Store) -> None:
    landing = LandingStore(store)
    presenter = RecordingPresenter()
    service = TableService(landing, presenter,  # type: ignore[arg-type]
                           config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    try:
        view = await start_game(service, computers=2, max_cards=1, seed=5)
        tid = view.table_id
        landing.raise_after_finish = True  # every game-over record lands, then the link drops
        for _ in range(50):
            await service.wait_idle()
            if not is_open(service, tid):
                break
            await move(service, tid, HOST)  # never raises: what landed stands
        await service.wait_idle()
        assert not is_open(service, tid)
        assert any(isinstance(e, GameOver) for e in presenter.events(tid))  # announced
        stored = await store.get_table(tid)
        assert stored is not None and stored.status.value == "finished"
        assert await store.game_for_table(tid) is not None  # recorded once
        await check_log(store, tid)
    finally:
        await service.close()
