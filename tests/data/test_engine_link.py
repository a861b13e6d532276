"""The store with the real engine: snapshots that resume, damaged ones set aside, and
FinishedGame.from_engine on a whole game."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from data import Action, FinishedGame, Seat, Store, TableRecord, TableStatus
from engine import Game, Phase, Rules


def play_out(game: Game, rng: random.Random, stop_after: int | None = None) -> Game:
    """Random legal moves until the game is over (or stop_after moves)."""
    moves = 0
    while game.phase is not Phase.GAME_OVER and (stop_after is None or moves < stop_after):
        if game.phase is Phase.BIDDING:
            seat = game.actor_seats()[0]
            game.bid(seat, rng.choice(game.view(seat).legal_bids))
        else:
            assert game.phase is Phase.PLAYING
            seat = game.turn
            assert seat is not None
            game.play(seat, rng.choice(game.legal_cards()))
        moves += 1
    return game


SEATS = (
    Seat("Ann", user_id=11),
    Seat("Bob", user_id=12),
    Seat("Computer", computer_level="hard"),
    Seat("Dee", user_id=14),
)


async def playing_table(
    store: Store, channel_id: int, game: Game, rules: Rules
) -> TableRecord:
    table = await store.create_table(
        guild_id=1,
        channel_id=channel_id,
        host_id=11,
        rules_json=rules.model_dump_json(),
        seats=SEATS,
    )
    playing = replace(table, status=TableStatus.PLAYING, snapshot_json=game.to_json())
    await store.save_table(playing, Action("deal"))
    return replace(playing, saves=playing.saves + 1)


async def test_the_default_loader_uses_the_engine(store: Store) -> None:
    rules = Rules.preset("classic")
    good_game = play_out(Game.new(players=4, rules=rules, seed=1, dealer=0), random.Random(1), 9)
    good = await playing_table(store, 1, good_game, rules)

    cut = await playing_table(store, 2, good_game, rules)
    await store.save_table(replace(cut, snapshot_json=good_game.to_json()[:-40]), Action("bid"))

    future_rules = json.loads(rules.model_dump_json()) | {"scoring": "quantum"}
    unknown = await playing_table(store, 3, good_game, rules)
    await store.save_table(replace(unknown, rules_json=json.dumps(future_rules)), Action("bid"))

    snapshot = json.loads(good_game.to_json())
    snapshot["rules"]["wormholes"] = True
    unknown_in_snapshot = await playing_table(store, 4, good_game, rules)
    await store.save_table(
        replace(unknown_in_snapshot, snapshot_json=json.dumps(snapshot)), Action("bid")
    )

    lobby = await store.create_table(
        guild_id=1, channel_id=5, host_id=11, rules_json=rules.model_dump_json(), seats=SEATS
    )

    loaded = await store.load_active_tables()

    assert [t.id for t in loaded.ok] == [good.id, lobby.id]
    assert {b.table.id for b in loaded.broken} == {cut.id, unknown.id, unknown_in_snapshot.id}
    reasons = {b.table.id: b.reason for b in loaded.broken}
    assert "scoring" in reasons[unknown.id]
    assert "wormholes" in reasons[unknown_in_snapshot.id]
    resumed = Game.from_json(loaded.ok[0].snapshot_json or "")
    assert resumed.to_json() == good_game.to_json()


async def test_from_engine_keeps_the_whole_scoresheet(store: Store) -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [3, 2, 1, 2]})
    game = play_out(Game.new(players=4, rules=rules, seed=7, dealer=0), random.Random(7))
    result = FinishedGame.from_engine(game, rules, SEATS)

    assert result.preset == "classic"
    assert Rules.model_validate_json(result.rules_json) == rules
    assert [s.total for s in result.seats] == list(game.scores)
    assert [s.seat for s in result.seats if s.winner] == list(game.winners)
    assert result.seats[2].user_id is None and result.seats[2].computer_level == "hard"
    for seat in result.seats:
        ahead = [o for o in result.seats if o.total > seat.total]
        assert seat.placing == (1 if seat.winner else 1 + len(ahead))
    assert len(result.hands) == len(game.scoresheet) == 4
    for row, record in zip(result.hands, game.scoresheet, strict=True):
        assert (row.bids, row.tricks, row.points, row.totals) == (
            record.bids, record.tricks, record.points, record.totals
        )
        assert row.trump_card == (record.trump_card.code if record.trump_card else None)

    table = await playing_table(store, 9, game, rules)
    recorded = await store.finish_game(table, result, Action("play"))
    assert await store.get_game(recorded.game_id) == result
    assert {c.user_id for c in recorded.rating_changes} == {11, 12, 14}
    stats = await store.player_stats(1, 11)
    assert stats is not None and stats.games == 1
    assert stats.bid_accuracy == sum(
        r.bids[0] == r.tricks[0] for r in game.scoresheet
    ) / len(game.scoresheet)


def test_tied_winners_share_first_place() -> None:
    class Over:
        scores = (30, 50, 50, 10)
        winners = (1, 2)
        scoresheet = ()

    result = FinishedGame.from_engine(Over(), Rules.preset("classic"), SEATS)  # type: ignore[arg-type]
    assert [s.placing for s in result.seats] == [3, 1, 1, 4]
    assert [s.winner for s in result.seats] == [False, True, True, False]
