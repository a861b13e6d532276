"""Notices for when Discord will not let the bot reach a place: the host's table channel (no
access, an archived thread) or a player's closed DMs. Plain text, sent once, in the language of
the person told (cogs/voices.py)."""

from __future__ import annotations

from bot.i18n import DEFAULT_LANG, Lang, t
from bot.models import TableView


def no_access_notice(view: TableView, lang: Lang = DEFAULT_LANG) -> str:
    """What the host is told once when the bot cannot post or edit the table message."""
    return t(lang, "I cannot post the Oh Hell table in {channel}: I am missing access or "
             "permissions there. Ask a server manager to let me View Channel, Send Messages, "
             "Embed Links and Read Message History in that channel, then use `/ohhell table` "
             "to show the table again. The game goes on meanwhile: players still get their "
             "hands by DM and with `/ohhell hand`.", channel=f"<#{view.channel_id}>")


def archived_notice(view: TableView, lang: Lang = DEFAULT_LANG) -> str:
    """What the host is told once when the table's thread is archived."""
    return t(lang, "The thread {channel} with your Oh Hell table is archived, so I cannot "
             "update the table there. Unarchive it (or send a message in it) and the table "
             "shows again with the next move. The game goes on meanwhile: players still get "
             "their hands by DM and with `/ohhell hand`.", channel=f"<#{view.channel_id}>")


def dm_closed_notice(lang: Lang = DEFAULT_LANG) -> str:
    """What a player whose DMs are closed is told, only to them."""
    return t(lang, "I cannot send you direct messages, so your cards will not come by DM. "
             "Use the table's **My hand** button or `/ohhell hand` to see your hand and play; "
             "the game goes on without waiting.")


DM_CLOSED_NOTICE = dm_closed_notice()
"""The English notice (tests compare with it)."""
