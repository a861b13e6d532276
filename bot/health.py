"""The health check: a heartbeat file the running bot refreshes, and a check of its age.

Why a file: a container's HEALTHCHECK runs a separate process, which cannot ask the bot's
event loop anything. The bot touches the file every `HEARTBEAT_INTERVAL` seconds from a task on
its loop, and only while it is connected to Discord's gateway. So a fresh file means both "the
loop is alive" and "the bot is connected"; a stale or missing file means neither can be trusted.
Each beat also goes through the store's write path (Store.check_writes): while writes cannot
reach the database (PostgreSQL restarting, a locked or read-only file), the beat writes that
problem into the file instead of leaving it empty, so the check says unhealthy at once, and why,
although the gateway and the reads are fine. `python -m bot health` is the check (exit status 0
healthy, 1 not, with one line saying why).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 15.0
"""Seconds between two heartbeats of a healthy bot."""
STALE_AFTER = 60.0
"""A heartbeat older than this (four missed beats) means the bot is not healthy."""


def beat(path: Path, now: float | None = None, problem: str | None = None) -> None:
    """Refresh the heartbeat: the file's modification time is the last moment the bot was
    alive and connected; its content is empty when all was well, else the problem it had."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("" if problem is None else f"{problem}\n", encoding="utf-8")
    if now is not None:
        os.utime(path, (now, now))


def check(path: Path, *, now: float | None = None, stale_after: float = STALE_AFTER) -> str | None:
    """None when the heartbeat is fresh, else the one line that says what is wrong."""
    try:
        last = path.stat().st_mtime
        problem = path.read_text(encoding="utf-8", errors="replace").strip()
    except FileNotFoundError:
        return f"unhealthy: no heartbeat at {path} (the bot has not connected yet, or stopped)"
    except OSError as err:
        return f"unhealthy: cannot read the heartbeat {path}: {err.strerror or err}"
    age = (time.time() if now is None else now) - last
    if age > stale_after:
        return (f"unhealthy: the last heartbeat is {age:.0f} s old (more than {stale_after:.0f} s):"
                " the bot is disconnected or its event loop is stuck")
    if problem:
        return f"unhealthy: {problem.splitlines()[0]}"
    return None


async def write_problem(check_writes: Callable[[], Awaitable[None]] | None,
                        timeout: float) -> str | None:
    """None when a write would reach the database now, else what stops it, in one line."""
    if check_writes is None:
        return None
    try:
        await asyncio.wait_for(check_writes(), timeout)
    except TimeoutError:
        return f"the database took more than {timeout:.0f} s to take a write"
    except Exception as err:  # whatever the driver raises, the check must report it
        text = " ".join(str(err).split()) or type(err).__name__
        return f"the database does not take writes: {text}"
    return None


async def heartbeat_loop(
    path: Path,
    connected: Callable[[], bool],
    *,
    check_writes: Callable[[], Awaitable[None]] | None = None,
    interval: float = HEARTBEAT_INTERVAL,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Beat every `interval` seconds while `connected()` says so; runs until cancelled.

    check_writes (Store.check_writes) is tried before each beat; while it fails, the beat
    carries the problem, which makes the check unhealthy (see the module docstring). It runs on
    the bot's own event loop, so a loop blocked for longer than STALE_AFTER stops the beats
    too; a beat that cannot be written is logged once and retried.
    """
    failed = False
    while True:
        if connected():
            problem = await write_problem(check_writes, interval)
            if problem is not None:
                log.warning("health: %s", problem)
            try:
                beat(path, problem=problem)
                failed = False
            except OSError as err:
                if not failed:
                    log.warning("cannot write the heartbeat %s: %s", path, err)
                failed = True
        await sleep(interval)


__all__ = [
    "HEARTBEAT_INTERVAL", "STALE_AFTER", "beat", "check", "heartbeat_loop", "write_problem",
]
