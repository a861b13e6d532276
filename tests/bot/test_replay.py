"""The action log replays to the stored snapshot through Move payloads, old rows included."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.models import TableOptions
from bot.moves import replay
from bot.service import TableService
from data import LoggedAction, Store
from engine import Card, IllegalAction, Rules
from tests.bot.conftest import CHANNEL, GUILD, HOST
from tests.bot.helpers import any_move, is_open


async def _played_log(service: TableService, store: Store,
                      preset: str) -> tuple[Rules, str, list[LoggedAction]]:
    rules = Rules.preset(preset)
    options = TableOptions(preset=preset, computers=max(3, rules.min_players) - 1, seed=4,
                           max_cards=3, computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.deal(tid, HOST)
    for step in range(2000):
        await service.wait_idle()
        if not is_open(service, tid):
            break
        await any_move(service, tid, HOST, seed=step)
    record = await store.get_table(tid)
    assert record is not None and record.snapshot_json is not None
    return (Rules.model_validate_json(record.rules_json), record.snapshot_json,
            await store.actions(tid))


@pytest.mark.parametrize("preset", Rules.preset_names())
async def test_the_log_replays_to_the_snapshot(preset: str, service: TableService,
                                               store: Store) -> None:
    rules, snapshot, log = await _played_log(service, store, preset)
    moves = [a for a in log if a.action in ("bid", "play", "trump", "discard")]
    assert any(a.payload.get("by") == "computer" for a in moves)  # computers log their moves
    assert any(a.user_id == HOST for a in moves)  # and so does the person
    game = replay(rules, log)
    assert game is not None and game.to_json() == snapshot


def _old_row(entry: LoggedAction) -> LoggedAction:
    """The row as the bot wrote it before moves were values (bot/moves.move_payload then)."""
    p = entry.payload
    if entry.action not in ("bid", "play", "trump", "discard"):
        return entry
    old: dict[str, Any] = {"hand": p["hand"]}
    if entry.action == "bid":
        old["bid"] = int(p["bid"])
    elif entry.action == "play":
        old["card"] = Card.parse(p["card"]).code
    elif entry.action == "trump":
        old["suit"] = p["suit"]
    else:
        old["cards"] = list(p["cards"])
    if "by" in p:
        old.update(by=p["by"], level=p["level"])
    return dataclasses.replace(entry, payload=old)


async def test_rows_written_before_moves_were_values_still_replay(
        service: TableService, store: Store) -> None:
    rules, snapshot, log = await _played_log(service, store, "classic")
    game = replay(rules, [_old_row(a) for a in log])
    assert game is not None and game.to_json() == snapshot


async def test_a_log_that_does_not_match_its_game_is_refused(
        service: TableService, store: Store) -> None:
    rules, _, log = await _played_log(service, store, "classic")
    at = next(i for i, a in enumerate(log) if a.action == "bid")
    forged = dataclasses.replace(log[at], payload={"hand": 1, "bid": 99})
    with pytest.raises(IllegalAction):
        replay(rules, [*log[:at], forged, *log[at + 1:]])
    unreadable = dataclasses.replace(log[at], payload={"hand": 1})
    with pytest.raises(ValueError):
        replay(rules, [*log[:at], unreadable, *log[at + 1:]])
