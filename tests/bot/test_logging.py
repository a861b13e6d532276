"""discord.py's loggers that write players' hands and interaction tokens stay quiet at DEBUG."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.cli import run_bot
from bot.settings import DRIVER_LOGGERS, SECRET_LOGGERS
from data import Store


@pytest.fixture
def restore_loggers() -> Iterator[None]:
    names = ("", *SECRET_LOGGERS, *DRIVER_LOGGERS)
    levels = {name: logging.getLogger(name).level for name in names}
    handlers = list(logging.getLogger().handlers)
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
    logging.getLogger().handlers[:] = handlers


def _run_with_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> dict[str, bool]:
    """Run the bot's start-up with `Client.run` replaced: say who would log at DEBUG."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    seen: dict[str, bool] = {}

    def fake_run(self: discord.Client, token: str, *, log_level: int = logging.INFO,
                 root_logger: bool = False, **_: object) -> None:
        discord.utils.setup_logging(level=log_level, root=root_logger)  # as the real run does
        for name in ("bot", *SECRET_LOGGERS):
            seen[name] = logging.getLogger(name).isEnabledFor(logging.DEBUG)

    monkeypatch.setattr(discord.Client, "run", fake_run)
    assert run_bot() == 0
    return seen


@pytest.mark.usefixtures("restore_loggers")
def test_debug_logging_leaves_discord_traffic_at_info(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _run_with_env(monkeypatch, tmp_path, LOG_LEVEL="DEBUG")
    assert seen["bot"]  # our own loggers do write DEBUG
    assert not any(seen[name] for name in SECRET_LOGGERS)


@pytest.mark.usefixtures("restore_loggers")
def test_a_separate_setting_lowers_discord_traffic_logging(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen = _run_with_env(monkeypatch, tmp_path, LOG_LEVEL="DEBUG", DISCORD_LOG_LEVEL="DEBUG")
    assert all(seen[name] for name in SECRET_LOGGERS)


@pytest.mark.usefixtures("restore_loggers")
def test_debug_logging_leaves_out_what_the_database_driver_saves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """At LOG_LEVEL=DEBUG, aiosqlite would log every statement with its parameters: the saved
    games, with every player's hand. Its lines stay out; the bot's own DEBUG lines do not."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    written: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            written.append(record)

    async def save_something() -> None:
        store = await Store.open(tmp_path / "db.sqlite3")
        await store.set_notify(987654321, "mention")
        await store.get_notify(987654321)
        await store.close()

    def fake_run(self: discord.Client, token: str, *, log_level: int = logging.INFO,
                 root_logger: bool = False, **_: object) -> None:
        discord.utils.setup_logging(level=log_level, root=root_logger)  # as the real run does
        logging.getLogger().addHandler(Keep())
        logging.getLogger("bot.client").debug("the bot's own debug line")
        asyncio.run(save_something())

    monkeypatch.setattr(discord.Client, "run", fake_run)
    assert run_bot() == 0
    assert any(r.name == "bot.client" for r in written)
    from_drivers = [r.getMessage()[:80] for r in written if r.name.split(".")[0] in DRIVER_LOGGERS]
    assert from_drivers == []
    assert not any("987654321" in r.getMessage() for r in written)
