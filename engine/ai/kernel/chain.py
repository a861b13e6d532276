"""engine/ai/infer.py's Markov chain over the hidden cards, compiled, and the plain draw (a
sampled deal weighed by the model) that hard.py uses where the model tells nothing.

The chain starts from the likeliest of a few consistent deals, then per deal proposes `steps`
swaps of two hidden cards between holders that may hold them, each kept with probability
min(1, L'/L) on the two seats it touches: its deals follow the model's posterior. Deals are
written straight into engine/ai/kernel/play.py rows (hands and kinds), or handed out as
infer.py's `Chain.draw` does."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.ai.kernel import rng
from engine.ai.kernel.bits import jit
from engine.ai.kernel.model import (
    CEILING,
    MEDIUM_CODE,
    Model,
    draw_kind,
    pack_model,
    seat_likelihoods,
    weigh,
)
from engine.ai.kernel.play import HANDS, HELD, KINDS, LIVE, WIDTH
from engine.ai.kernel.sample import Deals, pack_sampler, sample, shuffle
from engine.ai.opponents import OpponentModel
from engine.ai.sample import Sampler

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Drawn = tuple[float, list[int], list[int], list[int]]
"""infer.py Chain.draw's: (weight, hands per seat, out-of-play cards, a kind per seat)."""

STOCK = -1
"""The holder of a card out of play."""


class Walk(NamedTuple):
    """Where the chain is: every seat's hand and likelihoods (per kind) and their sum, and the
    hidden cards with their holders (a seat, or STOCK); the rest is scratch for the start."""

    hands: Ints
    likely: Floats
    weights: Floats
    cards: Ints
    holder: Ints
    voids: Ints
    trial_hands: Ints
    trial_likely: Floats
    start_stock: Ints
    stock: Ints
    pool: Ints


def _walk(deals: Deals, players: int) -> Walk:
    cards = deals.pool.shape[0]
    voids = np.zeros(players, dtype=np.int64)
    voids[deals.seats] = deals.voids
    return Walk(
        np.zeros(players, dtype=np.int64), np.zeros((players, 4)), np.zeros(players),
        np.zeros(cards, dtype=np.int64), np.zeros(cards, dtype=np.int64), voids,
        np.zeros(players, dtype=np.int64), np.zeros((players, 4)),
        np.zeros(cards, dtype=np.int64), np.zeros(cards, dtype=np.int64),
        np.zeros(cards, dtype=np.int64),
    )


@jit
def start(deals: Deals, model: Model, state: rng.State, start_pool: int, walk: Walk) -> None:
    """infer.py Chain.__init__: the likeliest of `start_pool` sampled deals; a deal stops being
    weighed once even the most its other seats could weigh would leave it behind the best."""
    seats = deals.seats
    count = seats.shape[0]
    reach = np.ones(count + 1)
    for index in range(count - 1, -1, -1):
        reach[index] = reach[index + 1] * model.floats[seats[index], CEILING] * 1.001
    best = -1.0
    best_out = 0
    for _ in range(max(1, start_pool)):
        out = sample(deals, state, walk.trial_hands, walk.stock, walk.pool)
        weight = 1.0
        pruned = False
        for index in range(count):
            if best >= 0.0 and weight * reach[index] < best:
                pruned = True
                break
            seat = seats[index]
            likely = seat_likelihoods(seat, walk.trial_hands[seat], model)
            for kind in range(4):
                walk.trial_likely[seat, kind] = likely[kind]
            weight *= likely[0] + likely[1] + likely[2] + likely[3]
        if not pruned and weight > best:
            best = weight
            walk.hands[:] = walk.trial_hands
            walk.likely[:] = walk.trial_likely
            walk.start_stock[:out] = walk.stock[:out]
            best_out = out
    # the hidden cards and their holders: each seat's beyond what is known of it, then the stock
    filled = 0
    for index in range(count):
        seat = seats[index]
        walk.weights[seat] = (walk.likely[seat, 0] + walk.likely[seat, 1] + walk.likely[seat, 2]
                              + walk.likely[seat, 3])
        hidden = walk.hands[seat] & ~deals.base[seat]
        for card in range(52):
            if hidden >> card & 1:
                walk.cards[filled] = card
                walk.holder[filled] = seat
                filled += 1
    for card in walk.start_stock[:best_out]:
        walk.cards[filled] = card
        walk.holder[filled] = STOCK
        filled += 1


@jit
def propose(walk: Walk, model: Model, state: rng.State, steps: int) -> None:
    """`steps` proposed swaps, each kept with probability min(1, L'/L) (infer.py Chain.draw)."""
    cards = walk.cards
    holder = walk.holder
    hands = walk.hands
    weights = walk.weights
    voids = walk.voids
    count = cards.shape[0]
    if count < 2:
        return
    la = (1.0, 0.0, 0.0, 0.0)
    lb = (1.0, 0.0, 0.0, 0.0)
    for _ in range(steps):
        i = rng.below(state, count)
        j = rng.below(state, count)
        a = holder[i]
        b = holder[j]
        if a == b:
            continue
        ci = cards[i]
        cj = cards[j]
        if (a != STOCK and voids[a] >> (cj // 13) & 1) or (
                b != STOCK and voids[b] >> (ci // 13) & 1):
            continue
        swap = (1 << ci) | (1 << cj)
        old = 1.0
        new = 1.0
        wa = 0.0
        wb = 0.0
        if a != STOCK:
            la = seat_likelihoods(a, hands[a] ^ swap, model)
            wa = la[0] + la[1] + la[2] + la[3]
            old *= weights[a]
            new *= wa
        if b != STOCK:
            lb = seat_likelihoods(b, hands[b] ^ swap, model)
            wb = lb[0] + lb[1] + lb[2] + lb[3]
            old *= weights[b]
            new *= wb
        if new < old and rng.uniform(state) * old >= new:
            continue
        if a != STOCK:
            hands[a] ^= swap
            weights[a] = wa
            for kind in range(4):
                walk.likely[a, kind] = la[kind]
        if b != STOCK:
            hands[b] ^= swap
            weights[b] = wb
            for kind in range(4):
                walk.likely[b, kind] = lb[kind]
        holder[i] = b
        holder[j] = a


@jit
def _kinds(walk: Walk, seats: Ints, state: rng.State, row: Ints) -> None:
    """A kind per seat into the row's KINDS, drawn from the seat's likelihoods."""
    for seat in range(walk.hands.shape[0]):
        row[KINDS + seat] = MEDIUM_CODE
    for seat in seats:
        likely = walk.likely[seat]
        row[KINDS + seat] = draw_kind((likely[0], likely[1], likely[2], likely[3]), state)


@jit
def _deal_into(row: Ints, hands: Ints, live: int) -> None:
    """The hands into a play.py row, and what follows from them: every card held, and the
    cards a simulated seat counts as outstanding (`live` as sim.py's Setup.live: -1, held)."""
    held = 0
    for seat in range(hands.shape[0]):
        row[HANDS + seat] = hands[seat]
        held |= hands[seat]
    row[HELD] = held
    row[LIVE] = held if live < 0 else live


@jit
def draw_chain(deals: Deals, model: Model, state: rng.State, walk: Walk, steps: int,
               rows: Ints, first: int, count: int, live: int, stocks: Ints) -> None:
    """`count` deals from the chain into rows[first:first + count] (hands, kinds, held, live);
    where `stocks` has columns, its row gets the out-of-play cards in random order."""
    for index in range(count):
        propose(walk, model, state, steps)
        row = rows[first + index]
        _deal_into(row, walk.hands, live)
        if stocks.shape[1]:
            out = 0
            for slot in range(walk.cards.shape[0]):
                if walk.holder[slot] == STOCK:
                    walk.stock[out] = walk.cards[slot]
                    out += 1
            shuffle(walk.stock, out, state)
            stocks[index, :out] = walk.stock[:out]
        _kinds(walk, deals.seats, state, row)


@jit
def draw_weighed(deals: Deals, model: Model, state: rng.State, walk: Walk, rows: Ints,
                 first: int, count: int, live: int, weights: Floats, stocks: Ints) -> None:
    """`count` sampled deals into rows[first:first + count], each weighed by the model (into
    `weights`) with a kind per seat from its posterior (hard.py `_draw` with a pool of 1)."""
    players = walk.hands.shape[0]
    kinds = np.zeros(players, dtype=np.int64)
    for index in range(count):
        out = sample(deals, state, walk.hands, walk.stock, walk.pool)
        weights[index] = weigh(walk.hands, model, state, kinds)
        row = rows[first + index]
        _deal_into(row, walk.hands, live)
        row[KINDS:KINDS + players] = kinds
        stocks[index, :out] = walk.stock[:out]


class KernelDrawer:
    """The deals of one decision, compiled: the chain (`steps` > 0, as hard.py draws where the
    model is informative) or sampled deals weighed by the model (`steps` 0). `seed`: 64 bits
    from the player's rng (`rng.getrandbits(64)`), so a decision replays from its seed."""

    def __init__(self, sampler: Sampler, model: OpponentModel, seed: int, steps: int,
                 start_pool: int = 8) -> None:
        self.deals = pack_sampler(sampler)
        self.model = pack_model(model)
        self.state = rng.seeded(seed)
        self.steps = steps
        self.players = model.players
        self.out = len(sampler.pool) - sum(sampler.caps)
        self.walk = _walk(self.deals, model.players)
        self.one = (np.zeros((1, WIDTH), dtype=np.int64), np.zeros(1),
                    np.zeros((1, self.out), dtype=np.int64))
        """`draw`'s row, weight and out-of-play cards, reused."""
        if steps > 0:
            start(self.deals, self.model, self.state, start_pool, self.walk)

    def draw_rows(self, rows: Ints, count: int, first: int = 0, live: int = -1,
                  weights: Floats | None = None, stocks: Ints | None = None) -> None:
        """`count` deals into rows[first:first + count] (play.py's HANDS, KINDS, HELD and
        LIVE columns, `live` as sim.py's Setup.live; the caller fills the rest, as from a
        deal_row template); `weights` gets each deal's weight (1.0 from the chain), `stocks`
        (count rows, a column per card out of play) the out-of-play cards."""
        if stocks is None:
            stocks = np.zeros((count, 0 if self.steps > 0 else self.out), dtype=np.int64)
        if self.steps > 0:
            draw_chain(self.deals, self.model, self.state, self.walk, self.steps, rows, first,
                       count, live, stocks)
            if weights is not None:
                weights[:count] = 1.0
            return
        if weights is None:
            weights = np.zeros(count)
        draw_weighed(self.deals, self.model, self.state, self.walk, rows, first, count, live,
                     weights, stocks)

    def draw(self) -> Drawn:
        """One deal as infer.py's Chain.draw (and hard.py's `_draw`) hands it out."""
        row, weights, stocks = self.one
        self.draw_rows(row, 1, 0, -1, weights, stocks)
        players = self.players
        return (float(weights[0]), row[0, HANDS:HANDS + players].tolist(), stocks[0].tolist(),
                row[0, KINDS:KINDS + players].tolist())
