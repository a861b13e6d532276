"""The fast policies' cards (engine/ai/policy.py's choose_card, easy_card and greedy_card),
compiled: the same card from the same arguments."""

from __future__ import annotations

from engine.ai.kernel.bits import (
    SUIT,
    bit_count,
    bit_length,
    highest,
    inline,
    jit,
    lowest,
    suit_mask,
)


@jit
def ranked(mask: int, high: bool) -> int:
    """The highest (lowest) ranked card of a non-empty set, ties to the lower suit."""
    clubs = mask & SUIT
    diamonds = mask >> 13 & SUIT
    hearts = mask >> 26 & SUIT
    spades = mask >> 39
    ranks = clubs | diamonds | hearts | spades
    rank = bit_length(ranks) - 1 if high else bit_length(ranks & -ranks) - 1
    bit = 1 << rank
    if clubs & bit:
        return rank
    if diamonds & bit:
        return rank + 13
    if hearts & bit:
        return rank + 26
    return rank + 39


@inline
def highest_rank(mask: int, avoid: int) -> int:
    preferred = mask & ~avoid
    return ranked(preferred if preferred else mask, True)


@inline
def lowest_rank(mask: int, avoid: int) -> int:
    preferred = mask & ~avoid
    return ranked(preferred if preferred else mask, False)


@inline
def sure_count(hand: int, others: int) -> int:
    """Cards of the hand no other hand can beat in their suit."""
    count = 0
    for shift in (0, 13, 26, 39):
        count += bit_count((hand >> shift & SUIT) >> bit_length(others >> shift & SUIT))
    return count


@jit
def dump_low(legal: int, hand: int, tmask: int) -> int:
    side = legal & ~tmask
    if not side:
        return lowest(legal)
    if legal & (legal - 1) and side == legal and side & ~suit_mask(lowest(side) // 13):
        best = -1
        best_count = 99
        best_rank = 99
        for shift in (0, 13, 26, 39):
            cards = side >> shift & SUIT
            if cards:
                rank = bit_length(cards & -cards) - 1
                count = bit_count(hand >> shift & SUIT)
                if count < best_count or (count == best_count and rank < best_rank):
                    best = rank + shift
                    best_count = count
                    best_rank = rank
        return best
    return lowest_rank(side, 0)


@jit
def lead(legal: int, trump: int, tmask: int, others: int, need: int, left: int,
         take: bool) -> int:
    if take:
        trumps = legal & tmask
        if trumps:
            top = bit_length(trumps) - 1
            above = suit_mask(top // 13) & ~((2 << top) - 1)
            top_is_boss = not others & above
            if need >= left or (top_is_boss and others & tmask and need > 1):
                return top
        for suit in range(4):
            shift = 13 * suit
            if suit != trump:
                cards = legal >> shift & SUIT
                if cards and bit_length(others >> shift & SUIT) <= bit_length(cards):
                    return bit_length(cards) - 1 + shift
        if need >= left:
            return highest_rank(legal, 0)
        side = legal & ~tmask
        if side:
            if trumps:
                best = -1
                shortest = 99
                for shift in (0, 13, 26, 39):
                    cards = side >> shift & SUIT
                    if cards and bit_count(cards) < shortest:
                        shortest = bit_count(cards)
                        best = bit_length(cards & -cards) - 1 + shift
                return best
            return lowest_rank(side, 0)
        return lowest(legal)
    best = -1
    best_higher = -99
    best_rank = 99
    for suit in range(4):
        shift = 13 * suit
        cards = legal >> shift & SUIT
        if cards:
            rank = bit_length(cards & -cards) - 1
            higher = min(bit_count((others >> shift & SUIT) >> (rank + 1)), 3)
            if suit == trump:
                higher -= 2
            if higher > best_higher or (higher == best_higher and rank < best_rank):
                best = rank + shift
                best_higher = higher
                best_rank = rank
    return best


@jit
def choose_card(legal: int, hand: int, best: int, trump: int, others: int, need: int,
                left: int, last: bool, take: bool) -> int:
    """engine/ai/policy.py choose_card (with CONSERVE on)."""
    if legal & (legal - 1) == 0:
        return bit_length(legal) - 1
    tmask = suit_mask(trump) if trump >= 0 else 0
    if best < 0:
        return lead(legal, trump, tmask, others, need, left, take)
    best_suit = best // 13
    win = legal & suit_mask(best_suit) & ~((2 << best) - 1)
    if tmask and best_suit != trump:
        win |= legal & tmask
    if take and need < left and need <= sure_count(hand, others):
        boss = 0
        for shift in (0, 13, 26, 39):
            cards = win >> shift & SUIT
            if cards:
                top = bit_length(others >> shift & SUIT)
                if top <= bit_length(cards):
                    cards >>= top
                    boss |= (cards & -cards) << (top + shift)
        if boss:
            return lowest_rank(boss, 0)
        take = False
    if take:
        if win:
            if last:
                if win & tmask and win & ~tmask:
                    return lowest(win & ~tmask)
                return lowest_rank(win, 0)
            if best_suit != trump and win & tmask and not win & ~tmask:
                return lowest(win & tmask)
            cheapest = -1
            cheapest_rank = 13
            for shift in (0, 13, 26, 39):
                cards = win >> shift & SUIT
                if cards:
                    top = bit_length(others >> shift & SUIT)
                    cards >>= top
                    if cards:
                        rank = bit_length(cards & -cards) - 1 + top
                        if rank < cheapest_rank:
                            cheapest = rank + shift
                            cheapest_rank = rank
            if cheapest >= 0:
                return cheapest
            if need >= left or 2 * need >= left:
                return highest(win & ~tmask) if win & ~tmask else lowest(win)
            return dump_low(legal, hand, tmask)
        return dump_low(legal, hand, tmask)
    lose = legal & ~win
    if lose:
        return highest_rank(lose, tmask) if lose & ~tmask else highest(lose)
    if last:
        return highest_rank(legal, tmask) if legal & ~tmask else highest(legal)
    return lowest_rank(legal, tmask) if legal & ~tmask else lowest(legal)


@jit
def easy_card(legal: int, best: int, trump: int, need: int) -> int:
    """engine/ai/policy.py easy_card."""
    if best < 0:
        return ranked(legal, need > 0)
    best_suit = best // 13
    win = legal & suit_mask(best_suit) & ~((2 << best) - 1)
    if trump >= 0 and best_suit != trump:
        win |= legal & suit_mask(trump)
    if need > 0:
        return ranked(win, True) if win else ranked(legal, False)
    lose = legal & ~win
    return ranked(lose, True) if lose else ranked(legal, False)


@jit
def greedy_card(legal: int, trump: int, need: int) -> int:
    """engine/ai/policy.py greedy_card."""
    if trump >= 0:
        trumps = legal & suit_mask(trump)
        if trumps:
            if need > 0:
                return bit_length(trumps) - 1
            side = legal & ~trumps
            if not side:
                return bit_length(trumps & -trumps) - 1
            legal = side
    return ranked(legal, need > 0)
