"""The end of a game: the final message carries the chart of the running totals and a Rematch
button; the host's click opens a new table with the same rules, the same computer players and
the game's people invited, each of whom joins with one click."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from cogs.render import CHART_FILE
from tests.discord.driver import Driver
from tests.discord.harness import CALLBACK, CHANNEL_MESSAGES, Harness, drain
from tests.discord.notifications import notified


async def finished_game(h: Harness) -> tuple[Driver, int, int]:
    """A game of alice (host), bob, carol and one computer, played to its end."""
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    table = await d.lobby(max_cards=2, bots=1, scoring="penalty", turn_timeout=0)
    await d.play_out("controls")
    await drain()
    assert table.message_id is not None
    return d, table.table_id, table.message_id


async def test_the_final_message_carries_the_chart_and_a_rematch_button(h: Harness) -> None:
    _, _, message_id = await finished_game(h)
    final = h.fake.messages[message_id]
    (embed,) = final["embeds"]
    assert "game over" in embed["title"] and "Final standings" in str(embed["fields"])
    assert embed["image"]["url"] == f"attachment://{CHART_FILE}"
    ((name, png),) = h.fake.attachments[message_id]
    assert name == CHART_FILE
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (800, 450)
    assert [c["label"] for c in h.components(message_id)] == ["Rematch", "Replay"]


async def test_rematch_opens_the_same_table_and_invites_the_players(h: Harness) -> None:
    d, table_id, message_id = await finished_game(h)
    alice, bob, carol = d.members
    old = await h.bot.store.get_table(table_id)  # type: ignore[attr-defined]
    # only the host opens it
    calls = await h.send(h.click(message_id, "Rematch", bob))
    (refusal,) = [c for c in calls if c.path == CALLBACK]
    assert refusal.audience == bob.id and "Only the host" in refusal.body["content"]
    assert d.view() is None
    calls = await h.send(h.click(message_id, "Rematch", alice))
    new = d.view()
    assert new is not None and new.table_id != table_id and new.status.value == "lobby"
    assert new.options.preset == "classic" and new.options.max_cards == 2
    assert new.options.scoring == "penalty" and new.options.turn_timeout == 0
    assert [s.is_computer for s in new.seats] == [False, True]  # the host, the computer
    assert old is not None and old.status.value == "finished"
    # the new table is a new message that mentions (so notifies) the invited players
    (posted,) = [c for c in calls if c.path == CHANNEL_MESSAGES and c.method == "POST"]
    assert f"<@{bob.id}>" in posted.json["content"] and f"<@{carol.id}>" in posted.json["content"]
    assert f"<@{alice.id}>" not in posted.json["content"]
    answer = next(c for c in calls if c.path == CALLBACK)
    assert answer.audience == alice.id and "rematch table is open" in answer.body["content"]
    # each confirms with one click
    await h.send(h.click(new.message_id, "Join", bob))
    await h.send(h.click(new.message_id, "Join", carol))
    seated = d.view()
    assert [s.user_id for s in seated.seats] == [alice.id, None, bob.id, carol.id]
    shown = h.fake.messages[new.message_id]
    assert "Invited to the rematch" not in str(shown["embeds"])  # everyone came


async def test_a_game_over_record_that_landed_unheard_is_announced_with_its_ratings(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game-over record commits but the connection drops before the bot hears so (the
    same path as a caller cancelled mid-write): the ratings it stored are read back and shown."""
    store = h.bot.store  # type: ignore[attr-defined]
    commit = store.finish_game
    recorded: list[Any] = []

    async def lands_unheard(*args: Any) -> Any:
        recorded.append(await commit(*args))
        raise ConnectionResetError("connection reset after the commit")

    monkeypatch.setattr(store, "finish_game", lands_unheard)
    d, _, message_id = await finished_game(h)
    (game,) = recorded
    assert len(game.rating_changes) == 3  # three people rated, computer not
    (standings,) = h.fake.messages[message_id]["embeds"][0]["fields"]
    assert standings["name"] == "Final standings"
    lines = standings["value"].splitlines()
    for m in d.members:
        (line,) = [ln for ln in lines if f"<@{m.id}>" in ln]
        assert " · rating " in line and "→" in line, line


async def test_a_rematch_invitation_pings_once_and_reposting_the_table_never_pings(
        h: Harness) -> None:
    """Only the first rematch of a finished game pings its people: `/ohhell table` (by anyone)
    and the host's end-then-Rematch again show the invitation without notifying anyone."""
    d, _, message_id = await finished_game(h)
    alice, bob, carol = d.members
    dave = h.member("dave")
    before = {m.id: len(notified(h, m)) for m in (bob, carol)}
    await h.send(h.click(message_id, "Rematch", alice))
    lobby = d.view()
    assert lobby is not None and lobby.status.value == "lobby"
    for m in (bob, carol):
        [n] = notified(h, m)[before[m.id]:]
        assert n.why == "mention" and "Rematch!" in n.content
    pinged = {m.id: len(notified(h, m)) for m in (bob, carol)}
    for who in (dave, bob, alice):
        calls = await d.slash("ohhell table", who)
        [posted] = [c for c in calls if c.path == CALLBACK]
        assert "Rematch!" in posted.body["content"]  # the invitation still shows, as names
    shown = d.view()
    assert shown is not None and shown.message_id is not None
    del h.fake.messages[shown.message_id]  # a moderator deleted it: the next change posts it
    await d.slash("ohhell join", dave)
    await drain()
    reposted = d.view()
    assert reposted is not None and reposted.message_id != shown.message_id
    assert "Rematch!" in h.fake.messages[reposted.message_id]["content"]
    assert {m.id: len(notified(h, m)) for m in (bob, carol)} == pinged
    await d.slash("ohhell end", alice)
    assert d.view() is None
    calls = await h.send(h.click(message_id, "Rematch", alice))
    again = d.view()
    assert again is not None and again.table_id != lobby.table_id
    (posted,) = [c for c in calls if c.path == CHANNEL_MESSAGES and c.method == "POST"]
    assert f"<@{bob.id}>" in posted.json["content"]
    assert {m.id: len(notified(h, m)) for m in (bob, carol)} == pinged
