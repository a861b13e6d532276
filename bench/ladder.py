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

Issue 24's run, at commit 0695362, on the shared 2-core machine at load 6-9 (37 min):

    nice -n 19 python bench/ladder.py --workers 1 --iterations 40 --hands 600 \
        --max-hands 2400 --hard-hands 48 --hard-max-hands 192

    preset             pair          hands    diff     SE held  CPU ms p50/p95 strong  weak
    classic            hard-medium      96  +1.403  0.639  yes  23.2/86.1  0.0/0.1
    classic            medium-easy    2400  +0.203  0.102   NO  0.0/0.1  0.0/0.1
    classic            easy-random     600  +2.711  0.208  yes  0.0/0.1  0.0/0.0
    vanikar            hard-medium     192  +1.517  0.541  yes  20.7/79.1  0.0/0.1
    vanikar            medium-easy    2400  +0.301  0.118  yes  0.0/0.1  0.0/0.1
    vanikar            easy-random     600  +2.973  0.244  yes  0.0/0.1  0.0/0.0
    ascending          hard-medium      48  +3.250  1.139  yes  26.6/88.6  0.0/0.1
    ascending          medium-easy    2400  +0.371  0.126  yes  0.0/0.1  0.0/0.1
    ascending          easy-random     600  +3.412  0.233  yes  0.0/0.1  0.0/0.0
    oh_well            hard-medium      48  +4.375  0.981  yes  56.0/122.9  0.0/0.1
    oh_well            medium-easy    2400  -0.092  0.099   NO  0.0/0.1  0.0/0.1
    oh_well            easy-random     600  +2.953  0.165  yes  0.0/0.1  0.0/0.0
    nomination_whist   hard-medium      96  +1.403  0.639  yes  21.6/85.4  0.0/0.1
    nomination_whist   medium-easy    2400  +0.203  0.102   NO  0.0/0.1  0.0/0.1
    nomination_whist   easy-random     600  +2.711  0.208  yes  0.0/0.1  0.0/0.0
    up_and_down_river  hard-medium      96  +1.403  0.639  yes  21.2/75.9  0.0/0.1
    up_and_down_river  medium-easy    2400  +0.203  0.102   NO  0.0/0.1  0.0/0.1
    up_and_down_river  easy-random     600  +2.711  0.208  yes  0.0/0.1  0.0/0.0
    oh_pshaw           hard-medium      48  +3.250  1.139  yes  21.4/80.0  0.0/0.1
    oh_pshaw           medium-easy    2400  +0.371  0.126  yes  0.0/0.1  0.0/0.0
    oh_pshaw           easy-random     600  +3.412  0.233  yes  0.0/0.0  0.0/0.0
    british            hard-medium      48  +2.292  0.941  yes  24.1/77.0  0.0/0.1
    british            medium-easy    2400  +0.082  0.110   NO  0.0/0.1  0.0/0.1
    british            easy-random     600  +3.317  0.210  yes  0.0/0.1  0.0/0.0
    pagat              hard-medium     192  +1.517  0.541  yes  18.4/74.3  0.0/0.1
    pagat              medium-easy    2400  +0.301  0.118  yes  0.0/0.1  0.0/0.1
    pagat              easy-random     600  +2.973  0.244  yes  0.0/0.1  0.0/0.0
    kachuful           hard-medium      96  +1.757  0.799  yes  17.8/78.3  0.0/0.1
    kachuful           medium-easy    2400  +0.313  0.130  yes  0.0/0.1  0.0/0.1
    kachuful           easy-random     600  +3.602  0.225  yes  0.0/0.1  0.0/0.0
    la_podrida         hard-medium      96  +1.486  0.579  yes  14.3/69.3  0.0/0.1
    la_podrida         medium-easy    1200  +0.387  0.161  yes  0.0/0.1  0.0/0.0
    la_podrida         easy-random     600  +2.454  0.197  yes  0.0/0.1  0.0/0.0
    dealer_picks       hard-medium      48  +2.958  0.715  yes  22.6/78.3  0.0/0.1
    dealer_picks       medium-easy    2400  +0.033  0.110   NO  0.0/0.1  0.0/0.1
    dealer_picks       easy-random     600  +3.377  0.197  yes  0.0/0.1  0.0/0.0
    extra_card         hard-medium      96  +1.649  0.608  yes  22.4/81.7  0.0/0.1
    extra_card         medium-easy    2400  +0.154  0.101   NO  0.0/0.1  0.0/0.1
    extra_card         easy-random     600  +2.795  0.197  yes  0.0/0.1  0.0/0.0
    ouch               hard-medium      48  +5.479  0.819  yes  29.9/81.0  0.0/0.2
    ouch               medium-easy     600  +2.563  0.279  yes  0.0/0.2  0.0/0.1
    ouch               easy-random     600  +2.470  0.239  yes  0.0/0.1  0.0/0.0
    joker_high         hard-medium      96  +2.181  0.625  yes  29.0/226.9  0.0/0.1
    joker_high         medium-easy     600  +1.011  0.231  yes  0.0/0.1  0.0/0.0
    joker_high         easy-random     600  +2.910  0.209  yes  0.0/0.0  0.0/0.0
    joker_dup          hard-medium      96  +1.792  0.567  yes  26.5/235.5  0.0/0.1
    joker_dup          medium-easy     600  +1.400  0.199  yes  0.0/0.1  0.0/0.0
    joker_dup          easy-random     600  +2.750  0.195  yes  0.0/0.1  0.0/0.0
    love_that_joker    hard-medium      48  +2.625  0.661  yes  29.4/247.2  0.0/0.1
    love_that_joker    medium-easy     600  +0.720  0.233  yes  0.0/0.1  0.0/0.1
    love_that_joker    easy-random     600  +2.982  0.196  yes  0.0/0.1  0.0/0.0
    blackout_jokers    hard-medium      50  +4.075  0.361  yes  74.4/536.7  0.0/0.1
    blackout_jokers    medium-easy     600  +0.783  0.204  yes  0.0/0.1  0.0/0.1
    blackout_jokers    easy-random     600  +3.844  0.185  yes  0.0/0.1  0.0/0.0
    super_screw        hard-medium      48  +2.688  0.761  yes  25.7/218.0  0.0/0.1
    super_screw        medium-easy    1200  +0.424  0.189  yes  0.0/0.1  0.0/0.1
    super_screw        easy-random     600  +2.302  0.207  yes  0.0/0.1  0.0/0.0
    wizard_lite        hard-medium      48 +13.333  4.445  yes  37.3/316.6  0.0/0.1
    wizard_lite        medium-easy     600 +10.606  1.277  yes  0.0/0.1  0.0/0.1
    wizard_lite        easy-random     600 +26.389  1.658  yes  0.0/0.1  0.0/0.0
    wizard             hard-medium      48 +21.875  7.187  yes  51.0/386.9  0.0/0.1
    wizard             medium-easy     600  +6.922  1.356  yes  0.0/0.1  0.0/0.1
    wizard             easy-random     600 +28.289  1.726  yes  0.0/0.1  0.0/0.0
    quick              hard-medium     192  +0.095  0.045  yes  27.4/258.9  0.0/0.1
    quick              medium-easy     600  +0.148  0.026  yes  0.0/0.1  0.0/0.1
    quick              easy-random     600  +0.122  0.024  yes  0.0/0.1  0.0/0.0
    59/66 pairs held in 2213 s  load 6.22

Medium over easy with more hands (the same deals and more, the same code), load 5:

    nice -n 19 python bench/ladder.py --workers 1 --levels medium,easy --hands 4800 \
        --presets classic,extra_card,british,dealer_picks,oh_well

    classic            medium-easy    4800  +0.327  0.073  yes  0.0/0.1  0.0/0.1
    extra_card         medium-easy    4800  +0.276  0.072  yes  0.0/0.1  0.0/0.1
    british            medium-easy    4800  +0.163  0.077  yes  0.0/0.1  0.0/0.1
    dealer_picks       medium-easy    4800  +0.116  0.079   NO  0.0/0.1  0.0/0.1
    oh_well            medium-easy    4800  -0.150  0.071   NO  0.0/0.1  0.0/0.1

So 64 of the 66 pairs hold (classic's result stands for nomination_whist and
up_and_down_river, the same one-hand games). Hard plays at 40 deals a decision in the first run
(a fifth of its shipped 200-deal cap; deterministic, so the load does not change its play): at
its shipped timed budget (CPU p50/p95 72/256 ms on classic) the 22 presets did not fit in the
hour. At that budget, classic's hard-medium was +3.083 +- 0.967 (64 hands, commit 0695362) and
+2.633 +- 0.503 (120 hands, 3c9e3b5, whose sizes came in order); on special cards, 20 hands
each (`--levels hard,medium --hard-hands 20`, load 3-4), where a decision takes its whole 0.5 s
of CPU: joker_high +1.867 +- 1.753, wizard +15.500 +- 9.580 (too few hands to hold),
blackout_jokers +4.062 +- 0.624. Not holding then: medium over easy
on dealer_picks and oh_well (common scoring; oh_well deals all 52 cards, 13 each). On oh_well's
13-card hands medium's play with easy's bid beat easy by +0.41 +- 0.12 (300 deals): medium's
bid was the weak part. Replaying each of medium's seat-hands (against easy, 300 oh_well deals
and 390 dealer_picks deals) with its bid forced to the nearest -2..+2 showed why: the rank
count misses long trumps (on 11-13 cards a bid raised by the trumps beyond a share of them
scored up to +0.9 a hand more), while a plain offset, which helps big hands, cost hands of 1-6
cards (dealer_picks -1.2 a hand at +0.2). So medium now also counts a trump as winning by
length, when every opponent holds at most one more than its rank among the trumps it cannot
see (TrickEstimator `long_trumps`), except when another seat picked the suit (dealer_picks:
the dealer names its own long suit, and counting length there cost the other seats about
0.13 a hand). Hard's own bids and plays are unchanged; its model of a medium bid still reads
the rank count alone.
Medium over easy after that, on the same deals (load 6-9):

    nice -n 19 python bench/ladder.py --workers 1 --levels medium,easy --hands 4800 \
        --presets oh_well,dealer_picks
    oh_well            medium-easy    4800  +0.311  0.072  yes  0.1/0.1  0.0/0.1
    dealer_picks       medium-easy    4800  +0.259  0.081  yes  0.0/0.1  0.0/0.0

    nice -n 19 python bench/ladder.py --workers 1 --levels medium,easy --hands 600 \
        --max-hands 2400            # all 22 presets, in two runs of 11
    classic            medium-easy    1200  +0.440  0.144  yes     (so nomination_whist,
    vanikar            medium-easy    1200  +0.547  0.171  yes      up_and_down_river;
    ascending          medium-easy     600  +0.572  0.244  yes      pagat as vanikar,
    oh_well            medium-easy     600  +0.424  0.203  yes      oh_pshaw as ascending)
    british            medium-easy    2400  +0.112  0.111   NO
    kachuful           medium-easy    1200  +0.450  0.186  yes
    la_podrida         medium-easy     600  +0.569  0.227  yes
    dealer_picks       medium-easy    2400  +0.179  0.113   NO
    extra_card         medium-easy    1200  +0.400  0.143  yes
    ouch               medium-easy     600  +2.403  0.289  yes
    (the special-card presets and quick, which bid by engine/ai/special.py: the figures
    of the first run above again, to the digit)

British, as before, needs more hands: at 9600 (`--hands 4800 --max-hands 9600 --presets
british`) +0.172 +- 0.057 against +0.158 +- 0.056 before the change on the same deals.
Hard over medium, after the change (`--levels hard,medium --iterations 40 --hands 48
--max-hands 192`, load 6-8): oh_well +3.903 +- 0.925 (48 hands), dealer_picks +2.528 +- 0.613
(48), classic +1.167 +- 0.463 (192), vanikar +1.622 +- 0.743 (96), ascending +2.090 +- 0.946
(48), british +1.875 +- 0.568 (96), kachuful +2.014 +- 0.549 (192), la_podrida +1.194 +- 0.580
(96), extra_card +1.033 +- 0.382 (192), ouch +4.410 +- 0.648 (48): every pair holds, so with
easy over random (unchanged) all 66 do.

Hard over medium at hard's shipped budget after issue 24 (compiled kernels, 18 ms of CPU a
decision; the special-card presets' search is not compiled and takes its whole 18 ms), load
1.5-1.9:

    nice -n 15 python bench/ladder.py --levels hard,medium --hands 48 --max-hands 192

    classic            hard-medium      48  +2.097  0.820  yes  2.1/18.0  0.0/0.1
    vanikar            hard-medium      48  +2.993  0.937  yes  1.3/16.4  0.0/0.0
    ascending          hard-medium      48  +2.514  1.013  yes  2.4/15.5  0.0/0.0
    oh_well            hard-medium      48  +4.958  0.604  yes  7.5/18.0  0.0/0.0
    nomination_whist   hard-medium      96  +2.167  0.570  yes  1.8/18.0  0.0/0.0
    up_and_down_river  hard-medium      96  +2.188  0.573  yes  1.8/18.0  0.0/0.0
    oh_pshaw           hard-medium      48  +2.493  1.009  yes  2.2/14.7  0.0/0.0
    british            hard-medium      48  +2.083  0.798  yes  2.1/15.6  0.0/0.0
    pagat              hard-medium      48  +2.694  0.957  yes  1.2/15.7  0.0/0.0
    kachuful           hard-medium      48  +2.472  0.965  yes  2.4/17.0  0.0/0.0
    la_podrida         hard-medium      48  +2.014  0.796  yes  1.4/18.0  0.0/0.0
    dealer_picks       hard-medium      48  +1.875  0.614  yes  1.7/18.0  0.0/0.0
    extra_card         hard-medium      96  +1.941  0.593  yes  1.9/18.0  0.0/0.0
    ouch               hard-medium      48  +3.188  1.025  yes  1.4/18.0  0.0/0.0
    joker_high         hard-medium     192  +1.278  0.385  yes  18.1/19.1  0.0/0.0
    joker_dup          hard-medium      96  +1.062  0.501  yes  18.1/19.3  0.0/0.0
    love_that_joker    hard-medium      96  +1.694  0.530  yes  18.1/19.2  0.0/0.0
    blackout_jokers    hard-medium      50  +3.900  0.479  yes  18.2/20.2  0.0/0.0
    super_screw        hard-medium      48  +2.882  0.668  yes  18.1/19.1  0.0/0.0
    wizard_lite        hard-medium      96  +9.514  3.721  yes  18.1/19.3  0.0/0.0
    wizard             hard-medium      48 +13.819  4.723  yes  18.2/19.6  0.0/0.0
    quick              hard-medium     192  +0.045  0.037   NO  18.1/19.2  0.0/0.0

Quick, whose one hand scores only a win, with more hands (`--presets quick --hands 384
--max-hands 3072`): +0.088 +- 0.021 at 768 hands, held (at 40 deals a decision it was
+0.095 +- 0.045 at 192). So every hard-medium pair holds at the new budget.

The special-card search then stopped starting deals it expected to end past the budget (its
CPU p95 was 19.1-20.2 ms above); the special presets again, load 0.7-1.6 (`--presets
joker_high,joker_dup,love_that_joker,blackout_jokers,super_screw,wizard_lite,wizard --hands 48
--max-hands 384`, and quick with `--hands 384 --max-hands 3072`):

    joker_high         hard-medium      48  +2.292  0.885  yes  17.8/18.0  0.0/0.0
    joker_dup          hard-medium      48  +1.806  0.826  yes  17.7/18.0  0.0/0.0
    love_that_joker    hard-medium      96  +2.097  0.558  yes  17.7/18.0  0.0/0.0
    blackout_jokers    hard-medium      50  +3.325  0.520  yes  17.1/18.0  0.0/0.0
    super_screw        hard-medium      48  +2.910  0.582  yes  17.7/18.0  0.0/0.0
    wizard_lite        hard-medium      48 +11.667  5.445  yes  17.7/18.0  0.0/0.0
    wizard             hard-medium      48  +9.028  3.239  yes  17.7/18.0  0.0/0.0
    quick              hard-medium     384  +0.082  0.029  yes  17.7/18.0  0.0/0.0
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
