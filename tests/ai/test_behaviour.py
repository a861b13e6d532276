"""What the levels do in chosen positions: medium's habits, the hook, hard's sense, determinism."""

from __future__ import annotations

import pytest

from engine import Bid, Card, Game, NameTrump, Phase, Rules, Suit
from engine.ai import create_player

from .helpers import pack_dealing, play_game


def _rules(size: int) -> Rules:
    return Rules.preset("classic").model_copy(update={"hand_sizes": [size]})


def _game(hands: dict[int, list[str]], turned: str, dealer: int) -> Game:
    size = len(hands[0])
    deck = pack_dealing(hands, 4, dealer, turned)
    return Game.new(4, _rules(size), seed=1, dealer=dealer, deck=deck)


C = Card.parse

# dealer 0: seat 1 leads; hearts are trump and nobody holds one
DUCK_HANDS = {
    1: ["5C", "QD", "4S"],
    2: ["6C", "3D", "5S"],
    3: ["7C", "4D", "6S"],
    0: ["AC", "KD", "9D"],
}


def test_medium_ducks_once_its_bid_is_made() -> None:
    game = _game(DUCK_HANDS, "2H", dealer=0)
    for seat, bid in ((1, 0), (2, 0), (3, 1), (0, 1)):
        game.bid(seat, bid)
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "AC")):
        game.play(seat, card)
    assert game.turn == 0 and game.tricks_won[0] == 1
    medium = create_player("medium", seed=1)
    assert medium.choose_card(game.view(0)) == C("9D")  # leads low, not the king


def test_medium_plays_under_the_winner_when_it_wants_no_trick() -> None:
    game = _game(DUCK_HANDS, "2H", dealer=0)
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 0)):
        game.bid(seat, bid)
    for seat, card in ((1, "QD"), (2, "3D"), (3, "4D")):
        game.play(seat, card)
    medium = create_player("medium", seed=1)
    assert medium.choose_card(game.view(0)) == C("9D")  # highest card that still loses


def test_medium_takes_with_the_cheapest_sure_winner() -> None:
    game = _game(DUCK_HANDS, "2H", dealer=0)
    for seat, bid in ((1, 0), (2, 0), (3, 0), (0, 2)):
        game.bid(seat, bid)
    for seat, card in ((1, "QD"), (2, "3D"), (3, "4D")):
        game.play(seat, card)
    medium = create_player("medium", seed=1)
    assert medium.choose_card(game.view(0)) == C("KD")


def test_medium_leads_top_trumps_when_every_trick_is_needed() -> None:
    # dealer 3: seat 0 leads; spades are trump
    hands = {
        0: ["AS", "KS", "AH"],
        1: ["QS", "2H", "3C"],
        2: ["JS", "4H", "4C"],
        3: ["5H", "5C", "6D"],
    }
    game = _game(hands, "2S", dealer=3)
    for seat, bid in ((0, 3), (1, 0), (2, 1), (3, 0)):
        game.bid(seat, bid)
    medium = create_player("medium", seed=1)
    assert medium.choose_card(game.view(0)) == C("AS")


def test_medium_bids_its_sure_tricks() -> None:
    strong = {0: ["AS", "KS", "QS", "AH", "AD", "AC", "2D"]}
    weak = {0: ["2C", "3D", "4H", "5C", "6D", "7H", "3C"]}
    medium = create_player("medium", seed=1)
    strong_bid = medium.choose_bid(_game(strong, "2S", dealer=3).view(0))
    weak_bid = medium.choose_bid(_game(weak, "2S", dealer=3).view(0))
    assert strong_bid >= 5
    assert weak_bid == 0


# seven small trumps in a 13-card hand: no trump is high, but the opponents hold only six
LONG_TRUMPS = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "2H", "3H", "4H", "2D", "3D", "2C"]


def _one_hand(preset: str) -> Rules:
    return Rules.preset(preset).model_copy(
        update={"hand_sizes": [13], "hand_count": 1, "game_end": "sequence"}
    )


def test_medium_bids_the_tricks_long_trumps_take_when_every_card_is_dealt() -> None:
    # Oh! Well (docs/rules.md section 4): 13 cards each, the dealer's own last card (9S) is
    # trump. Ranked alone the seven trumps are worth under two tricks; by length they outlast
    # the opponents' six (AS-TS and the 9S), so medium bids about as many as they win.
    dealer = ["AH", "KH", "QH", "JH", "AD", "KD", "QD", "JD", "AC", "KC", "QC", "JC", "9S"]
    deck = pack_dealing({0: LONG_TRUMPS, 3: dealer}, 4, 3, None)
    view = Game.new(4, _one_hand("oh_well"), seed=1, dealer=3, deck=deck).view(0)
    assert view.trump_suit is Suit.SPADES
    assert create_player("medium", seed=1).choose_bid(view) >= 4


def test_medium_counts_long_trumps_only_when_it_picked_the_suit() -> None:
    # Dealer Picks the Suit (docs/rules.md section 4): the dealer names trump for its own long
    # suit, so the same seven spades are worth more to the dealer who picked them than to a
    # seat facing a dealer who did.
    medium = create_player("medium", seed=1)
    picker = Game.new(4, _one_hand("dealer_picks"), seed=1, dealer=0,
                      deck=pack_dealing({0: LONG_TRUMPS}, 4, 0, None))
    picker.apply(0, NameTrump(Suit.SPADES))
    for seat in (1, 2, 3):
        picker.apply(seat, Bid(1))
    facing = Game.new(4, _one_hand("dealer_picks"), seed=1, dealer=3,
                      deck=pack_dealing({0: LONG_TRUMPS}, 4, 3, None))
    facing.apply(3, NameTrump(Suit.SPADES))
    picked_bid = medium.choose_bid(picker.view(0))
    facing_bid = medium.choose_bid(facing.view(0))
    assert picked_bid >= 4
    assert facing_bid <= 2


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_dealer_never_bids_the_hook(level: str) -> None:
    # one card each; the dealer (seat 3) holds the ace of trumps and everyone else bid 0
    hands = {0: ["2C"], 1: ["3D"], 2: ["4H"], 3: ["AS"]}
    game = _game(hands, "2S", dealer=3)
    for seat in (0, 1, 2):
        game.bid(seat, 0)
    view = game.view(3)
    assert view.hook_bid == 1
    bid = create_player(level, seed=2, iterations=20).choose_bid(view)
    assert bid == 0


def test_the_hook_holds_over_many_deals() -> None:
    checked = 0

    def watch(view: object, action: object) -> None:
        nonlocal checked
        from engine import PlayerView

        assert isinstance(view, PlayerView)
        if view.phase is Phase.BIDDING and view.seat == view.dealer and view.hook_bid is not None:
            assert action == Bid(action.tricks)  # type: ignore[attr-defined]
            assert action.tricks != view.hook_bid  # type: ignore[attr-defined]
            checked += 1

    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [5, 3, 2, 1]})
    for seed in range(3):
        seats = [create_player(level, seed=seed, iterations=4) for level in
                 ("hard", "medium", "easy", "medium")]
        play_game(seats, rules, seed=seed, on_decision=watch)
    assert checked >= 10


def test_hard_bids_strong_hands_high_and_weak_hands_low() -> None:
    strong = {0: ["AS", "KS", "QS", "AH", "AD", "AC", "2D"]}
    weak = {0: ["2C", "3D", "4H", "5C", "6D", "7H", "3C"]}
    hard = create_player("hard", seed=1, iterations=60)
    assert hard.choose_bid(_game(strong, "2S", dealer=3).view(0)) >= 5
    assert hard.choose_bid(_game(weak, "2S", dealer=3).view(0)) == 0


def test_hard_takes_what_it_needs_and_ducks_what_it_does_not() -> None:
    hard = create_player("hard", seed=1, iterations=40)
    game = _game(DUCK_HANDS, "2H", dealer=0)
    for seat, bid in ((1, 0), (2, 0), (3, 0), (0, 2)):
        game.bid(seat, bid)
    for seat, card in ((1, "QD"), (2, "3D"), (3, "4D")):
        game.play(seat, card)
    assert hard.choose_card(game.view(0)) == C("KD")
    game = _game(DUCK_HANDS, "2H", dealer=0)
    for seat, bid in ((1, 1), (2, 0), (3, 1), (0, 0)):
        game.bid(seat, bid)
    for seat, card in ((1, "QD"), (2, "3D"), (3, "4D")):
        game.play(seat, card)
    assert hard.choose_card(game.view(0)) == C("9D")


def test_same_seed_and_budget_same_game() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [6, 3]})

    def run(seed: int) -> list[object]:
        seats = [create_player(level, seed=seed + i, iterations=8)
                 for i, level in enumerate(("hard", "medium", "hard", "random"))]
        game = play_game(seats, rules, seed=11)
        return [(r.bids, r.tricks, r.points) for r in game.scoresheet]

    assert run(5) == run(5)


def test_iterations_bound_the_search() -> None:
    hard = create_player("hard", seed=3, iterations=7)
    game = Game.new(4, _rules(7), seed=2, dealer=3)
    hard.choose_bid(game.view(0))
    assert hard.last_deals == 7  # type: ignore[attr-defined]
