"""Crash tests through the table service and the engine: a child playing real games is killed
at random moments (SIGKILL, about 20 times); after every restart every acknowledged move is
logged exactly once, no move twice, and every action log replays to its snapshot. bench/crash.py
runs the same with 200 kills or more and prints the figures."""

from __future__ import annotations

import os
from pathlib import Path

from tests.bot.crash import run

KILLS = 10  # per database
DATABASES = 2


def test_killed_games_keep_every_acknowledged_move_once(tmp_path: Path) -> None:
    for database in range(DATABASES):
        seed = int.from_bytes(os.urandom(4), "big")
        tally = run(tmp_path / f"crash{database}.sqlite3", KILLS, seed)
        assert tally.kills == KILLS
        assert tally.acknowledged > 0 and tally.found == tally.acknowledged, tally.line()
        assert tally.duplicates == 0 and not tally.broken, tally.line()
