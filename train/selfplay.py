"""Self-play data for the learned hard player (engine/ai/learned.py): hard's own search values.

Plays seeded single hands (4 players, classic, a hand size drawn from 1..10) with one `hard` seat
searching `--deals` deals a decision against rule-based opponents (each seat `easy`, `medium` or
the bench's simple player, drawn per hand), and records at each of hard's decisions with a
choice the features its seat sees and the search's mean score of every candidate (cards in the
models' suit order). A hand has one bid per seat but several cards, so hard's search also
labels the opponents' bid decisions (they still bid their own way). Hard plays the candidate
its search values most, so the positions are the ones it reaches. Lives in train/ with the
fitting script: neither engine code (it writes files) nor a benchmark (it prints no figures to
compare).

    nice -n 19 .venv/bin/python train/selfplay.py --seed 1 --first 0 --hands 500 --deals 16 \\
        --out train/data/selfplay-1-0.npz

The output is reproducible from (seed, first, hands, deals): every hand's rules, deal and players
come from the seed and the hand's number, and hard searches a fixed number of deals, so a run
split into chunks of hands writes the same decisions as one run. Deals a decision: 16 by
measurement (hard's values at 8/16/32/64 deals against 400, 161 decisions of hands 1..10: mean
squared error of the centred values 1.89/1.22/0.87/0.56 for 8.7/15/28/51 ms of CPU): past 16
the error falls more slowly than the cost grows, and below it the fixed cost of a decision
starts to weigh.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "bench"))

from anchor import SimplePlayer  # the simple rule-based opponent

from engine import Game, Phase, Rules
from engine.ai import create_player
from engine.ai.hard import HardPlayer
from engine.ai.knowledge import read_view
from engine.ai.learned import BIDS, _permutation, bid_features, card_features
from engine.moves import Bid, Play
from engine.view import PlayerView

PLAYERS = 4
OPPONENTS = ("easy", "medium", "simple")


def hand_rules(size: int) -> Rules:
    return Rules.preset("classic").model_copy(
        update={"hand_sizes": [size], "hand_count": 1, "game_end": "sequence"}
    )


def opponent(level: str, seed: int) -> Any:
    return SimplePlayer() if level == "simple" else create_player(level, seed=seed)


def labelled(view: PlayerView, values: dict[int, float]) -> tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray, bool]:
    """(features, values, mask, is a bid) of one decision, cards in the models' order."""
    k = read_view(view)
    if view.phase.awaits is Bid:
        target = np.zeros(BIDS, dtype=np.float32)
        mask = np.zeros(BIDS, dtype=np.float32)
        for bid, value in values.items():
            if bid < BIDS:
                target[bid] = value
                mask[bid] = 1.0
        return bid_features(view, k), target, mask, True
    perm = _permutation(k.trump)
    target = np.zeros(52, dtype=np.float32)
    mask = np.zeros(52, dtype=np.float32)
    for card, value in values.items():
        target[perm[card]] = value
        mask[perm[card]] = 1.0
    return card_features(view, k), target, mask, False


def record(view: PlayerView, values: dict[int, float], rows: dict[str, list[np.ndarray]]) -> None:
    if len(values) > 1:
        features, target, mask, is_bid = labelled(view, values)
        kind = "bid" if is_bid else "card"
        rows[f"{kind}_x"].append(features)
        rows[f"{kind}_y"].append(target)
        rows[f"{kind}_m"].append(mask)


def play_hand(seed: int, number: int, deals: int, rows: dict[str, list[np.ndarray]]) -> None:
    rng = random.Random(seed * 1_000_003 + number)
    size = rng.randint(1, 10)
    me = rng.randrange(PLAYERS)
    game = Game.new(PLAYERS, hand_rules(size), seed=rng.randrange(1 << 30),
                    dealer=rng.randrange(PLAYERS))
    seats: list[Any] = [opponent(rng.choice(OPPONENTS), rng.randrange(1 << 30))
                        for _ in range(PLAYERS)]
    hard = HardPlayer(seed=rng.randrange(1 << 30), iterations=deals)
    seats[me] = hard
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        view = game.view(seat)
        if seat != me:
            if view.phase.awaits is Bid and len(view.legal_bids) > 1:
                record(view, hard.search_values(view), rows)  # bids are scarce: label all
            game.apply(seat, seats[seat].choose_move(view))
            continue
        bidding = view.phase.awaits is Bid
        if len(view.legal_bids if bidding else view.legal_cards) == 1:
            game.apply(seat, hard.choose_move(view))
            continue
        values = hard.search_values(view)
        choice = max(values, key=lambda option: (values[option], -option))
        record(view, values, rows)
        if bidding:
            game.apply(seat, Bid(choice))
        else:
            game.apply(seat, Play(next(c for c in view.legal_cards if c.index == choice)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first hand's number")
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--deals", type=int, default=32, help="deals hard searches a decision")
    parser.add_argument("--out", required=True, help="the .npz file written")
    args = parser.parse_args(argv)
    rows: dict[str, list[np.ndarray]] = {
        f"{kind}_{part}": [] for kind in ("card", "bid") for part in "xym"
    }
    started = time.perf_counter()
    for done, number in enumerate(range(args.first, args.first + args.hands), 1):
        play_hand(args.seed, number, args.deals, rows)
        if done % 100 == 0:
            print(f"  {done}/{args.hands} hands, {len(rows['card_x'])} card and "
                  f"{len(rows['bid_x'])} bid decisions, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **{name: np.array(value, dtype=np.float32)
                                     for name, value in rows.items()})
    print(f"{args.out}: {len(rows['card_x'])} card and {len(rows['bid_x'])} bid decisions "
          f"from hands {args.first}..{args.first + args.hands - 1}, seed {args.seed}, "
          f"{args.deals} deals a decision, "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
