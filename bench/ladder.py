"""The ladder of computer levels on every named preset: each level beats the one below.

For each preset and each adjacent pair of levels (hard over medium, medium over easy, easy over
random), one seat of the stronger level plays against the weaker level in the other seats on
duplicate deals (bench/arena.py: every deal once per rotation of the seats), and the paired
difference in points per hand (deal by deal) is printed with its standard error; the pair
holds when the difference exceeds 2 SE. Each deal is a one-hand game; the hand sizes cycle
deal by deal (spread out) through the preset's own sizes and the larger ones its pack allows
(`Rules.cap`), so big hands the preset never deals are played too; only the preset's last
hand size keeps a last-hand rule (Ascending's no-trump last hand). The table is at 4 players,
or the preset's least number when it needs more. A pair that has not held after `--hands`
doubles its deals until it holds or reaches `--max-hands`; the figure printed is over all its
hands.

    nice -n 19 python bench/ladder.py --workers 1
    python bench/ladder.py --presets wizard,joker_high --levels hard,medium --hands 80

Printed per preset and pair: seat-hands of the stronger level, mean paired difference and SE,
whether it held, and each level's decision CPU p50/p95 (the deciding thread's CPU time). The
hard player plays at its shipped default budget unless `--iterations` or `--think-time` says.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena import Config, DealResult, make_rules, percentile, play_deal, run_deals

from engine import Rules
from engine.ai import LEVELS

BATCH_DEALS = 8
"""The fewest deals added at a time to a pair that has not held yet (it doubles its deals, so
the SE is looked at only a few times)."""


def players_for(rules: Rules) -> int:
    return 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players


def hand_sizes(rules: Rules, players: int) -> list[int]:
    """The preset's own hand sizes and every larger one its pack allows (keeping the cards
    it reserves undealt), in the order the deals take them: spread out (by the golden ratio),
    so that a few deals already hold small, middling and big hands."""
    own = set(rules.plan(players))
    if rules.hand_sequence == "random" and not rules.hand_sizes:
        own = set(range(1, max(own) + 1))
    sizes = own | set(range(max(own) + 1, rules.cap(players) + 1))
    return sorted(sizes, key=lambda size: (size * 0.6180339887) % 1.0)


def one_hand_overrides(rules: Rules, players: int, size: int) -> dict[str, Any]:
    """Rules that keep a one-hand game of `size` as the preset plays a hand of that size: a
    one-hand game is its own last hand, but only the preset's last hand goes without trump."""
    if rules.last_hand_no_trump and size != rules.plan(players)[-1]:
        return {"last_hand_no_trump": False}
    return {}


@dataclass
class PairResult:
    preset: str
    strong: str
    weak: str
    players: int
    sizes: list[int]
    diffs: list[float] = field(default_factory=list)
    cpu: dict[str, list[float]] = field(default_factory=dict)

    def add(self, result: DealResult) -> None:
        mine: dict[str, list[int]] = {self.strong: [], self.weak: []}
        for level, _bid, _tricks, points in result.rows:
            mine[level].append(points)
        self.diffs.append(statistics.fmean(mine[self.strong]) - statistics.fmean(mine[self.weak]))
        for level, spent in result.cpu_times.items():
            self.cpu.setdefault(level, []).extend(spent)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.diffs)

    @property
    def se(self) -> float:
        if len(self.diffs) < 2:
            return math.inf
        return statistics.stdev(self.diffs) / math.sqrt(len(self.diffs))

    @property
    def held(self) -> bool:
        return self.mean > 2 * self.se

    def row(self) -> str:
        def ms(level: str, q: float) -> str:
            return f"{1000 * percentile(self.cpu.get(level, []), q):.1f}"

        cpu = (f"{ms(self.strong, 0.5)}/{ms(self.strong, 0.95)}  "
               f"{ms(self.weak, 0.5)}/{ms(self.weak, 0.95)}")
        return (f"{self.preset:18} {self.strong + '-' + self.weak:13} "
                f"{len(self.diffs) * self.players:>5} {self.mean:+7.3f} {self.se:6.3f} "
                f"{'yes' if self.held else 'NO':>4}  {cpu}")


HEADER = (f"{'preset':18} {'pair':13} {'hands':>5} {'diff':>7} {'SE':>6} {'held':>4}  "
          "CPU ms p50/p95 strong  weak")


def play_pair(pair: PairResult, args: argparse.Namespace, start: int, deals: int) -> None:
    """Play deals start..start+deals-1 of the pair (sizes cycling with the deal number)."""
    jobs = []
    for deal in range(start, start + deals):
        size = pair.sizes[deal % len(pair.sizes)]
        config = Config(
            levels=[pair.strong, pair.weak],
            players=pair.players,
            hand_size=size,
            preset=pair.preset,
            scoring=None,
            think_time=args.think_time,
            iterations=args.iterations,
            seed=args.seed,
            overrides=one_hand_overrides(Rules.preset(pair.preset), pair.players, size),
        )
        jobs.append((config, deal))
    results: list[DealResult] = []
    run_deals(play_deal, jobs, args.workers, results.append)
    for result in sorted(results, key=lambda result: result.deal):
        pair.add(result)


def run_pair(preset: str, strong: str, weak: str, args: argparse.Namespace) -> PairResult:
    rules = Rules.preset(preset)
    players = players_for(rules)
    sizes = hand_sizes(rules, players)
    for size in sizes:  # every size must make a legal one-hand game of the preset
        make_rules(Config([strong], players, size, preset, None, None, None, 0)).plan(players)
    pair = PairResult(preset, strong, weak, players, sizes)
    deals = max(2, math.ceil(args.hands / players))
    most = max(deals, math.ceil(args.max_hands / players))
    play_pair(pair, args, 0, deals)
    while not pair.held and deals < most:
        more = min(max(BATCH_DEALS, deals), most - deals)  # doubling: few looks at the SE
        play_pair(pair, args, deals, more)
        deals += more
    return pair


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="",
                        help="comma-separated presets (default: all the named presets)")
    parser.add_argument("--levels", default="hard,medium,easy,random",
                        help="levels strongest first; each adjacent pair is played")
    parser.add_argument("--hands", type=int, default=48,
                        help="hands per pair at first (default 48)")
    parser.add_argument("--max-hands", type=int, default=0,
                        help="hands a pair may reach while it has not held (default: --hands)")
    parser.add_argument("--hard-hands", type=int, default=0,
                        help="hands for pairs with the hard level at first (default: --hands)")
    parser.add_argument("--hard-max-hands", type=int, default=0,
                        help="the most such a pair may reach (default: --hard-hands)")
    parser.add_argument("--think-time", type=float, default=None, help="hard: seconds a move")
    parser.add_argument("--iterations", type=int, default=None, help="hard: deals a move")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    args = parser.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()] or Rules.preset_names(
        special_cards=True
    )
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or len(levels) < 2:
        parser.error(f"--levels needs two or more of {', '.join(LEVELS)}")
    pairs = list(itertools.pairwise(levels))
    started = time.perf_counter()
    print(f"ladder: seed {args.seed}  think_time {args.think_time}  iterations "
          f"{args.iterations}  load {os.getloadavg()[0]:.2f}", flush=True)
    print(HEADER, flush=True)
    held = 0
    for preset in presets:
        for strong, weak in pairs:
            pair_args = argparse.Namespace(**vars(args))
            if "hard" in (strong, weak) and args.hard_hands:
                pair_args.hands = args.hard_hands
                pair_args.max_hands = max(args.hard_hands, args.hard_max_hands)
            else:
                pair_args.max_hands = max(args.hands, args.max_hands)
            pair = run_pair(preset, strong, weak, pair_args)
            held += pair.held
            print(pair.row(), flush=True)
    total = len(presets) * len(pairs)
    print(f"{held}/{total} pairs held in {time.perf_counter() - started:.0f} s  "
          f"load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
