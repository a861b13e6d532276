"""`/ohhell`: the slash commands and what the buttons and selects do.

Thin by design: read the interaction, call the table service with ids, answer. The game rules
live in the engine, the table life cycle in the service, the look in cogs.render, and the
message updates in cogs.presenter. Slash commands and controls reach the same service calls,
so acting from a DM and acting in the channel are equivalent.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.card_words import card_label, card_name
from bot.client import OhHellBot
from bot.directory import TableDirectory
from bot.errors import TableError
from bot.guard import Guard
from bot.i18n import Lang, declaration_words, lang_for, say, t, tn
from bot.models import COMPUTER_LEVELS, TableView
from bot.moves import read_card, refused
from bot.options import table_options
from bot.records import GuildSettings, Records
from bot.service import TableService
from bot.tree import answer, report
from cogs import render, views
from cogs.gateway import Gateway
from cogs.interact import Answering
from cogs.nudges import stored_preference
from cogs.presenter import COMPUTER_HOLD_SLACK, Claim, DiscordPresenter
from cogs.voices import Voices
from engine import Bid, Declaration, Move, Phase, Play, Rules, sort_hand

log = logging.getLogger(__name__)

PRESETS = Rules.preset_names(special_cards=True)
SCORINGS = ("common", "strict", "penalty", "bonus_only", "wizard")
LEADERBOARD_SORTS = ("rating", "wins", "games", "win_rate", "avg_points", "points_per_hand",
                     "bid_accuracy", "best_game", "streak")
MAX_CARDS = 20  # the largest hand: Wizard's 60 cards give 3 players 20


def own_lang(interaction: discord.Interaction) -> Lang:
    """The person's language: for what only they read (ephemeral answers, their DMs)."""
    return lang_for(interaction.locale)


def _choices(values: Any) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v.replace("_", " "), value=v) for v in values]


PRESET_CHOICES = _choices(PRESETS)
SCORING_CHOICES = _choices(SCORINGS)
LEVEL_CHOICES = _choices(COMPUTER_LEVELS)
SORT_CHOICES = _choices(LEADERBOARD_SORTS)
RESET_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in (
    ("preset (back to classic)", "preset"), ("scoring (the preset decides)", "scoring"),
    ("hook (the preset decides)", "hook"), ("turn timeout (the bot's default)", "turn_timeout"),
    ("notify (a DM)", "notify"), ("all of these", "all"))]
NOTIFY_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in (
    ("a DM with a link to the table", "dm"), ("a mention in the table's channel", "mention"),
    ("off: no notification", "off"))]
LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in (
    ("Automatic", "auto"), ("English", "en"), ("Norsk", "nb"))]
"""`/ohhell settings language:` ("auto": the server's Discord language; cogs/voices.py)."""


class CardTransformer(app_commands.Transformer):
    """`/ohhell play card:` text ("10h", "TH", "10♥", "QS", or Norwegian "hjerter 10") to the
    Play it means; text that is no card is refused in the parser's words (a TableError,
    answered ephemerally in the person's language)."""

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return 20

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Play:
        try:
            return Play(read_card(str(value)))
        except ValueError as err:
            raise refused(err) from None


class OhHell(commands.Cog, name=views.COG_NAME):
    """Oh Hell tables: one per channel or thread, hands by DM."""

    ohhell = app_commands.Group(name="ohhell", description="Play Oh Hell, the trick-taking game",
                                guild_only=True)

    def __init__(self, bot: commands.Bot, service: TableService, tables: TableDirectory,
                 records: Records, presenter: DiscordPresenter) -> None:
        """`service` takes the actions; `tables` answers the reads (bot/directory.py)."""
        self.bot, self.service, self.tables = bot, service, tables
        self.records, self.presenter = records, presenter
        self.voices = presenter.voices

    @commands.Cog.listener()
    async def on_person_forgotten(self, user_id: int) -> None:
        """A person was forgotten (cogs/history.py PERSON_FORGOTTEN): their locale too."""
        self.voices.forget(user_id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction tells the person's locale (cogs/voices.py). A control of ours that
        no template matches any more (an older version): answer."""
        self.voices.saw(interaction)
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if views.is_ours(custom_id) and not views.matches_any(custom_id):
            await answer(interaction, t(own_lang(interaction),
                                        "That control is out of date; use `/ohhell hand`."))

    # ---- helpers -------------------------------------------------------------------------

    def _table(self, interaction: discord.Interaction) -> TableView:
        """The table of the interaction's channel (TableError when there is none)."""
        if interaction.channel_id is None:
            raise TableError("There is no table in this channel.")
        return self.tables.table_for_channel(interaction.channel_id)

    def _own_control(self, interaction: discord.Interaction, table_id: int, *,
                     from_hand: bool = False) -> None:
        """A control names its table in its custom_id, which anyone can forge (docs/discord.md):
        it is obeyed only where that table's controls are, its channel, or for a hand's controls
        a DM of someone seated there. So another server's permissions never judge a table.
        TableError otherwise; a table that is not open is left to the service to refuse."""
        if self.tables.table_id_in(interaction.channel_id or 0) == table_id:
            return  # this channel's own table (the channel holds the server too)
        if not self.tables.holds(table_id):
            return
        if (from_hand and interaction.guild_id is None
                and self.tables.seat_at(table_id, interaction.user.id) is not None):
            return
        raise TableError("That control is not for a table here: use the buttons under this "
                         "channel's table, or /ohhell hand.")

    async def _settings(self, guild_id: int | None) -> GuildSettings:
        return await self.records.get_settings(guild_id or 0)

    async def _server_lang(self, interaction: discord.Interaction) -> Lang:
        """The server's language (its setting, else its Discord one): for what the channel
        reads."""
        guild_id = interaction.guild_id or 0
        await self.voices.prepare(guild_id)
        return self.voices.server(guild_id)

    async def _allow_computers(self, guild_id: int | None) -> None:
        if not (await self._settings(guild_id)).allow_computers:
            raise TableError("Computer players are turned off in this server.")

    async def _act(self, interaction: discord.Interaction, table_id: int | None,
                   call: Callable[[], Awaitable[TableView]], *,
                   done: str | Callable[[TableView], str] | None = None,
                   post_table: bool = False, hand_number: int | None = None) -> None:
        """Perform one action and answer it; `done` is the answer in the actor's language
        ("Done." without one). The answer carries the update of the message clicked on (or,
        `post_table`, posts the new table message): the presenter holds that message for it
        while the claim is open (cogs/presenter.py), and the deferral timer keeps Discord's
        deadline (cogs/interact.py)."""
        self.voices.saw(interaction)  # before the DMs this action may send are rendered
        answering = Answering(interaction, ephemeral=not post_table)
        claim = self.presenter.claim(table_id, interaction.user.id,
                                     channel_id=interaction.channel_id,
                                     message_id=answering.source_message_id, posts=post_table)
        answering.start()
        try:
            try:
                result = await call()
            finally:
                await answering.stop_deferring()
        except TableError as err:
            self.presenter.release(claim)
            await self._refuse(interaction, err.text(own_lang(interaction)), table_id)
            return
        except BaseException:
            self.presenter.release(claim)
            raise
        try:
            await self._respond(answering, claim, result, done, hand_number)
        finally:
            self.presenter.release(claim)
        notice = await self.presenter.settle(claim, own_lang(interaction))
        if notice:
            await interaction.followup.send(notice, ephemeral=True)

    async def _respond(self, answering: Answering, claim: Claim, result: TableView,
                       done: str | Callable[[TableView], str] | None,
                       hand_number: int | None) -> None:
        interaction = answering.interaction
        response = interaction.response
        notice = self.presenter.take_notice(result.table_id, answering.user_id,
                                            own_lang(interaction))
        plan = self.presenter.plan_for(claim)
        if plan is not None:
            async with self.presenter.answering(plan) as body:
                if response.is_done():  # deferred: edit the clicked message or "thinking"
                    message_id: int | None = (await interaction.edit_original_response(
                        **body.kwargs())).id
                elif answering.is_component:
                    await response.edit_message(**body.kwargs())
                    message_id = plan.message_id
                else:
                    message_id = (await response.send_message(**body.send_kwargs())).message_id
                body.done()
            self.presenter.release(claim, posted=message_id)
            if notice:
                await interaction.followup.send(notice, ephemeral=True)
            return
        self.presenter.release(claim)
        if hand_number is not None and interaction.message is not None:
            body = self._hand_render(result, answering.user_id, hand_number,
                                     dm=interaction.guild_id is None,
                                     lang=own_lang(interaction))
            if response.is_done():
                await interaction.edit_original_response(**body.kwargs())
            else:
                await response.edit_message(**body.kwargs())
            body.done()
            if notice:
                await interaction.followup.send(notice, ephemeral=True)
            return
        text = done(result) if callable(done) else done or t(own_lang(interaction), "Done.")
        await answer(interaction, f"{text}\n\n{notice}" if notice else text)

    async def _refuse(self, interaction: discord.Interaction, text: str,
                      table_id: int | None) -> None:
        notice = (self.presenter.take_notice(table_id, interaction.user.id, own_lang(interaction))
                  if table_id else None)
        await answer(interaction, f"{text}\n\n{notice}" if notice else text)

    def _hand_render(self, view: TableView, user_id: int, hand_number: int, *,
                     dm: bool, lang: Lang) -> render.Render:
        """What the actor sees in place of the hand message they used, in their language."""
        seat = view.seat_of(user_id)
        try:
            pv = self.tables.hand_view(view.table_id, user_id)
        except TableError:
            pv = None
        if pv is None or seat is None or pv.hand_number != hand_number:
            return render.hand_over_message(view, seat or 0, hand_number, lang=lang)
        return render.hand_message(view, pv, dm=dm, lang=lang)

    @staticmethod
    def _name(user: discord.abc.User) -> str:
        return (getattr(user, "display_name", None) or user.name)[:32]

    # ---- lobby ---------------------------------------------------------------------------

    @ohhell.command(name="start", description="Open an Oh Hell table in this channel")
    @app_commands.describe(
        preset="The rule system (default: the server's, else classic)",
        max_cards="The largest hand, in cards",
        scoring="How hands score (default: the preset's)",
        hook="Whether the dealer may not make the bids add up (default: the preset's)",
        bots="Computer players to seat now",
        bot_level="How well the computer players play",
        turn_timeout="Seconds a player has for a turn (0: no timer)",
        hints="Let players ask /ohhell hint for the hard computer's advice (not rated; off)")
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES,
                          bot_level=LEVEL_CHOICES)
    async def start(self, interaction: discord.Interaction, preset: str | None = None,
                    max_cards: app_commands.Range[int, 1, MAX_CARDS] | None = None,
                    scoring: str | None = None, hook: bool | None = None,
                    bots: app_commands.Range[int, 0, 7] | None = None,
                    bot_level: str | None = None,
                    turn_timeout: app_commands.Range[int, 0, 86_400] | None = None,
                    hints: bool | None = None) -> None:
        gs = await self._settings(interaction.guild_id)
        if bots and not gs.allow_computers:
            raise TableError("Computer players are turned off in this server.")
        defaults = dict(gs.options)
        options = table_options(
            preset=preset or gs.default_preset or "classic",
            max_cards=max_cards,
            scoring=scoring or defaults.get("scoring"),
            hook=hook if hook is not None else defaults.get("hook"),
            computers=bots or 0,
            computer_level=bot_level or defaults.get("bot_level", "medium"),
            turn_timeout=turn_timeout if turn_timeout is not None else gs.turn_timeout,
            hints=bool(hints))
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        assert guild_id is not None and channel_id is not None  # the group is guild-only
        await self._act(
            interaction, None,
            lambda: self.service.open_table(guild_id, channel_id, interaction.user.id,
                                            self._name(interaction.user), options),
            done=t(own_lang(interaction), "The table is open."), post_table=True)

    @ohhell.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, self._table(interaction).table_id, "join")

    @ohhell.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, self._table(interaction).table_id, "leave")

    @ohhell.command(name="addbot", description="Seat a computer player (host)")
    @app_commands.describe(level="How well it plays (default: the table's level)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await self._lobby(interaction, self._table(interaction).table_id, "addbot", level)

    @ohhell.command(name="deal", description="Start the game with the seated players (host)")
    async def deal(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, self._table(interaction).table_id, "deal")

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """Join, Leave, Add bot, Deal, Cancel under the table message."""
        try:
            self._own_control(interaction, table_id)
            await self._lobby(interaction, table_id, action)
        except Exception as err:
            await report(interaction, err)

    async def _lobby(self, interaction: discord.Interaction, table_id: int, action: str,
                     level: str | None = None) -> None:
        uid = interaction.user.id
        svc = self.service
        lang = own_lang(interaction)
        call: Callable[[], Awaitable[TableView]]
        done: str | Callable[[TableView], str]
        if action == "join":
            dms_open = [True]

            async def call() -> TableView:
                view = await svc.join(table_id, uid, self._name(interaction.user))
                # one answer: it says whether the cards come by DM (the notice rides with it)
                dms_open[0] = await self.presenter.welcomed(table_id, uid)
                return view

            def done(view: TableView) -> str:
                if dms_open[0]:
                    return t(lang, "You have a seat. Your cards will come by DM once the host "
                                   "deals.")
                return t(lang, "You have a seat.")
        elif action == "leave":
            def call() -> Awaitable[TableView]:
                return svc.leave(table_id, uid)
            def done(view: TableView) -> str:
                return _left(view, lang)
        elif action == "addbot":
            await self._allow_computers(interaction.guild_id)

            def call() -> Awaitable[TableView]:
                return svc.add_computer(table_id, uid, level)
            done = t(lang, "A computer player took a seat.")
        elif action == "deal":
            def call() -> Awaitable[TableView]:
                return svc.deal(table_id, uid)
            done = t(lang, "Dealt! Your cards are in your DMs (or use My hand).")
        else:
            manager = interaction.permissions.manage_guild

            def call() -> Awaitable[TableView]:
                return svc.end(table_id, uid, manager)
            done = t(lang, "The table is closed.")
        await self._act(interaction, table_id, call, done=done)

    # ---- play ----------------------------------------------------------------------------

    @ohhell.command(name="bid", description="Bid the number of tricks you will take")
    @app_commands.describe(tricks="How many tricks you will take")
    async def bid(self, interaction: discord.Interaction,
                  tricks: app_commands.Range[int, 0, MAX_CARDS]) -> None:
        tid = self._table(interaction).table_id
        await self._act(interaction, tid,
                        lambda: self.service.act(tid, interaction.user.id, Bid(tricks)),
                        done=t(own_lang(interaction), "You bid {bid}.", bid=tricks))

    @ohhell.command(name="play", description="Play a card from your hand")
    @app_commands.describe(card="The card, like 10h, TH, 10♥, QS or JK",
                           declare="For a joker: what it is, like high trump or low diamond")
    async def play(self, interaction: discord.Interaction,
                   card: app_commands.Transform[Play, CardTransformer],
                   declare: app_commands.Range[str, 1, 40] | None = None) -> None:
        before = self._table(interaction)
        tid = before.table_id
        if declare is not None:
            state = before.state
            try:
                said = Declaration.parse(declare, state.trump_suit if state else None)
            except ValueError as err:
                raise refused(err) from None
            card = Play(card.card, said)
        move = card
        await self._act(interaction, tid,
                        lambda: self.service.act(tid, interaction.user.id, move),
                        done=lambda after: _played(move, before, after, own_lang(interaction)))

    @play.autocomplete("card")
    async def _card_choices(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal cards when it is their turn to play, else their hand."""
        try:
            view = self._table(interaction)
            pv = self.tables.hand_view(view.table_id, interaction.user.id)
        except TableError:
            return []
        except Exception:
            log.exception("card autocomplete failed")
            return []
        to_play = pv.to_act and pv.phase is Phase.PLAYING
        cards = pv.legal_cards if to_play else pv.hand
        typed = current.strip().lower()
        lang = own_lang(interaction)
        waiting = "" if to_play else " · " + t(lang, "not your turn")
        out = []
        for c in sort_hand(list(cards)):
            label = f"{card_label(c, lang)} ({card_name(c, lang)}){waiting}"
            if not typed or typed in label.lower() or typed == c.code.lower():
                out.append(app_commands.Choice(name=label, value=c.code))
        return out[:25]

    async def on_move(self, interaction: discord.Interaction, table_id: int, guard: Guard,
                      move: Callable[[], Move]) -> None:
        """A bid button, card select, trump button or discard select (DM or My hand): the
        control built the move and names the decision it was drawn for."""
        uid = interaction.user.id
        try:
            self._own_control(interaction, table_id, from_hand=True)
            built = move()
            await self._act(interaction, table_id,
                            lambda: self.service.act(table_id, uid, built, guard),
                            hand_number=guard.hand_number)
        except Exception as err:
            await report(interaction, err)

    @ohhell.command(name="hand", description="See your hand (only you see it), with controls")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._show_hand(interaction, self._table(interaction).table_id)

    async def on_rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Rematch button under a finished game: the host opens the next table, posted
        as a new message that invites the game's people (a new message is what notifies; only
        the first rematch of a game pings them, so ending and reopening it does not again)."""
        try:
            last = await self.tables.last_game(interaction.channel_id or 0)
            if last is None or last.table_id != table_id:
                raise TableError("That Rematch button is not for this channel's last game: "
                                 "open a new table with /ohhell start.")
            allowed = (await self._settings(interaction.guild_id)).allow_computers
            lang = own_lang(interaction)

            def done(view: TableView) -> str:
                seated = len(view.seats) - 1
                opened = (tn(lang, "The rematch table is open below; {n} computer player seated.",
                             "The rematch table is open below; {n} computer players seated.",
                             seated) if seated else t(lang, "The rematch table is open below."))
                return opened + " " + t(lang, "The other players were asked to press Join.")

            await self._act(interaction, None, lambda: self.service.rematch(
                table_id, interaction.user.id, self._name(interaction.user),
                computers_allowed=allowed), done=done)
        except Exception as err:
            await report(interaction, err)

    async def on_my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        """The table's My hand button."""
        try:
            self._own_control(interaction, table_id, from_hand=True)
            await self._show_hand(interaction, table_id)
        except Exception as err:
            await report(interaction, err)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        view = self.tables.table(table_id)
        pv = self.tables.hand_view(table_id, interaction.user.id)
        body = render.hand_message(view, pv, dm=False, lang=own_lang(interaction))
        notice = self.presenter.take_notice(table_id, interaction.user.id,
                                            own_lang(interaction))
        await interaction.response.send_message(content=notice, ephemeral=True,
                                                **body.send_kwargs())

    @ohhell.command(name="hint", description="The hard computer's advice for your move "
                    "(only you see it; if the host allowed hints)")
    async def hint(self, interaction: discord.Interaction) -> None:
        table_id = self._table(interaction).table_id
        # the advice takes up to a second of thinking, off the event loop: answer "thinking" now
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.service.hint(table_id, interaction.user.id)
        await answer(interaction, say(own_lang(interaction), hint))

    @ohhell.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction) -> None:
        view = self._table(interaction)

        async def send(body: render.Render) -> int | None:
            body.pings = False  # the table again: its mentions pinged when it was first posted
            return (await interaction.response.send_message(**body.send_kwargs())).message_id

        await self.presenter.repost(view, send)

    @ohhell.command(name="scores", description="The scoresheet so far (only you see it)")
    async def scores(self, interaction: discord.Interaction) -> None:
        cid = interaction.channel_id
        view = None if cid is None else (self.tables.find_table(cid)
                                         or await self.tables.last_game(cid))
        if view is None:
            raise TableError("There is no table in this channel.")
        await interaction.response.send_message(
            embed=render.scoresheet(view, own_lang(interaction)), ephemeral=True)

    # ---- control -------------------------------------------------------------------------

    @ohhell.command(name="end", description="End this channel's game (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, self._table(interaction).table_id, "cancel")

    @ohhell.command(name="kick", description="Remove a player; a computer takes the seat (host)")
    @app_commands.describe(member="Who to remove")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        tid = self._table(interaction).table_id
        await self._act(interaction, tid,
                        lambda: self.service.kick(tid, interaction.user.id, member.id),
                        done=t(own_lang(interaction), "{name} is out of the game.",
                               name=member.display_name))

    # ---- information ---------------------------------------------------------------------

    @ohhell.command(name="rules", description="How a preset plays")
    @app_commands.describe(preset="The rule system (default: the server's, else classic)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        if preset is None:
            preset = (await self._settings(interaction.guild_id)).default_preset or "classic"
        await interaction.response.send_message(embed=render.rules_embed(
            Rules.preset(preset), own_lang(interaction)),
                                                ephemeral=True)

    @ohhell.command(name="leaderboard", description="This server's best players")
    @app_commands.describe(sort="What to rank by (default: rating)")
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, sort: str = "rating") -> None:
        rows = await self.records.leaderboard(interaction.guild_id or 0, sort=sort, limit=10)
        lang = await self._server_lang(interaction)
        name = interaction.guild.name if interaction.guild else t(lang, "this server")
        await interaction.response.send_message(embed=render.leaderboard_embed(
            rows, sort, name, lang))

    @ohhell.command(name="stats", description="A player's record in this server")
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None = None) -> None:
        user = member or interaction.user
        found = await self.records.player_stats(interaction.guild_id or 0, user.id)
        await interaction.response.send_message(embed=render.stats_embed(
            found, user.id, await self._server_lang(interaction)))

    @ohhell.command(name="settings", description="Server defaults for new tables (Manage Server)")
    @app_commands.describe(preset="Default rule system", scoring="Default scoring",
                           hook="Default hook rule",
                           turn_timeout="Default seconds per turn (0: untimed)",
                           computers="Whether tables may seat computer players",
                           notify="How players who chose nothing are told it is their turn",
                           reset="Put an option back to what the preset (or the bot) decides",
                           language="Language of the table messages (automatic: the server's "
                                    "Discord language)")
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES, reset=RESET_CHOICES,
                          notify=NOTIFY_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       scoring: str | None = None, hook: bool | None = None,
                       turn_timeout: app_commands.Range[int, 0, 86_400] | None = None,
                       computers: bool | None = None, notify: str | None = None,
                       reset: str | None = None, language: str | None = None) -> None:
        gs = await self._settings(interaction.guild_id)
        options = dict(gs.options)
        changes: dict[str, Any] = {}
        for option in ("scoring", "hook"):
            if reset in (option, "all"):
                options.pop(option, None)
        if reset in ("preset", "all"):
            changes["default_preset"] = None
        if reset in ("turn_timeout", "all"):
            changes["turn_timeout"] = None
        if reset in ("notify", "all"):
            changes["notify"] = None
        if scoring is not None:
            options["scoring"] = scoring
        if hook is not None:
            options["hook"] = hook
        if options != dict(gs.options):
            changes["options"] = options
        if preset is not None:
            changes["default_preset"] = preset
        if turn_timeout is not None:
            changes["turn_timeout"] = turn_timeout
        if computers is not None:
            changes["allow_computers"] = computers
        if notify is not None:
            changes["notify"] = notify
        if language is not None:
            changes["language"] = None if language == "auto" else language
        changed = {k: v for k, v in changes.items() if getattr(gs, k) != v}
        if changed:
            gs = dataclasses.replace(gs, **changed)
            await self.records.save_settings(gs)
            self.voices.chose(gs.guild_id, gs.language)  # the server's later messages
        lang = own_lang(interaction)
        await interaction.response.send_message(
            content=t(lang, "Saved. New tables start from these defaults.") if changed else None,
            embed=render.settings_embed(
                gs, bot_turn_timeout=self.service.config.default_turn_timeout, lang=lang,
                server_lang=await self._server_lang(interaction)),
            ephemeral=True)

    @ohhell.command(name="notify", description="How you are told it is your turn")
    @app_commands.describe(how="A DM, a mention in the table's channel, or off "
                               "(leave it out to see your choice)")
    @app_commands.choices(how=NOTIFY_CHOICES)
    async def notify(self, interaction: discord.Interaction, how: str | None = None) -> None:
        uid = interaction.user.id
        if how is not None:
            await self.records.set_notify(uid, how)
        own = await self.records.get_notify(uid)
        default = (await self._settings(interaction.guild_id)).notify
        await interaction.response.send_message(
            render.notify_text(own, default, saved=how is not None,
                               lang=own_lang(interaction)), ephemeral=True)

    @ohhell.command(name="help", description="How to play Oh Hell here")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=render.help_embed(own_lang(interaction)),
                                                ephemeral=True)


def _left(view: TableView, lang: Lang) -> str:
    return (t(lang, "You left the table.") if view.state is None
            else t(lang, "You left the game; a computer plays your seat."))


def _played(move: Play, before: TableView, after: TableView, lang: Lang) -> str:
    """Name the card only while its hand is in play: once the next hand is dealt, the same
    card may be in someone's new hand, and nothing shown may name such a card."""
    if after.hand_number != before.hand_number:
        return t(lang, "You played the last card of hand {number}.", number=before.hand_number)
    card = card_label(move.card, lang)
    if move.declaration is not None:
        trump = before.state.trump_suit if before.state is not None else None
        return t(lang, "You played {card} ({declared}).", card=card,
                 declared=declaration_words(lang, move.declaration, trump))
    return t(lang, "You played {card}.", card=card)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: build the Discord presenter on the bot's tables, attach it to the
    table service (built in setup_hook), add the cog and register the dynamic controls (so old
    buttons work after a restart)."""
    if not isinstance(bot, OhHellBot):
        raise TypeError("the Oh Hell cog runs on bot.client.OhHellBot")
    settings = bot.settings
    directory = bot.directory
    presenter = DiscordPresenter(
        bot, directory, bot.service_clock, voices=Voices(bot, bot.store),
        edit_interval=settings.table_edit_interval,
        computer_hold=settings.computer_delay + COMPUTER_HOLD_SLACK,
        nudge_after=settings.turn_nudge_after, preference=stored_preference(bot.store),
        executor=bot.executor, scheduler=bot.scheduler, records=bot.store)
    service = bot.attach_presenter(presenter)
    await bot.add_cog(OhHell(bot, service, directory, bot.store, presenter))
    await bot.add_cog(Gateway(service))
    bot.add_dynamic_items(*views.DYNAMIC_ITEMS)


async def teardown(bot: commands.Bot) -> None:
    """Extension exit (unload or reload): the presenter leaves the service, delivering what it
    holds first; the tables play on, shown again by the presenter of the next load."""
    bot.remove_dynamic_items(*views.DYNAMIC_ITEMS)
    await bot.remove_cog(Gateway.__cog_name__)  # from another module: not removed for us
    if not isinstance(bot, OhHellBot) or bot.presenter is None:
        return
    presenter = bot.presenter
    bot.detach_presenter(presenter)
    if not bot.closing:  # closing, the service's close has delivered it already
        await presenter.close()
