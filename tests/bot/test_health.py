"""The Docker health check: the running bot's heartbeat, and `python -m bot health` judging it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import Settings, create_bot
from bot.health import STALE_AFTER, beat, check, heartbeat_loop

ROOT = Path(__file__).resolve().parents[2]


def health_command(heartbeat: Path | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "HEARTBEAT_PATH"}
    if heartbeat is not None:
        env["HEARTBEAT_PATH"] = str(heartbeat)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "bot", "health"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_check_command_judges_the_heartbeats_age(tmp_path: Path) -> None:
    path = tmp_path / "run" / "heartbeat"
    missing = health_command(path, tmp_path)
    assert missing.returncode == 1 and "no heartbeat" in missing.stdout
    beat(path)
    fresh = health_command(path, tmp_path)
    assert fresh.returncode == 0 and fresh.stdout.startswith("healthy"), fresh.stdout
    beat(path, now=time.time() - STALE_AFTER - 30)  # the bot stopped beating a while ago
    stale = health_command(path, tmp_path)
    assert stale.returncode == 1 and "disconnected or its event loop is stuck" in stale.stdout
    assert len(stale.stdout.strip().splitlines()) == 1 and stale.stderr == ""
    unset = health_command(None, tmp_path)
    assert unset.returncode == 1 and "HEARTBEAT_PATH" in unset.stdout


def test_check_in_process(tmp_path: Path) -> None:
    path = tmp_path / "hb"
    beat(path, now=1000.0)
    assert check(path, now=1000.0 + STALE_AFTER) is None
    assert check(path, now=1000.0 + STALE_AFTER + 1) is not None


async def test_the_loop_beats_only_while_connected(tmp_path: Path) -> None:
    path = tmp_path / "hb"
    connected = iter([False, True, False])
    ticks: list[float] = []

    async def sleep(seconds: float) -> None:
        ticks.append(seconds)
        if not path.exists():
            return
        os.utime(path, (1.0, 1.0))  # mark the beat so the next one shows
        if len(ticks) >= 3:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await heartbeat_loop(path, lambda: next(connected), interval=15, sleep=sleep)
    assert ticks == [15, 15, 15]
    assert path.stat().st_mtime == 1.0  # the last pass (disconnected) did not beat


async def test_the_bot_beats_once_connected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hb"
    settings = Settings(discord_token="x", database_path=tmp_path / "bot.sqlite3",
                        sync_commands=False, computer_workers=0, heartbeat_path=path)
    bot = create_bot(settings, extensions=["tests.bot.fake_cog"])
    assert bot.is_connected() is False  # never logged in: it would not beat
    monkeypatch.setattr(bot, "is_connected", lambda: True)
    await bot.setup_hook()
    try:
        for _ in range(20):
            await asyncio.sleep(0)
        assert path.exists() and check(path) is None
    finally:
        await bot.close()


async def test_a_beat_while_writes_fail_makes_the_check_unhealthy(tmp_path: Path) -> None:
    """The gateway is fine and the loop beats, but the store's write path fails: the check
    says unhealthy at once, and why; once writes work again, healthy."""
    path = tmp_path / "hb"
    failing = True

    async def check_writes() -> None:
        if failing:
            raise ConnectionError("cannot reach the PostgreSQL database db: refused")

    async def one_pass(_: float) -> None:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await heartbeat_loop(path, lambda: True, check_writes=check_writes, sleep=one_pass)
    said = health_command(path, tmp_path)
    assert said.returncode == 1, said.stdout
    assert said.stdout.strip() == ("unhealthy: the database does not take writes: cannot reach "
                                   "the PostgreSQL database db: refused")
    failing = False
    with pytest.raises(asyncio.CancelledError):
        await heartbeat_loop(path, lambda: True, check_writes=check_writes, sleep=one_pass)
    assert health_command(path, tmp_path).returncode == 0
