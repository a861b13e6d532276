"""The rows of the messages tables keep on Discord (data/messages.py), written off the tables'
inboxes by one writer.

The presenter reports a message id inside a publish, where nothing may wait; the directory
keeps it in memory (what the views show) and hands the row here. Rows wait in a map keyed by
table and person, so a burst of ids for one table (its message, then each person's DM hand)
becomes one write: a single task writes what waits in one transaction (ROWS_PER_WRITE rows at
most), then the next, and ends once nothing waits; rows that come meanwhile go in the next. A
write that fails is tried again, later, with the rows still the newest of their key; the tables
themselves are never touched (docs/architecture.md section 4: a message id is bookkeeping,
never a save of the table row).
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from data import KeptMessage, Store

log = logging.getLogger(__name__)

FIRST_RETRY = 0.5
LAST_RETRY = 30.0
"""Seconds a failed write waits before it is tried again: doubling from FIRST_RETRY up to
LAST_RETRY while the store stays unreachable."""
ROWS_PER_WRITE = 500
"""Rows one transaction writes at most: the store's one writer is shared with the tables'
saves, which must not wait behind a burst of thousands of ids (a deal at many tables)."""


class MessageRows:
    """The waiting rows and their one writer (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._waiting: dict[tuple[int, int], KeptMessage] = {}
        self._closed_tables: set[int] = set()
        self._let_go: set[int] = set()
        """Tables let go while a write was on its way: a failed write does not bring their
        rows back."""
        self._task: asyncio.Task[None] | None = None
        self._retrying = False
        self._closing = False
        self._failures = 0

    def keep(self, row: KeptMessage) -> None:
        """Write `row` soon (it replaces a row of the same table and person still waiting)."""
        self._waiting[row.table_id, row.user_id] = row
        self._start()

    def table_closed(self, table_id: int) -> None:
        """The table closed: its rows go (the ones waiting are not written)."""
        self.let_go(table_id)
        self._closed_tables.add(table_id)
        self._start()

    def let_go(self, table_id: int) -> None:
        """Another process drives the table now: its rows waiting here are not written."""
        self._let_go.add(table_id)
        for key in [key for key in self._waiting if key[0] == table_id]:
            del self._waiting[key]

    @property
    def writing(self) -> asyncio.Task[None] | None:
        """The writer while rows wait for it (not while it waits to try again)."""
        return None if self._retrying else self._task

    @property
    def idle(self) -> bool:
        """Nothing waits to be written, and no write is on its way."""
        return self._task is None and not self._waiting and not self._closed_tables

    async def close(self) -> None:
        """Write what waits (once more if the writer was waiting to retry), then stop."""
        self._closing = True  # a write that fails from now is not retried later
        task = self._task
        if task is not None and self._retrying:
            task.cancel()  # waiting to try again: try now
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        while self._waiting or self._closed_tables:
            if not await self._write_once():
                break
        if self._waiting:
            log.error("%d message rows could not be written before closing", len(self._waiting))

    def _start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self._waiting or self._closed_tables:
                if not await self._write_once():
                    if self._closing or self._store.closed:
                        return
                    self._retrying = True
                    try:
                        await asyncio.sleep(
                            min(LAST_RETRY, FIRST_RETRY * 2 ** (self._failures - 1)))
                    finally:
                        self._retrying = False
        finally:
            self._task = None

    async def _write_once(self) -> bool:
        """Write what waits (up to ROWS_PER_WRITE rows), in one transaction; False (rows
        kept to try again) when the write failed."""
        rows = list(itertools.islice(self._waiting.values(), ROWS_PER_WRITE))
        for row in rows:
            del self._waiting[row.table_id, row.user_id]
        closed = sorted(self._closed_tables)
        self._closed_tables.clear()
        self._let_go.clear()
        try:
            await self._store.keep_messages(rows, closed)
        except Exception:
            self._failures += 1
            log.warning("could not write %d message rows (attempt %d); trying again",
                        len(rows) + len(closed), self._failures, exc_info=True)
            for row in rows:  # those replaced or let go meanwhile stay as they are now
                if row.table_id not in self._let_go:
                    self._waiting.setdefault((row.table_id, row.user_id), row)
            self._closed_tables.update(closed)
            return False
        self._failures = 0
        return True


__all__ = ["MessageRows"]
