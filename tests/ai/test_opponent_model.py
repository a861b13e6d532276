"""The hard player's model of its opponents: which kind of player each one is."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Bid, Card, Game, Move, Phase, Play, PlayerView, Rules
from engine.ai import create_player
from engine.ai.bits import mask_of
from engine.ai.knowledge import read_view
from engine.ai.opponents import OpponentModel, _nearest_is, _neighbours
from engine.ai.policy import (
    TrickEstimator,
    easy_count,
    forget_estimates,
    greedy_card,
    nearest_bid,
)
from engine.ai.sample import Sampler
from engine.ai.sim import EASY, GREEDY, MEDIUM
from engine.cards import STANDARD_DECK

from .plain_opponents import weigh


def test_greedy_play_throws_its_strongest_card_then_its_weakest() -> None:
    hearts = 2  # engine suit order: clubs, diamonds, hearts, spades
    legal = mask_of([Card.parse("AS"), Card.parse("3H"), Card.parse("9D")])
    assert greedy_card(legal, hearts, need=1) == Card.parse("3H").index  # a trump outranks
    assert greedy_card(legal, hearts, need=0) == Card.parse("9D").index  # the ace of spades
    assert greedy_card(legal, -1, need=0) == Card.parse("3H").index  # no trump: by rank


def _plain_rule_player(view: PlayerView) -> Move:
    """A rule-based player written apart from the engine's policies: it counts aces and trump
    honours to bid, then plays its strongest card while it needs tricks and its weakest after."""
    trump = view.trump_suit
    if view.phase is Phase.BIDDING:
        count = sum(card.rank == 14 or (card.suit == trump and card.rank >= 12)
                    for card in view.hand)
        return Bid(min(view.legal_bids, key=lambda bid: (abs(bid - count), bid)))
    needs = (view.bids[view.seat] or 0) > view.tricks_won[view.seat]

    def strength(card: Card) -> tuple[bool, int]:
        return card.suit == trump, card.rank

    return Play((max if needs else min)(view.legal_cards, key=strength))


def test_hard_recognises_a_greedy_opponent_from_its_plays() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    medium = create_player("medium", seed=1)
    kinds_seen = {GREEDY: 0.0, EASY: 0.0, MEDIUM: 0.0}
    for deal in range(6):
        game = Game.new(4, rules, seed=deal, dealer=3)
        while game.phase is not Phase.GAME_OVER and len(game.view(0).tricks_played) < 4:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            action = medium.choose_move(view) if seat == 0 else _plain_rule_player(view)
            game.apply(seat, action)
        view = game.view(0)
        knowledge = read_view(view)
        model = OpponentModel(view, knowledge, enabled=True)
        sampler = Sampler(knowledge)
        rng = random.Random(deal)
        for _ in range(200):
            hands, _stock = sampler.sample(rng)
            weight, kinds = weigh(model, hands, rng)
            for seat in (1, 2, 3):
                kinds_seen[kinds[seat]] += weight
    assert kinds_seen[GREEDY] > kinds_seen[EASY] + kinds_seen[MEDIUM]


@settings(max_examples=300, deadline=None)
@given(
    options=st.lists(st.integers(0, 13), min_size=1, max_size=14, unique=True),
    bid=st.integers(0, 13),
    estimate=st.one_of(
        st.floats(-2.0, 16.0, allow_nan=False),
        st.integers(0, 13).map(float),
        st.integers(0, 27).map(lambda half: half / 2),
    ),
)
def test_a_bid_is_read_as_nearest_exactly_when_nearest_bid_picks_it(
    options: list[int], bid: int, estimate: float
) -> None:
    """The model's shortcut agrees with the players' own bid rule, ties included."""
    assert _nearest_is(bid, _neighbours(bid, sorted(options)), estimate) == (
        nearest_bid(estimate, sorted(options)) == bid
    )


def _later_views(preset: str, deals: int) -> list[PlayerView]:
    """Seat 0's views at each of its plays from the third trick on, in 7-card hands: medium at
    seat 0 against the plain rule-based players (who bid and play much as the model's kinds)."""
    rules = Rules.preset(preset).model_copy(update={"hand_sizes": [7]})
    medium = create_player("medium", seed=3)
    views = []
    for deal in range(deals):
        game = Game.new(4, rules, seed=deal, dealer=deal % 4)
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            view = game.view(seat)
            if seat == 0 and view.phase is Phase.PLAYING and len(view.tricks_played) >= 2:
                views.append(view)
            game.apply(seat, medium.choose_move(view) if seat == 0 else _plain_rule_player(view))
    return views


def test_a_hands_likelihood_does_not_depend_on_the_hands_weighed_before_it() -> None:
    """The model keeps what it worked out (per suit for the bid, per led-suit holding for a
    play that follows suit) across the thousands of hands a decision weighs: a hand must weigh
    what a fresh model gives it, whatever came before."""
    compared = 0
    for preset in ("classic", "la_podrida"):
        for view in _later_views(preset, 10):
            knowledge = read_view(view)
            warm = OpponentModel(view, knowledge, enabled=True, exact_bids=True)
            sampler = Sampler(knowledge)
            rng = random.Random(5)
            for _ in range(40):
                hands, _stock = sampler.sample(rng)
                for seat in warm.opponents:
                    first = warm.seat_likelihoods(seat, hands[seat])
                    again = warm.seat_likelihoods(seat, hands[seat])  # as the model keeps it
                    forget_estimates()  # the fresh model's estimator starts from nothing too
                    fresh = OpponentModel(view, knowledge, enabled=True, exact_bids=True)
                    assert first == again == fresh.seat_likelihoods(seat, hands[seat])
                    compared += 1
    assert compared >= 5000


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 51), max_size=13, unique=True), trump=st.integers(-1, 3))
def test_easy_count_is_aces_trump_honours_and_long_trumps(cards: list[int], trump: int) -> None:
    hand = [STANDARD_DECK[index] for index in cards]
    trumps = [card for card in hand if card.suit == trump]
    expected = sum(card.rank == 14 for card in hand if card.suit != trump)
    expected += sum(card.rank >= 12 for card in trumps) + max(0, len(trumps) - 3)
    assert easy_count(mask_of(hand), trump) == expected


@settings(max_examples=200, deadline=None)
@given(hands=st.lists(st.integers(0, (1 << 52) - 1), min_size=1, max_size=30),
       trump=st.integers(-1, 3), size=st.integers(1, 13))
def test_the_trick_estimate_of_a_hand_is_the_same_before_and_after_others(
    hands: list[int], trump: int, size: int
) -> None:
    """The estimate keeps each suit's share by pattern, shared by every estimator of the same
    table, hand size, trump and turned card: a hand estimated after others (by estimators of
    other hand sizes and turned cards too) gets what a fresh estimator gives it."""
    warm = TrickEstimator(4, size, trump, 1 << 7)
    others = [TrickEstimator(4, size % 13 + 1, trump, 1 << 7), TrickEstimator(4, size, trump, 0),
              TrickEstimator(4, size, trump, 1 << 7, long_trumps=True)]
    for hand in hands:
        warmed = warm.estimate(hand)
        near = [other.estimate(hand) for other in others]
        forget_estimates()
        assert warmed == TrickEstimator(4, size, trump, 1 << 7).estimate(hand)
        assert near == [TrickEstimator(4, size % 13 + 1, trump, 1 << 7).estimate(hand),
                        TrickEstimator(4, size, trump, 0).estimate(hand),
                        TrickEstimator(4, size, trump, 1 << 7, long_trumps=True).estimate(hand)]
