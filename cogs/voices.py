"""Who reads which language, for what the bot sends on its own (docs/discord.md, "Who reads
what").

An answer to an interaction is in that interaction's locale (cogs/ohhell.py). Everything else
the bot sends unprompted needs someone's language without an interaction at hand:
- what everyone in a channel reads (the table message, the final standings and their chart) is
  in the server's language: the one its managers chose with `/ohhell settings language:`, or,
  on "automatic", the server's Discord preferred locale (the guild the gateway keeps, updated by
  GUILD_UPDATE; before the gateway has it, the `guild_locale` of the latest interaction there);
- what one person reads unasked (their hand DMs, turn nudges, notices, the end-of-game edits of
  their DMs) is in their Discord locale as last seen in one of their interactions, kept in the
  store (migration 0012) so a restart still knows it; someone never seen reads the server's.

Cheap by design: a person's locale is written only when it changes (the first time a process
sees them, after one read), and everything is remembered in memory; `prepare` loads what is
not known yet before a message is rendered, so rendering itself stays synchronous.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.i18n import LANGS, Lang, lang_for
from bot.records import Records

log = logging.getLogger(__name__)


class Voices:
    """The languages of servers and people (see the module docstring)."""

    def __init__(self, bot: discord.Client | None = None, records: Records | None = None) -> None:
        """`bot`: where the gateway's guilds (their preferred locale) are read. `records`: where
        server settings and people's locales are kept (None: memory only)."""
        self._bot = bot
        self._records = records
        self._people: dict[int, str | None] = {}  # user -> last-seen locale (None: none kept)
        self._chosen: dict[int, Lang | None] = {}  # guild -> its setting (None: automatic)
        self._guild_locales: dict[int, str] = {}  # guild -> guild_locale of its last interaction
        self._writes: set[asyncio.Task[Any]] = set()

    # ---- reading (synchronous: what is known now) ---------------------------------------------

    def server(self, guild_id: int) -> Lang:
        """What everyone in the server's channels reads."""
        chosen = self._chosen.get(guild_id)
        if chosen is not None:
            return chosen
        guild = self._bot.get_guild(guild_id) if self._bot is not None else None
        if guild is not None:
            return lang_for(guild.preferred_locale)
        return lang_for(self._guild_locales.get(guild_id))

    def person(self, user_id: int, guild_id: int) -> Lang:
        """What this person reads in what the bot sends them unasked (a table's DMs, nudges):
        their own locale, else the language of the server the message is about."""
        locale = self._people.get(user_id)
        return lang_for(locale) if locale is not None else self.server(guild_id)

    # ---- learning -----------------------------------------------------------------------------

    def saw(self, interaction: discord.Interaction) -> None:
        """Note the person's locale (stored when it changed) and the server's."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guild_locales[interaction.guild_id] = str(interaction.guild_locale.value)
        locale = str(getattr(interaction.locale, "value", interaction.locale) or "")
        if not locale:
            return
        user_id = interaction.user.id
        unknown = user_id not in self._people
        if not unknown and self._people[user_id] == locale:
            return
        self._people[user_id] = locale
        if self._records is not None:
            task = asyncio.get_running_loop().create_task(self._keep(user_id, locale, unknown))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    async def _keep(self, user_id: int, locale: str, unknown: bool) -> None:
        assert self._records is not None
        try:
            if unknown and await self._records.get_locale(user_id) == locale:
                return  # the process just had not seen them yet
            await self._records.set_locale(user_id, locale)
        except Exception as err:  # the store is down: kept at their next change, or lost
            log.warning("could not keep the locale of %s: %s", user_id, err)

    def forget(self, user_id: int) -> None:
        """The person asked to be forgotten (their stored locale is gone with the rest): forget
        it here too, so their next interaction stores it afresh rather than being taken as
        known."""
        self._people.pop(user_id, None)

    def chose(self, guild_id: int, language: str | None) -> None:
        """The server's managers chose a language (None: automatic) and it is saved."""
        self._chosen[guild_id] = _lang(language)

    # ---- loading ------------------------------------------------------------------------------

    async def prepare(self, guild_id: int, user_ids: Iterable[int | None] = ()) -> None:
        """Load the server's setting and these people's locales unless known (a read each, once
        a process); a store that fails leaves them to the defaults (the message still goes)."""
        if self._records is None:
            return
        try:
            if guild_id not in self._chosen:
                language = (await self._records.get_settings(guild_id)).language
                self._chosen.setdefault(guild_id, _lang(language))
            for user_id in user_ids:
                if user_id is not None and user_id not in self._people:
                    locale = await self._records.get_locale(user_id)
                    self._people.setdefault(user_id, locale)
        except Exception as err:  # the store is down: tried again at the next message
            log.warning("could not read the languages of server %s: %s", guild_id, err)

    async def person_lang(self, guild_id: int, user_id: int) -> Lang:
        """`person`, loaded first (the nudges' speaker)."""
        await self.prepare(guild_id, (user_id,))
        return self.person(user_id, guild_id)

    async def close(self) -> None:
        """Finish the writes under way."""
        if self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)


def _lang(language: str | None) -> Lang | None:
    for lang in LANGS:
        if language == lang:
            return lang
    return None


__all__ = ["Voices"]
