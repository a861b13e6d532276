"""Finished games told again and exported: a whole game of every preset replayed as it was
played, an export read back by a reader that knows only docs/export.md, a game in play never
shown."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from bot import archive
from bot.errors import TableError
from bot.models import TableOptions
from bot.service import TableService
from data import Store
from engine import Game, Rules
from tests.bot.conftest import CHANNEL, GUILD, HOST
from tests.bot.helpers import any_move, is_open


async def play_game(service: TableService, preset: str, *, stop: int | None = None,
                    channel: int = CHANNEL) -> int:
    """A game with the host and computers, played to its end (or `stop` host moves); the
    table id."""
    rules = Rules.preset(preset)
    options = TableOptions(preset=preset, computers=max(3, rules.min_players) - 1, seed=26,
                           max_cards=3, computer_level="random")
    tid = (await service.open_table(GUILD, channel, HOST, "Host", options)).table_id
    await service.deal(tid, HOST)
    for step in range(2000 if stop is None else stop):
        await service.wait_idle()
        if not is_open(service, tid):
            break
        await any_move(service, tid, HOST, seed=step)
    await service.wait_idle()
    return tid


def read_points(rules: dict[str, Any], bid: int, took: int, tricks: int, blind: bool) -> int:
    """Points for one hand, exactly as docs/export.md's scoring section says."""
    scheme = rules["scoring"]
    if rules["winner_rule"] == "exact_bid":  # no scoresheet: the exact bid wins
        return 0
    if took == bid:
        if bid == 0 and rules["zero_bid"] != "standard":
            points = {"five_plus_hand": 5 + tricks, "five": 5, "ten": 10}[rules["zero_bid"]]
        else:
            points = {"common": 10 + took, "strict": 10 + bid, "penalty": 10 + took,
                      "bonus_only": 10, "wizard": 20 + 10 * took}[scheme]
        return points * rules["blind_multiplier"] if blind else points
    miss = abs(bid - took)
    return {"common": took, "strict": 0, "penalty": -miss, "bonus_only": 0,
            "wizard": -10 * miss}[scheme]


def check_export(document: dict[str, Any]) -> None:
    """Read an export knowing only docs/export.md: the deal, bids and tricks hang together and
    every score follows from the rules."""
    assert document["format"] == "ohhell-game" and document["version"] == 1
    players = len(document["players"])
    totals = [0] * players
    for hand in document["hands"]:
        assert len(hand["dealt"]) == players
        assert all(len(cards) == hand["cards_dealt"] for cards in hand["dealt"])
        held = hand["in_play"] or hand["dealt"]
        assert all(len(cards) == hand["tricks"] for cards in held)
        played = [[c["card"] for t in hand["play"] for c in t["cards"] if c["seat"] == seat]
                  for seat in range(players)]
        for seat in range(players):
            assert sorted(played[seat]) == sorted(held[seat])
        assert sorted(b["seat"] for b in hand["bids"]) == list(range(players))
        assert len(hand["play"]) == hand["tricks"]
        for this, following in zip(hand["play"], hand["play"][1:], strict=False):
            assert following["leader"] == this["winner"]
        taken = [sum(t["winner"] == seat for t in hand["play"]) for seat in range(players)]
        bids = {b["seat"]: b["bid"] for b in hand["bids"]}
        for score in hand["scores"]:
            seat = score["seat"]
            assert score["bid"] == bids[seat] and score["tricks"] == taken[seat]
            assert score["made"] == (taken[seat] == bids[seat])
            points = read_points(document["rules"], bids[seat], taken[seat], hand["tricks"],
                                 hand["blind"])
            assert score["points"] == points
            totals[seat] += points
            assert score["total"] == totals[seat]
    assert [p["total"] for p in document["players"]] == totals


@pytest.mark.parametrize("preset", Rules.preset_names(special_cards=True))
async def test_every_preset_is_told_again_as_played_and_exported(
    preset: str, service: TableService, store: Store
) -> None:
    tid = await play_game(service, preset)
    game_id = await store.game_for_table(tid)
    assert game_id is not None
    told = await archive.tell(store, GUILD, game_id)
    table = await store.get_table(tid)
    assert table is not None and table.snapshot_json is not None
    played = Game.from_json(table.snapshot_json)
    if played.scoresheet:
        assert [hand.record for hand in told.replay.hands] == played.scoresheet
        for hand, record in zip(told.replay.hands, played.scoresheet, strict=True):
            assert tuple(tuple((c.seat, c.card) for c in t.cards) for t in hand.tricks) == \
                record.tricks_played()
    else:  # quick keeps no sheet: its one hand is told with its bids and tricks
        (only,) = told.replay.hands
        assert only.record.tricks == tuple(played.tricks_won)
    document = json.loads(archive.export_json(told))
    check_export(document)
    sheet = list(csv.reader(io.StringIO(archive.scoresheet_csv(told))))
    assert sheet[0][:2] == ["hand", "cards"]
    assert len(sheet) == 1 + len(told.replay.hands) * len(document["players"])


async def test_a_game_in_play_is_never_shown(service: TableService, store: Store) -> None:
    done = await play_game(service, "classic")
    running = await play_game(service, "classic", stop=3, channel=CHANNEL + 1)
    assert is_open(service, running)
    finished = await store.game_for_table(done)
    assert finished is not None
    page = await archive.history(store, GUILD)
    assert [g.game_id for g in page.games] == [finished]
    with pytest.raises(TableError, match="no finished game"):
        await archive.tell(store, GUILD, finished + 1)
    with pytest.raises(TableError, match="no finished game"):
        await archive.tell(store, GUILD + 1, finished)
    with pytest.raises(ValueError, match="still being played"):
        table = await store.get_table(running)
        assert table is not None
        archive.replay_log(Rules.model_validate_json(table.rules_json),
                           await store.actions(running))


async def test_server_results_and_history_filters(service: TableService, store: Store) -> None:
    first = await play_game(service, "classic")
    second = await play_game(service, "vanikar", channel=CHANNEL + 1)
    ids = [await store.game_for_table(t) for t in (second, first)]
    rows = list(csv.DictReader(io.StringIO(await archive.results_csv(store, GUILD))))
    assert [int(r["game"]) for r in rows][::3] == ids
    assert {r["player"] for r in rows} >= {"Host"}
    vanikar = await archive.history(store, GUILD, preset="vanikar")
    assert [g.game_id for g in vanikar.games] == ids[:1]
    assert [g.game_id for g in (await archive.history(store, GUILD, user_id=HOST)).games] == ids
    with pytest.raises(TableError, match="no preset called 'vanikr'"):
        await archive.history(store, GUILD, preset="vanikr")
