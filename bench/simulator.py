"""The hard player's compiled kernels (engine/ai/kernel/) timed against an earlier commit's Python.

`--against REV` (default fff6f55, the hard player issue 24 is measured against; any commit with
engine/ai/sim.py and, for `draw`, engine/ai/infer.py) takes that commit's engine/ from git into a
temporary directory as a package of another name; both sides then work on the same positions, taking
turns on every ten positions `--rounds` times, and each chunk counts at its best time (the machine's
load drifts within seconds, more than between two chunks). Printed per part: each side's CPU per
deal, their ratio, and whether the results agree where they must. Parts: `cards`, a card decision's
joint solve over batches of `--batch` deals that share my hand (the earlier `after_card` and
`solve_sampled` for each of my moves, against engine.ai.kernel.search.card_values), my last three
cards searched, random 7-card positions of 4 players, classic scoring or, `strict`, a missed bid
scoring nothing; `bids`, a deal's rollouts of eight bids of mine (the earlier `rollouts`, or a
`rollout` a bid where it has none, against engine.ai.kernel.bids.bid_rollouts); `draw`, a decision's
deals drawn (the earlier infer.py Chain and its plain sampled-then-weighed draw, against
engine.ai.kernel.chain.KernelDrawer, with the chain's start apart) at seat 0's card decisions after
the first trick of `--games` 7-card games of medium and easy players (classic, exact bids, no
history). Card values and bid rollouts must agree exactly; drawn deals cannot agree deal by deal
(the kernels' random stream is their own: tests/ai/test_kernel_chain.py checks their frequencies),
so drawing is only timed.

    python bench/simulator.py --against fff6f55 --deals 100 --rounds 7 --games 20 --draws 200

Measured so (2 shared cores, load 2.7, nice 10), CPU per deal, the earlier Python / the kernels:
cards 271.8 / 10.7 us (25x), strict 272.2 / 10.3 us (26x), bids 248.0 / 10.1 us (25x), every
result the same; drawing at 120 decisions, the chain 79.7 / 2.5 us (32x; 9.2 us one deal at a
time through `draw()`), its start 0.72 / 0.14 ms a decision, the weighed draw 79.3 / 2.7 us
(29x). Against 1c1d652, the last Python the hard player ran on (rollouts shared between bids,
the chain's memos): cards 149.7 / 10.6 (14x), strict 142.1 / 10.2 (14x), bids 156.7 / 10.0
(16x), the same results; the chain 34.4 / 2.5 (14x), its start 0.45 / 0.15 ms, the weighed draw
37.1 / 2.7 (14x).
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import engine  # noqa: E402
from engine import Game, Phase, PlayerView, Rules  # noqa: E402
from engine.ai import create_player  # noqa: E402
from engine.ai.kernel import play  # noqa: E402
from engine.ai.kernel.bids import bid_rollouts  # noqa: E402
from engine.ai.kernel.chain import KernelDrawer  # noqa: E402
from engine.ai.kernel.search import card_values  # noqa: E402
from engine.ai.knowledge import read_view  # noqa: E402
from engine.ai.opponents import OpponentModel  # noqa: E402
from engine.ai.sample import Sampler  # noqa: E402
from engine.ai.sim import Setup, distinct_moves  # noqa: E402

Position = tuple[tuple[Any, ...], list[int], list[list[int]], list[int]]
"""(Setup's fields, hands per seat, my bid variants, a kind per seat)."""
ME = 0
CHUNK = 10


def earlier_engine(rev: str, into: str) -> str:
    """engine/ as of `rev`, made importable from `into` as a package named apart; its name."""
    name = "engine_" + re.sub(r"\W", "_", rev)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "engine"], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    os.rename(os.path.join(into, "engine"), os.path.join(into, name))
    pattern = re.compile(r"\b(from|import) engine\b")
    for folder, _dirs, files in os.walk(os.path.join(into, name)):
        for file in files:
            if file.endswith(".py"):
                path = os.path.join(folder, file)
                with open(path, encoding="utf-8") as source:
                    text = source.read()
                with open(path, "w", encoding="utf-8") as source:
                    source.write(pattern.sub(rf"\1 {name}", text))
    sys.path.insert(0, into)
    return name


def positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << card for card in deck[7 * seat: 7 * seat + 7]) for seat in range(4)]
        fields = (4, rng.randrange(-1, 4), False, False, True, False, rng.randrange(4), (),
                  (0,) * 4, 7, (1 << 52) - 1)
        others = [rng.randrange(4) for _ in range(4)]
        variants = [[bid, *others[1:]] for bid in range(8)]
        kinds = [rng.choice((0, 0, 1, 2)) for _ in range(4)]
        out.append((fields, hands, variants, kinds))
    return out


def dealt(hands: list[int], batch: int) -> list[list[int]]:
    """`batch` deals keeping my hand, the others' cards dealt afresh (seeded by my hand)."""
    rng = random.Random(hands[ME])
    rest = [card for card in range(52) if not hands[ME] >> card & 1]
    out = []
    for _ in range(batch):
        rng.shuffle(rest)
        out.append([hands[ME]] + [sum(1 << c for c in rest[7 * s: 7 * s + 7]) for s in range(3)])
    return out


def table_of(bid: int, strict: bool) -> list[int]:
    return [(10 + t if t == bid else (0 if strict else t)) for t in range(9)]


# A side's work: made once from the positions (untimed), then run (timed) for its results.
Prepared = Callable[[], list[Any]]


def python_cards(sim: ModuleType, cases: list[Position], strict: bool, batch: int) -> Prepared:
    """The earlier Python: each batch played to my first choice, grouped by the cards seen."""
    jobs = []
    for fields, hands, variants, kinds in cases:
        setup = sim.Setup(*fields)
        groups: dict[int, list[Any]] = {}
        for deal in dealt(hands, batch):
            state = sim.SimState(setup, deal, variants[2], kinds)
            sim.advance(state, ME, 7)
            groups.setdefault(state.trail, []).append((state, 1.0))
        table = table_of(variants[2][ME], strict)
        for group in groups.values():
            first = group[0][0]
            if first.left:
                moves = sim.distinct_moves(first.legal(ME), first.live & ~first.hands[ME])
                jobs.append((group, moves, table))

    def run() -> list[Any]:
        return [sum(sim.solve_sampled(part, ME, table, 3)
                    for part in sim.after_card(group, card, ME, 3))
                for group, moves, table in jobs for card in moves]
    return run


def kernel_cards(cases: list[Position], strict: bool, batch: int) -> Prepared:
    """The same batches as rows, played to my first choice and grouped by their trail."""
    jobs = []
    for fields, hands, variants, kinds in cases:
        setup = Setup(*fields)
        rules = play.rules_row(setup)
        bids = np.array(variants[2], dtype=np.int64)
        groups: dict[int, list[Any]] = {}
        for deal in dealt(hands, batch):
            row = play.deal_row(setup, deal, kinds)
            play.advance(row, rules, bids, ME, 7, -1)
            groups.setdefault(int(row[play.TRAIL]), []).append(row)
        table = np.array(table_of(variants[2][ME], strict), dtype=np.int64)
        for rows in groups.values():
            first = rows[0]
            if first[play.LEFT]:
                legal = play.legal_cards(first, rules, ME)
                moves = distinct_moves(legal, int(first[play.LIVE]) & ~int(first[play.HANDS + ME]))
                count = len(moves)
                jobs.append((np.array(rows), np.ones(len(rows)), rules, bids, table,
                             np.array(moves, dtype=np.int64), np.arange(count, dtype=np.int64),
                             np.zeros(count), np.zeros(count)))

    def run() -> list[Any]:
        out: list[Any] = []
        for rows, weights, rules, bids, table, moves, alive, values, makes in jobs:
            values[:] = 0.0
            card_values(rows, weights, rules, bids, ME, table, 3, moves, alive, -1, values, makes)
            out.extend(values.tolist())
        return out
    return run


def python_bids(sim: ModuleType, cases: list[Position]) -> Prepared:
    """The earlier Python's rollouts: `rollouts` where it has them, else a `rollout` a bid."""
    jobs = [(sim.Setup(*fields), hands, variants, kinds)
            for fields, hands, variants, kinds in cases]
    if hasattr(sim, "rollouts"):
        def run() -> list[Any]:
            return [[won[ME] for won in sim.rollouts(setup, hands, variants, kinds)]
                    for setup, hands, variants, kinds in jobs]
    else:
        def run() -> list[Any]:
            return [[sim.rollout(setup, hands, bids, kinds)[ME] for bids in variants]
                    for setup, hands, variants, kinds in jobs]
    return run


def kernel_bids(cases: list[Position]) -> Prepared:
    jobs = []
    for fields, hands, variants, kinds in cases:
        setup = Setup(*fields)
        jobs.append((play.deal_row(setup, hands, kinds), play.rules_row(setup),
                     np.array(variants, dtype=np.int64), np.zeros(len(variants), np.int64)))

    def run() -> list[Any]:
        out = []
        for row, rules, variants, won in jobs:
            bid_rollouts(row, rules, variants, ME, won)
            out.append(won.tolist())
        return out
    return run


def timed_turns(sides: dict[str, Callable[[list[Any]], Prepared]], cases: list[Any],
                rounds: int) -> tuple[dict[str, float], dict[str, list[Any]]]:
    """Each side's best CPU seconds per chunk of CHUNK cases, summed, and its results."""
    chunks = [cases[i:i + CHUNK] for i in range(0, len(cases), CHUNK)]
    prepared = {side: [make(chunk) for chunk in chunks] for side, make in sides.items()}
    best = {side: [float("inf")] * len(chunks) for side in sides}
    results: dict[str, list[Any]] = {side: [] for side in sides}
    for round_number in range(rounds):
        for index in range(len(chunks)):
            for side in sides:
                started = time.thread_time()
                result = prepared[side][index]()
                best[side][index] = min(best[side][index], time.thread_time() - started)
                if round_number == 0:
                    results[side].extend(result)
    return {side: sum(times) for side, times in best.items()}, results


def report(part: str, rev: str, spent: dict[str, float], deals: int,
           results: dict[str, list[Any]] | None) -> None:
    then, now = spent["earlier"] / deals * 1e6, spent["kernel"] / deals * 1e6
    said = "" if results is None else (
        "; results agree" if results["earlier"] == results["kernel"] else "; results DIFFER")
    print(f"{part:>14}: {rev} {then:8.2f} us a deal, kernel {now:7.2f} us "
          f"(ratio {now / then:.4f}, {then / now:.1f}x){said}")


def decisions(games: int) -> list[tuple[int, list[str]]]:
    """Seat 0's card decisions after the first trick in `games` 7-card deals (medium and easy
    players): the game's seed and the moves before it, as codes, so either engine replays it."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    players = [create_player(level, seed=seat)
               for seat, level in enumerate(("medium", "easy", "medium", "easy"))]
    out = []
    for seed in range(games):
        game = Game.new(4, rules, seed=seed, dealer=seed % 4)
        moves: list[str] = []
        while game.phase is not Phase.GAME_OVER and game.hand_number == 1:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            if seat == 0 and view.phase is Phase.PLAYING and view.tricks_played:
                out.append((seed, moves[:]))
            move = players[seat].choose_move(view)
            moves.append(move.code())
            game.apply(seat, move)
    return out


def replayed(engine: ModuleType, seed: int, moves: list[str]) -> Any:
    """Seat 0's view after `moves` in `engine`'s own game of that seed."""
    rules = engine.Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    game = engine.Game.new(4, rules, seed=seed, dealer=seed % 4)
    for code in moves:
        game.apply(game.actor_seats()[0], engine.move_from_code(code))
    return game.view(0)


def time_drawing(name: str, rev: str, games: int, draws: int, steps: int, rounds: int) -> None:
    """The `draw` part: the chain's start per decision, and its deals and the weighed draw's."""
    earlier = importlib.import_module(name)
    infer = importlib.import_module(f"{name}.ai.infer")
    knowledge = importlib.import_module(f"{name}.ai.knowledge")
    sample = importlib.import_module(f"{name}.ai.sample")
    opponents = importlib.import_module(f"{name}.ai.opponents")
    cases = []
    for seed, moves in decisions(games):
        view: PlayerView = replayed(engine, seed, moves)
        old = replayed(earlier, seed, moves)
        cases.append((view, read_view(view), old, knowledge.read_view(old)))
    rows = np.zeros((draws, play.WIDTH), dtype=np.int64)
    _, k, _, _ = cases[0]
    for warm in (steps, 0):  # compiled (or loaded from numba's cache) before any clock runs
        KernelDrawer(Sampler(k), OpponentModel(cases[0][0], k, True, True), 1,
                     warm).draw_rows(rows, 1)
    spent = {(side, part): 0.0 for side in ("earlier", "kernel")
             for part in ("chain start", "chain", "weighed")}
    spent["kernel", "draw()"] = 0.0
    for index, (view, k, old, old_k) in enumerate(cases):
        best = {key: float("inf") for key in spent}
        for _round in range(rounds):
            sampler = sample.Sampler(old_k)
            model = opponents.OpponentModel(old, old_k, True, True)  # fresh: no memo kept
            clock = time.thread_time()
            chain = infer.Chain(sampler, model, random.Random(index), steps)
            started = time.thread_time()
            for _ in range(draws):
                chain.draw()
            done = time.thread_time()
            best["earlier", "chain start"] = min(best["earlier", "chain start"], started - clock)
            best["earlier", "chain"] = min(best["earlier", "chain"], done - started)
            model = opponents.OpponentModel(old, old_k, True, True)
            rng = random.Random(index)
            clock = time.thread_time()
            for _ in range(draws):
                hands, _stock = sampler.sample(rng)
                model.weigh(hands, rng)
            best["earlier", "weighed"] = min(best["earlier", "weighed"],
                                             time.thread_time() - clock)
            ours = Sampler(k)
            clock = time.thread_time()
            drawer = KernelDrawer(ours, OpponentModel(view, k, True, True), index, steps)
            started = time.thread_time()
            drawer.draw_rows(rows, draws)
            done = time.thread_time()
            best["kernel", "chain start"] = min(best["kernel", "chain start"], started - clock)
            best["kernel", "chain"] = min(best["kernel", "chain"], done - started)
            weighed = KernelDrawer(ours, OpponentModel(view, k, True, True), index, 0)
            clock = time.thread_time()
            weighed.draw_rows(rows, draws)
            best["kernel", "weighed"] = min(best["kernel", "weighed"], time.thread_time() - clock)
            drawer = KernelDrawer(ours, OpponentModel(view, k, True, True), index, steps)
            clock = time.thread_time()
            for _ in range(draws):
                drawer.draw()
            best["kernel", "draw()"] = min(best["kernel", "draw()"], time.thread_time() - clock)
        for key, seconds in best.items():
            spent[key] += seconds
    count = len(cases)
    print(f"draw: {count} decisions, {draws} deals each, {steps} steps a deal")
    start = {side: spent[side, "chain start"] for side in ("earlier", "kernel")}
    print(f"{'chain start':>14}: {rev} {start['earlier'] / count * 1e3:8.3f} ms a decision, "
          f"kernel {start['kernel'] / count * 1e3:7.3f} ms")
    for part in ("chain", "weighed"):
        report(part, rev, {side: spent[side, part] for side in ("earlier", "kernel")},
               count * draws, None)
    print(f"{'chain draw()':>14}: kernel {spent['kernel', 'draw()'] / count / draws * 1e6:7.2f} "
          "us a deal, one at a time (as a bid's search draws them)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="fff6f55",
                        help="the git revision whose Python is timed beside the kernels")
    parser.add_argument("--part", choices=("all", "cards", "strict", "bids", "draw"),
                        default="all", help="what is timed (default all)")
    parser.add_argument("--deals", type=int, default=100,
                        help="random positions for cards and bids (default 100)")
    parser.add_argument("--batch", type=int, default=8,
                        help="deals a card decision's batch holds (default 8)")
    parser.add_argument("--rounds", type=int, default=7,
                        help="times each side does it all, in turn (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions (default 1)")
    parser.add_argument("--games", type=int, default=20,
                        help="games whose decisions deals are drawn at (default 20)")
    parser.add_argument("--draws", type=int, default=200,
                        help="deals drawn a decision (default 200)")
    parser.add_argument("--steps", type=int, default=10,
                        help="swaps the chain proposes between deals (default 10)")
    args = parser.parse_args(argv)
    parts = ("cards", "strict", "bids", "draw") if args.part == "all" else (args.part,)
    cases = positions(args.deals, args.seed)
    with tempfile.TemporaryDirectory() as into:
        name = earlier_engine(args.against, into)
        sim = importlib.import_module(f"{name}.ai.sim")
        for part in parts:
            if part == "draw":
                time_drawing(name, args.against, args.games, args.draws, args.steps,
                             args.rounds)
                continue
            sides: dict[str, Callable[[list[Any]], Prepared]]
            if part == "bids":
                sides = {"earlier": partial(python_bids, sim), "kernel": kernel_bids}
                deals = args.deals
            else:
                strict = part == "strict"
                sides = {
                    "earlier": partial(python_cards, sim, strict=strict, batch=args.batch),
                    "kernel": partial(kernel_cards, strict=strict, batch=args.batch)}
                deals = args.deals * args.batch
            sides["kernel"](cases[:1])()  # compiled (or loaded) before any clock runs
            spent, results = timed_turns(sides, cases, args.rounds)
            report(part, args.against, spent, deals, results)


if __name__ == "__main__":
    main()
