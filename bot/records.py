"""What the cogs may read and write beside the tables: leaderboards, players' stats, the
server's settings, people's last-seen locales and the turn nudges on Discord. A typed facade
over the store, so a cog never holds the store itself (and the value types it hands back come
from here, not from data/)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from data import LANGUAGES, NOTIFY_WAYS, GuildSettings, PlayerStats, PostedNudge


class Records(Protocol):
    """Leaderboards, stats and server settings (data.Store provides exactly these)."""

    async def leaderboard(
        self, guild_id: int, sort: str = ..., limit: int = ..., min_games: int = ...
    ) -> list[PlayerStats]:
        """The server's people, best first by `sort` (ValueError for an unknown sort)."""
        ...

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One person's record in one server (None: no finished game there)."""
        ...

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never set any)."""
        ...

    async def save_settings(self, value: GuildSettings) -> None:
        """Replace the server's settings."""
        ...

    async def get_notify(self, user_id: int) -> str | None:
        """How this person chose to be told it is their turn (None: never chose)."""
        ...

    async def set_notify(self, user_id: int, how: str) -> None:
        """Store how this person wants to be told it is their turn."""
        ...

    async def get_locale(self, user_id: int) -> str | None:
        """This person's Discord locale as last seen (None: never seen, or forgotten)."""
        ...

    async def set_locale(self, user_id: int, locale: str) -> None:
        """Store this person's Discord locale (written only when it changed)."""
        ...

    async def keep_nudge(self, nudge: PostedNudge) -> None:
        """A nudge was posted (it replaces the person's previous one at that table)."""
        ...

    async def forget_nudge(self, nudge: PostedNudge) -> None:
        """A nudge was deleted on Discord."""
        ...

    async def posted_nudges(self, table_id: int) -> list[PostedNudge]:
        """The nudges kept for a table."""
        ...

    async def posted_nudges_of(self, table_ids: Sequence[int]) -> dict[int, list[PostedNudge]]:
        """The nudges kept for several tables (those that have some), in one read."""
        ...


__all__ = ["LANGUAGES", "NOTIFY_WAYS", "GuildSettings", "PlayerStats", "PostedNudge", "Records"]
