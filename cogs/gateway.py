"""Gateway events that change what the tables may do: a deleted channel or thread and the bot's
removal from a server end their tables (cancelled, no result, never resumed), and so does a
channel found gone while delivering a table message (cogs/delivery.py's CHANNEL_GONE); a lost
gateway connection pauses the turn timers until discord.py has resumed or reconnected
(docs/discord.md: while it is down no interactions arrive, so running timers would put players
on autopilot).

GUILD_DELETE with `unavailable: true` is an outage, not a removal: discord.py dispatches it as
`on_guild_unavailable`, which ends nothing but pauses that server's turn timers until the
server is back (`on_guild_available`, from its GUILD_CREATE).
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.service import TableService

log = logging.getLogger(__name__)


class Gateway(commands.Cog):
    """Translates those gateway events into table service calls."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        ended = await self.service.channel_gone(channel.id)
        for thread in getattr(channel, "threads", ()):  # its threads go with it
            ended += await self.service.channel_gone(thread.id)
        if ended:
            log.info("channel %s was deleted: ended tables %s", channel.id, ended)

    @commands.Cog.listener()
    async def on_table_channel_gone(self, channel_id: int) -> None:
        """Delivering a table message, Discord said its channel no longer exists (deleted while
        the bot was away, or its CHANNEL_DELETE was missed): end its table the same way
        (cogs/delivery.py dispatches CHANNEL_GONE)."""
        ended = await self.service.channel_gone(channel_id)
        if ended:
            log.info("channel %s was found deleted: ended tables %s", channel_id, ended)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        ended = await self.service.channel_gone(payload.thread_id)
        if ended:
            log.info("thread %s was deleted: ended tables %s", payload.thread_id, ended)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        ended = await self.service.guild_gone(guild.id)
        log.info("removed from server %s: ended tables %s", guild.id, ended)

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.service.pause_guild(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.service.resume_guild(guild.id)

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        self.service.pause_timers()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        await self.service.resume_timers()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.service.resume_timers()


__all__ = ["Gateway"]
