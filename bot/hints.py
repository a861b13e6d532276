"""The hint desk: where /ohhell hint (and `?` in the terminal) thinks, apart from the computers.

A hint is the hard computer's search, about as costly as a hard move, and anyone may open a
table with hints. So a hint never runs in the computers' executor (a flood of hints would delay
their moves at every table): it runs in the desk's own one-worker pool, a process when the
computers think in processes (so it holds neither their worker nor the event loop's GIL), a
thread otherwise. The desk takes at most `hint_slots` hints at once across the process (one
thinking, the rest waiting), one per person, and a person's next hint waits `hint_cooldown`
seconds after their last was answered; anything more is refused in words at once, so a flood
costs nothing but its refusals.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime

from bot import computer
from bot.clock import Clock
from bot.config import ServiceConfig
from bot.errors import TableError
from engine import Phrase, PlayerView

log = logging.getLogger(__name__)

NOTHING_TO_DECIDE = Phrase("There is nothing for you to decide right now.")
BUSY = Phrase("Hints are busy right now; try again in a few seconds.")
STILL_THINKING = Phrase(
    "Your last hint is still being worked out; it will be with you in a moment.")

Work = Callable[[PlayerView, int], Phrase]
"""(view, seed) -> the hint's phrase; a top-level function when the desk uses a process."""


class HintDesk:
    """Bounded, per-person-limited hint thinking (see the module docstring)."""

    def __init__(
        self,
        config: ServiceConfig,
        clock: Clock,
        *,
        processes: bool = False,
        work: Work | None = None,
    ) -> None:
        """`processes`: think in a worker process (as the computers do in the bot) rather than
        a thread. `work`: the hint itself (default bot.computer.hint, read when the desk is
        built)."""
        self._config = config
        self._clock = clock
        self._work: Work = work or computer.hint
        self._executor: Executor = (
            ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            if processes
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="ohhell-hint")
        )
        self._asking: set[int] = set()
        """People whose hint is thinking or waiting for the worker (one each)."""
        self._answered_at: dict[int, datetime] = {}
        """When each person's last hint was answered, while their cooldown lasts."""

    @property
    def in_flight(self) -> int:
        """Hints taken and not answered yet (thinking or waiting)."""
        return len(self._asking)

    async def ask(self, user_id: int, view: PlayerView, seed: int) -> Phrase:
        """The hint for `view`, or TableError in words when there is nothing to decide, the
        person's last hint is in flight or cooling down, or every slot is taken. A refusal
        costs no thinking and changes nothing."""
        if not view.to_act:
            raise TableError.of(NOTHING_TO_DECIDE)
        if user_id in self._asking:
            raise TableError.of(STILL_THINKING)
        wait = self._cooldown_left(user_id)
        if wait > 0:
            raise TableError("You can ask for another hint in {seconds} s.",
                             seconds=math.ceil(wait))
        if len(self._asking) >= self._config.hint_slots:
            raise TableError.of(BUSY)
        loop = asyncio.get_running_loop()
        job = asyncio.wrap_future(self._executor.submit(self._work, view, seed), loop=loop)
        self._asking.add(user_id)
        # The slot is freed when the thinking ends, not when the asker stops waiting: a
        # cancelled interaction's hint still occupies the worker until it is done.
        job.add_done_callback(lambda done: self._answered(user_id, done))
        try:
            return await asyncio.shield(job)
        except ValueError:
            raise TableError.of(NOTHING_TO_DECIDE) from None

    def close(self) -> None:
        """Drop waiting hints and let the worker go (a thinking hint is abandoned)."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _answered(self, user_id: int, job: asyncio.Future[Phrase]) -> None:
        if not job.cancelled():
            job.exception()  # read here too, so an asker who left leaves no "never retrieved"
        self._asking.discard(user_id)
        if self._config.hint_cooldown > 0:
            self._answered_at[user_id] = self._clock.now()

    def _cooldown_left(self, user_id: int) -> float:
        """Seconds until this person may ask again (0: now); forgets cooldowns that ended."""
        now = self._clock.now()
        cooldown = self._config.hint_cooldown
        over = [uid for uid, at in self._answered_at.items()
                if (now - at).total_seconds() >= cooldown]
        for uid in over:
            del self._answered_at[uid]
        at = self._answered_at.get(user_id)
        return 0.0 if at is None else cooldown - (now - at).total_seconds()


__all__ = ["BUSY", "NOTHING_TO_DECIDE", "STILL_THINKING", "HintDesk", "Work"]
