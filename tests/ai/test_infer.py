"""The Markov chain over the hidden cards: every deal it hands out is one the seat could face,
and it goes where the opponent model says the cards are."""

from __future__ import annotations

import random

from engine import Card, Game, Phase, Rules
from engine.ai import create_player
from engine.ai.bits import SUIT_MASKS, mask_of
from engine.ai.infer import Chain
from engine.ai.knowledge import read_view
from engine.ai.opponents import OpponentModel
from engine.ai.policy import easy_count
from engine.ai.sample import Sampler, shuffle

from .test_opponent_model import _plain_rule_player


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


def test_every_chain_deal_fits_what_the_seat_knows() -> None:
    for seed in range(4):
        game = _position(seed, tricks=3)
        k = read_view(game.view(0))
        model = OpponentModel(game.view(0), k, enabled=True, exact_bids=True)
        chain = Chain(Sampler(k), model, random.Random(seed), steps=10)
        for _ in range(100):
            weight, hands, stock, kinds = chain.draw()
            assert weight == 1.0 and kinds[0] == 0
            assert hands[0] == k.hand
            assert [hand.bit_count() for hand in hands] == k.held
            seen = k.hand | k.played | k.turned
            dealt = 0
            for seat in range(1, 4):
                assert not hands[seat] & seen
                assert not hands[seat] & dealt
                dealt |= hands[seat]
                for suit in range(4):
                    if k.voids[seat] >> suit & 1:
                        assert not hands[seat] & SUIT_MASKS[suit]
            assert dealt | mask_of(Card.from_index(c) for c in stock) == k.unseen
            assert not dealt & mask_of(Card.from_index(c) for c in stock)


def test_the_chain_deals_hands_that_explain_the_bids() -> None:
    """Rule-based players bid the legal count nearest their aces and trump honours: the chain's
    hands mostly fit those bids, where plain uniform deals mostly do not."""
    game = _position(7, tricks=0, dealer=0)  # seat 0 bids last: the others' bids are in
    view = game.view(0)
    assert view.phase is Phase.BIDDING and all(bid is not None for bid in view.bids[1:])
    k = read_view(view)
    model = OpponentModel(view, k, enabled=True, exact_bids=True)
    chain = Chain(Sampler(k), model, random.Random(1), steps=10)
    sampler = Sampler(k)
    rng = random.Random(2)

    def fits(hands: list[int]) -> int:
        return sum(easy_count(hands[s], k.trump) == k.bids[s] for s in (1, 2, 3))

    chained = sum(fits(chain.draw()[1]) for _ in range(300))
    uniform = sum(fits(sampler.sample(rng)[0]) for _ in range(300))
    assert chained > 1.3 * uniform


def test_the_samplers_shuffle_orders_as_the_standard_librarys_does() -> None:
    """Deals drawn with a seed stay the deals drawn before the shuffle was written out (and a
    recorded decision replays the same: bench/decisions.py)."""
    for seed in range(50):
        items = list(range(seed))
        ours = items[:]
        theirs = items[:]
        ours_rng = random.Random(seed)
        theirs_rng = random.Random(seed)
        shuffle(ours, ours_rng)
        theirs_rng.shuffle(theirs)
        assert ours == theirs
        assert ours_rng.random() == theirs_rng.random()


def test_the_chain_starts_from_the_likeliest_of_its_first_deals() -> None:
    """The chain's start stops weighing a deal that can no longer be the likeliest (issue 24):
    it must start where weighing every seat of every deal would, from the same draws."""
    compared = 0
    for seed in range(12):
        for tricks in (0, 2, 4):
            game = _position(seed, tricks=tricks)
            view = game.view(0)
            k = read_view(view)
            model = OpponentModel(view, k, enabled=True, exact_bids=seed % 2 == 0)
            sampler = Sampler(k)
            chain = Chain(sampler, model, random.Random(seed), steps=10, start_pool=8)
            rng = random.Random(seed)
            best = -1.0
            start: list[int] = []
            for _ in range(8):
                hands, _stock = sampler.sample(rng)
                weight = 1.0
                for seat in sampler.seats:
                    weight *= sum(model.seat_likelihoods(seat, hands[seat]))
                if weight > best:
                    best, start = weight, hands
            assert chain.hands == start
            assert chain.rng.getstate() == rng.getstate()
            compared += 1
    assert compared == 36


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
