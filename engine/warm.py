"""Compile the hard player's kernels ahead of the first game (`python -m engine.warm`).

A kernel is compiled the first time it runs (about 20 s for all of them on these machines) and
then loaded from numba's cache (well under a second): the Dockerfile runs this while building,
and the bot's computer processes run it as they start, so no player waits on a compiler.
"""

from __future__ import annotations

import time

from engine.ai.hard import HardPlayer
from engine.ai.hint import suggest
from engine.game import Game
from engine.moves import Phase
from engine.rules import Rules


def warm_up() -> float:
    """Play one small hand with hard players in every seat, and a hint: every kernel the
    default player and hints run is compiled or loaded. Returns the seconds it took."""
    started = time.perf_counter()
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [3], "hand_count": 1})
    game = Game.new(3, rules, seed=1, dealer=0)
    players = [HardPlayer(seed, iterations=4) for seed in range(3)]
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        view = game.view(seat)
        if game.phase is Phase.PLAYING and seat == 0:
            suggest(view, seed=1, iterations=4)
        game.apply(seat, players[seat].choose_move(view))
    return time.perf_counter() - started


if __name__ == "__main__":
    print(f"hard player's kernels ready in {warm_up():.1f} s")
