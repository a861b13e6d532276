"""Computer moves in the table service: waking the computers when one is awaited, letting
them think in the executor (never on the event loop), pacing and batching their moves.

A run is a task that exists only while computers are awaited. It plans, applies and commits
nothing itself: each step (apply the decided move, plan the next) is a job the table's runner
(bot/runner.py) runs in the table's inbox, handed over as `Step` when the run is started. Only
the thinking happens in the run, outside the inbox, so `end`, `leave` or `kick` never wait for
a computer. The decisions themselves are bot/computer.py's.
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
from bot.ledger import Change
from bot.moves import perform
from bot.table import LiveTable
from data import Action
from engine import Move, Phase, PlayerView

log = logging.getLogger(__name__)

MAX_BATCH = 200
"""Computer moves in one batch at most (a safety net; a hand ends a batch anyway)."""


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


@dataclass(slots=True)
class Run:
    """A run in progress: the hand it plays, and whether it committed a move yet."""

    hand_number: int | None = None
    moved: bool = False
    batch: int = 0


Step = Callable[[LiveTable, Run, "MovePlan | None", "Move | None"], Awaitable["MovePlan | None"]]
"""The runner's job for one step of a run: apply `move` decided for the plan (if the table is
as it was planned), then plan the next move; None ends the run."""


class ComputerRuns:
    """Computer players' runs (see the module docstring); holds their tasks."""

    def __init__(
        self,
        config: ServiceConfig,
        clock: Clock,
        executor: Executor,
        decide: computer.Decide,
    ) -> None:
        self._config = config
        self._clock = clock
        self._executor = executor
        self._decide = decide
        self._runs: dict[int, asyncio.Task[None]] = {}
        self._pausing: set[int] = set()
        """Tables whose run sleeps its pacing delay (idle until the clock wakes it)."""
        self._closed = False

    def wake(self, t: LiveTable, step: Step) -> None:
        """Start a run of computer moves if a computer is awaited and none is on its way."""
        game = t.game
        if game is None or game.phase is Phase.GAME_OVER or self._closed:
            return
        if not any(t.seats[seat].computer_plays for seat in game.actor_seats()):
            return
        run = self._runs.get(t.id)
        if run is not None and not run.done():
            return
        self._runs[t.id] = asyncio.create_task(self._run(t, step))

    def stop(self, t: LiveTable) -> None:
        """Cancel the table's run (unless it is the task calling)."""
        run = self._runs.pop(t.id, None)
        if run is not None and run is not asyncio.current_task():
            run.cancel()

    def release(self, t: LiveTable) -> None:
        """From the table's inbox: the run ends here, so the next wake starts a new one."""
        self._runs.pop(t.id, None)

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

    async def _run(self, t: LiveTable, step: Step) -> None:
        """After the pacing delay, play computer moves until a person is awaited or the hand
        ends, each committed by the runner, then one publish for the whole batch.

        The move is planned in the table's inbox, decided outside it, and applied in the inbox
        only if no action was committed meanwhile (t.moves unchanged); otherwise the decision
        is dropped and the move planned again. Committed moves wait in t.unpublished, so
        whoever publishes next (this run at its end, or an action that came in between)
        tells them first, in order.
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
            run = Run()
            plan = await step(t, run, None, None)
            while plan is not None:
                move = await self.think(t, plan)
                plan = await step(t, run, plan, move)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer players failed at table %s", t.id)
        finally:
            if self._runs.get(t.id) is asyncio.current_task():
                del self._runs[t.id]

    def next_plan(self, t: LiveTable, run: Run) -> MovePlan | None:
        """In the inbox: the next computer move of this run (None: a person is awaited, the
        run's hand is over, the batch is full, or the table is closed)."""
        game = t.game
        if not t.status.active or game is None or game.phase is Phase.GAME_OVER or self._closed:
            return None
        if run.hand_number is not None and game.hand_number != run.hand_number:
            return None
        if run.batch >= MAX_BATCH:
            return None
        seat = next((a for a in game.actor_seats() if t.seats[a].computer_plays), None)
        if seat is None:
            return None
        level = t.seats[seat].computer or self._config.timeout_level
        run.hand_number = game.hand_number
        run.batch += 1
        return _plan(t, seat, level, "computer")

    def plan(self, t: LiveTable, seat: int, level: str, why: str) -> MovePlan:
        """In the inbox: the move to decide for `seat` (timeouts)."""
        return _plan(t, seat, level, why)

    async def think(self, t: LiveTable, plan: MovePlan) -> Move:
        """The computer's decision, made in the executor (a random move if it fails)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor, self._decide, plan.level, plan.seed, plan.view
            )
        except Exception:
            log.exception("computer %s failed at table %s; moving at random", plan.level, t.id)
            return computer.random_move(plan.view, plan.seed)

    @staticmethod
    def change(plan: MovePlan, move: Move) -> Change:
        """The change that makes `move` (a random one if the computer's is illegal) on the
        game the plan was made for."""

        def change(t: LiveTable, events: list[Event]) -> Action:
            seat, level, chosen = plan.seat, plan.level, move
            try:
                action, told = perform(t, seat, chosen, by=plan.why, level=level)
            except TableError:
                log.warning("computer %s chose an illegal move %r; moving at random", level,
                            chosen)
                chosen = computer.random_move(plan.view, plan.seed)
                action, told = perform(t, seat, chosen, by=plan.why, level=level)
            events.extend(told)
            return action

        return change


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


__all__ = ["MAX_BATCH", "ComputerRuns", "MovePlan", "Run", "Step"]
