"""The hint: the hard player's move for the asking seat, its reason in numbers, nothing hidden."""

from __future__ import annotations

import random
import re

import pytest

from engine import Bid, Card, Game, NameTrump, Phase, Play, Rules
from engine.ai import create_player
from engine.ai.hint import suggest

from .helpers import act, pack_dealing
from .test_privacy import DEALER, ME, PLAYERS, RULES, _decision_points, _swapped_deck

C = Card.parse


def _game(hands: dict[int, list[str]], turned: str, rules: Rules | None = None) -> Game:
    deck = pack_dealing(hands, 4, dealer=3, turned=turned)
    size = len(hands[0])
    rules = rules or Rules.preset("classic").model_copy(update={"hand_sizes": [size]})
    return Game.new(4, rules, seed=1, dealer=3, deck=deck)


STRONG = {
    0: ["AS", "KS", "QS", "AH", "3C", "4D"],
    1: ["2S", "5H", "6H", "7C", "8C", "9D"],
    2: ["3S", "7H", "8H", "9C", "TC", "TD"],
    3: ["4S", "9H", "TH", "JC", "QC", "JD"],
}


def test_a_bid_hint_names_the_hard_bid_and_the_chances_of_it_and_the_next_best() -> None:
    game = _game(STRONG, turned="2D")  # spades are not trump: diamonds are
    view = game.view(0)
    hint = suggest(view, seed=5, iterations=120)
    expected = create_player("hard", seed=5, iterations=120).choose_move(view)
    assert hint.move == expected
    assert isinstance(hint.move, Bid) and hint.move.tricks in view.legal_bids
    match = re.fullmatch(r"Bid (\d+): you make it about (\d+)% of the time; bid (\d+): (\d+)%\.",
                         hint.text)
    assert match, hint.text
    assert int(match[1]) == hint.move.tricks
    assert int(match[3]) != hint.move.tricks
    assert [label for label, _ in hint.chances] == [match[1], match[3]]
    assert round(100 * hint.chances[0][1]) == int(match[2])
    assert 0 < hint.chances[0][1] <= 1  # three top spades and an ace: some bid is makeable


def test_a_card_hint_says_how_often_the_bid_survives_the_card_and_the_alternative() -> None:
    game = _game(STRONG, turned="2D")
    for seat, bid in ((0, 3), (1, 0), (2, 1), (3, 1)):
        game.bid(seat, bid)
    view = game.view(0)
    hint = suggest(view, seed=3, iterations=80)
    assert hint.move == create_player("hard", seed=3, iterations=80).choose_move(view)
    assert isinstance(hint.move, Play) and hint.move.card in view.legal_cards
    match = re.fullmatch(
        r"Play the (\S+): keeps your bid alive in (\d+) of 10 deals; the (\S+): (\d+) of 10\.",
        hint.text,
    )
    assert match, hint.text
    assert match[1] == str(hint.move.card) and match[3] != match[1]
    assert all(0.0 <= chance <= 1.0 for _, chance in hint.chances)
    assert round(10 * hint.chances[0][1]) == int(match[2])


def test_a_forced_card_is_said_to_be_forced() -> None:
    one_club = STRONG | {1: ["2S", "5H", "6H", "7C", "8H", "9D"], 2: ["3S", "7H", "8C", "9C",
                                                                     "TC", "TD"]}
    game = _game(one_club, turned="2D")
    for seat, bid in ((0, 3), (1, 0), (2, 1), (3, 1)):
        game.bid(seat, bid)
    game.play(0, "3C")
    hint = suggest(game.view(1), iterations=10)
    assert hint.move == Play(C("7C"))
    assert hint.text == "Play the 7♣: it is your only legal card."


def test_the_dealer_naming_trump_is_told_what_its_hand_is_worth() -> None:
    rules = Rules.preset("dealer_picks").model_copy(update={"hand_sizes": [6]})
    game = Game.new(4, rules, seed=2, dealer=3)
    assert game.phase is Phase.TRUMP_CHOICE
    view = game.view(3)
    hint = suggest(view, seed=1)
    assert isinstance(hint.move, NameTrump) and hint.move.suit in view.legal_trumps
    assert re.fullmatch(r"Name .: your hand is worth about \d+\.\d tricks; with .: \d+\.\d\.",
                        hint.text), hint.text


def test_a_seat_with_nothing_to_decide_gets_a_clear_refusal() -> None:
    game = _game(STRONG, turned="2D")
    with pytest.raises(ValueError, match="nothing for you to decide"):
        suggest(game.view(1), iterations=10)  # seat 0 bids first
    rules = Rules.preset("dealer_picks").model_copy(update={"hand_sizes": [6]})
    picking = Game.new(4, rules, seed=2, dealer=3)
    with pytest.raises(ValueError, match="nothing for you to decide"):
        suggest(picking.view(0), iterations=10)  # the dealer names trump


def test_swapping_hidden_cards_changes_no_hint() -> None:
    """The hint reads the view alone: the same view over different hidden cards gives the
    same hint, word for word."""
    checked = 0
    for seed in range(2):
        deck_a, points = _decision_points(seed)
        for actions, view_a in points[::3]:
            played = {card for trick in view_a.tricks_played for _, card in trick}
            played |= {card for _, card in view_a.current_trick}
            deck_b = _swapped_deck(deck_a, played, random.Random(seed))
            game_a = Game.new(PLAYERS, RULES, seed=seed, dealer=DEALER, deck=deck_a)
            game_b = Game.new(PLAYERS, RULES, seed=seed, dealer=DEALER, deck=deck_b)
            for action in actions:
                seat = game_a.actor_seats()[0]
                act(game_a, seat, action)
                act(game_b, seat, action)
            assert game_a.view(ME) == game_b.view(ME)
            others_a = [game_a.hand_of(s) for s in range(PLAYERS) if s != ME]
            others_b = [game_b.hand_of(s) for s in range(PLAYERS) if s != ME]
            first = suggest(game_a.view(ME), seed=9, iterations=30)
            second = suggest(game_b.view(ME), seed=9, iterations=30)
            assert first == second
            if others_a != others_b:
                checked += 1
    assert checked >= 3


def test_a_special_card_game_gets_hards_move_without_odds() -> None:
    rules = Rules.preset("joker_high")
    game = Game.new(4, rules, seed=3, dealer=0)
    view = game.view(game.actor_seats()[0])
    hint = suggest(view, seed=1, iterations=10)
    assert hint.move == create_player("hard", seed=1, iterations=10).choose_move(view)
    assert hint.text.endswith(": the hard computer's choice (it gives no odds with special "
                              "cards yet).")
