"""Kill a child playing real games (tests/bot/crash_child.py) at random moments and check the
database after every kill, through the store's public interface and the engine:

- every move the child acknowledged is in its table's action log exactly once;
- no person's move is logged twice (acknowledged or not);
- every table's action log replays (bot.moves.replay) to its stored snapshot;
- the next child resumes every table and finds none broken.

Shared by tests/bot/test_crash.py (about 20 kills) and bench/crash.py (200 or more).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.moves import LOG_NAMES, replay
from data import Store
from engine import Rules
from tests.killable import KillableChild

CHILD = Path(__file__).with_name("crash_child.py")
MOVES = set(LOG_NAMES.values())


class Child(KillableChild[dict[str, Any]]):
    """A running crash child: one JSON line per acknowledged action."""

    def __init__(self, db_path: Path, channels: int, seed: int) -> None:
        super().__init__(str(CHILD), [str(db_path), str(channels), str(seed)], json.loads)

    def moves(self) -> int:
        return sum(1 for line in self.lines if "move" in line)

    def wait_for(self, moves: int, timeout: float = 60) -> None:
        """Until the child acknowledged `moves` moves (or died by itself: kill reports it)."""
        deadline = time.monotonic() + timeout
        while self.moves() < moves and self.process.poll() is None:
            assert time.monotonic() < deadline, "the child made no progress"
            time.sleep(0.001)


@dataclass
class Tally:
    """What the kills found, over all lives."""

    kills: int = 0
    acknowledged: int = 0
    found: int = 0
    duplicates: int = 0
    tables: set[int] = field(default_factory=set)
    replayed: int = 0
    resumed: int = 0
    broken: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"kills {self.kills}, acknowledged moves {self.acknowledged}, found "
                f"{self.found}, duplicates {self.duplicates}, tables {len(self.tables)} "
                f"(every log replayed to its snapshot: {self.replayed} checks), resumed "
                f"{self.resumed}, broken {len(self.broken)}")


def _key(table: int, hand: int, seat: int | None, action: str,
         payload: dict[str, Any]) -> str:
    move = {k: v for k, v in payload.items() if k not in ("hand", "by", "level")}
    return json.dumps([table, hand, seat, action, move], sort_keys=True)


async def check(path: Path | str, acknowledged: list[list[Any]], tally: Tally) -> None:
    """Check the database (a SQLite path or a PostgreSQL URL) after a kill (see the module
    docstring); problems go to `tally`."""
    tally.tables.update(int(m[0]) for m in acknowledged)
    store = await Store.open(path)
    try:
        logged: Counter[str] = Counter()
        for table_id in sorted(tally.tables):
            record = await store.get_table(table_id)
            if record is None:
                tally.problems.append(f"table {table_id} is gone")
                continue
            log = await store.actions(table_id)
            for entry in log:
                if entry.action in MOVES and entry.user_id is not None:
                    logged[_key(table_id, int(entry.payload["hand"]), entry.seat, entry.action,
                                entry.payload)] += 1
            try:
                game = replay(Rules.model_validate_json(record.rules_json), log)
            except ValueError as err:  # IllegalAction: a move the game was not at
                tally.problems.append(f"table {table_id}: the log does not replay: {err}")
                continue
            replayed = None if game is None else game.to_json()
            if replayed != record.snapshot_json:
                tally.problems.append(f"table {table_id}: the log does not replay to the "
                                      "snapshot")
            tally.replayed += 1
        tally.duplicates = sum(n - 1 for n in logged.values() if n > 1)
        if tally.duplicates:
            tally.problems.append(f"{tally.duplicates} moves logged twice")
        tally.acknowledged = len(acknowledged)
        tally.found = sum(1 for m in acknowledged if logged[_key(*m)] >= 1)
        lost = [m for m in acknowledged if logged[_key(*m)] == 0]
        if lost:
            tally.problems.append(f"{len(lost)} acknowledged moves lost, e.g. {lost[:3]}")
    finally:
        await store.close()


def run(path: Path, kills: int, seed: int, *, channels: int = 4,
        most_moves: int = 60) -> Tally:
    """`kills` lives of a child on one database, each killed after a random number of
    acknowledged moves (some while it is still starting) and checked."""
    rng = random.Random(seed)
    tally = Tally()
    acknowledged: list[list[Any]] = []
    for life in range(kills):
        child = Child(path, channels, rng.randrange(1 << 30))
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0.0, 0.5))  # while importing, migrating, resuming
        else:
            child.wait_for(rng.randint(1, most_moves))
            time.sleep(rng.uniform(0.0, 0.003))  # mid-commit, mid-computer-run, anywhere
        lines = child.kill()
        tally.kills += 1
        for line in lines:
            if "ready" in line:
                tally.resumed += len(line["ready"]["resumed"])
                tally.broken.extend(line["ready"]["broken"])
                if line["ready"]["broken"]:
                    tally.problems.append(f"life {life}: broken at resume "
                                          f"{line['ready']['broken']}")
            elif "move" in line:
                acknowledged.append(line["move"])
        asyncio.run(check(path, acknowledged, tally))
        if tally.problems:
            raise AssertionError(f"seed {seed}, life {life}: {tally.problems}")
    return tally
