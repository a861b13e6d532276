"""Computer players' decisions, run in an executor so the event loop never waits on them.

`decide` is a plain top-level function of picklable arguments, so it runs the same in a thread
pool (tests, small bots) and in a process pool (the hard player is CPU-bound pure Python).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine import PlayerView
from engine.ai import create_player

log = logging.getLogger(__name__)

Decide = Callable[[str, int, PlayerView], Any]
"""(level, seed, view) -> a bid (int), a Card, a Suit, or a list of Cards to discard."""


def decide(level: str, seed: int, view: PlayerView) -> Any:
    """What a computer of `level` does in `view` (the phase says which decision).

    A failing player never stalls a game: its seat makes a random legal move instead.
    """
    try:
        return create_player(level, seed=seed).choose_action(view)
    except Exception:
        log.exception("computer player %s failed; playing a random legal move", level)
    return random_move(view, seed)


def random_move(view: PlayerView, seed: int) -> Any:
    """A uniformly random legal move: the fallback, and what the `random` level does."""
    return create_player("random", seed=seed).choose_action(view)


__all__ = ["Decide", "decide", "random_move"]
