"""The opponent model's weighing of a whole deal in plain Python, on engine/ai/opponents.py's
OpponentModel: the definition engine/ai/kernel/model.py's `weigh` and `draw_kind` are held to
(tests/ai/test_kernel_model.py), and how the tests read a model's kinds off sampled deals."""

from __future__ import annotations

import math
import random

from engine.ai.opponents import FLOOR, KINDS, Likelihoods, OpponentModel
from engine.ai.sim import MEDIUM


def weigh(model: OpponentModel, hands: list[int], rng: random.Random) -> tuple[float, list[int]]:
    """(weight of this deal, a kind per seat drawn from its posterior)."""
    kinds = [MEDIUM] * model.players
    if not model.active:
        for seat, prior in model.priors.items():  # nothing seen yet: as earlier hands tell
            kinds[seat] = draw_kind(prior, rng)
        return _bid_weight_only(model, hands), kinds
    weight = 1.0
    for seat in model.opponents:
        likely = model.seat_likelihoods(seat, hands[seat])
        total = sum(likely)
        if total <= 0.0:
            return 0.0, kinds
        weight *= total
        pick = rng.random() * total
        for kind, chance in zip(KINDS, likely, strict=True):
            if pick < chance:
                kinds[seat] = kind
                break
            pick -= chance
    return weight, kinds


def draw_kind(likely: Likelihoods, rng: random.Random) -> int:
    """A kind drawn in proportion to `likely` (per kind, KINDS order)."""
    pick = rng.random() * sum(likely)
    for kind, chance in zip(KINDS, likely, strict=True):
        if pick < chance:
            return kind
        pick -= chance
    return KINDS[0]


def _bid_weight_only(model: OpponentModel, hands: list[int]) -> float:
    """The weight where the model is off or has seen no play: each bid seen, a bell around
    medium's estimate of the hand."""
    weight = 1.0
    estimate = model.estimator.estimate
    for seat, bid in model.bids.items():
        diff = bid - estimate(hands[seat] | model.played_by[seat])
        sigma = 1.0 * model.widen[seat]
        weight *= FLOOR + math.exp(-diff * diff / (2 * sigma * sigma))
    return weight
