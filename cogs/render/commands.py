"""The answers to `/ohhell` commands that show no table and no hand: help, rules, leaderboard,
stats, the server's settings and how a person is told it is their turn (`notify`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.i18n import DEFAULT_LANG, Lang, say, t, tc
from bot.records import GuildSettings, PlayerStats
from cogs.render.body import BLUE, GOLD
from cogs.render.lines import preset_title, preset_words
from engine import Rules


def notify_words(how: str, lang: Lang = DEFAULT_LANG) -> str:
    """A notification choice in words: "a DM", "a mention in the table's channel", "off"."""
    if how == "mention":
        return t(lang, "a mention in the table's channel")
    return t(lang, "off") if how == "off" else t(lang, "a DM")


def help_embed(lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell help`: how to play here, in a few lines."""
    lines = [
        t(lang, "**Open** a table: `/ohhell start` in a channel or thread (you are its host)."),
        t(lang, "**Join** with the table's **Join** button. The host may **Add bot** for "
                "computer players and presses **Deal** once 3 or more are seated."),
        t(lang, "**Your hand** comes by DM, one message per hand, with buttons when it is your "
                "turn. DMs closed? Press **My hand** under the table (or `/ohhell hand`): only "
                "you see it."),
        t(lang, "**Bid** how many tricks you will take, exactly; then **play** one card a "
                "trick, following suit when you can. Make your bid exactly to score."),
        t(lang, "The table message in the channel is the live view: bids, the trick in play, "
                "over or under, the scores. `/ohhell scores` shows the scoresheet."),
        t(lang, "The rules of each preset: `/ohhell rules` (e.g. `/ohhell rules preset:ouch`)."),
        t(lang, "**Your turn** is told by a DM or a mention when you have not acted for a while: "
                "choose with `/ohhell notify` (dm, mention or off)."),
        t(lang, "**Stuck?** `/ohhell hint` suggests a bid or card with its reason, only to you, "
                "at a table whose host allowed hints (`/ohhell start hints:`; such games are not "
                "rated)."),
    ]
    return discord.Embed(title=t(lang, "How to play Oh Hell here"), colour=BLUE,
                         description="\n".join(f"• {line}" for line in lines))


def rules_embed(rules: Rules, lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell rules`: a preset as a player reads it, each of the engine's rule lines said in
    `lang` from the catalogue."""
    lines = (say(lang, line) for line in rules.describe_phrases())
    return discord.Embed(title=f"{preset_title(rules.title, lang)} (`{rules.name}`)",
                         colour=BLUE,
                         description="\n".join(f"• {line}" for line in lines)[:4096])


LEADERBOARD_FORMAT: dict[str, Callable[[PlayerStats], str]] = {
    "rating": lambda r: f"{r.rating:.1f}",
    "wins": lambda r: str(r.wins),
    "games": lambda r: str(r.games),
    "win_rate": lambda r: f"{r.win_rate:.0%}",
    "avg_points": lambda r: f"{r.avg_points:.1f}",
    "points_per_hand": lambda r: "-" if r.points_per_hand is None else f"{r.points_per_hand:.2f}",
    "bid_accuracy": lambda r: "-" if r.bid_accuracy is None else f"{r.bid_accuracy:.0%}",
    "best_game": lambda r: str(r.best_game),
    "streak": lambda r: str(r.streak),
}
"""How each sort's value reads in its leaderboard row."""


def leaderboard_embed(rows: Sequence[PlayerStats], sort: str,
                      guild_name: str, lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell leaderboard`: the server's people, best first by `sort`."""
    e = discord.Embed(title=t(lang, "Oh Hell leaderboard · {server}", server=guild_name),
                      colour=GOLD)
    if not rows:
        e.description = t(lang, "No finished games yet: start one with `/ohhell start`.")
        return e
    fmt = LEADERBOARD_FORMAT.get(sort, LEADERBOARD_FORMAT["rating"])
    lines = [f"{i}. <@{r.user_id}> **{fmt(r)}** · "
             + t(lang, "{wins}/{games} won", wins=r.wins, games=r.games)
             for i, r in enumerate(rows, 1)]
    e.description = "\n".join(lines)[:4096]
    e.set_footer(text=t(lang, "sorted by {sort}", sort=tc(lang, "slash", sort.replace("_", " "))))
    return e


def stats_embed(stats: PlayerStats | None, user_id: int,
                lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell stats`: one person's record in this server."""
    e = discord.Embed(title=t(lang, "Oh Hell stats"), colour=BLUE)
    if stats is None:
        e.description = t(lang, "{who} has not finished a game in this server yet.",
                          who=f"<@{user_id}>")
        return e
    acc = "-" if stats.bid_accuracy is None else f"{stats.bid_accuracy:.0%}"
    e.description = f"<@{user_id}>\n" + t(
        lang, "Games **{games}** · wins **{wins}** ({rate})\nRating **{rating}** · exact bids "
        "{accuracy} · average {average} points\nBest game {best} · winning streak {streak}",
        games=stats.games, wins=stats.wins, rate=f"{stats.win_rate:.0%}",
        rating=f"{stats.rating:.1f}", accuracy=acc, average=f"{stats.avg_points:.1f}",
        best=stats.best_game, streak=stats.streak)
    return e


def seconds_text(seconds: int, lang: Lang = DEFAULT_LANG) -> str:
    """A turn timeout as a person reads it: "120 s", or "untimed" for 0."""
    return t(lang, "untimed") if seconds == 0 else f"{seconds} s"


LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nb": "Norsk"}
"""Each language by its own name, as a language picker shows it to everyone."""


def language_text(chosen: str | None, now: Lang, lang: Lang = DEFAULT_LANG) -> str:
    """The server's language setting: the one chosen, or automatic and what it gives now."""
    if chosen is not None:
        return f"**{LANGUAGE_NAMES.get(chosen, chosen)}**"
    return t(lang, "**automatic**: the server's Discord language, now {name}",
             name=LANGUAGE_NAMES[now])


def settings_embed(guild_settings: GuildSettings, *, bot_turn_timeout: int,
                   lang: Lang = DEFAULT_LANG, server_lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell settings`: the values new tables in this server really start from.

    `bot_turn_timeout` is the bot's own default (DEFAULT_TURN_TIMEOUT), shown as a value where
    the server set none, never as "the bot default". `server_lang`: what the server's table
    messages are written in now (shown beside an automatic language)."""
    gs = guild_settings
    opts = dict(gs.options)
    bots_default = " " + t(lang, "(the bot's default)")
    preset = (f"**{preset_words(gs.default_preset, lang)}**" if gs.default_preset
              else f"**{preset_words('classic', lang)}**" + bots_default)
    hook = opts.get("hook")
    decides = t(lang, "the preset decides")
    timeout = (f"**{seconds_text(gs.turn_timeout, lang)}**" if gs.turn_timeout is not None
               else f"**{seconds_text(bot_turn_timeout, lang)}**" + bots_default)
    hook_text = decides if hook is None else t(lang, "on") if hook else t(lang, "off")
    allowed = t(lang, "allowed") if gs.allow_computers else t(lang, "not allowed")
    lines = [t(lang, "Preset: {preset}", preset=preset),
             t(lang, "Scoring: **{scoring}**", scoring=preset_words(str(opts["scoring"]), lang)
               if opts.get("scoring") else decides),
             t(lang, "Hook: **{hook}**", hook=hook_text),
             t(lang, "Turn timeout: {timeout}", timeout=timeout),
             t(lang, "Computer players: **{allowed}**", allowed=allowed),
             t(lang, "Turn notifications: **{how}**", how=notify_words(gs.notify or "dm", lang))
             + ("" if gs.notify else bots_default) + " "
             + t(lang, "for players who chose none (`/ohhell notify`)"),
             t(lang, "Language: {language} (the table messages; each person's DMs follow "
                     "their own Discord language)",
               language=language_text(gs.language, server_lang, lang))]
    e = discord.Embed(title=t(lang, "Oh Hell server defaults"), colour=BLUE,
                      description="\n".join(lines))
    e.set_footer(text=t(lang, "A table's own /ohhell start options win over these. "
                              "/ohhell settings reset:<option> puts one back."))
    return e


def notify_text(own: str | None, server_default: str | None, *, saved: bool,
                lang: Lang = DEFAULT_LANG) -> str:
    """`/ohhell notify`: how this person is told it is their turn, and why."""
    if own is not None:
        how = notify_words(own, lang)
        text = t(lang, "Saved: {how}.", how=how) if saved else t(lang, "Your choice: {how}.",
                                                                 how=how)
        if own == "off":
            return text + " " + t(lang, "You are not told when it is your turn (your hand DM "
                                        "still shows it).")
        return text + " " + t(lang, "You get it when your turn has waited a little; it goes "
                                    "once you have acted.")
    return t(lang, "You have not chosen: this server's default is {how}, when your turn has "
                   "waited a little. Choose with `/ohhell notify how:`.",
             how=notify_words(server_default or "dm", lang))
