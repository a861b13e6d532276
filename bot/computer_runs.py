"""Computer moves in the table service: waking the computers when one is awaited, letting
them think in the executor (never on the event loop), pacing and batching their moves.

ComputerRunsMixin is part of TableService (bot/service.py) and uses its pipeline (_commit,
_settle, _publish). The decisions themselves are bot/computer.py's.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from bot import computer
from bot.events import Event
from bot.moves import apply_move, move_payload
from bot.narrate import ACTION_OF_PHASE, Before, narrate
from bot.table import LiveTable
from data import Action
from engine import IllegalAction, Phase

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
        ends, committing each, then publish them as one batch."""
        try:
            if self.config.computer_delay > 0:
                t.runner_waiting = True
                try:
                    await self.clock.sleep(self.config.computer_delay)
                finally:
                    t.runner_waiting = False
            else:
                await asyncio.sleep(0)
            async with t.lock:
                if not t.status.active or t.game is None:
                    return
                events: list[Event] = []
                hand = t.game.hand_number
                try:
                    for _ in range(MAX_BATCH):
                        game = t.game
                        if game.phase is Phase.GAME_OVER or game.hand_number != hand:
                            break
                        seat = next(
                            (a for a in game.actor_seats() if t.seats[a].machine_plays), None
                        )
                        if seat is None:
                            break
                        level = t.seats[seat].computer or self.config.timeout_level
                        await self._machine_move(t, seat, level, "computer", events)
                finally:
                    # Even when a move failed, the ones before it are committed: tell them.
                    if events:
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

    async def _machine_move(
        self, t: LiveTable, seat: int, level: str, why: str, events: list[Event]
    ) -> None:
        """Let a computer decide in the executor, apply and commit its move (appends events)."""
        game = t.game
        assert game is not None
        view = game.view(seat)
        kind = ACTION_OF_PHASE[game.phase]
        seed = _seed(t, seat)
        loop = asyncio.get_running_loop()
        try:
            move = await loop.run_in_executor(self._executor, self._decide, level, seed, view)
        except Exception:
            log.exception("computer %s failed at table %s; moving at random", level, t.id)
            move = computer.random_move(view, seed)
        before = Before.of(game)
        memento = t.memento()
        try:
            try:
                apply_move(game, kind, seat, move)
            except (IllegalAction, ValueError, TypeError):
                log.warning(
                    "computer %s chose an illegal %s %r; moving at random", level, kind, move
                )
                move = computer.random_move(view, seed)
                apply_move(game, kind, seat, move)
            payload = {**move_payload(kind, move, before), "by": why, "level": level}
            told = narrate(before, game, kind, seat, move)
            await self._commit(t, Action(kind, seat=seat, payload=payload), told, moved=True)
        except BaseException:
            t.restore(memento)
            raise
        events.extend(told)


def _seed(t: LiveTable, seat: int) -> int:
    """A computer's seed: reproducible from the table's seed, the seat and the move count."""
    base = t.options.seed if t.options.seed is not None else t.id
    return (base * 1_000_003 + seat * 7_919 + t.version) & 0x7FFF_FFFF


__all__ = ["MAX_BATCH", "ComputerRunsMixin"]
