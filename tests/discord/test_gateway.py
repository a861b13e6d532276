"""Gateway events through discord.py's real parsers (tests/discord/faults.py): a deleted
channel or thread and the bot's removal from a server end their tables (cancelled, no result,
refused in plain words, never resumed); a server outage ends nothing; a lost gateway connection
pauses the turn timers and gives the time back when it returns (issue 11)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import ManualClock
from bot.service import GONE_CHANNEL, GONE_GUILD
from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.faults import Faults
from tests.discord.harness import CALLBACK, CHANNEL_MESSAGE, Harness, Member, drain


async def a_game(h: Harness, channel: int | None = None) -> tuple[Driver, list[Member]]:
    people = [h.member("alice"), h.member("bob"), h.member("carol")]
    d = Driver(h, people, channel=channel, seed=6)
    await d.lobby(max_cards=3)
    for _ in range(2):
        seat, m = d.awaited()[0]
        await d.act_controls(seat, m)
    return d, people


async def refusal(d: Driver) -> str:
    """What a person is told who uses the DM controls they had before the table ended."""
    calls = await d.send(d.click_before)  # type: ignore[attr-defined]
    answer = next(c for c in calls if c.path == CALLBACK)
    assert answer.json["data"]["flags"] & 64  # only they see it
    return str(answer.json["data"]["content"])


def remember_controls(d: Driver) -> None:
    """A click on the controls of the person to act, sent later (`refusal`)."""
    seat, m = d.awaited()[0]
    d.click_before = d.controls_payload(seat, m)  # type: ignore[attr-defined]


async def stored(h: Harness, table_id: int) -> Any:
    return await h.bot.store.get_table(table_id)  # type: ignore[attr-defined]


@pytest.mark.parametrize("where", ["channel", "thread"])
async def test_a_deleted_channel_or_thread_ends_its_table(boot: Boot, where: str) -> None:
    h = await boot()
    faults = Faults(h)
    channel = h.channel if where == "channel" else await faults.thread_create(h.channel)
    d, _ = await a_game(h, channel)
    table = d.view()
    assert table is not None
    remember_controls(d)
    h.fake.take()
    if where == "channel":
        await faults.channel_delete(h.channel)
    else:
        await faults.thread_delete(channel, h.channel)
    calls = h.fake.take()
    assert d.view() is None
    record = await stored(h, table.table_id)
    assert record.status.value == "cancelled"
    assert await h.bot.store.game_for_table(table.table_id) is None  # no result, no ratings
    assert not [c for c in calls if str(channel) in c.url]  # nothing sent where nothing is
    assert await refusal(d) == str(GONE_CHANNEL)
    await h.close()
    h2 = await boot(share_with=h)
    assert h2.bot.resume_report.resumed == []  # never resumed
    assert h2.bot.tables.directory.find_table(channel) is None


async def test_the_bot_removed_from_a_server_ends_its_tables(h: Harness) -> None:
    faults = Faults(h)
    d, _ = await a_game(h)
    table = d.view()
    assert table is not None
    remember_controls(d)
    await faults.guild_delete(unavailable=False)
    assert h.bot.tables.directory.tables() == []
    assert (await stored(h, table.table_id)).status.value == "cancelled"
    assert await h.bot.store.game_for_table(table.table_id) is None
    assert await refusal(d) == str(GONE_GUILD)


async def test_a_server_outage_ends_nothing(h: Harness, clock: ManualClock) -> None:
    faults = Faults(h)
    d, _ = await a_game(h)
    table = d.view()
    assert table is not None
    await faults.guild_delete(unavailable=True)
    assert d.view() is not None and d.view().saves == table.saves
    assert (await stored(h, table.table_id)).status.value == "playing"
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # it goes on


async def test_a_lost_gateway_pauses_the_turn_timers(h: Harness, clock: ManualClock) -> None:
    faults = Faults(h)
    d, _ = await a_game(h)
    before = d.view()
    assert before is not None and before.deadline is not None
    await clock.advance(100)  # 20 of the 120 s left
    await drain()
    await faults.disconnect()
    await clock.advance(3600)  # an hour without the gateway: nobody times out
    await drain()
    assert d.view().saves == before.saves
    assert all(s.timeouts_in_row == 0 for s in d.view().seats)
    await faults.resumed()
    after = d.view()
    assert after is not None and after.deadline is not None
    left = (after.deadline - clock.now()).total_seconds()
    assert left == pytest.approx(20)
    record = await stored(h, before.table_id)
    assert record.turn_deadline == pytest.approx(after.deadline.timestamp())  # saved
    await clock.advance(19)
    await drain()
    assert all(s.timeouts_in_row == 0 for s in d.view().seats)
    await clock.advance(2)
    await drain()
    assert any(s.timeouts_in_row == 1 for s in d.view().seats)  # the rest of the turn ran out


async def test_a_new_session_gives_the_time_back_too(h: Harness, clock: ManualClock) -> None:
    faults = Faults(h)
    d, _ = await a_game(h)
    await faults.disconnect()
    await clock.advance(600)
    await drain()
    await faults.ready()  # could not resume: a new session
    view = d.view()
    assert view is not None and view.deadline is not None
    assert (view.deadline - clock.now()).total_seconds() == pytest.approx(120)


async def test_a_server_outage_pauses_its_timers_until_it_is_back(
        h: Harness, clock: ManualClock) -> None:
    faults = Faults(h)
    d, _ = await a_game(h)
    before = d.view()
    assert before is not None and before.deadline is not None
    await clock.advance(90)  # 30 of the 120 s left
    await drain()
    await faults.guild_delete(unavailable=True)
    await clock.advance(3600)
    await drain()
    assert all(s.timeouts_in_row == 0 for s in d.view().seats)
    await faults.guild_available()
    after = d.view()
    assert after is not None and after.deadline is not None
    assert (after.deadline - clock.now()).total_seconds() == pytest.approx(30)
    await clock.advance(31)
    await drain()
    assert any(s.timeouts_in_row == 1 for s in d.view().seats)


@pytest.mark.parametrize("how", ["10003 on the next edit", "50001 on the next edit",
                                 "10004 on the next edit", "found at a restart"])
async def test_a_channel_deleted_unseen_ends_its_table_when_discord_says_so(
        boot: Boot, how: str) -> None:
    """No CHANNEL_DELETE reached the bot (it was offline, or missed it): the next edit of the
    table message answers 10003 Unknown Channel (or 50001 Missing Access, and fetching the
    channel answers 10003), and the table ends exactly as for CHANNEL_DELETE."""
    h = await boot()
    d, _ = await a_game(h)
    table = d.view()
    assert table is not None
    remember_controls(d)
    if how == "found at a restart":
        await h.close()
        h.fake.deleted_channels.add(h.channel)  # deleted while the bot was offline
        h = await boot(share_with=h)
        d = Driver(h, d.members, seed=6)
        d.click_before = remember = d.controls_payload(*d.awaited()[0])  # type: ignore[attr-defined]
        assert remember is not None
    else:
        h.fake.deleted_channels.add(h.channel)
        if how.startswith("50001"):
            Faults(h).fail("PATCH", CHANNEL_MESSAGE, 403, 50001)
        if how.startswith("10004"):  # Unknown Guild: the whole server is gone
            Faults(h).fail("PATCH", CHANNEL_MESSAGE, 404, 10004)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)  # its table message is edited: Discord refuses
    await drain()
    assert d.view() is None
    assert (await stored(h, table.table_id)).status.value == "cancelled"
    assert await h.bot.store.game_for_table(table.table_id) is None  # no result, no ratings
    assert await refusal(d) == str(GONE_CHANNEL)
    await h.close()
    h2 = await boot(share_with=h)
    assert h2.bot.resume_report.resumed == []  # never resumed


async def test_missing_access_in_a_channel_that_exists_tells_the_host_and_ends_nothing(
        h: Harness) -> None:
    d, (alice, *_) = await a_game(h)
    Faults(h).fail("PATCH", CHANNEL_MESSAGE, 403, 50001)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)
    await drain()
    view = d.view()
    assert view is not None and view.status.value == "playing"  # the game goes on
    told = [c for c in h.fake.log if c.method == "POST" and c.audience == alice.id
            and "permission" in str(c.json).lower()]
    assert len(told) == 1, told
