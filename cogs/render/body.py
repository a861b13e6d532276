"""`Render`, the message body every render module returns, and the colours messages share.

A body is built, never sent: the presenter and delivery decide where it goes (docs/architecture.md).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

GREEN, BLUE, GREY, GOLD = 0x2E7D32, 0x1565C0, 0x607D8B, 0xF9A825
"""Green a game in play, blue information, grey closed or over, gold a result or your turn."""


ViewKey = tuple[str | int, ...]
"""What names a set of controls: plain values, so a message's fingerprint can write it
(cogs/delivery.py)."""


@dataclass(frozen=True, slots=True)
class LazyView:
    """Controls named by what decides them, built only when a message is sent with them.

    Why: the table message's controls stay the same all game while its text changes at every
    move; an edit of a message that shows them already leaves them out (cogs/delivery.py), so
    they are neither built nor sent again. `key`: the same key, the same components."""

    key: ViewKey
    build: Callable[[], discord.ui.View]


@dataclass
class Render:
    """One message body: pass `kwargs()` to send, edit or an interaction response."""

    embed: discord.Embed
    view: discord.ui.View | None = None
    """The controls (see `lazy_view`: `controls_view()` is the view to send)."""
    content: str | None = None
    controls: bool = False  # it carries controls for a move (bid, card, trump, discard)
    files: tuple[tuple[str, bytes], ...] = ()
    """Attachments (name, bytes): the end-of-game chart."""
    pings: bool = True
    """Posted, its content's mentions notify (False: they show as names only)."""
    lazy_view: LazyView | None = None
    """Controls built when first wanted, in place of `view`."""

    @property
    def view_key(self) -> ViewKey | None:
        """What names the controls (None: not named, compare the components)."""
        return self.lazy_view.key if self.lazy_view is not None else None

    def controls_view(self) -> discord.ui.View | None:
        """The view to send (a lazy one is built once, here)."""
        if self.view is None and self.lazy_view is not None:
            self.view = self.lazy_view.build()
        return self.view

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "embed": self.embed,
                               "view": self.controls_view()}
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
        view = self.controls_view()
        if view is not None:
            out["view"] = view
        if self.files:
            out["files"] = self.discord_files()
        if not self.pings:
            out["allowed_mentions"] = discord.AllowedMentions.none()
        return out
