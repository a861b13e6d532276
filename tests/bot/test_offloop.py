"""Computer players think in the executor: the event loop keeps serving other tables."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from bot.computer import random_move
from bot.models import TableOptions
from bot.presenter import RecordingPresenter
from bot.service import ServiceConfig, TableService
from data import Store
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD, HOST

release = threading.Event()
thinking = threading.Event()
order: list[str] = []


def slow_decide(level: str, seed: int, view: Any) -> Any:
    """A computer that thinks until the test lets it (at most 20 s, so a bug cannot hang)."""
    thinking.set()
    release.wait(timeout=20)
    order.append("computer answered")
    return random_move(view, seed)


async def test_loop_serves_other_tables_while_a_computer_thinks(store: Store) -> None:
    release.clear()
    thinking.clear()
    order.clear()
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(store, RecordingPresenter(), config=config, decide=slow_decide)
    try:
        # table 1: three computers and the host, dealt; a computer is thinking
        options = TableOptions(computers=3, seed=2, max_cards=1)
        t1 = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
        await service.deal(t1, HOST)
        state = service.directory.table(t1).state
        assert state is not None
        if state.actor_seats == (0,):
            me = service.directory.hand_view(t1, HOST)
            await service.bid(t1, HOST, me.legal_bids[0], me.hand_number)
        while not thinking.is_set():
            await asyncio.sleep(0.001)

        # meanwhile the loop serves another table, start to finish of a lobby
        t2 = (await service.open_table(GUILD, CHANNEL + 1, ALICE, "Alice")).table_id
        await service.join(t2, BOB, "Bob")
        await service.leave(t2, BOB)
        order.append("other table served")
        release.set()
        await service.wait_idle()
        assert order[0] == "other table served"
        assert "computer answered" in order
    finally:
        release.set()
        await service.close()


async def test_process_pool_decides(store: Store) -> None:
    """The default decision function runs in a spawned worker process (what the bot uses)."""
    from bot.client import computer_executor

    executor = computer_executor(1)
    assert executor is not None
    config = ServiceConfig(default_turn_timeout=0, computer_delay=0)
    service = TableService(store, RecordingPresenter(), config=config, executor=executor)
    try:
        options = TableOptions(computers=2, seed=9, max_cards=1, computer_level="easy")
        tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
        await service.deal(tid, HOST)
        await service.wait_idle()
        state = service.directory.table(tid).state
        assert state is not None and state.actor_seats == (0,)  # the computers moved
    finally:
        await service.close()
        executor.shutdown(wait=True, cancel_futures=True)
