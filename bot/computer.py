"""Computer players' decisions, run in an executor so the event loop never waits on them.

`decide` is a plain top-level function of picklable arguments, so it runs the same in a thread
pool (tests, small bots) and in a process pool (the hard player is CPU-bound pure Python).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine import Bid, Move, NameTrump, Play, PlayerView
from engine.ai import create_player

log = logging.getLogger(__name__)

Decide = Callable[[str, int, PlayerView], Any]
"""(level, seed, view) -> a bid (int), a Card, a Suit, or a list of Cards to discard."""


def decide(level: str, seed: int, view: PlayerView) -> Any:
    """What a computer of `level` does in `view` (the phase says which decision).

    A failing player never stalls a game: its seat makes a random legal move instead.
    """
    try:
        return _raw(create_player(level, seed=seed).choose_move(view))
    except Exception:
        log.exception("computer player %s failed; playing a random legal move", level)
    return random_move(view, seed)


def random_move(view: PlayerView, seed: int) -> Any:
    """A uniformly random legal move: the fallback, and what the `random` level does."""
    return _raw(create_player("random", seed=seed).choose_move(view))


def _raw(move: Move) -> Any:
    """The move's argument, as the service's string-kind pipeline still takes it."""
    if isinstance(move, Bid):
        return move.tricks
    if isinstance(move, Play):
        return move.card
    if isinstance(move, NameTrump):
        return move.suit
    return list(move.cards)


__all__ = ["Decide", "decide", "random_move"]
