"""Whole games through Discord: slash commands only, controls only, and with computer seats."""

from __future__ import annotations

from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import CALLBACK, PUBLIC, Harness


def _table_embeds(h: Harness, message_id: int) -> dict:
    return h.fake.messages[message_id]["embeds"][0]


async def test_a_game_played_with_slash_commands_only(h: Harness) -> None:
    watch = PrivacyWatch(h)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    view = await d.lobby(max_cards=2)
    assert view.message_id is not None
    await d.play_out("slash")
    assert d.view() is None  # finished: the channel is free again
    final = _table_embeds(h, view.message_id)
    assert "game over" in final["title"]
    assert any(f["name"] == "Final standings" for f in final["fields"])
    labels = [c["label"] for c in h.components(view.message_id)]
    assert labels == ["Rematch", "Replay"]  # no My hand
    calls = await d.slash("ohhell leaderboard", alice)
    board = calls[0].body["embeds"][0]["description"]
    assert all(f"<@{m.id}>" in board for m in (alice, bob, carol))
    assert calls[0].audience is PUBLIC
    assert watch.checked > 20 and not watch.leaks, watch.leaks


async def test_a_game_played_with_buttons_and_selects_only(h: Harness) -> None:
    watch = PrivacyWatch(h)
    alice, bob, carol, dan = (h.member(n) for n in ("alice", "bob", "carol", "dan"))
    d = Driver(h, [alice, bob, carol, dan], seed=2)
    await d.slash("ohhell start", alice, max_cards=2)
    table = d.view()
    assert table is not None and table.message_id is not None
    for m in (bob, carol, dan):
        await d.send(h.click(table.message_id, "Join", m))
    calls = await d.send(h.click(table.message_id, "Deal", alice))
    assert calls[0].path == CALLBACK and calls[0].json["type"] == 7  # the click updated the table
    await d.play_out("controls")
    final = _table_embeds(h, table.message_id)
    assert "game over" in final["title"]
    assert "rating" in next(f for f in final["fields"] if f["name"] == "Final standings")["value"]
    assert watch.checked > 20 and not watch.leaks, watch.leaks


async def test_a_game_with_computer_seats(h: Harness) -> None:
    watch = PrivacyWatch(h)
    alice = h.member("alice")
    d = Driver(h, [alice])
    await d.lobby(bots=3, max_cards=3, bot_level="easy")
    await d.play_out("controls")
    calls = await d.slash("ohhell stats", alice)
    assert "Games **1**" in calls[0].body["embeds"][0]["description"]
    assert not watch.leaks, watch.leaks


async def test_variant_phases_through_controls(h: Harness) -> None:
    """dealer_picks (trump buttons in the dealer's DM) and ouch (a discard select)."""
    watch = PrivacyWatch(h)
    for preset, channel in (("dealer_picks", h.channel), ("ouch", h.add_channel())):
        people = [h.member(f"{preset}{i}") for i in range(3)]
        d = Driver(h, people, channel=channel, seed=4)
        await d.lobby(preset=preset, max_cards=3)
        await d.play_out("controls")
        assert d.view() is None
    used = " ".join(str(c.json) for c in h.fake.log if c.path.endswith("/messages"))
    assert "ohhell:trump:" in used and "ohhell:discard:" in used
    assert not watch.leaks, watch.leaks
