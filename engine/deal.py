"""The shuffle and the deal: every pack is a pure function of (seed, deal number).

Randomness comes only from the seed, so a snapshot needs no generator state to resume exactly.
"""

from __future__ import annotations

import hashlib
import random
import struct
from operator import attrgetter

from engine.cards import STANDARD_DECK, Card


def deal_rng(seed: int, deal_index: int) -> random.Random:
    return random.Random(f"ohhell:{seed}:{deal_index}")


def shuffled(cards: tuple[Card, ...], rng: random.Random) -> list[Card]:
    """A uniform shuffle by random sort keys."""
    draw = rng.random
    return sorted(cards, key=lambda _card: draw())


_KEYS = struct.Struct("<52Q")
_TOP_KEYS = struct.Struct("<" + "6xH" * 52)
"""The top 16 bits of each of `_KEYS`' keys: the last two of its 8 little-endian bytes."""


def dealt_pack(
    seed: int, deal_index: int, pack: tuple[Card, ...] = STANDARD_DECK
) -> list[Card]:
    """The shuffled pack for one deal, a pure function of (seed, deal).

    Sorting the cards by 64-bit keys drawn from SHAKE-128 is a uniform shuffle that runs in C,
    so the deal stays cheap, and a snapshot needs no generator state to resume exactly.
    """
    keys_format = _KEYS if len(pack) == 52 else struct.Struct(f"<{len(pack)}Q")
    digest = hashlib.shake_128(f"ohhell:{seed}:{deal_index}".encode()).digest(keys_format.size)
    if keys_format is _KEYS:
        # Sorting by the keys' top 16 bits gives the same order whenever those all differ (98%
        # of deals), and such small ints hash and compare several times faster than 64-bit ones.
        tops = _TOP_KEYS.unpack(digest)
        by_top = dict(zip(tops, pack, strict=True))
        if len(by_top) == len(pack):
            return list(map(by_top.__getitem__, sorted(tops)))
    keys = keys_format.unpack(digest)
    by_key = dict(zip(keys, pack, strict=True))
    if len(by_key) < len(pack):  # two equal keys: astronomically rare
        return shuffled(pack, deal_rng(seed, deal_index))
    return list(map(by_key.__getitem__, sorted(keys)))


card_index = attrgetter("index")


SPECIAL_SLOT = 4
"""Where a hand keeps its special cards, after the four suit lists."""


def slot_of(card: Card) -> int:
    """The list of a held hand that keeps `card`: its suit, or SPECIAL_SLOT."""
    return SPECIAL_SLOT if card.suit is None else int(card.suit)


def by_suit(cards: list[Card]) -> list[list[Card]]:
    """A hand kept as four suit lists in pack order, then its special cards: following suit and
    legality become list lookups, and legal cards come out sorted."""
    held: list[list[Card]] = [[], [], [], [], []]
    for card in sorted(cards, key=card_index):
        held[slot_of(card)].append(card)
    return held


__all__ = [
    "SPECIAL_SLOT", "by_suit", "card_index", "deal_rng", "dealt_pack", "shuffled", "slot_of"
]
