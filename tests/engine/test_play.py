"""Dealing, refusals and every variant step, through the public API."""

import pytest

from engine import Card, Game, IllegalAction, Phase, Play, Rules, Suit

from .deals import pack_dealing


def rules_with(preset: str = "classic", **update: object) -> Rules:
    return Rules.preset(preset).model_copy(update=update)


def cards(*codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes]


def test_deal_one_card_at_a_time_from_the_dealers_left_then_turn() -> None:
    from engine import STANDARD_DECK

    deck = list(STANDARD_DECK)
    game = Game.new(4, rules_with(hand_sizes=[2]), seed=1, dealer=2, deck=deck)
    assert game.hand_of(3) == [deck[0], deck[4]]
    assert game.hand_of(0) == [deck[1], deck[5]]
    assert game.hand_of(2) == [deck[3], deck[7]]
    assert game.trump_card == deck[8]
    assert game.turn == 3  # left of the dealer bids first


def test_refusals_say_why_and_change_nothing() -> None:
    hands = {0: ["AH", "2S"], 1: ["KH", "3S"], 2: ["QH", "4S"], 3: ["JH", "5S"]}
    game = Game.new(4, rules_with(hand_sizes=[2]), seed=1, dealer=3,
                    deck=pack_dealing(hands, 3, "2C"))
    before = game.to_json()
    with pytest.raises(IllegalAction, match="not your turn to bid"):
        game.bid(2, 1)
    with pytest.raises(IllegalAction, match="Bids go from 0 to 2"):
        game.bid(0, 3)
    with pytest.raises(IllegalAction, match="not time to play"):
        game.play(0, "AH")
    assert game.to_json() == before
    for seat in range(4):
        game.bid(seat, 0 if seat < 3 else 1)
    game.play(0, "AH")
    before = game.to_json()
    with pytest.raises(IllegalAction, match="You must follow suit: you hold a heart"):
        game.play(1, "3S")
    with pytest.raises(IllegalAction, match="You do not hold the A♥"):
        game.play(1, "AH")
    with pytest.raises(IllegalAction, match="not your turn to play"):
        game.play(2, "QH")
    with pytest.raises(IllegalAction, match="not a card"):
        game.play(1, "banana")
    assert game.to_json() == before


def test_a_special_card_in_a_standard_game_is_refused_in_words() -> None:
    hands = {0: ["AH", "2S"], 1: ["KH", "3S"], 2: ["QH", "4S"], 3: ["JH", "5S"]}
    game = Game.new(4, rules_with(hand_sizes=[2]), seed=1, dealer=3,
                    deck=pack_dealing(hands, 3, "2C"))
    for seat in range(4):
        game.bid(seat, 0 if seat < 3 else 1)
    for leader_played in (False, True):
        seat = game.turn
        assert seat is not None
        before = game.to_json()
        with pytest.raises(IllegalAction, match="You do not hold a Joker"):
            game.play(seat, "JK")
        with pytest.raises(IllegalAction, match="You do not hold a Wizard"):
            game.apply(seat, Play(Card.parse("W")))
        assert game.to_json() == before
        if not leader_played:
            game.play(seat, "AH")


def test_must_trump_la_podrida() -> None:
    hands = {0: ["AH", "2D"], 1: ["2S", "3C"], 2: ["QH", "4D"], 3: ["JH", "5D"]}
    game = Game.new(4, rules_with("la_podrida", hand_sizes=[2]), seed=1, dealer=3,
                    deck=pack_dealing(hands, 3, "9S"))
    for seat in range(4):
        game.bid(seat, 1 if seat == 0 else 0)
    game.play(0, "AH")
    assert game.legal_cards() == cards("2S")
    with pytest.raises(IllegalAction, match="must trump: you hold a spade"):
        game.play(1, "3C")
    game.play(1, "2S")
    assert game.legal_cards() == cards("QH")


def test_trumps_not_led_until_broken() -> None:
    hands = {0: ["AS", "2D", "3D"], 1: ["2S", "3C", "4C"], 2: ["QH", "4D", "5C"],
             3: ["JH", "5D", "6C"]}
    rules = rules_with(hand_sizes=[3], trump_lead="after_broken")
    game = Game.new(4, rules, seed=1, dealer=3, deck=pack_dealing(hands, 3, "9S"))
    for seat in range(4):
        game.bid(seat, 0 if seat else 2)
    assert game.legal_cards() == cards("2D", "3D")
    with pytest.raises(IllegalAction, match="Trumps have not been broken"):
        game.play(0, "AS")
    game.play(0, "2D")
    game.play(1, "2S")  # void in diamonds: trumps, so trumps are broken
    game.play(2, "4D")
    game.play(3, "5D")
    assert game.turn == 1 and game.trump_broken
    assert set(game.legal_cards()) == set(cards("3C", "4C"))


def test_dealer_picks_the_trump_suit_but_not_no_trump() -> None:
    game = Game.new(4, Rules.preset("dealer_picks"), seed=2, dealer=1)
    assert game.phase is Phase.TRUMP_CHOICE and game.turn == 1 and game.trump_card is None
    with pytest.raises(IllegalAction, match="Only the dealer"):
        game.choose_trump(2, Suit.HEARTS)
    with pytest.raises(IllegalAction, match="no-trump is not allowed"):
        game.choose_trump(1, "no trump")
    game.choose_trump(1, "hearts")
    assert game.trump_suit is Suit.HEARTS and game.phase is Phase.BIDDING and game.turn == 2


def test_extra_card_when_the_dealer_makes_the_hook_bid() -> None:
    game = Game.new(4, rules_with("extra_card", hand_sizes=[3]), seed=4, dealer=3)
    for seat in range(3):
        game.bid(seat, 1)
    assert game.legal_bids() == [0, 1, 2, 3]  # the hook bid is allowed
    game.bid(3, 0)
    assert game.hand_size == 4 and game.tricks_in_hand == 4
    assert all(len(game.hand_of(seat)) == 4 for seat in range(4))
    assert game.over_under == "under"


def test_extra_card_needs_cards_left_otherwise_the_hook_applies() -> None:
    game = Game.new(5, rules_with("extra_card", hand_sizes=[10]), seed=4, dealer=4)
    for seat in range(4):
        game.bid(seat, 2)
    assert 2 not in game.legal_bids()


def test_ouch_everyone_discards_two_before_bidding() -> None:
    game = Game.new(4, Rules.preset("ouch"), seed=3, dealer=0)
    assert game.phase is Phase.DISCARD and game.turn is None
    assert sorted(game.actor_seats()) == [0, 1, 2, 3]
    hand = game.hand_of(2)
    with pytest.raises(IllegalAction, match="Discard exactly 2"):
        game.discard(2, hand[:1])
    game.discard(2, hand[:2])
    with pytest.raises(IllegalAction, match="already discarded"):
        game.discard(2, hand[2:4])
    assert game.view(2).discarded == tuple(hand[:2])
    assert game.view(1).discarded == ()
    for seat in (0, 1, 3):
        game.discard(seat, game.hand_of(seat)[:2])
    assert game.phase is Phase.BIDDING and game.tricks_in_hand == 10
    assert game.legal_bids() == list(range(11))


def test_simultaneous_bids_are_hidden_until_all_are_in() -> None:
    game = Game.new(4, rules_with("british", bidding="simultaneous"), seed=3, dealer=0)
    game.hand_number  # noqa: B018
    assert game.phase is Phase.SIMULTANEOUS_BIDDING and game.turn is None
    game.bid(3, 1)
    assert game.view(3).bids[3] == 1 and game.view(0).bids[3] is None
    assert game.view(0).has_bid == (False, False, False, True)
    with pytest.raises(IllegalAction, match="already bid"):
        game.bid(3, 0)
    for seat in (0, 1, 2):
        game.bid(seat, 1)  # no hook with simultaneous bids, even where it would bite
    assert game.phase is Phase.PLAYING and game.view(0).bids == (1, 1, 1, 1)


def test_blind_hand_is_bid_before_seeing_the_cards_and_scores_double() -> None:
    rules = rules_with(hand_sizes=[1, 2], blind_hand=1, hook=False)
    game = Game.new(3, rules, seed=3, dealer=0)
    assert game.view(1).hand == () and game.view(1).blind
    for seat in (1, 2, 0):
        game.bid(seat, 0)
    assert len(game.view(1).hand) == 1
    while game.hand_number == 1:
        game.play(game.turn, game.legal_cards()[0])
    record = game.scoresheet[0]
    for seat in range(3):
        assert record.points[seat] == (20 if record.tricks[seat] == 0 else 1)


def test_kachuful_rotates_trump_with_a_no_trump_hand() -> None:
    game = Game.new(4, Rules.preset("kachuful"), seed=1, dealer=0)
    seen = []
    while len(seen) < 6:
        seen.append(game.trump_suit)
        hand = game.hand_number
        while game.hand_number == hand:
            if game.phase is Phase.BIDDING:
                game.bid(game.turn, game.legal_bids()[0])
            else:
                game.play(game.turn, game.legal_cards()[0])
    assert seen == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, None, Suit.SPADES]


def play_out(game: Game) -> None:
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.BIDDING:
            game.bid(game.turn, game.legal_bids()[-1])  # type: ignore[arg-type]
        else:
            game.play(game.turn, game.legal_cards()[0])  # type: ignore[arg-type]


def test_ascending_last_hand_is_played_without_trump() -> None:
    game = Game.new(5, Rules.preset("ascending"), seed=1, dealer=0)
    while game.phase is not Phase.GAME_OVER:
        if game.hand_number == 10:
            assert game.trump_suit is None and game.trump_card is None
        elif game.hand_number < 10:
            assert game.trump_card is not None
        if game.phase is Phase.BIDDING:
            game.bid(game.turn, game.legal_bids()[0])  # type: ignore[arg-type]
        else:
            game.play(game.turn, game.legal_cards()[0])  # type: ignore[arg-type]
    assert len(game.scoresheet) == 10


def test_oh_well_plays_to_a_hundred() -> None:
    game = Game.new(4, Rules.preset("oh_well"), seed=6, dealer=0)
    play_out(game)
    assert max(game.scoresheet[-1].totals) >= 100
    assert all(max(record.totals) < 100 for record in game.scoresheet[:-1])


def test_tie_break_extra_hands_use_the_largest_hand() -> None:
    rules = rules_with(hand_sizes=[1], tiebreak="extra_hands", scoring="bonus_only", hook=False)
    for seed in range(40):
        game = Game.new(3, rules, seed=seed, dealer=0)
        for seat in (1, 2, 0):
            game.bid(seat, 0)
        while game.hand_number == 1:
            game.play(game.turn, game.legal_cards()[0])  # type: ignore[arg-type]
        if game.phase is not Phase.GAME_OVER:  # two players made 0: tied on 10
            assert game.hand_size == 1 and game.hand_number == 2
            return
    pytest.fail("no tie found")


def test_ties_share_the_win() -> None:
    rules = rules_with(hand_sizes=[1], scoring="bonus_only", hook=False)
    game = Game.new(3, rules, seed=0, dealer=0)
    for seat in (1, 2, 0):
        game.bid(seat, 0)
    play_out(game)
    top = max(game.scores)
    assert game.winners == [seat for seat in range(3) if game.scores[seat] == top]
    assert len(game.winners) == 2


def test_first_dealer_is_drawn_and_repeatable() -> None:
    dealers = {Game.new(4, seed=seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert Game.new(4, seed=11).dealer == Game.new(4, seed=11).dealer


def test_nomination_whist_first_jack_deals() -> None:
    game = Game.new(4, Rules.preset("nomination_whist"), seed=9)
    assert 0 <= game.dealer < 4 and game.hand_size == 7


def test_deal_passes_left_each_hand() -> None:
    game = Game.new(4, rules_with(hand_sizes=[1, 1, 1]), seed=2, dealer=2)
    dealers = []
    while game.phase is not Phase.GAME_OVER:
        dealers.append(game.dealer)
        hand = game.hand_number
        while game.hand_number == hand and game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.BIDDING:
                game.bid(game.turn, game.legal_bids()[0])  # type: ignore[arg-type]
            else:
                game.play(game.turn, game.legal_cards()[0])  # type: ignore[arg-type]
    assert dealers == [2, 3, 0]


def test_snapshot_refuses_garbage_with_value_error() -> None:
    with pytest.raises(ValueError):
        Game.from_json("{not json")
    with pytest.raises(ValueError):
        Game.from_json('{"version": 99}')
    with pytest.raises(ValueError):
        Game.from_json('{"version": 1}')
