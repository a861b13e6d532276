"""Computer players for Oh Hell.

    from engine.ai import create_player
    player = create_player("hard", seed=1)            # 18 ms of CPU a decision by default
    player = create_player("hard", seed=1, iterations=200)   # deterministic: 200 sampled deals
    player.choose_bid(view) -> int        # sequential, simultaneous and blind bids
    player.choose_card(view) -> Card
    player.choose_trump(view) -> Suit     # dealer picks the suit
    player.choose_discards(view) -> list[Card]
    player.choose_move(view)              # the Move the view's phase awaits (engine.moves)
    suggest(view, seed=1) -> Hint         # hard's move for a person, its reason in numbers
    create_player("hard", seed=1, think_time=0.01, learned=1)  # learned models, search if close

Levels: `random` (uniform legal moves), `easy` (simple rules), `medium` (counts cards and voids,
bids sure and likely tricks, ducks once made, takes when it must) and `hard` (determinized
search with rollouts, bids from simulation; its inner loops compiled, engine/ai/kernel/).
Players see only a PlayerView, never a Game.
Everything is pure and deterministic given the seed, except the hard player's optional time
budget (`think_time`, seconds); give `iterations` alone for reproducible decisions.
"""

from __future__ import annotations

from engine.ai.hard import DEFAULT_THINK_TIME, HardPlayer
from engine.ai.hint import Hint, suggest
from engine.ai.players import EasyPlayer, MediumPlayer, Player, RandomPlayer

LEVELS = ("random", "easy", "medium", "hard")


def create_player(
    level: str,
    seed: int = 0,
    think_time: float | None = None,
    iterations: int | None = None,
    **options: int,
) -> Player:
    """A computer player of `level` ("random", "easy", "medium" or "hard").

    `think_time` and `iterations` bound the hard player's search per decision (seconds, sampled
    deals); with neither, it thinks for DEFAULT_THINK_TIME seconds. Other levels ignore both.
    `options` tune the hard player's search (see HardPlayer); other levels take none.
    """
    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "easy":
        return EasyPlayer(seed)
    if key == "medium":
        return MediumPlayer(seed)
    if key == "hard":
        return HardPlayer(seed, think_time=think_time, iterations=iterations, **options)
    raise ValueError(f"There is no computer level {level!r}: choose one of {', '.join(LEVELS)}.")


__all__ = [
    "DEFAULT_THINK_TIME",
    "LEVELS",
    "EasyPlayer",
    "HardPlayer",
    "Hint",
    "MediumPlayer",
    "Player",
    "RandomPlayer",
    "create_player",
    "suggest",
]
