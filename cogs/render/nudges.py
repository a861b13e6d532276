"""Turn nudges: the plain-text reminder that it is your turn, or that half your time is gone
(cogs.nudges decides when to send them; this only words them), in the language of the person
nudged (cogs/voices.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.i18n import DEFAULT_LANG, Lang, t
from bot.models import TableView
from cogs.render.lines import action_words, timestamp
from engine import Move


@dataclass(frozen=True)
class NudgeText:
    """A nudge as a DM (`dm`) and as a channel message that mentions the person (`channel`).
    Plain content, not an embed: only content mentions ping, and content shows in the push."""

    dm: str
    channel: str


def table_url(view: TableView) -> str:
    """A jump link to the table message (to the channel while it has none)."""
    base = f"https://discord.com/channels/{view.guild_id}/{view.channel_id}"
    return f"{base}/{view.message_id}" if view.message_id is not None else base


def turn_nudge(view: TableView, user_id: int, awaits: type[Move] | None,
               lang: Lang = DEFAULT_LANG) -> NudgeText:
    """Your turn has come and you have not acted yet."""
    what = action_words(awaits, lang)
    return NudgeText(
        dm="⏰ " + t(lang, "Your turn {what} at the Oh Hell table: {url}", what=what,
                     url=table_url(view))
           + "\n" + t(lang, "Your cards and buttons are in your hand message above."),
        channel="⏰ " + t(lang, "{who}, your turn {what}. Your cards are in your DMs "
                               "(or use **My hand** on the table).", who=f"<@{user_id}>",
                          what=what))


def warning_nudge(view: TableView, user_id: int, deadline: datetime,
                  lang: Lang = DEFAULT_LANG) -> NudgeText:
    """Half your turn's time is gone."""
    when = timestamp(deadline)
    return NudgeText(
        dm="⏰ " + t(lang, "Half your time is gone: a computer moves for you {when} at the Oh "
                     "Hell table: {url}", when=when, url=table_url(view)),
        channel="⏰ " + t(lang, "{who}, half your time is gone: a computer moves for you {when}.",
                          who=f"<@{user_id}>", when=when))
