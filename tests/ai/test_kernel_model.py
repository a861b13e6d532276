"""The compiled trick estimate and opponent model (engine/ai/kernel/estimate.py, model.py) give
the Python ones' numbers (engine/ai/policy.py, engine/ai/opponents.py): the estimate exactly,
the likelihoods within 1e-12, on random hands and on positions of real games."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.kernel import estimate as kernel_estimate
from engine.ai.kernel import model as kernel_model
from engine.ai.kernel import rng as kernel_rng
from engine.ai.opponents import KINDS
from engine.ai.policy import TrickEstimator, easy_count
from engine.ai.sample import Sampler

from .kernel_positions import random_model, random_position
from .plain_opponents import weigh


def close(ours: float, theirs: float) -> bool:
    return abs(ours - theirs) <= 1e-12 * abs(theirs)


def test_the_stream_is_the_seeds() -> None:
    first = kernel_rng.seeded(7)
    again = kernel_rng.seeded(7)
    other = kernel_rng.seeded(8)
    ours = [kernel_rng.uniform(first) for _ in range(50)]
    assert ours == [kernel_rng.uniform(again) for _ in range(50)]
    assert ours != [kernel_rng.uniform(other) for _ in range(50)]
    assert all(0.0 <= value < 1.0 for value in ours)
    picks = [kernel_rng.below(first, 5) for _ in range(5000)]
    counts = np.bincount(picks, minlength=5)
    assert len(counts) == 5 and counts.min() > 900  # every value, about as often


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 1 << 30), long_trumps=st.booleans())
def test_the_estimate_is_the_same_float(seed: int, long_trumps: bool) -> None:
    rng = random.Random(seed)
    players = rng.randrange(2, 8)
    size = rng.randrange(1, 52 // players + 1)
    trump = rng.randrange(-1, 4)
    turned = 0 if rng.random() < 0.3 else 1 << rng.randrange(52)
    python = TrickEstimator(players, size, trump, turned, long_trumps)
    kernel = kernel_estimate.estimator(players, size, trump, turned, long_trumps)
    for _ in range(20):
        hand = rng.getrandbits(52) & rng.getrandbits(52) & ~turned
        assert kernel_estimate.estimate(hand, *kernel) == python.estimate(hand)
        assert kernel_estimate.easy_count(hand, trump) == easy_count(hand, trump)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1 << 30))
def test_the_likelihoods_are_the_models(seed: int) -> None:
    view, k = random_position(seed)
    rng = random.Random(seed)
    model = random_model(view, k, rng)
    packed = kernel_model.pack_model(model)
    sampler = Sampler(k)
    for _ in range(20):
        hands, _stock = sampler.sample(rng)
        for seat in range(k.players):
            ours = kernel_model.seat_likelihoods(seat, hands[seat], packed)
            theirs = model.seat_likelihoods(seat, hands[seat])
            assert all(close(a, b) for a, b in zip(ours, theirs, strict=True)), (seat, ours, theirs)
        kinds = np.zeros(k.players, dtype=np.int64)
        weight = kernel_model.weigh(np.array(hands, dtype=np.int64), packed,
                                    kernel_rng.seeded(seed), kinds)
        assert close(weight, weigh(model, hands, rng)[0])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 1 << 30))
def test_a_kind_is_drawn_as_often_as_its_likelihood(seed: int) -> None:
    rng = random.Random(seed)
    likely = (rng.random(), rng.random(), rng.random() * 0.1, rng.random())
    state = kernel_rng.seeded(seed)
    drawn = {kind: 0 for kind in KINDS}
    for _ in range(4000):
        drawn[kernel_model.draw_kind(likely, state)] += 1
    expected = dict.fromkeys(KINDS, 0.0)
    for kind, chance in zip(KINDS, likely, strict=True):
        expected[kind] += chance / sum(likely) * 4000
    assert all(abs(drawn[kind] - expected[kind]) < 200 for kind in KINDS)  # 6 sigma
