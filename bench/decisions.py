"""A fixed set of the hard player's decisions, replayed: the same moves and values, and the CPU.

`--record FILE` plays anchor-style hands (4 players, one 7-card hand, classic scoring, the test
seat rotated over the seats against the simple rule-based opponents, bench/anchor.py) with
`hard` at `--iterations` deals a decision and keeps every decision with a choice: the seat's
view, the player's random state before it, and what it chose with the values it gave each
option. `--check FILE` replays each recorded decision on a fresh player in that random state
and prints how many give the same move (and the same values), then the decision CPU p50/p95/mean
and the CPU per deal searched, with the part of it spent drawing the deal (the hard player's
drawer timed as it starts and around each call). A speed-up that must not change play (issue
24) records with the old code and checks with the new one:

    .venv/bin/python bench/decisions.py --record /tmp/decisions.pickle --deals 4
    .venv/bin/python bench/decisions.py --check /tmp/decisions.pickle
    .venv/bin/python bench/decisions.py --check /tmp/decisions.pickle --profile 25

`--budget MS` replays with a CPU budget instead of the deal count (values then differ) and
prints the deals a decision searched, p10/p50/mean: what fits in that budget, and the card
decisions' CPU with the share over the budget (and over all decisions, taking 32% of them as
forced, as in bench/anchor.py's logs). `--option name=value` sets a Settings field of the
replaying player.
`--truth FILE` scores each card choice against the values of a much larger search of the same
decision (`--truth-deals`, 1,000 by default; made once and kept in FILE): the points a cheaper
budget gives up per card decision, without playing whole hands (issue 24):

    .venv/bin/python bench/decisions.py --record /tmp/d15.pickle --deals 15 --seed 11
    .venv/bin/python bench/decisions.py --check /tmp/d15.pickle --budget 20 --truth /tmp/t15

`--parts` also prints the CPU per deal spent in the simulation (the card search's rollouts and
joint solve, the bids' rollouts) and the rest (drawing the deals, mostly); `--bids` replays only
the bid decisions.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine.ai.hard as hard_module
from engine import Game, Phase, PlayerView
from engine.ai.hard import HardPlayer
from engine.moves import Bid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its siblings
from anchor import PLAYERS, SimplePlayer, make_rules
from arena import deal_deck, percentile


@dataclass
class Decision:
    view: PlayerView
    rng_state: Any
    iterations: int
    move: str
    values: dict[str, float]
    deals: int
    hand: int
    """Decisions of one seat in one hand share a number: they are replayed by one player, in
    order, as they were made (a player may carry work from one decision to the next)."""


def record(deals: int, seed: int, iterations: int) -> list[Decision]:
    """Every decision with a choice of `hard` in the test seat, over the seats of each deal."""
    out: list[Decision] = []
    for deal in range(deals):
        deck = deal_deck(seed, deal)
        for test_seat in range(PLAYERS):
            game = Game.new(PLAYERS, make_rules(), seed=deal, dealer=deal % PLAYERS, deck=deck)
            base = (seed * 7919 + deal) * 16
            seats: list[Any] = [SimplePlayer() for _ in range(PLAYERS)]
            player = HardPlayer(seed=base + test_seat, iterations=iterations)
            seats[test_seat] = player
            while game.phase is not Phase.GAME_OVER:
                seat = game.actor_seats()[0]
                view = game.view(seat)
                if seat != test_seat:
                    game.apply(seat, seats[seat].choose_move(view))
                    continue
                bidding = game.phase is Phase.BIDDING
                choice = len(view.legal_bids if bidding else view.legal_cards) > 1
                state = player.rng.getstate()
                player.last_values = {}
                player.last_deals = 0
                move = player.choose_move(view)
                if choice:
                    out.append(Decision(view, state, iterations, repr(move),
                                        dict(player.last_values), player.last_deals,
                                        deal * PLAYERS + test_seat))
                game.apply(seat, move)
    return out


def replay(decision: Decision, budget_ms: float | None,
           players: dict[int, HardPlayer], options: dict[str, int] | None = None
           ) -> tuple[str, dict[str, float], int]:
    """The decision made again by its hand's player (in its recorded random state)."""
    player = players.get(decision.hand)
    if player is None:
        if budget_ms is None:
            player = HardPlayer(iterations=decision.iterations, **(options or {}))
        else:
            player = HardPlayer(think_time=budget_ms / 1000.0, **(options or {}))
        players.clear()
        players[decision.hand] = player
    player.rng.setstate(decision.rng_state)
    player.last_values = {}
    player.last_deals = 0
    move = player.choose_move(decision.view)
    return repr(move), dict(player.last_values), player.last_deals


DRAWING = [0.0]
"""CPU seconds spent drawing deals (the hard player's drawer, timed as it is made, which starts
the chain, and around each call)."""


def _timed_drawer(self: HardPlayer, sampler: Any, model: Any) -> Any:
    started = time.thread_time()
    drawer = _DRAWER(self, sampler, model)  # the chain's start counts as drawing
    DRAWING[0] += time.thread_time() - started

    def timed(inner: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            started = time.thread_time()
            try:
                return inner(*args)
            finally:
                DRAWING[0] += time.thread_time() - started
        return wrapper

    drawer.draw = timed(drawer.draw)  # one deal (bids)
    drawer.draw_rows = timed(drawer.draw_rows)  # a batch (cards)
    return drawer


_DRAWER = HardPlayer._drawer


SIM_PARTS = {
    "batch_values": "card search simulation",
    "bid_rollouts": "bid rollouts",
    "after_card": "card search simulation",
    "solve_sampled": "card search simulation",
    "solve_sampled_makes": "card search simulation",
    "best_response": "card search simulation",
    "rollout": "bid rollouts",
    "rollouts": "bid rollouts",
}
"""The simulator's entry points the hard player calls (engine/ai/kernel/, and engine/ai/sim.py
in an older engine), by part."""


@contextmanager
def timed_parts() -> Iterator[dict[str, float]]:
    """While open, the CPU seconds the hard player spends in each part of the simulation."""
    spent = dict.fromkeys(SIM_PARTS.values(), 0.0)
    # an older engine (a recording's) may lack some of them
    originals = {name: getattr(hard_module, name) for name in SIM_PARTS
                 if hasattr(hard_module, name)}

    def timed(inner: Callable[..., Any], part: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[part] += time.thread_time() - started
        return wrapper

    for name, inner in originals.items():
        setattr(hard_module, name, timed(inner, SIM_PARTS[name]))
    try:
        yield spent
    finally:
        for name, inner in originals.items():
            setattr(hard_module, name, inner)


def truths(decisions: list[Decision], iterations: int) -> list[dict[str, float]]:
    """Each card decision's values at `iterations` deals (another random state): the "truth" a
    cheaper search's choice is scored against (bids: empty)."""
    out: list[dict[str, float]] = []
    players: dict[int, HardPlayer] = {}
    for decision in decisions:
        if decision.view.phase is Phase.BIDDING:
            out.append({})
            continue
        player = HardPlayer(seed=10_007 + decision.hand, iterations=iterations)
        player.choose_move(decision.view)
        out.append(dict(player.last_values))
        players.clear()
    return out


def loss(move: str, truth: dict[str, float]) -> float:
    """Points the move gives up against the best by the truth's values (0 for a bid)."""
    if not truth:
        return 0.0
    code = move.split("'")[1]  # "Play(card=Card.parse('7H'), ...)"
    return max(truth.values()) - truth.get(code, min(truth.values()))


def check(decisions: list[Decision], budget_ms: float | None, profile: int,
          parts: bool = False, options: dict[str, int] | None = None,
          truth: list[dict[str, float]] | None = None, forced: float = 0.32) -> None:
    if profile:
        players: dict[int, HardPlayer] = {}
        profiler = cProfile.Profile()
        profiler.enable()
        for decision in decisions[:profile]:
            replay(decision, budget_ms, players, options)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    same_move = same_values = 0
    cpu: list[float] = []
    searched: list[int] = []
    players: dict[int, HardPlayer] = {}
    moves: list[str] = []
    HardPlayer._drawer = _timed_drawer  # type: ignore[method-assign]
    DRAWING[0] = 0.0
    try:
        with timed_parts() if parts else nullcontext({}) as spent:
            for decision in decisions:
                started = time.thread_time()
                move, values, deals = replay(decision, budget_ms, players, options)
                cpu.append(time.thread_time() - started)
                moves.append(move)
                searched.append(deals)
                same_move += move == decision.move
                same_values += move == decision.move and values == decision.values
    finally:
        HardPlayer._drawer = _DRAWER  # type: ignore[method-assign]
    count = len(decisions)
    ms = sorted(1000 * c for c in cpu)
    print(f"decisions {count}: same move {same_move}, same move and values {same_values}")
    print(f"cpu per decision ms p50/p95/mean {percentile(ms, 0.5):.1f}/{percentile(ms, 0.95):.1f}/"
          f"{statistics.mean(ms):.1f}; deals p10/p50/mean {percentile(sorted(searched), 0.1):.0f}/"
          f"{percentile(sorted(searched), 0.5):.0f}/{statistics.mean(searched):.1f}; cpu per deal "
          f"{1000 * sum(cpu) / max(1, sum(searched)):.3f} ms, drawing it "
          f"{1000 * DRAWING[0] / max(1, sum(searched)):.3f} ms ({DRAWING[0] / sum(cpu):.0%})")
    cards = [i for i, d in enumerate(decisions) if d.view.phase is not Phase.BIDDING]
    limit = budget_ms or 20.0
    over = sum(c > limit for c in ms) / count
    print(f"over {limit:g} ms: {over:.1%} of these decisions, {over * (1 - forced):.1%} of all "
          f"with a share {forced:.0%} forced")
    if cards:
        card_ms = sorted(1000 * cpu[i] for i in cards)
        print(f"card decisions {len(cards)}: cpu ms p50/p95/mean {percentile(card_ms, 0.5):.1f}/"
              f"{percentile(card_ms, 0.95):.1f}/{statistics.mean(card_ms):.1f}")
    if truth is not None:
        losses = [loss(moves[i], truth[i]) for i in cards]
        recorded = statistics.mean(loss(decisions[i].move, truth[i]) for i in cards)
        print(f"loss against the truth per card decision {statistics.mean(losses):.3f} +- "
              f"{statistics.stdev(losses) / len(losses) ** 0.5:.3f} points "
              f"(the recorded moves: {recorded:.3f})")
    if parts:
        total = sum(cpu)
        deals = max(1, sum(searched))
        shares = dict(spent) | {"rest": total - sum(spent.values())}
        print("cpu per deal by part: " + ", ".join(
            f"{part} {1000 * seconds / deals:.3f} ms ({seconds / max(total, 1e-9):.0%})"
            for part, seconds in shares.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", default=None, help="play and write the decisions to FILE")
    parser.add_argument("--check", default=None, help="replay the decisions of FILE")
    parser.add_argument("--deals", type=int, default=4, help="deals recorded (default 4)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals (default 7)")
    parser.add_argument("--iterations", type=int, default=200,
                        help="deals a decision when recording (default 200)")
    parser.add_argument("--budget", type=float, default=None,
                        help="replay with this CPU budget in ms instead of the deal count")
    parser.add_argument("--parts", action="store_true",
                        help="also print the CPU per deal in each part of the simulation")
    parser.add_argument("--bids", action="store_true",
                        help="replay only the bid decisions")
    parser.add_argument("--profile", type=int, default=0,
                        help="profile the first N decisions instead (cProfile, by own time)")
    parser.add_argument("--option", action="append", default=[],
                        help="a hard player Settings field as name=value (repeatable)")
    parser.add_argument("--truth", default=None,
                        help="score each card choice against the values in FILE (made with "
                        "--truth-deals if FILE is missing)")
    parser.add_argument("--truth-deals", type=int, default=1000,
                        help="deals a decision for a missing --truth file (default 1000)")
    args = parser.parse_args(argv)
    options = {name: int(value) for name, value in
               (option.split("=", 1) for option in args.option)}
    if args.record:
        decisions = record(args.deals, args.seed, args.iterations)
        with open(args.record, "wb") as file:
            pickle.dump(decisions, file)
        print(f"recorded {len(decisions)} decisions")
    if args.check:
        with open(args.check, "rb") as file:
            decisions = pickle.load(file)
        if args.bids:
            decisions = [d for d in decisions if d.view.phase.awaits is Bid]
        truth = None
        if args.truth:
            if os.path.exists(args.truth):
                with open(args.truth, "rb") as file:
                    truth = pickle.load(file)
            else:
                truth = truths(decisions, args.truth_deals)
                with open(args.truth, "wb") as file:
                    pickle.dump(truth, file)
        check(decisions, args.budget, args.profile, args.parts, options, truth)


if __name__ == "__main__":
    main()
