"""The application: settings, the Discord client, the table service and the terminal mode.

`from bot import Settings, create_bot` is the start-up surface; the table service lives in
`bot.service` and speaks ids and engine values only (see `bot.events`, `bot.models`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.client import OhHellBot, create_bot
    from bot.settings import Settings

__all__ = ["OhHellBot", "Settings", "create_bot"]


def __getattr__(name: str) -> Any:
    # Lazy, so `import bot.events` does not pull in discord.py and pydantic-settings.
    if name == "Settings":
        from bot.settings import Settings

        return Settings
    if name in ("create_bot", "OhHellBot"):
        from bot import client

        return getattr(client, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
