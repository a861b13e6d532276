"""Configuration from the environment and `.env` (see `.env.example` for every variable)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from data import parse_address

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """The bot's settings. The token is a SecretStr so it never shows in logs or reprs."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
    )

    discord_token: SecretStr | None = None
    """The bot token from the Discord developer portal; required to run the bot."""
    database_path: Path = Path("ohhell.sqlite3")
    """The SQLite file (created if missing); keep it outside the code folders."""
    database_url: str | None = None
    """Where the store lives, as a URL: `sqlite:///path` (the same as DATABASE_PATH) or
    `postgresql://user:password@host/db` (needed to run several processes). Unset: DATABASE_PATH."""
    shard_count: int | None = Field(default=None, ge=1)
    """Discord shards in all, when the bot runs as several processes (with SHARD_IDS)."""
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    """The shards this process connects to and whose tables it drives, e.g. `0,1`."""
    takeover_shard_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    """Other shards whose tables this process takes over when their own process dies."""
    lease_seconds: float = Field(default=30.0, gt=0, le=3600)
    """How long a silent process keeps its tables before another may take them over."""
    dev_guild_id: int | None = None
    """Sync slash commands to this one server only (instant, for development)."""
    sync_commands: bool = True
    """Sync the command tree at start-up (turn off once synced to save API calls)."""
    log_level: LogLevel = "INFO"
    discord_log_level: LogLevel = "INFO"
    """Level of discord.py's HTTP, gateway and webhook loggers, which at DEBUG write request
    bodies (players' hands) and interaction tokens: only a separate setting lowers it."""
    heartbeat_path: Path | None = None
    """A file the bot touches every 15 s while connected (`python -m bot health` checks its
    age; the Docker image sets it). None: no heartbeat."""
    default_turn_timeout: int = Field(default=120, ge=0, le=86_400)
    """Seconds a person has for a turn before a computer moves for them; 0 turns timers off."""
    computer_delay: float = Field(default=1.0, ge=0, le=30)
    """Seconds before computer players move, so people can follow the play."""
    computer_workers: int = Field(default=1, ge=0, le=32)
    """Worker processes for computer players; 0 uses a thread in this process instead."""
    turn_nudge_after: float = Field(default=20.0, ge=0, le=3600)
    """Seconds a person's turn waits before they get one notification Discord delivers (a DM
    or a mention, as they chose with /ohhell notify); 0 sends none (half-time warnings still
    go)."""
    table_edit_interval: float = Field(default=1.0, ge=0, le=10)
    """Least seconds between two edits of a table message: moves made faster than this show in
    one edit (Discord allows about 5 edits per 5 s in a channel); 0 edits at every move."""

    @field_validator("log_level", "discord_log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("shard_ids", "takeover_shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: object, info: ValidationInfo) -> object:
        # SHARD_IDS=0,1 (or [0, 1]); blank means "not set" (SHARD_IDS: every shard).
        if isinstance(value, str):
            text = value.strip().strip("[]")
            ids = [int(part) for part in text.replace(" ", "").split(",") if part]
            return ids if ids or info.field_name == "takeover_shard_ids" else None
        return value

    @field_validator("discord_token", "dev_guild_id", "heartbeat_path", "database_url",
                     "shard_count", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        # An empty `DISCORD_TOKEN=` line in .env means "not set", not "an empty token".
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _shards_agree(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the number of shards in all)")
        if self.shard_count is not None:
            for shard in (*(self.shard_ids or ()), *self.takeover_shard_ids):
                if not 0 <= shard < self.shard_count:
                    raise ValueError(
                        f"shard id {shard} is not one of the {self.shard_count} shards "
                        f"(0 to {self.shard_count - 1})"
                    )
            every = set(range(self.shard_count))
            alone = self.shard_ids is None or set(self.shard_ids) == every
            if not alone and parse_address(self.database_target()).dialect != "postgresql":
                raise ValueError(
                    "processes that split the shards share one PostgreSQL database: set "
                    "DATABASE_URL=postgresql://... (a SQLite file serves one process only)"
                )
        return self

    def database_target(self) -> str:
        """What the store opens: DATABASE_URL when set, else the DATABASE_PATH file."""
        return self.database_url or str(self.database_path)

    @property
    def sharded(self) -> bool:
        """True when this is one of several processes (SHARD_COUNT set)."""
        return self.shard_count is not None

    def apply_log_levels(self) -> None:
        """Keep discord.py's talkative loggers at DISCORD_LOG_LEVEL whatever LOG_LEVEL says."""
        for name in SECRET_LOGGERS:
            logging.getLogger(name).setLevel(self.discord_log_level)

    def token(self) -> str:
        """The token's text. Raises MissingToken when it is not set."""
        if self.discord_token is None:
            raise MissingToken
        return self.discord_token.get_secret_value()


SECRET_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook")
"""discord.py loggers whose DEBUG lines carry request bodies and interaction tokens."""


class MissingToken(RuntimeError):
    """DISCORD_TOKEN is not set."""

    def __str__(self) -> str:
        return (
            "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
            "(copy .env.example to .env), or try `python -m bot play` to play in the terminal."
        )


class CannotStart(RuntimeError):
    """The bot cannot start for a reason the person running it can fix; str() says how."""


__all__ = ["SECRET_LOGGERS", "CannotStart", "LogLevel", "MissingToken", "Settings"]
