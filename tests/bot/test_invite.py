"""The README's invite link asks for exactly the permissions the bot declares, and says why."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.invite import PERMISSION_REASONS, PERMISSIONS, invite_url

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_the_readme_invite_link_is_the_bots_own() -> None:
    assert invite_url(123) in README.replace("APP_ID", "123")
    assert f"`{PERMISSIONS.value}`" in README
    # exactly what docs/discord.md lists for a card-game bot, and nothing that could harm
    assert set(PERMISSION_REASONS) == {"view_channel", "send_messages", "send_messages_in_threads",
                                       "embed_links", "attach_files", "read_message_history"}
    assert not PERMISSIONS.administrator and not PERMISSIONS.manage_messages
    assert PERMISSIONS.value == discord.Permissions(**dict.fromkeys(PERMISSION_REASONS, True)).value


def test_every_permission_has_its_reason_in_the_readme() -> None:
    for name, reason in PERMISSION_REASONS.items():
        title = name.replace("_", " ").title().replace(" In ", " in ")
        title = title.replace("Channel", "Channels")
        assert f"| {title} | {reason} |" in README, name
