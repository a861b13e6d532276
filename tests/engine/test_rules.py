"""Rules and presets: every preset deals the sequence its source describes, and impossible
rule sets are refused in words."""

import pytest

from engine import Game, Rules
from engine.rules import PRESETS


def sizes(preset: str, players: int) -> list[int]:
    return Rules.preset(preset).plan(players)


def down_up(most: int) -> list[int]:
    return list(range(most, 0, -1)) + list(range(2, most + 1))


def up_down(most: int) -> list[int]:
    return list(range(1, most + 1)) + list(range(most - 1, 0, -1))


@pytest.mark.parametrize(("players", "most"), [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_classic_down_and_up(players: int, most: int) -> None:
    assert sizes("classic", players) == down_up(most)
    assert sizes("pagat", players) == down_up(most)
    assert sizes("la_podrida", players) == down_up(most)


def test_classic_four_players_is_nineteen_hands_and_seven_players_seven_down() -> None:
    assert len(sizes("classic", 4)) == 19
    assert sizes("classic", 7) == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_vanikar_one_up_to_seven_and_back(players: int) -> None:
    assert sizes("vanikar", players) == up_down(7)
    assert len(sizes("vanikar", players)) == 13


def test_vanikar_larger_hands_are_capped_by_the_pack() -> None:
    rules = Rules.preset("vanikar").model_copy(update={"max_hand": 10})
    assert max(rules.plan(5)) == 10
    assert max(rules.plan(6)) == 8
    assert max(rules.plan(7)) == 7


@pytest.mark.parametrize(("players", "hands"), [(3, 15), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_ascending_hand_counts_from_004(players: int, hands: int) -> None:
    assert sizes("ascending", players) == list(range(1, hands + 1))
    assert sizes("oh_pshaw", players) == list(range(1, hands + 1))


def test_ascending_allows_eight_players() -> None:
    assert sizes("ascending", 8) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("players", "cards"), [(3, 17), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_oh_well_fixed_hands_after_removing_cards(players: int, cards: int) -> None:
    assert sizes("oh_well", players) == [cards]
    game = Game.new(players, Rules.preset("oh_well"), seed=3, dealer=0)
    assert all(len(game.hand_of(seat)) == cards for seat in range(players))
    assert game.trump_card in game.hand_of(0)  # the dealer's own last card is turned
    assert game.hand_count is None  # played to 100 points


def test_nomination_whist_seven_down_to_one_and_back() -> None:
    assert sizes("nomination_whist", 4) == down_up(7)
    assert len(sizes("nomination_whist", 4)) == 13


@pytest.mark.parametrize(("players", "most"), [(4, 10), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_up_and_down_the_river(players: int, most: int) -> None:
    assert sizes("up_and_down_river", players) == down_up(most)


def test_up_and_down_the_river_needs_four() -> None:
    assert "4 to 8 players" in (Rules.preset("up_and_down_river").problem(3) or "")


def test_british_ascends_to_the_whole_pack() -> None:
    assert sizes("british", 4) == list(range(1, 14))
    assert sizes("british", 3)[-1] == 17


@pytest.mark.parametrize(("players", "cards"), [(4, 12), (5, 10), (6, 8), (7, 7)])
def test_ouch_fixed_hands_leave_a_card_after_the_turn(players: int, cards: int) -> None:
    assert sizes("ouch", players) == [cards] * 10


STANDARD_PRESETS = {
    "classic", "vanikar", "ascending", "oh_well", "nomination_whist", "up_and_down_river",
    "oh_pshaw", "british", "pagat", "kachuful", "la_podrida", "dealer_picks", "extra_card", "ouch",
}
SPECIAL_PRESETS = {
    "joker_high", "joker_dup", "love_that_joker", "blackout_jokers", "super_screw",
    "wizard_lite", "wizard", "quick",
}


def test_every_preset_named_in_rules_md_section_4() -> None:
    assert set(PRESETS) == STANDARD_PRESETS | SPECIAL_PRESETS
    assert set(Rules.preset_names()) == STANDARD_PRESETS
    assert set(Rules.preset_names(special_cards=True)) == set(PRESETS)
    for name in PRESETS:
        rules = Rules.preset(name)
        assert rules.describe(rules.min_players)


def test_unknown_preset_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="no preset called 'nope'.*classic"):
        Rules.preset("nope")


def test_eleven_cards_for_five_players_is_refused_with_the_reason() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [11]})
    with pytest.raises(ValueError, match="11 cards each for 5 players needs 55 cards"):
        Game.new(5, rules, seed=1)


def test_rules_are_frozen_and_validated() -> None:
    rules = Rules.preset("classic")
    with pytest.raises(ValueError):
        rules.hook = False  # type: ignore[misc]
    with pytest.raises(ValueError, match="Trump by rotation needs a list"):
        Rules(trump_choice="rotation")
    with pytest.raises(ValueError):
        Rules(scoring="nonsense")  # type: ignore[arg-type]


def test_too_many_players_for_a_preset() -> None:
    with pytest.raises(ValueError, match="3 to 7 players, not 8"):
        Game.new(8, Rules.preset("classic"), seed=1)


def test_explicit_hand_sizes_override_the_sequence() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7]})
    game = Game.new(4, rules, seed=1, dealer=0)
    assert game.hand_size == 7 and game.hand_count == 1


def test_thirteen_cards_each_leaves_no_trump() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [13]})
    game = Game.new(4, rules, seed=1, dealer=0)
    assert game.trump_card is None and game.trump_suit is None
