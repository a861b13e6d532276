"""The snapshot a game writes after each move reuses the text of what did not change (its rules,
its finished hands: engine/snapshot_text.py): it must be, byte for byte, the snapshot encoded
whole, or a replay's check against the stored snapshot (engine.snapshot.snapshots_match) and
a resume would see two games."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, Phase, Rules
from engine.snapshot import game_to_dict
from tests.engine.test_properties import TABLES, act_randomly


def encoded_whole(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32), cut=st.integers(0, 300))
def test_every_snapshot_of_a_game_is_the_whole_encoding(table: tuple[str, int], seed: int,
                                                        cut: int) -> None:
    """Move by move, and on after a restore at a random point (a resumed table), the snapshot
    is the one encoded whole."""
    name, players = table
    game = Game.new(players, Rules.preset(name), seed=seed)
    rng = random.Random(seed)
    step = 0
    while game.phase is not Phase.GAME_OVER:
        assert game.to_json() == encoded_whole(game)
        if step == cut:
            game = Game.from_json(game.to_json())
        act_randomly(game, rng)
        step += 1
    assert game.to_json() == encoded_whole(game)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_a_game_given_other_rules_and_records_writes_them() -> None:
    """What is kept is matched by identity: a game whose rules or records are other objects
    (filled in again, as a restore does) writes the new ones, not the kept text."""
    game = Game.new(4, Rules.preset("classic"), seed=7)
    rng = random.Random(7)
    while not game.scoresheet:
        act_randomly(game, rng)
    game.to_json()  # kept: the rules and the first hand's record
    other = Game.new(4, Rules.preset("classic").model_copy(update={"name": "other"}), seed=8)
    while len(other.scoresheet) < 2:
        act_randomly(other, rng)
    game.rules, game._scoresheet = other.rules, other._scoresheet
    assert game.to_json() == encoded_whole(game)
    assert '"name":"other"' in game.to_json()
