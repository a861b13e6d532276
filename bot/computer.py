"""Computer players' decisions, run in an executor so the event loop never waits on them.

`decide` is a plain top-level function of picklable arguments, so it runs the same in a thread
pool (tests, small bots) and in a process pool (the hard player is CPU-bound pure Python).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import Move, Phrase, PlayerView
from engine.ai import create_player, suggest

log = logging.getLogger(__name__)

Decide = Callable[[str, int, PlayerView], Move]
"""(level, seed, view) -> the move (the phase of `view` says which kind)."""


def decide(level: str, seed: int, view: PlayerView) -> Move:
    """What a computer of `level` does in `view`.

    A failing player never stalls a game: its seat makes a random legal move instead.
    """
    try:
        return create_player(level, seed=seed).choose_move(view)
    except Exception:
        log.exception("computer player %s failed; playing a random legal move", level)
    return random_move(view, seed)


def hint(view: PlayerView, seed: int) -> Phrase:
    """The hard computer's suggestion for this view's pending decision, with its reason in
    numbers (engine.ai.suggest), within the hard computer's own time budget. ValueError when the
    view's seat has nothing to decide."""
    return suggest(view, seed=seed).phrase


def random_move(view: PlayerView, seed: int) -> Move:
    """A uniformly random legal move: the fallback, and what the `random` level does."""
    return create_player("random", seed=seed).choose_move(view)


__all__ = ["Decide", "decide", "hint", "random_move"]
