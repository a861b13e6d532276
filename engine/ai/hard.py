"""The hard player: determinized search over the hidden cards, with a model of the opponents.

For a card: sample deals of the unseen cards consistent with everything seen (cards played, the
trump card, voids shown by failures to follow or to trump). Each opponent is given a kind
(plays like `medium`, like `easy`, greedily: its strongest card while it needs tricks and its
weakest after, or some other way) and the deal is weighted by how well it and
the kinds explain the bids made and every card each opponent has played so far (each kind's
policy is replayed on the sampled hand); the deal searched is drawn from a small pool by that
weight. Deals are taken in batches. In each deal every candidate card is played and the hand is
finished by simulation: opponents follow their sampled kind's policy (seeing only what a player
sees), I follow the medium policy until I hold four cards (or from five cards on, at once), and
from there my moves are solved jointly over the batch: one choice for all the deals I cannot
tell apart by the cards played so far, so the search never "guesses right" deal by deal. The
card with the best weighted mean score is played; options that trail clearly are dropped as the
batches come in.

For a bid: the same deals (the own hand is sampled too when the hand is blind), later seats bid
as their kind would (the dealer around the hook), and the hand is simulated once per candidate
bid; the bid with the best expected score wins.

The budget is a wall-clock time (default 0.5 s), an iteration count (deals), or both; with only an
iteration count the player is fully deterministic given its seed.
"""

from __future__ import annotations

import math
import random
import time

from engine.ai.bits import FULL, legal_mask, mask_of, trick_winner
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.players import MediumPlayer
from engine.ai.policy import (
    TAKE_WHEN_BUST,
    TrickEstimator,
    choose_card,
    easy_card,
    easy_count,
    greedy_card,
    nearest_bid,
)
from engine.ai.sample import Sampler
from engine.ai.sim import (
    EASY,
    GREEDY,
    MEDIUM,
    Particle,
    SimState,
    advance,
    best_response,
    distinct_moves,
    rollout,
    solve_sampled,
)
from engine.cards import STANDARD_DECK, Card
from engine.moves import Phase
from engine.scoring import hand_points
from engine.view import PlayerView

DEFAULT_THINK_TIME = 0.5
MAX_DEALS = 5000

# Opponent kinds: medium-like, easy-like, greedy, other (modelled as medium in the rollouts).
KINDS = (MEDIUM, EASY, GREEDY, MEDIUM)
KIND_PRIOR = (0.35, 0.3, 0.2, 0.15)
PLAY_MISS = 0.1
"""Chance a player of a kind plays some other card than its policy's."""
BID_SIGMA = (0.7, 0.5, 0.5, 1.2)
DEALER_WIDEN = 1.6
FLOOR = 0.02


class HardPlayer(MediumPlayer):
    """Determinized search. `branch_at`: search my own moves once I hold that many cards or fewer
    (0: play them by the policy), and all of them once I hold `full_at` or fewer;
    `bid_branch_at` the same inside bid simulations;
    `model` 0 turns the opponent model off (everyone is simulated as medium, bids weigh deals);
    `pool`: deals drawn per deal searched (the searched one is drawn from them by weight);
    `honest` 1: simulated seats count every unseen card as outstanding, the stock included (0:
    they know which cards are in the hands); `joint` 1: my last moves are solved once for all
    the deals of a batch of `batch` deals that I cannot tell apart (0: per deal, seeing all)."""

    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        think_time: float | None = None,
        iterations: int | None = None,
        branch_at: int = 4,
        full_at: int = 5,
        bid_branch_at: int = 0,
        model: int = 1,
        pool: int = 4,
        honest: int = 1,
        joint: int = 1,
        batch: int = 48,
    ) -> None:
        super().__init__(seed)
        if think_time is None and iterations is None:
            think_time = DEFAULT_THINK_TIME
        self.think_time = think_time
        self.iterations = iterations
        self.branch_at = branch_at
        self.full_at = full_at
        self.bid_branch_at = bid_branch_at
        self.model = model
        self.pool = max(1, pool)
        self.honest = honest
        self.joint = joint
        self.batch = max(1, batch)
        # For inspection: the last decision's options with their estimated mean scores, the
        # chance of making each bid considered, and how many deals were searched.
        self.last_values: dict[str, float] = {}
        self.last_make: dict[int, float] = {}
        self.last_deals = 0

    def _budget(self) -> tuple[float, int]:
        deadline = math.inf
        if self.think_time is not None:
            deadline = time.perf_counter() + self.think_time
        limit = self.iterations if self.iterations is not None else MAX_DEALS
        return deadline, limit

    def _draw(
        self, sampler: Sampler, model: OpponentModel
    ) -> tuple[float, list[int], list[int], list[int]]:
        """A weighted deal: `pool` deals are drawn and one is kept in proportion to its weight;
        it carries the pool's mean weight. Returns (weight, hands, out-of-play cards, kinds)."""
        rng = self.rng
        if self.pool == 1 or not model.informative:
            hands, stock = sampler.sample(rng)
            weight, kinds = model.weigh(hands, rng)
            return weight, hands, stock, kinds
        drawn: list[tuple[float, list[int], list[int], list[int]]] = []
        total = 0.0
        for _ in range(self.pool):
            hands, stock = sampler.sample(rng)
            weight, kinds = model.weigh(hands, rng)
            total += weight
            drawn.append((weight, hands, stock, kinds))
        if total <= 0.0:
            return 0.0, drawn[0][1], drawn[0][2], drawn[0][3]
        pick = rng.random() * total
        chosen = drawn[-1]
        for entry in drawn:
            if pick < entry[0]:
                chosen = entry
                break
            pick -= entry[0]
        return total / self.pool, chosen[1], chosen[2], chosen[3]

    # ----- card play -----

    def _card(self, view: PlayerView) -> Card:
        k = read_view(view)
        legal = mask_of(view.legal_cards)
        candidates = distinct_moves(legal, k.unseen | _known_others(k))
        if len(candidates) == 1:
            return STANDARD_DECK[candidates[0]]
        me = k.seat
        bid = k.bids[me] if k.bids[me] >= 0 else 0
        rules = view.rules
        table = [
            hand_points(rules, bid, t, k.tricks_in_hand, view.blind)
            for t in range(k.tricks_in_hand + 2)
        ]
        ceiling = max(table)
        live = FULL & ~k.played & ~k.turned if self.honest else -1
        sampler = Sampler(k)
        model = OpponentModel(view, k, self.model > 0)
        bust_take = TAKE_WHEN_BUST.get(rules.scoring, False)
        bids = [b if b >= 0 else 0 for b in k.bids]
        totals = [0.0] * len(candidates)
        weights: list[float] = []
        alive = list(range(len(candidates)))
        seen = [0.0] * len(candidates)
        spread = ceiling - min(table)
        branch_at = self.branch_at
        if branch_at > 0 and k.held[me] <= self.full_at:
            branch_at = max(branch_at, k.held[me])  # search the rest of the hand
        deadline, limit = self._budget()
        deals = 0
        players = k.players
        joint = self.joint > 0 and branch_at > 0
        if joint:
            deals, mass = self._joint_search(
                k, candidates, alive, totals, table, sampler, model, bids, bust_take, live,
                deadline, limit, spread, seen,
            )
            weights.append(mass)
        while not joint and deals < limit and (
            deals < 2 or time.perf_counter() < deadline
        ):
            weight, hands, _stock, kinds = self._draw(sampler, model)
            deals += 1
            if weight <= 0.0:
                continue
            weights.append(weight)
            for i in alive:
                seen[i] += weight
            if branch_at > 0:
                root = SimState(
                    hands, players, k.trump, k.must_trump, k.after_broken, k.broken,
                    k.leader, k.trick, bids, k.won, k.tricks_left, bust_take, kinds, live,
                )
                for i in alive:
                    state = root.copy()
                    state.play(candidates[i])
                    totals[i] += weight * best_response(state, me, table, branch_at, ceiling)
            else:
                for i in alive:
                    card = candidates[i]
                    won = rollout(
                        hands, players, k.trump, k.must_trump, k.after_broken, k.broken,
                        k.leader, k.trick, bids, k.won, k.tricks_left, bust_take,
                        forced=card, kinds=kinds, live=live,
                    )
                    totals[i] += weight * table[won[me]]
            if deals in PRUNE_AT:
                alive[:] = _prune(alive, totals, sum(weights), PRUNE_AT[deals] * spread)
                if len(alive) == 1:
                    break
        self.last_deals = deals
        self.last_values = {
            STANDARD_DECK[card].code: totals[i] / (seen[i] or 1.0)
            for i, card in enumerate(candidates)
        }
        best = max(alive, key=lambda i: (totals[i], -i))
        return STANDARD_DECK[candidates[best]]

    def _joint_search(
        self,
        k: Knowledge,
        candidates: list[int],
        alive: list[int],
        totals: list[float],
        table: list[int],
        sampler: Sampler,
        model: OpponentModel,
        bids: list[int],
        bust_take: bool,
        live: int,
        deadline: float,
        limit: int,
        spread: float,
        seen: list[float],
    ) -> tuple[int, float]:
        """Deals in batches; in each batch my last `branch_at` moves are solved jointly over the
        deals I cannot tell apart. Fills `totals` (and trims `alive`); returns (deals, mass)."""
        me = k.seat
        branch_at = max(self.branch_at, k.held[me]) if k.held[me] <= self.full_at else (
            self.branch_at
        )
        deals = 0
        mass = 0.0
        pending: list[Particle] = []
        prune_points = sorted(PRUNE_AT)
        timed = self.think_time is not None
        batch = min(self.batch, 16) if timed else self.batch
        started = time.perf_counter()
        while True:
            done = deals >= limit or (deals >= 2 and time.perf_counter() >= deadline)
            if not done:
                weight, hands, _stock, kinds = self._draw(sampler, model)
                deals += 1
                if weight > 0.0:
                    pending.append((
                        SimState(
                            hands, k.players, k.trump, k.must_trump, k.after_broken, k.broken,
                            k.leader, k.trick, bids, k.won, k.tricks_left, bust_take, kinds,
                            live,
                        ),
                        weight,
                    ))
            if pending and (done or len(pending) >= batch):
                for i in alive:
                    groups: dict[int, list[Particle]] = {}
                    for root, weight in pending:
                        child = root.copy()
                        child.play(candidates[i])
                        advance(child, me, branch_at)
                        groups.setdefault(child.trail, []).append((child, weight))
                    for group in groups.values():
                        totals[i] += solve_sampled(group, me, table, branch_at)
                batch_mass = sum(weight for _, weight in pending)
                mass += batch_mass
                for i in alive:
                    seen[i] += batch_mass
                pending = []
                while prune_points and deals >= prune_points[0]:
                    margin = PRUNE_AT[prune_points.pop(0)] * spread
                    alive[:] = _prune(alive, totals, mass, margin)
                if len(alive) == 1:
                    break
                if timed and self.think_time:
                    # a batch should take about a quarter of the budget at most
                    per_deal = (time.perf_counter() - started) / deals
                    batch = max(4, min(self.batch, int(0.25 * self.think_time / per_deal)))
            if done:
                break
        return deals, mass

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
        if not sample_own and tricks >= 8:
            guess = estimator.estimate(k.hand)
            legal = [b for b in legal if abs(b - guess) <= 3.5] or legal
        hook = rules.hook and not simultaneous
        extra_possible = (
            rules.extra_card and me == dealer and not simultaneous and k.out_count >= players
        )
        sampler = Sampler(k, sample_own=sample_own)
        model = OpponentModel(view, k, self.model > 0)
        bust_take = TAKE_WHEN_BUST.get(rules.scoring, False)
        extra_tables = {
            b: [hand_points(rules, b, t, tricks + 1, view.blind) for t in range(tricks + 3)]
            for b in legal
        }
        tables = {
            b: [hand_points(rules, b, t, tricks, view.blind) for t in range(tricks + 2)]
            for b in legal
        }
        totals = dict.fromkeys(legal, 0.0)
        weights: list[float] = []
        alive_bids = list(legal)
        makes = dict.fromkeys(legal, 0.0)
        spread = max(max(t) for t in tables.values()) - min(min(t) for t in tables.values())
        live = FULL & ~k.played & ~k.turned if self.honest else -1
        bid_branch_at = self.bid_branch_at
        deadline, limit = self._budget()
        deals = 0
        leader = (dealer + 1) % players
        zeros = [0] * players
        trump = k.trump
        while deals < limit and (deals < 2 or time.perf_counter() < deadline):
            weight, hands, stock, kinds = self._draw(sampler, model)
            deals += 1
            if weight <= 0.0:
                continue
            weights.append(weight)
            base = [b if b >= 0 else 0 for b in k.bids]
            wants: dict[int, float] = {}
            for s in later:
                if kinds[s] in (EASY, GREEDY):
                    wants[s] = float(easy_count(hands[s], trump))
                else:
                    wants[s] = estimator.estimate(hands[s])
                if s != dealer:
                    base[s] = round(wants[s])
            for b in alive_bids:
                bids = base[:]
                bids[me] = b
                if dealer in later:
                    options = list(range(tricks + 1))
                    if hook:
                        forbidden = tricks - sum(bids[s] for s in range(players) if s != dealer)
                        if forbidden in options:
                            options.remove(forbidden)
                    bids[dealer] = nearest_bid(wants[dealer], options)
                if extra_possible and sum(bids) == tricks and len(stock) >= players:
                    dealt = hands[:]
                    for i, s in enumerate(order):
                        dealt[s] |= 1 << stock[i]
                    won = rollout(
                        dealt, players, k.trump, k.must_trump, k.after_broken, False,
                        leader, [], bids, zeros, tricks + 1, bust_take, kinds=kinds, live=live,
                    )
                    totals[b] += weight * extra_tables[b][won[me]]
                elif bid_branch_at > 0:
                    state = SimState(
                        hands, players, k.trump, k.must_trump, k.after_broken, False,
                        leader, [], bids, zeros, tricks, bust_take, kinds, live,
                    )
                    table = tables[b]
                    totals[b] += weight * best_response(
                        state, me, table, bid_branch_at, max(table)
                    )
                else:
                    won = rollout(
                        hands, players, k.trump, k.must_trump, k.after_broken, False,
                        leader, [], bids, zeros, tricks, bust_take, kinds=kinds, live=live,
                    )
                    totals[b] += weight * tables[b][won[me]]
                    if won[me] == b:
                        makes[b] += weight
            if deals in PRUNE_AT:
                alive_bids = _prune(alive_bids, totals, sum(weights), PRUNE_AT[deals] * spread)
                if len(alive_bids) == 1:
                    break
        self.last_deals = deals
        mass = sum(weights) or 1.0
        self.last_values = {str(b): totals[b] / mass for b in alive_bids}
        self.last_make = {b: makes[b] / mass for b in alive_bids}
        return max(alive_bids, key=lambda b: (totals[b], -abs(b - tricks / players)))


PRUNE_AT = {40: 0.2, 80: 0.12, 160: 0.075, 320: 0.05}
"""After this many deals, options whose mean score trails the best by more than this share of
the score range are dropped, so later deals go to the contenders."""


def _prune(alive: list[int], totals: list[float] | dict[int, float], mass: float,
           margin: float) -> list[int]:
    if mass <= 0.0 or len(alive) < 2:
        return alive
    best = max(totals[i] for i in alive) / mass
    return [i for i in alive if totals[i] / mass >= best - margin]


def _known_others(k: Knowledge) -> int:
    out = 0
    for seat, cards in enumerate(k.known):
        if seat != k.seat:
            out |= cards
    return out


class OpponentModel:
    """Per sampled deal: how likely it is given the bids and plays seen, and each opponent's kind.

    For every opponent and kind (medium-like, easy-like, greedy, other) the likelihood is the
    bid's under that kind's bidding (a narrow bell around its trick count) times, for every card
    the opponent has played this hand, the chance that kind plays it from the sampled hand (its
    policy's card: 1 - PLAY_MISS; any other: PLAY_MISS shared; the other kind: uniform over the
    legal cards).
    """

    def __init__(self, view: PlayerView, k: Knowledge, enabled: bool) -> None:
        players = k.players
        self.enabled = enabled
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
        # Every opponent play: (card, led suit, best card before, last?, need, tricks left,
        # trumps broken, every card played before it).
        self.events: dict[int, list[tuple[int, int, int, bool, int, int, bool, int]]] = {
            s: [] for s in self.opponents
        }
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
        self.active = enabled and (bool(self.bids) or any(self.events.values()))
        self.informative = bool(self.bids) or (self.active and any(self.events.values()))

    def weigh(self, hands: list[int], rng: random.Random) -> tuple[float, list[int]]:
        """(weight of this deal, a kind per seat drawn from its posterior)."""
        kinds = [MEDIUM] * self.players
        if not self.active:
            return self._bid_weight_only(hands), kinds
        weight = 1.0
        for seat in self.opponents:
            likely = self._likelihoods(seat, hands[seat] | self.played_by[seat])
            total = sum(likely)
            if total <= 0.0:
                return 0.0, kinds
            weight *= total
            pick = rng.random() * total
            for kind, chance in zip(KINDS, likely, strict=True):
                if pick < chance:
                    kinds[seat] = kind
                    break
                pick -= chance
        return weight, kinds

    def _bid_weight_only(self, hands: list[int]) -> float:
        weight = 1.0
        estimate = self.estimator.estimate
        for seat, bid in self.bids.items():
            diff = bid - estimate(hands[seat] | self.played_by[seat])
            sigma = 1.0 * self.widen[seat]
            weight *= FLOOR + math.exp(-diff * diff / (2 * sigma * sigma))
        return weight

    def _likelihoods(self, seat: int, hand: int) -> tuple[float, float, float, float]:
        """Prior times likelihood of the seat's bid and plays, per kind (in KINDS order)."""
        medium, easy, greedy, other = KIND_PRIOR
        bid = self.bids.get(seat)
        if bid is not None:
            widen = self.widen[seat]
            estimate = self.estimator.estimate(hand)
            counted = float(easy_count(hand, self.trump))
            factors = [
                FLOOR + math.exp(-((bid - center) ** 2) / (2 * (sigma * widen) ** 2))
                for center, sigma in zip(
                    (estimate, counted, counted, estimate), BID_SIGMA, strict=True
                )
            ]
            medium *= factors[0]
            easy *= factors[1]
            greedy *= factors[2]
            other *= factors[3]
        trump = self.trump
        turned = self.turned
        bust_take = self.bust_take
        for card, led, best, last, need, left, broken, played in self.events[seat]:
            legal = legal_mask(hand, led, trump, self.must_trump, self.after_broken, broken)
            options = legal.bit_count()
            if options > 1:
                miss = PLAY_MISS / (options - 1)
                others = FULL & ~hand & ~played & ~turned
                take = need > 0 or (need < 0 and bust_take)
                medium_card = choose_card(
                    legal, hand, best, trump, others, need, left, last, take
                )
                medium *= (1 - PLAY_MISS) if medium_card == card else miss
                easy *= (1 - PLAY_MISS) if easy_card(legal, best, trump, need) == card else miss
                greedy *= (1 - PLAY_MISS) if greedy_card(legal, trump, need) == card else miss
                other /= options
            hand &= ~(1 << card)
        return medium, easy, greedy, other
