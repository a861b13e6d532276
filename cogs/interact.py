"""Answering an interaction: once, in time, and with what the actor should see.

Why this exists: Discord gives an interaction 3 seconds for its first answer, and the cheapest
answer is the one that also updates what the actor looks at (the table message under a lobby
button, the DM hand under a bid button). `Acting` marks the task that performs one player's
action, so the presenter, publishing inside that action, can leave the message the actor clicked
on to the interaction response instead of editing it over REST (one call saved per action).

If the service is slow (its table lock is busy with computer players, the disk is slow), a
timer defers the interaction before Discord's deadline; the answer then goes as an edit of the
original response or a followup.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.inbox import acting_task

DEFER_AFTER = 2.0
"""Seconds to wait for the service before deferring (Discord's deadline is 3 s)."""


@dataclass(eq=False)
class Acting:
    """One player's action in progress (see the module docstring)."""

    interaction: discord.Interaction
    table_id: int | None
    post_table: bool = False
    """The answer is the (new) table message itself (`/ohhell start`)."""
    ephemeral: bool = True
    """A deferral would be ephemeral (True) or public (the table message to come)."""
    task: asyncio.Task[Any] | None = None
    covered: list[Any] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    _timer: asyncio.TimerHandle | None = None
    _deferring: asyncio.Task[None] | None = None

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def source_message_id(self) -> int | None:
        """The message a clicked component sits on (None for slash commands)."""
        msg = self.interaction.message
        return msg.id if msg is not None else None

    @property
    def is_component(self) -> bool:
        return self.interaction.type is discord.InteractionType.component

    def start(self) -> None:
        self.task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(DEFER_AFTER, self._defer_soon)

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

    def covers(self, message_id: int | None, *, table: bool = False) -> bool:
        """Can the interaction response carry the update of this message?"""
        if self.responded.is_set() or self.covered:
            return False
        if message_id is not None:
            return self.is_component and message_id == self.source_message_id
        return table and self.post_table


@dataclass(eq=False)
class ActingRef:
    """What the context variable holds: a box emptied once the action is answered.

    Tasks spawned during an action (the service's turn timer, computer moves, message
    updates) copy the context; through the box they keep a few bytes, not the interaction
    with its parsed message (hundreds of objects per table otherwise stay alive for nothing).
    """

    acting: Acting | None


ACTING: ContextVar[ActingRef | None] = ContextVar("ohhell_acting", default=None)


@contextlib.contextmanager
def acting_as(acting: Acting) -> Iterator[None]:
    """Mark the current task as performing `acting` until the block ends."""
    ref = ActingRef(acting)
    token = ACTING.set(ref)
    try:
        yield
    finally:
        ACTING.reset(token)
        ref.acting = None


def current_acting(table_id: int) -> Acting | None:
    """The action being performed by this very task at this table, if any.

    Tasks spawned during an action (computer moves, timers) inherit the context variable;
    checking the task keeps them from answering someone else's interaction.
    """
    ref = ACTING.get()
    acting = ref.acting if ref is not None else None
    if acting is None or acting.task is not acting_task():
        return None
    if acting.table_id is not None and acting.table_id != table_id:
        return None
    return acting
