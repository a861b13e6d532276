"""Slash commands in the reader's language: discord.py asks this translator for every command,
option and choice name and description when it syncs, and Discord shows each person the ones for
their client's locale (docs/discord.md). Discord calls Norwegian `no`.

Names and descriptions are told apart by the catalogue's context, as "bid" the command's name and
"bid" in a sentence may read differently. A string the catalogue lacks stays English (None).
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import DEFAULT_LANG, has, lang_for, tc

NAME_CONTEXT = "slash name"
TEXT_CONTEXT = "slash"
NAME_LOCATIONS = frozenset({
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
})


def slash_context(location: app_commands.TranslationContextLocation) -> str:
    return NAME_CONTEXT if location in NAME_LOCATIONS else TEXT_CONTEXT


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the message catalogue (bot.i18n)."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = lang_for(locale)
        if lang == DEFAULT_LANG:
            return None
        where = slash_context(context.location)
        if not has(lang, where, string.message):
            return None
        return tc(lang, where, string.message)
