"""Players are told when it is their turn (issue 11): Discord notifies for a new message only,
so a person slow to act gets exactly one nudge Discord delivers (a DM with a jump link, or a
mention in the channel), removed once they act; none when they act in time. Time is the
manual clock; who is notified is the fake's model of Discord (tests/discord/notifications.py).
"""

from __future__ import annotations

from bot.clock import ManualClock
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.harness import CHANNEL_MESSAGE, Harness, Member, drain
from tests.discord.notifications import Notification, notified, still_there


def nudges(h: Harness, m: Member) -> list[Notification]:
    """The notifications a member got that are not a hand's DM (hand DMs carry an embed)."""
    return [n for n in notified(h, m) if "⏰" in n.content]


async def wait(clock: ManualClock, seconds: float) -> None:
    await clock.advance(seconds)
    await drain()


async def mid_hand(d: Driver) -> Member:
    """Act at once until the turn comes of a person who has acted this hand already (so no new
    DM notified them since: their turn's notification is the nudge); return that person."""
    acted: set[int] = set()
    while (now := d.awaited()[0][1]).id not in acted:
        seat, m = d.awaited()[0]
        await d.act_controls(seat, m)
        acted.add(m.id)
    return now


async def test_a_person_slow_to_act_mid_hand_gets_one_dm_and_it_goes_when_they_act(
        h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    first = d.awaited()[0][1]
    slow = await mid_hand(d)
    assert nudges(h, first) == []  # acted at once: not nudged
    await wait(clock, 19)
    assert nudges(h, slow) == []
    await wait(clock, 1)
    got = nudges(h, slow)
    assert [n.why for n in got] == ["dm"]
    view = d.view()
    assert view is not None
    assert f"/channels/{h.guild_id}/{d.channel}/{view.message_id}" in got[0].content
    assert still_there(h, got[0])
    await wait(clock, 25)
    assert len(nudges(h, slow)) == 1  # one per turn, whatever the wait
    seat, m = d.awaited()[0]
    assert m == slow
    await d.act_controls(seat, m)
    assert not still_there(h, got[0])  # acted: the nudge is gone
    for other in (alice, bob, carol):
        if other != slow:
            assert nudges(h, other) == []


async def test_the_half_time_warning_replaces_the_nudge(boot: Boot, clock: ManualClock) -> None:
    h = await boot(timeout=60)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    slow = await mid_hand(d)
    await wait(clock, 20)
    [nudge] = nudges(h, slow)
    await wait(clock, 10)  # half of 60 s
    got = nudges(h, slow)
    assert len(got) == 2 and "half your time" in got[1].content.lower()
    assert not still_there(h, nudge) and still_there(h, got[1])
    await wait(clock, 30)  # time is up: a computer moved for them, the warning goes
    assert not still_there(h, got[1])
    assert len(nudges(h, slow)) == 2


async def test_closed_dms_get_a_mention_in_the_channel(h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    for m in (alice, bob, carol):
        h.fake.closed_dms.add(m.id)
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    slow = d.awaited()[0][1]
    await wait(clock, 20)
    [n] = nudges(h, slow)
    assert n.why == "mention" and n.channel_id == d.channel
    seat, m = d.awaited()[0]
    await d.act_slash(seat, m)
    assert not still_there(h, n)


async def test_a_player_who_chose_mentions_is_mentioned_in_the_channel(
        h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    for m in (alice, bob, carol):
        [answer] = await d.slash("ohhell notify", m, how="mention")
        assert answer.audience == m.id and "Saved" in answer.body["content"]
    await d.lobby(max_cards=3)
    slow = await mid_hand(d)
    await wait(clock, 20)
    [n] = nudges(h, slow)
    assert n.why == "mention" and n.channel_id == d.channel
    assert f"<@{slow.id}>" in n.content
    others = [m for m in (alice, bob, carol) if m != slow]
    assert all(nudges(h, m) == [] for m in others)  # the mention pings only them
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)
    assert not still_there(h, n)  # the channel does not fill up with nudges


async def test_off_means_no_notification_not_even_the_warning(
        boot: Boot, clock: ManualClock) -> None:
    h = await boot(timeout=60)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    for m in (alice, bob, carol):
        await d.slash("ohhell notify", m, how="off")
    await d.lobby(max_cards=3)
    slow = await mid_hand(d)
    await wait(clock, 40)
    assert nudges(h, slow) == []
    [answer] = [c for c in await d.slash("ohhell notify", slow) if c.is_callback]
    assert "Your choice: off" in answer.body["content"]


async def test_the_server_default_applies_to_those_who_chose_nothing(
        h: Harness, clock: ManualClock) -> None:
    admin = h.member("admin", admin=True)
    [shown] = await h.send(h.slash("ohhell settings", admin, notify="mention"))
    assert "a mention" in shown.body["embeds"][0]["description"]
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    [answer] = await d.slash("ohhell notify", bob)
    assert "this server's default is a mention" in answer.body["content"]
    await d.lobby(max_cards=3)
    slow = await mid_hand(d)
    own = "dm" if slow != alice else "mention"
    await d.slash("ohhell notify", slow, how=own)  # their own choice wins over the server's
    seat, m = d.awaited()[0]
    await wait(clock, 20)
    assert [n.why for n in nudges(h, slow)] == [own]
    await d.act_controls(seat, m)
    nxt = d.awaited()[0][1]
    assert nxt != slow  # someone who chose nothing
    await wait(clock, 20)
    assert [n.why for n in nudges(h, nxt)] == ["mention"]  # the server's default


async def test_an_ended_table_takes_its_nudges_down_and_keeps_nothing(
        h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    slow = await mid_hand(d)
    await wait(clock, 20)
    [n] = nudges(h, slow)
    await d.slash("ohhell end", alice)
    assert not still_there(h, n)
    await wait(clock, 60)
    assert len(nudges(h, slow)) == 1
    nudger = h.bot.presenter.nudges  # type: ignore[attr-defined]
    assert (nudger._turns, nudger._posted, nudger._locks) == ({}, {}, {})


async def test_a_turn_in_progress_at_a_restart_gets_its_nudge_from_when_it_began(
        boot: Boot, clock: ManualClock) -> None:
    h1 = await boot(timeout=120)
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol])
    await d1.lobby(max_cards=3)
    slow = await mid_hand(d1)
    await wait(clock, 5)
    await h1.close()  # the turn is 5 s old; the bot is down for 6 s more
    await clock.advance(6)
    h2 = await boot(timeout=120, share_with=h1)
    await wait(clock, 8)  # 19 s since the turn began
    assert nudges(h2, slow) == []
    await wait(clock, 1)
    got = nudges(h2, slow)
    assert [n.why for n in got] == ["dm"] and still_there(h2, got[0])
    d2 = Driver(h2, [alice, bob, carol])
    seat, m = d2.awaited()[0]
    assert m == slow
    await d2.act_controls(seat, m)
    assert not still_there(h2, got[0])  # acted: the nudge is gone


async def test_a_resumed_turn_long_overdue_is_nudged_at_once(
        boot: Boot, clock: ManualClock) -> None:
    h1 = await boot(timeout=120)
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol])
    await d1.lobby(max_cards=3)
    slow = await mid_hand(d1)
    await h1.close()
    await clock.advance(45)  # its nudge fell due while the bot was down
    h2 = await boot(timeout=120, share_with=h1)
    await drain()
    assert [n.why for n in nudges(h2, slow)] == ["dm"]


async def test_a_resumed_untimed_turn_is_nudged_counting_from_the_restart(
        boot: Boot, clock: ManualClock) -> None:
    h1 = await boot(timeout=0)  # no timer: when the turn began is not stored
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol])
    await d1.lobby(max_cards=3)
    slow = await mid_hand(d1)
    await h1.close()
    await clock.advance(100)
    h2 = await boot(timeout=0, share_with=h1)
    await wait(clock, 19)
    assert nudges(h2, slow) == []
    await wait(clock, 1)
    assert [n.why for n in nudges(h2, slow)] == ["dm"]



async def test_a_new_hand_dm_is_the_turns_one_notification_and_no_nudge_follows(
        h: Harness, clock: ManualClock) -> None:
    """The new hand's DM (with the last hand's result) reaches everyone as a new message,
    which notifies: it is the one notification of each person's next turn, also when a
    computer acts first in that hand; waiting then adds none. Mid-hand the nudge still goes."""
    alice, bob = h.member("alice"), h.member("bob")
    d = Driver(h, [alice, bob])
    view = await d.lobby(bots=1, max_cards=4)
    assert view.state is not None
    checked = 0
    while view.state.hand_number < 4:
        hand = view.state.hand_number
        before = {m.id: len(notified(h, m)) for m in (alice, bob)}
        seat, m = d.awaited()[0]
        await d.act_controls(seat, m)
        view = d.view()  # type: ignore[assignment]
        assert view is not None and view.state is not None
        if view.state.hand_number == hand:
            continue
        _, first = d.awaited()[0]  # the first person to act in the new hand
        [dm] = notified(h, first)[before[first.id]:]  # the new hand's DM
        assert dm.why == "dm" and "⏰" not in dm.content
        await wait(clock, 45)
        assert notified(h, first)[before[first.id]:] == [dm]  # one notification, no nudge
        checked += 1
    assert checked == 3
    slow = await mid_hand(d)  # no new DM since they acted: the nudge is the notification
    mark = len(notified(h, slow))
    await wait(clock, 20)
    assert ["⏰" in n.content for n in notified(h, slow)[mark:]] == [True]


async def test_a_hand_dm_long_before_the_turn_does_not_stand_for_its_notification(
        h: Harness, clock: ManualClock) -> None:
    """The next person waited more than the nudge's grace for the one before: their hand DM
    is old news, so their turn gets its nudge."""
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=3)
    seat, first = d.awaited()[0]
    await wait(clock, 30)
    assert nudges(h, first) == []  # their new hand DM was the turn's notification
    await d.act_controls(seat, first)
    second = d.awaited()[0][1]
    await wait(clock, 19)
    assert nudges(h, second) == []
    await wait(clock, 1)
    assert [n.why for n in nudges(h, second)] == ["dm"]


async def test_a_nudge_posted_before_a_restart_stays_alone_and_goes_when_they_act(
        boot: Boot, clock: ManualClock) -> None:
    """The bot keeps its posted nudges in the store: after a restart the one shown is the
    turn's notification (no second one comes) and it is deleted when the person acts."""
    h1 = await boot(timeout=120)
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol])
    await d1.lobby(max_cards=3)
    slow = await mid_hand(d1)
    await wait(clock, 20)
    [old] = nudges(h1, slow)
    await h1.close()
    await clock.advance(10)  # the turn is 30 s old when the bot is back
    h2 = await boot(timeout=120, share_with=h1)
    await wait(clock, 25)  # the resumed turn's nudge would be long due
    assert nudges(h2, slow) == [old] and still_there(h2, old)  # one shows, one notification
    d2 = Driver(h2, [alice, bob, carol])
    seat, m = d2.awaited()[0]
    assert m == slow
    await d2.act_controls(seat, m)
    await drain()
    assert not still_there(h2, old)  # acted: the nudge from before the restart is gone
    assert [n for n in nudges(h2, slow) if still_there(h2, n)] == []
    assert await h2.bot.store.posted_nudges(d2.view().table_id) == []  # type: ignore[attr-defined]


async def test_a_nudge_discord_would_not_delete_goes_after_a_restart(
        boot: Boot, clock: ManualClock) -> None:
    """Discord refused to delete a nudge when its person acted: it stays kept, and the bot,
    back from a restart, deletes it (its person is no longer to act)."""
    h1 = await boot(timeout=120)
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol])
    await d1.lobby(max_cards=3)
    slow = await mid_hand(d1)
    await wait(clock, 20)
    [old] = nudges(h1, slow)
    h1.fake.fail_once("DELETE", CHANNEL_MESSAGE, 403, 50013, "Missing Permissions")
    seat, m = d1.awaited()[0]
    await d1.act_controls(seat, m)
    await drain()
    assert still_there(h1, old)  # the deletion was refused
    await h1.close()
    h2 = await boot(timeout=120, share_with=h1)
    await drain()
    assert not still_there(h2, old)
    assert [n for n in nudges(h2, slow) if still_there(h2, n)] == []
