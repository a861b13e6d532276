"""What the bot asks for when it is added to a server: the scopes and the permissions, and why.

One list, so the README's invite link, the link the bot logs at start-up and the test that
keeps them equal cannot drift apart.
"""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")
"""`bot` puts the bot in the server; `applications.commands` lets it add the /ohhell commands."""

PERMISSION_REASONS: dict[str, str] = {
    "view_channel": "see the channel where a table is opened",
    "send_messages": "post the table message and the final result",
    "send_messages_in_threads": "host tables inside threads too",
    "embed_links": "the table, hands and scoresheets are embeds",
    "attach_files": "the chart of the scores at the end of a game is an image",
    "read_message_history": "edit the table message in place and find it again after a restart",
}
"""Each permission the bot needs, and what it needs it for. Nothing else (no administrator)."""

PERMISSIONS = discord.Permissions(**dict.fromkeys(PERMISSION_REASONS, True))


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with exactly these scopes and permissions."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}"
            f"&scope={'+'.join(SCOPES)}&permissions={PERMISSIONS.value}")


__all__ = ["PERMISSIONS", "PERMISSION_REASONS", "SCOPES", "invite_url"]
