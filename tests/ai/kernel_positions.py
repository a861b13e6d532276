"""Real positions for the kernel tests: games played by engine players and rule-based ones,
stopped at a decision of seat 0, with the opponent model hard would build there."""

from __future__ import annotations

import random

from engine import Game, Phase, PlayerView, Rules
from engine.ai import create_player
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.opponents import KIND_PRIOR, Likelihoods, OpponentModel

from .test_opponent_model import _plain_rule_player


def random_position(seed: int) -> tuple[PlayerView, Knowledge]:
    """Seat 0's view somewhere in a hand of random size, table and rules (bidding or playing)."""
    rng = random.Random(seed)
    players = rng.randrange(3, 6)
    size = rng.randrange(2, min(10, 51 // players) + 1)
    rules = Rules.preset("classic").model_copy(update={
        "hand_sizes": [size],
        "must_trump": rng.random() < 0.3,
        "trump_lead": rng.choice(("anytime", "after_broken")),
        "scoring": rng.choice(("common", "strict")),
        "hook": rng.random() < 0.7,
    })
    return _play_to(Game.new(players, rules, seed=seed, dealer=rng.randrange(players)),
                    rng.randrange(size), rng)


def late_position(seed: int, players: int, size: int, tricks: int) -> tuple[PlayerView, Knowledge]:
    """Seat 0's turn after `tricks` tricks: near a hand's end few cards are hidden."""
    rng = random.Random(seed)
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [size]})
    return _play_to(Game.new(players, rules, seed=seed, dealer=seed % players), tricks, rng)


def _play_to(game: Game, tricks: int, rng: random.Random) -> tuple[PlayerView, Knowledge]:
    medium = create_player("medium", seed=1)
    others = {seat: rng.choice(("rule", "easy", "medium")) for seat in range(game.players)}
    bots = {level: create_player(level, seed=2) for level in ("easy", "medium")}
    while game.phase is not Phase.GAME_OVER and (
        len(game.view(0).tricks_played) < tricks or game.turn != 0
    ):
        seat = game.actor_seats()[0]
        view = game.view(seat)
        if seat == 0:
            move = medium.choose_move(view)
        elif others[seat] == "rule":
            move = _plain_rule_player(view)
        else:
            move = bots[others[seat]].choose_move(view)
        game.apply(seat, move)
    view = game.view(0)
    return view, read_view(view)


def random_model(view: PlayerView, k: Knowledge, rng: random.Random) -> OpponentModel:
    """The model with random switches, and earlier hands' priors for some seats."""
    priors: dict[int, Likelihoods] = {}
    for seat in range(1, k.players):
        if rng.random() < 0.5:
            raw = [rng.random() + 0.01 for _ in KIND_PRIOR]
            total = sum(raw)
            priors[seat] = (raw[0] / total, raw[1] / total, raw[2] / total, raw[3] / total)
    return OpponentModel(view, k, enabled=rng.random() < 0.85, exact_bids=rng.random() < 0.5,
                         priors=priors or None)
