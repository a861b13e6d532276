"""The hard player remembers how each opponent played the game's earlier hands (their play is
public: the scoresheet keeps it) and starts each hand expecting the same kind of play."""

from __future__ import annotations

import random
from dataclasses import replace

from engine import Game, Phase, PlayerView, Rules
from engine.ai import create_player
from engine.ai.hard import HardPlayer
from engine.ai.history import kind_priors
from engine.ai.knowledge import read_view
from engine.ai.sim import GREEDY, MEDIUM

from .plain_opponents import weigh
from .test_opponent_model import _plain_rule_player

MEDIUM_KIND, EASY_KIND, GREEDY_KIND, OTHER_KIND = range(4)  # positions in opponents.KINDS


def _game(seed: int, hands: int, players: dict[int, str],
          then: tuple[int, dict[int, str]] = (0, {})) -> list[PlayerView]:
    """A 4-player game of `hands` 7-card hands; seat -> "greedy" (a plain rule player written
    apart from the engine), or a level; `then`: from that hand on, these seats change players.
    Returns seat 0's view as each hand's bidding opens."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7] * hands})
    game = Game.new(4, rules, seed=seed, dealer=3)
    bots = {seat: create_player(level, seed=seed + seat) for seat, level in players.items()
            if level != "greedy"}
    openings = []
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.BIDDING and all(bid is None for bid in game.bids):
            openings.append(game.view(0))
            if len(openings) == then[0]:
                for seat, level in then[1].items():
                    bots.pop(seat, None)
                    if level != "greedy":
                        bots[seat] = create_player(level, seed=seed + seat)
        seat = game.actor_seats()[0]
        view = game.view(seat)
        bot = bots.get(seat)
        game.apply(seat, bot.choose_move(view) if bot else _plain_rule_player(view))
    return openings


def _likeliest(prior: tuple[float, ...]) -> int:
    return max(range(len(prior)), key=lambda kind: prior[kind])


def test_two_hands_tell_each_opponent_how_it_plays() -> None:
    for seed in range(4):
        first, _, third = _game(seed, 3, {0: "medium", 1: "greedy", 2: "easy", 3: "medium"})
        assert kind_priors(first) == {}  # nothing to go on at the first hand
        priors = kind_priors(third)
        assert sorted(priors) == [1, 2, 3]
        assert _likeliest(priors[1]) == GREEDY_KIND and priors[1][GREEDY_KIND] > 0.8, seed
        assert _likeliest(priors[2]) == EASY_KIND and priors[2][EASY_KIND] > 0.8, seed
        assert _likeliest(priors[3]) == MEDIUM_KIND and priors[3][MEDIUM_KIND] > 0.8, seed
        assert all(min(prior) > 0.0 for prior in priors.values())  # nothing is ruled out


def test_a_player_who_follows_no_rule_reads_as_other() -> None:
    *_, last = _game(5, 4, {0: "medium", 1: "random", 2: "medium", 3: "greedy"})
    priors = kind_priors(last)
    assert _likeliest(priors[1]) == OTHER_KIND and priors[1][OTHER_KIND] > 0.8


def test_a_seat_that_changes_players_is_read_anew() -> None:
    """A computer may take over a seat mid-game: no kind is ever ruled out, so a hand or two of
    the new player's play outweigh three of the one before."""
    for seed in range(4):
        *_, last = _game(seed, 6, {0: "medium", 1: "greedy", 2: "easy", 3: "medium"},
                         then=(4, {1: "medium"}))
        read = {hands: kind_priors(replace(last, scoresheet=last.scoresheet[:hands]))[1]
                for hands in (3, 4, 5)}
        assert _likeliest(read[3]) == GREEDY_KIND
        assert read[4][GREEDY_KIND] < 0.1  # one hand by the new player
        assert _likeliest(read[5]) == MEDIUM_KIND, seed


def test_hands_whose_play_was_not_kept_tell_nothing() -> None:
    """A game resumed from a snapshot older than this memory has records without their play."""
    *_, last = _game(1, 3, {0: "medium", 1: "greedy", 2: "easy", 3: "medium"})
    forgotten = tuple(replace(record, leaders=(), plays=()) for record in last.scoresheet)
    assert kind_priors(replace(last, scoresheet=forgotten)) == {}
    assert kind_priors(replace(last, scoresheet=forgotten[:1] + last.scoresheet[1:])) == \
        kind_priors(replace(last, scoresheet=last.scoresheet[1:]))


def test_hard_opens_a_hand_expecting_the_play_it_has_seen() -> None:
    """Before anyone has bid, the hand itself says nothing of the opponents: the kinds hard
    simulates them as come from the earlier hands (and, without that memory, are all medium)."""
    *_, last = _game(2, 3, {0: "medium", 1: "greedy", 2: "greedy", 3: "greedy"})
    assert all(bid is None for bid in last.bids)
    knowledge = read_view(last)
    drawn: dict[bool, list[int]] = {}
    for remember in (True, False):
        player = HardPlayer(seed=3, iterations=10, history=int(remember))
        model = player._model(last, knowledge)
        rng = random.Random(4)
        kinds = [weigh(model, [0, 0, 0, 0], rng)[1] for _ in range(200)]
        drawn[remember] = [drawn_kinds[seat] for drawn_kinds in kinds for seat in (1, 2, 3)]
    assert drawn[True].count(GREEDY) > 0.8 * len(drawn[True])
    assert set(drawn[False]) == {MEDIUM}
