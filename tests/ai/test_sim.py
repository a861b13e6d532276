"""The bit-set simulator (tests/ai/plain_sim.py) agrees with the engine: legal cards, trick
winners, whole hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Phase, Rules
from engine.ai.bits import legal_mask, mask_of, trick_winner
from engine.ai.policy import TAKE_WHEN_BUST, choose_card
from engine.ai.sim import EASY, GREEDY, MEDIUM, Setup, distinct_moves

from .plain_sim import Particle, SimState, advance, rollout, rollouts, solve_sampled

RULE_SETS = {
    "classic": {},
    "must_trump": {"must_trump": True},
    "after_broken": {"trump_lead": "after_broken"},
    "both": {"trump_lead": "after_broken", "must_trump": True},
    "no_trump_last": {"last_hand_no_trump": True, "hand_sizes": [4, 3, 13]},
}


def _trump(game: Game) -> int:
    return -1 if game.trump_suit is None else int(game.trump_suit)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_legal_cards_and_trick_winners_match_the_engine(name: str) -> None:
    update = {"hand_sizes": [13, 10, 7, 3]} | RULE_SETS[name]
    rules = Rules.preset("classic").model_copy(update=update)
    rng = random.Random(name)
    for seed in range(6):
        game = Game.new(4, rules.model_copy(update={"reserve_cards": 0}), seed=seed)
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            if game.phase is not Phase.PLAYING:
                game.bid(seat, rng.choice(game.legal_bids()))
                continue
            hand = mask_of(game.hand_of(seat))
            led = -1 if not game.current_trick else int(game.current_trick[0][1].suit)
            ours = legal_mask(
                hand, led, _trump(game), rules.must_trump,
                rules.trump_lead == "after_broken", game.trump_broken,
            )
            assert ours == mask_of(game.legal_cards())
            trick = list(game.current_trick)
            card = rng.choice(game.legal_cards())
            before = list(game.tricks_won)
            hand_number = game.hand_number
            trump = _trump(game)
            game.play(seat, card)
            trick.append((seat, card))
            if len(trick) == 4:
                winner = trick_winner([c.index for _, c in trick], trick[0][0], 4, trump)
                finished = game.phase is Phase.GAME_OVER or game.hand_number != hand_number
                after = game.scoresheet[-1].tricks if finished else game.tricks_won
                assert after[winner] == before[winner] + 1
                assert sum(after) == sum(before) + 1


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_a_rollout_plays_the_same_hand_as_the_engine(name: str) -> None:
    """Every seat plays the policy with every hand known, once in the engine, once in `rollout`."""
    update = {"hand_sizes": [7, 7, 7]} | RULE_SETS[name]
    if name == "no_trump_last":
        update["hand_sizes"] = [7, 13]
    rules = Rules.preset("classic").model_copy(update=update)
    bust_take = TAKE_WHEN_BUST[rules.scoring]
    for seed in range(8):
        game = Game.new(4, rules, seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while game.phase is Phase.BIDDING:
            game.bid(game.turn, rng.choice(game.legal_bids()))  # type: ignore[arg-type]
        bids = [b or 0 for b in game.bids]
        hands = [mask_of(game.hand_of(s)) for s in range(4)]
        leader = game.turn
        assert leader is not None
        setup = Setup(
            4, _trump(game), rules.must_trump, rules.trump_lead == "after_broken", bust_take,
            False, leader, (), (0,) * 4, game.tricks_in_hand,
        )
        predicted = rollout(setup, hands, bids)
        hand_number = game.hand_number
        while game.hand_number == hand_number and game.phase is Phase.PLAYING:
            seat = game.turn
            assert seat is not None
            held = 0
            for other in range(4):
                if other != seat:
                    held |= mask_of(game.hand_of(other))
            trick = game.current_trick
            best = -1
            for _, card in trick:
                if best < 0 or (card.index // 13 == best // 13 and card.index > best) or (
                    card.index // 13 == _trump(game) and best // 13 != _trump(game)
                ):
                    best = card.index
            need = bids[seat] - game.tricks_won[seat]
            left = game.tricks_in_hand - len(game.tricks_played)
            index = choose_card(
                mask_of(game.legal_cards()), mask_of(game.hand_of(seat)), best, _trump(game),
                held, need, left, len(trick) == 3, need > 0 or (need < 0 and bust_take),
            )
            game.play(seat, next(c for c in game.legal_cards() if c.index == index))
        record = game.scoresheet[-1]
        assert list(record.tricks) == predicted


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), branch_at=st.integers(0, 7), played=st.integers(0, 20))
def test_advance_plays_every_seat_as_its_policy_would_card_by_card(
    seed: int, branch_at: int, played: int
) -> None:
    """`advance` (the rollouts' inner loop, written out for speed) stops where and as the
    plain card-by-card play of each seat's policy does, the cards on the way included."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[7 * seat: 7 * seat + 7]) for seat in range(4)]
    trump = rng.randrange(-1, 4)
    setup = Setup(4, trump, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5,
                  False, rng.randrange(4), (), (0,) * 4, 7, rng.choice((-1, (1 << 52) - 1)))
    bids = [rng.randrange(4) for _ in range(4)]
    kinds = [rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(4)]
    state = SimState(setup, hands, bids, kinds)
    for _ in range(played):  # start anywhere in the hand
        if state.left:
            state.play(state.policy_card(state.to_act()))
    me = rng.randrange(4)
    fast = state.copy()
    advance(fast, me, branch_at)
    slow = state.copy()
    while slow.left > 0:
        seat = slow.to_act()
        legal = slow.legal(seat)
        if legal & (legal - 1) == 0:
            slow.play(legal.bit_length() - 1)
        elif seat == me and slow.hands[me].bit_count() <= branch_at:
            break
        else:
            slow.play(slow.policy_card(seat))
    assert fast.trail == slow.trail
    assert (fast.hands, fast.won, fast.trick, fast.left, fast.leader) == (
        slow.hands, slow.won, slow.trick, slow.left, slow.leader
    )
    assert (fast.best, fast.best_pos, fast.broken, fast.live, fast.held) == (
        slow.best, slow.best_pos, slow.broken, slow.live, slow.held
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10_000), count=st.integers(1, 8))
def test_rollouts_of_several_bids_are_each_bids_own_rollout(seed: int, count: int) -> None:
    """A bid decision plays its candidates' hands together until they differ
    (`rollouts`, which asks a seat's policy once per class of bids it cannot tell apart);
    each must still win exactly the tricks its own rollout wins."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[7 * seat: 7 * seat + 7]) for seat in range(4)]
    setup = Setup(4, rng.randrange(-1, 4), rng.random() < 0.5, rng.random() < 0.5,
                  rng.random() < 0.5, False, rng.randrange(4), (), (0,) * 4, 7,
                  rng.choice((-1, (1 << 52) - 1)))
    kinds = [rng.choice((MEDIUM, EASY, GREEDY)) for _ in range(4)]
    others = [rng.randrange(4) for _ in range(4)]
    variants = []
    for _ in range(count):  # my bid varies, and so may the dealer's (seat 3) after it
        bids = others[:]
        bids[0] = rng.randrange(8)
        bids[3] = rng.choice((bids[3], rng.randrange(8)))
        variants.append(bids)
    assert rollouts(setup, hands, variants, kinds) == [
        rollout(setup, hands, bids, kinds) for bids in variants
    ]


def _joint_value(particles: list[Particle], me: int, table: list[int], branch_at: int) -> float:
    """The joint search by its definition: each distinct move tried for the whole group of
    deals I cannot tell apart, the deals regrouped by the cards then seen, the best move's
    summed score."""
    first = particles[0][0]
    if first.left == 0:
        return sum(weight * table[state.won[me]] for state, weight in particles)
    best = -float("inf")
    for card in distinct_moves(first.legal(me), first.live & ~first.hands[me]):
        groups: dict[int, list[Particle]] = {}
        for state, weight in particles:
            child = state.copy()
            advance(child, me, branch_at, card)
            groups.setdefault(child.trail, []).append((child, weight))
        value = 0.0
        for group in groups.values():
            value += _joint_value(group, me, table, branch_at)
        best = max(best, value)
    return best


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 100_000), count=st.integers(1, 12), branch_at=st.integers(1, 7),
       played=st.integers(0, 12), strict=st.booleans())
def test_the_joint_search_scores_every_group_of_deals_as_its_definition_does(
    seed: int, count: int, branch_at: int, played: int, strict: bool
) -> None:
    """`solve_sampled`, with its shortcuts (a lone deal solved on its own, stopping at a line
    that cannot be beaten), gives exactly the value of the plain definition, weights and all:
    the search's speed-ups (issue 24) must not change what it computes."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    base = [sum(1 << card for card in deck[7 * seat: 7 * seat + 7]) for seat in range(4)]
    setup = Setup(4, rng.randrange(-1, 4), rng.random() < 0.5, rng.random() < 0.5,
                  not strict, False, rng.randrange(4), (), (0,) * 4, 7,
                  rng.choice((-1, (1 << 52) - 1)))
    bids = [rng.randrange(4) for _ in range(4)]
    bid = bids[0]
    table = [(10 + t if t == bid else (0 if strict else t)) for t in range(9)]
    particles: list[Particle] = []
    for _ in range(count):  # the same deal, or one with a card or two swapped between others
        hands = base[:]
        for _ in range(rng.randrange(3)):
            a, b = rng.sample((1, 2, 3), 2)
            ca = rng.choice([c for c in range(52) if hands[a] >> c & 1])
            cb = rng.choice([c for c in range(52) if hands[b] >> c & 1])
            hands[a] ^= 1 << ca | 1 << cb
            hands[b] ^= 1 << ca | 1 << cb
        state = SimState(setup, hands, bids, [rng.choice((MEDIUM, EASY, GREEDY))
                                              for _ in range(4)])
        for _ in range(played):
            if state.left and (state.to_act() != 0 or state.hands[0].bit_count() > branch_at):
                state.play(state.policy_card(state.to_act()))
        advance(state, 0, branch_at)
        particles.append((state, rng.choice((1.0, rng.random()))))
    groups: dict[tuple[int, int], list[Particle]] = {}
    for state, weight in particles:
        groups.setdefault((state.trail, state.hands[0]), []).append((state, weight))
    for group in groups.values():
        expected = _joint_value([(state.copy(), weight) for state, weight in group], 0, table,
                                branch_at)
        # the same value but for the last bit: a lone deal's weight is applied to its score
        # once, where the definition applies it to each line's (seed 648, count 5, branch_at 7)
        assert solve_sampled(group, 0, table, branch_at) == pytest.approx(expected, rel=1e-12)
