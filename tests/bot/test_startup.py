"""Settings from the environment and .env; create_bot wires everything without connecting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import Settings, create_bot
from bot.models import TableOptions
from bot.presenter import RecordingPresenter
from bot.settings import MissingToken
from data import Store
from tests.bot.conftest import CHANNEL, GUILD, HOST


def test_settings_from_env_and_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=sekrit.token\nDEV_GUILD_ID=\nLOG_LEVEL=debug\nDEFAULT_TURN_TIMEOUT=45\n"
    )
    monkeypatch.setenv("DATABASE_PATH", "/data/x.sqlite3")
    settings = Settings()
    assert settings.token() == "sekrit.token"
    assert "sekrit" not in repr(settings) and "sekrit" not in str(settings.model_dump())
    assert settings.database_path == Path("/data/x.sqlite3")
    assert settings.dev_guild_id is None and settings.log_level == "DEBUG"
    assert settings.default_turn_timeout == 45 and settings.sync_commands is True


def test_missing_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    with pytest.raises(MissingToken, match="DISCORD_TOKEN"):
        Settings().token()


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_PATH", "DEFAULT_TURN_TIMEOUT", "SYNC_COMMANDS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.database_path == Path("ohhell.sqlite3")
    assert settings.default_turn_timeout == 120


async def test_setup_hook_opens_store_loads_cogs_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "nested" / "bot.sqlite3"
    # a table in progress from an earlier run
    store = await Store.open(db)
    from bot.service import ServiceConfig, TableService

    service = TableService(store, RecordingPresenter(), config=ServiceConfig(computer_delay=0))
    tid = (
        await service.open_table(GUILD, CHANNEL, HOST, "Host", TableOptions(computers=2, seed=1))
    ).table_id
    await service.deal(tid, HOST)
    await service.wait_idle()
    await service.close()
    await store.close()

    settings = Settings(
        discord_token="x", database_path=db, sync_commands=False, computer_workers=0
    )
    bot = create_bot(settings, extensions=["tests.bot.fake_cog"])
    assert bot.is_closed() is False and bot.user is None  # not connected
    with pytest.raises(RuntimeError):
        _ = bot.tables
    await bot.setup_hook()
    try:
        assert "tests.bot.fake_cog" in bot.extensions
        assert bot.extensions["tests.bot.fake_cog"].loaded == [bot]
        assert isinstance(bot.presenter, RecordingPresenter)
        assert bot.resume_report is not None and bot.resume_report.resumed == [tid]
        assert bot.tables.directory.table_for_channel(CHANNEL).table_id == tid
    finally:
        await bot.close()
