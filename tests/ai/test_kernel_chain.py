"""The compiled deal drawing (engine/ai/kernel/chain.py): every deal fits what the seat knows,
the chain's deals follow the opponent model's posterior, and the weighed draw's weights fall
where Python's sampling and weighing put them.

Its random stream is not Python's, so it cannot hand out infer.py's very deals; on positions
with few hidden cards every consistent deal is enumerated and weighed by the Python model, and
the drawn deals' frequencies must match that posterior (fixed seeds: the same draws each run,
so the bounds hold on any machine; each is several times the distance measured, and breaking
the acceptance or the weighing goes past it)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Phase, Rules
from engine.ai import create_player
from engine.ai.bits import FULL, SUIT_MASKS
from engine.ai.kernel.chain import KernelDrawer
from engine.ai.kernel.play import HANDS, HELD, KINDS, LIVE, WIDTH
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.opponents import KINDS as KIND_CODES
from engine.ai.opponents import OpponentModel
from engine.ai.policy import easy_count
from engine.ai.sample import Sampler

from .kernel_positions import late_position, random_model, random_position
from .plain_opponents import weigh
from .test_opponent_model import _plain_rule_player


def assert_fits(k: Knowledge, hands: list[int], stock: list[int], kinds: list[int],
                voids_kept: bool = True) -> None:
    """My hand as it is (dealt too where I bid blind); every other seat its known cards; every
    seat its count; no shown void broken (unless relaxed); the hidden cards each in one place."""
    assert [hand.bit_count() for hand in hands] == k.held
    placed = 0
    for seat, hand in enumerate(hands):
        if seat == k.seat and not k.blind:
            assert hand == k.hand
            continue
        assert hand & k.known[seat] == k.known[seat]
        hidden = hand & ~k.known[seat]
        assert not hidden & placed
        placed |= hidden
        for suit in range(4):
            if voids_kept and k.voids[seat] >> suit & 1:
                assert not hand & SUIT_MASKS[suit]
    out = 0
    for card in stock:
        assert not out >> card & 1
        out |= 1 << card
    assert not placed & out
    assert placed | out == k.unseen
    assert all(kind in KIND_CODES for kind in kinds)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1 << 30), steps=st.sampled_from((0, 1, 10, 30)))
def test_every_drawn_deal_fits_what_the_seat_knows(seed: int, steps: int) -> None:
    view, k = random_position(seed)
    model = random_model(view, k, random.Random(seed))
    drawer = KernelDrawer(Sampler(k), model, seed, steps)
    for _ in range(30):
        weight, hands, stock, kinds = drawer.draw()
        assert weight >= 0.0 and (steps == 0 or weight == 1.0)
        assert_fits(k, hands, stock, kinds)
    rows = np.zeros((40, WIDTH), dtype=np.int64)
    out = len(Sampler(k).pool) - sum(Sampler(k).caps)
    stocks = np.zeros((30, out), dtype=np.int64)
    live = -1 if seed % 2 else FULL & ~k.played & ~k.turned  # as hard.py's honest setting
    drawer.draw_rows(rows, 30, 10, live, stocks=stocks)
    assert not rows[:10].any()
    for row, stock in zip(rows[10:], stocks, strict=True):
        hands = row[HANDS:HANDS + k.players].tolist()
        assert_fits(k, hands, stock.tolist(), row[KINDS:KINDS + k.players].tolist())
        held = 0
        for hand in hands:
            held |= hand
        assert row[HELD] == held
        assert row[LIVE] == (held if live < 0 else live)


def test_the_same_seed_draws_the_same_deals() -> None:
    view, k = random_position(3)
    model = OpponentModel(view, k, enabled=True, exact_bids=True)
    first = KernelDrawer(Sampler(k), model, 5, 10)
    again = KernelDrawer(Sampler(k), model, 5, 10)
    assert [first.draw() for _ in range(20)] == [again.draw() for _ in range(20)]


def consistent_deals(sampler: Sampler) -> list[tuple[int, ...]]:
    """Every deal of the hidden cards the sampler allows: the hands of its seats."""
    deals: list[tuple[int, ...]] = []
    pool = sampler.pool

    def place(index: int, hands: list[int], caps: list[int], out: int) -> None:
        if index == len(pool):
            deals.append(tuple(hands))
            return
        card = pool[index]
        if out:
            place(index + 1, hands, caps, out - 1)
        for slot, cap in enumerate(caps):
            if cap and not sampler.voids[slot] >> (card // 13) & 1:
                hands[slot] ^= 1 << card
                caps[slot] -= 1
                place(index + 1, hands, caps, out)
                caps[slot] += 1
                hands[slot] ^= 1 << card

    place(0, [sampler.base[seat] for seat in sampler.seats], sampler.caps[:], sampler.out_cap)
    return deals


DRAWS = 40_000
POSITIONS = [  # (seed, players, hand size, tricks played): 69 to 342 consistent deals
    (0, 4, 13, 9), (2, 4, 13, 10), (7, 4, 13, 10), (4, 4, 13, 11),
    (4, 5, 10, 8), (6, 5, 10, 8), (2, 4, 12, 10), (6, 4, 12, 10), (1, 4, 12, 9),  # some out
]


def frequencies(drawer: KernelDrawer, where: dict[tuple[int, ...], int], seats: np.ndarray,
                weighed: bool) -> np.ndarray:
    """How often (by weight, if `weighed`) the drawer's deals are each consistent deal."""
    rows = np.zeros((DRAWS, WIDTH), dtype=np.int64)
    drawn = np.zeros(DRAWS)
    drawer.draw_rows(rows, DRAWS, weights=drawn)
    mass = np.zeros(len(where))
    for row, weight in zip(rows[:, HANDS + seats], drawn, strict=True):
        mass[where[tuple(int(hand) for hand in row)]] += weight if weighed else 1.0
    return mass / mass.sum()


def test_the_chain_draws_deals_as_often_as_the_model_weighs_them() -> None:
    for seed, players, size, tricks in POSITIONS:
        view, k = late_position(seed, players, size, tricks)
        sampler = Sampler(k)
        model = OpponentModel(view, k, enabled=True, exact_bids=seed % 2 == 0)
        deals = consistent_deals(sampler)
        assert 60 <= len(deals) <= 400, len(deals)
        weights = np.array([
            np.prod([sum(model.seat_likelihoods(seat, hand))
                     for seat, hand in zip(sampler.seats, deal, strict=True)])
            for deal in deals
        ])
        posterior = weights / weights.sum()
        # the model tells: a drawer ignoring it would be far off
        assert 0.5 * np.abs(posterior - 1 / len(deals)).sum() > 0.3
        where = {deal: index for index, deal in enumerate(deals)}
        seats = np.array(sampler.seats)
        chained = frequencies(KernelDrawer(sampler, model, seed, 10), where, seats, False)
        assert 0.5 * np.abs(chained - posterior).sum() < 0.06, (seed, players)
        # the sampler is not uniform where voids are known (sample.py): the weighed draw
        # follows Python's sampling and weighing, not the posterior
        weighed = frequencies(KernelDrawer(sampler, model, seed, 0), where, seats, True)
        python = np.zeros(len(deals))
        rng = random.Random(seed)
        for _ in range(DRAWS):
            hands, _stock = sampler.sample(rng)
            deal = tuple(hands[seat] for seat in sampler.seats)
            python[where[deal]] += weigh(model, hands, rng)[0]
        python /= python.sum()
        assert 0.5 * np.abs(weighed - python).sum() < 0.1, (seed, players)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 1 << 30), steps=st.sampled_from((0, 10)))
def test_a_blind_seats_own_hand_is_drawn_too(seed: int, steps: int) -> None:
    """A blind bid deals the seat's own hand as well (hard.py's search_bid, sample_own)."""
    view, k = random_position(seed)
    blind = replace(k, hand=0, blind=True, unseen=k.unseen | k.hand)
    model = random_model(view, blind, random.Random(seed))
    drawer = KernelDrawer(Sampler(blind, sample_own=True), model, seed, steps)
    for _ in range(20):
        _weight, hands, stock, kinds = drawer.draw()
        assert_fits(blind, hands, stock, kinds)
        assert kinds[k.seat] == KIND_CODES[0]


def test_where_voids_leave_no_room_they_are_relaxed() -> None:
    """sample.py's fallback: after 30 tries that found no room, voids are ignored."""
    view, k = random_position(11)
    everything = replace(k, voids=[0b1111 if seat != k.seat else 0 for seat in range(k.players)])
    sampler = Sampler(everything)
    assert any(sampler.caps)
    drawer = KernelDrawer(sampler, OpponentModel(view, everything, True), 3, 0)
    for _ in range(5):
        _weight, hands, stock, kinds = drawer.draw()
        assert_fits(k, hands, stock, kinds, voids_kept=False)


def _position(seed: int, tricks: int, dealer: int = 3) -> Game:
    """Seat 0 (medium) against three rule-based players, at its turn after `tricks` tricks."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    game = Game.new(4, rules, seed=seed, dealer=dealer)
    medium = create_player("medium", seed=1)
    while game.phase is not Phase.GAME_OVER and (
        len(game.view(0).tricks_played) < tricks or game.turn != 0
    ):
        seat = game.actor_seats()[0]
        view = game.view(seat)
        game.apply(seat, medium.choose_move(view) if seat == 0 else _plain_rule_player(view))
    return game


def test_the_chain_deals_hands_that_explain_the_bids() -> None:
    """Rule-based players bid the legal count nearest their aces and trump honours: the chain's
    hands mostly fit those bids, where plain uniform deals mostly do not."""
    game = _position(7, tricks=0, dealer=0)  # seat 0 bids last: the others' bids are in
    view = game.view(0)
    assert view.phase is Phase.BIDDING and all(bid is not None for bid in view.bids[1:])
    k = read_view(view)
    model = OpponentModel(view, k, enabled=True, exact_bids=True)
    chain = KernelDrawer(Sampler(k), model, seed=1, steps=10)
    sampler = Sampler(k)
    rng = random.Random(2)

    def fits(hands: list[int]) -> int:
        return sum(easy_count(hands[s], k.trump) == k.bids[s] for s in (1, 2, 3))

    chained = sum(fits(chain.draw()[1]) for _ in range(300))
    uniform = sum(fits(sampler.sample(rng)[0]) for _ in range(300))
    assert chained > 1.3 * uniform


def test_no_hand_weighs_more_than_the_models_ceiling() -> None:
    """The chain's start relies on the ceiling: no hand a seat may hold weighs more."""
    for seed in range(6):
        game = _position(seed, tricks=seed % 4)
        view = game.view(0)
        k = read_view(view)
        sampler = Sampler(k)
        rng = random.Random(seed)
        for exact in (True, False):
            model = OpponentModel(view, k, enabled=True, exact_bids=exact,
                                  priors={1: (0.5, 0.2, 0.2, 0.1), 2: (2.0, 1.0, 0.5, 0.5)})
            for _ in range(300):
                hands, _stock = sampler.sample(rng)
                for seat in sampler.seats:
                    assert sum(model.seat_likelihoods(seat, hands[seat])) <= (
                        model.likelihood_ceiling(seat)
                    )
