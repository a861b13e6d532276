"""The worked examples of docs/rules.md and its seed texts, played through the public API."""

import pytest

from engine import Card, Game, IllegalAction, Phase, Rules, Suit
from engine.scoring import hand_points

from .deals import pack_dealing

ANNA, BEN, CARLA, DAN = range(4)


def one_hand(preset: str, size: int, **update: object) -> Rules:
    return Rules.preset(preset).model_copy(update={"hand_sizes": [size], **update})


def test_001_anna_ben_carla_dan() -> None:
    """001: bids 1, 2, 0; Dan (dealer) may not bid 2; tricks 1, 1, 0, 3 score 11, 1, 10, 13."""
    hands = {
        ANNA: ["AH", "2D", "7D", "8C", "JC"],
        BEN: ["2H", "AD", "5D", "9C", "QC"],
        CARLA: ["3H", "3D", "6D", "10C", "KC"],
        DAN: ["4H", "4D", "AS", "KS", "QS"],
    }
    game = Game.new(4, one_hand("classic", 5), seed=1, dealer=DAN,
                    deck=pack_dealing(hands, DAN, "2S"))
    assert game.trump_suit is Suit.SPADES and game.turn == ANNA
    for seat, bid in [(ANNA, 1), (BEN, 2), (CARLA, 0)]:
        assert game.hook_bid is None  # nothing to announce before the dealer is to bid
        game.bid(seat, bid)
    assert game.turn == DAN
    assert game.legal_bids() == [0, 1, 3, 4, 5]
    assert game.hook_bid == 2
    with pytest.raises(IllegalAction, match="The dealer may not bid 2: the bids would add up "
                                            "to the 5 tricks"):
        game.bid(DAN, 2)
    game.bid(DAN, 3)
    assert game.over_under == "over"
    tricks = [
        [(ANNA, "AH"), (BEN, "2H"), (CARLA, "3H"), (DAN, "4H")],
        [(ANNA, "2D"), (BEN, "AD"), (CARLA, "3D"), (DAN, "4D")],
        [(BEN, "5D"), (CARLA, "6D"), (DAN, "AS"), (ANNA, "7D")],
        [(DAN, "KS"), (ANNA, "8C"), (BEN, "9C"), (CARLA, "10C")],
        [(DAN, "QS"), (ANNA, "JC"), (BEN, "QC"), (CARLA, "KC")],
    ]
    winners = []
    for trick in tricks:
        for seat, card in trick:
            assert game.turn == seat
            game.play(seat, card)
        winners.append(game.last_trick and game.turn)
    assert winners[:4] == [ANNA, BEN, DAN, DAN]
    record = game.scoresheet[0]
    assert record.tricks == (1, 1, 0, 3)
    assert record.points == (11, 1, 10, 13)
    assert record.made == (True, False, True, True)
    assert game.phase is Phase.GAME_OVER and game.scores == [11, 1, 10, 13]
    assert game.winners == [DAN]


def test_003_three_card_hand_with_spades_turned() -> None:
    """003: you bid 2, then 1 and 0; the dealer may not bid 0; A♥ 4♥ 10♥ lose to 6♠; 2 = 12."""
    dealer, you, second, third = 0, 1, 2, 3
    hands = {
        you: ["JS", "AH", "6D"],
        second: ["4H", "3D", "5C"],
        third: ["10H", "4D", "7C"],
        dealer: ["6S", "2D", "8C"],
    }
    game = Game.new(4, one_hand("vanikar", 3), seed=1, dealer=dealer,
                    deck=pack_dealing(hands, dealer, "9S"))
    assert game.trump_card == Card.parse("9S")
    game.bid(you, 2)
    game.bid(second, 1)
    game.bid(third, 0)
    assert 0 not in game.legal_bids()
    with pytest.raises(IllegalAction, match="may not bid 0"):
        game.bid(dealer, 0)
    game.bid(dealer, 1)
    for seat, card in [(you, "AH"), (second, "4H"), (third, "10H")]:
        game.play(seat, card)
    assert game.legal_cards() == game.hand_of(dealer)  # no hearts: anything goes
    game.play(dealer, "6S")
    assert game.turn == dealer and game.tricks_won[dealer] == 1  # the trump won
    for seat, card in [(dealer, "2D"), (you, "6D"), (second, "3D"), (third, "4D"),
                       (you, "JS"), (second, "5C"), (third, "7C"), (dealer, "8C")]:
        game.play(seat, card)
    record = game.scoresheet[0]
    assert record.tricks[you] == 2 and record.points[you] == 12
    assert record.points[second] == 0  # bid 1, took 0: nothing under strict scoring
    assert record.points[third] == 10  # bid 0 made
    assert record.points[dealer] == 11


def test_003_table_rows() -> None:
    strict, penalty = Rules.preset("vanikar"), Rules.preset("vanikar").model_copy(
        update={"scoring": "penalty"})
    assert hand_points(strict, bid=2, tricks=2, tricks_in_hand=3, blind=False) == 12
    assert hand_points(strict, bid=1, tricks=2, tricks_in_hand=3, blind=False) == 0
    assert hand_points(penalty, bid=1, tricks=2, tricks_in_hand=3, blind=False) == -1
    assert hand_points(strict, bid=0, tricks=0, tricks_in_hand=3, blind=False) == 10


def test_004_scores() -> None:
    ascending = Rules.preset("ascending")
    assert hand_points(ascending, bid=4, tricks=4, tricks_in_hand=6, blind=False) == 14
    assert hand_points(ascending, bid=0, tricks=0, tricks_in_hand=6, blind=False) == 10
    assert hand_points(ascending, bid=3, tricks=4, tricks_in_hand=6, blind=False) == 0
    zero = ascending.model_copy(update={"zero_bid": "five_plus_hand"})
    assert hand_points(zero, bid=0, tricks=0, tricks_in_hand=7, blind=False) == 12
    assert hand_points(zero, bid=0, tricks=0, tricks_in_hand=2, blind=False) == 7  # 002
    common = ascending.model_copy(update={"scoring": "common"})
    assert hand_points(common, bid=3, tricks=4, tricks_in_hand=6, blind=False) == 4  # George


@pytest.mark.parametrize(
    ("scheme", "made", "missed"),
    [("common", 13, 2), ("strict", 13, 0), ("penalty", 13, -1), ("bonus_only", 10, 0),
     ("wizard", 50, -10)],
)
def test_scoring_schemes(scheme: str, made: int, missed: int) -> None:
    rules = Rules.preset("classic").model_copy(update={"scoring": scheme})
    assert hand_points(rules, bid=3, tricks=3, tricks_in_hand=5, blind=False) == made
    assert hand_points(rules, bid=3, tricks=2, tricks_in_hand=5, blind=False) == missed


def test_blind_exact_bid_scores_double() -> None:
    rules = Rules.preset("classic")
    assert hand_points(rules, bid=1, tricks=1, tricks_in_hand=1, blind=True) == 22
    assert hand_points(rules, bid=1, tricks=0, tricks_in_hand=1, blind=True) == 0


def test_hook_in_a_one_card_hand() -> None:
    """001: in a 1-card hand where the others bid 0 in total, the dealer may not bid 1."""
    game = Game.new(4, one_hand("classic", 1), seed=5, dealer=3)
    for seat in (0, 1, 2):
        game.bid(seat, 0)
    assert game.legal_bids() == [0]
    with pytest.raises(IllegalAction, match="may not bid 1"):
        game.bid(3, 1)


def test_no_hook_when_the_others_already_exceed_the_tricks() -> None:
    game = Game.new(4, one_hand("classic", 2), seed=5, dealer=3)
    for seat in (0, 1, 2):
        game.bid(seat, 1)
    assert game.legal_bids() == [0, 1, 2] and game.hook_bid is None


def test_no_hook_presets_let_the_dealer_bid_anything() -> None:
    game = Game.new(4, one_hand("oh_pshaw", 3), seed=5, dealer=3)
    for seat in (0, 1, 2):
        game.bid(seat, 1)
    assert game.legal_bids() == [0, 1, 2, 3]
    game.bid(3, 0)
    assert game.over_under == "even"
