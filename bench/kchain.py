"""Drawing a decision's deals: infer.py's Chain against the compiled chain (engine/ai/kernel).

Positions: 4 players, 7 cards, classic rules; seat 0 plays `medium` against `easy` and `medium`
players, and at each of its card decisions after the first trick both drawers draw `--deals`
deals from the same position (the model as hard builds it, exact bids, no history), by the chain
and by the plain weighed draw (hard.py's `_draw`). Prints the CPU per deal drawn (the chain's
start apart), each chain's start, and the ratios.

    python -m bench.kchain --games 20 --deals 200    (from the repository root)

Measured so (120 decisions, 2 shared cores, nice 10): the chain 35.5 us a deal in Python, 2.59
us compiled into rows (14x; 9.3 us through `draw()`, a tuple of lists a deal), its start 0.50
against 0.20 ms a decision; the weighed draw 37.2 against 2.8 us (13x).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from engine import Game, Phase, Rules
from engine.ai import create_player
from engine.ai.infer import Chain
from engine.ai.kernel.chain import KernelDrawer
from engine.ai.kernel.play import WIDTH
from engine.ai.knowledge import read_view
from engine.ai.opponents import OpponentModel
from engine.ai.sample import Sampler
from engine.view import PlayerView


def positions(games: int) -> list[PlayerView]:
    """Seat 0's card decisions after the first trick, over `games` deals."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    players = [create_player(level, seed=seat)
               for seat, level in enumerate(("medium", "easy", "medium", "easy"))]
    views = []
    for seed in range(games):
        game = Game.new(4, rules, seed=seed, dealer=seed % 4)
        while game.phase is not Phase.GAME_OVER and game.hand_number == 1:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            if seat == 0 and view.phase is Phase.PLAYING and view.tricks_played:
                views.append(view)
            game.apply(seat, players[seat].choose_move(view))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    views = positions(args.games)
    rows = np.zeros((args.deals, WIDTH), dtype=np.int64)
    first = read_view(views[0])
    for steps in (args.steps, 0):  # compiled (or loaded) before any clock runs
        KernelDrawer(Sampler(first), OpponentModel(views[0], first, True, True), 1,
                     steps).draw_rows(rows, 1)
    spent = {"python start": 0.0, "python": 0.0, "kernel start": 0.0, "kernel rows": 0.0,
             "kernel draw()": 0.0, "python weighed": 0.0, "kernel weighed": 0.0}
    for index, view in enumerate(views):
        k = read_view(view)
        sampler = Sampler(k)
        model = OpponentModel(view, k, True, True)  # a fresh model: no memo carried over
        clock = time.process_time()
        chain = Chain(sampler, model, random.Random(index), args.steps)
        spent["python start"] += time.process_time() - clock
        clock = time.process_time()
        for _ in range(args.deals):
            chain.draw()
        spent["python"] += time.process_time() - clock
        clock = time.process_time()
        drawer = KernelDrawer(sampler, OpponentModel(view, k, True, True), index, args.steps)
        spent["kernel start"] += time.process_time() - clock
        clock = time.process_time()
        drawer.draw_rows(rows, args.deals)
        spent["kernel rows"] += time.process_time() - clock
        clock = time.process_time()
        for _ in range(args.deals):
            drawer.draw()
        spent["kernel draw()"] += time.process_time() - clock
        rng = random.Random(index)  # the plain draw: sampled, then weighed (hard.py `_draw`)
        clock = time.process_time()
        for _ in range(args.deals):
            hands, _stock = sampler.sample(rng)
            model.weigh(hands, rng)
        spent["python weighed"] += time.process_time() - clock
        weighed = KernelDrawer(sampler, model, index, 0)
        clock = time.process_time()
        weighed.draw_rows(rows, args.deals)
        spent["kernel weighed"] += time.process_time() - clock
    decisions = len(views)
    print(f"{decisions} decisions, {args.deals} deals each, {args.steps} steps a deal")
    for name, seconds in spent.items():
        if "start" in name:
            print(f"{name:>14}: {seconds / decisions * 1e3:8.3f} ms a decision")
        else:
            print(f"{name:>14}: {seconds / decisions / args.deals * 1e6:8.2f} us a deal")
    print(f"python / kernel rows, per deal: {spent['python'] / spent['kernel rows']:.1f}x; "
          f"weighed: {spent['python weighed'] / spent['kernel weighed']:.1f}x")


if __name__ == "__main__":
    main()
