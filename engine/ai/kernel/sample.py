"""engine/ai/sample.py's Sampler, compiled: deals consistent with one seat's knowledge, each
unseen card to a seat that may hold it or out of play, most constrained suits first (the same
method; the stream is the kernels' own, engine/ai/kernel/rng.py)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.ai.kernel import rng
from engine.ai.kernel.bits import jit
from engine.ai.sample import Sampler

Ints = npt.NDArray[np.int64]

ATTEMPTS = 40
RELAX_FROM = 30
"""As sample.py: after this many failed attempts, voids are ignored (a deal always fits)."""


class Deals(NamedTuple):
    """A Sampler as the kernels read it: the seats dealt to, each one's known cards (every
    seat's), room left and voids, the unseen cards (fewest allowed slots first), how many slots
    may take each suit, and the out-of-play room ([out_cap, any void])."""

    seats: Ints
    base: Ints
    caps: Ints
    voids: Ints
    pool: Ints
    suit_allowed: Ints
    info: Ints


OUT_CAP, ANY_VOID = 0, 1


def pack_sampler(sampler: Sampler) -> Deals:
    return Deals(
        np.array(sampler.seats, dtype=np.int64),
        np.array(sampler.base, dtype=np.int64),
        np.array(sampler.caps, dtype=np.int64),
        np.array(sampler.voids, dtype=np.int64),
        np.array(sampler.pool, dtype=np.int64),
        np.array(sampler.suit_allowed, dtype=np.int64),
        np.array([sampler.out_cap, any(sampler.voids)], dtype=np.int64),
    )


@jit
def shuffle(items: Ints, count: int, state: rng.State) -> None:
    """The first `count` items in random order (Fisher-Yates, as sample.py's shuffle)."""
    for last in range(count - 1, 0, -1):
        pick = rng.below(state, last + 1)
        items[last], items[pick] = items[pick], items[last]


@jit
def sample(deals: Deals, state: rng.State, hands: Ints, stock: Ints, pool: Ints) -> int:
    """Sampler.sample: `hands` (one per seat) and `stock` get a consistent deal; returns how
    many cards are out of play (the first of `stock`, in random order). `pool` is scratch of
    the pool's length."""
    cards = deals.pool.shape[0]
    if not deals.info[ANY_VOID]:
        pool[:] = deals.pool
        shuffle(pool, cards, state)
        hands[:] = deals.base
        start = 0
        for index in range(deals.seats.shape[0]):
            mask = 0
            for card in pool[start:start + deals.caps[index]]:
                mask |= 1 << card
            hands[deals.seats[index]] |= mask
            start += deals.caps[index]
        out = cards - start
        stock[:out] = pool[start:]
        return out  # type: ignore[no-any-return]
    for attempt in range(ATTEMPTS):
        out = _try(deals, state, hands, stock, pool, attempt >= RELAX_FROM)
        if out >= 0:
            return out
    raise RuntimeError("no consistent deal found")


@jit
def _try(deals: Deals, state: rng.State, hands: Ints, stock: Ints, pool: Ints,
         relax: bool) -> int:
    """Sampler._try: -1 where a card found no room."""
    cards = deals.pool.shape[0]
    shuffled = deals.pool.copy()
    shuffle(shuffled, cards, state)
    allowed = deals.suit_allowed
    # a stable sort by the suit's allowed slots (list.sort's order), by counting
    filled = 0
    for slots in range(allowed.max() + 1):
        for card in shuffled:
            if allowed[card // 13] == slots:
                pool[filled] = card
                filled += 1
    seats = deals.seats
    caps = deals.caps.copy()
    voids = deals.voids
    out_cap = deals.info[OUT_CAP]
    hands[:] = deals.base
    out = 0
    slots = seats.shape[0]
    for card in pool:
        suit_bit = 1 << (card // 13)
        total = out_cap
        for i in range(slots):
            if caps[i] and (relax or not voids[i] & suit_bit):
                total += caps[i]
        if total == 0:
            return -1
        pick = rng.uniform(state) * total
        if pick < out_cap:
            out_cap -= 1
            stock[out] = card
            out += 1
            continue
        pick -= out_cap
        chosen = -1
        for i in range(slots):
            if caps[i] and (relax or not voids[i] & suit_bit):
                chosen = i
                if pick < caps[i]:
                    break
                pick -= caps[i]
        caps[chosen] -= 1
        hands[seats[chosen]] |= 1 << card
    return out
