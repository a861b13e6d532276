"""The hard player: determinized search over the hidden cards, with a model of the opponents.

For a card: sample deals of the unseen cards consistent with everything seen (cards played, the
trump card, voids shown by failures to follow or to trump). Each opponent is given a kind
(plays like `medium`, like `easy`, greedily: its strongest card while it needs tricks and its
weakest after, or some other way; the odds of each come from its play in the game's earlier
hands, engine/ai/history.py) and the deal is weighted by how well it and
the kinds explain the bids made and every card each opponent has played so far (each kind's
policy is replayed on the sampled hand); the deals searched are drawn where that weight is, from
a Markov chain over the hidden cards (engine/ai/kernel/chain.py; or, with `chain` 0, each
sampled and weighed). Deals are taken in batches. In each deal every candidate card is played and
the hand is finished by simulation: opponents follow their sampled kind's policy (seeing only
what a player sees), I follow the medium policy until I hold three cards (or from five cards on,
at once), and from there my moves are solved jointly over the batch: one choice for all the
deals I cannot tell apart by the cards played so far, so the search never "guesses right" deal
by deal. The card with the best weighted mean score is played; options that trail clearly are
dropped as the batches come in.

For a bid: the same deals (the own hand is sampled too when the hand is blind), later seats bid
as their kind would (the dealer around the hook), and the hand is simulated once per candidate
bid; the bid with the best expected score wins. With a short budget, a sighted bid may weigh only
the bids near its trick estimate (Settings.bid_window), and a timed bid starts no deal it expects
to finish past its budget, counted from the decision's start: bids are one decision in eight,
too many to be among the 5% allowed over 20 ms.

The budget is a time (default 18 ms of the deciding thread's CPU time, never more than 0.8 s
on the wall clock, and no more than MAX_DEALS deals), an iteration count (deals), or both; with
only an iteration count the player is fully deterministic given its seed. A timed card
decision's budget starts with the decision and its batches are sized by what a deal has cost so
far, so the last ends inside it (FIRST_BATCH, SAFETY, TIMED_BATCH).

The deals are drawn, played out and searched by compiled kernels (engine/ai/kernel/), which
give exactly the cards, tricks and values of the plain Python definitions in
tests/ai/plain_sim.py and tests/ai/plain_opponents.py (the chain's random stream is its own).
Issue 24: a card decision's deal costs 13-20 us of CPU where the Python took about 0.4 ms, so
18 ms buys the 200 deals the 0.5 s player searched, and more (figures at MAX_DEALS). Per deal,
against fff6f55's Python (bench/simulator.py --against fff6f55 --deals 100 --rounds 7 --games
20 --draws 200): a card search's batch 272 -> 10.7 us, a bid's rollouts 248 -> 10.1 us, a
chain draw 80 -> 2.5 us.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

import numpy as np

from engine.ai.bits import FULL, mask_of
from engine.ai.history import kind_priors
from engine.ai.kernel.bids import bid_rollouts
from engine.ai.kernel.chain import KernelDrawer
from engine.ai.kernel.play import (
    WIDTH,
    WON,
    Row,
    advance,
    deal_row,
    play,
    rules_row,
    with_hands,
)
from engine.ai.kernel.search import best_response_value
from engine.ai.kernel.search import card_values as batch_values
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.learned import BIDS, bid_values, blend, card_values, close_call
from engine.ai.opponents import OpponentModel
from engine.ai.players import MediumPlayer
from engine.ai.policy import TAKE_WHEN_BUST, TrickEstimator, easy_count, nearest_bid
from engine.ai.sample import Sampler
from engine.ai.sim import (
    EASY,
    GREEDY,
    Setup,
    distinct_moves,
)
from engine.ai.special import Option, SpecialSearch
from engine.cards import STANDARD_DECK, Card
from engine.moves import Bid, Phase
from engine.scoring import hand_points
from engine.view import PlayerView

DEFAULT_THINK_TIME = 0.018
MAX_DEALS = 1000
"""A timed decision stops at this many deals even with time to spare, so that tables thinking at
once on a busy machine do not spend CPU past it. Issue 24, with the compiled search, card
decisions' loss against 1,000-deal values (bench/decisions.py --check --truth, 277 card
decisions of seed 11 at an 18 ms budget, points a decision): a cap of 200 deals 0.070, 500:
0.052, 1,000: 0.045 (each +-0.017; the Python player at 200: 0.050), all decisions' CPU
p50/p95 2.0/7.0, 3.1/14.6 and 4.1/18.0 ms. So the cap is 1,000 and the 18 ms budget ends the
long searches. (With the Python search the cap was 200, the reference issue 24 compares with:
hard@fff6f55 at 200 deals, CPU per decision p50/p95/mean 21/113/33 ms on the anchor's deals.)"""
SPECIAL_MAX_DEALS = 5000
"""The same for the special-card presets' searches, whose deals are single rollouts: time bounds
them in practice."""

Drawn = tuple[float, list[int], list[int], list[int]]
"""A sampled deal: (weight, hands per seat, out-of-play cards in random order, kind per seat)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the hard player searches.

    `branch_at`: search my own moves once I hold that many cards or fewer (0: play them by the
    policy), and all of them once I hold `full_at` or fewer; `bid_branch_at` the same inside bid
    simulations; `model` 0 turns the opponent model off (everyone is simulated as medium, bids
    weigh deals); `honest` 1: simulated seats count every unseen card as outstanding, the stock
    included (0: they know which cards are in the hands); `joint` 1: my last moves are solved
    once for all the deals of a batch of `batch` deals that I cannot tell apart (0: per deal,
    seeing all)."""

    branch_at: int = 3
    """Issue 24: 3 (was 4) played -0.012 +- 0.125 points a hand against hard@fff6f55 at 200
    deals (bench/anchor.py, simple opponents, 324 seat-hands of seed 7, paired) at CPU per
    decision p50/p95 58/243 ms against its 65/339 on the same deals."""
    full_at: int = 5
    bid_branch_at: int = 0
    model: int = 1
    honest: int = 1
    joint: int = 1
    batch: int = 48
    chain: int = 10
    """Swaps proposed between deals drawn from the Markov chain over the hidden cards
    (engine/ai/kernel/chain.py); 0 samples each deal and weighs it by the model instead (as
    where the opponents have shown nothing yet). Issue 24 tried
    5 (CPU per decision p50/p95 46/301 ms against 65/335 at 200 deals): it played -0.179 +-
    0.218 points a hand against hard@fff6f55 (280 seat-hands of seed 7), no sure saving."""
    history: int = 1
    """1: each opponent's prior over kinds comes from its play in the game's earlier hands
    (engine/ai/history.py); 0: the same prior for everyone, every hand."""
    exact_bids: int = 1
    """1: the model expects each kind's bid to be the legal bid nearest its count, as our
    players and simple rule-based ones bid (0: a bell around the count)."""
    learned: int = 0
    """1: the learned models decide (engine/ai/learned.py), searching only where their best
    two candidates are within `close` tenths of a point (0: never), their values counting as
    `prior` deals beside the search's. Off by default: it plays below today's hard (the
    figures are in engine/ai/learned.py)."""
    close: int = 10
    prior: int = 16
    bid_window: int = 0
    """A sighted bid of up to 7 tricks searches only the bids within this many tenths of its
    trick estimate (0: every legal bid); larger hands keep those within 3.5 whatever this is.
    Off by default: it paid where deals were few (15 at 20 ms of the Python search, below),
    while with the compiled search an 18 ms bid draws 320 deals at p50 (p10/p90 40/704, CPU
    p50/p95 9.2/18.0 ms, bench/anchor.py on seeds 31-36), and at the Python's 0.5 s 15
    played -0.180 +- 0.129 points a hand against 0 (-0.147 +- 0.129 against another run of 0;
    bench/anchor.py --deals 100 --opponents simple --seed 7 --workers 1, 400 seat-hands,
    paired), so the default player bids as before.
    Issue 24, bench/anchor.py --deals 100 --opponents simple --seed 7 --workers 1 --think-time
    0.02, 400 seat-hands paired with hard@fff6f55's run at 200 deals: 1.5 played -0.292 +-
    0.204, -0.745 +- 0.218 and -0.718 +- 0.237 points a hand against it (three runs), every bid
    -0.858 +- 0.216 and -1.048 +- 0.218 (two); pooled deal by deal, 1.5 over every bid +0.368 +-
    0.145 and -0.585 +- 0.181 against hard@fff6f55. Bid CPU p50/p95 19.5/19.8 ms with 37-40
    deals at p50, where every bid drew 20-23 (and, before a timed bid ended inside its budget,
    took 21.5/22.3 ms). At 200 deals a bid's best was within 1.5 of the estimate in 99 of 100
    anchor bids, losing 0.004 points a bid (1.0: 0.10). Against 1,000-deal values of 200 bids
    (seed 11) the regret at 20 ms was, by window, 1.0: 0.34, 1.2: 0.25, 1.5: 0.21, 2.0: 0.25,
    every bid 0.33 +- 0.04 (200 deals: 0.07); with 1.5, pruning early, 5 or 20 chain steps,
    uniform deals (weighted by the model or not), or leaning to the estimate's bid gained
    nothing."""
    bid_deals: int = 0
    """A bid searches exactly this many deals, whatever the budget (0: the budget's): for
    measuring what the bid's share of the budget costs. Issue 24: with 200, today's 20 ms card
    search played -0.432 +- 0.206 against hard@fff6f55 at 200 deals, -0.858 +- 0.216 without
    (bench/anchor.py, seed 7, 400 seat-hands): half the gap was the bid. Over more seeds it is
    less: +0.140 +- 0.079 points a hand over 20 ms bids (seeds 7-10 and 12-15, 3,200 seat-hands,
    paired; -0.011 on seeds 12-15 alone), -0.323 +- 0.099 against hard@fff6f55 (seeds 7-10),
    where 20 ms bids played -0.614 +- 0.121. Stop 27 also tried searching on (to 200 deals)
    only the bids whose leader's expected loss to its rivals stayed high once the budget was
    spent, so that at most ~4% of all decisions run long and the CPU p95 stays at 20 ms: with
    a quarter of the bids extended, -0.034 +- 0.081 (8 seeds, paired), with 37% +0.083 +-
    0.078, though offline those bids gave up 0.380 -> 0.273 points a bid against 1,000-deal
    values (every bid at 200 deals: 0.222). Not kept. At --think-time 0.02 itself 11.4% of
    all decisions ran over 20 ms of CPU (p95 20.1 ms, the batch that ends a search); at 0.0195,
    1.5% (p95 19.6 ms)."""
    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in fields(cls))


WALL_FACTOR = 1.6
"""A timed decision stops after `think_time` seconds of its own CPU time, or after this many
times `think_time` on the wall clock, whichever comes first (0.8 s at the default; the batch in
progress then finishes, so a decision stays under a second)."""


WALL_FLOOR = 0.8
"""The wall-clock limit is never below this many seconds (the default budget's own): a short
CPU budget on a machine busy with other tables would otherwise be cut short by the clock, and
play as weakly as its few deals do, while a person can wait this long for a computer."""


@dataclass(frozen=True, slots=True)
class Budget:
    """When a decision stops sampling: after `limit` deals, or once it has used `cpu` seconds
    of its thread's CPU time or reached the `wall` clock (perf_counter), whichever is first.

    Counting CPU time, a decision on a machine busy with other tables gets the deals it would
    get on an idle one; the wall limit still bounds how long a person waits."""

    limit: int
    cpu: float = math.inf
    wall: float = math.inf

    @classmethod
    def timed(cls, think_time: float | None, limit: int) -> Budget:
        if think_time is None:
            return cls(limit)
        return cls(
            limit,
            time.thread_time() + think_time,
            time.perf_counter() + max(WALL_FACTOR * think_time, WALL_FLOOR),
        )

    def left(self) -> float:
        """Seconds of CPU left before the deadline, the wall clock permitting."""
        return min(self.cpu - time.thread_time(), self.wall - time.perf_counter())

    def more(self, deals: int) -> bool:
        """Whether another deal fits (at least two are always taken)."""
        if deals >= self.limit:
            return False
        return deals < 2 or (
            time.thread_time() < self.cpu and time.perf_counter() < self.wall
        )


class HardPlayer(MediumPlayer):
    """Determinized search over sampled deals weighted by the opponent model (module docstring);
    `options` are the Settings fields."""

    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        think_time: float | None = None,
        iterations: int | None = None,
        **options: int,
    ) -> None:
        super().__init__(seed)
        if think_time is None and iterations is None:
            think_time = DEFAULT_THINK_TIME
        unknown = sorted(set(options) - set(Settings.names()))
        if unknown:
            raise TypeError(f"The hard player has no option {unknown[0]!r}.")
        self.think_time = think_time
        self.iterations = iterations
        self.settings = Settings(**options)
        # For inspection: the last decision's options with their estimated mean scores, the
        # chance of making each bid considered, and how many deals were searched.
        self.last_values: dict[str, float] = {}
        self.last_make: dict[int, float] = {}
        """Per bid considered, the chance it is made (rollouts; not with `bid_branch_at`)."""
        self.last_options: list[int] = []
        """The bids still in the race when the last bid decision stopped."""
        self.last_deals = 0
        self.last_search: CardSearch | None = None
        self.explain = False
        """Set (by a hint) to also count, in card decisions, how often each card keeps the bid
        made; the choice is the same either way."""

    def _budget(self, most: int | None = None) -> Budget:
        if self.iterations is not None:
            limit = self.iterations
        else:
            limit = MAX_DEALS if most is None else most
        return Budget.timed(self.think_time, limit)

    def deal_drawer(self, view: PlayerView) -> Callable[[], Drawn]:
        """The weighted deals this player searches at `view` (as a card decision does; a bid
        draws the same, save that a blind bid deals its own hand too), one per call:
        bench/inference.py scores where they put the hidden cards."""
        k = read_view(view)
        return self._drawer(Sampler(k), self._model(view, k)).draw

    def _drawer(self, sampler: Sampler, model: OpponentModel) -> KernelDrawer:
        """Where this decision's deals come from: the chain where the opponents' bids or plays
        tell something, else deals sampled and weighed by the model (engine/ai/kernel/chain.py),
        from a seed the player's rng gives, so a decision replays from its seed."""
        steps = self.settings.chain if model.informative else 0
        return KernelDrawer(sampler, model, self.rng.getrandbits(64), steps)

    def _model(self, view: PlayerView, k: Knowledge) -> OpponentModel:
        settings = self.settings
        enabled = settings.model > 0
        exact = settings.exact_bids > 0
        priors = kind_priors(view, exact) if enabled and settings.history > 0 else None
        return OpponentModel(view, k, enabled, exact, priors)

    def _live(self, k: Knowledge) -> int:
        return FULL & ~k.played & ~k.turned if self.settings.honest else -1

    # ----- card play -----

    def search_values(self, view: PlayerView) -> dict[int, float]:
        """The search's mean score per candidate at `view` (card index or bid), as it decides:
        what the learned models are trained to predict (train/selfplay.py)."""
        if view.phase.awaits is Bid:
            self.search_bid(view)
            return {int(bid): value for bid, value in self.last_values.items()}
        card = self._card(view)
        search = self.last_search
        if search is None:
            return {card.index: 0.0}
        return {c: search.totals[i] / search.seen[i]
                for i, c in enumerate(search.candidates) if search.seen[i] > 0.0}

    def _card(self, view: PlayerView) -> Card:
        if self.settings.learned:
            return self._learned_card(view)
        budget = self._budget()  # reading the view and starting the draws count too
        self.last_search = None
        k = read_view(view)
        legal = mask_of(view.legal_cards)
        candidates = distinct_moves(legal, k.unseen | known_others(k))
        if len(candidates) == 1:
            return STANDARD_DECK[candidates[0]]
        me = k.seat
        bid = k.bids[me] if k.bids[me] >= 0 else 0
        table = [
            hand_points(view.rules, bid, t, k.tricks_in_hand, view.blind)
            for t in range(k.tricks_in_hand + 2)
        ]
        target = bid if self.explain else -1
        search = self.search_cards(view, k, candidates, table, target, budget)
        self.last_search = search
        self.last_values = {
            STANDARD_DECK[card].code: search.totals[i] / (search.seen[i] or 1.0)
            for i, card in enumerate(candidates)
        }
        best = max(search.alive, key=lambda i: (search.totals[i], -i))
        return STANDARD_DECK[candidates[best]]

    def search_cards(
        self,
        view: PlayerView,
        k: Knowledge,
        candidates: list[int],
        table: list[int],
        target: int = -1,
        budget: Budget | None = None,
    ) -> CardSearch:
        """Score each candidate card (indices) over the budget's deals, `table` giving my score
        by tricks won; the returned search holds the weighted totals (and, given a `target`,
        how often each candidate's best line wins exactly that many tricks)."""
        me = k.seat
        search = CardSearch(
            setup=Setup.at(k, TAKE_WHEN_BUST.get(view.rules.scoring, False), self._live(k)),
            me=me,
            candidates=candidates,
            table=table,
            bids=[b if b >= 0 else 0 for b in k.bids],
            drawer=self._drawer(Sampler(k), self._model(view, k)),
            target=target,
        )
        settings = self.settings
        branch_at = settings.branch_at
        if branch_at > 0 and k.held[me] <= settings.full_at:
            branch_at = max(branch_at, k.held[me])  # search the rest of the hand
        if budget is None:
            budget = self._budget()
        if settings.joint > 0 and branch_at > 0:
            deals = self._joint_search(search, branch_at, budget)
        else:
            deals = self._deal_search(search, branch_at, budget)
        self.last_deals = deals
        return search

    def _deal_search(self, search: CardSearch, branch_at: int, budget: Budget) -> int:
        """Each deal searched on its own, seeing every card; returns the deals drawn."""
        ceiling = max(search.table)
        spread = ceiling - min(search.table)
        me = search.me
        setup = search.setup
        candidates = search.candidates
        alive = search.alive
        totals = search.totals
        template, rules, bids, table = search.kernel_inputs()
        mass = 0.0
        deals = 0
        while budget.more(deals):
            weight, hands, _stock, kinds = search.drawer.draw()
            deals += 1
            if weight <= 0.0:
                continue
            mass += weight
            for i in alive:
                search.seen[i] += weight
            root = with_hands(template, hands, kinds, setup.live)
            for i in alive:
                state = root.copy()
                if branch_at > 0:
                    play(state, rules, candidates[i])
                    value = best_response_value(state, rules, bids, me, table, branch_at,
                                                ceiling)
                else:
                    advance(state, rules, bids, -1, 0, candidates[i])
                    value = search.table[state[WON + me]]
                totals[i] += weight * value
            if deals in PRUNE_AT:
                alive[:] = _prune(alive, totals, mass, PRUNE_AT[deals] * spread)
                if len(alive) == 1:
                    break
        return deals

    def _joint_search(self, search: CardSearch, branch_at: int, budget: Budget) -> int:
        """Deals in batches; in each batch my last `branch_at` moves are solved jointly over the
        deals I cannot tell apart. Fills the search's totals (and trims its options); returns
        the deals drawn.

        Timed, each batch is sized by the CPU a deal has cost so far, so the last one ends
        inside the budget (FIRST_BATCH, SAFETY, TIMED_BATCH)."""
        settings = self.settings
        me = search.me
        spread = max(search.table) - min(search.table)
        alive = search.alive
        totals = search.totals
        target = search.target
        deals = 0
        mass = 0.0
        prune_points = sorted(PRUNE_AT)
        timed = self.think_time is not None
        batch_size = max(1, settings.batch)
        searched = 0  # deals times the candidates scored in each: what the CPU bought
        started = time.thread_time()
        cost = 0.0  # CPU seconds a deal has cost per candidate searched, so far
        setup = search.setup
        live = setup.live
        template, rules, bids, table = search.kernel_inputs()
        candidates = np.array(search.candidates, dtype=np.int64)
        rows = np.empty((batch_size, WIDTH), dtype=np.int64)
        weights = np.empty(batch_size)
        while deals < budget.limit:
            if not timed:
                size = min(batch_size, budget.limit - deals)
            elif deals == 0:
                size = min(batch_size, FIRST_BATCH, budget.limit)
            else:
                size = min(batch_size, TIMED_BATCH, budget.limit - deals,
                           int(SAFETY * budget.left() / (cost * len(alive))))
                if size < 1:
                    break
            count = min(size, budget.limit - deals)
            rows[:count] = template
            search.drawer.draw_rows(rows, count, 0, live, weights)
            deals += count
            if not (weights[:count] > 0.0).all():  # deals the model rules out are not searched
                kept = np.flatnonzero(weights[:count] > 0.0)
                rows[:kept.size] = rows[kept]
                weights[:kept.size] = weights[kept]
                count = kept.size
            if count:
                values = np.zeros(len(search.candidates))
                makes = np.zeros(len(search.candidates))
                batch_values(rows[:count], weights[:count], rules, bids, me, table, branch_at,
                            candidates, np.array(alive, dtype=np.int64), target, values, makes)
                for i in alive:
                    totals[i] += float(values[i])
                    search.makes[i] += float(makes[i])
                batch_mass = sum(weights[:count].tolist())
                mass += batch_mass
                searched += count * len(alive)
                for i in alive:
                    search.seen[i] += batch_mass
            if timed:
                cost = max((time.thread_time() - started) / max(1, searched), 1e-7)
            while prune_points and deals >= prune_points[0]:
                margin = PRUNE_AT[prune_points.pop(0)] * spread
                alive[:] = _prune(alive, totals, mass, margin)
            if len(alive) == 1:
                break
        return deals

    # ----- the special-card presets: the same search over sampled deals, on engine rules -----

    def _special_search(self) -> SpecialSearch:
        # a special-card deal is one cheap rollout per option, not a solved endgame: its
        # searches were measured with time as their only bound, so they keep that
        budget = self._budget(SPECIAL_MAX_DEALS)
        started = time.thread_time()

        def more(deals: int) -> bool:
            """One deal at least (a deal rolls out every option); after that, none that the
            deals so far say would end past the budget (issue 24: checking only that time was
            left, 18 ms decisions took 20.2 ms at p95 on blackout_jokers)."""
            if deals == 0:
                return True
            if deals >= budget.limit or time.perf_counter() >= budget.wall:
                return False
            now = time.thread_time()
            return now + (now - started) / deals <= budget.cpu

        return SpecialSearch(self.rng, more)

    def _special_bid(self, view: PlayerView) -> int:
        search = self._special_search()
        bid = search.choose_bid(view)
        self.last_deals = search.deals
        return bid

    def _special_play(self, view: PlayerView) -> Option:
        search = self._special_search()
        option = search.choose_card(view)
        self.last_deals = search.deals
        return option

    def _learned_card(self, view: PlayerView) -> Card:
        """The card with the best value by the model (engine/ai/learned.py), or by model and
        search where the best two are close."""
        self.last_search = None
        k = read_view(view)
        candidates = distinct_moves(mask_of(view.legal_cards), k.unseen | known_others(k))
        if len(candidates) == 1:
            return STANDARD_DECK[candidates[0]]
        values = card_values(view, k, candidates)
        self.last_deals = 0
        if close_call(values, self.settings.close):
            bid = max(0, k.bids[k.seat])
            table = [hand_points(view.rules, bid, t, k.tricks_in_hand, view.blind)
                     for t in range(k.tricks_in_hand + 2)]
            search = self.search_cards(view, k, candidates, table)
            values = blend(values, [search.totals[i] / search.seen[i] if search.seen[i] else None
                                    for i in range(len(candidates))],
                           self.last_deals, self.settings.prior)
        self.last_values = {STANDARD_DECK[c].code: v
                            for c, v in zip(candidates, values, strict=True)}
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        return STANDARD_DECK[candidates[best]]

    def _learned_bid(self, view: PlayerView) -> int:
        """The bid with the best value by the model, or by model and search where it is
        close."""
        legal = [bid for bid in view.legal_bids if bid < BIDS]
        if len(view.legal_bids) == 1 or not legal:
            return self.search_bid(view) if not legal else legal[0]
        k = read_view(view)
        values = bid_values(view, k, legal)
        self.last_deals = 0
        if close_call(values, self.settings.close):
            self.search_bid(view)
            searched = [self.last_values.get(str(bid)) for bid in legal]
            values = blend(values, searched, self.last_deals, self.settings.prior)
        self.last_values = {str(bid): value for bid, value in zip(legal, values, strict=True)}
        best = max(range(len(legal)), key=lambda i: (values[i], -i))
        return legal[best]

    # ----- bidding -----

    def _bid(self, view: PlayerView) -> int:
        return self._learned_bid(view) if self.settings.learned else self.search_bid(view)

    def search_bid(self, view: PlayerView) -> int:
        """The bid with the best expected score over the sampled deals (module docstring)."""
        # the budget counts from here, and a deal starts only if it should end well inside it:
        # every timed bid stays within its think time
        budget = Budget(self.settings.bid_deals) if self.settings.bid_deals else self._budget()
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
        window = self.settings.bid_window
        if not sample_own and (tricks >= 8 or window):
            # the best bid is rarely far from the estimate: the search's deals go to the rest
            guess = estimator.estimate(k.hand)
            reach = 3.5 if tricks >= 8 or not window else window / 10
            # a zero bid that scores more than a made one (zero_bid "five_plus_hand") is worth
            # weighing from further off: the window was measured where it scores less
            rich_zero = (hand_points(rules, 0, 0, tricks, view.blind)
                         > hand_points(rules, 1, 1, tricks, view.blind))
            legal = [b for b in legal
                     if abs(b - guess) <= reach or (b == 0 and rich_zero)] or legal
        hook = rules.hook and not simultaneous
        extra_possible = (
            rules.extra_card and me == dealer and not simultaneous and k.out_count >= players
        )
        draw = self._drawer(Sampler(k, sample_own=sample_own), self._model(view, k)).draw
        bust_take = TAKE_WHEN_BUST.get(rules.scoring, False)
        live = self._live(k)
        leader = (dealer + 1) % players
        setup = Setup.hand_start(k, bust_take, live, leader, tricks)
        extra_setup = Setup.hand_start(k, bust_take, live, leader, tricks + 1)
        template = deal_row(setup, [0] * players)
        extra_template = deal_row(extra_setup, [0] * players)
        kernel_rules = rules_row(setup)
        extra_tables = {
            b: [hand_points(rules, b, t, tricks + 1, view.blind) for t in range(tricks + 3)]
            for b in legal
        }
        tables = {
            b: [hand_points(rules, b, t, tricks, view.blind) for t in range(tricks + 2)]
            for b in legal
        }
        totals = dict.fromkeys(legal, 0.0)
        mass = 0.0
        alive_bids = list(legal)
        makes = dict.fromkeys(legal, 0.0)
        seen = dict.fromkeys(legal, 0.0)
        spread = max(max(t) for t in tables.values()) - min(min(t) for t in tables.values())
        bid_branch_at = self.settings.bid_branch_at
        deals = 0
        trump = k.trump
        searching = time.thread_time()
        while budget.more(deals):
            if deals >= 2 and budget.cpu < math.inf:
                now = time.thread_time()
                if now + 2 * (now - searching) / deals > budget.cpu:
                    break
            weight, hands, stock, kinds = draw()
            deals += 1
            if weight <= 0.0:
                continue
            mass += weight
            base = [b if b >= 0 else 0 for b in k.bids]
            wants: dict[int, float] = {}
            for s in later:
                if kinds[s] in (EASY, GREEDY):
                    wants[s] = float(easy_count(hands[s], trump))
                else:
                    wants[s] = estimator.estimate(hands[s])
                if s != dealer:
                    base[s] = round(wants[s])
            plain: list[int] = []  # bids whose hands are simply played out: played together
            variants: list[list[int]] = []
            for b in alive_bids:
                seen[b] += weight
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
                    extra_won = np.empty(1, dtype=np.int64)
                    bid_rollouts(with_hands(extra_template, dealt, kinds, live), kernel_rules,
                                 np.array([bids], dtype=np.int64), me, extra_won)
                    won_extra = int(extra_won[0])
                    totals[b] += weight * extra_tables[b][won_extra]
                    if won_extra == b:
                        makes[b] += weight
                elif bid_branch_at > 0:
                    table = tables[b]
                    totals[b] += weight * best_response_value(
                        with_hands(template, hands, kinds, live), kernel_rules,
                        np.array(bids, dtype=np.int64), me, np.array(table, dtype=np.int64),
                        bid_branch_at, max(table))
                else:
                    plain.append(b)
                    variants.append(bids)
            if plain:
                won_by = np.empty(len(plain), dtype=np.int64)
                bid_rollouts(with_hands(template, hands, kinds, live), kernel_rules,
                             np.array(variants, dtype=np.int64), me, won_by)
                for b, won in zip(plain, won_by.tolist(), strict=True):
                    totals[b] += weight * tables[b][won]
                    if won == b:
                        makes[b] += weight
            if deals in PRUNE_AT:
                alive_bids = _prune(alive_bids, totals, mass, PRUNE_AT[deals] * spread)
                if len(alive_bids) == 1:
                    break
        self.last_deals = deals
        self.last_values = {str(b): totals[b] / (seen[b] or 1.0) for b in legal}
        self.last_make = {b: makes[b] / (seen[b] or 1.0) for b in legal}
        self.last_options = list(alive_bids)
        return max(alive_bids, key=lambda b: (totals[b], -abs(b - tricks / players)))


@dataclass(slots=True)
class CardSearch:
    """One card decision's search: the fixed set-up and the running tallies per candidate."""

    setup: Setup
    me: int
    candidates: list[int]
    table: list[int]
    """My score by tricks won, for the bid I made."""
    bids: list[int]
    drawer: KernelDrawer
    """Where the weighted deals come from."""
    totals: list[float] = field(default_factory=list)
    """Weighted score summed per candidate."""
    seen: list[float] = field(default_factory=list)
    """Weight of the deals each candidate was scored on."""
    alive: list[int] = field(default_factory=list)
    """Candidates (by position) still in the race."""
    target: int = -1
    """When set (my bid, for a hint), `makes` sums the weight of the deals in which my best
    line after each candidate wins exactly this many tricks (the joint search only)."""
    makes: list[float] = field(default_factory=list)

    def kernel_inputs(self) -> tuple[Row, Row, Row, Row]:
        """What the kernels read of this search: a row of its position (every deal drawn is
        written over a copy), its rules, the bids and my score by tricks won."""
        setup = self.setup
        return (deal_row(setup, [0] * setup.players), rules_row(setup),
                np.array(self.bids, dtype=np.int64), np.array(self.table, dtype=np.int64))

    def __post_init__(self) -> None:
        count = len(self.candidates)
        self.totals = [0.0] * count
        self.seen = [0.0] * count
        self.alive = list(range(count))
        self.makes = [0.0] * count


FIRST_BATCH = 8
"""A timed card decision's first batch: its cost sizes the batches after it. (Until issue 24
the batch was sized after it was drawn and the budget started after the deals' drawer was set
up: card decisions at 20 ms took 22.3/24.4 ms of CPU at p50/p95; sized by the cost so far, from
the decision's start, 19.8/20.6, bench/decisions.py --check --budget 20 on 277 card decisions
recorded with --deals 15 --seed 11, the replay's own timing included. The default player
then scored -0.043 +- 0.133 points a hand against hard@fff6f55 at 200 deals, CPU per decision
p50/p95/mean 39/173/56 ms, deals p10/p50 40/200: bench/anchor.py --deals 100 --tester hard
--opponents simple --seed 7, 400 seat-hands, paired.)"""
SAFETY = 0.8
"""A timed batch is sized to this share of the CPU left at the cost a deal has had so far:
deals vary, and the last batch must not run past the budget."""
TIMED_BATCH = 16
"""A timed card decision's batches hold at most this many deals, so that it stops near the
deadline. The batch size does not change play (bench/decisions.py --truth, 263 card decisions
of seed 11, points given up a decision: 40 deals in batches of 10, 20 or 48: 0.195-0.196; 200
deals in batches of 16 or 48: 0.049, 0.053). Issue 24 also tried searching on past the budget
while the leader's expected loss stayed high (base 95%, reach 1000%, doubt 0.5 points): -0.818
+- 0.247 points a hand against hard@fff6f55 at 200 deals, against -0.855 +- 0.220 without,
+0.037 +- 0.237 (bench/anchor.py --deals 100 --opponents simple --seed 7 --think-time 0.02,
400 seat-hands), so it was removed. The loss at 20 ms is spread over the decisions (against
1,000 deals: 40 deals give up 0.196 points a decision, 80: 0.089, 200: 0.053; the 6% it
doubted most held 11-19% of it): 20 ms needs cheaper deals."""


PRUNE_AT = {40: 0.2, 80: 0.12, 160: 0.075, 320: 0.05}
"""After this many deals, options whose mean score trails the best by more than this share of
the score range are dropped, so later deals go to the contenders."""


def _prune(alive: list[int], totals: list[float] | dict[int, float], mass: float,
           margin: float) -> list[int]:
    if mass <= 0.0 or len(alive) < 2:
        return alive
    best = max(totals[i] for i in alive) / mass
    return [i for i in alive if totals[i] / mass >= best - margin]


def known_others(k: Knowledge) -> int:
    """Cards known to be in other seats' hands (the dealer's turned card in Oh! Well)."""
    out = 0
    for seat, cards in enumerate(k.known):
        if seat != k.seat:
            out |= cards
    return out
