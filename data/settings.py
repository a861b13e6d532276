"""Per-server settings (the defaults a new table starts from, and the server's language, set by
the server's managers) and per-person choices (how they are told it is their turn, and the
Discord locale they were last seen with)."""

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
    language: str | None = None
    """What the table messages (and the DMs of people the bot has not seen) are written in: one
    of LANGUAGES (migration 0012); None: automatic, the server's Discord preferred locale."""


NOTIFY_WAYS = ("dm", "mention", "off")
"""How a person can be told it is their turn (a DM, a mention in the channel, or not at all)."""
LANGUAGES = ("en", "nb")
"""The catalogue languages a server may choose (bot/i18n.py's Lang)."""


async def get_settings(session: Session, guild_id: int) -> GuildSettings:
    """The stored settings, or the defaults for a server that never set any."""
    rows = await session.fetch(
        "SELECT default_preset, options_json, turn_timeout, allow_computers, notify, language"
        " FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    if not rows:
        return GuildSettings(guild_id)
    preset, options_json, timeout, allow, notify, language = rows[0]
    return GuildSettings(guild_id, preset, json.loads(options_json), timeout, bool(allow),
                         notify, language)


def put_settings(settings: GuildSettings, now: float) -> tuple[str, tuple[Any, ...]]:
    """The one statement that stores a server's settings, replacing what it had."""
    if settings.turn_timeout is not None and settings.turn_timeout < 0:
        raise ValueError("turn_timeout must be 0 (untimed) or a positive number of seconds")
    if settings.notify is not None and settings.notify not in NOTIFY_WAYS:
        raise ValueError(f"notify must be one of {', '.join(NOTIFY_WAYS)}")
    if settings.language is not None and settings.language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)} (or None: automatic)")
    return (
        "INSERT INTO guild_settings (guild_id, default_preset, options_json, turn_timeout,"
        " allow_computers, notify, language, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE"
        " SET default_preset = excluded.default_preset, options_json = excluded.options_json,"
        " turn_timeout = excluded.turn_timeout, allow_computers = excluded.allow_computers,"
        " notify = excluded.notify, language = excluded.language,"
        " updated_at = excluded.updated_at",
        (
            settings.guild_id,
            settings.default_preset,
            json.dumps(dict(settings.options), sort_keys=True),
            settings.turn_timeout,
            int(settings.allow_computers),
            settings.notify,
            settings.language,
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


async def get_locale(session: Session, user_id: int) -> str | None:
    """This person's Discord locale as last seen (None: never seen, or forgotten)."""
    rows = await session.fetch("SELECT locale FROM person_locales WHERE user_id = ?",
                               (user_id,))
    return str(rows[0][0]) if rows else None


def put_locale(user_id: int, locale: str, now: float) -> tuple[str, tuple[Any, ...]]:
    """The one statement that stores a person's Discord locale (e.g. "no", "en-US")."""
    if not locale or len(locale) > 16:
        raise ValueError(f"{locale!r} is not a Discord locale")
    return (
        "INSERT INTO person_locales (user_id, locale, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE"
        " SET locale = excluded.locale, updated_at = excluded.updated_at",
        (user_id, locale, now),
    )
