"""The hard player's simulator (engine/ai/sim.py) timed against an earlier commit's, in turn.

A speed-up that must not change play (issue 24) is timed here rather than by whole decisions,
whose CPU on a shared machine wanders by 10-20% from one run to the next: `--against REV`
(default main) takes that commit's engine/ from git into a temporary directory as a package of
another name, and both simulators then play the same random 7-card positions (4 players),
taking turns on every ten positions `--rounds` times; the sum of each one's best times is
printed with their ratio, and whether every result agreed. Parts: `cards`, a card decision's
joint solve (`after_card` and `solve_sampled` for each of my moves over batches of 8 deals that
share my hand, my last three cards searched), with classic scoring or, `strict`, a missed bid
scoring nothing; `bids`, the rollouts of eight bids of mine a deal (`rollouts`).

    .venv/bin/python bench/simulator.py --against main --part cards --deals 100 --rounds 7
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
from types import ModuleType
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import engine.ai.sim as current  # noqa: E402

Position = tuple[tuple[Any, ...], list[int], list[list[int]], list[int]]
"""(Setup's fields, hands per seat, my bid variants, a kind per seat)."""


def earlier_sim(rev: str, into: str) -> ModuleType:
    """engine/ai/sim.py as of `rev`, imported from `into` as a package named apart."""
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
    return importlib.import_module(f"{name}.ai.sim")


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


def bids(sim: ModuleType, cases: list[Position], strict: bool) -> list[Any]:
    del strict
    return [sim.rollouts(sim.Setup(*fields), hands, variants, kinds)
            for fields, hands, variants, kinds in cases]


def cards(sim: ModuleType, cases: list[Position], strict: bool) -> list[Any]:
    out: list[Any] = []
    me = 0
    for fields, hands, variants, kinds in cases:
        setup = sim.Setup(*fields)
        bid = variants[2][me]
        table = [(10 + t if t == bid else (0 if strict else t)) for t in range(9)]
        rng = random.Random(hands[me])
        rest = [card for card in range(52) if not hands[me] >> card & 1]
        particles = []
        for _ in range(8):
            rng.shuffle(rest)
            dealt = [hands[me]] + [sum(1 << c for c in rest[7 * s: 7 * s + 7]) for s in range(3)]
            state = sim.SimState(setup, dealt, variants[2], kinds)
            sim.advance(state, me, 7)  # to my first choice
            particles.append((state, 1.0))
        groups: dict[int, list[Any]] = {}
        for state, weight in particles:
            groups.setdefault(state.trail, []).append((state, weight))
        for group in groups.values():
            first = group[0][0]
            if first.left == 0:
                continue
            for card in sim.distinct_moves(first.legal(me), first.live & ~first.hands[me]):
                out.append(sum(sim.solve_sampled(part, me, table, 3)
                               for part in sim.after_card(group, card, me, 3)))
    return out


PARTS: dict[str, tuple[Callable[[ModuleType, list[Position], bool], list[Any]], bool]] = {
    "cards": (cards, False), "strict": (cards, True), "bids": (bids, False)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="main",
                        help="the git revision whose simulator is timed beside this one")
    parser.add_argument("--part", choices=sorted(PARTS), default="cards",
                        help="what is simulated (default cards)")
    parser.add_argument("--deals", type=int, default=100, help="random positions (default 100)")
    parser.add_argument("--rounds", type=int, default=7,
                        help="times each simulator plays them all, in turn (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions (default 1)")
    args = parser.parse_args(argv)
    work, strict = PARTS[args.part]
    cases = positions(args.deals, args.seed)
    # the two take turns on each chunk of CHUNK positions, and each chunk counts at its best
    # time: the machine's load drifts within seconds, more than between two chunks
    chunks = [cases[i:i + CHUNK] for i in range(0, len(cases), CHUNK)]
    with tempfile.TemporaryDirectory() as into:
        earlier = earlier_sim(args.against, into)
        best = {side: [float("inf")] * len(chunks) for side in ("earlier", "this")}
        results: dict[str, list[Any]] = {"earlier": [], "this": []}
        for round_number in range(args.rounds):
            for index, chunk in enumerate(chunks):
                for side, sim in (("earlier", earlier), ("this", current)):
                    started = time.thread_time()
                    result = work(sim, chunk, strict)
                    best[side][index] = min(best[side][index], time.thread_time() - started)
                    if round_number == 0:
                        results[side].extend(result)
    agree = results["earlier"] == results["this"]
    then, now = sum(best["earlier"]), sum(best["this"])
    print(f"{args.part}, {args.deals} positions, best of {args.rounds}: {args.against} "
          f"{1000 * then:.1f} ms, this {1000 * now:.1f} ms, ratio {now / then:.3f}; "
          f"results {'agree' if agree else 'DIFFER'}")


CHUNK = 10


if __name__ == "__main__":
    main()
