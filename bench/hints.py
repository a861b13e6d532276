"""Hint flood benchmark: how much a flood of /ohhell hint delays a computer's move at another
table.

    python bench/hints.py [--moves 12] [--hints 50] [--every 1.0] [--workers 1] [--level hard]

The real bot from `create_bot` on a temporary SQLite database, only HTTP faked
(tests/discord/harness.py). One table seats one person (played by the bench as soon as it is
their turn) and three `--level` computers; a computer's move time is from the commit before it
(the person's move or the previous computer's) to its own commit: its thinking plus its commit.
It is measured over `--moves` computer moves three times: with no hints anywhere; while one
player at a hint table sends `--hints` hints at once every `--every` seconds; and while
`--hints` players, each awaited at a hint table of their own, send one hint each at once every
`--every` seconds (0: one burst only). Prints the move time's median, p95 and slowest per
phase, and the slowest's ratio to the quiet slowest (the target: within twice; a flood queued in
the computers' worker delays one move by all of it, so the median hides it), and the hints'
latency (from the interaction to its answer) p50/p95, for hints answered and hints refused.
Each phase replays the same deal (`--seed`) from its start, so the phases time alike positions.

`--workers` is COMPUTER_WORKERS: 1 (the bot's default) thinks in a worker process, 0 in a thread
of the bot's process. The script reads no private attribute of the service, so it runs on a tree
without the hint desk as well (to see the flood's effect before the fix).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot
from bot.models import TableOptions
from engine import Phase
from tests.discord.harness import CALLBACK, Call, Harness, Member

REFUSALS = ("Hints are busy", "You can ask for another hint", "Your last hint is still",
            "There is nothing for you to decide")


class Bench:
    def __init__(self, h: Harness) -> None:
        self.h = h
        self.svc: Any = h.bot.tables  # type: ignore[attr-defined]
        self.pending: dict[int, tuple[float, asyncio.Future[tuple[float, str]]]] = {}
        self.measured_table: int | None = None
        self.last_commit: float | None = None
        self.move_times: list[float] | None = None  # collecting while not None
        store: Any = h.bot.store  # type: ignore[attr-defined]
        save = store.save_table

        async def timed_save(table: Any, action: Any = None) -> Any:
            out = await save(table, action)
            if table.id == self.measured_table and action is not None and action.action in (
                    "bid", "play", "trump", "discard"):
                now = time.perf_counter()
                by_computer = action.payload.get("by") == "computer"
                if by_computer and self.last_commit is not None and self.move_times is not None:
                    self.move_times.append(now - self.last_commit)
                self.last_commit = now
            return out

        store.save_table = timed_save
        h.fake.record = False
        h.fake.on_call = self.on_call

    def on_call(self, call: Call) -> None:
        if call.via == "webhook" and call.path != CALLBACK and call.interaction_id in self.pending:
            start, fut = self.pending.pop(call.interaction_id)
            if not fut.done():
                fut.set_result((time.perf_counter() - start, str(call.body.get("content"))))
        elif call.is_callback and call.json["type"] == 4 and call.interaction_id in self.pending:
            start, fut = self.pending.pop(call.interaction_id)  # answered at once, not deferred
            if not fut.done():
                fut.set_result((time.perf_counter() - start, str(call.body.get("content"))))

    def fire(self, payload: dict[str, Any]) -> asyncio.Future[tuple[float, str]]:
        """Send an interaction; a future of (seconds to its answer, the answer's text)."""
        fut: asyncio.Future[tuple[float, str]] = asyncio.get_running_loop().create_future()
        self.pending[int(payload["id"])] = (time.perf_counter(), fut)
        self.h.fire(payload)
        return fut

    async def table(self, member: Member, **opts: Any) -> tuple[int, int]:
        """A table of `member` and computers in a new channel, dealt: (channel, table id)."""
        channel = self.h.add_channel()
        for command, kwargs in (("ohhell start", opts), ("ohhell deal", {})):
            await self.fire(self.h.slash(command, member, channel=channel, **kwargs))
        view = self.svc.directory.find_table(channel)
        return channel, int(view.table_id)

    async def awaited(self, channel: int, member: Member) -> int | None:
        """Wait until `member` is to move at the table in `channel`: their seat (None: over)."""
        while True:
            view = self.svc.directory.find_table(channel)
            if view is None or view.state is None or view.state.phase is Phase.GAME_OVER:
                return None
            seat = view.seat_of(member.id)
            if seat in view.state.actor_seats:
                return int(seat)
            await asyncio.sleep(0.002)

    def move(self, channel: int, seat: int, member: Member) -> dict[str, Any]:
        view = self.svc.directory.find_table(channel)
        pv = self.svc.directory.seat_view(view.table_id, seat)
        if pv.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
            return self.h.slash("ohhell bid", member, channel=channel, tricks=pv.legal_bids[0])
        return self.h.slash("ohhell play", member, channel=channel,
                            card=pv.legal_cards[0].code)


async def measure(bench: Bench, channel: int, member: Member, moves: int,
                  args: argparse.Namespace) -> list[float]:
    """From a new game on the same deal (every phase times the same positions, as far as the
    computers choose alike), play the person until `moves` computer moves were timed."""
    times: list[float] = []
    bench.move_times = times
    await new_game(bench, channel, member, args)
    while len(times) < moves:
        seat = await bench.awaited(channel, member)
        if seat is None:  # over: the same deal again
            await new_game(bench, channel, member, args)
            continue
        await bench.fire(bench.move(channel, seat, member))
    bench.move_times = None
    return times[:moves]


async def new_game(bench: Bench, channel: int, member: Member, args: argparse.Namespace) -> None:
    """End the measured table's game (if any) and deal a new one with the bench's seed (set-up:
    straight to the service, which takes no seed from Discord)."""
    old = bench.svc.directory.find_table(channel)
    if old is not None:
        await bench.svc.end(old.table_id, member.id)
    options = TableOptions(computers=3, computer_level=args.level, max_cards=args.max_cards,
                           seed=args.seed)
    view = await bench.svc.open_table(bench.h.guild_id, channel, member.id, member.name, options)
    bench.measured_table = int(view.table_id)
    bench.last_commit = None
    await bench.fire(bench.h.slash("ohhell deal", member, channel=channel))
    bench.last_commit = bench.last_commit or time.perf_counter()


async def flood(bench: Bench, askers: list[tuple[Member, int]], per_asker: int,
                every: float, stop: asyncio.Event, latencies: list[tuple[float, str]]) -> None:
    """Every `every` seconds, each asker sends `per_asker` hints at once, until `stop`."""
    waiting: list[asyncio.Future[tuple[float, str]]] = []
    while not stop.is_set():
        for member, channel in askers:
            for _ in range(per_asker):
                waiting.append(bench.fire(bench.h.slash("ohhell hint", member, channel=channel)))
        if every <= 0:
            await stop.wait()  # a single burst
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
    latencies.extend(await asyncio.gather(*waiting))


def summary(times: list[float]) -> str:
    ms = 1000
    return (f"move median {statistics.median(times) * ms:6.0f} ms, p95 {pct(times, 95) * ms:6.0f}"
            f" ms, slowest {max(times) * ms:6.0f} ms")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(discord_token=None, database_path=Path(tmp) / "bench.sqlite3",
                            sync_commands=False, computer_delay=0,
                            computer_workers=args.workers, default_turn_timeout=0,
                            dev_guild_id=None, turn_nudge_after=0, table_edit_interval=0)
        h = Harness(create_bot(settings))
        await h.start(channels=0)
        bench = Bench(h)
        mover = h.member("mover")
        channel = h.add_channel()
        # hint tables: one person and two random computers each, the person awaited
        askers: list[tuple[Member, int]] = []
        for i in range(args.hints):
            m = h.member(f"asker{i}")
            hint_channel, _ = await bench.table(m, bots=2, bot_level="random",
                                                max_cards=args.max_cards, hints=True)
            await bench.awaited(hint_channel, m)
            askers.append((m, hint_channel))
        # warm-up: the computers' worker and the hints' worker start
        await measure(bench, channel, mover, 2, args)
        last, last_channel = askers[-1]
        await bench.fire(h.slash("ohhell hint", last, channel=last_channel))

        print(f"COMPUTER_WORKERS={args.workers}, a person and 3 {args.level} computers measured "
              f"over {args.moves} computer moves per phase; hints every {args.every:g} s")
        quiet = await measure(bench, channel, mover, args.moves, args)
        base = max(quiet)
        print(f"{'no hints':<34} {summary(quiet)}")
        for label, who, per in ((f"{args.hints} hints at once from one player", askers[:1],
                                 args.hints),
                                (f"1 hint each from {args.hints} players", askers, 1)):
            stop = asyncio.Event()
            latencies: list[tuple[float, str]] = []
            flooding = asyncio.create_task(flood(bench, who, per, args.every, stop, latencies))
            times = await measure(bench, channel, mover, args.moves, args)
            stop.set()
            await flooding
            print(f"{label:<34} {summary(times)}, slowest {max(times) / base:.2f}x the quiet "
                  "slowest")
            for kind, picked in (
                    ("answered", [s for s, text in latencies if not text.startswith(REFUSALS)]),
                    ("refused", [s for s, text in latencies if text.startswith(REFUSALS)])):
                if picked:
                    print(f"{'':<6}hints {kind:<9} {len(picked):5}: latency p50 "
                          f"{statistics.median(picked) * 1000:7.0f} ms, p95 "
                          f"{pct(picked, 95) * 1000:7.0f} ms")
            await asyncio.sleep(args.cooldown)  # the askers' cooldowns end before the next
        errors = len(h.fake.errors)
        await h.close()
    print(f"errors logged: {errors}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=12, help="computer moves timed per phase")
    p.add_argument("--hints", type=int, default=50, help="hints in a burst (and askers)")
    p.add_argument("--every", type=float, default=1.0,
                   help="seconds between two bursts (0: a single burst)")
    p.add_argument("--workers", type=int, default=1,
                   help="COMPUTER_WORKERS: 1 a worker process (the default), 0 a thread")
    p.add_argument("--level", default="hard", help="level of the measured table's computers")
    p.add_argument("--max-cards", type=int, default=7, help="the largest hand (default 7)")
    p.add_argument("--seed", type=int, default=7, help="the measured table's deal")
    p.add_argument("--cooldown", type=float, default=5.0,
                   help="pause between the flood phases (ServiceConfig.hint_cooldown)")
    return asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
