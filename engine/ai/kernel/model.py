"""engine/ai/opponents.py's OpponentModel, compiled: per seat and kind, the prior times the
likelihood of the seat's bid and plays if it held a given hand.

`pack_model` reads a model once per decision into arrays (per seat: prior, bid and its reading;
per play: what replaying it needs); the kernels weigh a hand from those alone. The Python model's
memos are pure caches, so weighing afresh gives the same numbers."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from engine.ai.bits import FULL
from engine.ai.kernel import rng
from engine.ai.kernel.bits import bit_count, jit, suit_mask
from engine.ai.kernel.cards import choose_card, easy_card, greedy_card
from engine.ai.kernel.estimate import Estimator, easy_count, estimate, estimator
from engine.ai.opponents import (
    BID_SIGMA,
    FLOOR,
    KIND_PRIOR,
    KINDS,
    MOST_COUNTED,
    PLAY_MISS,
    OpponentModel,
)

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Likelihoods = tuple[float, float, float, float]

# Per seat, ints: whether the model weighs it (an opponent), whether it was given a prior by
# earlier hands, whether its bid was seen, the bid, its plays' first row in `steps` and count,
# the cards it has played.
MODELLED, HAS_PRIOR, HAS_BID, BID, FIRST_STEP, STEPS, PLAYED_BY = range(7)
SEAT_INTS = 7
# Per seat, floats: the prior by kind (KINDS order), the bell's widening, the exact bid's
# reading (opponents.py Reading: neighbours, medium's factors, the other kind's 2 sigma^2), the
# most it can weigh, and the easy and greedy kinds' factor by easy count.
PRIOR, WIDEN, BELOW, ABOVE, HIT, MISS, SPREAD, CEILING, BY_COUNT = 0, 4, 5, 6, 7, 8, 9, 10, 11
SEAT_FLOATS = BY_COUNT + MOST_COUNTED + 1
# Per play (opponents.py Event and Step): its card's bit, the led suit's mask (0 leading),
# whether a lead must avoid unbroken trumps, need, the card, the best card before, last to the
# trick?, tricks left, every card played before it.
BIT, LED_MASK, LEAD_SIDE, NEED, CARD, BEST, LAST, LEFT, PLAYED = range(9)
STEP_WIDTH = 9
# The model's flags and rules.
PLAYERS, TRUMP, MUST_TRUMP, BUST_TAKE, ACTIVE, EXACT, TURNED = range(7)
RULES_WIDTH = 7

HIT_PLAY = 1 - PLAY_MISS
KIND_CODES = np.array(KINDS, dtype=np.int64)
MEDIUM_CODE = KINDS[0]


class Model(NamedTuple):
    """An OpponentModel as the kernels read it (`pack_model`)."""

    seats: Ints
    floats: Floats
    steps: Ints
    rules: Ints
    estimator: Estimator


def pack_model(model: OpponentModel) -> Model:
    """`model`'s readings as arrays, once per decision."""
    players = model.players
    seats = np.zeros((players, SEAT_INTS), dtype=np.int64)
    floats = np.zeros((players, SEAT_FLOATS))
    rows: list[list[int]] = []
    for seat in range(players):
        seats[seat, PLAYED_BY] = model.played_by[seat]
        floats[seat, PRIOR:PRIOR + 4] = model.priors.get(seat, KIND_PRIOR)
        floats[seat, CEILING] = model.likelihood_ceiling(seat)
        if seat not in model.events:
            continue
        seats[seat, MODELLED] = 1
        seats[seat, HAS_PRIOR] = seat in model.priors
        floats[seat, WIDEN] = model.widen[seat]
        if seat in model.bids:
            seats[seat, HAS_BID] = 1
            seats[seat, BID] = model.bids[seat]
        if seat in model.readings:
            below, above, hit, miss, by_count, spread = model.readings[seat]
            floats[seat, BELOW:SPREAD + 1] = (below, above, hit, miss, spread)
            floats[seat, BY_COUNT:] = by_count
        seats[seat, FIRST_STEP] = len(rows)
        seats[seat, STEPS] = len(model.plays[seat])
        for bit, led_mask, lead_side, _conserve, need, _others, _memo, event in model.plays[seat]:
            card, _led, best, last, _need, left, _broken, played = event
            rows.append([bit, led_mask, lead_side, need, card, best, last, left, played])
    steps = np.array(rows, dtype=np.int64).reshape(len(rows), STEP_WIDTH)
    trump = model.trump
    rules = np.array(
        [players, trump, model.must_trump and trump >= 0, model.bust_take, model.active,
         model.exact_bids, model.turned],
        dtype=np.int64,
    )
    est = model.estimator
    size = est.size
    return Model(seats, floats, steps, rules,
                 estimator(players, size, trump, est.turned, est.outlast is not None))


@jit
def _estimate(hand: int, model: Model) -> float:
    e = model.estimator
    return estimate(hand, e.parts, e.cdf, e.survive, e.outlast, e.info)


@jit
def _bell(bid: int, center: float, sigma: float) -> float:
    return FLOOR + math.exp(-((bid - center) ** 2) / (2 * sigma ** 2))


@jit
def weigh_hand(seat: int, hand: int, model: Model) -> Likelihoods:
    """opponents.py OpponentModel._weigh_hand: `hand` is every card the seat held this hand."""
    seats = model.seats
    floats = model.floats
    rules = model.rules
    trump = rules[TRUMP]
    medium = floats[seat, PRIOR]
    easy = floats[seat, PRIOR + 1]
    greedy = floats[seat, PRIOR + 2]
    other = floats[seat, PRIOR + 3]
    if seats[seat, HAS_BID]:
        bid = seats[seat, BID]
        guess = _estimate(hand, model)
        if rules[EXACT]:
            gap = abs(bid - guess)
            if gap < abs(floats[seat, BELOW] - guess) and gap <= abs(floats[seat, ABOVE] - guess):
                medium *= floats[seat, HIT]
            else:
                medium *= floats[seat, MISS]
            factor = floats[seat, BY_COUNT + easy_count(hand, trump)]
            easy *= factor
            greedy *= factor
            other *= FLOOR + math.exp(-((bid - guess) ** 2) / floats[seat, SPREAD])
        else:
            widen = floats[seat, WIDEN]
            counted = float(easy_count(hand, trump))
            medium *= _bell(bid, guess, BID_SIGMA[0] * widen)
            easy *= _bell(bid, counted, BID_SIGMA[1] * widen)
            greedy *= _bell(bid, counted, BID_SIGMA[2] * widen)
            other *= _bell(bid, guess, BID_SIGMA[3] * widen)
    tmask = suit_mask(trump) if trump >= 0 else 0
    must_trump = rules[MUST_TRUMP] != 0
    bust_take = rules[BUST_TAKE] != 0
    unseen = FULL & ~rules[TURNED]
    steps = model.steps
    first = seats[seat, FIRST_STEP]
    for row in range(first, first + seats[seat, STEPS]):
        led_mask = steps[row, LED_MASK]
        if led_mask:
            legal = hand & led_mask
            if not legal:
                legal = hand & tmask if must_trump and hand & tmask else hand
        elif steps[row, LEAD_SIDE] and hand & ~tmask:
            legal = hand & ~tmask
        else:
            legal = hand
        if legal & (legal - 1):
            # opponents.py _factors
            card = steps[row, CARD]
            best = steps[row, BEST]
            need = steps[row, NEED]
            options = bit_count(legal)
            miss = PLAY_MISS / (options - 1)
            others = unseen & ~hand & ~steps[row, PLAYED]
            take = need > 0 or (need < 0 and bust_take)
            chosen = choose_card(legal, hand, best, trump, others, need, steps[row, LEFT],
                                 steps[row, LAST] != 0, take)
            medium *= HIT_PLAY if chosen == card else miss
            easy *= HIT_PLAY if easy_card(legal, best, trump, need) == card else miss
            greedy *= HIT_PLAY if greedy_card(legal, trump, need) == card else miss
            other /= options
        hand &= ~steps[row, BIT]
    return medium, easy, greedy, other


@jit
def seat_likelihoods(seat: int, hand: int, model: Model) -> Likelihoods:
    """opponents.py OpponentModel.seat_likelihoods: per kind, if `seat` now holds `hand`."""
    seats = model.seats
    if not seats[seat, MODELLED]:
        return 1.0, 0.0, 0.0, 0.0
    full = hand | seats[seat, PLAYED_BY]
    if not model.rules[ACTIVE]:
        if not seats[seat, HAS_BID]:
            return 1.0, 0.0, 0.0, 0.0
        diff = seats[seat, BID] - _estimate(full, model)
        sigma = model.floats[seat, WIDEN]
        return FLOOR + math.exp(-diff * diff / (2 * sigma * sigma)), 0.0, 0.0, 0.0
    return weigh_hand(seat, full, model)


@jit
def draw_kind(likely: Likelihoods, state: rng.State) -> int:
    """tests/ai/plain_opponents.py `draw_kind`: a kind in proportion to `likely`."""
    pick = rng.uniform(state) * (likely[0] + likely[1] + likely[2] + likely[3])
    for index in range(4):
        if pick < likely[index]:
            return KIND_CODES[index]  # type: ignore[no-any-return]
        pick -= likely[index]
    return MEDIUM_CODE


@jit
def weigh(hands: Ints, model: Model, state: rng.State, kinds: Ints) -> float:
    """tests/ai/plain_opponents.py `weigh`: the deal's weight; `kinds` gets a kind per seat drawn
    from its posterior (MEDIUM where not drawn)."""
    seats = model.seats
    floats = model.floats
    players = model.rules[PLAYERS]
    kinds[:players] = MEDIUM_CODE
    if not model.rules[ACTIVE]:
        for seat in range(players):
            if seats[seat, HAS_PRIOR]:
                kinds[seat] = draw_kind(
                    (floats[seat, PRIOR], floats[seat, PRIOR + 1], floats[seat, PRIOR + 2],
                     floats[seat, PRIOR + 3]), state)
        weight = 1.0
        for seat in range(players):
            if seats[seat, HAS_BID]:
                diff = seats[seat, BID] - _estimate(hands[seat] | seats[seat, PLAYED_BY], model)
                sigma = 1.0 * floats[seat, WIDEN]
                weight *= FLOOR + math.exp(-diff * diff / (2 * sigma * sigma))
        return weight
    weight = 1.0
    for seat in range(players):
        if not seats[seat, MODELLED]:
            continue
        likely = weigh_hand(seat, hands[seat] | seats[seat, PLAYED_BY], model)
        total = likely[0] + likely[1] + likely[2] + likely[3]
        if total <= 0.0:
            return 0.0
        weight *= total
        kinds[seat] = draw_kind(likely, state)
    return weight

