"""Engine speed: random 4-player 10-card hands per second through the public API.

Every hand is dealt by the engine, bid with `legal_bids()` and played with `legal_cards()`
(so legality is computed and checked on every action). Prints hands/s over a few rounds.

    python bench/engine.py [--hands N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import Game, Phase, Rules

HANDS_PER_GAME = 100


def play_hands(hands: int, seed: int) -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [10] * HANDS_PER_GAME})
    draw = random.Random(seed).random  # the driver draws inline, as the OpenSpiel one does
    games = hands // HANDS_PER_GAME
    for game_number in range(games):
        game = Game.new(4, rules, seed=seed + game_number, dealer=0)
        bidding = Phase.BIDDING
        playing = Phase.PLAYING
        while True:
            phase = game.phase
            if phase is playing:
                cards = game.legal_cards()
                game.play(game.turn, cards[int(draw() * len(cards))])
            elif phase is bidding:
                bids = game.legal_bids()
                game.bid(game.turn, bids[int(draw() * len(bids))])
            else:
                break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates = []
    for round_number in range(args.rounds):
        start = time.perf_counter()
        play_hands(args.hands, seed=round_number * 1_000_003)
        elapsed = time.perf_counter() - start
        rates.append(args.hands / elapsed)
        print(f"round {round_number + 1}: {args.hands} hands in {elapsed:.2f} s = "
              f"{args.hands / elapsed:,.0f} hands/s")
    print(f"best {max(rates):,.0f} hands/s, median {sorted(rates)[len(rates) // 2]:,.0f} hands/s "
          f"(4 players, 10 cards, random legal bids and cards, Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
