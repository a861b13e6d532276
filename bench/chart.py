"""The end-of-game chart: how long it takes to draw, and what drawing it does to the event loop
when it runs in a thread of the bot's process or in a worker process (the bot's choice).

    python bench/chart.py [--charts 10] [--players 7] [--hands 19]

Prints, for each way, seconds per chart and the lateness of a 1 ms timer on the loop meanwhile
(p50, p99, max); "idle" is the same timer with nothing drawn, the machine's own noise.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.chart import running_totals_png


async def _ticker(lateness: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lateness.append(time.perf_counter() - start - 0.001)


async def _measure(label: str, executor: Executor | None, charts: int,
                   names: list[str], totals: list[list[int]]) -> None:
    loop = asyncio.get_running_loop()
    if charts:
        await loop.run_in_executor(executor, running_totals_png, names, totals)  # warm up
    lateness: list[float] = []
    stop = asyncio.Event()
    ticker = asyncio.create_task(_ticker(lateness, stop))
    start = time.perf_counter()
    for _ in range(charts):
        await loop.run_in_executor(executor, running_totals_png, names, totals)
    if not charts:
        await asyncio.sleep(2.0)
    elapsed = time.perf_counter() - start
    stop.set()
    await ticker
    lateness.sort()
    each = f"{elapsed / charts:.3f} s a chart" if charts else "no chart"
    print(f"{label:<8} {each:<16} loop lateness p50 {lateness[len(lateness) // 2] * 1e3:.2f} ms, "
          f"p99 {lateness[int(len(lateness) * 0.99)] * 1e3:.2f} ms, "
          f"max {lateness[-1] * 1e3:.1f} ms")


async def _main(args: argparse.Namespace) -> None:
    names = [f"Player {i + 1}" for i in range(args.players)]
    totals = [[hand * (seat + 1) - seat for seat in range(args.players)]
              for hand in range(args.hands)]
    await _measure("idle", None, 0, names, totals)
    await _measure("thread", None, args.charts, names, totals)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        await _measure("process", pool, args.charts, names, totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--charts", type=int, default=10, help="charts drawn each way (default 10)")
    parser.add_argument("--players", type=int, default=7, help="lines on a chart (default 7)")
    parser.add_argument("--hands", type=int, default=19, help="hands a line runs over (default 19)")
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
