"""Per-server settings: the defaults a new table starts from, set by the server's managers."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from data.driver import Session


@dataclass(frozen=True)
class GuildSettings:
    """A server's defaults. None means "use the bot's own default" (from its configuration).

    options are rule options laid over the preset (e.g. {"scoring": "penalty", "hook": True}),
    as the bot passes them to Rules.model_copy(update=...); turn_timeout is in seconds.
    """

    guild_id: int
    default_preset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    turn_timeout: int | None = None
    allow_computers: bool = True
    notify: str | None = None
    """How people who chose nothing are told it is their turn: one of NOTIFY_WAYS (migration
    0006); None: the bot's default."""


NOTIFY_WAYS = ("dm", "mention", "off")
"""How a person can be told it is their turn (a DM, a mention in the channel, or not at all)."""


async def get_settings(session: Session, guild_id: int) -> GuildSettings:
    """The stored settings, or the defaults for a server that never set any."""
    rows = await session.fetch(
        "SELECT default_preset, options_json, turn_timeout, allow_computers, notify"
        " FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    if not rows:
        return GuildSettings(guild_id)
    preset, options_json, timeout, allow, notify = rows[0]
    return GuildSettings(guild_id, preset, json.loads(options_json), timeout, bool(allow),
                         notify)


def put_settings(settings: GuildSettings, now: float) -> tuple[str, tuple[Any, ...]]:
    """The one statement that stores a server's settings, replacing what it had."""
    if settings.turn_timeout is not None and settings.turn_timeout < 0:
        raise ValueError("turn_timeout must be 0 (untimed) or a positive number of seconds")
    if settings.notify is not None and settings.notify not in NOTIFY_WAYS:
        raise ValueError(f"notify must be one of {', '.join(NOTIFY_WAYS)}")
    return (
        "INSERT INTO guild_settings (guild_id, default_preset, options_json, turn_timeout,"
        " allow_computers, notify, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET default_preset = excluded.default_preset, options_json = excluded.options_json,"
        " turn_timeout = excluded.turn_timeout, allow_computers = excluded.allow_computers,"
        " notify = excluded.notify, updated_at = excluded.updated_at",
        (
            settings.guild_id,
            settings.default_preset,
            json.dumps(dict(settings.options), sort_keys=True),
            settings.turn_timeout,
            int(settings.allow_computers),
            settings.notify,
            now,
        ),
    )


async def get_notify(session: Session, user_id: int) -> str | None:
    """How this person chose to be told it is their turn (None: they never chose)."""
    rows = await session.fetch("SELECT how FROM notify_prefs WHERE user_id = ?", (user_id,))
    return str(rows[0][0]) if rows else None


def put_notify(user_id: int, how: str, now: float) -> tuple[str, tuple[Any, ...]]:
    """The one statement that stores a person's choice (one of NOTIFY_WAYS)."""
    if how not in NOTIFY_WAYS:
        raise ValueError(f"notify must be one of {', '.join(NOTIFY_WAYS)}")
    return (
        "INSERT INTO notify_prefs (user_id, how, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET how = excluded.how, updated_at = excluded.updated_at",
        (user_id, how, now),
    )
