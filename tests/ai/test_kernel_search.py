"""The compiled searches (engine/ai/kernel/search.py) value every candidate card exactly as the
Python ones (tests/ai/plain_sim.py, called as engine/ai/hard.py's `_joint_search` calls the
kernels) on the same sampled deals: the same floating-point totals and makes, bit for bit."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.kernel import play, search
from engine.ai.sim import EASY, GREEDY, MEDIUM, Setup, distinct_moves

from .plain_sim import (
    Particle,
    SimState,
    after_card,
    best_response,
    solve_sampled,
    solve_sampled_makes,
)

FULL = (1 << 52) - 1


def random_table(rng: random.Random, size: int, bid: int) -> list[int]:
    """A score by tricks won: strict (only the bid scores), plus-and-minus, or anything."""
    style = rng.randrange(3)
    if style == 0:
        return [10 + bid if tricks == bid else 0 for tricks in range(size + 2)]
    if style == 1:
        return [10 + tricks if tricks == bid else -abs(tricks - bid) for tricks in range(size + 2)]
    return [rng.randrange(-20, 30) for _ in range(size + 2)]


def random_position(rng: random.Random) -> tuple[Setup, list[int], int]:
    """A position somewhere in a hand where the seat to act (returned) has a choice of cards,
    reached by random legal cards: the position's set-up, the hands."""
    while True:
        players = rng.randrange(3, 7)
        size = rng.randrange(1, min(8, 52 // players) + 1)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << card for card in deck[size * seat: size * seat + size])
                 for seat in range(players)]
        trump = rng.randrange(-1, 4)
        rules = (rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)
        live = rng.choice((-1, FULL))
        setup = Setup(players, trump, *rules, False, rng.randrange(players), (),
                      (0,) * players, size, live)
        state = SimState(setup, hands, [0] * players)
        # half the positions in the first trick, where the searches are deepest
        for _ in range(rng.randrange(players * size if rng.random() < 0.5 else players)):
            legal = state.legal(state.to_act())
            state.play(rng.choice([card for card in range(52) if legal >> card & 1]))
        while state.left > 0:
            seat = state.to_act()
            legal = state.legal(seat)
            if legal & (legal - 1):
                here = Setup(players, trump, *rules, state.broken, state.leader,
                             tuple(state.trick), tuple(state.won), state.left,
                             live if live < 0 else state.live)
                return here, state.hands, seat
            state.play(legal.bit_length() - 1)


def redeal(rng: random.Random, hands: list[int], me: int) -> list[int]:
    """The other seats' cards dealt again among them, each keeping its count: all of them, or
    (for deals that play alike longer, so the joint search keeps groups of several) two."""
    unseen = [card for seat, hand in enumerate(hands) if seat != me
              for card in range(52) if hand >> card & 1]
    if rng.random() < 0.5:
        rng.shuffle(unseen)
    else:
        first, second = rng.randrange(len(unseen)), rng.randrange(len(unseen))
        unseen[first], unseen[second] = unseen[second], unseen[first]
    out = []
    for seat, hand in enumerate(hands):
        if seat == me:
            out.append(hand)
        else:
            count = hand.bit_count()
            out.append(sum(1 << card for card in unseen[:count]))
            unseen = unseen[count:]
    return out


def python_values(particles: list[Particle], candidates: list[int], alive: list[int], me: int,
                  table: list[int], branch_at: int, target: int, totals: list[float],
                  makes: list[float]) -> None:
    """The scoring of one batch that engine/ai/hard.py `_joint_search` asks of
    search.card_values, in plain Python."""
    for i in alive:
        value = 0.0
        for group in after_card(particles, candidates[i], me, branch_at):
            if target >= 0:
                group_value, made = solve_sampled_makes(group, me, table, branch_at, target)
                value += group_value
                makes[i] += made
            else:
                value += solve_sampled(group, me, table, branch_at)
        totals[i] += value


@settings(max_examples=1000, deadline=None)
@given(seed=st.integers(0, 1 << 30), branch_at=st.integers(1, 8), makes=st.booleans())
def test_each_candidate_has_the_same_value_over_the_same_deals(
    seed: int, branch_at: int, makes: bool
) -> None:
    rng = random.Random(seed)
    setup, hands, me = random_position(rng)
    players = setup.players
    size = max(setup.won[seat] + hands[seat].bit_count() for seat in range(players))
    bids = [rng.randrange(size + 1) for _ in range(players)]
    table = random_table(rng, size, bids[me])
    target = rng.choice((bids[me], rng.randrange(size + 1))) if makes else -1
    deals = [hands]
    for _ in range(rng.randrange(12)):
        deals.append(redeal(rng, rng.choice(deals), me))
    kinds = [[rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(players)] for _ in deals]
    weights = [rng.choice((1.0, rng.random(), rng.random() * 1e-3 + 1e-9)) for _ in deals]
    particles = [(SimState(setup, deal, bids, kind), weight)
                 for deal, kind, weight in zip(deals, kinds, weights, strict=True)]
    rows = np.array([play.deal_row(setup, deal, kind) for deal, kind in zip(deals, kinds,
                                                                             strict=True)])
    before = rows.copy()
    legal = particles[0][0].legal(me)
    candidates = [card for card in range(52) if legal >> card & 1]
    rng.shuffle(candidates)
    alive = rng.sample(range(len(candidates)), rng.randrange(1, len(candidates) + 1))
    totals = [rng.random() * 100 for _ in candidates]
    made = [rng.random() for _ in candidates]
    values = np.array(totals)
    kernel_made = np.array(made)

    python_values(particles, candidates, alive, me, table, branch_at, target, totals, made)
    search.card_values(rows, np.array(weights), play.rules_row(setup),
                       np.array(bids, dtype=np.int64), me, np.array(table, dtype=np.int64),
                       branch_at, np.array(candidates, dtype=np.int64),
                       np.array(alive, dtype=np.int64), target, values, kernel_made)
    assert values.tolist() == totals
    assert kernel_made.tolist() == made
    assert (rows == before).all()


@settings(max_examples=1000, deadline=None)
@given(seed=st.integers(0, 1 << 30), branch_at=st.integers(0, 8))
def test_best_response_has_the_same_value(seed: int, branch_at: int) -> None:
    rng = random.Random(seed)
    setup, hands, _seat = random_position(rng)
    players = setup.players
    me = rng.randrange(players)
    size = max(setup.won[seat] + hands[seat].bit_count() for seat in range(players))
    bids = [rng.randrange(size + 1) for _ in range(players)]
    kinds = [rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(players)]
    table = random_table(rng, size, bids[me])
    ceiling = rng.choice((max(table), rng.randrange(-20, 30)))
    row = play.deal_row(setup, hands, kinds)
    before = row.copy()
    expected = best_response(SimState(setup, hands, bids, kinds), me, table, branch_at, ceiling)
    assert search.best_response_value(
        row, play.rules_row(setup), np.array(bids, dtype=np.int64), me,
        np.array(table, dtype=np.int64), branch_at, ceiling) == expected
    assert (row == before).all()


@settings(max_examples=1000, deadline=None)
@given(legal=st.integers(1, FULL), elsewhere=st.integers(0, FULL))
def test_distinct_moves_are_the_same_cards_in_the_same_order(legal: int, elsewhere: int) -> None:
    out = np.empty(search.MOST_MOVES, dtype=np.int64)
    count = search.distinct_moves(legal, elsewhere & ~legal, out)
    assert out[:count].tolist() == distinct_moves(legal, elsewhere & ~legal)

