"""Fixtures: the real bot from `create_bot`, a temporary database, a manual clock, no network."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

import bot.client
from bot import Settings, create_bot
from bot.clock import ManualClock
from tests.discord.harness import Harness, register_idle
from tests.discord.limits import check_message

register_idle(ManualClock.sleep_until)  # a turn timer waiting on the manual clock is not work

Boot = Callable[..., Awaitable[Harness]]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "ohhell.sqlite3"


@pytest.fixture
async def boot(db_path: Path, clock: ManualClock,
               monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Boot]:
    """Start a bot (again, for restarts) on the test's database and clock; closes them all."""
    monkeypatch.setattr(bot.client, "SystemClock", lambda: clock)  # create_bot takes no clock
    started: list[Harness] = []

    async def start(*, timeout: int = 120, sync: bool = False, channels: int = 1,
                    share_with: Harness | None = None, edit_interval: float = 0,
                    computer_delay: float = 0) -> Harness:
        """Edits of the table message are not spaced (`edit_interval`) unless a test asks;
        time is the manual `clock`, so a test that asks moves it on."""
        settings = Settings(discord_token=None, database_path=db_path, sync_commands=sync,
                            computer_delay=computer_delay, computer_workers=0,
                            default_turn_timeout=timeout, table_edit_interval=edit_interval,
                            dev_guild_id=None, log_level="INFO")
        # a restart shares the old harness's Discord: same messages, DMs, members, channels
        h = Harness(create_bot(settings), fake=share_with.fake if share_with else None)
        started.append(h)
        if share_with is not None:
            h.members = share_with.members
            await h.start(channel_ids=share_with.channels)
        else:
            await h.start(channels=channels)
        return h

    yield start
    for h in reversed(started):
        if not h.bot.is_closed():
            await h.close()


@pytest.fixture
async def h(boot: Boot) -> AsyncIterator[Harness]:
    """A started bot; the test fails if anything was logged at ERROR."""
    h = await boot()
    yield h
    errors = [r.getMessage() + (repr(r.exc_info[1]) if r.exc_info else "")
              for r in h.fake.errors]
    assert not errors, errors
    too_big = [(c.path, check_message(c.body)) for c in h.fake.log if check_message(c.body)]
    assert not too_big, too_big
