"""Computer players' decisions, run in an executor so the event loop never waits on them.

`decide` is a plain top-level function of picklable arguments, so it runs the same in a thread
pool (tests, small bots) and in a process pool (the hard player is CPU-bound pure Python).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine import PlayerView

log = logging.getLogger(__name__)

Decide = Callable[[str, int, "PlayerView"], Any]
"""(level, seed, view) -> a bid (int), a Card, a Suit, or a list of Cards to discard."""


def _create_player(level: str, seed: int) -> Any | None:
    """engine.ai's player, or None while engine.ai does not provide one yet."""
    try:
        from engine.ai import create_player
    except ImportError:
        return None
    return create_player(level, seed=seed)


def decide(level: str, seed: int, view: PlayerView) -> Any:
    """What a computer of `level` does in `view` (the phase says which decision).

    Falls back to a random legal move when engine.ai is missing or its answer fails.
    """
    try:
        player = _create_player(level, seed)
        if player is not None:
            return _ask(player, view)
    except Exception:
        log.exception("computer player %s failed; playing a random legal move", level)
    return random_move(view, seed)


def _ask(player: Any, view: PlayerView) -> Any:
    from engine import Phase

    phase = view.phase
    if phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        return player.choose_bid(view)
    if phase is Phase.PLAYING:
        return player.choose_card(view)
    if phase is Phase.TRUMP_CHOICE:
        return player.choose_trump(view)
    if phase is Phase.DISCARD:
        return list(player.choose_discards(view))
    raise ValueError(f"nothing to decide in phase {phase}")


def random_move(view: PlayerView, seed: int) -> Any:
    """A uniformly random legal move: the fallback (and what the `random` level does)."""
    from engine import Phase, Suit

    rng = random.Random(seed)
    phase = view.phase
    if phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        return rng.choice(view.legal_bids)
    if phase is Phase.PLAYING:
        return rng.choice(view.legal_cards)
    if phase is Phase.TRUMP_CHOICE:
        return rng.choice(view.legal_trumps or tuple(Suit))
    if phase is Phase.DISCARD:
        return rng.sample(list(view.hand), view.discards_needed)
    raise ValueError(f"nothing to decide in phase {phase}")


__all__ = ["Decide", "decide", "random_move"]
