"""Store benchmark: action saves with 1,000 tables in progress, leaderboard query time for a
server with 10,000 finished games, and history pages at 1,000,000 finished games, on either
driver.

    python bench/store.py [--driver sqlite|postgresql|both] [--database-url URL]
                          [--saves 5000] [--games 10000] [--tables 1000]
                          [--history-games 1000000] [--part saves|leaderboard|history]

Budgets (docs/architecture.md section 6): a save p99 under 5 ms at 100 saves/s beside a busy
loop; a leaderboard under 50 ms; a history page under 50 ms at a million stored games (issue 26);
on both drivers. The history part fills its games with one INSERT ... SELECT per batch (rows made
by the database itself, so a million games load in a minute), all in one server, the worst
case. Snapshots are real engine snapshots (Game.new(...).to_json() after
some random play, a few KB each). --driver postgresql uses --database-url when given (it must be
an empty database), else starts a throwaway PostgreSQL server from the machine's binaries (fsync
on, as a real server), as the tests do (tests/pg_server.py).

Besides wall-clock times (noisy on a shared machine), each save run reports two figures that do
not depend on the load: loop wake-ups per save (calls of the loop's call_soon_threadsafe, i.e.
hops from a database thread back to the event loop, each of which waits for whatever the loop is
doing) and CPU per save (process time, all threads). "Busy loop" runs the same saves while other
tasks keep the loop about half busy in 1 ms slices, as the bot's other tables do: there every hop
may wait for a slice, so save latency there grows with the hops. "100/s beside a
busy loop" paces saves at 100 a second (the budget's rate) beside the same busy loop. The saves
part uses only the public Store API, so it also measures an older data/ (--part saves).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from data import (
    SORT_KEYS,
    Action,
    FinishedGame,
    HandResultRow,
    Seat,
    SeatResult,
    Store,
    TableRecord,
    TableStatus,
)
from engine import Game, Phase, Rules

SAVE_BUDGET_MS = 5.0
LEADERBOARD_BUDGET_MS = 50.0
HISTORY_BUDGET_MS = 50.0
HISTORY_PRESETS = ("classic", "vanikar", "wizard", "oh_well", "kachuful")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def snapshots(count: int, rng: random.Random) -> list[str]:
    """Real snapshots of 4-player classic games at random points of play."""
    rules = Rules.preset("classic")
    found = []
    for seed in range(count):
        game = Game.new(players=4, rules=rules, seed=seed)
        for _ in range(rng.randrange(0, 300)):
            if game.phase is Phase.GAME_OVER:
                break
            if game.phase is Phase.BIDDING:
                seat = game.actor_seats()[0]
                game.bid(seat, rng.choice(game.view(seat).legal_bids))
            else:
                seat = game.turn
                assert seat is not None
                game.play(seat, rng.choice(game.legal_cards()))
        found.append(game.to_json())
    return found


SEATS = (
    Seat("Ann", user_id=1, hand_message_id=1),
    Seat("Bob", user_id=2, hand_message_id=2),
    Seat("Cy", user_id=3, hand_message_id=3),
    Seat("Computer", computer_level="medium"),
)


class HopCounter:
    """Counts the loop's call_soon_threadsafe calls (wake-ups from other threads) while on."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.count = 0
        original = loop.call_soon_threadsafe

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(*args, **kwargs)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign,assignment]


def busy(seconds: float) -> None:
    """Plain Python on the loop for about that long (the bot handling another table)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sum(range(200))


async def timed_save(
    store: Store, live: list[TableRecord], index: int, action: Action, **changes: Any
) -> float:
    """Save live[index] with changes and action; keep the saved copy (its save counter moved
    on, as the bot's table does); the save's latency in ms."""
    table = replace(live[index], **changes)
    before = time.perf_counter()
    await store.save_table(table, action)
    latency = (time.perf_counter() - before) * 1000
    live[index] = replace(table, saves=table.saves + 1)
    return latency


async def bench_saves(
    target: str, synchronous: str, tables: int, saves: int, pool: list[str], rng: random.Random
) -> None:
    store = await Store.open(target, synchronous=synchronous)  # type: ignore[arg-type]
    driver = getattr(store, "dialect", "sqlite")
    rules_json = Rules.preset("classic").model_dump_json()
    live: list[TableRecord] = []
    for channel in range(tables):
        table = await store.create_table(
            guild_id=1, channel_id=channel, host_id=1, rules_json=rules_json, seats=SEATS
        )
        live.append(replace(table, status=TableStatus.PLAYING, snapshot_json=rng.choice(pool)))
    for index in range(tables):
        await timed_save(store, live, index, Action("deal"))

    hops = HopCounter(asyncio.get_running_loop())
    hops.count = 0
    latencies = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    for n in range(saves):
        latencies.append(await timed_save(
            store, live, rng.randrange(tables),
            Action("play", seat=n % 4, user_id=1, payload={"card": "AS"}),
            snapshot_json=pool[n % len(pool)], turn_deadline=time.time() + 120,
        ))
    elapsed = time.perf_counter() - started
    cpu_ms = (time.process_time() - cpu_started) * 1000 / saves
    hops_per_save = hops.count / saves

    # The same saves, one at a time, while two other tasks keep the loop about half busy in 1 ms
    # slices at random moments (the bot's other tables).
    busy_saves = saves // 5
    stop = asyncio.Event()
    busy_time = 0.0

    async def other_tables(seed: int) -> None:
        nonlocal busy_time
        pause = random.Random(seed)
        while not stop.is_set():
            before = time.perf_counter()
            busy(0.001)
            busy_time += time.perf_counter() - before
            await asyncio.sleep(pause.uniform(0, 0.004))

    others = [asyncio.create_task(other_tables(seed)) for seed in range(2)]
    await asyncio.sleep(0)
    busy_started = time.perf_counter()
    busy_latencies = []
    for n in range(busy_saves):
        busy_latencies.append(await timed_save(
            store, live, rng.randrange(tables), Action("play", seat=n % 4, payload={"card": "KS"}),
            snapshot_json=pool[n % len(pool)],
        ))
    busy_share = busy_time / (time.perf_counter() - busy_started)

    # The budget's case: 100 saves a second, paced, beside the same busy loop.
    paced_latencies = []
    next_at = time.perf_counter()
    for n in range(busy_saves):
        next_at += 0.01
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        paced_latencies.append(await timed_save(
            store, live, rng.randrange(tables), Action("play", seat=n % 4, payload={"card": "QS"}),
            snapshot_json=pool[n % len(pool)],
        ))
    stop.set()
    await asyncio.gather(*others)

    # The same saves from 50 tables at once: they queue on the one write path. Each worker
    # saves tables of its own, as each table's runner does.
    concurrent_saves = saves // 2
    waits: list[float] = []

    async def worker(index: int) -> None:
        own = range(index, tables, 50)
        for n in range(index, concurrent_saves, 50):
            waits.append(await timed_save(
                store, live, rng.choice(own), Action("bid", seat=n % 4, payload={"bid": 1}),
                snapshot_json=pool[n % len(pool)],
            ))

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(50)))
    concurrent_elapsed = time.perf_counter() - started
    await store.close()

    p99 = percentile(latencies, 0.99)
    print(
        f"[{driver}] saves, synchronous={synchronous}, {tables} tables in progress, one at a "
        f"time: {saves / elapsed:,.0f} saves/s, p50 {percentile(latencies, 0.5):.2f} ms, "
        f"p99 {p99:.2f} ms, max {max(latencies):.2f} ms"
    )
    print(
        f"  load-independent: {hops_per_save:.2f} loop wake-ups per save, "
        f"CPU {cpu_ms:.3f} ms per save (all threads)"
    )
    print(
        f"  busy loop (other work {busy_share:.0%} of the time, in 1 ms slices): "
        f"p50 {percentile(busy_latencies, 0.5):.2f} ms, "
        f"p99 {percentile(busy_latencies, 0.99):.2f} ms per save"
    )
    paced_p99 = percentile(paced_latencies, 0.99)
    print(
        f"  100 saves/s beside the busy loop ({len(paced_latencies)} saves): "
        f"p50 {percentile(paced_latencies, 0.5):.2f} ms, p99 {paced_p99:.2f} ms, "
        f"max {max(paced_latencies):.2f} ms "
        f"[{'within' if paced_p99 < SAVE_BUDGET_MS else 'OVER'} budget {SAVE_BUDGET_MS} ms]"
    )
    print(
        f"[{driver}] saves, synchronous={synchronous}, 50 tables saving at once: "
        f"{concurrent_saves / concurrent_elapsed:,.0f} saves/s, latency incl. queueing "
        f"p50 {percentile(waits, 0.5):.2f} ms, p99 {percentile(waits, 0.99):.2f} ms"
    )


def finished_game(rng: random.Random, users: int) -> FinishedGame:
    """A 4-seat, 10-hand game: three humans from the server's pool and one computer."""
    humans = rng.sample(range(1, users + 1), 3)
    hands = []
    totals = [0, 0, 0, 0]
    for number in range(1, 11):
        size = 11 - number
        bids = tuple(rng.randint(0, 3) for _ in range(4))
        tricks = tuple(rng.randint(0, 3) for _ in range(4))
        made = tuple(b == t for b, t in zip(bids, tricks, strict=True))
        points = tuple(10 + t if m else t for t, m in zip(tricks, made, strict=True))
        totals = [a + p for a, p in zip(totals, points, strict=True)]
        hands.append(
            HandResultRow(
                number, size, number % 4, "10H", "H", bids, tricks, made, points, tuple(totals)
            )
        )
    best = max(totals)
    seats = tuple(
        SeatResult(
            seat=i,
            name=f"user{humans[i]}" if i < 3 else "Computer",
            user_id=humans[i] if i < 3 else None,
            total=totals[i],
            placing=1 + sum(1 for t in totals if t > totals[i]),
            winner=totals[i] == best,
            computer_level=None if i < 3 else "medium",
        )
        for i in range(4)
    )
    return FinishedGame("classic", '{"name": "classic"}', seats, tuple(hands))


async def bench_leaderboard(target: str, games: int, rng: random.Random) -> None:
    from data.store import record_game

    store = await Store.open(target)
    users = 200
    started = time.perf_counter()
    # Fill in batches of 500 games per transaction through the store's write path and the same
    # record_game that finish_game runs (the bot stores one game per finish_game call).
    for first in range(0, games, 500):
        batch = [finished_game(rng, users) for _ in range(min(500, games - first))]

        async def body(session: Any, now: float, batch: list[FinishedGame] = batch) -> None:
            for game in batch:
                await record_game(
                    session, table_id=None, guild_id=1, channel_id=1, game=game, now=now
                )

        await store._transaction(body)
    fill = time.perf_counter() - started
    print(
        f"[{store.dialect}] filled {games:,} finished games (4 seats, 10 hands) for one server "
        f"in {fill:.1f} s"
    )

    worst = 0.0
    for key in SORT_KEYS:
        times = []
        for _ in range(10):
            before = time.perf_counter()
            await store.leaderboard(1, sort=key, limit=10)
            times.append((time.perf_counter() - before) * 1000)
        worst = max(worst, max(times))
        print(f"  leaderboard sort={key:<16} median {statistics.median(times):6.2f} ms, "
              f"max {max(times):6.2f} ms")
    times = []
    for user in range(1, 21):
        before = time.perf_counter()
        await store.player_stats(1, user)
        times.append((time.perf_counter() - before) * 1000)
    print(f"  player_stats                  median {statistics.median(times):6.2f} ms, "
          f"max {max(times):6.2f} ms")
    print(
        f"[{store.dialect}] leaderboard, {games:,} finished games, {users} players: worst "
        f"{worst:.2f} ms "
        f"[{'within' if worst < LEADERBOARD_BUDGET_MS else 'OVER'} budget "
        f"{LEADERBOARD_BUDGET_MS} ms]"
    )
    await store.close()


def _numbers(dialect: str) -> str:
    """A row source of the numbers first..last (parameters 1 and 2) in the dialect."""
    if dialect == "sqlite":
        return ("WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n"
                " WHERE i < CAST(? AS INTEGER)) ")
    return "WITH n(i) AS (SELECT generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT))) "


async def bench_history(target: str, games: int) -> None:
    """Fill one server with `games` finished games (3 people of 200 and a computer each,
    presets 60% classic and the rest four others), then time history pages: newest, by
    preset, by member, by member and preset, and deep pages (keyset, from the middle)."""
    store = await Store.open(target)
    started = time.perf_counter()
    numbers = _numbers(store.dialect)
    preset_case = ("CASE WHEN (i / 7) % 10 < 6 THEN 'classic' WHEN (i / 7) % 10 = 6 THEN 'vanikar'"
                   " WHEN (i / 7) % 10 = 7 THEN 'wizard' WHEN (i / 7) % 10 = 8 THEN 'oh_well'"
                   " ELSE 'kachuful' END")
    batch = 100_000
    for first in range(1, games + 1, batch):
        last = min(games, first + batch - 1)

        async def body(session: Any, now: float, first: int = first, last: int = last) -> None:
            await session.execute(
                numbers + "INSERT INTO games (id, guild_id, channel_id, preset, rules_json,"
                f" players, hands, finished_at) SELECT i, 1, 1 + i % 50, {preset_case},"
                " '{\"name\":\"classic\"}', 4, 10, 1.7e9 + i FROM n", (first, last))
            for seat, (step, offset) in enumerate(((7, 0), (11, 67), (13, 134))):
                await session.execute(
                    numbers + "INSERT INTO game_seats (game_id, seat, guild_id, user_id,"
                    " computer_level, display_name, total, \"placing\", winner, hands,"
                    f" exact_bids) SELECT i, {seat}, 1, 1 + (i * {step} + {offset}) % 200, NULL,"
                    f" 'user', (i * {step}) % 120, {seat + 1}, {int(seat == 0)}, 10, 3 FROM n",
                    (first, last))
            await session.execute(
                numbers + "INSERT INTO game_seats (game_id, seat, guild_id, user_id,"
                " computer_level, display_name, total, \"placing\", winner, hands, exact_bids)"
                " SELECT i, 3, 1, NULL, 'medium', 'Computer', 40, 4, 0, 10, 2 FROM n",
                (first, last))

        await store._transaction(body)
    if store.dialect == "postgresql":
        await store._statement("ANALYZE")
    fill = time.perf_counter() - started
    print(f"[{store.dialect}] filled {games:,} finished games (4 seats) for one server in "
          f"{fill:.1f} s")
    middle = games // 2
    cases: list[tuple[str, dict[str, Any]]] = [
        ("newest page", {}),
        ("by preset (10%)", {"preset": "wizard"}),
        ("by member", {"user_id": 17}),
        ("by member and preset (10%)", {"user_id": 17, "preset": "wizard"}),
        ("deep page, from the middle", {"before": middle}),
        ("deep page by member", {"user_id": 17, "before": middle}),
        ("by member and preset, deep", {"user_id": 17, "preset": "kachuful", "before": middle}),
    ]
    worst = 0.0
    for label, filters in cases:
        page = await store.history(1, limit=10, **filters)  # a first read warms the cache
        assert len(page.games) == 10, (label, len(page.games))
        times = []
        for _ in range(50):
            before = time.perf_counter()
            await store.history(1, limit=10, **filters)
            times.append((time.perf_counter() - before) * 1000)
        worst = max(worst, percentile(times, 0.95))
        print(f"  history {label:<28} median {statistics.median(times):6.2f} ms, "
              f"p95 {percentile(times, 0.95):6.2f} ms, max {max(times):6.2f} ms")
    print(
        f"[{store.dialect}] history, {games:,} finished games, 10 a page: worst p95 "
        f"{worst:.2f} ms "
        f"[{'within' if worst < HISTORY_BUDGET_MS else 'OVER'} budget {HISTORY_BUDGET_MS} ms]"
    )
    await store.close()


def sqlite_thread(jobs: queue.SimpleQueue[asyncio.Future[Any] | None]) -> None:
    """A thread with its own connection: SELECT 1 per job, answered through the job's loop."""
    db = sqlite3.connect(":memory:")
    while (future := jobs.get()) is not None:
        value = db.execute("SELECT 1").fetchone()
        future.get_loop().call_soon_threadsafe(future.set_result, value)
    db.close()


async def noise_floor() -> tuple[float, float]:
    """p99 of doing nearly nothing, as a yardstick for the machine's own tail at the moment:
    50 us of plain Python on the loop, and one hop to a SQLite thread and back (SELECT 1; a
    save through aiosqlite made four, one per statement; the store's thread makes one)."""
    python_times, hop_times = [], []
    jobs: queue.SimpleQueue[asyncio.Future[Any] | None] = queue.SimpleQueue()
    thread = threading.Thread(target=sqlite_thread, args=(jobs,), daemon=True)
    thread.start()
    loop = asyncio.get_running_loop()
    for _ in range(3000):
        before = time.perf_counter()
        await asyncio.sleep(0)
        sum(range(3000))
        python_times.append((time.perf_counter() - before) * 1000)
        before = time.perf_counter()
        future: asyncio.Future[Any] = loop.create_future()
        jobs.put(future)
        await future
        hop_times.append((time.perf_counter() - before) * 1000)
    jobs.put(None)
    thread.join()
    return percentile(python_times, 0.99), percentile(hop_times, 0.99)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=5000, help="saves measured (default 5000)")
    parser.add_argument("--tables", type=int, default=1000,
                        help="tables in progress the saves go to (default 1000)")
    parser.add_argument("--games", type=int, default=10000,
                        help="finished games the leaderboard reads (default 10000)")
    parser.add_argument("--history-games", type=int, default=1_000_000,
                        help="finished games the history pages read (default 1000000)")
    parser.add_argument("--part", choices=("saves", "leaderboard", "history"),
                        help="run only this part")
    parser.add_argument("--driver", choices=("sqlite", "postgresql", "both"), default="sqlite",
                        help="the store's database (default sqlite)")
    parser.add_argument("--database-url", help="an empty PostgreSQL database to use")
    args = parser.parse_args()
    rng = random.Random(2024)
    pool = snapshots(100, rng)
    sizes = sorted(len(s) for s in pool)
    print(
        f"snapshot sizes: median {sizes[len(sizes) // 2]:,} bytes, max {sizes[-1]:,} bytes "
        f"(SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]})"
    )
    python_p99, hop_p99 = await noise_floor()
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; p99 of 50 us "
        f"of plain Python {python_p99:.2f} ms, of one hop to a SQLite thread and back "
        f"{hop_p99:.2f} ms"
    )
    drivers = ("sqlite", "postgresql") if args.driver == "both" else (args.driver,)
    if "sqlite" in drivers:
        with tempfile.TemporaryDirectory(dir=Path.cwd()) as folder:
            if args.part in (None, "saves"):
                for synchronous in ("NORMAL", "FULL"):
                    await bench_saves(
                        str(Path(folder) / f"saves-{synchronous}.sqlite3"), synchronous,
                        args.tables, args.saves, pool, rng,
                    )
            if args.part in (None, "leaderboard"):
                await bench_leaderboard(str(Path(folder) / "leaderboard.sqlite3"), args.games, rng)
            if args.part in (None, "history"):
                await bench_history(str(Path(folder) / "history.sqlite3"), args.history_games)
    if "postgresql" in drivers:
        await bench_postgresql(args, pool, rng)


async def bench_postgresql(
    args: argparse.Namespace, pool: list[str], rng: random.Random
) -> None:
    """The same parts on PostgreSQL: the given database, or a throwaway server's databases."""
    server = None
    if args.database_url:
        targets = {name: args.database_url
                   for name in ("NORMAL", "FULL", "leaderboard", "history")}
    else:
        from tests.pg_server import PostgresServer

        server = PostgresServer.start(fast=False)
        targets = {name: server.new_database()
                   for name in ("NORMAL", "FULL", "leaderboard", "history")}
        print(f"started a throwaway PostgreSQL server in {server.folder} (fsync on)")
    try:
        if args.part in (None, "saves"):
            # One database given: its tables' channels can be opened once, so one mode.
            for synchronous in ("NORMAL",) if args.database_url else ("NORMAL", "FULL"):
                await bench_saves(
                    targets[synchronous], synchronous, args.tables, args.saves, pool, rng
                )
        if args.part in (None, "leaderboard"):
            await bench_leaderboard(targets["leaderboard"], args.games, rng)
        if args.part in (None, "history"):
            await bench_history(targets["history"], args.history_games)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
