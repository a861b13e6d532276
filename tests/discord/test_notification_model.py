"""The fake Discord knows who is notified as Discord does (tests/discord/notifications.py):
a new DM or a pinging mention in a new message's content notifies; edits, embeds, ephemeral
answers and refused posts never do. Sent through discord.py's own message builders."""

from __future__ import annotations

import contextlib

import discord

from tests.discord.harness import Harness
from tests.discord.notifications import notified


async def test_a_new_dm_notifies_its_owner_and_nobody_else(h: Harness) -> None:
    alice, bob = h.member("alice"), h.member("bob")
    dm = await h.bot.create_dm(discord.Object(alice.id))
    await dm.send(embed=discord.Embed(description=f"hello {bob.mention}"))
    assert [n.why for n in notified(h, alice)] == ["dm"]
    assert notified(h, bob) == []


async def test_an_edit_never_notifies_even_when_it_adds_a_mention(h: Harness) -> None:
    alice = h.member("alice")
    channel = h.bot.get_channel(h.channel)
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("the table")
    await msg.edit(content=f"the table, {alice.mention} to play")
    dm = await h.bot.create_dm(discord.Object(alice.id))
    hand = await dm.send("your hand")
    await hand.edit(content="your hand: your turn")
    assert [n.why for n in notified(h, alice)] == ["dm"]  # the DM's post, not its edit


async def test_a_mention_pings_only_in_content_and_only_when_allowed(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    channel = h.bot.get_channel(h.channel)
    assert isinstance(channel, discord.TextChannel)
    await channel.send(embed=discord.Embed(description=f"{alice.mention} to play"))
    await channel.send(f"{bob.mention} to play", allowed_mentions=discord.AllowedMentions.none())
    await channel.send(f"<@!{carol.id}> to play, {bob.mention} next",
                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(carol.id)]))
    assert notified(h, alice) == []
    assert notified(h, bob) == []
    assert [n.why for n in notified(h, carol)] == ["mention"]


async def test_a_refused_dm_and_an_ephemeral_answer_notify_nobody(h: Harness) -> None:
    alice = h.member("alice")
    h.fake.closed_dms.add(alice.id)
    dm = await h.bot.create_dm(discord.Object(alice.id))
    with contextlib.suppress(discord.Forbidden):
        await dm.send("cards")
    await h.send(h.slash("ohhell rules", alice))  # an ephemeral answer to alice
    assert notified(h, alice) == []
