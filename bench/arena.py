"""Duplicate-deal arena for the computer players.

Every deal is played once per rotation of the seats, so each level holds every seat's cards
against the same opponents' cards: luck of the deal cancels out of the paired difference.

    python bench/arena.py --levels hard,medium --hands 2000 --workers 2
    python bench/arena.py --levels medium,easy,easy,easy --hands 2000 --preset classic

`--levels` lists the seats' levels; when it names fewer than `--players`, the last level fills
the remaining seats (so `hard,medium` is one hard against three mediums). `--hands N` is the
number of hands each seat-rotation plays in total: N / players deals, each played `players`
times. Each hand is a one-hand game of `--hand-size` cards under `--preset` (scoring overridable).

Printed per level: seat-hands played, bid-made rate, points per hand (under quick's rule, whose
hand scores no points, one for each win); per pair of levels the
mean paired difference in points per hand (deal by deal) with its standard error; and the
decision-time p50/p95 per level (bids and cards alike).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import STANDARD_DECK, Card, Game, Phase, Rules
from engine.ai import create_player

Job = TypeVar("Job")
Result = TypeVar("Result")


@dataclass
class Config:
    levels: list[str]
    players: int
    hand_size: int
    preset: str
    scoring: str | None
    think_time: float | None
    iterations: int | None
    seed: int
    hard_options: dict[str, int] = field(default_factory=dict)
    """Settings of the hard player (engine/ai/hard.py Settings), e.g. {"model": 0}."""
    overrides: dict[str, Any] = field(default_factory=dict)
    """Rules fields set over the preset's (after the one-hand game's own)."""


@dataclass
class DealResult:
    deal: int
    # (level, bid, tricks, points) per seat-hand
    rows: list[tuple[str, int, int, int]] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu_times: dict[str, list[float]] = field(default_factory=dict)
    """Per level, each decision's CPU time of the deciding thread (wall time is `times`)."""
    bid_times: dict[str, list[float]] = field(default_factory=dict)


def make_rules(config: Config) -> Rules:
    update: dict[str, Any] = {
        "hand_sizes": [config.hand_size],
        "hand_count": 1,
        "game_end": "sequence",
    }
    if config.scoring:
        update["scoring"] = config.scoring
    update.update(config.overrides)
    return Rules.preset(config.preset).model_copy(update=update)


def seat_levels(config: Config) -> list[str]:
    levels = list(config.levels)
    while len(levels) < config.players:
        levels.append(levels[-1])
    return levels[: config.players]


def deal_deck(seed: int, deal: int, pack: list[Card] | None = None) -> list[Card]:
    """The pack for deal number `deal` of a run seeded `seed` (the same for every replay);
    `pack` is the rules' pack when it is not the standard 52 (jokers, Wizards, Jesters)."""
    deck = list(STANDARD_DECK) if pack is None else list(pack)
    random.Random(seed * 1_000_003 + deal).shuffle(deck)
    return deck


def run_deals(play: Callable[[Job], Result], jobs: list[Job], workers: int,
              collect: Callable[[Result], None]) -> None:
    """Play every job (in a process pool when `workers` > 1), handing each result to collect
    as it comes in."""
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            for result in pool.imap_unordered(play, jobs, chunksize=1):
                collect(result)
    else:
        for job in jobs:
            collect(play(job))


def play_deal(args: tuple[Config, int]) -> DealResult:
    config, deal = args
    rules = make_rules(config)
    levels = seat_levels(config)
    players = config.players
    deck = deal_deck(config.seed, deal, rules.pack(players) if rules.special_pack() else None)
    result = DealResult(deal)
    for rotation in range(players):
        seats = [levels[(seat + rotation) % players] for seat in range(players)]
        game = Game.new(players, rules, seed=deal, dealer=deal % players, deck=deck)
        bots = [
            create_player(
                level,
                seed=(config.seed * 7919 + deal) * 16 + seat,
                think_time=config.think_time,
                iterations=config.iterations,
                **(config.hard_options if level == "hard" else {}),
            )
            for seat, level in enumerate(seats)
        ]
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            started = time.perf_counter()
            cpu_started = time.thread_time()
            action = bots[seat].choose_move(view)
            cpu_spent = time.thread_time() - cpu_started
            spent = time.perf_counter() - started
            level = seats[seat]
            result.times.setdefault(level, []).append(spent)
            result.cpu_times.setdefault(level, []).append(cpu_spent)
            if game.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
                result.bid_times.setdefault(level, []).append(spent)
            game.apply(seat, action)
        if rules.winner_rule == "exact_bid":  # quick: no points, a win is worth one
            for seat in range(players):
                result.rows.append((seats[seat], game.bids[seat] or 0, game.tricks_won[seat],
                                    int(seat in game.winners)))
            continue
        record = game.scoresheet[0]
        for seat in range(players):
            result.rows.append(
                (seats[seat], record.bids[seat], record.tricks[seat], record.points[seat])
            )
    return result


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def report(config: Config, results: list[DealResult], elapsed: float) -> str:
    levels = sorted(set(seat_levels(config)), key=seat_levels(config).index)
    made: dict[str, list[int]] = defaultdict(list)
    points: dict[str, list[int]] = defaultdict(list)
    per_deal: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    bid_times: dict[str, list[float]] = defaultdict(list)
    for result in results:
        deal_points: dict[str, list[int]] = defaultdict(list)
        for level, bid, tricks, pts in result.rows:
            made[level].append(int(bid == tricks))
            points[level].append(pts)
            deal_points[level].append(pts)
        for level in levels:
            per_deal[level].append(statistics.fmean(deal_points[level]))
        for level, spent in result.times.items():
            times[level].extend(spent)
        for level, spent in result.bid_times.items():
            bid_times[level].extend(spent)
    hands = len(results) * config.players
    lines = [
        f"arena: levels {','.join(seat_levels(config))}  players {config.players}  "
        f"hand size {config.hand_size}  preset {config.preset}  "
        f"scoring {config.scoring or make_rules(config).scoring}  think_time {config.think_time}  "
        f"iterations {config.iterations}",
        f"{len(results)} deals x {config.players} rotations = {hands} hands "
        f"in {elapsed:.0f} s",
        "",
        f"{'level':8} {'seat-hands':>10} {'made %':>7} {'pts/hand':>9} "
        f"{'p50 ms':>8} {'p95 ms':>8} {'bid p95':>8}",
    ]
    for level in levels:
        lines.append(
            f"{level:8} {len(points[level]):>10} {100 * statistics.fmean(made[level]):>7.1f} "
            f"{statistics.fmean(points[level]):>9.3f} "
            f"{1000 * percentile(times[level], 0.5):>8.2f} "
            f"{1000 * percentile(times[level], 0.95):>8.2f} "
            f"{1000 * percentile(bid_times[level], 0.95):>8.2f}"
        )
    if len(levels) > 1:
        lines.append("")
        lines.append("paired difference in points per hand (deal by deal):")
        for i, first in enumerate(levels):
            for second in levels[i + 1 :]:
                diffs = [
                    a - b for a, b in zip(per_deal[first], per_deal[second], strict=True)
                ]
                mean = statistics.fmean(diffs)
                se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
                ratio = mean / se if se else float("inf")
                lines.append(
                    f"  {first} - {second}: {mean:+.3f} +- {se:.3f} (SE)  = {ratio:+.1f} SE"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="hard,medium", help="seat levels, comma-separated")
    parser.add_argument("--hands", type=int, default=2000,
                        help="hands each seat rotation plays in all (default 2000)")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--hand-size", type=int, default=7,
                        help="cards in each one-hand game (default 7)")
    parser.add_argument("--preset", default="classic", help="rule preset (default classic)")
    parser.add_argument("--scoring", default=None,
                        help="scoring scheme instead of the preset's (e.g. strict)")
    parser.add_argument("--think-time", type=float, default=None, help="hard: seconds a move")
    parser.add_argument("--iterations", type=int, default=None, help="hard: deals a move")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    config = Config(
        levels=[level.strip() for level in args.levels.split(",") if level.strip()],
        players=args.players,
        hand_size=args.hand_size,
        preset=args.preset,
        scoring=args.scoring,
        think_time=args.think_time,
        iterations=args.iterations,
        seed=args.seed,
    )
    deals = max(1, math.ceil(args.hands / config.players))
    jobs = [(config, deal) for deal in range(deals)]
    started = time.perf_counter()
    results: list[DealResult] = []
    step = max(1, deals // 10)

    def collect(result: DealResult) -> None:
        results.append(result)
        if args.progress and len(results) % step == 0:
            spent = time.perf_counter() - started
            print(f"  {len(results)}/{deals} deals, {spent:.0f} s", file=sys.stderr, flush=True)

    run_deals(play_deal, jobs, args.workers, collect)
    results.sort(key=lambda result: result.deal)
    print(report(config, results, time.perf_counter() - started))


if __name__ == "__main__":
    main()
