"""Several bot processes on one PostgreSQL: which tables this process drives.

Discord's sharding splits the guilds between processes (SHARD_COUNT, SHARD_IDS): a guild's
interactions reach only the process connected to its shard, so that process drives its tables.
Each table row names the process driving it (its owner), and each process keeps a lease (a row
it renews every lease/3 seconds). At start a process claims the open tables of its shards that
nobody else drives and resumes only those; every lease/3 seconds it renews its lease and claims
again, which adopts the tables of TAKEOVER_SHARD_IDS whose process stopped renewing (it died):
their games go on here, from their last committed move. Once a shard's own process is back (a
restart), the tables taken over are handed back to it (Discord sends it their interactions). A
save names its process and the store refuses it from any other, so a table is never driven by
two processes at once, even by one that stalled past its lease and woke up. The leaderboards and
stats read every process's games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from dataclasses import dataclass
from datetime import timedelta

from bot.service import ResumeReport, TableService
from data import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """This process's part: the shards it connects to and drives, and the shards whose tables it
    adopts when their own process dies."""

    shard_count: int
    shard_ids: tuple[int, ...]
    takeover_ids: tuple[int, ...] = ()
    lease_seconds: float = 30.0

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError("SHARD_COUNT must be at least 1")
        for shard in (*self.shard_ids, *self.takeover_ids):
            if not 0 <= shard < self.shard_count:
                raise ValueError(
                    f"shard id {shard} is not one of the {self.shard_count} shards "
                    f"(0 to {self.shard_count - 1})"
                )
        if self.lease_seconds <= 0:
            raise ValueError("the lease must be a positive number of seconds")


def process_name(plan: ShardPlan) -> str:
    """A name for this process's lease, unique among the processes sharing the database."""
    shards = "-".join(map(str, plan.shard_ids)) or "none"
    return f"shards-{shards}@{socket.gethostname()}:{os.getpid()}"


LEASE_KEY = ("shard-lease",)
"""The lease renewal's deadline in the process's scheduler."""


class ShardLeases:
    """Keeps this process's lease and claims its tables (see the module docstring). The
    renewals are deadlines in the process's one scheduler (bot/scheduler.py, the service's),
    not a loop of their own: a task exists only while a renewal runs."""

    def __init__(self, store: Store, service: TableService, plan: ShardPlan) -> None:
        """`store` was opened with an owner (Store.open(..., owner=process_name(plan)))."""
        self.store = store
        self.service = service
        self.plan = plan
        self._renewing: asyncio.Task[None] | None = None
        self._stopped = False

    async def start(self) -> ResumeReport:
        """Take the lease, claim this process's tables and resume them; then keep the lease."""
        report = await self.tick()
        self._next_renewal()
        return report

    async def tick(self) -> ResumeReport:
        """Renew the lease; give taken-over tables back to their shard's own process if it is
        alive again; claim (own shards' tables nobody drives, dead processes' tables of the
        takeover shards) and resume what is new here."""
        await self.store.renew_lease(self.plan.shard_ids)
        if self.plan.takeover_ids:
            handed = await self.store.hand_back(
                self.plan.shard_count, self.plan.takeover_ids, self.plan.lease_seconds
            )
            if handed:
                await self.service.hand_over(handed)
                log.info("gave %d tables back to their shard's own process: %s", len(handed),
                         handed)
        loaded = await self.store.claim_tables(
            self.plan.shard_count,
            self.plan.shard_ids,
            self.plan.lease_seconds,
            takeover_ids=self.plan.takeover_ids,
        )
        report = await self.service.resume_all(loaded)
        if report.resumed:
            log.info("now driving %d more tables: %s", len(report.resumed), report.resumed)
        return report

    def _next_renewal(self) -> None:
        """The next renewal, a third of the lease from now (the lease lasts three rounds)."""
        if self._stopped:
            return
        when = self.service.clock.now() + timedelta(seconds=self.plan.lease_seconds / 3)
        self.service.scheduler.at(LEASE_KEY, when, self._renew_now)

    def _renew_now(self) -> None:
        """The renewal's moment: run it in a task of its own (the scheduler never waits)."""
        if not self._stopped and self._renewing is None:
            self._renewing = asyncio.get_running_loop().create_task(self._renew(),
                                                                     name="shard-lease")

    async def _renew(self) -> None:
        try:
            await self.tick()
        except Exception:  # the next round tries again; the lease lasts three rounds
            log.exception("could not renew the shard lease")
        finally:
            self._renewing = None
            self._next_renewal()

    async def stop(self) -> None:
        """At a clean shutdown: stop renewing and give the lease up, so a process set to take
        these shards over may do so at once."""
        self._stopped = True
        self.service.scheduler.cancel(LEASE_KEY)
        renewing, self._renewing = self._renewing, None
        if renewing is not None:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
        await self.store.release_lease()
