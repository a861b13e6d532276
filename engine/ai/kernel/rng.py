"""A random stream the kernels carry as data: splitmix64 on one uint64 in a numpy array.

Python's random.Random cannot be called from compiled code, so a compiled drawer keeps its own
state, seeded once from the player's rng (`seeded(rng.getrandbits(64))`): the same seed gives
the same stream, so a decision still replays from its seed."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.ai.kernel.bits import bit_length, inline

State = npt.NDArray[np.uint64]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0
"""2 ** -53: a double's 53 bits of fraction."""


def seeded(seed: int) -> State:
    """A fresh state from a 64-bit seed."""
    return np.array([seed % (1 << 64)], dtype=np.uint64)


@inline
def next_bits(state: State) -> np.uint64:
    """The next 64 random bits (splitmix64: passes BigCrush, one add and two multiplies)."""
    z = state[0] + _GOLDEN
    state[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)  # type: ignore[no-any-return]


@inline
def uniform(state: State) -> float:
    """A float in [0, 1), every multiple of 2 ** -53 equally likely."""
    return float(next_bits(state) >> _S11) * _UNIT


@inline
def below(state: State, n: int) -> int:
    """An int in [0, n) (n >= 1), unbiased: the top bit_length(n) bits, drawn again while too
    big, as Python's randrange draws."""
    shift = np.uint64(64 - bit_length(n))
    pick = int(next_bits(state) >> shift)
    while pick >= n:
        pick = int(next_bits(state) >> shift)
    return pick
