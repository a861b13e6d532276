"""A computer thinks without holding its table's lock: a person's `end`, `leave` or `kick`
goes through while the decision is still being made, and a decision made on a table that
changed meanwhile is dropped and made again."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.computer import random_move
from bot.events import BidMade, TableCancelled, TurnChanged
from bot.models import TableOptions, TableStatus
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store
from tests.bot.conftest import ALICE, CHANNEL, GUILD, HOST
from tests.bot.helpers import move

HANG = 15  # seconds: only a hang detector (the blocked decision gives up after 30 s)


class GatedDecide:
    """A decision function whose `blocked`-th call (the first by default) blocks until the
    test opens the gate."""

    def __init__(self, blocked: int = 1) -> None:
        self.gate = threading.Event()
        self.thinking = threading.Event()
        self.calls: list[tuple[int, int]] = []  # (seat, hand number)
        self.blocked = blocked

    def __call__(self, level: str, seed: int, view: Any) -> Any:
        self.calls.append((view.seat, view.hand_number))
        if len(self.calls) == self.blocked:
            self.thinking.set()
            self.gate.wait(timeout=30)
        return random_move(view, seed)


@pytest.fixture
def executor() -> Iterator[ThreadPoolExecutor]:
    pool = ThreadPoolExecutor(max_workers=1)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


async def _until_a_computer_thinks(
    service: TableService, tid: int, decide: GatedDecide
) -> None:
    """Make the people's moves until the first computer decision is under way."""
    for _ in range(100_000):
        if decide.thinking.is_set():
            return
        view = service.directory.table(tid)
        assert view.state is not None
        people = [s for s in view.state.actor_seats if view.seats[s].user_id is not None]
        if people:
            user_id = view.seats[people[0]].user_id
            assert user_id is not None
            await move(service, tid, user_id)
        else:
            await asyncio.sleep(0.001)
    raise AssertionError("no computer started to think")


async def test_end_returns_while_a_computer_is_still_thinking(
    store: Store, executor: ThreadPoolExecutor
) -> None:
    decide = GatedDecide()
    presenter = RecordingPresenter()
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(store, presenter, config=config, executor=executor, decide=decide)
    try:
        options = TableOptions(computers=3, seed=2, max_cards=1, computer_level="random")
        tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
        await service.deal(tid, HOST)
        await _until_a_computer_thinks(service, tid, decide)

        ending = asyncio.create_task(service.end(tid, HOST))
        await asyncio.wait({ending}, timeout=HANG)
        assert ending.done(), "end waited for the computer's decision"
        assert not decide.gate.is_set() and len(decide.calls) == 1  # still thinking
        view = ending.result()
        assert view.status is TableStatus.CANCELLED
        assert isinstance(presenter.events(tid)[-1], TableCancelled)
        assert service.directory.find_table(CHANNEL) is None
    finally:
        decide.gate.set()
        await service.close()
    executor.shutdown(wait=True)  # the decision has come back by now: it must change nothing
    await asyncio.sleep(0)
    actions = [a.action for a in await store.actions(tid)]
    assert actions[-1] == "end"
    record = await store.get_table(tid)
    assert record is not None and record.status.value == "cancelled"


async def test_a_decision_on_a_changed_table_is_dropped_and_made_again(
    store: Store, executor: ThreadPoolExecutor
) -> None:
    decide = GatedDecide()
    presenter = RecordingPresenter()
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(store, presenter, config=config, executor=executor, decide=decide)
    try:
        options = TableOptions(computers=2, seed=5, max_cards=2, computer_level="random")
        tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
        await service.join(tid, ALICE, "Alice")
        await service.deal(tid, HOST)
        await _until_a_computer_thinks(service, tid, decide)
        thinker, hand = decide.calls[0]
        before = len(await store.actions(tid))

        # Alice leaves while the computer thinks: the lock is free, so this goes through now.
        leaving = asyncio.create_task(service.leave(tid, ALICE))
        await asyncio.wait({leaving}, timeout=HANG)
        assert leaving.done() and not decide.gate.is_set()
        leaving.result()

        decide.gate.set()
        await service.wait_idle()
        assert decide.calls[1] == (thinker, hand)  # planned again on the changed table
        log = (await store.actions(tid))[before:]
        assert log[0].action == "leave"
        assert log[1].seat == thinker and log[1].payload["by"] == "computer"
        moves_of_thinker = [
            a for a in await store.actions(tid)
            if a.seat == thinker and a.action == log[1].action and a.payload["hand"] == hand
        ]
        assert len(moves_of_thinker) == 1  # the dropped decision was never applied
        view = service.directory.table(tid)
        assert view.seats[3].user_id is None and view.seats[3].replaced_user_id == ALICE
    finally:
        decide.gate.set()
        await service.close()


async def test_close_tells_the_moves_computers_committed_before_it(
    store: Store, executor: ThreadPoolExecutor
) -> None:
    """The bot shuts down while the second computer thinks: the first computer's committed
    bid is published (with whose turn it is now) before the presenter is closed, so the
    presenter can deliver it before the bot disconnects."""
    decide = GatedDecide(blocked=2)
    presenter = RecordingPresenter()
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(store, presenter, config=config, executor=executor, decide=decide)
    try:
        options = TableOptions(computers=3, seed=2, max_cards=3, computer_level="random")
        tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
        await service.deal(tid, HOST)
        await _until_a_computer_thinks(service, tid, decide)  # the second decision
        first, _hand = decide.calls[0]
        committed = service.directory.table(tid)
        assert committed.state is not None and committed.state.bids[first] is not None
        await service.close()
    finally:
        decide.gate.set()
    events = presenter.events(tid)
    told = [e for e in events if isinstance(e, BidMade) and e.seat == first]
    assert told and told[-1].bid == committed.state.bids[first]
    turn = [e for e in events if isinstance(e, TurnChanged)][-1]
    assert turn.seats == committed.state.actor_seats
    assert presenter.closed_after == len(presenter.published)  # closed after the last publish
