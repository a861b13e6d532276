"""Deals consistent with what one seat knows: determinizations for the hard player.

Each unseen card goes to a seat that may hold it (not known void in its suit, room left) or to
the cards out of play (stock, removed cards, others' discards), chosen with probability
proportional to the room left, most constrained suits first. Without voids that is exactly a
uniform random deal of the unseen cards; with voids it is close to uniform over consistent deals.
"""

from __future__ import annotations

import random

from engine.ai.bits import indices
from engine.ai.knowledge import Knowledge


def shuffle(items: list[int], rng: random.Random) -> None:
    """`rng.shuffle(items)` written out on getrandbits: the same order from the same state (as
    Python 3.11's random module draws it), for a fraction of the calls; a shuffle is a good
    part of drawing a deal."""
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        size = last + 1
        bits = size.bit_length()
        pick = getrandbits(bits)
        while pick >= size:
            pick = getrandbits(bits)
        items[last], items[pick] = items[pick], items[last]


class Sampler:
    __slots__ = ("base", "caps", "out_cap", "pool", "seats", "suit_allowed", "voids")

    def __init__(self, knowledge: Knowledge, sample_own: bool = False) -> None:
        k = knowledge
        self.seats = [s for s in range(k.players) if s != k.seat or sample_own]
        self.base = [k.known[s] for s in range(k.players)]
        if not sample_own:
            self.base[k.seat] = k.hand
        self.caps = [max(0, k.held[s] - k.known[s].bit_count()) for s in self.seats]
        self.voids = [k.voids[s] for s in self.seats]
        self.out_cap = k.out_count
        # how many slots may take each suit: fewer first
        self.suit_allowed = [
            sum(1 for v in self.voids if not v >> suit & 1) + (1 if self.out_cap else 0)
            for suit in range(4)
        ]
        pool = indices(k.unseen)
        pool.sort(key=lambda card: self.suit_allowed[card // 13])
        self.pool = pool

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """(hands per seat as bit sets, the out-of-play unseen cards in random order)."""
        if not any(self.voids):
            return self._deal(rng)
        for attempt in range(40):
            result = self._try(rng, relax=attempt >= 30)
            if result is not None:
                return result
        raise RuntimeError("no consistent deal found")  # pragma: no cover - relax always fits

    def _deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """No voids known: a plain shuffle dealt out by counts."""
        pool = self.pool[:]
        shuffle(pool, rng)
        hands = self.base[:]
        start = 0
        for seat, cap in zip(self.seats, self.caps, strict=True):
            mask = 0
            for card in pool[start : start + cap]:
                mask |= 1 << card
            hands[seat] |= mask
            start += cap
        return hands, pool[start:]

    def _try(self, rng: random.Random, relax: bool) -> tuple[list[int], list[int]] | None:
        pool = self.pool[:]
        shuffle(pool, rng)
        allowed = self.suit_allowed
        pool.sort(key=lambda card: allowed[card // 13])
        seats = self.seats
        caps = self.caps[:]
        voids = self.voids
        out_cap = self.out_cap
        hands = self.base[:]
        stock: list[int] = []
        slots = len(seats)
        draw = rng.random
        for card in pool:
            suit_bit = 1 << (card // 13)
            total = out_cap
            for i in range(slots):
                if caps[i] and (relax or not voids[i] & suit_bit):
                    total += caps[i]
            if total == 0:
                return None
            pick = draw() * total
            if pick < out_cap:
                out_cap -= 1
                stock.append(card)
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
        return hands, stock
