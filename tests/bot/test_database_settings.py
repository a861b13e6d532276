"""DATABASE_URL and the shard settings: what the store opens, which process is which."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.client import OhHellBot, ShardedOhHellBot, create_bot, shard_plan
from bot.settings import Settings

NAMES = ("DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS", "TAKEOVER_SHARD_IDS",
         "LEASE_SECONDS")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_database_url_or_path(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(_env_file=None).database_target() == "ohhell.sqlite3"  # type: ignore[call-arg]
    assert settings(monkeypatch, DATABASE_PATH="/data/x.sqlite3").database_target() == (
        "/data/x.sqlite3"
    )
    url = "postgresql://bot:secret@db/ohhell"
    assert settings(monkeypatch, DATABASE_URL=url).database_target() == url
    assert settings(monkeypatch, DATABASE_URL="").database_target() == "/data/x.sqlite3"


def test_one_of_several_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = settings(
        monkeypatch, DATABASE_URL="postgresql://db/ohhell", SHARD_COUNT="3", SHARD_IDS="0,2",
        TAKEOVER_SHARD_IDS="1", LEASE_SECONDS="12",
    )
    plan = shard_plan(chosen)
    assert plan is not None
    assert (plan.shard_count, plan.shard_ids, plan.takeover_ids, plan.lease_seconds) == (
        3, (0, 2), (1,), 12.0
    )
    bot = create_bot(chosen)
    assert isinstance(bot, ShardedOhHellBot)
    assert (bot.shard_count, bot.shard_ids) == (3, [0, 2])


def test_one_process_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = settings(monkeypatch, SHARD_IDS="", TAKEOVER_SHARD_IDS="")
    assert shard_plan(chosen) is None
    assert type(create_bot(chosen)) is OhHellBot
    # Every shard in one process may keep its SQLite file.
    alone = settings(monkeypatch, SHARD_COUNT="2")
    plan = shard_plan(alone)
    assert plan is not None and plan.shard_ids == (0, 1)


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "not one of the 2 shards"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, "PostgreSQL"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0", "DATABASE_URL": "sqlite:///x.sqlite3"},
         "PostgreSQL"),
        ({"SHARD_COUNT": "0"}, "shard_count"),
    ],
)
def test_shard_settings_that_cannot_work_are_refused(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], words: str
) -> None:
    with pytest.raises(ValidationError, match=words):
        settings(monkeypatch, **env)
