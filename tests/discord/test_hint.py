"""/ohhell hint through discord.py's pipeline: allowed by the host at /ohhell start, only the
asker sees it, never more than their own view, and a game with hints is kept but not rated.
Hints think at their own desk (bot/hints.py): a person's next hint waits out a cooldown, a full
desk refuses in words, and a hint in flight never holds up the computers' moves."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from bot import computer
from bot.clock import ManualClock
from engine import Phase, PlayerView
from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import CALLBACK, Call, Harness, Member, drain
from tests.discord.test_language import ENGLISH, _words

HINT = re.compile(
    r"Bid \d+: you make it about \d+% of the time(; bid \d+: \d+%)?\."
    r"|Play the \S+: (keeps your bid alive in \d+ of 10 deals; the \S+: \d+ of 10"
    r"|it is your only legal card|your legal cards all do the same here)\."
)


HANG = 15.0  # seconds: only a hang detector, never a measure of speed
SLOTS = 4  # ServiceConfig.hint_slots
BUSY = "Hints are busy right now; try again in a few seconds."


def _answer(calls: list[Call]) -> Call:
    """The webhook message that answered the command (after its 'thinking' deferral)."""
    return next(c for c in calls if c.via == "webhook" and c.path != CALLBACK)


class HeldHints:
    """bot.computer.hint, counted, that thinks until the test opens `gate` (open by default)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.calls = 0
        self.real = computer.hint

    def __call__(self, view: PlayerView, seed: int) -> str:
        self.calls += 1
        self.gate.wait(HANG)
        return self.real(view, seed)


@pytest.fixture(autouse=True)
def hints(monkeypatch: pytest.MonkeyPatch) -> HeldHints:
    """Every hint of the module's bots goes through a HeldHints (set before the bot starts)."""
    held = HeldHints()
    monkeypatch.setattr(computer, "hint", held)
    return held


async def _until(done: Callable[[], bool], what: str) -> None:
    """Wait for `done` without draining (hints held on purpose would look stuck to drain)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + HANG
    while not done():
        if loop.time() > give_up:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.005)


def _fire(h: Harness, payload: dict[str, Any]) -> Callable[[], Call | None]:
    """Send an interaction without waiting; returns a look-up of its answer (None until sent)."""
    iid = int(payload["id"])
    h.fire(payload)
    return lambda: next((c for c in h.fake.log if c.interaction_id == iid
                         and c.via == "webhook" and c.path != CALLBACK), None)


async def _answer_of(h: Harness, payload: dict[str, Any]) -> Call:
    answer = _fire(h, payload)
    await _until(lambda: answer() is not None, "an answer to the interaction")
    call = answer()
    assert call is not None
    return call


async def _solo_tables(h: Harness, n: int, *, hints: bool = True) -> list[tuple[Driver, Member]]:
    """`n` tables, each of one person and two computers, each waiting for its person."""
    out = []
    for i in range(n):
        m = h.member(f"solo{i}")
        d = Driver(h, [m], channel=h.add_channel(), seed=i)
        await d.lobby(bots=2, max_cards=3, bot_level="random", hints=hints)
        assert [who for _, who in d.awaited()] == [m]
        out.append((d, m))
    return out


def _saves(d: Driver) -> int:
    """The table's saves so far (a finished table counts as one more)."""
    view = d.view()
    return 1 << 30 if view is None else view.saves


def _over(d: Driver) -> bool:
    """The table's game is over (or the table closed)."""
    view = d.view()
    return view is None or view.state is None or view.state.phase is Phase.GAME_OVER


def _move_payload(d: Driver, seat: int, m: Member) -> dict[str, Any]:
    """The person's legal bid or play as a slash command."""
    kind, move = d.move_for(seat)
    if kind == "bid":
        return d.h.slash("ohhell bid", m, channel=d.channel, tricks=move)
    assert kind == "play"
    return d.h.slash("ohhell play", m, channel=d.channel, card=move.code)


async def test_a_hint_answers_only_the_asker_with_its_reason_in_numbers(
        h: Harness, clock: ManualClock) -> None:
    watch = PrivacyWatch(h)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=3)
    await d.lobby(max_cards=3, hints=True)
    asked = 0
    while d.view() is not None and asked < 4:
        (seat, m), = d.awaited()
        calls = await d.slash("ohhell hint", m)
        assert calls[0].path == CALLBACK and calls[0].json["type"] == 5  # "thinking..."
        assert calls[0].json["data"]["flags"] & 64  # ephemeral
        answer = _answer(calls)
        assert answer.audience == m.id
        assert HINT.fullmatch(answer.body["content"]), answer.body["content"]
        for c in calls:
            watch.check(c)
        waiting = next(p for p in (alice, bob, carol) if p.id != m.id)
        refused = _answer(await d.slash("ohhell hint", waiting))
        assert refused.body["content"] == "There is nothing for you to decide right now."
        assert refused.audience == waiting.id
        await d.act_slash(seat, m)
        asked += 1
        await clock.advance(5)  # the asker's hint cooldown (ServiceConfig.hint_cooldown)
    assert asked == 4
    assert not watch.leaks, watch.leaks


NORSK_HINT = re.compile(
    r"Meld \d+: du klarer den omtrent \d+ % av gangene(; meld \d+: \d+ %)?\."
    r"|Spill \S+: (meldingen din holder i \d+ av 10 utdelinger; \S+: \d+ av 10"
    r"|det er det eneste kortet du kan spille|alle kortene du kan spille, gjør det samme her)\."
)


async def test_a_norwegian_client_reads_its_hint_in_norwegian(
        h: Harness, clock: ManualClock) -> None:
    """The hint is a phrase (engine/ai/hint.py) the bot says in the asker's language; an
    English client at the same table still reads English."""
    alice = h.member("alice", locale="no")
    bob, carol = h.member("bob", locale="no"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=3)
    await d.lobby(max_cards=3, hints=True)
    asked = {"no": 0, "en-US": 0}
    while d.view() is not None and sum(asked.values()) < 6:
        (seat, m), = d.awaited()
        text = _answer(await d.slash("ohhell hint", m)).body["content"]
        if m.locale == "no":
            assert NORSK_HINT.fullmatch(text), text
            assert _words(text) & ENGLISH == set(), text
        else:
            assert HINT.fullmatch(text), text
        asked[m.locale] += 1
        await d.act_slash(seat, m)
        await clock.advance(5)  # the asker's hint cooldown (ServiceConfig.hint_cooldown)
    assert asked["no"] >= 2 and asked["en-US"] >= 1, asked


async def test_hints_are_off_unless_the_host_allows_them(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    (seat, m), = d.awaited()
    calls = await d.slash("ohhell hint", m)
    answer = _answer(calls)
    assert answer.body["content"].startswith("Hints are off at this table")
    assert answer.audience == m.id
    assert d.view().state.bids[seat] is None  # nothing changed


async def test_a_game_with_hints_is_stored_as_such_and_rates_nobody(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=5)
    table = await d.lobby(max_cards=1, hints=True)
    await d.play_out("slash")
    assert d.view() is None
    store = h.bot.store  # type: ignore[attr-defined]
    game_id = await store.game_for_table(table.table_id)
    assert game_id is not None
    stored = await store.get_game(game_id)
    assert stored is not None and stored.hints
    standings = next(
        f for f in h.fake.messages[table.message_id]["embeds"][0]["fields"]
        if f["name"] == "Final standings"
    )["value"]
    assert "Not rated: hints were allowed at this table." in standings
    assert "rating" not in standings.replace("Not rated", "")
    calls = await d.slash("ohhell stats", alice)
    assert "Games **1**" in calls[0].body["embeds"][0]["description"]


async def test_a_second_hint_within_the_cooldown_is_refused_in_words_and_changes_nothing(
        h: Harness, clock: ManualClock, hints: HeldHints) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=3)
    await d.lobby(max_cards=3, hints=True)
    (seat, m), = d.awaited()
    assert HINT.fullmatch(_answer(await d.slash("ohhell hint", m)).body["content"])
    assert hints.calls == 1
    before = d.view()
    refused = _answer(await d.slash("ohhell hint", m))
    assert refused.body["content"] == "You can ask for another hint in 5 s."
    assert refused.audience == m.id
    await clock.advance(3.5)
    refused = _answer(await d.slash("ohhell hint", m))
    assert refused.body["content"] == "You can ask for another hint in 2 s."
    assert hints.calls == 1  # no thinking for a refusal
    assert d.view() == before  # and nothing changed at the table
    await clock.advance(1.5)
    assert HINT.fullmatch(_answer(await d.slash("ohhell hint", m)).body["content"])
    assert hints.calls == 2
    await d.act_slash(seat, m)  # the game goes on


async def test_a_full_hint_desk_refuses_in_words_and_one_person_holds_one_slot(
        h: Harness, hints: HeldHints) -> None:
    tables = await _solo_tables(h, SLOTS + 1)
    hints.gate.clear()
    asked = [_fire(h, h.slash("ohhell hint", m, channel=d.channel)) for d, m in tables[:SLOTS]]
    await _until(lambda: hints.calls == 1, "the first hint thinking")
    desk = h.bot.tables.hint_desk  # type: ignore[attr-defined]
    await _until(lambda: desk.in_flight == SLOTS, "every slot of the desk taken")
    again = await _answer_of(h, h.slash("ohhell hint", tables[0][1], channel=tables[0][0].channel))
    assert again.body["content"] == (
        "Your last hint is still being worked out; it will be with you in a moment.")
    d, m = tables[SLOTS]
    before = d.view()
    refused = await _answer_of(h, h.slash("ohhell hint", m, channel=d.channel))
    assert refused.body["content"] == BUSY
    assert refused.audience == m.id
    assert d.view() == before
    assert all(answer() is None for answer in asked)  # still thinking or waiting
    hints.gate.set()
    await drain()
    for answer in asked:
        call = answer()
        assert call is not None and HINT.fullmatch(call.body["content"]), call
    assert hints.calls == SLOTS  # the refused ones never thought


async def test_hints_in_flight_do_not_hold_up_a_computer_at_another_table(
        h: Harness, hints: HeldHints) -> None:
    (d, dave), = await _solo_tables(h, 1, hints=False)
    hinted = await _solo_tables(h, SLOTS)
    hints.gate.clear()
    asked = [_fire(h, h.slash("ohhell hint", m, channel=hd.channel)) for hd, m in hinted]
    await _until(lambda: hints.calls == 1, "a hint thinking")
    start = d.view()
    assert start is not None
    store = h.bot.store  # type: ignore[attr-defined]

    async def computer_moves() -> int:
        """Bids and plays in the table's log made by nobody (its computer seats): counted
        from the log, since they may all land before the test looks at the table."""
        log = await store.actions(start.table_id)
        return sum(1 for a in log if a.user_id is None and a.action in ("bid", "play"))

    before = await computer_moves()
    while await computer_moves() == before:
        view = d.view()
        if view is None or view.state is None or view.state.phase is Phase.GAME_OVER:
            raise AssertionError("the game ended before a computer moved after dave")
        (seat, _), = d.awaited()
        h.fire(_move_payload(d, seat, dave))
        await _until(lambda saves=view.saves: _saves(d) > saves, "dave's move")
        await _until(lambda: bool(d.awaited()) or _over(d), "the computers' moves after dave's")
    assert all(answer() is None for answer in asked)  # the hints were held all along
    hints.gate.set()
    await drain()
    assert all(answer() is not None for answer in asked)
