"""The card-play heuristics and the trick estimate, on bit sets.

`choose_card` is the medium player's play and also the fast policy the hard player's rollouts
use for every seat. `estimate_tricks` is the medium player's bid and the hard player's model of
what a bid says about a hand.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.ai.bits import ABOVE, SUIT_MASKS, highest, lowest, winners_mask

TAKE_WHEN_BUST = {"common": True, "strict": False, "penalty": False, "bonus_only": False,
                  "wizard": False}
"""Whether a seat that can no longer make its bid (or is already over it) still wants tricks."""


def wants_tricks(need: int, left: int, bust_take: bool) -> bool:
    """Whether a seat that still needs `need` tricks with `left` to play tries to win this one."""
    del left  # a lost bid (need > left) still wants tricks: they score (common) or cut the miss
    return need > 0 or (need < 0 and bust_take)


def _rank(card: int) -> int:
    return card % 13


def _highest_rank(mask: int, avoid: int = 0) -> int:
    """The card of highest rank in `mask`, preferring cards outside `avoid` (e.g. trumps)."""
    return _ranked(mask & ~avoid or mask, True)


def _lowest_rank(mask: int, avoid: int = 0) -> int:
    """The card of lowest rank in `mask`, preferring cards outside `avoid`."""
    return _ranked(mask & ~avoid or mask, False)


def _ranked(mask: int, high: bool) -> int:
    """The highest (or lowest) ranked card of a non-empty set, ties to the lower suit: the
    ranks of all four suits are merged into one 13-bit set, so the rank is one bit operation
    (these run in the innermost loop of every simulated deal)."""
    clubs = mask & 0x1FFF
    diamonds = mask >> 13 & 0x1FFF
    hearts = mask >> 26 & 0x1FFF
    spades = mask >> 39
    ranks = clubs | diamonds | hearts | spades
    rank = ranks.bit_length() - 1 if high else (ranks & -ranks).bit_length() - 1
    bit = 1 << rank
    if clubs & bit:
        return rank
    if diamonds & bit:
        return rank + 13
    if hearts & bit:
        return rank + 26
    return rank + 39


def choose_card(
    legal: int,
    hand: int,
    best: int,
    trump: int,
    others: int,
    need: int,
    left: int,
    last: bool,
    take: bool,
) -> int:
    """A card (index) from `legal`.

    `best` is the card winning the trick so far (-1 when leading), `others` the cards that may
    still be in other hands, `need` the tricks still wanted, `left` the tricks still to play,
    `last` whether this seat plays last to the trick, `take` whether it wants this trick.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    if best < 0:
        return _lead(legal, hand, trump, tmask, others, need, left, take)
    best_suit = best // 13  # winners_mask written out
    win = legal & SUIT_MASKS[best_suit] & ~((2 << best) - 1)
    if tmask and best_suit != trump:
        win |= legal & tmask
    if take and CONSERVE and need < left and need <= sure_count(hand, others):
        # sure winners already cover what is needed: win only with one of them
        boss = 0
        for shift in SUIT_SHIFTS:
            cards = win >> shift & 0x1FFF
            if cards:
                top = (others >> shift & 0x1FFF).bit_length()
                if top <= cards.bit_length():  # nothing outstanding above my best
                    cards >>= top
                    boss |= (cards & -cards) << (top + shift)
        if boss:
            return _lowest_rank(boss)
        take = False
    if take:
        if win:
            if last:
                if win & tmask and win & ~tmask:
                    return lowest(win & ~tmask)
                return _lowest_rank(win)
            if best // 13 != trump and win & tmask and not win & ~tmask:
                return lowest(win & tmask)  # ruff as cheaply as possible
            cheapest = -1
            cheapest_rank = 13
            for shift in SUIT_SHIFTS:
                cards = win >> shift & 0x1FFF
                if cards:
                    top = (others >> shift & 0x1FFF).bit_length()
                    cards >>= top  # what no other hand can beat
                    if cards:
                        rank = (cards & -cards).bit_length() - 1 + top
                        if rank < cheapest_rank:
                            cheapest, cheapest_rank = rank + shift, rank
            if cheapest >= 0:
                return cheapest  # the cheapest card no other hand can beat in its suit
            if need >= left or 2 * need >= left:
                return highest(win & ~tmask) if win & ~tmask else lowest(win)
            return _dump_low(legal, hand, trump, tmask)
        return _dump_low(legal, hand, trump, tmask)
    # duck
    lose = legal & ~win
    if lose:
        return _highest_rank(lose, tmask) if lose & ~tmask else highest(lose)
    if last:
        return _highest_rank(legal, tmask) if legal & ~tmask else highest(legal)
    return _lowest_rank(legal, tmask) if legal & ~tmask else lowest(legal)


CONSERVE = True
SUIT_SHIFTS = (0, 13, 26, 39)
"""Each suit's lowest bit: `cards >> shift & 0x1FFF` is a suit's 13 ranks, for the loops that
look at one suit at a time."""


def sure_count(hand: int, others: int) -> int:
    """Cards of the hand that no other hand can beat in their suit: per suit, the cards above
    the highest outstanding one (shifting a suit's 13 bits by that card's bit length)."""
    return (
        ((hand & 0x1FFF) >> (others & 0x1FFF).bit_length()).bit_count()
        + ((hand >> 13 & 0x1FFF) >> (others >> 13 & 0x1FFF).bit_length()).bit_count()
        + ((hand >> 26 & 0x1FFF) >> (others >> 26 & 0x1FFF).bit_length()).bit_count()
        + ((hand >> 39) >> (others >> 39).bit_length()).bit_count()
    )


def _dump_low(legal: int, hand: int, trump: int, tmask: int) -> int:
    """A card to throw away while keeping winners: the lowest, from a short side suit."""
    side = legal & ~tmask
    if not side:
        return lowest(legal)
    if legal & (legal - 1) and side == legal and side & ~SUIT_MASKS[lowest(side) // 13]:
        # void-discarding: shorten the shortest side suit
        best = -1
        best_count = best_rank = 99
        for shift in SUIT_SHIFTS:
            cards = side >> shift & 0x1FFF
            if cards:
                rank = (cards & -cards).bit_length() - 1
                count = (hand >> shift & 0x1FFF).bit_count()
                if count < best_count or (count == best_count and rank < best_rank):
                    best, best_count, best_rank = rank + shift, count, rank
        return best
    return _lowest_rank(side)


def _lead(
    legal: int, hand: int, trump: int, tmask: int, others: int, need: int, left: int, take: bool
) -> int:
    if take:
        trumps = legal & tmask
        if trumps:
            top = trumps.bit_length() - 1
            top_is_boss = not others & ABOVE[top]
            if need >= left or (top_is_boss and others & tmask and need > 1):
                return top  # every trick is needed, or draw trumps with the boss
        for suit, shift in enumerate(SUIT_SHIFTS):
            if suit != trump:
                cards = legal >> shift & 0x1FFF
                if cards and (others >> shift & 0x1FFF).bit_length() <= cards.bit_length():
                    return cards.bit_length() - 1 + shift  # a side suit's boss
        if need >= left:
            return _highest_rank(legal)
        side = legal & ~tmask
        if side:
            if trumps:
                # lead from the shortest side suit, to ruff it later
                best = -1
                shortest = 99
                for shift in SUIT_SHIFTS:  # ties to the lower suit, whose cards are lower
                    cards = side >> shift & 0x1FFF
                    if cards and cards.bit_count() < shortest:
                        shortest = cards.bit_count()
                        best = (cards & -cards).bit_length() - 1 + shift
                return best
            return _lowest_rank(side)
        return lowest(legal)
    # duck: the card most likely to be beaten, low in a suit where others hold higher cards
    best = -1
    best_higher = -99
    best_rank = 99
    for suit, shift in enumerate(SUIT_SHIFTS):
        cards = legal >> shift & 0x1FFF
        if cards:
            rank = (cards & -cards).bit_length() - 1
            higher = min(((others >> shift & 0x1FFF) >> (rank + 1)).bit_count(), 3)
            if suit == trump:
                higher -= 2
            if higher > best_higher or (higher == best_higher and rank < best_rank):
                best, best_higher, best_rank = rank + shift, higher, rank
    return best


def easy_card(legal: int, best: int, trump: int, need: int) -> int:
    """The easy player's card: high while it needs tricks, low once it has enough."""
    if best < 0:
        return _ranked(legal, need > 0)
    win = winners_mask(legal, best, trump)
    if need > 0:
        return _ranked(win, True) if win else _ranked(legal, False)
    lose = legal & ~win
    return _ranked(lose, True) if lose else _ranked(legal, False)


def greedy_card(legal: int, trump: int, need: int) -> int:
    """The plainest rule-based play: the strongest legal card while tricks are still needed,
    else the weakest, trumps ranking above every other suit (rank ties go to the lower suit).

    It throws its best cards whether or not they can win, so the hard player models it on its
    own: read as `easy` or `medium`, its bids and plays mislead the deal sampling."""
    if trump >= 0:
        trumps = legal & SUIT_MASKS[trump]
        if trumps:
            if need > 0:
                return trumps.bit_length() - 1
            side = legal & ~trumps
            if not side:
                return (trumps & -trumps).bit_length() - 1
            legal = side
    return _ranked(legal, need > 0)


ACES = sum(1 << (13 * suit + 12) for suit in range(4))
HONOURS = sum(0b111 << (13 * suit + 10) for suit in range(4))
"""Every suit's ace; every suit's queen, king and ace."""


def easy_count(hand: int, trump: int) -> int:
    """The easy player's bid: aces, trump honours (Q and up) and trumps beyond three."""
    if trump < 0:
        return (hand & ACES).bit_count()
    trumps = hand & SUIT_MASKS[trump]
    count = (hand & ACES & ~trumps).bit_count() + (trumps & HONOURS).bit_count()
    return count + max(0, trumps.bit_count() - 3)


# ----- trick estimate (bidding) -----


@lru_cache(maxsize=256)
def _binom_cdf_table(p: float, n_max: int) -> tuple[tuple[float, ...], ...]:
    """table[h][k] = P(Binomial(h, p) <= k)."""
    table: list[tuple[float, ...]] = []
    for h in range(n_max + 1):
        row: list[float] = []
        acc = 0.0
        for k in range(n_max + 1):
            if k <= h:
                acc += math.comb(h, k) * p**k * (1 - p) ** (h - k)
            row.append(min(1.0, acc))
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=256)
def _survive_table(players: int, size: int, unseen: int, trump: bool) -> tuple[float, ...]:
    """survive[r]: chance the (r+1)-th round of a side suit is not ruffed by an opponent."""
    if not trump or players < 2 or unseen <= 0:
        return (1.0,) * 20
    suit_share = min(1.0, 12 / max(unseen, 1))  # share of a side suit among the unseen cards
    has_trump = 1 - (1 - min(1.0, 12 / max(unseen, 1))) ** size
    out: list[float] = []
    for rounds in range(20):
        # P(a given opponent still has a card of the suit at round rounds + 1)
        p_follow = 1.0 - sum(
            math.comb(size, j) * suit_share**j * (1 - suit_share) ** (size - j)
            for j in range(min(rounds, size) + 1)
        )
        ruff = (1 - p_follow) * has_trump
        out.append(max(0.0, (1 - ruff) ** (players - 1)))
    return tuple(out)


@lru_cache(maxsize=256)
def _outlast_table(players: int, size: int, hidden: int) -> tuple[tuple[float, ...], ...]:
    """table[n][k]: chance that every opponent holds at most k + 1 of the n trumps the own
    hand does not see, so that the own (k+1)-th highest trump outlasts theirs: each opponent
    is taken to spend one trump elsewhere (a ruff, or following another's trump lead), which
    fits medium's results against easy on 13-card hands better than counting none
    (bench/ladder.py's docstring)."""
    share = min(1.0, size / max(hidden, 1))  # one opponent's part of the unseen cards
    cdf = _binom_cdf_table(round(share, 3), 17)
    return tuple(
        tuple(row[min(k + 1, len(row) - 1)] ** (players - 1) for k in range(len(row)))
        for row in cdf
    )


Parts = dict[int, tuple[float, int, float, int]]
_PARTS: dict[tuple[int, int, int, int, bool], Parts] = {}
PARTS_KEPT = 64
"""Estimators' suit shares kept, by (players, size, trump, turned card, long_trumps)."""


def _shared_parts(key: tuple[int, int, int, int, bool]) -> Parts:
    """The suit shares already worked out for estimators like this one: a share depends only
    on the estimator's arguments and the suit's pattern, and the decisions of one hand (every
    seat's, bids and cards) ask for the same few hundred patterns again: 64% of those a
    decision's fresh table missed were known to an earlier one (bench/decisions.py replay of
    150 decisions at 20 ms, issue 24). Pure values memoised, so estimates are unchanged; the
    store is emptied when it holds PARTS_KEPT tables (each holds at most 4 * 8192 shares)."""
    parts = _PARTS.get(key)
    if parts is None:
        if len(_PARTS) >= PARTS_KEPT:
            _PARTS.clear()
        parts = _PARTS[key] = {}
    return parts


def forget_estimates() -> None:
    """Empty the shared suit shares (tests compare a warm estimator with a cold one)."""
    _PARTS.clear()


class TrickEstimator:
    """Expected tricks of a hand from its cards, for one table size, hand size and trump.

    With `long_trumps` a trump also wins when the opponents' trumps run out before it (by
    length), not only by rank: in big hands (13 cards at 4 players, every card dealt) small
    trumps of a long suit take tricks the rank count alone does not see.

    A suit's share of the estimate depends only on the hand's cards in that suit, so the shares
    are kept by suit pattern: the hard player's bid search estimates the later seats' hands of
    every deal it draws (engine/ai/hard.py), and engine/ai/kernel/estimate.py keeps its own
    compiled table the same way."""

    __slots__ = ("cdf", "outlast", "parts", "size", "survive", "tmask", "trump", "turned")

    def __init__(
        self, players: int, size: int, trump: int, turned: int, long_trumps: bool = False
    ) -> None:
        hidden = 52 - size - (1 if turned else 0)
        p_out = min(0.95, (players - 1) * size / max(hidden, 1))
        self.cdf = _binom_cdf_table(round(p_out, 3), 17)
        self.outlast = (
            _outlast_table(players, size, hidden) if long_trumps and trump >= 0 else None
        )
        self.survive = _survive_table(players, size, hidden, trump >= 0)
        self.size = size
        self.trump = trump
        self.tmask = SUIT_MASKS[trump] if trump >= 0 else 0
        self.turned = turned
        self.parts = _shared_parts((players, size, trump, turned, long_trumps))
        """By suit * 8192 + the hand's ranks in it: (side tricks, short-suit bonus, trump
        tricks, trumps held)."""

    def estimate(self, hand: int) -> float:
        parts = self.parts
        part = self._part
        a = parts.get(hand & 0x1FFF) or part(hand & 0x1FFF)
        b = parts.get(hand >> 13 & 0x1FFF | 0x2000) or part(hand >> 13 & 0x1FFF | 0x2000)
        c = parts.get(hand >> 26 & 0x1FFF | 0x4000) or part(hand >> 26 & 0x1FFF | 0x4000)
        d = parts.get(hand >> 39 & 0x1FFF | 0x6000) or part(hand >> 39 & 0x1FFF | 0x6000)
        total = a[0] + b[0] + c[0] + d[0]
        trumps = a[3] + b[3] + c[3] + d[3]
        if trumps:
            trump_value = a[2] + b[2] + c[2] + d[2]
            spare = max(0.0, trumps - trump_value)
            total += trump_value + min(spare, a[1] + b[1] + c[1] + d[1]) * 0.45
        return total

    def _part(self, key: int) -> tuple[float, int, float, int]:
        """One suit's share of the estimate (`parts`), computed and kept."""
        suit = key >> 13
        cards = (key & 0x1FFF) << (13 * suit)
        cdf = self.cdf
        not_mine = SUIT_MASKS[suit] & ~cards & ~self.turned
        value = 0.0
        k = 0
        if suit == self.trump:
            trumps = cards.bit_count()
            outlast = self.outlast[not_mine.bit_count()] if self.outlast else None
            while cards:
                card = cards.bit_length() - 1
                cards ^= 1 << card
                wins = cdf[(not_mine & ABOVE[card]).bit_count()][k]
                if outlast is not None:  # or, failing its rank, by length
                    wins += (1.0 - wins) * outlast[k]
                value += wins
                k += 1
            out: tuple[float, int, float, int] = (0.0, 0, value, trumps)
        else:
            length = cards.bit_count()
            short = 2 - length if self.trump >= 0 and self.size >= 3 and length < 2 else 0
            survive = self.survive
            while cards:
                card = cards.bit_length() - 1
                cards ^= 1 << card
                value += cdf[(not_mine & ABOVE[card]).bit_count()][k] * survive[k]
                k += 1
            out = (value, short, 0.0, 0)
        self.parts[key] = out
        return out


def nearest_bid(estimate: float, legal: tuple[int, ...] | list[int]) -> int:
    """The legal bid closest to `estimate` (ties to the lower bid)."""
    return min(legal, key=lambda bid: (abs(bid - estimate), bid))
