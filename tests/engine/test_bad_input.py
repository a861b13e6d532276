"""Bad input is a clear refusal: cards and suits of the wrong type, rules out of bounds, snapshots
that are broken or could not have come from play. Never a stray exception."""

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Card, Game, Phase, Rules, Suit


@pytest.mark.parametrize("wrong", [None, 3, 2.5, b"AS", ["AS"], {"card": "AS"}, object()])
def test_cards_and_suits_of_the_wrong_type_are_refused_in_words(wrong: object) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is not a suit"):
        Suit.parse(wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("update", "words"),
    [
        ({"hand_sizes": [10] * 101}, "at most 100 hands"),
        ({"hand_sizes": [61]}, "at most 60"),
        ({"hand_count": 0}, "1 to 100 hands"),
        ({"max_hand": 0}, "largest hand is 1 to 60"),
        ({"removed_cards": {4: -1}}, "Cards removed from the pack: 0 or more"),
        ({"discards": 11}, "Discards: 0 to 10"),
        ({"blind_multiplier": 0}, "blind multiplier"),
        ({"target_score": 0}, "target"),
    ],
)
def test_rules_bound_every_number(update: dict[str, Any], words: str) -> None:
    rules = Rules.preset("classic").model_copy(update=update)  # skips pydantic's own checks
    problem = rules.problem(4)
    assert problem is not None and words in problem
    with pytest.raises(ValueError, match=words):
        Game.new(4, rules, seed=1)
    with pytest.raises(ValueError):
        Rules.model_validate({**Rules.preset("classic").model_dump(), **update})


def _snapshot_mid_hand(seed: int) -> dict[str, Any]:
    game = Game.new(4, Rules.preset("classic").model_copy(update={"hand_sizes": [5, 4]}),
                    seed=seed, dealer=0)
    draw = random.Random(seed)
    for _ in range(draw.randrange(0, 24)):
        seat = game.turn
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, draw.choice(game.legal_bids()))
        else:
            game.play(seat, draw.choice(game.legal_cards()))
    return json.loads(game.to_json())  # type: ignore[no-any-return]


def _play_to_the_end(game: Game) -> None:
    """A restored game must be playable: every legal move works until the game is over."""
    for _ in range(5_000):
        if game.phase is Phase.GAME_OVER:
            return
        seat = game.actor_seats()[0]
        if game.phase.bidding:
            game.bid(seat, game.legal_bids()[0])
        else:
            game.play(seat, game.legal_cards()[0])
    raise AssertionError("the restored game never ended")


WEIRD = st.sampled_from(
    [None, -1, 0, 1, 7, 10**12, 1e308, True, "x", "AS", [], [0], {}, [[0, "AS"]], {"a": 1}]
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 50), st.data())
def test_a_damaged_snapshot_raises_only_value_error(seed: int, data: st.DataObject) -> None:
    snapshot = _snapshot_mid_hand(seed)
    key = data.draw(st.sampled_from(sorted(snapshot)))
    snapshot[key] = data.draw(WEIRD)
    try:
        game = Game.from_json(json.dumps(snapshot))
    except ValueError:
        return
    _play_to_the_end(game)  # accepted: then it is sound enough to finish


@pytest.mark.parametrize(
    "text",
    ["", "[]", "null", "{}", "[" * 100_000 + "]" * 100_000, '{"version": 1, "players": 0}'],
)
def test_text_that_is_no_snapshot_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        Game.from_json(text)


def test_a_card_in_two_places_is_refused() -> None:
    snapshot = _snapshot_mid_hand(3)
    snapshot["hands"][1] = [*snapshot["hands"][1][:-1], snapshot["hands"][0][0]]
    with pytest.raises(ValueError, match="a card is in two places"):
        Game.from_json(json.dumps(snapshot))


def test_hands_that_disagree_with_the_phase_are_refused() -> None:
    snapshot = _snapshot_mid_hand(4)
    snapshot["stock"].append(snapshot["hands"][2].pop())
    with pytest.raises(ValueError, match="seat 2 holds"):
        Game.from_json(json.dumps(snapshot))


def test_seat_numbers_out_of_range_are_refused() -> None:
    snapshot = _snapshot_mid_hand(5)
    snapshot["dealer"] = 4
    with pytest.raises(ValueError, match="seat number out of range"):
        Game.from_json(json.dumps(snapshot))


def test_a_missing_card_is_refused() -> None:
    snapshot = _snapshot_mid_hand(6)
    snapshot["stock"].pop()
    with pytest.raises(ValueError, match="missing from the pack"):
        Game.from_json(json.dumps(snapshot))


def test_a_bid_made_before_a_lost_card_still_restores() -> None:
    """super_screw: bids that add up cost everyone a card, so a bid of every trick is then
    above the tricks left; the snapshot is still sound."""
    rules = Rules.preset("super_screw").model_copy(update={"hand_sizes": [3, 3]})
    game = Game.new(4, rules, seed=2, dealer=3)
    for seat, bid in enumerate((3, 0, 0, 0)):
        game.bid(seat, bid)
    assert game.tricks_in_hand == 2 and game.bids[0] == 3
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
