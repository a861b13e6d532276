"""The Oh Hell extension can be reloaded while games go on (issue 22): the table service is
built in setup_hook and outlives the cog; the reloaded cog's presenter shows the same tables."""

from __future__ import annotations

from tests.discord.driver import Driver
from tests.discord.harness import Harness


async def test_a_game_plays_on_across_a_reload_of_the_extension(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=3)
    await d.lobby(max_cards=2)
    table = d.view()
    assert table is not None and table.message_id is not None
    seat, member = d.awaited()[0]
    await d.act_controls(seat, member)
    before = h.bot.presenter  # type: ignore[attr-defined]
    await h.bot.reload_extension("cogs.ohhell")
    assert h.bot.presenter is not before  # type: ignore[attr-defined]
    seat, member = d.awaited()[0]
    calls = await d.act_controls(seat, member)  # the old DM controls answer after the reload
    assert calls and calls[0].json.get("type") == 7, [c.json for c in calls]
    await d.play_out("slash")
    final = h.fake.messages[table.message_id]["embeds"][0]
    assert "game over" in final["title"]  # the same table message, edited to the end
