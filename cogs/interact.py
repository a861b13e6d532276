"""Answering an interaction in time: a deferral before Discord's 3-second deadline.

Why this exists: Discord gives an interaction 3 seconds for its first answer. The cog answers
after the service call returns, with the plan that covers the clicked message when there is one
(cogs.presenter `claim`); if the service is slow (its table is busy with computer players, the
disk is slow), this timer defers the interaction before the deadline, and the answer then goes
as an edit of the original response or a followup.
"""

from __future__ import annotations

import asyncio
import contextlib

import discord

DEFER_AFTER = 2.0
"""Seconds to wait for the service before deferring (Discord's deadline is 3 s)."""


class Answering:
    """One interaction waiting for its answer while the service acts (see the module
    docstring)."""

    __slots__ = ("_deferring", "_timer", "ephemeral", "interaction")

    def __init__(self, interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
        """`ephemeral`: a deferral of a slash command is ephemeral (True) or public (the table
        message to come, `/ohhell start`)."""
        self.interaction = interaction
        self.ephemeral = ephemeral
        self._timer: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[None] | None = None

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def is_component(self) -> bool:
        return self.interaction.type is discord.InteractionType.component

    @property
    def source_message_id(self) -> int | None:
        """The message a clicked component sits on (None for slash commands)."""
        msg = self.interaction.message
        return msg.id if msg is not None and self.is_component else None

    def start(self) -> None:
        """Arm the deferral timer."""
        self._timer = asyncio.get_running_loop().call_later(DEFER_AFTER, self._defer_soon)

    def _defer_soon(self) -> None:
        self._deferring = asyncio.get_running_loop().create_task(self._defer())

    async def _defer(self) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if self.is_component:
                await response.defer()  # "update later": keeps the clicked message as is
            else:
                await response.defer(ephemeral=self.ephemeral, thinking=True)

    async def stop_deferring(self) -> None:
        """Stop the deferral timer; wait for a deferral already on its way."""
        if self._timer is not None:
            self._timer.cancel()
        if self._deferring is not None:
            await self._deferring
