"""Moves as values and what `Game.apply` says each one caused."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
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
    move_from_code,
    move_from_payload,
)

from .deals import pack_dealing


def rules_with(preset: str = "classic", **update: object) -> Rules:
    return Rules.preset(preset).model_copy(update=update)


def two_card_game(sizes: list[int]) -> Game:
    hands = {0: ["AH", "2S"], 1: ["KH", "3S"], 2: ["QH", "4S"], 3: ["JH", "5S"]}
    return Game.new(4, rules_with(hand_sizes=sizes), seed=1, dealer=3,
                    deck=pack_dealing(hands, 3, "2C"))


def test_a_bid_says_only_itself_until_the_last_bid_ends_bidding() -> None:
    game = two_card_game([2])
    outcome = game.apply(0, Bid(1))
    assert outcome.seat == 0 and outcome.move == Bid(1) and outcome.hand_number == 1
    assert outcome.bidding is None and outcome.trick is None and not outcome.hidden
    game.apply(1, Bid(0))
    game.apply(2, Bid(0))
    last = game.apply(3, Bid(0))
    assert last.bidding is not None
    assert last.bidding.bids == (1, 0, 0, 0)
    assert (last.bidding.total, last.bidding.tricks, last.bidding.over_under) == (1, 2, "under")
    assert game.phase is Phase.PLAYING


def test_plays_tell_the_trick_its_winner_the_scored_hand_and_the_next_deal() -> None:
    game = two_card_game([2, 1])
    for seat, bid in enumerate((1, 0, 0, 0)):
        game.apply(seat, Bid(bid))
    first = game.apply(0, Play(Card.parse("AH")))
    assert first.trick_number == 1 and first.trick is None
    game.apply(1, Play(Card.parse("KH")))
    game.apply(2, Play(Card.parse("QH")))
    won = game.apply(3, Play(Card.parse("JH")))
    assert won.trick is not None
    assert won.trick.winner == 0 and won.trick.trick_number == 1
    assert [card.code for _, card in won.trick.cards] == ["AH", "KH", "QH", "JH"]
    assert won.scored is None and won.next_hand is None
    for seat, code in ((0, "2S"), (1, "3S"), (2, "4S")):
        game.apply(seat, Play(Card.parse(code)))
    last = game.apply(3, Play(Card.parse("5S")))
    assert last.trick is not None and last.trick.winner == 3 and last.trick.trick_number == 2
    assert last.scored is not None
    assert last.scored.hand_number == 1 and last.scored.tricks == (1, 0, 0, 1)
    assert last.scored.made == (True, True, True, False)
    assert last.next_hand is not None
    assert last.next_hand.hand_number == 2 and last.next_hand.hand_size == 1
    assert last.next_hand.dealer == 0 and last.next_hand.phase is Phase.BIDDING
    assert last.next_hand.trump_card == game.trump_card
    assert not last.game_over


def test_the_last_trick_of_the_game_names_the_winners() -> None:
    game = Game.new(3, rules_with(hand_sizes=[1]), seed=4, dealer=0)
    outcome = None
    while game.phase is not Phase.GAME_OVER:
        seat = game.turn
        assert seat is not None
        if game.phase is Phase.BIDDING:
            outcome = game.apply(seat, Bid(game.legal_bids()[0]))
        else:
            outcome = game.apply(seat, Play(game.legal_cards()[0]))
    assert outcome is not None and outcome.game_over
    assert outcome.winners == tuple(game.winners)
    assert outcome.scored is not None and outcome.next_hand is None


def test_naming_trump_and_discarding_and_hidden_bids() -> None:
    game = Game.new(4, Rules.preset("dealer_picks"), seed=2, dealer=1)
    assert game.phase is Phase.TRUMP_CHOICE and game.phase.awaits is NameTrump
    named = game.apply(1, NameTrump(Suit.SPADES))
    assert named.trump_named is Suit.SPADES and game.trump_suit is Suit.SPADES

    ouch = Game.new(4, Rules.preset("ouch"), seed=2, dealer=0)
    assert ouch.phase is Phase.DISCARD and ouch.phase.awaits is Discard
    held = ouch.hand_of(1)
    discarded = ouch.apply(1, Discard((held[0], held[1])))
    assert discarded.hidden and discarded.move == Discard((held[0], held[1]))

    secret = Game.new(4, rules_with(bidding="simultaneous", hook=False), seed=2, dealer=0)
    bid = secret.apply(2, Bid(1))
    assert bid.hidden


def test_the_extra_card_deal_is_told() -> None:
    game = Game.new(4, rules_with("extra_card", hand_sizes=[3]), seed=5, dealer=3)
    for seat in range(3):
        game.apply(seat, Bid(1))
    outcome = game.apply(3, Bid(0))  # the hook bid: the bids add up to the tricks
    assert outcome.extra_card and game.tricks_in_hand == 4
    assert outcome.bidding is not None and outcome.bidding.tricks == 4


def test_a_refused_move_changes_nothing_and_names_the_rule() -> None:
    game = two_card_game([2])
    before = game.to_json()
    with pytest.raises(IllegalAction, match="not time to play"):
        game.apply(0, Play(Card.parse("AH")))
    with pytest.raises(IllegalAction, match="not being chosen"):
        game.apply(0, NameTrump(Suit.HEARTS))
    with pytest.raises(IllegalAction, match="declared"):
        game.apply(0, Play(Card.parse("AH"), Declaration(Suit.HEARTS, True)))
    with pytest.raises(IllegalAction, match="not a move"):
        game.apply(0, 3)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_phases_name_the_move_they_await() -> None:
    assert Phase.BIDDING.awaits is Bid and Phase.SIMULTANEOUS_BIDDING.awaits is Bid
    assert Phase.PLAYING.awaits is Play and Phase.GAME_OVER.awaits is None
    assert Phase.DISCARD.simultaneous and not Phase.PLAYING.simultaneous


moves = st.one_of(
    st.builds(Bid, st.integers(0, 20)),
    st.builds(
        Play,
        st.sampled_from([Card.parse(code) for code in ("AS", "10H", "2C", "QD")]),
        st.one_of(st.none(), st.builds(Declaration, st.one_of(st.none(), st.sampled_from(Suit)),
                                       st.one_of(st.none(), st.booleans()))),
    ),
    st.builds(NameTrump, st.sampled_from(Suit)),
    st.builds(Discard, st.lists(st.sampled_from([Card.parse("3C"), Card.parse("KH")]),
                                min_size=1, max_size=2, unique=True).map(tuple)),
)


@settings(max_examples=200)
@given(moves)
def test_every_move_round_trips_through_its_payload_and_its_code(move: object) -> None:
    assert move_from_payload(move.payload()) == move  # type: ignore[attr-defined]
    code = move.code()  # type: ignore[attr-defined]
    assert len(code) <= 20
    assert move_from_code(code) == move


@pytest.mark.parametrize("payload", [{}, {"bid": "2"}, {"bid": True}, {"card": 3}, {"suit": "X"},
                                     {"cards": None}, [], None, {"card": "AS", "declare": "Zz"}])
def test_unreadable_payloads_are_refused_as_value_errors(payload: object) -> None:
    with pytest.raises(ValueError):
        move_from_payload(payload)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", ["", "b", "bx", "pZZ", "tX", "d", "x1", "b-1"])
def test_unreadable_codes_are_refused_as_value_errors(code: str) -> None:
    with pytest.raises(ValueError):
        move_from_code(code)
