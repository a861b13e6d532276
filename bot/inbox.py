"""A table's inbox: its changes run one at a time, in the order they came, without a lock.

Each live table has one (LiveTable.inbox). Everything that changes the table (people's
commands, computer moves, timeouts, a deleted channel) is a job posted to it, so
the table changes in one place, in order (docs/architecture.md section 1, "one owner per live
table"). The inbox holds no task while it is empty: a drain task starts when a job arrives at
an empty inbox and ends once the inbox is empty again, so the number of tasks grows with the
work in flight, not with the number of tables.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

Job = Callable[[], Awaitable[T]]
"""A change to run in order: awaited to its end before the next job starts."""


class Inbox:
    """One table's serial queue of jobs (see the module docstring)."""

    __slots__ = ("_drain", "_inline", "_jobs")

    def __init__(self) -> None:
        self._inline = False
        """A job runs in its caller's own task (the inbox was empty when it came)."""
        self._jobs: deque[tuple[Job[Any], asyncio.Future[Any]]] | None = None
        self._drain: asyncio.Task[None] | None = None

    def post(self, job: Job[T]) -> asyncio.Future[T]:
        """Queue `job`; its outcome comes in the returned future.

        A caller that stops waiting (cancelled) before its job started takes it back (it
        never runs); a job that started runs to its end, as a commit whose caller went away
        must (docs/architecture.md section 4).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._jobs is None:
            self._jobs = deque()
        self._jobs.append((job, future))
        if self._drain is None and not self._inline:
            self._drain = loop.create_task(self._run_jobs())
        return future

    def send(self, job: Job[Any]) -> None:
        """Queue `job` that nobody waits for; its failure is logged."""
        self.post(job).add_done_callback(_log_failure)

    async def run(self, job: Job[T]) -> T:
        """Run `job` once the jobs before it are done, and return its outcome (in the caller's
        task when the inbox is empty). Never call from inside a job of the same inbox: it would
        wait for itself. A caller cancelled while its job runs in its own task cancels the job:
        a commit then reconciles as any cancelled write does (bot/ledger.py)."""
        if not self.busy:
            # Nothing waits: run it here, in the caller's task (no task, no hop).
            self._inline = True
            try:
                return await job()
            finally:
                self._inline = False
                if self._jobs and self._drain is None:
                    self._drain = asyncio.get_running_loop().create_task(self._run_jobs())
        return await self.post(job)

    @property
    def busy(self) -> bool:
        """A job is running or waiting."""
        return self._drain is not None or self._inline

    @property
    def draining(self) -> asyncio.Task[None] | None:
        """The task running the jobs, while there are any."""
        return self._drain

    async def _run_jobs(self) -> None:
        jobs = self._jobs
        assert jobs is not None
        try:
            while jobs:
                job, future = jobs.popleft()
                if future.done():
                    continue  # its caller gave up before it started
                try:
                    result = await job()
                except asyncio.CancelledError:
                    future.cancel()
                    raise  # the service is closing
                except BaseException as err:  # handed to whoever waits
                    if not future.done():
                        future.set_exception(err)
                else:
                    if not future.done():
                        future.set_result(result)
        finally:
            self._drain = None
            while jobs:  # cancelled: the jobs still waiting will not run
                jobs.popleft()[1].cancel()
            self._jobs = None


def _log_failure(future: asyncio.Future[Any]) -> None:
    if future.cancelled():
        return
    err = future.exception()
    if err is not None:
        log.error("a table job failed", exc_info=err)


__all__ = ["Inbox", "Job"]
