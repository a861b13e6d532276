"""Computer moves in the table service: waking the computers when one is awaited, letting
them think in the executor (never on the event loop), pacing and batching their moves.

ComputerRunsMixin is part of TableService (bot/service.py) and uses its pipeline (_commit,
_settle, _publish). The decisions themselves are bot/computer.py's.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import computer
from bot.errors import TableError
from bot.events import Event
from bot.table import LiveTable
from data import Action
from engine import Move, Phase, PlayerView

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.service import ServiceConfig

log = logging.getLogger(__name__)

MAX_BATCH = 200
"""Computer moves in one batch at most (a safety net; a hand ends a batch anyway)."""


class ComputerRunsMixin:
    """Computer players' runs (see the module docstring)."""

    if TYPE_CHECKING:
        config: ServiceConfig
        clock: Clock
        _closed: bool
        _executor: Executor
        _decide: computer.Decide

        async def _publish(self, t: LiveTable, events: list[Event]) -> None: ...
        async def _settle(self, t: LiveTable, events: list[Event], *, moved: bool) -> None: ...
        def _forget_if_closed(self, t: LiveTable) -> None: ...
        async def _commit(
            self, t: LiveTable, action: Action | None, events: list[Event], *, moved: bool
        ) -> None: ...
        def _take(
            self,
            t: LiveTable,
            seat: int,
            move: Move,
            *,
            user_id: int | None = None,
            by: str | None = None,
            level: str | None = None,
        ) -> tuple[Action, list[Event]]: ...

    def _wake_computers(self, t: LiveTable) -> None:
        """Start a run of computer moves if a computer is awaited and none is on its way."""
        game = t.game
        if game is None or game.phase is Phase.GAME_OVER or self._closed:
            return
        if not any(t.seats[seat].machine_plays for seat in game.actor_seats()):
            return
        current = asyncio.current_task()
        if t.runner is not None and not t.runner.done() and t.runner is not current:
            return
        t.runner = asyncio.create_task(self._run_computers(t))

    async def _run_computers(self, t: LiveTable) -> None:
        """After the pacing delay, play computer moves until a person is awaited or the hand
        ends, committing each, then publish them as one batch.

        A computer thinks WITHOUT the table's lock (a hard move can take ~0.5 s, and `end`,
        `leave` or `kick` must not wait for it): the move is planned under the lock, decided
        outside it, and applied under the lock only if no action was committed meanwhile
        (t.revision unchanged); otherwise the decision is dropped and the move re-planned.
        Committed moves wait in t.unpublished, so whoever publishes next (this run at its end,
        or an action that came in between) tells them first, in order.
        """
        try:
            if self.config.computer_delay > 0:
                t.runner_waiting = True
                try:
                    await self.clock.sleep(self.config.computer_delay)
                finally:
                    t.runner_waiting = False
            else:
                await asyncio.sleep(0)
            hand: int | None = None
            moved = False
            try:
                for _ in range(MAX_BATCH):
                    async with t.lock:
                        plan = self._plan_computer_move(t, hand)
                    if plan is None:
                        break
                    hand = plan.hand_number
                    move = await self._think(t, plan)  # outside the lock
                    async with t.lock:
                        if t.revision != plan.revision or not t.status.active:
                            continue  # the table changed while it thought: plan again
                        t.unpublished.extend(await self._apply_machine_move(t, plan, move))
                        moved = True
            finally:
                # Even when a move failed, the ones before it are committed: tell them.
                if moved:
                    async with t.lock:
                        events: list[Event] = []
                        if t.status.active:
                            await self._settle(t, events, moved=True)
                        await self._publish(t, events)
                        self._forget_if_closed(t)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer players failed at table %s", t.id)
        finally:
            if t.runner is asyncio.current_task():
                t.runner = None

    def _plan_computer_move(self, t: LiveTable, hand_number: int | None) -> MovePlan | None:
        """Under the lock: the next computer move of this run (None: a person is awaited, the
        hand `hand_number` is over, or the table is closed)."""
        game = t.game
        if not t.status.active or game is None or game.phase is Phase.GAME_OVER:
            return None
        if hand_number is not None and game.hand_number != hand_number:
            return None
        seat = next((a for a in game.actor_seats() if t.seats[a].machine_plays), None)
        if seat is None:
            return None
        level = t.seats[seat].computer or self.config.timeout_level
        return _plan(t, seat, level, "computer")

    async def _machine_move(
        self, t: LiveTable, seat: int, level: str, why: str, events: list[Event]
    ) -> None:
        """Under the lock throughout (timeouts): let a computer decide in the executor, apply
        and commit its move (appends events)."""
        plan = _plan(t, seat, level, why)
        move = await self._think(t, plan)
        events.extend(await self._apply_machine_move(t, plan, move))

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

    async def _apply_machine_move(self, t: LiveTable, plan: MovePlan, move: Move) -> list[Event]:
        """Under the lock, on the game the plan was made for: apply and commit the move (a
        random one if the computer's is illegal); return its events. Undone if the save fails."""
        seat, level = plan.seat, plan.level
        memento = t.memento()
        try:
            try:
                action, told = self._take(t, seat, move, by=plan.why, level=level)
            except TableError:
                log.warning("computer %s chose an illegal move %r; moving at random", level, move)
                move = computer.random_move(plan.view, plan.seed)
                action, told = self._take(t, seat, move, by=plan.why, level=level)
            await self._commit(t, action, told, moved=True)
        except BaseException:
            t.restore(memento)
            raise
        return told


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A computer move to decide: what it sees, and the table revision it was planned at."""

    seat: int
    level: str
    why: str
    hand_number: int
    revision: int
    seed: int
    view: PlayerView


def _plan(t: LiveTable, seat: int, level: str, why: str) -> MovePlan:
    game = t.game
    assert game is not None
    return MovePlan(
        seat=seat,
        level=level,
        why=why,
        hand_number=game.hand_number,
        revision=t.revision,
        seed=_seed(t, seat),
        view=game.view(seat),
    )


def _seed(t: LiveTable, seat: int) -> int:
    """A computer's seed: reproducible from the table's seed, the seat and the move count."""
    base = t.options.seed if t.options.seed is not None else t.id
    return (base * 1_000_003 + seat * 7_919 + t.version) & 0x7FFF_FFFF


__all__ = ["MAX_BATCH", "ComputerRunsMixin", "MovePlan"]
