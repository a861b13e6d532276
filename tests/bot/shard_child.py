"""A child process for the two-process tests: one bot process of two sharing one PostgreSQL, as
bot/shards.py runs them. It drives the tables of its shard (playing real games through the table
service, with bookkeeping, as tests/bot/crash_child.py does), keeps its lease, takes over the
other shard's tables when that process stops renewing, plays them on, and hands them back when
it returns. The parent SIGKILLs it, or SIGSTOPs it past its lease and SIGCONTs it.

    python tests/bot/shard_child.py DSN SHARD SEED LEASE_SECONDS CHANNELS

Lines (JSON, one per line), as crash_child.py:
  {"ready": {"resumed": [ids], "broken": [[id, reason]...]}}   after the first claim
  {"move": [table, hand, seat, action, payload]}              after act() returned
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.errors import TableError
from bot.moves import LOG_NAMES
from bot.presenter import NullPresenter
from bot.service import ServiceConfig, TableService
from bot.shards import ShardLeases, ShardPlan, process_name
from data import DatabaseUnavailable, Store, StoreError, TableTakenOver
from tests.bot.crash_child import (
    bookkeeping,
    choose,
    deal_lobby,
    open_and_deal,
    person_to_move,
    say,
)

SHARDS = 2
GUILDS = (2 << 22, 3 << 22)  # shard 0 and shard 1 of 2


def channels_of(shard: int, channels: int) -> list[int]:
    return [6000 + 100 * shard + c for c in range(channels)]


async def drop_stale(service: TableService, store: Store, table_id: int) -> None:
    """Stop driving a table the store refused a save of (another process drove it meanwhile):
    the next lease round reads it back from the store if this process drives it again. (The
    service does this itself once it drops a table on TableTakenOver; bot/service.py.)"""
    await service.hand_over([table_id])


AWAY = 0.1
"""The share of moves after which the person looks away for a few seconds."""
RECONCILE_EVERY = 3.0
"""Seconds between two looks for copies gone stale; longer than a hand-back takes, so a process
woken from a stall still holds its stale copies when it gets their tables back (and tries to
save them: the store must refuse)."""


async def reconcile(service: TableService, store: Store) -> None:
    """Now and then, drop the tables awaiting a computer whose stored copy moved past this
    process's, or that another process drives now: a computer's commit refused is only logged,
    so nothing else would tell this process its copy is old."""
    while True:
        await asyncio.sleep(RECONCILE_EVERY)
        for view in service.directory.tables():
            if view.state is not None and any(
                view.seats[s].user_id is not None and not view.seats[s].autopilot
                for s in view.state.actor_seats
            ):
                continue  # a person is awaited: their move meets the refusal (play() drops it)
            try:
                stored = await store.get_table(view.table_id)
                owner = await store.table_owner(view.table_id)
            except (StoreError, DatabaseUnavailable):
                continue
            if (stored is None or not stored.is_open or stored.saves > view.saves
                    or owner != store.owner):
                await drop_stale(service, store, view.table_id)


async def play(service: TableService, store: Store, channel: int, own: bool,
               guild: int, rng: random.Random) -> None:
    while True:
        view = service.directory.find_table(channel)
        if view is None:
            if not own:  # the other shard's channel: only while this process drives it
                await asyncio.sleep(0.01)
                continue
            try:
                await open_and_deal(service, channel, rng, guild)
            except (TableError, StoreError, DatabaseUnavailable):
                await asyncio.sleep(0.01)
            continue
        try:
            await bookkeeping(service, view, rng)
            view = service.directory.find_table(channel)
            if view is None:
                continue
            if view.state is None:
                if not own:
                    await asyncio.sleep(0.01)
                    continue
                await deal_lobby(service, view)
                continue
            mover = person_to_move(view, rng)
            if mover is None:
                await asyncio.sleep(0.002)  # the computers are moving
                continue
            seat, user = mover
            move = choose(service, view, seat, rng)
            await service.act(view.table_id, user, move)
        except TableError:
            continue  # the table moved meanwhile: look again
        except TableTakenOver:
            await drop_stale(service, store, view.table_id)
            continue
        except (StoreError, DatabaseUnavailable):
            await asyncio.sleep(0.01)
            continue
        say("move", [view.table_id, view.state.hand_number, seat, LOG_NAMES[type(move)],
                     move.payload()])
        if rng.random() < AWAY:  # people are slow: a table may sit through a stall and a
            await asyncio.sleep(rng.uniform(1.0, 8.0))  # hand-back untouched, then move


async def main(dsn: str, shard: int, seed: int, lease: float, channels: int) -> None:
    rng = random.Random(seed)
    plan = ShardPlan(shard_count=SHARDS, shard_ids=(shard,), takeover_ids=(1 - shard,),
                     lease_seconds=lease)
    store = await Store.open(dsn, owner=process_name(plan))
    service = TableService(store, NullPresenter(),
                           config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    leases = ShardLeases(store, service, plan)
    report = await leases.start()
    say("ready", {"resumed": report.resumed, "broken": report.broken})
    players = [
        play(service, store, channel, side == shard, GUILDS[side], random.Random(rng.random()))
        for side in (0, 1)
        for channel in channels_of(side, channels)
    ]
    await asyncio.gather(reconcile(service, store), *players)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]),
                     int(sys.argv[5])))
