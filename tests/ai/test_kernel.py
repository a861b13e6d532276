"""The compiled simulator (engine/ai/kernel) plays exactly as the Python one (tests/ai/plain_sim.py,
engine/ai/policy.py): the same cards from the same positions, for every policy, table size,
trump and rule it accepts."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import policy
from engine.ai.kernel import cards, play
from engine.ai.kernel.bids import bid_rollouts
from engine.ai.sim import EASY, GREEDY, MEDIUM, Setup

from .plain_sim import SimState, advance, rollouts

WRAP = 1 << 64


def _signed(value: int) -> int:
    value %= WRAP
    return value - WRAP if value >= 1 << 63 else value


def random_deal(rng: random.Random) -> tuple[Setup, list[int]]:
    """A hand's start with random rules, table size, hand size and leader, and its hands."""
    players = rng.randrange(2, 8)
    size = rng.randrange(1, 52 // players + 1)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[size * seat: size * seat + size])
             for seat in range(players)]
    trump = rng.randrange(-1, 4)
    setup = Setup(players, trump, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5,
                  False, rng.randrange(players), (), (0,) * players, size,
                  rng.choice((-1, (1 << 52) - 1)))
    return setup, hands


def random_state(rng: random.Random) -> tuple[SimState, np.ndarray, np.ndarray, np.ndarray]:
    """A deal somewhere in its hand, as plain_sim.py holds it and as the kernels do."""
    setup, hands = random_deal(rng)
    players, size = setup.players, setup.left
    bids = [rng.randrange(size + 1) for _ in range(players)]
    kinds = [rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(players)]
    state = SimState(setup, hands, bids, kinds)
    row = play.deal_row(setup, hands, kinds)
    rules = play.rules_row(setup)
    for _ in range(rng.randrange(players * size + 1)):  # anywhere in the hand, by random cards
        if state.left == 0:
            break
        legal = state.legal(state.to_act())
        options = [card for card in range(52) if legal >> card & 1]
        card = rng.choice(options)
        state.play(card)
        play.play(row, rules, card)
    return state, row, rules, np.array(bids, dtype=np.int64)


def assert_same(state: SimState, row: np.ndarray) -> None:
    players = state.players
    assert [int(row[play.HANDS + seat]) for seat in range(players)] == state.hands
    assert [int(row[play.WON + seat]) for seat in range(players)] == state.won
    assert int(row[play.POS]) == len(state.trick)
    assert (int(row[play.LEADER]), int(row[play.LEFT])) == (state.leader, state.left)
    assert (int(row[play.BEST]), int(row[play.BEST_POS])) == (state.best, state.best_pos)
    assert bool(row[play.BROKEN]) == state.broken
    assert (int(row[play.LIVE]), int(row[play.HELD])) == (state.live, state.held)
    assert int(row[play.TRAIL]) == _signed(state.trail)
    led = state.trick[0] // 13 if state.trick else -1
    assert int(row[play.LED]) == led


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 1 << 30))
def test_a_position_made_by_random_cards_is_the_same_position(seed: int) -> None:
    state, row, _rules, _bids = random_state(random.Random(seed))
    assert_same(state, row)


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 1 << 30), branch_at=st.integers(0, 8))
def test_advance_plays_the_same_cards_to_the_same_stop(seed: int, branch_at: int) -> None:
    rng = random.Random(seed)
    state, row, rules, bids = random_state(rng)
    me = rng.randrange(-1, state.players)
    first = -1
    if state.left and rng.random() < 0.5:
        legal = state.legal(state.to_act())
        first = rng.choice([card for card in range(52) if legal >> card & 1])
    advance(state, me, branch_at, first)
    play.advance(row, rules, bids, me, branch_at, first)
    assert_same(state, row)


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 1 << 30))
def test_each_policy_picks_the_same_card(seed: int) -> None:
    rng = random.Random(seed)
    hand = 0
    while hand.bit_count() < 2:
        hand = rng.getrandbits(52) & rng.getrandbits(52)
    legal = hand
    if rng.random() < 0.5:
        suit = rng.randrange(4)
        legal = hand & (0x1FFF << 13 * suit) or hand
    others = rng.getrandbits(52) & ~hand
    best = rng.choice((-1, rng.randrange(52)))
    trump = rng.randrange(-1, 4)
    need = rng.randrange(-3, 8)
    left = rng.randrange(1, 14)
    last = rng.random() < 0.5
    take = rng.random() < 0.5
    assert cards.choose_card(legal, hand, best, trump, others, need, left, last, take) == (
        policy.choose_card(legal, hand, best, trump, others, need, left, last, take))
    assert cards.easy_card(legal, best, trump, need) == policy.easy_card(legal, best, trump, need)
    assert cards.greedy_card(legal, trump, need) == policy.greedy_card(legal, trump, need)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 1 << 30), count=st.integers(1, 9))
def test_a_bid_rollout_wins_what_sims_rollouts_win(seed: int, count: int) -> None:
    rng = random.Random(seed)
    setup, hands = random_deal(rng)
    players, size = setup.players, setup.left
    kinds = [rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(players)]
    me = rng.randrange(players)
    base = [rng.randrange(size + 1) for _ in range(players)]
    variants = []
    for _ in range(count):
        bids = base[:]
        bids[me] = rng.randrange(size + 1)
        if rng.random() < 0.3:
            bids[rng.randrange(players)] = rng.randrange(size + 1)
        variants.append(bids)
    won = np.zeros(count, dtype=np.int64)
    bid_rollouts(play.deal_row(setup, hands, kinds), play.rules_row(setup),
                 np.array(variants, dtype=np.int64), me, won)
    expected = rollouts(setup, hands, variants, kinds)
    assert [int(w) for w in won] == [result[me] for result in expected]
