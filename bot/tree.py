"""The command tree: every failure gets an answer, an ephemeral sentence, never "This
interaction failed".

Refusals (TableError) are the service's own sentences, said in the person's language (their
client's locale, `lang_for(interaction.locale)`). Discord-side refusals (missing permission, a
command used outside a server) get plain words, in that language too. Anything unexpected is
logged with its context (who, where, which command or control) and answered with an apology:
the game's state is safe because every action is committed or refused as a whole.

`AnsweringTree` is the bot's CommandTree (Red-DiscordBot's way: a subclass whose `on_error`
answers what failed); controls, which the tree does not dispatch, call `report` themselves.

Option values are checked against what each command declares (its ranges and choices) before the
command runs: Discord's own app keeps to them, but discord.py does not check them, and anyone can
send an interaction with other values (docs/discord.md). Such a value is refused in words and
changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.errors import TableError
from bot.i18n import DEFAULT_LANG, Lang, lang_for, t, tc

log = logging.getLogger(__name__)

DISCORD_INTEGER_LIMIT = 2**53
"""The largest integer Discord's app sends in an option (its documented limit)."""
DISCORD_TEXT_LIMIT = 6000

SORRY = ("Something went wrong on my side, sorry. The game is safe: nothing was half-done. "
         "Please try again.")
"""The apology in English (the catalogue's msgid): `sorry(lang)` says it."""


def sorry(lang: Lang = DEFAULT_LANG) -> str:
    return t(lang, "Something went wrong on my side, sorry. The game is safe: nothing was "
                   "half-done. Please try again.")


def unwrap(error: BaseException) -> BaseException:
    """The original exception behind discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) \
            and error.__cause__ is not None:
        error = error.__cause__
    return error


def words_for(error: BaseException, lang: Lang = DEFAULT_LANG) -> str | None:
    """A sentence in `lang` for an expected refusal, or None for an unexpected error."""
    error = unwrap(error)
    if isinstance(error, TableError):
        return error.text(lang)
    if isinstance(error, app_commands.MissingPermissions):
        perms = ", ".join(_permission(lang, p) for p in error.missing_permissions)
        return t(lang, "You need the {permissions} permission to do that.", permissions=perms)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "Use this command in a server channel, where the table is.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(lang, "Slow down a little: try again in {seconds} s.",
                 seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.CommandNotFound):
        return t(lang, "That command is out of date; Discord will show the new ones shortly.")
    if isinstance(error, app_commands.CheckFailure):
        return t(lang, "You cannot use that here.")
    return None


def _permission(lang: Lang, name: str) -> str:
    """A Discord permission as its app names it ("Manage Server"); the ones the bot asks for
    have their Norwegian in the catalogue, any other reads as Discord's English."""
    english = name.replace("_", " ").replace("guild", "server").title()
    if name == "manage_guild":
        return t(lang, "Manage Server")
    return english


def context_of(interaction: discord.Interaction) -> str:
    """Who did what where, for the log line of an unexpected error."""
    data: dict[str, object] = dict(interaction.data or {})
    what = (f"/{interaction.command.qualified_name}" if interaction.command is not None
            else f"component {data.get('custom_id', '?')}")
    return (f"{what} by user {interaction.user.id} in guild {interaction.guild_id} "
            f"channel {interaction.channel_id} (interaction {interaction.id})")


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed interaction ephemerally, in the person's language; log it when it was
    not a refusal."""
    lang = lang_for(interaction.locale)
    text = words_for(error, lang)
    if text is None:
        original = unwrap(error)
        log.error("unexpected error in %s", context_of(interaction),
                  exc_info=(type(original), original, original.__traceback__))
        text = sorry(lang)
    if interaction.type is discord.InteractionType.autocomplete:
        return  # nothing to say in an autocomplete; an empty list was or will be shown
    try:
        await answer(interaction, text)
    except discord.HTTPException as err:  # expired or already answered: nothing more to do
        log.warning("could not answer %s: %s", context_of(interaction), err)


def option_problem(interaction: discord.Interaction) -> str | None:
    """The first option value outside what its command declares (a forged interaction), as
    the sentence that refuses it; None when every value is one Discord's app could send."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    given = dict(iter(interaction.namespace))
    lang = lang_for(interaction.locale)
    for parameter in command.parameters:
        if parameter.display_name in given:
            problem = _value_problem(parameter, given[parameter.display_name], lang)
            if problem is not None:
                return problem
    return None


def _value_problem(parameter: app_commands.Parameter, value: object, lang: Lang) -> str | None:
    kind = parameter.type
    option = tc(lang, "slash name", parameter.display_name)  # as the person's app names it
    if parameter.choices:
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed:
            return t(lang, "The option {option} takes one of {allowed}; nothing was changed.",
                     option=option, allowed=", ".join(str(a) for a in allowed))
        return None
    if kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        whole = kind is discord.AppCommandOptionType.integer
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            if whole:
                return t(lang, "The option {option} takes a whole number; nothing was changed.",
                         option=option)
            return t(lang, "The option {option} takes a number; nothing was changed.",
                     option=option)
        low = -DISCORD_INTEGER_LIMIT if parameter.min_value is None else parameter.min_value
        high = DISCORD_INTEGER_LIMIT if parameter.max_value is None else parameter.max_value
        if not low <= value <= high:
            return t(lang, "The option {option} takes {low} to {high}; nothing was changed.",
                     option=option, low=_number(low), high=_number(high))
    elif kind is discord.AppCommandOptionType.string:
        if not isinstance(value, str):
            return t(lang, "The option {option} takes text; nothing was changed.", option=option)
        low = int(parameter.min_value or 0)
        high = int(parameter.max_value or DISCORD_TEXT_LIMIT)
        if not low <= len(value) <= high:
            return t(lang, "The option {option} takes {low} to {high} characters; nothing was "
                           "changed.", option=option, low=low, high=high)
    return None


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


class AnsweringTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every failed command is answered (see the module docstring)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Refuse, in words, an option value its command does not take (a forged one)."""
        problem = option_problem(interaction)
        if problem is None:
            return True
        await answer(interaction, problem)
        return False

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError, /) -> None:
        await report(interaction, error)


async def answer(interaction: discord.Interaction, text: str, *, ephemeral: bool = True,
                 **kwargs: Any) -> None:
    """Send a text answer whether or not the interaction was already answered or deferred."""
    text = text if len(text) <= 2000 else text[:1997] + "..."
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


__all__ = [
    "SORRY",
    "AnsweringTree",
    "answer",
    "context_of",
    "option_problem",
    "report",
    "sorry",
    "unwrap",
    "words_for",
]
