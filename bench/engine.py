"""Engine speed: random 4-player 10-card hands per second through the public API.

Every hand is dealt by the engine, bid with `legal_bids()` and played with `legal_cards()`
(so legality is computed and checked on every action). Prints hands/s over a few rounds.

With `--openspiel` it also drives OpenSpiel's C++ `oh_hell` (4 players, 10 tricks) from Python
with the same inline random driver, rounds interleaved with ours, so both are measured under the
same machine load. OpenSpiel is not a dependency: `pip install open_spiel` in the environment
you run this from.

    python bench/engine.py [--hands N] [--rounds R] [--openspiel]
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


def openspiel_hands(hands: int, seed: int) -> None:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    draw = random.Random(seed).random
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(draw() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])


def timed(run: object, hands: int, seed: int) -> float:
    start = time.perf_counter()
    run(hands, seed)  # type: ignore[operator]
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands a round (default 20000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds timed (default 3)")
    parser.add_argument("--openspiel", action="store_true", help="also time OpenSpiel's oh_hell")
    args = parser.parse_args()
    ours: list[float] = []
    theirs: list[float] = []
    for round_number in range(args.rounds):
        seed = round_number * 1_000_003
        ours.append(timed(play_hands, args.hands, seed))
        line = f"round {round_number + 1}: engine {ours[-1]:,.0f} hands/s"
        if args.openspiel:
            theirs.append(timed(openspiel_hands, args.hands, seed))
            line += f", OpenSpiel {theirs[-1]:,.0f} hands/s"
        print(line)
    print(f"engine: best {max(ours):,.0f}, median {sorted(ours)[len(ours) // 2]:,.0f} hands/s "
          f"(4 players, 10 cards, random legal bids and cards, Python {sys.version.split()[0]})")
    if theirs:
        print(f"OpenSpiel oh_hell: best {max(theirs):,.0f}, median "
              f"{sorted(theirs)[len(theirs) // 2]:,.0f} hands/s; engine/OpenSpiel (medians) "
              f"{sorted(ours)[len(ours) // 2] / sorted(theirs)[len(theirs) // 2]:.2f}x")


if __name__ == "__main__":
    main()
