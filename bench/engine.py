"""Engine speed: random 4-player 10-card hands per second through the public API, against
OpenSpiel's C++ `oh_hell` driven from Python.

Every hand is dealt by the engine, bid with `legal_bids()` and played with `legal_cards()` (so
legality is computed and checked on every action), then `bid`/`play` (or, with `--door apply`,
`apply(Bid(...))`/`apply(Play(...))`, which also builds each move's Outcome).

When OpenSpiel is installed (`pip install open_spiel`; it is not a dependency of the project) the
same inline random driver plays its `oh_hell` (4 players, 10 tricks), rounds alternating with
ours in one process, so both are measured under the same machine load; rates are per second of
the process's CPU time, and the ratio is of the medians. Without OpenSpiel its column is left
out.

    python bench/engine.py [--hands N] [--rounds R] [--door play|apply] [--no-openspiel]

Instructions a hand, which the neighbours' load does not move: `--callgrind SIDE` plays 100 hands
to warm up, then `--hands` hands of that side inside `functools.reduce`, the one call valgrind is
told to count (divide the "Collected" figure by the hands):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect=functools_reduce python bench/engine.py --callgrind engine --hands 300

Measured on the shared 2-core machine (Python 3.11.7, open_spiel 2.0.2), before and after the
issue 22 engine work (Game in slots; the shuffle sorting small keys; Phase members read as module
names on the bid path):
- callgrind, engine: 812.0k -> 709.9k instructions a hand; OpenSpiel: 1,115.0k (1.37 -> 1.57).
- `python bench/engine.py --hands 5000 --rounds 9`, before and after taking turns, 2026-12-01:
  at 731.5k (load average 3.3-3.7): before 1.07x, 0.99x, 1.34x; after 1.34x, 1.23x, 1.01x;
  at 709.9k (load average 2.6-2.9, 20:00 UTC): before 1.16x, 0.91x; after 1.34x, 1.32x.
  On this machine a run's ratio swings by a fifth with the neighbours' load; the instruction
  counts are the steadier figure.
- The same command on main after the merges (344579c), load average 1.0, 20:40 UTC, five runs:
  1.27x, 1.40x, 1.34x, 1.16x, 1.29x (median 1.29x); 1f5b26e in turn with two of them: 1.14x,
  1.13x.
- The same command at stop 27 (4b98017, the engine unchanged since), 2026-12-02 09:12 UTC,
  load 0.8, open_spiel installed in a venv of its own: 1.32x (rounds 1.33-1.36x at the end;
  engine median 9,327 hands/s, OpenSpiel 7,059).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import Bid, Game, Phase, Play, Rules

HANDS_PER_GAME = 100


def play_hands(hands: int, seed: int) -> None:
    """Random hands through `legal_*` then `bid`/`play`: the engine's fast doors."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [10] * HANDS_PER_GAME})
    draw = random.Random(seed).random  # the driver draws inline, as the OpenSpiel one does
    for game_number in range(hands // HANDS_PER_GAME):
        game = Game.new(4, rules, seed=seed + game_number, dealer=0)
        bidding = Phase.BIDDING
        playing = Phase.PLAYING
        while True:
            phase = game.phase
            if phase is playing:
                cards = game.legal_cards()
                game.play(game.turn, cards[int(draw() * len(cards))])  # type: ignore[arg-type]
            elif phase is bidding:
                bids = game.legal_bids()
                game.bid(game.turn, bids[int(draw() * len(bids))])  # type: ignore[arg-type]
            else:
                break


def apply_hands(hands: int, seed: int) -> None:
    """The same hands through `apply`, the one door that tells each move's Outcome."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [10] * HANDS_PER_GAME})
    draw = random.Random(seed).random
    for game_number in range(hands // HANDS_PER_GAME):
        game = Game.new(4, rules, seed=seed + game_number, dealer=0)
        bidding = Phase.BIDDING
        playing = Phase.PLAYING
        while True:
            phase = game.phase
            if phase is playing:
                cards = game.legal_cards()
                game.apply(game.turn, Play(cards[int(draw() * len(cards))]))  # type: ignore[arg-type]
            elif phase is bidding:
                bids = game.legal_bids()
                game.apply(game.turn, Bid(bids[int(draw() * len(bids))]))  # type: ignore[arg-type]
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


def openspiel_installed() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def timed(run: Callable[[int, int], None], hands: int, seed: int) -> float:
    """Hands per second of this process's CPU time: on a shared machine, time spent waiting for
    a core is not the engine's (wall-clock rates move with the neighbours' load)."""
    start = time.process_time()
    run(hands, seed)
    return hands / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000,
                        help="hands per round, each side (default 10000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds timed (default 5)")
    parser.add_argument("--door", choices=("play", "apply"), default="play",
                        help="play: legal_* then bid/play; apply: legal_* then apply(move)")
    parser.add_argument("--no-openspiel", action="store_true", help="time the engine alone")
    parser.add_argument("--callgrind", choices=("engine", "openspiel"),
                        help="play one side's hands inside functools.reduce (see above), untimed")
    args = parser.parse_args()
    ours_run = play_hands if args.door == "play" else apply_hands
    if args.callgrind:
        run = ours_run if args.callgrind == "engine" else openspiel_hands
        run(100, 7)  # imports made and the interpreter's specialisations warm
        functools.reduce(lambda _first, _second: run(args.hands, 1), [None, None])
        return
    with_openspiel = not args.no_openspiel and openspiel_installed()
    if not args.no_openspiel and not with_openspiel:
        print("OpenSpiel is not installed (pip install open_spiel): timing the engine alone.")
    ours: list[float] = []
    theirs: list[float] = []
    for round_number in range(args.rounds):
        seed = round_number * 1_000_003
        if with_openspiel and round_number % 2:  # alternate who goes first under the same load
            theirs.append(timed(openspiel_hands, args.hands, seed))
            ours.append(timed(ours_run, args.hands, seed))
        else:
            ours.append(timed(ours_run, args.hands, seed))
            if with_openspiel:
                theirs.append(timed(openspiel_hands, args.hands, seed))
        line = f"round {round_number + 1}: engine {ours[-1]:,.0f} hands/s"
        if with_openspiel:
            line += f", OpenSpiel {theirs[-1]:,.0f} hands/s, ratio {ours[-1] / theirs[-1]:.2f}x"
        print(line)
    ours_median = statistics.median(ours)
    print(f"engine ({args.door}): best {max(ours):,.0f}, median {ours_median:,.0f} hands/s "
          f"(4 players, 10 cards, random legal bids and cards, Python {sys.version.split()[0]})")
    if theirs:
        theirs_median = statistics.median(theirs)
        print(f"OpenSpiel oh_hell: best {max(theirs):,.0f}, median {theirs_median:,.0f} hands/s")
        print(f"engine/OpenSpiel (medians): {ours_median / theirs_median:.2f}x")


if __name__ == "__main__":
    main()
