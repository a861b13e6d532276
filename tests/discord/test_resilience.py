"""Closed DMs, a restart in the middle of a hand, turn timers, and slow answers (deferral)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.clock import ManualClock
from cogs import interact
from cogs.render import DM_CLOSED_NOTICE
from tests.discord.conftest import Boot
from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import (
    CALLBACK,
    CHANNEL_MESSAGES,
    FOLLOWUP,
    ORIGINAL,
    PUBLIC,
    Harness,
    drain,
)


def dm_posts(h: Harness, user_id: int) -> list[object]:
    dm = h.fake.dm_of(user_id)
    return [c for c in h.fake.log
            if c.path == CHANNEL_MESSAGES and c.method == "POST" and c.audience == user_id
            and dm is not None and str(dm) in c.url]


async def test_closed_dms_the_player_is_told_and_plays_with_my_hand(h: Harness) -> None:
    watch = PrivacyWatch(h)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    h.fake.closed_dms.add(bob.id)
    d = Driver(h, [alice, bob, carol], seed=5)
    await d.slash("ohhell start", alice, max_cards=2)
    calls = await d.slash("ohhell join", bob)
    assert len(dm_posts(h, bob.id)) == 1  # the one welcome DM that failed
    await d.slash("ohhell join", carol)
    await d.slash("ohhell deal", alice)
    table = d.view()
    assert table.seats[1].dm_failed
    embed = h.fake.messages[table.message_id]["embeds"][0]
    bob_field = next(f["value"] for f in embed["fields"] if f["name"].startswith("bob"))
    assert "📭 use My hand" in bob_field
    for _ in range(500):  # the game goes on; bob plays from the ephemeral My hand message
        awaited = d.awaited()
        if not awaited:
            break
        seat, m = awaited[0]
        if m is bob:
            calls = await d.send(h.click(d.view().message_id, "My hand", bob))
            (shown,) = calls
            assert shown.json["type"] == 4 and shown.audience == bob.id
            calls = await d.act_controls(seat, bob, message_id=shown.message_id)
            assert calls[0].json["type"] == 7 and calls[0].audience == bob.id
        else:
            await d.act_controls(seat, m)
    assert d.view() is None
    assert len(dm_posts(h, bob.id)) == 1  # never tried again this game
    assert not watch.leaks, watch.leaks


async def test_joining_with_closed_dms_gets_one_consistent_answer(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    h.fake.closed_dms.update({bob.id, carol.id})
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    # by slash command: the answer itself says it, once; no followup contradicts it
    calls = await d.slash("ohhell join", bob)
    to_bob = [c for c in calls if c.audience == bob.id and c.via == "webhook"]
    assert [c.path for c in to_bob] == [CALLBACK]
    assert to_bob[0].body["content"] == f"You have a seat.\n\n{DM_CLOSED_NOTICE}"
    assert "come by DM once" not in str(to_bob[0].json)
    # by the Join button: the table message updates, and the one thing said to carol is it
    calls = await d.send(h.click(d.view().message_id, "Join", carol))
    said = [c for c in calls if c.audience == carol.id and c.via == "webhook"]
    assert [c.json["content"] for c in said] == [DM_CLOSED_NOTICE]
    assert said[0].json["flags"] & 64
    update = [c for c in calls if c.path == CALLBACK]
    assert update[0].json["type"] == 7 and f"<@{carol.id}>" in str(update[0].json)
    # people whose DMs are open are told their cards come by DM
    dave = h.member("dave")
    (answer,) = [c for c in await d.slash("ohhell join", dave) if c.path == CALLBACK]
    assert answer.body["content"] == ("You have a seat. Your cards will come by DM once the "
                                      "host deals.")


async def test_dms_failing_at_the_deal_tell_the_dealer_at_once(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    h.fake.closed_dms.add(alice.id)  # the host never got a welcome DM
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    await d.slash("ohhell join", bob)
    await d.slash("ohhell join", carol)
    calls = await d.slash("ohhell deal", alice)
    told = [c for c in calls if c.path == FOLLOWUP]
    assert [c.json["content"] for c in told] == [DM_CLOSED_NOTICE]
    assert told[0].audience == alice.id


async def test_a_restarted_bot_resumes_mid_hand(boot: Boot, clock: ManualClock) -> None:
    h1 = await boot(timeout=60)
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol], seed=7)
    await d1.lobby(max_cards=3)
    for _ in range(4):  # into the first hand's play
        seat, m = d1.awaited()[0]
        await d1.act_controls(seat, m)
    table = d1.view()
    (seat, waiting), = d1.awaited()
    dm = d1.hand_message(waiting)
    await h1.close()

    h2 = await boot(timeout=60, share_with=h1)
    d2 = Driver(h2, [alice, bob, carol], seed=8)
    resumed = d2.view()
    assert resumed is not None and resumed.saves == table.saves
    calls = await d2.act_controls(seat, waiting, message_id=dm)  # a button bot 1 sent
    assert calls[0].path == CALLBACK and calls[0].json["type"] == 7
    assert calls[0].message_id == dm  # the same DM, edited in place
    edits = [c for c in calls if c.is_rest and c.message_id == table.message_id]
    assert len(edits) == 1  # the same table message, edited
    # the timer came back too: nobody moves, a minute passes, a computer plays for them
    (seat, _slow), = d2.awaited()
    before = d2.view().saves
    await clock.advance(61)
    await drain()
    after = d2.view()
    assert after.saves > before
    note = h2.fake.messages[table.message_id]["embeds"][0].get("footer", {}).get("text", "")
    assert "ran out of time" in note
    await d2.play_out("controls")
    assert not h2.fake.errors


async def test_a_lobby_restarted_right_after_its_message_edits_that_message(
    boot: Boot,
) -> None:
    """The table message is the last thing that happened before the restart (no join, no
    move saved the table since): its id was kept in its own row (migration 0014), so the
    restarted bot edits that message instead of posting another."""
    h1 = await boot()
    alice, bob = h1.member("alice"), h1.member("bob")
    d1 = Driver(h1, [alice, bob])
    await d1.slash("ohhell start", alice)
    table = d1.view()
    assert table is not None and table.message_id is not None
    stored = await h1.bot.store.get_table(table.table_id)  # type: ignore[attr-defined]
    assert stored is not None and stored.message_id is None  # the table row never had it
    await h1.close()

    h2 = await boot(share_with=h1)
    d2 = Driver(h2, [alice, bob])
    resumed = d2.view()
    assert resumed is not None and resumed.message_id == table.message_id
    calls = await d2.slash("ohhell join", bob)
    await drain()
    calls += h2.fake.take()
    assert [c.method for c in calls if c.is_rest and c.message_id == table.message_id] == [
        "PATCH"]  # the same table message, edited
    posted = [c for c in calls if c.path == CHANNEL_MESSAGES and c.method == "POST"
              and str(table.channel_id) in c.url]
    assert posted == []  # and no second one
    assert f"<@{bob.id}>" in str(h2.fake.messages[table.message_id])


async def test_the_turn_timer_warns_then_moves(h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(turn_timeout=60)
    (seat, _m), = d.awaited()
    table = d.view()
    h.fake.take()
    await clock.advance(30)
    await drain()
    calls = [c for c in h.fake.take() if c.audience is PUBLIC]  # the nudges: test_notify.py
    assert [c.message_id for c in calls] == [table.message_id]  # one edit: the warning
    assert "Half the time is gone" in calls[0].json["embeds"][0]["description"]
    await clock.advance(30)
    await drain()
    calls = h.fake.take()
    view = d.view()
    assert view.state.bids[seat] is not None and view.seats[seat].timeouts_in_row == 1
    assert "ran out of time" in h.fake.messages[table.message_id]["embeds"][0]["footer"]["text"]
    assert sum(1 for c in calls if c.message_id == table.message_id) == 1


@pytest.mark.parametrize("how", ["slash", "controls"])
async def test_a_slow_service_is_deferred_then_answered(h: Harness, how: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby()
    store: Any = h.bot.store  # type: ignore[attr-defined]
    save = store.save_table

    async def slow_save(*args: Any, **kwargs: Any) -> Any:  # a slow disk: past the deadline
        await asyncio.sleep(0.05)
        return await save(*args, **kwargs)

    monkeypatch.setattr(store, "save_table", slow_save)
    monkeypatch.setattr(interact, "DEFER_AFTER", 0)  # the timer fires before the save ends
    (seat, m), = d.awaited()
    calls = await (d.act_slash(seat, m) if how == "slash" else d.act_controls(seat, m))
    first = calls[0]
    assert first.path == CALLBACK and first.json["type"] == (5 if how == "slash" else 6)
    answer = next(c for c in calls[1:] if c.via == "webhook")
    assert answer.path in (FOLLOWUP, ORIGINAL)
    assert answer.audience == m.id
    assert d.view().state.bids[seat] is not None
