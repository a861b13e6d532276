"""Crash bench: kill a child playing real games through the table service
(tests/bot/crash_child.py, which also does the tables' bookkeeping: failed DMs, message ids,
people leaving, tables ended) with SIGKILL at random moments, N times, checking the database
after every kill: every acknowledged move logged exactly once, no move twice, every action log
replaying to its snapshot, no table broken when the next child resumes. Prints the figures.

    python bench/crash.py [--kills 200] [--databases 4] [--channels 4] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.crash import Tally, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200, help="kills in all")
    parser.add_argument("--databases", type=int, default=4,
                        help="databases killed side by side (kills are shared out)")
    parser.add_argument("--channels", type=int, default=4, help="tables played at once")
    parser.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "big"),
                        help="seed of the games and the kill moments (default: a new one)")
    args = parser.parse_args()
    started = time.monotonic()
    per_db = [args.kills // args.databases + (i < args.kills % args.databases)
              for i in range(args.databases)]
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.databases) as pool:
        tallies: list[Tally] = list(pool.map(
            lambda i: run(Path(folder) / f"crash{i}.sqlite3", per_db[i], args.seed + i,
                          channels=args.channels),
            range(args.databases)))
    total = Tally()
    for i, t in enumerate(tallies):
        total.kills += t.kills
        total.acknowledged += t.acknowledged
        total.found += t.found
        total.duplicates += t.duplicates
        total.tables |= {i * 1_000_000 + n for n in t.tables}  # ids are per database
        total.replayed += t.replayed
        total.resumed += t.resumed
        total.broken += t.broken
    print(f"seed {args.seed}, {args.databases} databases, {args.channels} tables each at once")
    print(total.line())
    print(f"lost {total.acknowledged - total.found}; {time.monotonic() - started:.1f} s")
    if total.acknowledged != total.found or total.duplicates or total.broken:
        sys.exit(1)


if __name__ == "__main__":
    main()
