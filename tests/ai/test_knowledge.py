"""What a seat infers from its view, and deals sampled to agree with it."""

from __future__ import annotations

import random

from engine import Card, Game, Rules
from engine.ai.bits import SUIT_MASKS, mask_of
from engine.ai.knowledge import read_view
from engine.ai.sample import Sampler
from engine.ai.sim import Setup

from .helpers import pack_dealing
from .plain_sim import SimState, advance, best_response, solve_sampled

HANDS = {
    1: ["5C", "QD", "4S", "2H"],
    2: ["6C", "3D", "5S", "9H"],
    3: ["7C", "4D", "6S", "AH"],
    0: ["AC", "KD", "9D", "KH"],
}


def _game(update: dict[str, object] | None = None, hands: dict[int, list[str]] = HANDS) -> Game:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [4]} | (update or {}))
    return Game.new(4, rules, seed=1, dealer=0, deck=pack_dealing(hands, 4, 0, "2S"))


def test_failing_to_follow_shows_a_void_and_counts_are_kept() -> None:
    game = _game()
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    game.play(1, "QD")
    game.play(2, "3D")
    game.play(3, "4D")
    game.play(0, "9D")
    game.play(1, "5C")  # seat 1 won and leads clubs
    game.play(2, "6C")
    game.play(3, "7C")
    k = read_view(game.view(0))
    assert k.held == [3, 2, 2, 2]
    assert k.won == [0, 1, 0, 0]
    assert k.trick == [Card.parse("5C").index, Card.parse("6C").index, Card.parse("7C").index]
    assert not any(k.voids)
    assert not k.unseen & mask_of(Card.parse(c) for c in ("QD", "3D", "4D", "9D", "2S"))
    assert k.out_count == 52 - 16 - 1
    # a seat that throws a spade on a diamond lead is void in diamonds
    game2 = _game()
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game2.bid(seat, bid)
    game2.play(1, "QD")
    game2.play(2, "3D")
    game2.play(3, "4D")
    game2.play(0, "KD")
    game2.play(0, "9D")
    game2.play(1, "4S")
    k2 = read_view(game2.view(2))
    assert k2.voids[1] == 1 << 1  # diamonds


def test_must_trump_and_trump_lead_rules_show_more_voids() -> None:
    no_spade = HANDS | {1: ["5C", "QD", "3C", "2H"]}
    game = _game({"must_trump": True}, no_spade)
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    game.play(1, "QD")
    game.play(2, "3D")
    game.play(3, "4D")
    game.play(0, "KD")
    game.play(0, "9D")
    game.play(1, "2H")  # no diamond and no spade (trump) played: void in both
    k = read_view(game.view(3))
    assert k.voids[1] == (1 << 1) | (1 << 3)


def test_sampled_deals_respect_counts_voids_and_known_cards() -> None:
    game = _game()
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    game.play(1, "QD")
    game.play(2, "3D")
    game.play(3, "4D")
    game.play(0, "KD")
    game.play(0, "9D")
    game.play(1, "4S")
    k = read_view(game.view(2))
    sampler = Sampler(k)
    rng = random.Random(3)
    for _ in range(200):
        hands, stock = sampler.sample(rng)
        assert hands[2] == k.hand
        assert [hand.bit_count() for hand in hands] == k.held
        assert not hands[1] & SUIT_MASKS[1]  # seat 1 is void in diamonds
        everything = 0
        for hand in [*hands[:2], hands[3]]:
            assert not everything & hand
            everything |= hand
        everything |= mask_of(Card.from_index(card) for card in stock)
        assert everything == k.unseen


def test_the_joint_solve_of_one_deal_is_the_perfect_information_search() -> None:
    game = _game()
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    hands = [mask_of(game.hand_of(s)) for s in range(4)]
    trump = int(Card.parse("2S").suit)
    table = [0, 11, 2, 3, 4]
    setup = Setup(4, trump, False, False, True, False, 1, (), (0,) * 4, 4)
    state = SimState(setup, hands, [1, 1, 0, 1])
    single = best_response(state.copy(), 0, table, 4, 11)
    advance(state, 0, 4)
    assert solve_sampled([(state, 1.0)], 0, table, 4) == single == 11


def test_leading_trumps_before_they_are_broken_shows_a_hand_of_trumps() -> None:
    all_spades = HANDS | {1: ["3S", "4S", "7S", "8S"], 2: ["6C", "3D", "5C", "9H"]}
    game = _game({"trump_lead": "after_broken"}, all_spades)
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    game.play(1, "3S")
    k = read_view(game.view(2))
    assert k.voids[1] == 0b0111  # clubs, diamonds and hearts
