"""Computer moves in the table service: waking the computers when one is awaited, letting
them think in the executor (never on the event loop), pacing and batching their moves.

ComputerRuns commits each move through the Ledger; what follows a run (say whose turn it is,
publish, close a finished table) is the caller's `FollowUp` (bot/turns.py), handed over when
the run is started. The decisions themselves are bot/computer.py's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from bot import computer
from bot.clock import Clock
from bot.config import ServiceConfig
from bot.errors import TableError
from bot.events import Event
from bot.ledger import Ledger
from bot.moves import perform
from bot.table import LiveTable
from engine import Move, Phase, PlayerView

log = logging.getLogger(__name__)

MAX_BATCH = 200
"""Computer moves in one batch at most (a safety net; a hand ends a batch anyway)."""

FollowUp = Callable[[LiveTable, list[Event]], Awaitable[None]]
"""What follows a run of committed moves, under the table's lock (say whose turn it is now,
publish, forget a finished table)."""


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A computer move to decide: what it sees, and the table's move count it was planned at."""

    seat: int
    level: str
    why: str
    hand_number: int
    moves: int
    seed: int
    view: PlayerView


class ComputerRuns:
    """Computer players' runs (see the module docstring); holds their tasks."""

    def __init__(
        self,
        ledger: Ledger,
        config: ServiceConfig,
        clock: Clock,
        executor: Executor,
        decide: computer.Decide,
    ) -> None:
        self._ledger = ledger
        self._config = config
        self._clock = clock
        self._executor = executor
        self._decide = decide
        self._runs: dict[int, asyncio.Task[None]] = {}
        self._pausing: set[int] = set()
        """Tables whose run sleeps its pacing delay (idle until the clock wakes it)."""
        self._closed = False

    def wake(self, t: LiveTable, follow_up: FollowUp) -> None:
        """Start a run of computer moves if a computer is awaited and none is on its way."""
        game = t.game
        if game is None or game.phase is Phase.GAME_OVER or self._closed:
            return
        if not any(t.seats[seat].computer_plays for seat in game.actor_seats()):
            return
        run = self._runs.get(t.id)
        if run is not None and not run.done() and run is not asyncio.current_task():
            return
        self._runs[t.id] = asyncio.create_task(self._run(t, follow_up))

    def stop(self, t: LiveTable) -> None:
        """Cancel the table's run (unless it is the task calling)."""
        run = self._runs.pop(t.id, None)
        if run is not None and run is not asyncio.current_task():
            run.cancel()

    def working(self) -> list[asyncio.Task[None]]:
        """Runs thinking or moving now (not those sleeping their pacing delay)."""
        return [run for table_id, run in self._runs.items()
                if not run.done() and table_id not in self._pausing]

    async def close(self) -> None:
        """Cancel every run and wait for them to end."""
        self._closed = True
        runs = [run for run in self._runs.values() if not run.done()]
        self._runs.clear()
        for run in runs:
            run.cancel()
        if runs:
            await asyncio.gather(*runs, return_exceptions=True)

    async def _run(self, t: LiveTable, follow_up: FollowUp) -> None:
        """After the pacing delay, play computer moves until a person is awaited or the hand
        ends, committing each, then follow up once for the whole batch.

        A computer thinks WITHOUT the table's lock (a hard move can take ~0.5 s, and `end`,
        `leave` or `kick` must not wait for it): the move is planned under the lock, decided
        outside it, and applied under the lock only if no action was committed meanwhile
        (t.moves unchanged); otherwise the decision is dropped and the move re-planned.
        Committed moves wait in t.unpublished, so whoever publishes next (this run at its end,
        or an action that came in between) tells them first, in order.
        """
        try:
            if self._config.computer_delay > 0:
                self._pausing.add(t.id)
                try:
                    await self._clock.sleep(self._config.computer_delay)
                finally:
                    self._pausing.discard(t.id)
            else:
                await asyncio.sleep(0)
            hand_number: int | None = None
            moved = False
            try:
                for _ in range(MAX_BATCH):
                    async with t.lock:
                        plan = self._next(t, hand_number)
                    if plan is None:
                        break
                    hand_number = plan.hand_number
                    move = await self._think(t, plan)  # outside the lock
                    async with t.lock:
                        if t.moves != plan.moves or not t.status.active:
                            continue  # the table changed while it thought: plan again
                        t.unpublished.extend(await self._apply(t, plan, move))
                        moved = True
            finally:
                # Even when a move failed, the ones before it are committed: tell them.
                if moved:
                    async with t.lock:
                        await follow_up(t, [])
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer players failed at table %s", t.id)
        finally:
            if self._runs.get(t.id) is asyncio.current_task():
                del self._runs[t.id]

    def _next(self, t: LiveTable, hand_number: int | None) -> MovePlan | None:
        """Under the lock: the next computer move of this run (None: a person is awaited, the
        hand `hand_number` is over, or the table is closed)."""
        game = t.game
        if not t.status.active or game is None or game.phase is Phase.GAME_OVER:
            return None
        if hand_number is not None and game.hand_number != hand_number:
            return None
        seat = next((a for a in game.actor_seats() if t.seats[a].computer_plays), None)
        if seat is None:
            return None
        level = t.seats[seat].computer or self._config.timeout_level
        return _plan(t, seat, level, "computer")

    async def move_for(
        self, t: LiveTable, seat: int, level: str, why: str, events: list[Event]
    ) -> None:
        """Under the lock throughout (timeouts): let a computer decide in the executor, apply
        and commit its move (appends events)."""
        plan = _plan(t, seat, level, why)
        move = await self._think(t, plan)
        events.extend(await self._apply(t, plan, move))

    async def _think(self, t: LiveTable, plan: MovePlan) -> Move:
        """The computer's decision, made in the executor (a random move if it fails)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor, self._decide, plan.level, plan.seed, plan.view
            )
        except Exception:
            log.exception("computer %s failed at table %s; moving at random", plan.level, t.id)
            return computer.random_move(plan.view, plan.seed)

    async def _apply(self, t: LiveTable, plan: MovePlan, move: Move) -> list[Event]:
        """Under the lock, on the game the plan was made for: apply and commit the move (a
        random one if the computer's is illegal); return its events. Undone if the save fails."""
        seat, level = plan.seat, plan.level
        memento, saves = t.memento(), t.saves
        told: list[Event] = []
        try:
            try:
                action, told = perform(t, seat, move, by=plan.why, level=level)
            except TableError:
                log.warning("computer %s chose an illegal move %r; moving at random", level, move)
                move = computer.random_move(plan.view, plan.seed)
                action, told = perform(t, seat, move, by=plan.why, level=level)
            await self._ledger.commit(t, action, told, moved=True)
        except asyncio.CancelledError:
            if self._ledger.landed(t, saves):
                t.unpublished.extend(told)  # committed: whoever publishes next tells it
            else:
                t.restore(memento)
            raise
        except BaseException:
            if not self._ledger.landed(t, saves):
                t.restore(memento)
                raise
        return told


def _plan(t: LiveTable, seat: int, level: str, why: str) -> MovePlan:
    game = t.game
    assert game is not None
    return MovePlan(
        seat=seat,
        level=level,
        why=why,
        hand_number=game.hand_number,
        moves=t.moves,
        seed=_seed(t, seat),
        view=game.view(seat),
    )


def _seed(t: LiveTable, seat: int) -> int:
    """A computer's seed: reproducible from the table's seed, the seat and the save count."""
    base = t.options.seed if t.options.seed is not None else t.id
    return (base * 1_000_003 + seat * 7_919 + t.saves) & 0x7FFF_FFFF


__all__ = ["MAX_BATCH", "ComputerRuns", "FollowUp", "MovePlan"]
