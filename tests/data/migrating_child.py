"""A child process for the concurrent start-up test: it waits for a given moment (so that its
siblings start migrating with it), opens the store, which applies the migrations, and exits 0;
on any error it prints it and exits 1.

    python tests/data/migrating_child.py DATABASE START_AT
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data import Store


async def main(target: str, start_at: float) -> None:
    await asyncio.sleep(max(0.0, start_at - time.time()))
    store = await Store.open(target)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
