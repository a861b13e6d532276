"""Looking back: /ohhell history, replay, export, learn, forget-me and forget.

These subcommands join the /ohhell group that cogs/ohhell.py defines (this extension is loaded
from its setup). They only translate Discord to the archive (bot/archive.py), the lesson
(bot/learn.py) and the store's forgetting, and render what comes back. Every answer is
ephemeral: a history, a replay or a lesson belongs to the person who asked.

Buttons carry their whole state in the custom_id (a page's keyset, a replay's step, a lesson's
answers so far), so they keep working after a restart and nothing is kept in memory. Their
custom_ids start with ARCHIVE_PREFIX, not the table controls' "ohhell:", which cogs/ohhell.py
answers as out of date when no table template matches.
"""

from __future__ import annotations

import io
import re
from collections.abc import Coroutine
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import archive
from bot.errors import TableError
from bot.i18n import DEFAULT_LANG, Lang, lang_for, t, tn
from bot.learn import Lesson
from bot.replay_text import card_text, hand_starts, steps
from bot.tree import report
from cogs.render.lines import preset_words
from data import PlayerSeated, Store, TableStatus
from data.history import GameSummary, HistoryPage
from engine import Rules

ARCHIVE_PREFIX = "ohha:"
PAGE = 5
PRESETS = Rules.preset_names(special_cards=True)
PRESET_CHOICES = [app_commands.Choice(name=p.replace("_", " "), value=p) for p in PRESETS]


def _lang(interaction: discord.Interaction) -> Lang:
    """Every answer here is ephemeral: the person's own language."""
    return lang_for(interaction.locale)


def _store(interaction: discord.Interaction) -> Store:
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    return store


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise TableError("Use this command in a server channel.")
    return interaction.guild_id


# -- history -------------------------------------------------------------------------------


def _game_line(game: GameSummary, lang: Lang) -> str:
    table = t(lang, "table")
    link = (f" · [{table}](https://discord.com/channels/{game.guild_id}/{game.channel_id}/"
            f"{game.message_id})" if game.message_id else "")
    players = ", ".join(
        (f"**{s.name} {s.total}**" if s.winner else f"{s.name} {s.total}")
        for s in sorted(game.seats, key=lambda s: (s.placing, s.seat)))
    when = int(game.finished_at)
    hands = tn(lang, "{n} hand", "{n} hands", game.hands)
    return (f"`#{game.game_id}` <t:{when}:R> · {preset_words(game.preset, lang)} · "
            f"{hands}{link}\n{players}")


def _history_title(user_id: int | None, preset: str | None, lang: Lang) -> str:
    who = f"<@{user_id}>"
    if preset and user_id:
        return t(lang, "Finished games of {preset} with {who}",
                 preset=preset_words(preset, lang), who=who)
    if preset:
        return t(lang, "Finished games of {preset}", preset=preset_words(preset, lang))
    if user_id:
        return t(lang, "Finished games with {who}", who=who)
    return t(lang, "Finished games")


def history_body(page: HistoryPage, user_id: int | None, preset: str | None,
                 newest: bool, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The history message: one page of games (winners in bold) and its paging buttons."""
    embed = discord.Embed(title=_history_title(user_id, preset, lang),
                          colour=discord.Colour.blurple())
    embed.description = ("\n\n".join(_game_line(g, lang) for g in page.games) if page.games
                         else t(lang, "No finished games yet.") if newest
                         else t(lang, "No older games."))
    embed.set_footer(text=t(lang, "Newest first. /ohhell replay game: steps through one."))
    view = discord.ui.View(timeout=None)
    if not newest:
        view.add_item(HistoryButton(user_id or 0, preset or "", 0, t(lang, "Newest")))
    if page.next_before is not None:
        view.add_item(HistoryButton(user_id or 0, preset or "", page.next_before,
                                    t(lang, "Older")))
    return {"embed": embed, "view": view}


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"ohha:hist:(?P<user>\d+):(?P<preset>[a-z_]*):(?P<before>\d+)"):
    """Older / Newest under a history page: `before` 0 is the newest page."""

    def __init__(self, user_id: int, preset: str, before: int, label: str = "Older") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"ohha:hist:{user_id}:{preset}:{before}"))
        self.user_id, self.preset, self.before = user_id, preset, before

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HistoryButton:
        return cls(int(match["user"]), match["preset"], int(match["before"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        user_id, preset = self.user_id or None, self.preset or None
        page = await archive.history(_store(interaction), _guild(interaction), user_id=user_id,
                                     preset=preset, before=self.before or None, limit=PAGE)
        await interaction.response.edit_message(
            **history_body(page, user_id, preset, newest=not self.before,
                           lang=_lang(interaction)))


async def _guarded(interaction: discord.Interaction,
                   work: Coroutine[Any, Any, None]) -> None:
    """Run a button's work; a refusal or failure is answered like a command's."""
    try:
        await work
    except Exception as err:  # report() says a refusal in words and logs anything else
        await report(interaction, err)


# -- replay --------------------------------------------------------------------------------


def replay_body(told: archive.ToldGame, step: int, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """One step of a replay and the buttons to move hand by hand and trick by trick."""
    exported = archive.export_game(told)
    told_steps = steps(exported, lang)
    step = max(0, min(step, len(told_steps) - 1))
    starts = hand_starts(exported)
    embed = discord.Embed(title=t(lang, "Replay of game #{game} ({preset})",
                                  game=told.summary.game_id,
                                  preset=preset_words(told.summary.preset, lang)),
                          colour=discord.Colour.dark_green())
    embed.description = "\n".join(told_steps[step])[:4000]
    embed.set_footer(text=t(lang, "Step {step} of {count}", step=step + 1,
                            count=len(told_steps)))
    previous_hand = max([i for i in starts if i < step], default=0)
    next_hand = min([i for i in starts if i > step], default=len(told_steps) - 1)
    game = told.summary.game_id
    view = discord.ui.View(timeout=None)
    hand, back, forward = t(lang, "Hand"), t(lang, "Back"), t(lang, "Next")
    for label, target, disabled, slot in (
        (f"« {hand}", previous_hand, step == 0, "«"),
        (f"‹ {back}", step - 1, step == 0, "‹"),
        (f"{forward} ›", step + 1, step == len(told_steps) - 1, "N"),
        (f"{hand} »", next_hand, step == len(told_steps) - 1, "H"),
    ):
        view.add_item(ReplayButton(game, max(0, target), label, disabled, slot=slot))
    return {"embed": embed, "view": view}


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ohha:replay:(?P<game>\d+):(?P<step>\d+):(?P<slot>.)"):
    """A step of a replay; the slot keeps the four buttons' custom_ids apart."""

    def __init__(self, game_id: int, step: int, label: str = "Next ›", disabled: bool = False,
                 slot: str = "N") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"ohha:replay:{game_id}:{step}:{slot}"))
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        told = await archive.tell(_store(interaction), _guild(interaction), self.game_id)
        await interaction.response.edit_message(
            **replay_body(told, self.step, _lang(interaction)))


class ReplayTableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"ohha:replay-table:(?P<table>\d{1,18})"):
    """Replay under a finished game's final message: the message knows its table, the store
    maps the table to its game, and the click answers as /ohhell replay does."""

    def __init__(self, table_id: int, lang: Lang = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Button(
            label=t(lang, "Replay"), style=discord.ButtonStyle.secondary, emoji="⏮️",
            custom_id=f"ohha:replay-table:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayTableButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        store = _store(interaction)
        game_id = await store.game_for_table(self.table_id)
        if game_id is None:
            table = await store.get_table(self.table_id)
            if table is not None and table.status in (TableStatus.LOBBY, TableStatus.PLAYING):
                raise TableError("That game is still being played: it can be replayed once "
                                 "it is over.")
            raise TableError("That game was ended without a result, so there is nothing to "
                             "replay.")
        told = await archive.tell(store, _guild(interaction), game_id)
        await interaction.response.send_message(**replay_body(told, 0, _lang(interaction)),
                                                ephemeral=True)


async def recent_games(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete over the server's 25 most recent finished games (typed text narrows by
    game number, preset or player)."""
    if interaction.guild_id is None:
        return []
    page = await _store(interaction).history(interaction.guild_id, limit=25)
    typed = current.strip().lower().lstrip("#")
    lang = _lang(interaction)
    found = []
    for game in page.games:
        when = datetime.fromtimestamp(game.finished_at, UTC).strftime("%Y-%m-%d")
        names = ", ".join(f"{s.name} {s.total}" for s in game.seats)
        label = f"#{game.game_id} {preset_words(game.preset, lang)} {when}: {names}"
        if typed in label.lower() or typed in game.preset:
            found.append(app_commands.Choice(name=label[:100], value=game.game_id))
    return found


# -- learn -----------------------------------------------------------------------------------


def lesson_body(lesson: Lesson, lines: list[str], lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """What the lesson says now and a button per choice (the answers so far ride along)."""
    embed = discord.Embed(title=t(lang, "Oh Hell: your first hand"),
                          colour=discord.Colour.gold())
    embed.description = "\n\n".join(lines)[:4000]
    view = discord.ui.View(timeout=None)
    given = ".".join(lesson.answers)
    for choice in lesson.choices():
        view.add_item(LessonButton(given, choice))
    return {"embed": embed, "view": view}


class LessonButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ohha:learn:(?P<given>[0-9A-Z.]*):(?P<choice>[0-9A-Z]+)"):
    """One answer in the lesson: a bid or one of your cards."""

    def __init__(self, given: str, choice: str) -> None:
        label = choice if choice.isdigit() else card_text(choice)
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary,
            custom_id=f"ohha:learn:{given}:{choice}"))
        self.given, self.choice = given, choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LessonButton:
        return cls(match["given"], match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(interaction, self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction) -> None:
        try:
            lesson = Lesson.replayed([a for a in self.given.split(".") if a],
                                     _lang(interaction))
        except ValueError:
            raise TableError("That lesson is out of date: start it again with "
                             "/ohhell learn.") from None
        step = lesson.answer(self.choice)
        await interaction.response.edit_message(
            **lesson_body(lesson, step.lines, _lang(interaction)))


# -- forgetting ------------------------------------------------------------------------------


def _forgotten_text(names: tuple[str, ...], games: int, whom: str | None, lang: Lang) -> str:
    """What forgetting did: `whom` a mention forgotten in this server, None the asker
    forgotten in every server."""
    known = f" ({', '.join(names)})" if names else ""
    if whom is None:
        return tn(lang, "Done: your name{names} is gone from every stored game, table and "
                        "leaderboard in every server; {n} finished game now shows \"a former "
                        "player\" in that seat, and the ratings and totals are deleted.",
                  "Done: your name{names} is gone from every stored game, table and "
                  "leaderboard in every server; {n} finished games now show \"a former "
                  "player\" in that seat, and the ratings and totals are deleted.",
                  games, names=known)
    return tn(lang, "Done: {who}'s name{names} is gone from every stored game, table and "
                    "leaderboard here; {n} finished game now shows \"a former player\" in "
                    "that seat, and the ratings and totals are deleted.",
              "Done: {who}'s name{names} is gone from every stored game, table and "
              "leaderboard here; {n} finished games now show \"a former player\" in that "
              "seat, and the ratings and totals are deleted.",
              games, who=whom, names=known)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ohha:forget:(?P<user>\d+):(?P<answer>yes|no)"):
    """The confirmation of /ohhell forget-me (only the person who asked may confirm)."""

    def __init__(self, user_id: int, answer: str, lang: Lang = DEFAULT_LANG) -> None:
        label, style = ((t(lang, "Forget me"), discord.ButtonStyle.danger) if answer == "yes"
                        else (t(lang, "Keep everything"), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"ohha:forget:{user_id}:{answer}"))
        self.user_id, self.answer = user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ForgetButton:
        return cls(int(match["user"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guarded(interaction, self._confirm(interaction))

    async def _confirm(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise TableError("Only the person who asked to be forgotten can confirm it.")
        lang = _lang(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(
                content=t(lang, "Nothing was deleted."), embed=None, view=None)
            return
        forgotten = await _forget(interaction, self.user_id, None)
        await interaction.response.edit_message(
            content=_forgotten_text(forgotten.names, forgotten.games, None, lang), embed=None,
            view=None)


PERSON_FORGOTTEN = "person_forgotten"
"""The bot event (`on_person_forgotten(user_id)`) after a person's rows were deleted: what the
running bot remembers of them goes too (cogs/ohhell.py)."""


async def _forget(interaction: discord.Interaction, user_id: int, guild_id: int | None) -> Any:
    try:
        forgotten = await _store(interaction).forget_player(user_id, guild_id)
    except PlayerSeated as seated:
        channels = ", ".join(f"<#{c}>" for c in seated.channel_ids)
        raise TableError("That person is seated at a game in progress ({channels}): it can be "
                         "forgotten once they leave or the game ends.", channels=channels) from None
    interaction.client.dispatch(PERSON_FORGOTTEN, user_id)
    return forgotten


# -- the commands ----------------------------------------------------------------------------


@app_commands.command(name="history", description="This server's finished games, newest first")
@app_commands.describe(member="Only games this member played", preset="Only this rule system")
@app_commands.choices(preset=PRESET_CHOICES)
async def history(interaction: discord.Interaction, member: discord.Member | None = None,
                  preset: str | None = None) -> None:
    user_id = member.id if member is not None else None
    page = await archive.history(_store(interaction), _guild(interaction), user_id=user_id,
                                 preset=preset, limit=PAGE)
    await interaction.response.send_message(
        **history_body(page, user_id, preset, newest=True, lang=_lang(interaction)),
        ephemeral=True)


@app_commands.command(name="replay", description="Step through a finished game, hand by hand")
@app_commands.describe(game="Which game (start typing: recent games are offered)")
@app_commands.autocomplete(game=recent_games)
async def replay(interaction: discord.Interaction, game: int) -> None:
    told = await archive.tell(_store(interaction), _guild(interaction), game)
    await interaction.response.send_message(**replay_body(told, 0, _lang(interaction)),
                                            ephemeral=True)


@app_commands.command(name="export", description="A game as JSON and CSV; without a game, "
                                                 "every result as CSV (Manage Server)")
@app_commands.describe(game="Which game (leave out for all results: Manage Server)")
@app_commands.autocomplete(game=recent_games)
async def export(interaction: discord.Interaction, game: int | None = None) -> None:
    store, guild = _store(interaction), _guild(interaction)
    if game is None:
        if not interaction.permissions.manage_guild:
            raise TableError("Exporting every result takes the Manage Server permission; "
                             "anyone can export one game with game:.")
        data = (await archive.results_csv(store, guild)).encode("utf-8")
        await interaction.response.send_message(
            t(_lang(interaction), "Every finished game of this server, one row per player."),
            file=discord.File(io.BytesIO(data), filename="ohhell-results.csv"), ephemeral=True)
        return
    told = await archive.tell(store, guild, game)
    files = [
        discord.File(io.BytesIO(archive.export_json(told).encode("utf-8")),
                     filename=f"ohhell-game-{game}.json"),
        discord.File(io.BytesIO(archive.scoresheet_csv(told).encode("utf-8")),
                     filename=f"ohhell-game-{game}-scoresheet.csv"),
    ]
    await interaction.response.send_message(
        t(_lang(interaction), "Game #{game}: the whole game as JSON (step through it with "
                              "`python -m bot replay FILE`) and its scoresheet as CSV.",
          game=game), files=files, ephemeral=True)


@app_commands.command(name="learn", description="Learn the game by playing one guided hand")
async def learn(interaction: discord.Interaction) -> None:
    lesson = Lesson(_lang(interaction))
    step = lesson.start()
    await interaction.response.send_message(
        **lesson_body(lesson, step.lines, _lang(interaction)), ephemeral=True)


@app_commands.command(name="forget-me",
                      description="Delete your name, results and ratings from every server")
async def forget_me(interaction: discord.Interaction) -> None:
    lang = _lang(interaction)
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(interaction.user.id, "yes", lang))
    view.add_item(ForgetButton(interaction.user.id, "no", lang))
    await interaction.response.send_message(
        t(lang, "Forget you? Your name is removed from every stored game and leaderboard of "
                "every server (your seats stay as \"a former player\", so scoresheets still add "
                "up), and your ratings, totals and notification choice are deleted. This cannot "
                "be undone."),
        view=view, ephemeral=True)


@app_commands.command(name="forget", description="Forget a member in this server (Manage Server)")
@app_commands.describe(member="Whose name, results and ratings to delete here")
@app_commands.checks.has_permissions(manage_guild=True)
async def forget(interaction: discord.Interaction, member: discord.User) -> None:
    forgotten = await _forget(interaction, member.id, _guild(interaction))
    await interaction.response.send_message(
        _forgotten_text(forgotten.names, forgotten.games, f"<@{member.id}>",
                        _lang(interaction)), ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none())


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    history, replay, export, learn, forget_me, forget)
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HistoryButton, ReplayButton, ReplayTableButton, LessonButton, ForgetButton)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: add the commands to the /ohhell group (loaded after it) and
    register the buttons."""
    group = bot.tree.get_command("ohhell")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("load cogs.ohhell before cogs.history: it defines /ohhell")
    for command in COMMANDS:
        group.add_command(command)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
