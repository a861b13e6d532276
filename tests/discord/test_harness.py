"""The harness itself: it must behave like Discord where the cogs' tests rely on it."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.harness import (
    CALLBACK,
    CHANNEL_MESSAGES,
    FOLLOWUP,
    PUBLIC,
    Harness,
    drain,
)
from tests.discord.limits import check_message, check_sync_payload


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:count:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"toy:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class Toy(commands.Cog):
    toy = app_commands.Group(name="toy", description="Toy commands")

    @toy.command(name="roll", description="Roll a die")
    async def roll(self, interaction: discord.Interaction,
                   sides: app_commands.Range[int, 2, 100],
                   style: str = "plain") -> None:
        await interaction.response.send_message(f"d{sides} {style}", ephemeral=True)

    @roll.autocomplete("style")
    async def styles(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=s, value=s) for s in ("plain", "fancy") if current in s]

    @toy.command(name="count", description="Post a counter")
    async def count(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count 0", view=view)

    @toy.command(name="poke", description="DM a member")
    async def poke(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await member.send("poke")
        except discord.Forbidden as e:
            await interaction.followup.send(f"cannot DM ({e.code})", ephemeral=True)
            return
        await interaction.followup.send("poked", ephemeral=True)

    @toy.command(name="admin", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    @toy.command(name="boom", description="Fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @toy.command(name="later", description="Starts background work")
    async def later(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("started")

        async def work() -> None:
            for _ in range(5):
                await asyncio.sleep(0)
            await interaction.channel.send("done")  # type: ignore[union-attr]

        async def timer() -> None:
            await asyncio.sleep(3600)

        self.tasks = [asyncio.create_task(work()), asyncio.create_task(timer())]


@app_commands.command(name="secret", description="Managers only")
@app_commands.default_permissions(manage_guild=True)
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("shh", ephemeral=True)


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await self.add_cog(Toy())
        self.tree.add_command(secret)
        self.add_dynamic_items(Counter)


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    h = await Harness(ToyBot()).start()
    yield h
    for t in getattr(h.bot.get_cog("Toy"), "tasks", []):
        t.cancel()
    await h.close()


async def test_slash_reaches_the_command_and_answers_once(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.slash("toy roll", alice, sides=6))
    assert [(c.via, c.path) for c in calls] == [("webhook", CALLBACK)]
    assert calls[0].json == {"type": 4, "data": {"tts": False, "content": "d6 plain", "flags": 64}}
    assert calls[0].audience == alice.id
    assert not h.fake.errors


async def test_builder_validates_like_discord(h: Harness) -> None:
    alice = h.member("alice")
    with pytest.raises(ValueError, match="range"):
        h.slash("toy roll", alice, sides=500)
    with pytest.raises(ValueError, match="missing"):
        h.slash("toy roll", alice)
    with pytest.raises(ValueError, match="integer"):
        h.slash("toy roll", alice, sides="six")
    boss = h.member("boss", admin=True)
    calls = await h.send(h.slash("toy admin", boss))  # a subcommand's default permissions
    assert calls[0].body["content"] == "ok" and calls[0].audience is PUBLIC  # are not synced
    with pytest.raises(PermissionError):
        h.slash("secret", alice)  # a top-level command's are: Discord hides it
    await h.send(h.slash("secret", boss))


async def test_autocomplete_answers_the_typing_user(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.autocomplete("toy roll", alice, "style", "fa", sides=6))
    assert calls[0].json == {"type": 8, "data": {"choices": [{"name": "fancy", "value": "fancy"}]}}
    assert calls[0].audience == alice.id


async def test_dynamic_button_edits_its_message_even_after_restart(h: Harness) -> None:
    alice, bob = h.member("alice"), h.member("bob")
    calls = await h.send(h.slash("toy count", alice))
    mid = calls[0].message_id
    assert mid is not None and h.components(mid)[0]["custom_id"] == "toy:count:0"
    calls = await h.send(h.click(mid, "Count 0", bob))
    assert calls[0].json["type"] == 7 and calls[0].body["content"] == "count 1"
    assert h.fake.messages[mid]["content"] == "count 1"
    # a fresh bot (a restart) knows nothing of the message but the dynamic item still works
    h2 = await Harness(ToyBot()).start()
    h2.fake.messages, h2.fake.audience = h.fake.messages, h.fake.audience
    calls = await h2.send(h2.click(mid, "Count 1", bob))
    assert calls[0].body["content"] == "count 2"
    await h2.close()


async def test_closed_dms_raise_50007_and_followups_reach_only_the_user(h: Harness) -> None:
    alice, bob = h.member("alice"), h.member("bob")
    h.fake.closed_dms.add(bob.id)
    calls = await h.send(h.slash("toy poke", alice, member=bob))
    assert [c.path for c in calls] == [CALLBACK, "/users/@me/channels", CHANNEL_MESSAGES, FOLLOWUP]
    assert calls[-1].json["content"] == "cannot DM (50007)" and calls[-1].audience == alice.id
    calls = await h.send(h.slash("toy poke", bob, member=alice))
    assert calls[2].audience == alice.id and calls[2].json["content"] == "poke"


async def test_errors_are_captured_and_the_unanswered_interaction_is_visible(h: Harness) -> None:
    alice = h.member("alice")
    payload = h.slash("toy boom", alice)
    with pytest.raises(AssertionError, match="answered 0 times"):
        await h.send(payload)
    assert any("boom" in repr(r.exc_info) for r in h.fake.errors)
    h.fake.errors.clear()


async def test_drain_waits_for_work_but_not_for_timers(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.slash("toy later", alice))
    assert [c.body.get("content") for c in calls] == ["started", "done"]
    await drain()


async def test_sync_payload_and_message_limits(h: Harness) -> None:
    await h.bot.tree.sync()
    (call,) = h.fake.take()
    assert call.method == "PUT" and check_sync_payload(call.json) == []
    bad = {"content": "x" * 2001, "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b", "custom_id": "x" * 101}] * 6}]}
    errs = check_message(bad)
    assert "content > 2000 characters" in errs and "an action row holds 1-5 components" in errs
    assert check_sync_payload([{"name": "Bad Name", "description": "", "type": 1}])
