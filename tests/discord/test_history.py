"""Looking back through Discord's real pipeline: /ohhell history, replay, export, learn,
forget-me and forget."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from typing import Any

import pytest

from bot import archive
from bot.models import TableOptions
from bot.replay_text import steps
from bot.service import TableService
from data import Action, FinishedGame, Seat, SeatResult, Store, StoreError, TableStatus
from data.results import HandResultRow
from engine import Game, Rules
from engine.replay import HandReplay
from tests.bot.helpers import any_move, is_open
from tests.bot.test_archive import check_export
from tests.data.test_history import text_holding
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, Call, Harness, Member, drain


def store_of(h: Harness) -> Store:
    store: Store = h.bot.store  # type: ignore[attr-defined]
    return store


async def finished_game(h: Harness, preset: str = "classic") -> tuple[Driver, int, int]:
    """A game of alice (host), bob, carol and a computer played to its end: its driver, game
    id and table message id."""
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    table = await d.lobby(max_cards=2, bots=1, preset=preset, turn_timeout=0)
    await d.play_out("controls")
    await drain()
    game_id = await store_of(h).game_for_table(table.table_id)
    assert game_id is not None and table.message_id is not None
    return d, game_id, table.message_id


async def stored_games(h: Harness, count: int) -> list[int]:
    """Finished games put straight into the store (for paging), by two other people."""
    store = store_of(h)
    ids = []
    for index in range(count):
        seats = (SeatResult(0, "dora", 901, 20 + index, 1, True),
                 SeatResult(1, "ed", 902, 5, 2, False))
        hand = HandResultRow(1, 1, 0, "AS", "S", (1, 0), (1, 0), (True, True), (11, 10),
                             (11, 10))
        result = FinishedGame("vanikar", '{"name": "vanikar"}', seats, (hand,))
        table = await store.create_table(
            guild_id=h.guild_id, channel_id=50_000 + index, host_id=901,
            rules_json='{"name": "vanikar"}', seats=[Seat("dora", 901), Seat("ed", 902)])
        table = replace(table, status=TableStatus.PLAYING)
        ids.append((await store.finish_game(table, result, Action("end"))).game_id)
    return ids


def answer_of(calls: list[Call]) -> Call:
    (callback,) = [c for c in calls if c.path == CALLBACK]
    return callback


def description(call: Call) -> str:
    return str(call.body["embeds"][0]["description"])


def labels(h: Harness, message_id: int) -> list[str]:
    return [c["label"] for c in h.components(message_id) if not c.get("disabled")]


async def test_history_pages_newest_first_with_jump_links(h: Harness) -> None:
    d, game_id, message_id = await finished_game(h)
    alice, bob, _ = d.members
    older = await stored_games(h, 5)
    call = answer_of(await h.send(h.slash("ohhell history", bob)))
    assert call.audience == bob.id  # ephemeral
    first = description(call)
    shown = [f"`#{g}`" in first for g in (*older[::-1], game_id)]
    assert shown == [True] * 5 + [False]  # the newest five: the stored ones came later
    assert labels(h, call.message_id or 0) == ["Older"]
    call = answer_of(await h.send(h.click(call.message_id or 0, "Older", bob)))
    second = description(call)
    assert f"`#{game_id}`" in second
    assert f"https://discord.com/channels/{h.guild_id}/{h.channel}/{message_id}" in second
    assert labels(h, call.message_id or 0) == ["Newest"]
    mine = description(answer_of(await h.send(h.slash("ohhell history", alice, member=bob))))
    assert f"`#{game_id}`" in mine and "dora" not in mine
    vanikar = description(answer_of(await h.send(
        h.slash("ohhell history", alice, preset="vanikar"))))
    assert f"`#{game_id}`" not in vanikar and all(f"`#{g}`" in vanikar for g in older)


@pytest.mark.parametrize("preset", ["classic", "wizard"])
async def test_replay_steps_through_a_whole_game(h: Harness, preset: str) -> None:
    d, game_id, _ = await finished_game(h, preset)
    carol = d.members[2]
    calls = await h.send(h.autocomplete("ohhell replay", carol, "game", ""))
    offered = [c["value"] for c in calls[0].json["data"]["choices"]]
    assert offered == [game_id]
    told = steps(archive.export_game(await archive.tell(store_of(h), h.guild_id, game_id)))
    call = answer_of(await h.send(h.slash("ohhell replay", carol, game=game_id)))
    assert call.audience == carol.id
    message = call.message_id or 0
    seen = [description(call)]
    while "Next ›" in labels(h, message):
        call = answer_of(await h.send(h.click(message, "Next ›", carol)))
        seen.append(description(call))
    assert seen == ["\n".join(lines) for lines in told]
    assert seen[-1].startswith("Final standings:")
    deals = [i for i, lines in enumerate(told) if " trick " not in lines[0]
             and lines[0].startswith("Hand ")]
    call = answer_of(await h.send(h.click(message, "« Hand", carol)))
    assert description(call) == "\n".join(told[deals[-1]])  # back to the last hand's deal


async def played_through_the_service(h: Harness, preset: str, host: Member) -> int:
    """A game of the host and computers, the host's moves made straight through the bot's
    service (fast: no slash command per move); its table id."""
    service: TableService = h.bot.tables  # type: ignore[attr-defined]
    rules = Rules.preset(preset)
    options = TableOptions(preset=preset, computers=max(3, rules.min_players) - 1, seed=26,
                           max_cards=3, computer_level="random", turn_timeout=0)
    table_id = (await service.open_table(h.guild_id, h.channel, host.id, host.name,
                                         options)).table_id
    await service.deal(table_id, host.id)
    for step in range(500):
        await service.wait_idle()
        if not is_open(service, table_id):
            break
        await any_move(service, table_id, host.id, seed=step)
    await service.wait_idle()
    await drain()
    assert not is_open(service, table_id)
    return table_id


def shown_as_played(hand: HandReplay, names: list[str], step: str, tricks: list[str]) -> None:
    """A hand's deal step and trick steps show its dealt cards, bids, and each trick's cards in
    play order with its winner."""
    for seat, cards in enumerate(hand.dealt):
        assert f"  {names[seat]}: {' '.join(str(c) for c in cards)}" in step.splitlines()
    bids = ", ".join(f"{names[seat]} {bid}" for seat, bid in hand.bids)
    assert f"Bids: {bids}." in step.splitlines()
    assert len(tricks) == len(hand.tricks)
    for text, trick in zip(tricks, hand.tricks, strict=True):
        played = [f"{names[c.seat]} {c.card}" for c in trick.cards]
        at = [text.index(p) for p in played]
        assert at == sorted(at), (text, played)  # in play order
        assert f" {names[trick.winner]} wins it." in text.splitlines()[0]


@pytest.mark.parametrize("preset", Rules.preset_names(special_cards=True))
async def test_every_preset_replays_to_its_end_as_played(h: Harness, preset: str) -> None:
    host = h.member("host")
    table_id = await played_through_the_service(h, preset, host)
    store = store_of(h)
    game_id = await store.game_for_table(table_id)
    assert game_id is not None
    call = answer_of(await h.send(h.slash("ohhell replay", host, game=game_id)))
    seen = await replayed_by_clicks(h, call, host)
    # the game as played, from the table's final snapshot, not from the replay
    table = await store.get_table(table_id)
    assert table is not None and table.snapshot_json is not None
    played = Game.from_json(table.snapshot_json)
    told = await archive.tell(store, h.guild_id, game_id)
    if played.scoresheet:
        assert [hand.record for hand in told.replay.hands] == played.scoresheet
        for hand, record in zip(told.replay.hands, played.scoresheet, strict=True):
            assert tuple(tuple((c.seat, c.card) for c in t.cards) for t in hand.tricks) == \
                record.tricks_played()
    else:  # quick keeps no sheet: its one hand is told with the tricks each took
        (only,) = told.replay.hands
        assert only.record.tricks == tuple(played.tricks_won)
    names = [s.name for s in sorted(told.summary.seats, key=lambda s: s.seat)]
    deals = [i for i, text in enumerate(seen) if text.startswith("Hand ")
             and " trick " not in text.splitlines()[0]]
    assert len(deals) == len(told.replay.hands)
    for start, end, hand in zip(deals, [*deals[1:], len(seen) - 1], told.replay.hands,
                                strict=True):
        shown_as_played(hand, names, seen[start], seen[start + 1:end])
    assert seen[-1].startswith("Final standings:")


async def replayed_by_clicks(h: Harness, first: Call, who: Member) -> list[str]:
    """Every step of a replay, from its first answer through the Next button to the end."""
    message = first.message_id or 0
    seen = [description(first)]
    while "Next ›" in labels(h, message):
        seen.append(description(answer_of(await h.send(h.click(message, "Next ›", who)))))
    return seen


async def test_replay_from_the_final_message(h: Harness) -> None:
    d, game_id, message_id = await finished_game(h)
    bob = d.members[1]
    assert [c["label"] for c in h.components(message_id)] == ["Rematch", "Replay"]
    call = answer_of(await h.send(h.click(message_id, "Replay", bob)))
    assert call.audience == bob.id  # ephemeral, the final message untouched
    assert [c["label"] for c in h.components(message_id)] == ["Rematch", "Replay"]
    told = steps(archive.export_game(await archive.tell(store_of(h), h.guild_id, game_id)))
    seen = await replayed_by_clicks(h, call, bob)
    assert seen == ["\n".join(lines) for lines in told]
    assert seen[-1].startswith("Final standings:")


async def test_replay_of_a_game_closed_without_a_result_says_so(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store refused the result, so the game was closed without one: its final message's
    Replay answers in words."""
    store = store_of(h)

    async def refused(*args: Any) -> Any:
        raise StoreError("the disk is full")

    monkeypatch.setattr(store, "finish_game", refused)
    alice, bob = h.member("alice"), h.member("bob")
    d = Driver(h, [alice, bob])
    table = await d.lobby(max_cards=1, bots=1, turn_timeout=0)
    await d.play_out("controls")
    await drain()
    assert [r.getMessage() for r in h.fake.errors] == [
        f"could not record the finished game at table {table.table_id}"]
    h.fake.errors.clear()
    assert await store.game_for_table(table.table_id) is None
    call = answer_of(await h.send(h.click(table.message_id or 0, "Replay", bob)))
    assert call.audience == bob.id and not call.body.get("embeds")
    assert "ended without a result" in call.body["content"]


async def test_a_game_in_play_is_never_replayed(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    view = await d.lobby(max_cards=2, turn_timeout=0)
    seat, member = d.awaited()[0]
    await d.act_slash(seat, member)
    assert d.view() is not None
    calls = await h.send(h.autocomplete("ohhell replay", alice, "game", ""))
    assert calls[0].json["data"]["choices"] == []
    for game in (1, view.table_id):
        call = answer_of(await h.send(h.slash("ohhell replay", alice, game=game)))
        assert "no finished game" in call.body["content"] and not call.body.get("embeds")


async def test_export_attaches_the_game_and_managers_get_every_result(h: Harness) -> None:
    d, game_id, _ = await finished_game(h)
    alice = d.members[0]
    call = answer_of(await h.send(h.slash("ohhell export", alice, game=game_id)))
    files = dict(call.files)
    assert call.audience == alice.id
    assert set(files) == {f"ohhell-game-{game_id}.json", f"ohhell-game-{game_id}-scoresheet.csv"}
    check_export(json.loads(files[f"ohhell-game-{game_id}.json"]))
    sheet = list(csv.reader(io.StringIO(files[f"ohhell-game-{game_id}-scoresheet.csv"].decode())))
    assert sheet[0][0] == "hand" and len(sheet) > 4
    refused = answer_of(await h.send(h.slash("ohhell export", alice)))
    assert "Manage Server" in refused.body["content"] and not refused.files
    boss = h.member("boss", admin=True)
    call = answer_of(await h.send(h.slash("ohhell export", boss)))
    ((name, data),) = call.files
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    assert name == "ohhell-results.csv"
    assert {r["player"] for r in rows} >= {"alice", "bob", "carol"}


async def test_learn_to_the_end_with_one_wrong_move(h: Harness) -> None:
    newcomer = h.member("newcomer")
    call = answer_of(await h.send(h.slash("ohhell learn", newcomer)))
    message = call.message_id or 0
    assert call.audience == newcomer.id and "J♠ A♥ 6♦" in description(call)
    texts = []
    for label in ("2", "A♥", "J♠", "6♦", "J♠"):
        call = answer_of(await h.send(h.click(message, label, newcomer)))
        texts.append(description(call))
    assert "Sam may not bid 0" in texts[0]
    assert "the 6♠ beats the A♥" in texts[1]
    assert "You must follow suit" in texts[2] and "Try again." in texts[2]
    assert "10 + 2 = 12" in texts[4] and "/ohhell start" in texts[4]
    assert h.components(message) == []


async def forget_me(h: Harness, who: Member, answer: str) -> Call:
    call = answer_of(await h.send(h.slash("ohhell forget-me", who)))
    assert "cannot be undone" in call.body["content"]
    return answer_of(await h.send(h.click(call.message_id or 0, answer, who)))


async def test_forget_me_after_a_confirmation(h: Harness) -> None:
    d, game_id, _ = await finished_game(h)
    alice, bob, _ = d.members
    assert await text_holding(store_of(h), "bob") != []
    kept = await forget_me(h, bob, "Keep everything")
    assert kept.body["content"] == "Nothing was deleted."
    assert await text_holding(store_of(h), "bob") != []
    done = await forget_me(h, bob, "Forget me")
    assert "is gone" in done.body["content"] and done.body.get("components") == []
    assert await text_holding(store_of(h), "bob") == []
    history = description(answer_of(await h.send(h.slash("ohhell history", alice))))
    assert "a former player" in history and "bob" not in history
    board = answer_of(await h.send(h.slash("ohhell leaderboard", alice)))
    assert "bob" not in json.dumps(board.body)
    told = await archive.tell(store_of(h), h.guild_id, game_id)  # still replays whole
    assert "a former player" in [s.name for s in told.summary.seats]


async def test_managers_forget_a_member_in_their_server(h: Harness) -> None:
    d, _, _ = await finished_game(h)
    alice, _, carol = d.members
    refused = answer_of(await h.send(h.slash("ohhell forget", alice, member=carol)))
    assert "Manage Server" in refused.body["content"]
    assert await text_holding(store_of(h), "carol") != []
    boss = h.member("boss", admin=True)
    done = answer_of(await h.send(h.slash("ohhell forget", boss, member=carol)))
    assert "is gone" in done.body["content"] and done.audience == boss.id
    assert await text_holding(store_of(h), "carol") == []


def test_custom_ids_stay_out_of_the_table_controls_namespace() -> None:
    from cogs import history, views

    for item in history.DYNAMIC_ITEMS:
        pattern: Any = item.__discord_ui_compiled_template__
        assert not pattern.pattern.startswith(views.PREFIX)
