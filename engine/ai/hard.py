"""The hard player: determinized search over the hidden cards.

For a card: sample deals of the unseen cards consistent with everything seen (cards played, the
trump card, voids shown by failures to follow or to trump), weight each by how well it explains
the bids already made, play every candidate card in it and finish the hand with the fast policy
for every seat; play the card with the best weighted mean score. For a bid: the same deals, the
hand simulated once per candidate bid (later seats bid what the estimate says, the dealer around
the hook), and the bid with the best expected score wins.

The budget is a wall-clock time (default 0.5 s), an iteration count (deals), or both; with only an
iteration count the player is fully deterministic given its seed.
"""

from __future__ import annotations

import math
import time

from engine.ai.bits import SUIT_MASKS, mask_of
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.players import MediumPlayer, _turned
from engine.ai.policy import TAKE_WHEN_BUST, TrickEstimator, nearest_bid
from engine.ai.sample import Sampler
from engine.ai.sim import rollout
from engine.cards import STANDARD_DECK, Card
from engine.game import Phase, PlayerView
from engine.scoring import hand_points

DEFAULT_THINK_TIME = 0.5
MAX_DEALS = 5000
BID_SIGMA = 1.0
DEALER_SIGMA = 1.6
FLOOR = 0.03


class HardPlayer(MediumPlayer):
    level = "hard"

    def __init__(
        self, seed: int = 0, think_time: float | None = None, iterations: int | None = None
    ) -> None:
        super().__init__(seed)
        if think_time is None and iterations is None:
            think_time = DEFAULT_THINK_TIME
        self.think_time = think_time
        self.iterations = iterations
        self.last_deals = 0

    # ----- budget -----

    def _budget(self) -> tuple[float, int]:
        deadline = math.inf
        if self.think_time is not None:
            deadline = time.perf_counter() + self.think_time
        limit = self.iterations if self.iterations is not None else MAX_DEALS
        return deadline, limit

    # ----- bid weighting -----

    def _weigher(self, view: PlayerView, k: Knowledge) -> _BidWeights | None:
        if view.blind:
            return None  # blind bids say nothing about the hands
        seats = [s for s in range(k.players) if s != k.seat and k.bids[s] >= 0]
        if not seats:
            return None
        return _BidWeights(view, k, seats)

    # ----- card play -----

    def _card(self, view: PlayerView) -> Card:
        k = read_view(view)
        legal = mask_of(view.legal_cards)
        candidates = _distinct_moves(legal, k.unseen | _known_others(k))
        if len(candidates) == 1:
            return STANDARD_DECK[candidates[0]]
        me = k.seat
        bid = k.bids[me] if k.bids[me] >= 0 else 0
        rules = view.rules
        table = [
            hand_points(rules, bid, t, k.tricks_in_hand, view.blind)
            for t in range(k.tricks_in_hand + 2)
        ]
        sampler = Sampler(k)
        weigher = self._weigher(view, k)
        bust_take = TAKE_WHEN_BUST.get(rules.scoring, False)
        bids = [b if b >= 0 else 0 for b in k.bids]
        totals = [0.0] * len(candidates)
        deadline, limit = self._budget()
        rng = self.rng
        deals = 0
        players = k.players
        while deals < limit and (deals < 2 or time.perf_counter() < deadline):
            hands, _stock = sampler.sample(rng)
            weight = weigher.weight(hands) if weigher is not None else 1.0
            for i, card in enumerate(candidates):
                won = rollout(
                    hands, players, k.trump, k.must_trump, k.after_broken, k.broken,
                    k.leader, k.trick, bids, k.won, k.tricks_left, bust_take, forced=card,
                )
                totals[i] += weight * table[won[me]]
            deals += 1
        self.last_deals = deals
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return STANDARD_DECK[candidates[best]]

    # ----- bidding -----

    def _bid(self, view: PlayerView) -> int:
        k = read_view(view)
        legal = list(view.legal_bids)
        if len(legal) == 1:
            return legal[0]
        rules = view.rules
        players = k.players
        me = k.seat
        tricks = k.tricks_in_hand
        dealer = view.dealer
        order = [(dealer + 1 + i) % players for i in range(players)]
        simultaneous = view.phase is Phase.SIMULTANEOUS_BIDDING
        later = [s for s in order if s != me and k.bids[s] < 0]
        estimator = TrickEstimator(players, tricks, k.trump, k.turned)
        sample_own = k.blind
        if not sample_own:
            guess = estimator.estimate(k.hand)
            if tricks >= 8:
                legal = [b for b in legal if abs(b - guess) <= 3.5] or legal
        hook = rules.hook and not simultaneous
        extra_possible = (
            rules.extra_card and me == dealer and not simultaneous and k.out_count >= players
        )
        sampler = Sampler(k, sample_own=sample_own)
        weigher = self._weigher(view, k)
        bust_take = TAKE_WHEN_BUST.get(rules.scoring, False)
        tables = {
            b: [hand_points(rules, b, t, tricks + 1, view.blind) for t in range(tricks + 2)]
            for b in legal
        }
        exact_tables = {
            b: [hand_points(rules, b, t, tricks, view.blind) for t in range(tricks + 2)]
            for b in legal
        }
        totals = dict.fromkeys(legal, 0.0)
        deadline, limit = self._budget()
        rng = self.rng
        deals = 0
        leader = (dealer + 1) % players
        zeros = [0] * players
        while deals < limit and (deals < 2 or time.perf_counter() < deadline):
            hands, stock = sampler.sample(rng)
            weight = weigher.weight(hands) if weigher is not None else 1.0
            base = [b if b >= 0 else 0 for b in k.bids]
            for s in later:
                if s != dealer:
                    base[s] = round(estimator.estimate(hands[s]))
            for b in legal:
                bids = base[:]
                bids[me] = b
                if dealer in later:
                    want = estimator.estimate(hands[dealer])
                    options = list(range(tricks + 1))
                    if hook:
                        forbidden = tricks - sum(bids[s] for s in range(players) if s != dealer)
                        if forbidden in options and len(options) > 1:
                            options.remove(forbidden)
                    bids[dealer] = nearest_bid(want, options)
                if extra_possible and sum(bids) == tricks and len(stock) >= players:
                    dealt = hands[:]
                    for i, s in enumerate(order):
                        dealt[s] |= 1 << stock[i]
                    won = rollout(
                        dealt, players, k.trump, k.must_trump, k.after_broken, False,
                        leader, [], bids, zeros, tricks + 1, bust_take,
                    )
                    totals[b] += weight * tables[b][won[me]]
                else:
                    won = rollout(
                        hands, players, k.trump, k.must_trump, k.after_broken, False,
                        leader, [], bids, zeros, tricks, bust_take,
                    )
                    totals[b] += weight * exact_tables[b][won[me]]
            deals += 1
        self.last_deals = deals
        return max(legal, key=lambda b: (totals[b], -abs(b - tricks / players)))


def _known_others(k: Knowledge) -> int:
    out = 0
    for seat, cards in enumerate(k.known):
        if seat != k.seat:
            out |= cards
    return out


def _distinct_moves(legal: int, elsewhere: int) -> list[int]:
    """One card per run of equivalent cards (same suit, no card that is still elsewhere between)."""
    out: list[int] = []
    for suit in range(4):
        cards = legal & SUIT_MASKS[suit]
        previous = -1
        while cards:
            card = (cards & -cards).bit_length() - 1
            cards ^= 1 << card
            if previous >= 0:
                between = elsewhere & ((1 << card) - 1) & ~((2 << previous) - 1)
                if not between:
                    previous = card
                    continue
            out.append(card)
            previous = card
    return out


class _BidWeights:
    """How well a sampled deal explains the bids already made (a Gaussian around the estimate)."""

    __slots__ = ("bids", "estimator", "played", "seats", "sigmas")

    def __init__(self, view: PlayerView, k: Knowledge, seats: list[int]) -> None:
        self.seats = seats
        self.bids = [k.bids[s] for s in seats]
        self.played = [k.played_by[s] for s in seats]
        size = view.tricks_in_hand
        if view.phase is Phase.PLAYING and view.rules.extra_card and view.hand_size > size:
            size = view.hand_size
        trump = -1 if view.trump_suit is None else int(view.trump_suit)
        self.estimator = TrickEstimator(view.players, size, trump, _turned(view))
        hook = view.rules.hook and view.rules.bidding == "sequential"
        self.sigmas = [
            2 * (DEALER_SIGMA if hook and s == view.dealer else BID_SIGMA) ** 2 for s in seats
        ]

    def weight(self, hands: list[int]) -> float:
        weight = 1.0
        estimate = self.estimator.estimate
        for i, seat in enumerate(self.seats):
            diff = self.bids[i] - estimate(hands[seat] | self.played[i])
            weight *= FLOOR + math.exp(-diff * diff / self.sigmas[i])
        return weight
