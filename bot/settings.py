"""Configuration from the environment and `.env` (see `.env.example` for every variable)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from data import DatabaseAddress, parse_address

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
DEFAULT_DATABASE = Path("ohhell.sqlite3")


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
    data_dir: Path | None = None
    """The folder a relative DATABASE_PATH (or `sqlite:///relative` URL) lives in. The Docker
    image sets /data, its volume, so an env file's relative or empty DATABASE_PATH still keeps
    the games there. Unset: the working directory."""
    database_path: Path = DEFAULT_DATABASE
    """The SQLite file (created if missing, in a folder that exists); empty: the default."""
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
            parts = [part for part in text.replace(" ", "").split(",") if part]
            if not all(part.isdigit() for part in parts):
                raise ValueError(f"{value!r} is not a list of shard numbers: write them like 0,1")
            ids = [int(part) for part in parts]
            return ids if ids or info.field_name == "takeover_shard_ids" else None
        return value

    @field_validator("discord_token", "dev_guild_id", "heartbeat_path", "database_url",
                     "shard_count", "data_dir", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        # An empty `DISCORD_TOKEN=` line in .env means "not set", not "an empty token".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_path", mode="before")
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        # `DATABASE_PATH=` (as an old .env.example wrote it) means the default file.
        return DEFAULT_DATABASE if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _usable_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if "://" not in value:
            raise ValueError(
                f"{value!r} is not a database URL: use sqlite:///path/to/file.sqlite3 or "
                "postgresql://user:password@host/db (or leave it empty and set DATABASE_PATH)"
            )
        address = parse_address(value)  # ValueError: an unknown scheme, said in words
        if address.dialect == "postgresql":
            try:
                urlsplit(value).port  # noqa: B018 - reading it checks it is a number
            except ValueError:
                raise ValueError(
                    f"{address}: the port is not a number; write "
                    "postgresql://user:password@host:5432/db"
                ) from None
        return value

    @field_validator("shard_ids")
    @classmethod
    def _own_shards(cls, value: list[int] | None, info: ValidationInfo) -> list[int] | None:
        if value is None or "shard_count" not in info.data:  # no list, or the count failed
            return value
        count: int | None = info.data["shard_count"]
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the number of shards in all): "
                             "set SHARD_COUNT, or empty SHARD_IDS for one process")
        _check_shards(value, count)
        if set(value) != set(range(count)) and "database_url" in info.data:
            url = info.data["database_url"]
            if url is None or parse_address(url).dialect != "postgresql":
                raise ValueError(
                    "processes that split the shards share one PostgreSQL database: set "
                    "DATABASE_URL=postgresql://... (a SQLite file serves one process only)"
                )
        return value

    @field_validator("takeover_shard_ids")
    @classmethod
    def _other_shards(cls, value: list[int], info: ValidationInfo) -> list[int]:
        count = info.data.get("shard_count")
        if value and count is None and "shard_count" in info.data:
            raise ValueError("TAKEOVER_SHARD_IDS needs SHARD_COUNT (the number of shards in "
                             "all): set SHARD_COUNT, or empty TAKEOVER_SHARD_IDS")
        if count is not None:
            _check_shards(value, count)
        return value

    def database_target(self) -> str:
        """What the store opens: DATABASE_URL when set, else the DATABASE_PATH file (a relative
        one, like a SQLite URL's relative path, inside DATA_DIR when that is set)."""
        if self.database_url is None:
            return str(self.database_file())
        address = parse_address(self.database_url)
        if address.path is not None and self.data_dir is not None:
            return f"sqlite:///{self.data_dir / address.path}"
        return self.database_url

    def database_file(self) -> Path:
        """The DATABASE_PATH file, inside DATA_DIR when that is set and the path is relative
        (the commands' sync record lives beside it whichever database is used)."""
        if self.data_dir is None:
            return self.database_path
        return self.data_dir / self.database_path

    def database_setting(self) -> str:
        """The setting that chose the database, for messages: DATABASE_URL or DATABASE_PATH."""
        return "DATABASE_URL" if self.database_url is not None else "DATABASE_PATH"

    def database_problem(self) -> str | None:
        """Why the bot could not keep its games in the chosen database, in one line that names
        the setting and the fix; None when it looks usable (checked before logging in)."""
        return database_problem(parse_address(self.database_target()), self.database_setting())

    @property
    def sharded(self) -> bool:
        """True when this is one of several processes (SHARD_COUNT set)."""
        return self.shard_count is not None

    def apply_log_levels(self) -> None:
        """Keep discord.py's talkative loggers at DISCORD_LOG_LEVEL whatever LOG_LEVEL says, and
        the database drivers' at INFO or above: at DEBUG they write every statement's
        parameters, the saved games with every player's hand."""
        for name in SECRET_LOGGERS:
            logging.getLogger(name).setLevel(self.discord_log_level)
        quiet = max(logging.INFO, logging.getLevelName(self.log_level))
        for name in DRIVER_LOGGERS:
            logging.getLogger(name).setLevel(quiet)

    def token(self) -> str:
        """The token's text. Raises MissingToken when it is not set."""
        if self.discord_token is None:
            raise MissingToken
        return self.discord_token.get_secret_value()


SECRET_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook")
"""discord.py loggers whose DEBUG lines carry request bodies and interaction tokens."""
DRIVER_LOGGERS = ("aiosqlite", "asyncpg")
"""The database drivers' loggers, whose DEBUG lines carry every statement's parameters."""


def _check_shards(ids: list[int], count: int) -> None:
    for shard in ids:
        if not 0 <= shard < count:
            raise ValueError(f"shard {shard} is not one of the {count} shards of SHARD_COUNT "
                             f"(0 to {count - 1})")


def setting_problem(error: ValidationError) -> str:
    """The first invalid setting as one line: its name, what is wrong and where to look."""
    first = error.errors()[0]
    name = ".".join(str(part) for part in first.get("loc", ())).upper() or "settings"
    message = str(first["msg"]).removeprefix("Value error, ")
    more = len(error.errors()) - 1
    also = f" ({more} more setting{'s' if more > 1 else ''} to fix after it)" if more else ""
    return f"setting {name}: {message} (see .env.example){also}"


def database_problem(address: DatabaseAddress, setting: str) -> str | None:
    """Why a SQLite file cannot keep the games, naming `setting` and the fix; None when it
    can (a PostgreSQL address is tried when the store opens). Nothing is created here, and
    a missing folder is refused rather than made: a mistyped path would otherwise start an
    empty database somewhere nobody looks."""
    path = address.path
    if path is None:
        return None
    where = f"{setting}: {path}"
    if path.is_dir():
        return f"{where} is a folder: name a file in it, e.g. {path / DEFAULT_DATABASE}"
    folder = path.parent
    if not folder.exists():
        return (f"{where}: the folder {folder} does not exist: create it first "
                f"(mkdir -p {folder}) or choose another {setting}")
    if not folder.is_dir():
        return f"{where}: {folder} is not a folder: choose another {setting}"
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if not part.exists():
            continue
        try:
            with part.open("r+b"):
                pass
        except OSError as err:
            return (f"{where}: cannot write {part} ({err.strerror or err}): make it writable "
                    "by the user the bot runs as (in the Docker image: uid 10001), or choose "
                    f"another {setting}")
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"{where}: the folder {folder} is not writable (SQLite keeps its journal "
                "beside the file): make it writable by the user the bot runs as (in the "
                f"Docker image: uid 10001), or choose another {setting}")
    return None


class MissingToken(RuntimeError):
    """DISCORD_TOKEN is not set."""

    def __str__(self) -> str:
        return (
            "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
            "(copy .env.example to .env), or try `python -m bot play` to play in the terminal."
        )


class CannotStart(RuntimeError):
    """The bot cannot start for a reason the person running it can fix; str() says how."""


__all__ = [
    "DRIVER_LOGGERS",
    "SECRET_LOGGERS",
    "CannotStart",
    "LogLevel",
    "MissingToken",
    "Settings",
    "database_problem",
    "setting_problem",
]
