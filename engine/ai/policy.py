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
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if best < 0:
        return _lead(legal, hand, trump, tmask, others, need, left, take)
    win = winners_mask(legal, best, trump)
    if take and CONSERVE and need < left and need <= sure_count(hand, others):
        # sure winners already cover what is needed: win only with one of them
        boss = 0
        for suit in range(4):
            cards = win & SUIT_MASKS[suit]
            if cards and not others & ABOVE[cards.bit_length() - 1]:
                outstanding = others & SUIT_MASKS[suit]
                if outstanding:
                    cards &= ~((2 << (outstanding.bit_length() - 1)) - 1)
                boss |= cards & -cards
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
            for suit in range(4):
                cards = win & SUIT_MASKS[suit]
                if not cards:
                    continue
                outstanding = others & SUIT_MASKS[suit]
                if outstanding:
                    cards &= ~((2 << (outstanding.bit_length() - 1)) - 1)
                if cards:
                    card = (cards & -cards).bit_length() - 1
                    if cheapest < 0 or card % 13 < cheapest % 13:
                        cheapest = card
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


def sure_count(hand: int, others: int) -> int:
    """Cards of the hand that no other hand can beat in their suit."""
    count = 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        outstanding = others & SUIT_MASKS[suit]
        if outstanding:
            cards &= ~((2 << (outstanding.bit_length() - 1)) - 1)
        count += cards.bit_count()
    return count


def _dump_low(legal: int, hand: int, trump: int, tmask: int) -> int:
    """A card to throw away while keeping winners: the lowest, from a short side suit."""
    side = legal & ~tmask
    if not side:
        return lowest(legal)
    if legal & (legal - 1) and side == legal and side & ~SUIT_MASKS[lowest(side) // 13]:
        # void-discarding: shorten the shortest side suit
        best = -1
        best_key = (99, 99)
        for suit in range(4):
            cards = side & SUIT_MASKS[suit]
            if cards:
                card = (cards & -cards).bit_length() - 1
                key = ((hand & SUIT_MASKS[suit]).bit_count(), card % 13)
                if key < best_key:
                    best, best_key = card, key
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
        side_boss = -1
        for suit in range(4):
            if suit == trump:
                continue
            cards = legal & SUIT_MASKS[suit]
            if cards:
                top = cards.bit_length() - 1
                if not others & ABOVE[top]:
                    side_boss = top
                    break
        if side_boss >= 0:
            return side_boss
        if need >= left:
            return _highest_rank(legal)
        side = legal & ~tmask
        if side:
            if trumps:
                # lead from the shortest side suit, to ruff it later
                best = -1
                best_key = (99, 99)
                for suit in range(4):
                    cards = side & SUIT_MASKS[suit]
                    if cards:
                        key = (cards.bit_count(), (cards & -cards).bit_length() - 1)
                        if key < best_key:
                            best, best_key = (cards & -cards).bit_length() - 1, key
                return best
            return _lowest_rank(side)
        return lowest(legal)
    # duck: the card most likely to be beaten, low in a suit where others hold higher cards
    best = -1
    best_key = (-99, 99)
    for suit in range(4):
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        card = (cards & -cards).bit_length() - 1
        higher = (others & ABOVE[card]).bit_count()
        key = (min(higher, 3) - (2 if suit == trump else 0), card % 13)
        if key[0] > best_key[0] or (key[0] == best_key[0] and key[1] < best_key[1]):
            best, best_key = card, key
    return best


def by_rank(mask: int, high: bool, trump: int = -1) -> int:
    """The highest (or lowest) ranked card of a non-empty set, every `trump` ranking above
    every other suit when one is given; ties go to the lower suit."""
    if trump >= 0:
        trumps = mask & SUIT_MASKS[trump]
        if trumps:
            if high:
                return trumps.bit_length() - 1
            side = mask & ~trumps
            if not side:
                return (trumps & -trumps).bit_length() - 1
            mask = side
    return _ranked(mask, high)


def easy_card(legal: int, best: int, trump: int, need: int) -> int:
    """The easy player's card: high while it needs tricks, low once it has enough."""
    if best < 0:
        return by_rank(legal, high=need > 0)
    win = winners_mask(legal, best, trump)
    if need > 0:
        return by_rank(win, high=True) if win else by_rank(legal, high=False)
    lose = legal & ~win
    return by_rank(lose, high=True) if lose else by_rank(legal, high=False)


def greedy_card(legal: int, trump: int, need: int) -> int:
    """The plainest rule-based play: the strongest legal card while tricks are still needed,
    else the weakest, trumps ranking above every other suit (rank ties go to the lower suit).

    It throws its best cards whether or not they can win, so the hard player models it on its
    own: read as `easy` or `medium`, its bids and plays mislead the deal sampling."""
    return by_rank(legal, high=need > 0, trump=trump)


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


class TrickEstimator:
    """Expected tricks of a hand from its cards, for one table size, hand size and trump.

    With `long_trumps` a trump also wins when the opponents' trumps run out before it (by
    length), not only by rank: in big hands (13 cards at 4 players, every card dealt) small
    trumps of a long suit take tricks the rank count alone does not see.

    A suit's share of the estimate depends only on the hand's cards in that suit, so the shares
    are kept by suit pattern: the opponent model estimates thousands of hands a decision, each
    one or two suits away from the last (engine/ai/infer.py)."""

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
        self.parts: dict[int, tuple[float, int, float, int]] = {}
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
