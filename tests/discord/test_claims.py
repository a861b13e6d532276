"""Whose answer carries which message: a claim covers only the message its click sits on.

cogs/presenter.py: before a click's service call the cog claims the message clicked on; the
update of that message is held for the interaction response, every other update goes over REST
as usual, and whatever the response did not carry (the action or the response failed) goes over
REST when the claim ends (docs/architecture.md section 6).
"""

from __future__ import annotations

from bot.clock import ManualClock
from bot.events import SeatAutopiloted
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, CHANNEL_MESSAGE, Harness, drain


async def _until_awaited(d: Driver, clock: ManualClock) -> None:
    for _ in range(100):
        if d.awaited():
            return
        await clock.advance(1)
        await drain()
    raise AssertionError("the computers never handed over")


async def test_updates_elsewhere_never_answer_a_claim(boot: Boot, clock: ManualClock) -> None:
    """A person's claim on their DM hand is open; computer moves at another table, and a
    publish at the same table that changes only its table message, go over REST and are never
    the plan that answers them; a change of the claimed DM is held for it instead."""
    h = await boot(channels=2)
    alice, bob = h.member("alice"), h.member("bob")
    here = Driver(h, [alice], channel=h.channels[0])
    there = Driver(h, [bob], channel=h.channels[1])
    await here.lobby(bots=2, max_cards=3)
    await there.lobby(bots=2, max_cards=3)
    await _until_awaited(here, clock)
    await _until_awaited(there, clock)
    presenter = h.bot.presenter  # type: ignore[attr-defined]
    view = here.view()
    assert view is not None and view.message_id is not None
    dm = here.hand_message(alice)
    dm_channel = h.fake.dm_of(alice.id)
    claim = presenter.claim(view.table_id, alice.id, channel_id=dm_channel, message_id=dm)
    h.fake.take()

    seat, _ = there.awaited()[0]
    calls = await there.act_controls(seat, bob)  # bob's move, and the computers' after it
    await _until_awaited(there, clock)
    computer = next(s.seat for s in view.seats if s.user_id is None)
    # the same table: a line on its table message only (a computer seat's news)
    await presenter.publish(here.view(), [SeatAutopiloted(computer, on=True)])
    await drain()
    calls += h.fake.take()
    assert presenter.plan_for(claim) is None
    other = there.view()
    assert other is not None
    assert [c for c in calls if c.is_rest and c.message_id == other.message_id]  # over REST
    assert [c for c in calls if c.is_rest and c.message_id == view.message_id]
    assert not [c for c in calls if c.audience == alice.id]

    own_seat = view.seat_of(alice.id)
    assert own_seat is not None
    await presenter.publish(here.view(), [SeatAutopiloted(own_seat, on=False)])
    await drain()
    assert not [c for c in h.fake.take() if c.is_rest and c.message_id == dm]  # held
    plan = presenter.plan_for(claim)
    assert plan is not None and plan.message_id == dm
    presenter.release(claim)
    await drain()


async def test_an_answer_that_failed_leaves_its_update_to_rest(h: Harness) -> None:
    """The Join click's answer fails (the interaction expired): the table message it was to
    carry still shows the new seat, edited over REST."""
    alice, bob = h.member("alice"), h.member("bob")
    d = Driver(h, [alice, bob])
    await d.slash("ohhell start", alice)
    view = d.view()
    assert view is not None and view.message_id is not None
    h.fake.fail_once("POST", CALLBACK, 404, 10062, "Unknown interaction")
    h.fake.take()
    calls = await d.send(h.click(view.message_id, "Join", bob))
    assert [c for c in calls if c.path == CALLBACK]  # the answer was tried...
    edits = [c for c in calls if c.is_rest and c.method == "PATCH"
             and c.path == CHANNEL_MESSAGE and c.message_id == view.message_id]
    assert len(edits) == 1  # ...and its update went over REST
    assert f"<@{bob.id}>" in str(h.fake.messages[view.message_id])
    h.fake.errors.clear()  # the failed answer is logged by discord.py's error handler


async def test_a_refused_click_lets_a_held_update_go(boot: Boot, clock: ManualClock) -> None:
    """An update held by the edit interval when a refused click claims its message still
    reaches the table message over REST, once its moment comes."""
    h = await boot(edit_interval=5.0)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    await d.slash("ohhell join", bob)  # the first change in a while: edited at once
    await d.slash("ohhell join", carol)  # within the interval: held
    view = d.view()
    assert view is not None and view.message_id is not None
    assert f"<@{carol.id}>" not in str(h.fake.messages[view.message_id])
    calls = await d.send(h.click(view.message_id, "Join", bob))  # already seated: refused
    (answer,) = [c for c in calls if c.path == CALLBACK]
    assert answer.json["type"] == 4 and answer.json["data"]["flags"] & 64  # ephemeral refusal
    await clock.advance(5)
    await drain()
    assert f"<@{carol.id}>" in str(h.fake.messages[view.message_id])
