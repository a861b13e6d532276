"""Two bot processes on one PostgreSQL (bot/shards.py), as real processes (tests/bot/
shard_child.py) playing real games with bookkeeping, attacked in rounds: one is SIGKILLed and
restarted after its lease ran out, or SIGSTOPped past its lease (a frozen VM, a long GC pause:
the other takes its tables over and plays on) and SIGCONTed (it renews, gets its tables back and
must not write its stale copies over the other's moves). After every round: no acknowledged move
lost, none logged twice, every action log replays to its snapshot, no table broken."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from data import Store
from tests.bot.crash import Tally, check
from tests.killable import KillableChild
from tests.pg_server import PostgresServer

CHILD = Path(__file__).with_name("shard_child.py")
LEASE = 2.0  # seconds; a round waits a few leases
ROUNDS = 6
CHANNELS = 2  # tables played at once per shard


class ShardChild(KillableChild[dict[str, Any]]):
    def __init__(self, dsn: str, shard: int, seed: int) -> None:
        super().__init__(str(CHILD), [dsn, str(shard), str(seed), str(LEASE), str(CHANNELS)],
                         json.loads)

    def moves(self) -> int:
        return sum(1 for line in self.lines if "move" in line)

    def wait_for(self, moves: int, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while self.moves() < moves and self.process.poll() is None:
            assert time.monotonic() < deadline, "the child made no progress"
            time.sleep(0.01)

    def alive(self) -> None:
        assert self.process.poll() is None, f"a child died by itself: {self.errors()[-3000:]}"


async def broken_tables(dsn: str) -> list[Any]:
    async with await Store.open(dsn) as store:
        rows = await store._read("SELECT id, broken_reason FROM game_tables"
                                 " WHERE status = 'broken'")
        return [tuple(row) for row in rows]


def moves_in(lines: list[dict[str, Any]]) -> list[list[Any]]:
    return [line["move"] for line in lines if "move" in line]


def test_killed_and_stalled_processes_lose_no_move_and_resurrect_no_stale_game(
    postgres_server: PostgresServer,
) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    dsn = postgres_server.new_database()
    children = [ShardChild(dsn, shard, rng.randrange(1 << 30)) for shard in (0, 1)]
    finished: list[list[Any]] = []  # acknowledged moves of children killed already
    tally = Tally()
    stalls = kills = 0
    try:
        for child in children:
            child.wait_for(5)
        for round_ in range(ROUNDS):
            shard = rng.randrange(2)
            victim = children[shard]
            if round_ % 3 != 2:  # two rounds in three stall a process, one kills one
                victim.process.send_signal(signal.SIGSTOP)
                time.sleep(LEASE * 2.5)  # the other takes its tables over and plays on
                children[1 - shard].alive()
                victim.process.send_signal(signal.SIGCONT)
                stalls += 1
                before = victim.moves()
                victim.wait_for(before + 10)  # it woke, got its tables back, plays on
            else:
                finished += moves_in(victim.kill())
                kills += 1
                time.sleep(LEASE * 1.5)  # the other takes its tables over
                children[shard] = ShardChild(dsn, shard, rng.randrange(1 << 30))
                children[shard].wait_for(10)
            for child in children:
                child.alive()
            for child in children:  # the check reads a table, then its log: hold still
                child.process.send_signal(signal.SIGSTOP)
            acknowledged = finished + [m for c in children for m in moves_in(list(c.lines))]
            asyncio.run(check(dsn, acknowledged, tally))
            for child in children:
                child.process.send_signal(signal.SIGCONT)
            assert not tally.problems, f"seed {seed}, round {round_}: {tally.problems}"
        for child in children:
            finished += moves_in(child.kill())
    finally:
        for child in children:
            if child.process.poll() is None:
                child.process.kill()
                child.process.wait()
    asyncio.run(check(dsn, finished, tally))
    assert not tally.problems, f"seed {seed}: {tally.problems}"
    assert asyncio.run(broken_tables(dsn)) == [], f"seed {seed}"
    assert stalls and kills and tally.found == tally.acknowledged > 0, tally.line()
