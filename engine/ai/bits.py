"""Cards as ints and hands as bit sets: the lean representation the computer players think in.

A card is its `Card.index` (suit * 13 + rank - 2), so within a suit a higher bit is a higher card
and comparing two cards of one suit is comparing two ints. A set of cards is an int with one bit
per card.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import STANDARD_DECK, Card

SUIT_MASKS: tuple[int, int, int, int] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
FULL = (1 << 52) - 1
NO_TRUMP = -1


def mask_of(cards: Iterable[Card]) -> int:
    """The bit set of an iterable of Cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: int) -> list[Card]:
    """The Cards of a bit set, lowest index first."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(STANDARD_DECK[low.bit_length() - 1])
        mask ^= low
    return out


def indices(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    """The lowest card (index) of a non-empty set."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card (index) of a non-empty set."""
    return mask.bit_length() - 1


def above(card: int) -> int:
    """Every card of the same suit ranked above `card`."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


ABOVE: tuple[int, ...] = tuple(above(card) for card in range(52))
"""`above` by table, for the simulation's inner loops."""


def below(card: int) -> int:
    """Every card of the same suit ranked below `card`."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


def popcount(mask: int) -> int:
    return mask.bit_count()


def beats(card: int, best: int, trump: int) -> bool:
    """Whether `card` played now beats the trick's current best card `best`."""
    suit = card // 13
    best_suit = best // 13
    if suit == best_suit:
        return card > best
    return suit == trump


def winners_mask(cards: int, best: int, trump: int) -> int:
    """The cards of `cards` that would beat `best` (the current winner of the trick)."""
    best_suit = best // 13
    out = cards & SUIT_MASKS[best_suit] & ~((2 << best) - 1)
    if trump >= 0 and best_suit != trump:
        out |= cards & SUIT_MASKS[trump]
    return out


def legal_mask(
    hand: int, led: int, trump: int, must_trump: bool, after_broken: bool, broken: bool
) -> int:
    """The cards of `hand` that may be played: `led` is the suit led, or -1 when leading."""
    if led < 0:
        if after_broken and trump >= 0 and not broken:
            side = hand & ~SUIT_MASKS[trump]
            if side:
                return side
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def trick_winner(cards: list[int], leader: int, players: int, trump: int) -> int:
    """The seat that wins a complete trick (`cards` in play order from `leader`)."""
    best = cards[0]
    position = 0
    for i in range(1, len(cards)):
        if beats(cards[i], best, trump):
            best = cards[i]
            position = i
    return (leader + position) % players
