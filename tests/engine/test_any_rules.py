"""Property tests over custom rules: any rules `Rules` accepts, at any table size they can be
dealt to, with hand sizes drawn broadly rather than each preset's own (docs/rules.md)."""

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine import Game, Outcome, Phase, Play, Rules
from engine.scoring import exact_bid_winners

PRESETS = Rules.preset_names(special_cards=True)

OVERRIDES: dict[str, st.SearchStrategy[Any]] = {
    "special_cards": st.sampled_from(
        ["none", "joker_high", "joker_dup", "love_that_joker", "blackout_jokers",
         "super_screw", "wizard"]),
    "hook": st.booleans(),
    "bidding": st.sampled_from(["sequential", "simultaneous"]),
    "card_loss": st.sampled_from(["none", "random", "choice"]),
    "bid_before_trump": st.booleans(),
    "must_trump": st.booleans(),
    "trump_lead": st.sampled_from(["anytime", "after_broken"]),
    "tiebreak": st.sampled_from(["share", "extra_hands"]),
    "blind_hand": st.integers(1, 3),
    "reserve_cards": st.integers(0, 2),
}


@st.composite
def tables(
    draw: st.DrawFn, exact_bid: bool = False, special_cards: str | None = None
) -> tuple[Rules, int]:
    """Accepted rules and a table size: a preset with some of its fields changed (small hands
    as often as large ones: they are where a hand of only special cards happens)."""
    fields = Rules.preset(draw(st.sampled_from(PRESETS))).model_dump()
    players = draw(st.integers(3, 8))
    update: dict[str, Any] = {
        "name": "custom",
        "min_players": min(fields["min_players"], players),
        "max_players": max(fields["max_players"], players),
        "hand_sizes": draw(st.one_of(
            st.none(),
            st.lists(st.one_of(st.integers(1, 3), st.integers(1, 12)), min_size=1, max_size=3),
        )),
    }
    for field in draw(st.sets(st.sampled_from(sorted(OVERRIDES)), max_size=3)):
        update[field] = draw(OVERRIDES[field])
    if special_cards is not None:
        update["special_cards"] = special_cards
    if exact_bid:
        update |= {"winner_rule": "exact_bid", "game_end": "sequence"}
        if update["hand_sizes"] is None:
            update |= {"hand_sequence": "random", "hand_count": None}
        else:
            update["hand_sizes"] = update["hand_sizes"][:1]
    try:
        rules = Rules.model_validate({**fields, **update})
    except ValidationError:
        assume(False)
        raise  # not reached: assume(False) ends the example
    assume(rules.problem(players) is None)
    return rules, players


def awaited_moves_exist(game: Game) -> None:
    """Every seat the game waits on has a move it may make."""
    seats = game.actor_seats()
    assert seats, f"nobody is awaited in {game.phase.value}"
    phase = game.phase
    for seat in seats:
        if phase is Phase.PLAYING:
            assert game.legal_cards(seat), f"seat {seat} holds {game.hand_of(seat)}, none legal"
        elif phase.bidding:
            assert game.legal_bids(seat)
        elif phase is Phase.TRUMP_CHOICE:
            assert game.legal_trumps()
        else:
            assert 0 < game.discards_needed(seat) <= len(game.hand_of(seat))


def act_randomly(game: Game, rng: random.Random) -> Outcome:
    """One legal move, drawn at random, through `apply`: it must be accepted."""
    phase = game.phase
    seat = rng.choice(game.actor_seats())
    if phase is Phase.PLAYING:
        card = rng.choice(game.legal_cards(seat))
        declarations = game.legal_declarations(card, seat)
        return game.apply(seat, Play(card, rng.choice(declarations) if declarations else None))
    view = game.view(seat)
    if phase.bidding:
        return game.apply(seat, phase.awaits(rng.choice(view.legal_bids)))  # type: ignore[call-arg, misc]
    if phase is Phase.TRUMP_CHOICE:
        return game.apply(seat, phase.awaits(rng.choice(view.legal_trumps)))  # type: ignore[call-arg, misc]
    chosen = tuple(rng.sample(list(view.hand), view.discards_needed))
    return game.apply(seat, phase.awaits(chosen))  # type: ignore[call-arg, misc]


def play_out_checking_moves(rules: Rules, players: int, seed: int, choices: int) -> None:
    """Random legal play to the end, checking before each move that one is possible."""
    game = Game.new(players, rules, seed=seed)
    rng = random.Random(choices)
    while game.phase is not Phase.GAME_OVER:
        awaited_moves_exist(game)
        act_randomly(game, rng)
    assert game.actor_seats() == [] and game.legal_cards() == []


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=tables(), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_play_under_any_accepted_rules_always_has_a_legal_move(
    table: tuple[Rules, int], seed: int, choices: int
) -> None:
    play_out_checking_moves(*table, seed, choices)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=tables(special_cards="blackout_jokers"), seed=st.integers(0, 2**32),
       choices=st.integers(0, 2**32))
def test_blackout_jokers_under_any_accepted_rules_always_has_a_legal_move(
    table: tuple[Rules, int], seed: int, choices: int
) -> None:
    """A hand of nothing but jokers on a first trick (1-card hands, say) still has a card."""
    play_out_checking_moves(*table, seed, choices)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(table=tables(exact_bid=True), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_an_exact_bid_game_ends_after_its_hand_with_its_winners_and_no_scoresheet(
    table: tuple[Rules, int], seed: int, choices: int
) -> None:
    rules, players = table
    game = Game.new(players, rules, seed=seed)
    assert game.hand_count == 1
    rng = random.Random(choices)
    outcome = None
    while game.phase is not Phase.GAME_OVER:
        outcome = act_randomly(game, rng)
        assert outcome.scored is None and game.scoresheet == []
    assert outcome is not None and outcome.winners == tuple(game.winners)
    assert game.hand_number == 1 and outcome.next_hand is None
    bids = [bid if bid is not None else 0 for bid in game.bids]
    assert game.winners == exact_bid_winners(bids, game.tricks_won)
    assert game.scores == [0] * players
    assert game.view(0).scoresheet == () and game.public_state().scoresheet == ()
    restored = Game.from_json(game.to_json())
    assert restored.winners == game.winners and restored.scoresheet == []


def test_exact_bid_rules_are_one_hand() -> None:
    quick = Rules.preset("quick").model_dump()
    for update in ({"hand_sizes": [3, 2]}, {"game_end": "target"},
                   {"hand_sequence": "down_up", "hand_count": None}):
        try:
            Rules.model_validate({**quick, **update})
        except ValidationError as error:
            assert "single hand" in str(error)
        else:
            raise AssertionError(f"exact-bid rules with {update} were accepted")


def test_a_random_hand_size_leaves_a_card_after_the_discards() -> None:
    """A one-hand game of random size whose players discard two is dealt at least three cards
    each, so the discards always leave a hand to play (hypothesis found a 1-card deal)."""
    rules = Rules.preset("ouch").model_copy(update={
        "hand_sequence": "random", "max_hand": None, "winner_rule": "exact_bid",
        "game_end": "sequence", "hand_count": None, "deals_per_seat": None, "hand_sizes": None})
    assert rules.discards == 2
    for seed in range(200):
        game = Game.new(3, rules, seed=seed)
        assert game.phase is Phase.DISCARD
        assert all(len(game.view(seat).hand) > 2 for seat in range(3))
