"""The answers to `/ohhell` commands that show no table and no hand: help, rules, leaderboard,
stats, the server's settings and how a person is told it is their turn (`notify`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.records import GuildSettings, PlayerStats
from cogs.render.body import BLUE, GOLD
from engine import Rules

NOTIFY_WORDS = {"dm": "a DM", "mention": "a mention in the table's channel", "off": "off"}
PRESET_DECIDES = "the preset decides"


def help_embed() -> discord.Embed:
    """`/ohhell help`: how to play here, in a few lines."""
    lines = [
        "**Open** a table: `/ohhell start` in a channel or thread (you are its host).",
        "**Join** with the table's **Join** button. The host may **Add bot** for computer "
        "players and presses **Deal** once 3 or more are seated.",
        "**Your hand** comes by DM, one message per hand, with buttons when it is your turn. "
        "DMs closed? Press **My hand** under the table (or `/ohhell hand`): only you see it.",
        "**Bid** how many tricks you will take, exactly; then **play** one card a trick, "
        "following suit when you can. Make your bid exactly to score.",
        "The table message in the channel is the live view: bids, the trick in play, "
        "over or under, the scores. `/ohhell scores` shows the scoresheet.",
        "The rules of each preset: `/ohhell rules` (e.g. `/ohhell rules preset:ouch`).",
        "**Your turn** is told by a DM or a mention when you have not acted for a while: "
        "choose with `/ohhell notify` (dm, mention or off).",
        "**Stuck?** `/ohhell hint` suggests a bid or card with its reason, only to you, at a "
        "table whose host allowed hints (`/ohhell start hints:`; such games are not rated).",
    ]
    return discord.Embed(title="How to play Oh Hell here", colour=BLUE,
                         description="\n".join(f"• {line}" for line in lines))


def rules_embed(rules: Rules) -> discord.Embed:
    """`/ohhell rules`: a preset as a player reads it."""
    return discord.Embed(title=f"{rules.title} (`{rules.name}`)", colour=BLUE,
                         description="\n".join(f"• {line}" for line in rules.describe())[:4096])


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
                      guild_name: str) -> discord.Embed:
    """`/ohhell leaderboard`: the server's people, best first by `sort`."""
    e = discord.Embed(title=f"Oh Hell leaderboard · {guild_name}", colour=GOLD)
    if not rows:
        e.description = "No finished games yet: start one with `/ohhell start`."
        return e
    fmt = LEADERBOARD_FORMAT.get(sort, LEADERBOARD_FORMAT["rating"])
    lines = [f"{i}. <@{r.user_id}> **{fmt(r)}** · {r.wins}/{r.games} won"
             for i, r in enumerate(rows, 1)]
    e.description = "\n".join(lines)[:4096]
    e.set_footer(text=f"sorted by {sort.replace('_', ' ')}")
    return e


def stats_embed(stats: PlayerStats | None, user_id: int) -> discord.Embed:
    """`/ohhell stats`: one person's record in this server."""
    e = discord.Embed(title="Oh Hell stats", colour=BLUE)
    if stats is None:
        e.description = f"<@{user_id}> has not finished a game in this server yet."
        return e
    acc = "-" if stats.bid_accuracy is None else f"{stats.bid_accuracy:.0%}"
    e.description = (
        f"<@{user_id}>\nGames **{stats.games}** · wins **{stats.wins}** ({stats.win_rate:.0%})\n"
        f"Rating **{stats.rating:.1f}** · exact bids {acc} · average {stats.avg_points:.1f} "
        f"points\nBest game {stats.best_game} · winning streak {stats.streak}")
    return e


def seconds_text(seconds: int) -> str:
    """A turn timeout as a person reads it: "120 s", or "untimed" for 0."""
    return "untimed" if seconds == 0 else f"{seconds} s"


def settings_embed(guild_settings: GuildSettings, *, bot_turn_timeout: int) -> discord.Embed:
    """`/ohhell settings`: the values new tables in this server really start from.

    `bot_turn_timeout` is the bot's own default (DEFAULT_TURN_TIMEOUT), shown as a value where
    the server set none, never as "the bot default"."""
    gs = guild_settings
    opts = dict(gs.options)
    preset = (f"**{gs.default_preset}**" if gs.default_preset
              else "**classic** (the bot's default)")
    hook = opts.get("hook")
    timeout = (f"**{seconds_text(gs.turn_timeout)}**" if gs.turn_timeout is not None
               else f"**{seconds_text(bot_turn_timeout)}** (the bot's default)")
    lines = [f"Preset: {preset}",
             f"Scoring: **{opts.get('scoring') or PRESET_DECIDES}**",
             f"Hook: **{PRESET_DECIDES if hook is None else 'on' if hook else 'off'}**",
             f"Turn timeout: {timeout}",
             f"Computer players: **{'allowed' if gs.allow_computers else 'not allowed'}**",
             f"Turn notifications: **{NOTIFY_WORDS[gs.notify or 'dm']}**"
             + ("" if gs.notify else " (the bot's default)")
             + " for players who chose none (`/ohhell notify`)"]
    e = discord.Embed(title="Oh Hell server defaults", colour=BLUE, description="\n".join(lines))
    e.set_footer(text="A table's own /ohhell start options win over these. "
                      "/ohhell settings reset:<option> puts one back.")
    return e


def notify_text(own: str | None, server_default: str | None, *, saved: bool) -> str:
    """`/ohhell notify`: how this person is told it is their turn, and why."""
    after = "when your turn has waited a little"
    if own is not None:
        how = NOTIFY_WORDS[own]
        text = (f"Saved: {how}." if saved else f"Your choice: {how}.")
        if own == "off":
            return text + " You are not told when it is your turn (your hand DM still shows it)."
        return text + f" You get it {after}; it goes once you have acted."
    how = NOTIFY_WORDS[server_default or "dm"]
    return (f"You have not chosen: this server's default is {how}, {after}. "
            "Choose with `/ohhell notify how:`.")
