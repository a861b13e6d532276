"""A bid decision's rollouts, compiled: one deal played out once per candidate bid
(tests/ai/plain_sim.py's `rollouts`, which shares the cards the candidates play alike; here a
whole rollout costs about as much as sharing would save)."""

from __future__ import annotations

import numpy as np

from engine.ai.kernel.bits import jit
from engine.ai.kernel.play import WIDTH, WON, Row, advance


@jit
def bid_rollouts(row: Row, rules: Row, variants: Row, me: int, won: Row) -> None:
    """`won[v]`: the tricks `me` wins when the deal `row` is played out by every seat's policy
    with the bids `variants[v]`. `row` is left as it was."""
    state = np.empty(WIDTH, dtype=np.int64)
    for variant in range(variants.shape[0]):
        state[:] = row
        advance(state, rules, variants[variant], -1, 0, -1)
        won[variant] = state[WON + me]
