"""`Render`, the message body every render module returns, and the colours messages share.

A body is built, never sent: the presenter and delivery decide where it goes (docs/architecture.md).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord

GREEN, BLUE, GREY, GOLD = 0x2E7D32, 0x1565C0, 0x607D8B, 0xF9A825
"""Green a game in play, blue information, grey closed or over, gold a result or your turn."""


@dataclass
class Render:
    """One message body: pass `kwargs()` to send, edit or an interaction response."""

    embed: discord.Embed
    view: discord.ui.View | None = None
    content: str | None = None
    controls: bool = False  # it carries controls for a move (bid, card, trump, discard)
    files: tuple[tuple[str, bytes], ...] = ()
    """Attachments (name, bytes): the end-of-game chart."""
    pings: bool = True
    """Posted, its content's mentions notify (False: they show as names only)."""

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        if self.files:
            out["attachments"] = self.discord_files()
        return out

    def discord_files(self) -> list[discord.File]:
        """Fresh File objects (discord.py consumes and closes them at each send)."""
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def done(self) -> None:
        """Sent: drop the view's item cycles so reference counting frees it (see views.release)."""
        if self.view is not None:
            self.view.clear_items()

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embed": self.embed}
        if self.content:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.discord_files()
        if not self.pings:
            out["allowed_mentions"] = discord.AllowedMentions.none()
        return out
