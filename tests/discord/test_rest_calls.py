"""How many REST calls an action costs, and that fewer calls never hide a move.

docs/architecture.md section 6: about one REST call per player action besides the interaction
response.
The actor sees their move in the interaction response; the table message is edited at most
once per TABLE_EDIT_INTERVAL (moves in between show in one trailing edit of the newest state)
and, when computers are to answer a person's move, once for the move and the answer together;
the next player's DM shows their controls at once; a message is never edited to what it
already shows. Time is the manual clock: a test moves it on, nothing sleeps.
"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

import bot.service
from bot import computer
from bot.clock import ManualClock
from cogs import render, views
from engine import Phase
from tests.discord.conftest import Boot
from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import CHANNEL_MESSAGES, Call, Harness, Member, drain


@pytest.fixture
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal uses the same seed, so a test that looks for a moment in a game (and the
    computers' moves, seeded from it) is the same every run."""
    monkeypatch.setattr(bot.service, "secrets", SimpleNamespace(randbits=lambda bits: 2024))


def table_edits(calls: list[Call], message_id: int) -> list[Call]:
    return [c for c in calls if c.is_rest and c.method == "PATCH" and c.message_id == message_id]


def dm_calls(calls: list[Call], member: Member) -> list[Call]:
    return [c for c in calls if c.is_rest and c.audience == member.id]


def field(call_or_message: dict[str, Any], name: str) -> str | None:
    embed = call_or_message["embeds"][0]
    return next((f["value"] for f in embed.get("fields", []) if f["name"] == name), None)


async def moments(clock: ManualClock, seconds: float = 1.0) -> None:
    """Let `seconds` of table time pass (held edits and paced computers go)."""
    await clock.advance(seconds)
    await drain()


async def until_a_person_is_awaited(d: Driver, clock: ManualClock) -> None:
    for _ in range(100):
        if d.awaited() or d.view() is None:
            return
        await moments(clock)
    raise AssertionError("the computers never handed over")


async def alice_to_play_before_computers(d: Driver, clock: ManualClock, alice: Member) -> None:
    """Play on (alice by her DM controls) until alice is to play a card that computers follow
    in the same trick, and not in the hand's last trick (so the trick stays on the table)."""
    for _ in range(200):
        await until_a_person_is_awaited(d, clock)
        view = d.view()
        assert view is not None and view.state is not None
        st = view.state
        if (st.phase is Phase.PLAYING and len(st.current_trick) < st.players - 1
                and st.trick_number < st.hand_size):
            return
        seat, m = d.awaited()[0]
        await d.act_controls(seat, m)
    raise AssertionError("no such moment came")


async def test_one_table_edit_shows_a_card_and_the_computers_answer(
        boot: Boot, clock: ManualClock, fixed_deal: None) -> None:
    h = await boot(computer_delay=1.0, edit_interval=1.0)
    watch = PrivacyWatch(h)
    alice = h.member("alice")
    d = Driver(h, [alice], seed=3)
    await d.lobby(bots=3, max_cards=4, bot_level="random")
    await alice_to_play_before_computers(d, clock, alice)
    await moments(clock, 2)  # whatever was held went out, over a second ago
    view = d.view()
    assert view is not None and view.message_id is not None
    seat, _ = d.awaited()[0]
    hand_before = set(d.svc.directory.hand_view(view.table_id, alice.id).hand)
    h.fake.take()

    calls = await d.act_controls(seat, alice)
    (played,) = hand_before - set(d.svc.directory.hand_view(view.table_id, alice.id).hand)
    assert calls[0].is_callback and calls[0].json["type"] == 7  # her DM shows the card gone
    assert [c for c in calls if c.is_rest] == []  # the table waits for the computers' answer

    await moments(clock)  # COMPUTER_DELAY: the three computers answer, alice is awaited again
    calls = h.fake.take()
    (edit,) = table_edits(calls, view.message_id)
    after = d.view()
    assert after is not None and after.state is not None and d.awaited()
    shown = field(edit.json, "Last trick")
    assert shown == render.trick_text(after.state.last_trick or (), after.seats)
    assert str(played) in shown and len(shown.split(" · ")) == 4  # her card and three answers
    (dm,) = dm_calls(calls, alice)  # her turn again: her DM gets the card select
    assert dm.method == "PATCH" and any(c["type"] == 3 for c in h.components(dm.message_id))
    assert len([c for c in calls if c.is_rest]) == 2
    assert not watch.leaks, watch.leaks


async def test_a_held_update_waits_no_longer_than_the_computer_hold(
        boot: Boot, clock: ManualClock, fixed_deal: None) -> None:
    """Computers slower than the hold: the person's card shows alone when the hold runs out,
    the computers' answer in the next edit."""
    h = await boot(computer_delay=1.0, edit_interval=1.0)
    h.bot.presenter.delivery.computer_hold = 0.5  # type: ignore[attr-defined]
    alice = h.member("alice")
    d = Driver(h, [alice], seed=3)
    await d.lobby(bots=3, max_cards=4, bot_level="random")
    await alice_to_play_before_computers(d, clock, alice)
    await moments(clock, 2)  # whatever was held went out, over a second ago
    view = d.view()
    assert view is not None and view.message_id is not None
    seat, _ = d.awaited()[0]
    hand_before = set(d.svc.directory.hand_view(view.table_id, alice.id).hand)
    h.fake.take()
    await d.act_controls(seat, alice)
    (played,) = hand_before - set(d.svc.directory.hand_view(view.table_id, alice.id).hand)
    await moments(clock, 0.5)
    (edit,) = table_edits(h.fake.take(), view.message_id)
    trick = field(edit.json, f"Trick {view.state.trick_number}")  # type: ignore[union-attr]
    assert trick is not None and trick.endswith(f"alice {played}")  # alone: nobody answered yet
    await moments(clock, 0.5)  # the computers move at 1 s; the interval allows an edit at 1.5 s
    assert table_edits(h.fake.take(), view.message_id) == []
    await moments(clock, 0.5)
    (edit,) = table_edits(h.fake.take(), view.message_id)
    assert str(played) in (field(edit.json, "Last trick") or "")


async def test_a_hands_result_is_not_held_for_the_next_hands_computers(
        boot: Boot, clock: ManualClock, fixed_deal: None) -> None:
    """alice plays into a hand's last trick; computers finish the hand and the next hand's
    first bidder is a computer: the result goes out at once (the computers' bids follow in the
    next edit), it is not held for them."""
    h = await boot(computer_delay=1.0, edit_interval=1.0)
    alice = h.member("alice")
    d = Driver(h, [alice], seed=3)
    view = await d.lobby(bots=3, max_cards=4, bot_level="random")
    mid = view.message_id
    assert mid is not None
    for _ in range(300):
        await until_a_person_is_awaited(d, clock)
        now = d.view()
        assert now is not None and now.state is not None
        st = now.state
        (seat, _), = d.awaited()
        if (st.phase is Phase.PLAYING and st.trick_number == st.hand_size
                and len(st.current_trick) < st.players - 1
                and (st.dealer + 2) % st.players != seat):
            break
        await d.act_controls(seat, alice)
    else:
        raise AssertionError("no such moment came")
    hand = st.hand_number
    await moments(clock, 2)
    h.fake.take()
    await d.act_controls(seat, alice)  # her last card of the hand
    await moments(clock)  # COMPUTER_DELAY: they finish the hand; the next hand's wait theirs
    (edit,) = table_edits(h.fake.take(), mid)
    assert field(edit.json, f"Hand {hand} result") is not None
    assert f"hand {hand + 1}" in edit.json["embeds"][0]["title"]
    await moments(clock)  # the next hand's computers bid
    (edit,) = table_edits(h.fake.take(), mid)
    assert "bid **" in edit.json["embeds"][0]["fields"][0]["value"]


async def test_moves_within_the_interval_share_one_trailing_edit(
        boot: Boot, clock: ManualClock) -> None:
    h = await boot(edit_interval=1.0)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=2)
    view = await d.lobby(max_cards=3)
    mid = view.message_id
    assert mid is not None
    await moments(clock, 2)  # the lobby's last changes went out in one edit, a while ago
    h.fake.take()
    first = await d.act_controls(*d.awaited()[0])
    assert len(table_edits(first, mid)) == 1  # the first change in a while goes at once
    for _ in range(2):
        (seat, nxt), = d.awaited()
        calls = await d.act_controls(seat, nxt)
        assert table_edits(calls, mid) == []  # within the interval: held
        if d.awaited():  # ...but the next player's DM shows their controls at once
            (_, waiting), = d.awaited()
            assert [c.method for c in dm_calls(calls, waiting)] == ["PATCH"]
    newest = d.view()
    assert newest is not None and newest.state is not None
    await moments(clock)
    (edit,) = table_edits(h.fake.take(), mid)  # one trailing edit: the newest state
    for s in newest.seats:
        bid = newest.state.bids[s.seat]
        shown = next(f["value"] for f in edit.json["embeds"][0]["fields"]
                     if f["name"].startswith(render.seat_label(s)))
        assert f"bid **{'-' if bid is None else bid}**" in shown


@pytest.mark.parametrize("how", ["time passes", "shutdown"])
async def test_the_final_standings_always_land(boot: Boot, clock: ManualClock, how: str) -> None:
    """A whole game played faster than the interval: the table message is edited only now and
    then, and the last edit (after the interval, or when the bot shuts down) is the result."""
    h = await boot(edit_interval=1.0)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=4)
    view = await d.lobby(max_cards=2)
    mid = view.message_id
    assert mid is not None
    await d.play_out("controls")
    assert d.view() is None  # over
    assert "game over" not in h.fake.messages[mid]["embeds"][0]["title"]  # not yet shown
    if how == "time passes":
        await moments(clock)
    else:
        await h.close()
    final = h.fake.messages[mid]
    assert "game over" in final["embeds"][0]["title"]
    assert [c["label"] for c in h.components(mid)] == ["Rematch", "Replay"]  # no My hand any more
    assert field(final, "Final standings") is not None
    # deal (joins merged), the first move, the result, and the result's chart once drawn
    assert len(table_edits(h.fake.log, mid)) <= 4


async def test_each_action_costs_the_table_edit_and_the_next_players_dm(h: Harness) -> None:
    """Four people (edit interval 0 here): every action edits the table once and at most one
    DM, the next player's (never the actor's: their click response shows it); a new hand posts
    one DM per person and edits each other person's last DM once, to show the hand's result
    (the actor's click response shows theirs)."""
    people = [h.member(n) for n in ("alice", "bob", "carol", "dan")]
    d = Driver(h, people, seed=6)
    view = await d.lobby(max_cards=3)
    mid = view.message_id
    assert mid is not None
    hand = view.hand_number
    while d.awaited():
        seat, actor = d.awaited()[0]
        rest = [c for c in await d.act_controls(seat, actor) if c.is_rest]
        edits = table_edits(rest, mid)
        if d.view() is None:  # the last move: the result, then its chart (once a game)
            assert len(edits) == 2 and not edits[0].files and edits[1].files
        else:
            assert len(edits) == 1
        dm_edits = [c for c in rest if c.method == "PATCH" and c.audience is not None]
        posts = [c for c in rest if c.method == "POST" and c.path == CHANNEL_MESSAGES]
        now = d.view()
        if now is not None and now.hand_number != hand:  # a new hand: one new DM each
            hand = now.hand_number
            assert sorted(c.audience for c in posts) == sorted(m.id for m in people)
            assert sorted(c.audience for c in dm_edits) == sorted(
                m.id for m in people if m is not actor)
        elif now is None:  # the game is over: each other person's DM shows the standings
            assert posts == []
            assert sorted(c.audience for c in dm_edits) == sorted(
                m.id for m in people if m is not actor)
        else:
            assert posts == []
            assert [c.audience for c in dm_edits] in ([], [m.id for _, m in d.awaited()])
            assert actor.id not in [c.audience for c in dm_edits]
    assert d.view() is None


async def test_table_edits_leave_out_the_controls_the_message_shows(h: Harness) -> None:
    """The table message's My hand button stays all game: the edits after the first leave it
    out (Discord keeps a message's components when an edit does not name them), and the
    message shows it at every move, then Rematch and Replay once the game is over."""
    people = [h.member(n) for n in ("alice", "bob", "carol", "dan")]
    d = Driver(h, people, seed=6)
    view = await d.lobby(max_cards=2)
    mid = view.message_id
    assert mid is not None
    my_hand = views.table_controls(view.table_id).to_components()
    start = len(h.fake.log)
    while d.awaited():
        seat, actor = d.awaited()[0]
        await d.act_controls(seat, actor)
        if d.view() is not None:
            assert h.fake.messages[mid]["components"] == my_hand
    edits = table_edits(h.fake.log[start:], mid)
    assert len(edits) > 10
    assert [e for e in edits if "components" in e.json] == [edits[-2]]  # game over: Rematch
    assert [c["label"] for c in h.components(mid)] == ["Rematch", "Replay"]


async def test_a_table_message_is_not_edited_to_what_it_shows(h: Harness) -> None:
    """An update that renders the body the message shows already costs no REST call (each
    rendering is fingerprinted alike), and one that changes it is sent."""
    people = [h.member(n) for n in ("alice", "bob", "carol")]
    d = Driver(h, people, seed=6)
    view = await d.lobby(max_cards=2)
    mid = view.message_id
    assert mid is not None
    presenter = h.bot.presenter  # type: ignore[attr-defined]
    await presenter.publish(d.view(), [])  # once over REST: the fingerprint is known then
    await drain()
    start = len(h.fake.log)
    for _ in range(3):
        await presenter.publish(d.view(), [])
        await drain()
    assert table_edits(h.fake.log[start:], mid) == []
    seat, actor = d.awaited()[0]
    await d.act_controls(seat, actor)
    assert len(table_edits(h.fake.log[start:], mid)) == 1


async def test_a_dm_already_showing_its_controls_is_not_edited_again(h: Harness) -> None:
    """ouch: everyone discards at once; one discard leaves the others' DMs as they were."""
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=1)
    view = await d.lobby(preset="ouch", max_cards=4)
    assert view.state is not None and view.state.phase is Phase.DISCARD
    waiting = {m.id for _, m in d.awaited()}
    assert len(waiting) == 3
    seat, first = d.awaited()[0]
    calls = await d.act_controls(seat, first)
    others = [m for m in (alice, bob, carol) if m is not first]
    assert all(dm_calls(calls, m) == [] for m in others)  # still to discard, nothing new
    assert all(h.components(d.hand_message(m)) for m in others)  # still with their select


async def test_a_shutdown_delivers_committed_computer_moves(
        boot: Boot, clock: ManualClock, fixed_deal: None) -> None:
    """The bot stops while computers are in the middle of answering: what they committed is on
    the table message before the bot disconnects, and the restarted bot plays on from there."""
    h1 = await boot(edit_interval=1.0)
    alice = h1.member("alice")
    d1 = Driver(h1, [alice], seed=5)
    view = await d1.lobby(bots=3, max_cards=3, bot_level="random")
    mid = view.message_id
    assert mid is not None
    await until_a_person_is_awaited(d1, clock)
    svc: Any = h1.bot.tables  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()
    second = asyncio.Event()
    gate = threading.Event()
    decisions = 0

    def slow_second(level: str, seed: int, view: Any) -> Any:
        nonlocal decisions
        decisions += 1
        if decisions == 2:  # the second computer thinks until the test lets it go
            loop.call_soon_threadsafe(second.set)
            gate.wait(10)
        return computer.decide(level, seed, view)

    svc._computers._decide = slow_second
    assert _bidding(d1)  # after her bid at least two computers move (the bids, then the lead)
    (seat, _), = d1.awaited()
    h1.fire(d1.controls_payload(seat, alice))
    await asyncio.wait_for(second.wait(), 10)  # one computer answered (committed), one thinks
    committed = svc.directory.table(view.table_id)
    await h1.close()
    gate.set()
    shown = h1.fake.messages[mid]
    assert _public_moves(shown) == _public_moves_of(committed)  # on the table before shutdown

    h2 = await boot(edit_interval=1.0, share_with=h1)
    d2 = Driver(h2, [alice], seed=5)
    await until_a_person_is_awaited(d2, clock)
    assert h2.components(d2.hand_message(alice))  # her controls came back with her turn
    await d2.play_out("controls")


def _bidding(d: Driver) -> bool:
    view = d.view()
    return view is not None and view.state is not None and view.state.phase is Phase.BIDDING


def _public_moves(message: dict[str, Any]) -> list[str]:
    """The bids and the trick as a table message shows them."""
    embed = message["embeds"][0]
    return [f["value"].split("\n")[0] for f in embed["fields"] if "bid **" in f["value"]] + [
        f["value"] for f in embed["fields"] if f["name"].startswith("Trick ")]


def _public_moves_of(view: Any) -> list[str]:
    st = view.state
    bids = [f"bid **{'-' if b is None else b}** · won **{w}**"
            for b, w in zip(st.bids, st.tricks_won, strict=True)]
    trick = [render.trick_text(st.current_trick, view.seats)] if st.current_trick else []
    return bids + trick
