"""A daemon thread that owns one sqlite3 connection and runs whole jobs on it for the event loop.

Why not one await per statement (aiosqlite): every statement was then a round trip between the
event loop and the connection's thread, so a save (BEGIN, UPDATE, INSERT, COMMIT) woke the loop
four times and waited behind whatever the loop was busy with each time, and with one writer a
slow save delayed the next. Here a job (a whole transaction, as plain sqlite3 code) runs in the
thread start to end, and the loop hears back once, through one future.

Jobs run one at a time, in the order they were submitted. A job, once submitted, runs to its end
even if the task awaiting it is cancelled: the thread never looks at the future. The thread is a
daemon, so a program that dies without closing the store still exits; SQLite treats that like a
crash (committed transactions stay, an open one rolls back), which the store is built to survive.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

Job = Callable[[sqlite3.Connection], Any]

_log = logging.getLogger(__name__)


class _Stop:
    """The job that closes the connection and ends the thread."""


_STOP = _Stop()


class ConnectionThread:
    """One daemon thread, one sqlite3 connection (opened and used only in that thread), one
    FIFO queue of jobs; each job's result or exception comes back to the loop through a future."""

    def __init__(self, name: str) -> None:
        """A thread named name (as shown in tracebacks and py-spy); start it with start()."""
        self.name = name
        self._jobs: queue.SimpleQueue[tuple[Job | _Stop, asyncio.Future[Any]]] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None

    async def start(self, connect: Callable[[], sqlite3.Connection]) -> None:
        """Start the thread and open its connection with connect() there; raise what connect
        raised (the thread has then ended). If the awaiting task is cancelled, the thread still
        opens the connection: call stop() to close it."""
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._thread = threading.Thread(
            target=self._serve, args=(connect, started), name=self.name, daemon=True
        )
        self._thread.start()
        await started

    def submit(self, job: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        """Queue job(connection) behind the jobs already submitted; await the returned future
        for its result. Cancelling the future does not stop the job."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((job, future))
        return future

    def stop(self) -> asyncio.Future[None]:
        """Close the connection after every job submitted before this call, then end the thread;
        the future resolves once the connection is closed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._jobs.put((_STOP, future))
        return future

    def _serve(
        self, connect: Callable[[], sqlite3.Connection], started: asyncio.Future[None]
    ) -> None:
        try:
            connection = connect()
        except BaseException as err:
            _settle(started, None, err)
            return
        _settle(started, None, None)
        while True:
            job, future = self._jobs.get()
            if isinstance(job, _Stop):
                try:
                    connection.close()
                except BaseException as err:
                    _settle(future, None, err)
                else:
                    _settle(future, None, None)
                return
            _run(job, connection, future)
            del job, future  # hold nothing while waiting for the next job


def _run(job: Job, connection: sqlite3.Connection, future: asyncio.Future[Any]) -> None:
    try:
        value = job(connection)
    except BaseException as err:
        _settle(future, None, err)
    else:
        _settle(future, value, None)


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    """From the thread: hand the outcome to the future's loop (one wake-up of the loop)."""
    try:
        future.get_loop().call_soon_threadsafe(_resolve, future, value, error)
    except RuntimeError:  # the loop is closed: nobody is left to tell
        if error is not None:
            _log.error("store job failed after its event loop closed", exc_info=error)


def _resolve(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    """On the loop: set the outcome, unless the awaiting task gave up on it (cancelled)."""
    if future.cancelled():
        if error is not None:  # as asyncio would report an exception nobody retrieved
            _log.error("store job failed after its caller was cancelled", exc_info=error)
        return
    if error is None:
        future.set_result(value)
        return
    try:
        future.set_exception(error)
    except TypeError:  # StopIteration cannot travel through a future
        future.set_exception(RuntimeError(f"store job raised {error!r}"))
