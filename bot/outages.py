"""Gateway outages: while no interaction can arrive, no turn may run out.

When the bot loses its gateway connection, or Discord says a server is unavailable (an outage,
not a removal), the people at those tables cannot act: their turn timers stop. When the
connection or the server is back, each awaited turn gets the time it had left when the outage
began (a whole turn if it began during the outage), saved and shown by the table's runner.
"""

from __future__ import annotations

import logging
from datetime import datetime

from bot.clock import Clock
from bot.directory import TableDirectory
from bot.runner import TableRunner
from bot.table import LiveTable
from bot.timers import TurnTimers

log = logging.getLogger(__name__)


class Outages:
    """The outage accounting: since when the gateway and each server are down."""

    def __init__(self, directory: TableDirectory, timers: TurnTimers, runner: TableRunner,
                 clock: Clock) -> None:
        self._directory = directory
        self._timers = timers
        self._runner = runner
        self._clock = clock
        self._gateway_lost: datetime | None = None
        self._servers_down: dict[int, datetime] = {}  # unavailable server -> since when

    def gateway_lost(self) -> None:
        """Every waiting turn timer stops; `gateway_back` gives the time that was left."""
        if self._gateway_lost is None:
            self._gateway_lost = self._clock.now()
            self._timers.pause()
            log.info("gateway lost: turn timers paused")

    async def gateway_back(self) -> None:
        """Every awaited turn gets the time it had left when the connection went."""
        lost, self._gateway_lost = self._gateway_lost, None
        if lost is None:
            return
        self._timers.resume()
        await self._give_time_back(self._directory.live(), lost)

    def server_down(self, guild_id: int) -> None:
        """The server's tables' turn timers pause until `server_back`."""
        if guild_id in self._servers_down:
            return
        self._servers_down[guild_id] = self._clock.now()
        self._timers.pause({t.id for t in self._directory.live() if t.guild_id == guild_id})
        log.info("server %s unavailable: its turn timers paused", guild_id)

    async def server_back(self, guild_id: int) -> None:
        """The server's awaited turns get the time they had left."""
        down = self._servers_down.pop(guild_id, None)
        if down is None:
            return
        tables = [t for t in self._directory.live() if t.guild_id == guild_id]
        self._timers.resume({t.id for t in tables})
        await self._give_time_back(tables, down)

    def server_removed(self, guild_id: int) -> None:
        """The bot left the server: an outage of it ends (its tables end too, elsewhere)."""
        if self._servers_down.pop(guild_id, None) is not None:
            self._timers.resume({t.id for t in self._directory.live() if t.guild_id == guild_id})

    async def _give_time_back(self, tables: list[LiveTable], since: datetime) -> None:
        now = self._clock.now()
        for t in tables:
            await self._runner.give_time_back(t, since)
        log.info("%d tables got back the turn time of a %.0f s outage", len(tables),
                 (now - since).total_seconds())


__all__ = ["Outages"]
