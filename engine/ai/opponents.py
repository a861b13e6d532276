"""The hard player's model of its opponents: how likely a sampled deal is, given what they did.

Each opponent is given a kind: plays like `medium`, like `easy`, greedily (its strongest card
while it needs tricks, its weakest after, trumps above all), or some other way (simulated as
medium). A deal's weight is, over the opponents, the prior-weighted chance that a player of
some kind holding the sampled hand would have bid and played as this one did; each opponent's
kind for the simulation is drawn from its posterior in that deal. The prior is the same for all
at a game's first hand, and after that what the seat's earlier hands showed (engine/ai/history.py).
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.ai.bits import FULL, SUIT_MASKS, trick_winner
from engine.ai.knowledge import Knowledge
from engine.ai.policy import (
    CONSERVE,
    TAKE_WHEN_BUST,
    TrickEstimator,
    choose_card,
    easy_card,
    easy_count,
    greedy_card,
    sure_count,
)
from engine.ai.sim import EASY, GREEDY, MEDIUM
from engine.moves import Phase
from engine.view import PlayerView

Likelihoods = tuple[float, float, float, float]
"""One number per opponent kind, in KINDS order."""
Event = tuple[int, int, int, bool, int, int, bool, int]
"""An opponent's play: (card, led suit, best card before, last?, need, tricks left, trumps
broken, every card played before it)."""
Factors = tuple[float, float, float, int]
"""A play's likelihood factors for the medium, easy and greedy kinds, and the count of legal
cards (the other kind picks uniformly among them)."""
Step = tuple[int, int, bool, bool, int, int, dict[int, Factors], Event]
"""An Event ready for replay: (its card's bit, the led suit's mask (0 when leading), whether
a lead must avoid unbroken trumps, whether medium may keep its sure winners (it wants the trick
and has tricks to spare), need, the cards that may be elsewhere less the seat's own, the
factors met so far by the legal cards that decide them, the event)."""
Reading = tuple[float, float, float, float, tuple[float, ...], float]
"""What weighing a hand by an exact bid needs: the legal bids below and above it, medium's
factor when its estimate's nearest bid is the bid and when not, the easy and greedy kinds'
factor by easy count, and the other kind's bell's 2 sigma^2."""
MOST_COUNTED = 52
"""easy_count never exceeds this (every card counting once)."""
CONSERVING = 1 << 52
"""Marks a following play's key in its memo where medium keeps its sure winners."""

# Opponent kinds: medium-like, easy-like, greedy, other (modelled as medium in the rollouts).
KINDS = (MEDIUM, EASY, GREEDY, MEDIUM)
KIND_PRIOR: Likelihoods = (0.35, 0.3, 0.2, 0.15)
PLAY_MISS = 0.1
"""Chance a player of a kind plays some other card than its policy's."""
BID_SIGMA = (0.7, 0.5, 0.5, 1.2)
"""Spread of each kind's bid around its trick count (medium's estimate, easy's count)."""
DEALER_WIDEN = 1.6
"""The dealer's bid under the hook is less telling: its spread is widened by this."""
FLOOR = 0.02
"""A bid far from a kind's count still keeps this much likelihood (nobody is a machine)."""
BID_MISS = 0.1
MEDIUM_BID_MISS = 0.2
"""With exact bids: the chance a player of the easy or greedy kind (of the medium kind) bids
other than the legal bid nearest its count (its estimate), as those players do."""


class OpponentModel:
    """Per sampled deal: how likely it is given the bids and plays seen, and each opponent's kind.

    For every opponent and kind (medium-like, easy-like, greedy, other) the likelihood is the
    bid's under that kind's bidding (a narrow bell around its trick count) times, for every card
    the opponent has played this hand, the chance that kind plays it from the sampled hand (its
    policy's card: 1 - PLAY_MISS; any other: PLAY_MISS shared; the other kind: uniform over the
    legal cards).
    """

    def __init__(
        self, view: PlayerView, k: Knowledge, enabled: bool, exact_bids: bool = False,
        priors: dict[int, Likelihoods] | None = None,
    ) -> None:
        players = k.players
        self.enabled = enabled
        self.priors: dict[int, Likelihoods] = priors or {}
        """Per opponent, its prior over kinds where earlier hands told one (engine/ai/history.py);
        KIND_PRIOR elsewhere."""
        self.players = players
        self.opponents = [s for s in range(players) if s != k.seat]
        self.trump = k.trump
        self.turned = k.turned
        self.must_trump = k.must_trump
        self.after_broken = k.after_broken
        self.bust_take = TAKE_WHEN_BUST.get(view.rules.scoring, False)
        self.played_by = k.played_by
        bids_seen = not view.blind
        self.bids = {s: k.bids[s] for s in self.opponents if bids_seen and k.bids[s] >= 0}
        size = view.tricks_in_hand
        if view.phase is Phase.PLAYING and view.rules.extra_card and view.hand_size > size:
            size = view.hand_size
        self.estimator = TrickEstimator(players, size, k.trump, k.turned)
        hook = view.rules.hook and view.rules.bidding == "sequential"
        self.widen = {
            s: (DEALER_WIDEN if hook and s == view.dealer else 1.0) for s in self.opponents
        }
        self.exact_bids = exact_bids
        # The bids each opponent could make when it bid: every count, less the dealer's barred
        # one under the hook.
        self.bid_options: dict[int, list[int]] = {}
        for seat in self.bids:
            options = list(range(view.tricks_in_hand + 1))
            if hook and seat == view.dealer and not (
                view.rules.extra_card and k.out_count >= players
            ):
                barred = view.tricks_in_hand - sum(
                    max(0, bid) for other, bid in enumerate(k.bids) if other != seat
                )
                if barred in options and len(options) > 1:
                    options.remove(barred)
            self.bid_options[seat] = options
        self.bid_neighbours = {
            seat: _neighbours(self.bids[seat], options)
            for seat, options in self.bid_options.items()
        }
        self.readings = {seat: self._reading(seat) for seat in self.bid_options}
        """Per bid seen, what weighing a hand by it needs, worked out once (exact bids)."""
        # Every opponent play: (card, led suit, best card before, last?, need, tricks left,
        # trumps broken, every card played before it).
        self.events: dict[int, list[Event]] = {s: [] for s in self.opponents}
        tricks = list(view.tricks_played)
        if view.current_trick:
            tricks.append(view.current_trick)
        won = [0] * players
        broken = False
        played = 0
        trump = k.trump
        for number, trick in enumerate(tricks):
            best = -1
            led = -1
            left = view.tricks_in_hand - number
            for position, (seat, card) in enumerate(trick):
                index = card.index
                if seat != k.seat:
                    need = (k.bids[seat] if k.bids[seat] >= 0 else 0) - won[seat]
                    self.events[seat].append(
                        (index, led, best, position == players - 1, need, left, broken, played)
                    )
                if best < 0:
                    best, led = index, index // 13
                elif index // 13 == best // 13:
                    if index > best:
                        best = index
                elif index // 13 == trump:
                    best = index
                played |= 1 << index
            if len(trick) == players:
                cards = [card.index for _, card in trick]
                won[trick_winner(cards, trick[0][0], players, trump)] += 1
                if trump >= 0 and best // 13 == trump:
                    broken = True
        self.plays: dict[int, list[Step]] = {
            seat: [self._step(event) for event in events] for seat, events in self.events.items()
        }
        """The events as replayed, with what each needs precomputed (engine/ai/kernel/model.py
        packs them for the compiled weighing) and a memo of its factors for the weighing here
        (a following play mostly sees the same few led-suit holdings)."""
        self.weighed: dict[int, dict[int, Likelihoods]] = {s: {} for s in self.opponents}
        """Per opponent, the likelihoods of the hands weighed here so far (weighing takes some
        20 us in Python; the hard player's deals are weighed by the compiled model)."""
        self.active = enabled and (bool(self.bids) or any(self.events.values()))
        self.informative = bool(self.bids) or (self.active and any(self.events.values()))

    def _reading(self, seat: int) -> Reading:
        bid = self.bids[seat]
        neighbours = self.bid_neighbours[seat]
        below, above = neighbours if neighbours is not None else (bid, bid)
        spread = max(1, len(self.bid_options[seat]) - 1)
        by_count = _by_count(bid, neighbours, spread)
        sigma = BID_SIGMA[3] * self.widen[seat]
        return (below, above, 1 - MEDIUM_BID_MISS, MEDIUM_BID_MISS / spread, by_count,
                2 * sigma * sigma)

    def _step(self, event: Event) -> Step:
        card, led, _best, _last, need, left, broken, played = event
        trump = self.trump
        take = need > 0 or (need < 0 and self.bust_take)
        return (
            1 << card,
            SUIT_MASKS[led] if led >= 0 else 0,
            self.after_broken and trump >= 0 and not broken,
            take and CONSERVE and need < left,
            need,
            FULL & ~played & ~self.turned,
            {},
            event,
        )

    def seat_likelihoods(self, seat: int, hand: int) -> Likelihoods:
        """Per kind (KINDS order), prior times the likelihood of what `seat` did, if it now
        holds `hand`; a seat not modelled (me) weighs 1 as the first kind."""
        if seat not in self.events:
            return 1.0, 0.0, 0.0, 0.0
        full = hand | self.played_by[seat]
        if not self.active:
            bid = self.bids.get(seat)
            if bid is None:
                return 1.0, 0.0, 0.0, 0.0
            diff = bid - self.estimator.estimate(full)
            sigma = self.widen[seat]
            return FLOOR + math.exp(-diff * diff / (2 * sigma * sigma)), 0.0, 0.0, 0.0
        return self._likelihoods(seat, full)

    def likelihood_ceiling(self, seat: int) -> float:
        """No hand of `seat` weighs more than this (the sum of its `seat_likelihoods`): every
        factor of a kind's likelihood is at most 1, save the bell's FLOOR + exp(...) <= 1 +
        FLOOR, which a kind meets once (its bid)."""
        if seat not in self.events:
            return 1.0
        if not self.active:
            return 1.0 + FLOOR
        return (1.0 + FLOOR) * sum(self.priors.get(seat, KIND_PRIOR))

    def _likelihoods(self, seat: int, hand: int) -> Likelihoods:
        """Prior times likelihood of the seat's bid and plays, per kind (in KINDS order)."""
        weighed = self.weighed[seat]
        likely = weighed.get(hand)
        if likely is None:
            likely = weighed[hand] = self._weigh_hand(seat, hand)
        return likely

    def _weigh_hand(self, seat: int, hand: int) -> Likelihoods:
        medium, easy, greedy, other = self.priors.get(seat, KIND_PRIOR)
        bid = self.bids.get(seat)
        if bid is not None and self.exact_bids:
            # _nearest_is written out (a neighbour-less bid reads as `below`: never nearest)
            below, above, medium_hit, medium_miss, by_count, spread = self.readings[seat]
            estimate = self.estimator.estimate(hand)
            gap = abs(bid - estimate)
            medium *= (
                medium_hit if gap < abs(below - estimate) and gap <= abs(above - estimate)
                else medium_miss
            )
            factor = by_count[easy_count(hand, self.trump)]
            easy *= factor
            greedy *= factor
            other *= FLOOR + math.exp(-((bid - estimate) ** 2) / spread)
        elif bid is not None:
            widen = self.widen[seat]
            estimate = self.estimator.estimate(hand)
            counted = float(easy_count(hand, self.trump))
            by_kind = [
                FLOOR + math.exp(-((bid - center) ** 2) / (2 * (sigma * widen) ** 2))
                for center, sigma in zip(
                    (estimate, counted, counted, estimate), BID_SIGMA, strict=True
                )
            ]
            medium *= by_kind[0]
            easy *= by_kind[1]
            greedy *= by_kind[2]
            other *= by_kind[3]
        trump = self.trump
        tmask = SUIT_MASKS[trump] if trump >= 0 else 0
        must_trump = self.must_trump and trump >= 0
        for bit, led_mask, lead_side, conserve, need, others, memo, play in self.plays[seat]:
            if led_mask:
                legal = hand & led_mask
                if legal:
                    # following suit: every kind's card depends on the led suit's cards alone,
                    # save medium's keeping its sure winners, which needs the whole hand
                    if legal & (legal - 1):
                        key = legal
                        if conserve and need <= sure_count(hand, others & ~hand):
                            key |= CONSERVING
                        factors = memo.get(key)
                        if factors is None:
                            factors = memo[key] = self._factors(play, legal, hand)
                        medium *= factors[0]
                        easy *= factors[1]
                        greedy *= factors[2]
                        other /= factors[3]
                    hand &= ~bit
                    continue
                legal = hand & tmask if must_trump and hand & tmask else hand
            elif lead_side and hand & ~tmask:
                legal = hand & ~tmask
            else:
                legal = hand
            if legal & (legal - 1):
                factors = self._factors(play, legal, hand)
                medium *= factors[0]
                easy *= factors[1]
                greedy *= factors[2]
                other /= factors[3]
            hand &= ~bit
        return medium, easy, greedy, other

    def _factors(self, play: Event, legal: int, hand: int) -> Factors:
        """One play's factors (medium, easy, greedy; the legal cards the other kind chose from)
        when the seat held `hand` (`legal` of it playable, more than one card)."""
        card, _led, best, last, need, left, _broken, played = play
        trump = self.trump
        options = legal.bit_count()
        miss = PLAY_MISS / (options - 1)
        others = FULL & ~hand & ~played & ~self.turned
        take = need > 0 or (need < 0 and self.bust_take)
        medium = choose_card(legal, hand, best, trump, others, need, left, last, take)
        return (
            (1 - PLAY_MISS) if medium == card else miss,
            (1 - PLAY_MISS) if easy_card(legal, best, trump, need) == card else miss,
            (1 - PLAY_MISS) if greedy_card(legal, trump, need) == card else miss,
            options,
        )


Neighbours = tuple[float, float] | None
"""The legal bids just below and above a bid (-inf, inf where there is none); None when the bid
was not among the options."""


def _neighbours(bid: int, options: list[int]) -> Neighbours:
    if bid not in options:
        return None
    below = max((option for option in options if option < bid), default=-math.inf)
    above = min((option for option in options if option > bid), default=math.inf)
    return below, above


@lru_cache(maxsize=1024)
def _by_count(bid: int, neighbours: Neighbours, spread: int) -> tuple[float, ...]:
    """The easy and greedy kinds' factor for `bid` by their count (a Reading's): the same few
    bids and options come back in every decision of a game, and working this out was most of
    making the model (0.16 s of the 337 decisions of bench/decisions.py --check at 20 ms under
    cProfile, 0.06 s with this; issue 24)."""
    return tuple(
        (1 - BID_MISS) if _nearest_is(bid, neighbours, count) else BID_MISS / spread
        for count in range(MOST_COUNTED + 1)
    )


def _nearest_is(bid: int, neighbours: Neighbours, estimate: float) -> bool:
    """Whether `nearest_bid(estimate, options) == bid`, from the bid's neighbours alone: the
    nearer of the two neighbours is the only rival (ties go to the lower bid), and this runs
    twice for every deal the model weighs."""
    if neighbours is None:
        return False
    gap = abs(bid - estimate)
    below, above = neighbours
    return gap < abs(below - estimate) and gap <= abs(above - estimate)
