"""engine/ai/policy.py's trick estimate and easy count, compiled: the same floats from the same
operations in the same order.

The opponent model estimates every hand it weighs (thousands a decision). As in policy.py a
suit's share depends only on the estimator's arguments and the suit's pattern, so the shares
are kept in a table per estimator (filled as patterns come, NaN until then) and the tables are
shared by the decisions of a hand, by key."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.ai.kernel.bits import SUIT, bit_count, bit_length, inline, jit, suit_mask
from engine.ai.policy import ACES, HONOURS, _binom_cdf_table, _outlast_table, _survive_table

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

PATTERNS = 4 * 8192
"""A table's rows: suit * 8192 + the hand's ranks in that suit (policy.py's parts key)."""
SIDE, SHORT, TRUMP_VALUE, TRUMPS = 0, 1, 2, 3
"""A row's columns: side tricks, short-suit bonus, trump tricks, trumps held."""
INFO_SIZE, INFO_TRUMP, INFO_TURNED, INFO_LONG = 0, 1, 2, 3


class Estimator(NamedTuple):
    """What the compiled estimate reads: the shares kept so far and policy.py's tables."""

    parts: Floats
    cdf: Floats
    survive: Floats
    outlast: Floats
    info: Ints


_TABLES: dict[tuple[int, int, int, int, bool], Estimator] = {}
TABLES_KEPT = 16
"""Estimators kept, by (players, size, trump, turned card, long_trumps); each holds 1 MiB."""


def estimator(
    players: int, size: int, trump: int, turned: int, long_trumps: bool = False
) -> Estimator:
    """policy.py's TrickEstimator(players, size, trump, turned, long_trumps) as the kernels
    read it, its shares shared with every estimator of the same key."""
    key = (players, size, trump, turned, long_trumps)
    kept = _TABLES.get(key)
    if kept is not None:
        return kept
    if len(_TABLES) >= TABLES_KEPT:
        _TABLES.clear()
    hidden = 52 - size - (1 if turned else 0)
    p_out = min(0.95, (players - 1) * size / max(hidden, 1))
    long = long_trumps and trump >= 0
    outlast = np.zeros((18, 18))
    if long:
        outlast = np.array(_outlast_table(players, size, hidden), dtype=np.float64)
    parts = np.zeros((PATTERNS, 4))
    parts[:, SIDE] = math.nan
    kept = _TABLES[key] = Estimator(
        parts,
        np.array(_binom_cdf_table(round(p_out, 3), 17), dtype=np.float64),
        np.array(_survive_table(players, size, hidden, trump >= 0), dtype=np.float64),
        outlast,
        np.array([size, trump, turned, long], dtype=np.int64),
    )
    return kept


@jit
def fill_part(key: int, parts: Floats, cdf: Floats, survive: Floats, outlast: Floats,
              info: Ints) -> None:
    """One suit's share (policy.py TrickEstimator._part), into its row of `parts`."""
    suit = key >> 13
    cards = (key & SUIT) << (13 * suit)
    not_mine = suit_mask(suit) & ~cards & ~info[INFO_TURNED]
    trump = info[INFO_TRUMP]
    value = 0.0
    k = 0
    if suit == trump:
        trumps = bit_count(cards)
        row = bit_count(not_mine)
        while cards:
            card = bit_length(cards) - 1
            cards ^= 1 << card
            above = not_mine & suit_mask(suit) & ~((2 << card) - 1)
            wins = cdf[bit_count(above), k]
            if info[INFO_LONG]:
                wins += (1.0 - wins) * outlast[row, k]
            value += wins
            k += 1
        parts[key, SHORT] = 0.0
        parts[key, TRUMP_VALUE] = value
        parts[key, TRUMPS] = trumps
        parts[key, SIDE] = 0.0
        return
    length = bit_count(cards)
    short = 2 - length if trump >= 0 and info[INFO_SIZE] >= 3 and length < 2 else 0
    while cards:
        card = bit_length(cards) - 1
        cards ^= 1 << card
        above = not_mine & suit_mask(suit) & ~((2 << card) - 1)
        value += cdf[bit_count(above), k] * survive[k]
        k += 1
    parts[key, SHORT] = short
    parts[key, TRUMP_VALUE] = 0.0
    parts[key, TRUMPS] = 0.0
    parts[key, SIDE] = value


@inline
def _row(key: int, parts: Floats, cdf: Floats, survive: Floats, outlast: Floats,
         info: Ints) -> int:
    if math.isnan(parts[key, SIDE]):
        fill_part(key, parts, cdf, survive, outlast, info)
    return key


@jit
def estimate(hand: int, parts: Floats, cdf: Floats, survive: Floats, outlast: Floats,
             info: Ints) -> float:
    """TrickEstimator.estimate(hand)."""
    a = _row(hand & SUIT, parts, cdf, survive, outlast, info)
    b = _row(hand >> 13 & SUIT | 0x2000, parts, cdf, survive, outlast, info)
    c = _row(hand >> 26 & SUIT | 0x4000, parts, cdf, survive, outlast, info)
    d = _row(hand >> 39 & SUIT | 0x6000, parts, cdf, survive, outlast, info)
    total = parts[a, SIDE] + parts[b, SIDE] + parts[c, SIDE] + parts[d, SIDE]
    trumps = parts[a, TRUMPS] + parts[b, TRUMPS] + parts[c, TRUMPS] + parts[d, TRUMPS]
    if trumps:
        trump_value = (parts[a, TRUMP_VALUE] + parts[b, TRUMP_VALUE] + parts[c, TRUMP_VALUE]
                       + parts[d, TRUMP_VALUE])
        spare = trumps - trump_value
        if not spare > 0.0:
            spare = 0.0
        short = parts[a, SHORT] + parts[b, SHORT] + parts[c, SHORT] + parts[d, SHORT]
        total += trump_value + (short if short < spare else spare) * 0.45
    return total  # type: ignore[no-any-return]


@jit
def easy_count(hand: int, trump: int) -> int:
    """policy.py easy_count: aces, trump honours (Q and up) and trumps beyond three."""
    if trump < 0:
        return bit_count(hand & ACES)
    trumps = hand & suit_mask(trump)
    count = bit_count(hand & ACES & ~trumps) + bit_count(trumps & HONOURS)
    extra = bit_count(trumps) - 3
    return count + extra if extra > 0 else count
