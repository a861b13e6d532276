"""Special cards: jokers, Wizards and Jesters, and the presets built on them (docs/rules.md 4)."""

import pickle

import pytest

from engine import (
    STANDARD_DECK,
    Bid,
    Card,
    Declaration,
    Discard,
    Game,
    IllegalAction,
    NameTrump,
    Phase,
    Play,
    Rules,
    Suit,
)
from engine.cards import SPECIAL_CARDS

HIGH = Declaration(None, True)
LOW = Declaration(None, False)


def pack_for(rules: Rules, players: int, hands: dict[int, list[str]], dealer: int,
             turned: str | None) -> list[Card]:
    """The whole pack, top first, that deals `hands` from the dealer's left, then `turned`."""
    size = len(hands[0])
    top: list[Card] = []
    for round_number in range(size):
        for offset in range(players):
            top.append(Card.parse(hands[(dealer + 1 + offset) % players][round_number]))
    if turned is not None:
        top.append(Card.parse(turned))
    return top + [card for card in rules.pack(players) if card not in top]


def game_of(preset: str, hands: dict[int, list[str]], turned: str | None, dealer: int = 3,
            **update: object) -> Game:
    rules = Rules.preset(preset).model_copy(
        update={"hand_sizes": [len(hands[0])] * 2, **update}
    )
    players = len(hands)
    dealer = min(dealer, players - 1)
    return Game.new(players, rules, seed=1, dealer=dealer,
                    deck=pack_for(rules, players, hands, dealer, turned))


def bid_all(game: Game, bids: list[int]) -> None:
    for _ in range(game.players):
        seat = game.actor_seats()[0]
        game.apply(seat, Bid(bids[seat]))


# ----- cards as players type them -----


@pytest.mark.parametrize(
    ("text", "code", "shown"),
    [
        ("JK", "JK", "Joker"),
        ("joker", "JK", "Joker"),
        ("High joker", "JKH", "High Joker"),
        ("low", "JKL", "Low Joker"),
        ("Super Joker", "JKS", "Super Joker"),
        ("loser joker", "JKX", "Loser Joker"),
        ("W", "W1", "Wizard"),
        ("wizard", "W1", "Wizard"),
        ("Jester", "N1", "Jester"),
        ("w3", "W3", "Wizard"),
    ],
)
def test_special_cards_read_as_players_type_them(text: str, code: str, shown: str) -> None:
    card = Card.parse(text)
    assert card.code == code
    assert str(card) == shown and card.name == shown
    assert card.special and card.suit is None


def test_special_cards_are_interned_values_after_the_standard_pack() -> None:
    assert [card.index for card in STANDARD_DECK] == list(range(52))
    assert [card.index for card in SPECIAL_CARDS] == list(range(52, 52 + len(SPECIAL_CARDS)))
    for card in SPECIAL_CARDS:
        assert Card.parse(card.code) is card
        assert Card.from_index(card.index) is card
        assert pickle.loads(pickle.dumps(card)) is card
    assert Card.parse("JH") == Card(11, Suit.HEARTS)  # the Jack of hearts stays a Jack


def test_packs_of_the_special_presets() -> None:
    assert len(Rules.preset("joker_high").pack(4)) == 53
    assert len(Rules.preset("love_that_joker").pack(4)) == 54
    assert len(Rules.preset("wizard_lite").pack(4)) == 56
    assert len(Rules.preset("wizard").pack(3)) == 60
    assert Rules.preset("wizard").plan(3) == list(range(1, 21))
    assert Rules.preset("wizard_lite").plan(4) == list(range(1, 15))
    blackout = Rules.preset("blackout_jokers")
    assert len(blackout.pack(5)) == 50 and not any(c.rank == 2 for c in blackout.pack(5))
    assert blackout.plan(5) == [10] * 5 and blackout.plan(6) == [9] * 6


# ----- super_screw: 000's Super Trump with the 7 of diamonds turned -----


def super_screw_hand() -> Game:
    hands = {
        0: ["7H", "2C", "AS"],
        1: ["KH", "3C", "4S"],
        2: ["AD", "JKS", "5S"],
        3: ["QH", "2H", "6S"],
    }
    return game_of("super_screw", hands, turned="7D")


def test_super_screw_bids_before_the_trump_card_is_turned() -> None:
    game = super_screw_hand()
    assert game.phase is Phase.SIMULTANEOUS_BIDDING and game.trump_card is None
    for seat in (0, 1, 2):
        game.apply(seat, Bid(0))
    outcome = game.apply(3, Bid(1))
    assert outcome.turned_up == Card.parse("7D") and outcome.trump_named is Suit.DIAMONDS
    assert outcome.super_trump == Card.parse("7H") == game.super_trump
    assert not outcome.cards_lost
    assert game.view(0).card_values[-1][0] == Card.parse("7H")
    assert "Super Trump" in game.view(0).card_values[-1][1]


def test_the_super_trump_follows_hearts_and_beats_the_ace_of_trumps() -> None:
    game = super_screw_hand()
    bid_all(game, [0, 0, 0, 1])
    game.play(0, "2C")
    game.play(1, "3C")
    game.play(2, "AD")  # void in clubs: trumps with the Ace
    game.play(3, "2H")  # void in clubs: the 2H discarded
    assert game.tricks_won == [0, 0, 1, 0]
    game.play(2, "5S")  # seat 2 leads spades
    game.play(3, "6S")
    with pytest.raises(IllegalAction, match="follow suit: you hold a spade.*Super Trump 7♥"):
        game.play(0, "7H")
    game.play(0, "AS")
    game.play(1, "4S")
    assert game.tricks_won == [1, 0, 1, 0]
    game.play(0, "7H")  # led: the others must follow hearts
    assert game.view(1).led_suit is Suit.HEARTS
    game.play(1, "KH")
    game.play(2, "JKS")  # a joker may be played any time, and beats the Super Trump
    game.play(3, "QH")
    assert game.scoresheet[-1].tricks == (1, 0, 2, 0)


def test_a_super_trump_played_off_suit_beats_the_ace_of_trumps() -> None:
    hands = {0: ["2C", "7H"], 1: ["3C", "AD"], 2: ["KC", "4C"], 3: ["5C", "6C"]}
    game = game_of("super_screw", hands, turned="7D")
    bid_all(game, [0, 0, 0, 0])
    for seat, card in [(0, "2C"), (1, "3C"), (2, "KC"), (3, "5C")]:
        game.play(seat, card)
    game.play(2, "4C")
    game.play(3, "6C")
    game.play(0, "7H")  # void in clubs
    game.play(1, "AD")  # void in clubs: the Ace of trumps
    assert game.scoresheet[-1].tricks == (1, 0, 1, 0)


def test_even_bids_cost_every_player_a_random_card_before_the_turn_up() -> None:
    game = super_screw_hand()
    for seat in (0, 1, 2):
        game.apply(seat, Bid(1))
    outcome = game.apply(3, Bid(0))
    assert outcome.cards_lost and outcome.turned_up == Card.parse("7D")
    assert game.tricks_in_hand == 2 and game.hand_size == 3
    for seat in range(4):
        assert len(game.hand_of(seat)) == 2
        lost = game.view(seat).discarded
        assert len(lost) == 1 and lost[0] not in game.hand_of(seat)
    assert outcome.bidding is not None and outcome.bidding.over_under == "over"


def test_even_bids_in_a_one_card_hand_deal_a_second_card() -> None:
    hands = {0: ["7H"], 1: ["KH"], 2: ["AD"], 3: ["QH"]}
    game = game_of("super_screw", hands, turned="7D")
    bid_all(game, [1, 0, 0, 0])
    assert game.tricks_in_hand == 2 and all(len(game.hand_of(s)) == 2 for s in range(4))
    assert game.trump_card is not None and game.phase is Phase.PLAYING


def test_the_card_loss_may_be_a_card_of_each_players_choice() -> None:
    game = super_screw_hand()
    game = game_of("super_screw", {0: ["7H", "2C", "AS"], 1: ["KH", "3C", "4S"],
                                   2: ["AD", "JKS", "5S"], 3: ["QH", "2H", "6S"]},
                   turned="7D", card_loss="choice")
    bid_all(game, [1, 1, 1, 0])
    assert game.phase is Phase.DISCARD and game.view(0).discards_needed == 1
    with pytest.raises(IllegalAction, match="exactly 1"):
        game.apply(0, Discard((Card.parse("7H"), Card.parse("2C"))))
    for seat in range(4):
        outcome = game.apply(seat, Discard((game.hand_of(seat)[0],)))
    assert outcome.cards_lost and outcome.turned_up == Card.parse("7D")
    assert game.phase is Phase.PLAYING and game.tricks_in_hand == 2


def test_a_turned_joker_means_no_trump_and_no_super_trump() -> None:
    hands = {0: ["7H"], 1: ["KH"], 2: ["AD"], 3: ["QH"]}
    game = game_of("super_screw", hands, turned="JKX")
    bid_all(game, [0, 0, 0, 0])
    assert game.trump_card == Card.parse("JKX")
    assert game.trump_suit is None and game.super_trump is None


def test_a_led_joker_sets_no_suit_in_super_screw() -> None:
    hands = {0: ["JKX", "2C"], 1: ["KH", "3C"], 2: ["AD", "4C"], 3: ["QH", "5C"]}
    game = game_of("super_screw", hands, turned="9S")
    bid_all(game, [0, 0, 0, 0])
    game.play(0, "JKX")
    assert game.legal_cards() == [Card.parse("3C"), Card.parse("KH")]
    game.play(1, "3C")
    game.play(2, "AD")
    game.play(3, "QH")
    assert game.tricks_won == [1, 0, 0, 0]


# ----- Wizard: 001's Wizard and Jester leads -----


def wizard_game(hands: dict[int, list[str]], turned: str, preset: str = "wizard") -> Game:
    game = game_of(preset, hands, turned=turned)
    bid_all(game, [0] * len(hands))
    return game


def test_a_led_wizard_frees_everyone_and_wins() -> None:
    game = wizard_game({0: ["W1", "2C"], 1: ["KC", "AH"], 2: ["3C", "4C"]}, turned="5D")
    game.play(0, "W")
    assert set(game.legal_cards()) == {Card.parse("KC"), Card.parse("AH")}
    game.play(1, "AH")
    game.play(2, "4C")
    assert game.tricks_won == [1, 0, 0]


def test_after_a_led_jester_the_first_number_card_sets_the_suit() -> None:
    game = wizard_game({0: ["N1", "2C"], 1: ["KC", "AH"], 2: ["3C", "4H"]}, turned="5D")
    game.play(0, "Jester")
    assert set(game.legal_cards()) == {Card.parse("KC"), Card.parse("AH")}
    game.play(1, "KC")
    with pytest.raises(IllegalAction, match="follow suit: you hold a club"):
        game.play(2, "4H")
    game.play(2, "3C")
    assert game.tricks_won == [0, 1, 0]


def test_a_jester_then_a_wizard_frees_the_rest_and_the_wizard_wins() -> None:
    game = wizard_game({0: ["N1", "2C"], 1: ["W2", "AH"], 2: ["AC", "4H"]}, turned="5D")
    game.play(0, "N1")
    game.play(1, "W")
    assert set(game.legal_cards()) == {Card.parse("AC"), Card.parse("4H")}
    game.play(2, "AC")
    assert game.tricks_won == [0, 1, 0]


def test_the_first_wizard_wins_and_a_trick_of_jesters_goes_to_the_first() -> None:
    game = wizard_game(
        {0: ["2C", "N1"], 1: ["W1", "N2"], 2: ["W2", "N3"], 3: ["AD", "N4"]}, turned="5D"
    )
    game.play(0, "2C")
    game.play(1, "W1")
    game.play(2, "W2")
    game.play(3, "AD")  # the Ace of trumps loses to the first Wizard
    assert game.tricks_won == [0, 1, 0, 0]
    for seat in (1, 2, 3, 0):
        game.play(seat, "Jester")
    assert game.scoresheet[-1].tricks == (0, 2, 0, 0)


def test_a_jester_always_loses_and_a_wizard_may_be_played_while_holding_the_suit() -> None:
    game = wizard_game({0: ["2C", "3D"], 1: ["N1", "5C"], 2: ["W1", "4C"]}, turned="5H")
    game.play(0, "2C")
    assert Card.parse("N1") in game.legal_cards()
    game.play(1, "N1")
    game.play(2, "W1")
    assert game.tricks_won == [0, 0, 1]


def test_a_turned_wizard_lets_the_dealer_name_trump() -> None:
    game = game_of("wizard_lite", {0: ["2C"], 1: ["KC"], 2: ["3C"]}, turned="W1", dealer=2)
    assert game.phase is Phase.TRUMP_CHOICE and game.turn == 2
    assert game.view(2).legal_trumps == tuple(Suit)
    with pytest.raises(IllegalAction, match="Only the dealer"):
        game.apply(0, NameTrump(Suit.CLUBS))
    outcome = game.apply(2, NameTrump(Suit.CLUBS))
    assert outcome.trump_named is Suit.CLUBS and game.trump_suit is Suit.CLUBS
    assert game.phase is Phase.BIDDING


def test_a_turned_jester_means_no_trump() -> None:
    game = game_of("wizard_lite", {0: ["2C"], 1: ["KC"], 2: ["3C"]}, turned="N1")
    assert game.trump_suit is None and game.phase is Phase.BIDDING


def test_wizards_are_not_declared() -> None:
    game = wizard_game({0: ["W1", "2C"], 1: ["KC", "AH"], 2: ["3C", "4C"]}, turned="5D")
    with pytest.raises(IllegalAction, match="not declared"):
        game.apply(0, Play(Card.parse("W1"), HIGH))


# ----- jokers -----


def test_joker_high_is_the_highest_trump_and_follows_trumps() -> None:
    hands = {0: ["AS", "2C"], 1: ["JK", "3C"], 2: ["KS", "4C"], 3: ["QS", "5C"]}
    game = game_of("joker_high", hands, turned="9S")
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "AS")
    with pytest.raises(IllegalAction, match="follow spades: your joker counts as a spade"):
        game.play(1, "3C")
    game.play(1, "joker")
    game.play(2, "KS")
    game.play(3, "QS")
    assert game.tricks_won == [0, 1, 0, 0]


def test_joker_high_may_not_be_played_to_a_plain_suit_you_can_follow() -> None:
    hands = {0: ["2C", "AS"], 1: ["JK", "3C"], 2: ["KS", "4C"], 3: ["QS", "5C"]}
    game = game_of("joker_high", hands, turned="9S")
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "2C")
    with pytest.raises(IllegalAction, match="you hold a club. The joker is a spade"):
        game.play(1, "JK")


def test_joker_high_in_a_no_trump_hand_beats_everything_any_time() -> None:
    hands = {0: ["AS", "2C"], 1: ["JK", "3S"], 2: ["KS", "4C"], 3: ["QS", "5C"]}
    game = game_of("joker_high", hands, turned=None, last_hand_no_trump=True,
                   hand_sizes=[2])
    assert game.trump_suit is None
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "AS")
    assert Card.parse("JK") in game.legal_cards()
    game.play(1, "JK")
    game.play(2, "KS")
    game.play(3, "QS")
    assert game.tricks_won == [0, 1, 0, 0]
    assert "beats every card" in game.view(0).card_values[0][1]


def test_joker_dup_is_a_copy_of_the_turned_card() -> None:
    hands = {0: ["JK", "2C"], 1: ["9H", "3C"], 2: ["7H", "4C"], 3: ["2H", "5C"]}
    game = game_of("joker_dup", hands, turned="8H")
    assert "a second 8♥" in game.view(0).card_values[0][1]
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "JK")
    game.play(1, "9H")
    assert game.legal_cards() == [Card.parse("7H")]
    game.play(2, "7H")
    game.play(3, "2H")
    assert game.tricks_won == [0, 1, 0, 0]
    game = game_of("joker_dup", {0: ["8H", "2C"], 1: ["JK", "3C"], 2: ["2H", "4C"],
                                 3: ["3H", "5C"]}, turned="8S")
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "8H")
    game.play(1, "JK")  # an 8 of spades: a trump
    game.play(2, "2H")
    game.play(3, "3H")
    assert game.tricks_won == [0, 1, 0, 0]


def test_love_that_joker_declarations_and_the_trump_exception() -> None:
    hands = {0: ["2D", "2C"], 1: ["JKH", "3D"], 2: ["JKL", "4C"], 3: ["AD", "5C"]}
    game = game_of("love_that_joker", hands, turned="9S")
    bid_all(game, [0, 1, 0, 0])
    game.play(0, "2D")
    options = game.legal_declarations(Card.parse("JKH"))
    assert Declaration(Suit.SPADES, True) not in options  # can follow diamonds: not trump
    assert Declaration(Suit.DIAMONDS, True) in options and len(options) == 6
    with pytest.raises(IllegalAction, match="not be declared trump while you can follow"):
        game.apply(1, Play(Card.parse("JKH"), Declaration(Suit.SPADES, True)))
    with pytest.raises(IllegalAction, match="Say what the High Joker is"):
        game.apply(1, Play(Card.parse("JKH")))
    outcome = game.apply(1, Play(Card.parse("JKH"), Declaration(Suit.DIAMONDS, False)))
    assert outcome.declared == Declaration(Suit.DIAMONDS, False)
    # seat 2 cannot follow diamonds: its joker may be trump
    assert Declaration(Suit.SPADES, False) in game.legal_declarations(Card.parse("JKL"))
    game.apply(2, Play(Card.parse("JKL"), Declaration(Suit.SPADES, False)))
    game.play(3, "AD")
    assert game.tricks_won == [0, 0, 1, 0]  # a low trump beats the Ace of diamonds
    assert game.view(0).declarations == (
        (Card.parse("JKH"), Declaration(Suit.DIAMONDS, False)),
        (Card.parse("JKL"), Declaration(Suit.SPADES, False)),
    )


def test_love_that_joker_same_declaration_high_beats_low() -> None:
    hands = {0: ["JKL", "2C"], 1: ["JKH", "3C"], 2: ["AS", "4C"], 3: ["KS", "5C"]}
    game = game_of("love_that_joker", hands, turned="9S")
    bid_all(game, [0, 1, 0, 0])
    high_trump = Declaration(Suit.SPADES, True)
    game.apply(0, Play(Card.parse("low joker"), high_trump))
    assert game.view(1).led_suit is Suit.SPADES
    game.apply(1, Play(Card.parse("high joker"), high_trump))
    game.play(2, "AS")
    game.play(3, "KS")
    assert game.tricks_won == [0, 1, 0, 0]


def test_love_that_joker_after_a_turned_joker_only_the_other_may_be_trump() -> None:
    hands = {0: ["JKH", "2C"], 1: ["AS", "3C"], 2: ["KS", "4C"], 3: ["QS", "5C"]}
    game = game_of("love_that_joker", hands, turned="JKL")
    assert game.trump_suit is None
    bid_all(game, [1, 0, 0, 0])
    trump_low = Declaration(None, False)
    assert trump_low in game.legal_declarations(Card.parse("JKH"))
    game.apply(0, Play(Card.parse("JKH"), trump_low))
    assert game.led_suit is None  # a joker declared trump sets no suit
    game.play(1, "3C")
    game.play(2, "KS")
    game.play(3, "QS")
    assert game.tricks_won == [1, 0, 0, 0]


def blackout_game(hands: dict[int, list[str]], dealer_bid: int = 2) -> Game:
    rules = Rules.preset("blackout_jokers").model_copy(update={"hand_sizes": [len(hands[0])]})
    deck = pack_for(rules, 5, hands, 4, None)
    game = Game.new(5, rules, seed=1, dealer=4, deck=deck)
    assert game.trump_suit is Suit.HEARTS
    bid_all(game, [0, 0, 0, 0, dealer_bid])
    return game


BLACKOUT = {
    0: ["AC", "JK", "KD"],
    1: ["3C", "JK2", "4D"],
    2: ["5C", "6D", "7D"],
    3: ["8C", "9D", "10D"],
    4: ["JC", "QD", "AD"],
}


def test_blackout_jokers_may_not_be_led_nor_played_to_the_first_trick() -> None:
    game = blackout_game(BLACKOUT)
    with pytest.raises(IllegalAction, match="A joker may not be led while you hold other cards"):
        game.apply(0, Play(Card.parse("JK"), HIGH))
    game.play(0, "AC")
    with pytest.raises(IllegalAction, match="first trick of a hand unless the Ace of trumps"):
        game.apply(1, Play(Card.parse("JK2"), HIGH))
    assert Card.parse("JK2") not in game.legal_cards()


def test_blackout_the_first_joker_is_declared_and_the_second_takes_the_opposite() -> None:
    game = blackout_game(BLACKOUT)
    for seat, card in [(0, "AC"), (1, "3C"), (2, "5C"), (3, "8C"), (4, "JC")]:
        game.play(seat, card)
    assert game.tricks_won == [1, 0, 0, 0, 0]
    game.play(0, "KD")
    with pytest.raises(IllegalAction, match="high \\(it wins the trick\\) or low"):
        game.apply(1, Play(Card.parse("joker")))
    outcome = game.apply(1, Play(Card.parse("joker"), LOW))  # any joker held: the JK2
    assert outcome.declared == LOW
    for seat, card in [(2, "6D"), (3, "9D"), (4, "QD")]:
        game.play(seat, card)
    assert game.tricks_won == [2, 0, 0, 0, 0]  # the King of diamonds: the low joker lost
    with pytest.raises(IllegalAction, match="The second joker is high: the first was declared"):
        game.apply(0, Play(Card.parse("JK"), LOW))
    assert "second joker is high" in game.view(0).card_values[0][1]
    outcome = game.apply(0, Play(Card.parse("JK")))  # only jokers left: it may be led
    assert outcome.declared == HIGH
    game.play(1, "4D")  # the first card that is not a joker sets the suit
    assert game.led_suit is Suit.DIAMONDS


def test_blackout_a_joker_may_follow_the_ace_of_trumps_on_the_first_trick() -> None:
    hands = {0: ["AH", "9C"], 1: ["JK", "3C"], 2: ["5H", "4C"], 3: ["6H", "5D"],
             4: ["7H", "6C"]}
    game = blackout_game(hands, dealer_bid=1)
    game.play(0, "AH")
    game.apply(1, Play(Card.parse("JK"), HIGH))
    game.play(2, "5H")
    game.play(3, "6H")
    game.play(4, "7H")
    assert game.tricks_won == [0, 1, 0, 0, 0]


def test_blackout_a_hand_of_only_jokers_plays_one_on_the_first_trick() -> None:
    # 1-card hands at 5 players (rules Rules accepts): the King of clubs led, not the Ace of
    # trumps, and seat 1 holds only a joker; it must be able to play it (docs/rules.md 4).
    hands = {0: ["KC"], 1: ["JK"], 2: ["5C"], 3: ["JK2"], 4: ["AD"]}
    game = blackout_game(hands, dealer_bid=0)
    game.play(0, "KC")
    assert game.legal_cards() == [Card.parse("JK")]
    game.apply(1, Play(Card.parse("JK"), HIGH))
    game.play(2, "5C")
    assert game.legal_cards() == [Card.parse("JK2")]
    assert game.apply(3, Play(Card.parse("JK2"))).declared == LOW  # the second: the opposite
    game.play(4, "AD")
    assert game.phase is Phase.GAME_OVER and game.scoresheet[-1].tricks == (0, 1, 0, 0, 0)


def test_blackout_a_hand_of_only_jokers_may_lead_one_on_the_first_trick() -> None:
    hands = {0: ["JK"], 1: ["KC"], 2: ["5C"], 3: ["JK2"], 4: ["AD"]}
    game = blackout_game(hands, dealer_bid=0)
    assert game.legal_cards() == [Card.parse("JK")]
    game.apply(0, Play(Card.parse("JK"), LOW))
    game.play(1, "KC")  # the first card that is not a joker sets the suit
    assert game.legal_cards() == [Card.parse("5C")]


# ----- quick -----


def test_quick_is_one_hand_of_a_random_size_won_by_the_highest_exact_bid() -> None:
    sizes = {Game.new(4, Rules.preset("quick"), seed=seed).hand_size for seed in range(60)}
    assert sizes <= set(range(1, 14)) and len(sizes) > 5
    game = Game.new(4, Rules.preset("quick"), seed=3)
    assert game.hand_count == 1


def test_quick_winners_made_the_exact_bid_and_nobody_wins_without_one() -> None:
    hands = {0: ["AS", "2C"], 1: ["KS", "3C"], 2: ["QS", "4C"], 3: ["JS", "5C"]}
    game = Game.new(4, Rules.preset("quick").model_copy(update={"hand_sizes": [2]}), seed=1,
                    dealer=3, deck=pack_for(Rules.preset("quick"), 4, hands, 3, "9D"))
    bid_all(game, [1, 0, 0, 2])
    for card in ["AS", "KS", "QS", "JS", "2C", "3C", "4C", "5C"]:
        game.play(game.turn, card)  # type: ignore[arg-type]
    assert game.phase is Phase.GAME_OVER
    assert game.tricks_won == [1, 0, 0, 1]
    assert game.winners == [0]  # made 1; seats 1 and 2 made 0, a lower bid
    assert game.scoresheet == [] and game.scores == [0, 0, 0, 0]  # no scoresheet, no points
    game = Game.new(4, Rules.preset("quick").model_copy(update={"hand_sizes": [2]}), seed=1,
                    dealer=3, deck=pack_for(Rules.preset("quick"), 4, hands, 3, "9D"))
    bid_all(game, [2, 1, 1, 0])
    for card in ["AS", "KS", "QS", "JS", "2C", "3C", "4C", "5C"]:
        game.play(game.turn, card)  # type: ignore[arg-type]
    assert game.winners == []


# ----- views, snapshots, refusals -----


def test_a_standard_card_is_not_declared() -> None:
    game = Game.new(4, Rules.preset("classic"), seed=1)
    bid_all(game, [0, 0, 0, 1] if game.hook_bid != 1 else [0, 0, 0, 0])
    seat = game.turn
    assert seat is not None
    with pytest.raises(IllegalAction, match="not declared: only a joker is"):
        game.apply(seat, Play(game.legal_cards()[0], HIGH))


def test_you_cannot_play_a_special_card_you_do_not_hold() -> None:
    game = blackout_game(BLACKOUT)
    game.play(0, "AC")
    with pytest.raises(IllegalAction, match="You do not hold a Wizard"):
        game.play(1, "W")


def test_views_say_what_each_special_card_is_worth_and_snapshots_keep_declarations() -> None:
    game = blackout_game(BLACKOUT)
    for seat, card in [(0, "AC"), (1, "3C"), (2, "5C"), (3, "8C"), (4, "JC")]:
        game.play(seat, card)
    game.play(0, "KD")
    view = game.view(1)
    assert view.declarations_for(Card.parse("JK2")) == (HIGH, LOW)
    assert "declared high (wins the trick) or low" in view.card_values[0][1]
    game.apply(1, Play(Card.parse("JK2"), HIGH))
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
    assert restored.declarations == {Card.parse("JK2"): HIGH}
    assert game.public_state().declarations == ((Card.parse("JK2"), HIGH),)
