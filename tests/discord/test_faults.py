"""Discord faults never freeze a game or lose what a message carried (issue 11).

Faults are served to discord.py's real request loop (tests/discord/faults.py), so what reaches
the bot is what discord.py raises after its own retries. The bot's backoff runs on the manual
clock: a test moves it on, nothing sleeps.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.clock import ManualClock
from tests.discord.driver import Driver
from tests.discord.faults import DROPPED, Faults
from tests.discord.harness import CHANNEL_MESSAGE, CHANNEL_MESSAGES, Harness, Member, drain


def attempts(h: Harness, method: str, path: str) -> list[Any]:
    return [c for c in h.fake.log if c.method == method and c.path == path]


# ---- the harness: discord.py's own retries run ----------------------------------------------

async def test_discord_py_retries_a_500_by_itself(h: Harness) -> None:
    faults = Faults(h)
    faults.fail("POST", CHANNEL_MESSAGES, 500, times=4)
    route = Route("POST", CHANNEL_MESSAGES, channel_id=h.channel)
    data = await h.bot.http.request(route, json={"content": "hello"})
    assert int(data["id"]) in h.fake.messages
    tries = attempts(h, "POST", CHANNEL_MESSAGES)
    assert [getattr(c, "status", 200) for c in tries] == [500, 500, 500, 500, 200]


@pytest.mark.parametrize(("status", "times", "error"), [
    (500, 5, discord.DiscordServerError), (503, 1, discord.DiscordServerError),
    (429, 5, discord.HTTPException), (404, 1, discord.NotFound), (403, 1, discord.Forbidden)])
async def test_what_discord_py_raises_after_its_tries(h: Harness, status: int, times: int,
                                                      error: type[Exception]) -> None:
    faults = Faults(h)
    if status == 429:
        faults.rate_limited("POST", CHANNEL_MESSAGES, times=times)
    else:
        faults.fail("POST", CHANNEL_MESSAGES, status, times=times + 3)
    with pytest.raises(error) as caught:
        await h.bot.http.request(Route("POST", CHANNEL_MESSAGES, channel_id=h.channel),
                                 json={"content": "hello"})
    assert getattr(caught.value, "status", None) == status
    assert len(attempts(h, "POST", CHANNEL_MESSAGES)) == times


async def test_a_dropped_connection_raises_at_once(h: Harness) -> None:
    import aiohttp
    Faults(h).drop("POST", CHANNEL_MESSAGES)
    with pytest.raises(aiohttp.ClientError):
        await h.bot.http.request(Route("POST", CHANNEL_MESSAGES, channel_id=h.channel),
                                 json={"content": "hello"})
    assert [getattr(c, "status", None) for c in attempts(h, "POST", CHANNEL_MESSAGES)] == [
        DROPPED]


# ---- the bot: retried with backoff, never lost ----------------------------------------------

def last_move(d: Driver) -> bool:
    """The next move ends the game (the last card of the last hand)."""
    view = d.view()
    assert view is not None and view.state is not None
    st = view.state
    return (st.hand_number == st.hand_count and st.trick_number == st.tricks_in_hand
            and len(st.current_trick) == st.players - 1)


async def play_until(d: Driver, stop: Any) -> None:
    for _ in range(2000):
        if stop(d):
            return
        seat, m = d.awaited()[0]
        await d.act_controls(seat, m)
    raise AssertionError("never came")


def table_embed(h: Harness, message_id: int) -> dict[str, Any]:
    return h.fake.messages[message_id]["embeds"][0]  # type: ignore[no-any-return]


async def three(h: Harness) -> tuple[Driver, list[Member]]:
    people = [h.member("alice"), h.member("bob"), h.member("carol")]
    d = Driver(h, people, seed=3)
    await d.lobby(max_cards=1)
    return d, people


@pytest.mark.parametrize("fault", ["500", "429", "dropped"])
async def test_the_final_standings_reach_the_channel_through_failures(
        h: Harness, clock: ManualClock, fault: str, caplog: pytest.LogCaptureFixture) -> None:
    d, _ = await three(h)
    table = d.view()
    assert table is not None and table.message_id is not None
    await play_until(d, last_move)
    faults = Faults(h)
    for _ in range(3):  # three failed sends in a row, each outlasting discord.py's own tries
        if fault == "500":
            faults.fail("PATCH", CHANNEL_MESSAGE, 500, times=5, channel=h.channel)
        elif fault == "429":
            faults.rate_limited("PATCH", CHANNEL_MESSAGE, times=5, channel=h.channel)
        else:
            faults.drop("PATCH", CHANNEL_MESSAGE, channel=h.channel)
    seat, m = d.awaited()[0]
    with caplog.at_level(logging.WARNING):
        await d.act_controls(seat, m)
        assert d.view() is None  # the game is over and recorded
        assert "game over" not in table_embed(h, table.message_id)["title"]
        for _ in range(10):
            await clock.advance(60)
            await drain()
    shown = table_embed(h, table.message_id)
    assert "game over" in shown["title"]
    assert any(f["name"] == "Final standings" for f in shown["fields"])
    assert faults.pending() == 0
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING
                and r.name.startswith("cogs")]
    assert warnings, "each failed send is logged"


async def test_a_dm_that_fails_is_sent_again_later(h: Harness, clock: ManualClock) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=4)
    await d.slash("ohhell start", alice, max_cards=2)
    await d.slash("ohhell join", bob)
    await d.slash("ohhell join", carol)
    faults = Faults(h)
    for _ in range(2):  # every hand DM post fails twice: dropped, then a 502 past discord.py
        faults.drop("POST", CHANNEL_MESSAGES, channel=h.fake.dm_of(bob.id))
    faults.fail("POST", CHANNEL_MESSAGES, 502, times=5, channel=h.fake.dm_of(bob.id))
    await d.slash("ohhell deal", alice)
    dm = h.fake.dm_of(bob.id)
    assert dm is not None
    assert len(h.fake.messages_in(dm)) == 1  # the welcome only: the hand's tries failed
    for _ in range(6):
        await clock.advance(30)
        await drain()
    assert faults.pending() == 0
    hand = d.view().seats[1].dm_message_id
    assert hand in h.fake.messages_in(dm), "bob got his hand"
    await d.play_out("controls")


async def test_a_deleted_table_message_is_posted_again_with_the_final_standings(
        h: Harness, clock: ManualClock) -> None:
    d, _ = await three(h)
    table = d.view()
    assert table is not None and table.message_id is not None
    await play_until(d, last_move)
    del h.fake.messages[table.message_id]  # a moderator deleted it: edits get 10008
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)
    await clock.advance(5)
    await drain()
    posts = [mid for mid in h.fake.messages_in(h.channel) if h.fake.messages[mid]["embeds"]
             and "game over" in h.fake.messages[mid]["embeds"][0]["title"]]
    assert len(posts) == 1
    shown = h.fake.messages[posts[0]]["embeds"][0]
    assert any(f["name"] == "Final standings" for f in shown["fields"])


@pytest.mark.parametrize("code", [50001, 50013, 50083])
async def test_missing_access_tells_the_host_once(h: Harness, clock: ManualClock, code: int,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    d, (alice, _bob, _carol) = await three(h)
    faults = Faults(h)
    status = 400 if code == 50083 else 403  # 50083: the thread is archived
    faults.fail("PATCH", CHANNEL_MESSAGE, status, code, times=1000, channel=h.channel)
    dm = h.fake.dm_of(alice.id)
    before = set(h.fake.messages_in(dm)) if dm else set()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            seat, m = d.awaited()[0]
            await d.act_slash(seat, m)
            await clock.advance(5)
            await drain()
    patches = [c for c in attempts(h, "PATCH", CHANNEL_MESSAGE)
               if getattr(c, "status", 0) == status]
    assert len(patches) >= 2  # every change tried again, never retried in a loop
    dm = h.fake.dm_of(alice.id)
    notices = [h.fake.messages[mid]["content"] for mid in h.fake.messages_in(dm)
               if mid not in before and h.fake.messages[mid]["content"]]
    assert len(notices) == 1
    assert ("is archived" if code == 50083 else "missing access or permissions") in notices[0]
    assert f"<#{h.channel}>" in notices[0]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING
                and "cannot post the table message" in r.getMessage()]
    assert len(warnings) == 1


async def test_nothing_is_retried_for_ever_and_an_ended_table_is_forgotten(
        h: Harness, clock: ManualClock) -> None:
    from cogs.delivery import MAX_TRIES_FINAL
    d, _ = await three(h)
    table = d.view()
    assert table is not None
    await play_until(d, last_move)
    faults = Faults(h)
    faults.fail("PATCH", CHANNEL_MESSAGE, 500, times=10**6, channel=h.channel)
    seat, m = d.awaited()[0]
    await d.act_controls(seat, m)
    presenter = h.bot.presenter  # type: ignore[attr-defined]
    assert table.table_id in presenter._tables  # held while its last message is owed
    for _ in range(200):
        await clock.advance(600)
        await drain()
    tries = [c for c in attempts(h, "PATCH", CHANNEL_MESSAGE) if getattr(c, "status", 0) == 500]
    assert len(tries) == 5 * MAX_TRIES_FINAL  # discord.py's 5 tries, MAX_TRIES_FINAL times
    assert table.table_id not in presenter._tables
    assert not presenter.delivery._tasks and not presenter._owed


async def test_an_outage_holds_one_pending_update_per_message_and_loses_nothing(
        h: Harness, clock: ManualClock) -> None:
    d, people = await three(h)
    table = d.view()
    assert table is not None and table.message_id is not None
    faults = Faults(h)
    faults.fail("PATCH", CHANNEL_MESSAGE, 502, times=10**6)  # every edit, table and DMs
    faults.fail("POST", CHANNEL_MESSAGES, 502, times=10**6)  # every new message
    presenter = h.bot.presenter  # type: ignore[attr-defined]
    most = 0
    for _ in range(2000):  # the game goes on through the outage, by slash commands
        awaited = d.awaited()
        if not awaited:
            break
        seat, m = awaited[0]
        await d.act_slash(seat, m)
        await clock.advance(1)
        await drain()
        pending = sum(1 for t in presenter.delivery._tasks if not t.done())  # timers included
        most = max(most, pending)
    assert d.view() is None  # the game ended during the outage
    assert most <= 1 + len(people)  # at most one pending update per message, never a backlog
    faults.clear()  # Discord is back
    for _ in range(10):
        await clock.advance(120)
        await drain()
    shown = table_embed(h, table.message_id)
    assert "game over" in shown["title"]  # the final standings arrived
    assert table.table_id not in presenter._tables and not presenter.delivery._tasks
