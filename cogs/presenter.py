"""The Discord presenter: what each table's messages show after the service's events.

Per table there is one table message in the channel, and per seated person one DM per hand.
`publish` (called under the table's lock, so it must be quick) only notes what changed: the
table's recent happenings, which DMs need a new state (the seats that moved or are to move, every
seat on a new hand), and hands each changed message (a `Slot`) to cogs/delivery.py, which
decides when and how it reaches Discord. A DM whose body did not change is not edited (e.g. the
DMs of players still to discard while others discard).

When the interaction of the player acting is about to update the very message a slot shows
(a lobby button under the table message, a bid button in the player's DM), the slot is left to
that interaction response (see cogs.interact): the table message edit and the next player's DM
are then the only REST calls of an action.

DMs that Discord refuses with error 50007 (the person does not accept DMs): the service is told
(`set_dm_failed`, so it is never tried again this game), the table message says to use My hand,
and the person is told ephemerally when they next interact (at once if it is their own click).

Languages (docs/discord.md, "Who reads what"; cogs/voices.py): the table message, its notes and
the end-of-game chart are worded when rendered, in the server's language of that moment; each
DM (and notice, and nudge) in its person's own. A note is kept as a function of the language
(`Note`), so a language changed mid-game shows in the next update.

When the bot may not post in a table's channel (403 Missing Access/Permissions), the host is
told once in plain words (a DM, else an ephemeral notice at their next click) and one WARNING is
logged. An ended table is forgotten, with its owed notices, once its last messages are sent or
given up (cogs/delivery.py retries failed sends, a bounded number of times).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

import discord

from bot.card_words import suit_name
from bot.clock import Clock
from bot.errors import TableError
from bot.events import (
    BidMade,
    CardPlayed,
    DiscardsMade,
    EvenBids,
    Event,
    GameOver,
    GameStarted,
    HandDealt,
    SeatAutopiloted,
    SeatsChanged,
    TableCancelled,
    TableOpened,
    TimedOut,
    TrickWon,
    TrumpChosen,
    TrumpTurned,
    TurnChanged,
    TurnResumed,
)
from bot.i18n import Lang, lang_for, t
from bot.models import SeatView, TableView
from bot.presenter import TableReads
from bot.records import Records
from bot.scheduler import Scheduler
from cogs import chart, render
from cogs.delivery import (
    COMPUTER_DELAY,
    COMPUTER_HOLD_SLACK,
    TABLE_EDIT_INTERVAL,
    THREAD_ARCHIVED,
    Delivery,
    Slot,
)
from cogs.interact import Acting, current_acting
from cogs.nudges import NUDGE_AFTER, Nudger, Preference, always_dm
from cogs.voices import Voices

log = logging.getLogger(__name__)
GONE = ("channel deleted", "bot removed")
"""TableCancelled reasons whose table message can no longer be reached."""
Note = Callable[[Lang], str]
"""A line of the table's recent happenings, worded when the message is rendered (so in the
server's language of that moment)."""


@dataclass(eq=False)
class TableState:
    """What the presenter remembers of one table."""

    view: TableView
    table: Slot
    extras: render.TableExtras = field(default_factory=render.TableExtras)
    notes: list[Note] = field(default_factory=list)  # the last few happenings, newest last
    dms: dict[int, Slot] = field(default_factory=dict)  # user id -> DM of the latest hand
    departed: dict[int, str] = field(default_factory=dict)  # user id -> "leave" or "kick"
    closing: list[Slot] = field(default_factory=list)  # finished DMs whose last edit is due
    welcomes: dict[int, int] = field(default_factory=dict)  # user id -> lobby welcome DM

    def slots(self) -> list[Slot]:
        return [self.table, *self.dms.values(), *self.closing]



class DiscordPresenter:
    """Implements bot.presenter.Presenter for Discord (see the module docstring)."""

    def __init__(self, bot: discord.Client, tables: TableReads, clock: Clock, *,
                 edit_interval: float = TABLE_EDIT_INTERVAL,
                 computer_hold: float = COMPUTER_DELAY + COMPUTER_HOLD_SLACK,
                 nudge_after: float = NUDGE_AFTER, preference: Preference = always_dm,
                 executor: Executor | None = None, scheduler: Scheduler | None = None,
                 records: Records | None = None, voices: Voices | None = None) -> None:
        """`tables`: the hands it DMs and the messages it keeps (built before the service).
        `edit_interval`: least seconds between edits of a table message. `computer_hold`: most
        seconds a table update waits for the computers to act next (0: never wait).
        `nudge_after`, `preference`: when and how a person slow to act is notified
        (cogs.nudges). `executor`: where the end-of-game chart is drawn (worker processes keep
        its half second of CPU from holding the GIL the event loop needs; None: a thread).
        `scheduler`: the process's deadlines, where the nudges' moments are kept. `records`:
        where the posted nudges are kept across restarts. `voices`: who reads which language
        (cogs/voices.py; None: the servers' Discord locales, nobody's own)."""
        self.tables = tables
        self.voices = voices if voices is not None else Voices(bot)
        self._executor = executor
        self.delivery = Delivery(bot, tables, clock, body_of=self.body_of,
                                 dm_closed=self._dm_closed, sent=self._forget_if_done,
                                 dm_posted=self._dm_posted,
                                 no_access=self._no_access,
                                 edit_interval=edit_interval, computer_hold=computer_hold,
                                 voices=self.voices)
        self._tables: dict[int, TableState] = {}
        self._owed: set[tuple[int, int]] = set()  # (table, user) to tell about closed DMs
        self._notices: dict[tuple[int, int], str] = {}  # (table, user) -> another notice
        self._told_no_access: set[int] = set()  # tables whose host was told the bot can't post
        self._invited: dict[int, int | None] = {}  # channel -> the game whose rematch pinged
        self.nudges = Nudger(bot, clock, after=nudge_after, preference=preference,
                             dm_channel=self.delivery.dm_channel, scheduler=scheduler,
                             records=records, speaker=self.voices.person_lang)
        self._welcomes: dict[tuple[int, int], asyncio.Task[None]] = {}  # (table, user)
        self._charting: dict[int, asyncio.Task[None]] = {}  # tables whose chart is drawn now

    # ---- the Presenter protocol ---------------------------------------------------------------

    async def publish(self, table: TableView, events: list[Event]) -> None:
        """Note what changed and schedule the messages to update (never waits on Discord)."""
        if events and all(isinstance(e, TurnResumed) for e in events):
            self.nudges.observe(table, events)  # a restart: nothing to show, a nudge may be due
            return
        ts = self._tables.get(table.table_id)
        if ts is None:
            ts = TableState(table, Slot(table.table_id, message_id=table.message_id,
                                        channel_id=table.channel_id))
            self._tables[table.table_id] = ts
        ts.view = table
        if table.message_id is not None and ts.table.message_id is None:
            ts.table.message_id = table.message_id
        acting = current_acting(table.table_id)
        self._remember(ts, events)
        if any(isinstance(e, TableCancelled) and e.reason in GONE for e in events):
            ts.table.sent = ts.table.version  # its channel is gone: nothing to edit or post
        else:
            self.delivery.update(ts.table, table, None, acting)
        if table.state is not None or not table.status.active:
            self._update_dms(ts, events, acting)
        for e in events:
            if (isinstance(e, SeatsChanged) and e.reason in ("leave", "kick")
                    and e.user_id in ts.welcomes and table.state is None):
                # out of the lobby: the welcome DM says so (mid-game, the hand DM does)
                self.delivery.spawn(self._farewell(table, e.user_id, ts.welcomes.pop(e.user_id),
                                                   e.reason))
            if isinstance(e, SeatsChanged) and e.reason == "join" and e.user_id is not None:
                key = (table.table_id, e.user_id)
                task = self.delivery.spawn(self._welcome(ts, e.user_id, acting))
                self._welcomes[key] = task
                task.add_done_callback(functools.partial(self._welcomed, key))
        self.nudges.observe(table, events)

    async def _welcome(self, ts: TableState, user_id: int, acting: Acting | None) -> None:
        mid = await self.delivery.welcome(ts.view, user_id, acting)
        if mid is not None and ts.view.state is None:  # kept while in the lobby only
            ts.welcomes[user_id] = mid

    async def _farewell(self, view: TableView, user_id: int, message_id: int,
                        how: str) -> None:
        """The welcome DM of someone who left the lobby (or was removed) says so."""
        await self.voices.prepare(view.guild_id, (user_id,))
        body = render.hand_over_message(view, 0, 0, departed=how,
                                        lang=self.voices.person(user_id, view.guild_id))
        await self.delivery.edit_dm(user_id, message_id, body)

    def _welcomed(self, key: tuple[int, int], task: asyncio.Task[None]) -> None:
        if self._welcomes.get(key) is task:
            del self._welcomes[key]

    async def welcomed(self, table_id: int, user_id: int) -> bool:
        """Wait for the welcome DM of someone who just joined; True when it went through.

        The join's answer waits for it, so it says once and for all whether the cards will
        come by DM (a welcome refused with 50007 owes them the notice, which that answer takes).
        """
        task = self._welcomes.get((table_id, user_id))
        if task is not None:
            await asyncio.shield(task)
        ts = self._tables.get(table_id)
        return not (ts is not None and user_id in ts.extras.dm_closed)

    # ---- what changed ---------------------------------------------------------------------

    def _remember(self, ts: TableState, events: list[Event]) -> None:
        notes = ts.notes
        for e in events:
            note = _note(e, ts.view.seats)
            if note is not None:
                notes.append(note)
            if isinstance(e, SeatsChanged) and e.reason in ("leave", "kick"):
                if e.user_id is not None:
                    ts.departed[e.user_id] = e.reason  # their last DM says so
            elif isinstance(e, GameOver):
                ts.extras.game_over = e
                self._charting[ts.view.table_id] = self.delivery.spawn(self._draw_chart(ts))
            elif isinstance(e, TableOpened) and e.invited:
                ts.extras.invited = e.invited
                ts.extras.invite_pings = self._invited.get(ts.view.channel_id) != e.rematch_of
                self._invited[ts.view.channel_id] = e.rematch_of
            elif isinstance(e, HandDealt):
                notes.clear()
                ts.welcomes.clear()  # dealt: the hand DMs take over
        del notes[:-3]

    def _update_dms(self, ts: TableState, events: list[Event], acting: Acting | None) -> None:
        view = ts.view
        st = view.state
        touched: set[int] = set()
        everyone = not view.status.active
        for e in events:
            if isinstance(e, CardPlayed | BidMade | DiscardsMade | TrumpChosen | SeatAutopiloted):
                touched.add(e.seat)
            elif isinstance(e, TurnChanged):
                touched.update(e.seats)
            elif isinstance(e, HandDealt | GameStarted | GameOver | TableCancelled):
                everyone = True
        seated: dict[int, SeatView] = {s.user_id: s for s in view.seats if s.user_id is not None}
        for uid, gone in list(ts.dms.items()):  # people who left: their DM says they are out
            if uid not in seated:
                gone.final = True
                self.delivery.update(gone, view, None, acting)
                ts.closing.append(gone)
                del ts.dms[uid]
        if st is None:
            return
        for uid, seat in seated.items():
            if seat.dm_failed or uid in ts.extras.dm_closed:
                continue
            slot: Slot | None = ts.dms.get(uid)
            if slot is not None and (slot.hand_number != st.hand_number or not view.status.active):
                # The hand (or the game) is over: every DM shows its result, and at the end
                # the final standings, with no controls (one edit per person per hand).
                slot.final = True
                self.delivery.update(slot, view, None, acting)
                ts.closing.append(slot)
                del ts.dms[uid]
                slot = None
            if not view.status.active:
                continue
            wants = seat.seat in st.actor_seats
            if slot is None:
                if not (everyone or seat.seat in touched):
                    continue
                slot = Slot(view.table_id, uid, seat.seat, st.hand_number,
                            channel_id=seat.dm_channel_id or self.delivery.channel_of(uid))
                if seat.dm_hand_number == st.hand_number and seat.dm_message_id is not None:
                    slot.message_id = seat.dm_message_id  # it survived a restart
                ts.dms[uid] = slot
            elif not (everyone or seat.seat in touched or slot.controls != wants):
                continue
            try:
                pv = self.tables.seat_view(view.table_id, seat.seat)
            except TableError:
                continue
            self.delivery.update(slot, view, pv, acting)

    # ---- rendering ----------------------------------------------------------------------------

    def body_of(self, slot: Slot) -> render.Render:
        """The newest body of a slot's message."""
        view = slot.view
        assert view is not None
        if slot.is_table:
            lang = self.voices.server(view.guild_id)
            ts = self._tables.get(slot.table_id)
            extras = render.TableExtras() if ts is None else dataclasses.replace(
                ts.extras, notes=[note(lang) for note in ts.notes])
            return render.table_message(view, extras, lang)
        assert slot.seat is not None and slot.hand_number is not None
        lang = self.voices.person(slot.user_id or 0, view.guild_id)
        if slot.final or slot.pv is None:
            ts = self._tables.get(slot.table_id)
            return render.hand_over_message(
                view, slot.seat, slot.hand_number,
                over=ts.extras.game_over if ts is not None else None,
                departed=ts.departed.get(slot.user_id or 0) if ts is not None else None,
                lang=lang)
        return render.hand_message(view, slot.pv, dm=True, lang=lang)

    # ---- the acting player's interaction response (cogs.ohhell) -----------------------------

    def delivering(self, slot: Slot) -> contextlib.AbstractAsyncContextManager[render.Render]:
        """Hold the slot while an interaction response delivers it (see cogs.interact)."""
        return self.delivery.delivering(slot)

    def release(self, acting: Acting) -> None:
        """Slots an interaction meant to deliver but did not (it failed): send them over REST."""
        self.delivery.release(acting)

    def delivered(self, slot: Slot, message_id: int | None) -> None:
        """An interaction response created the slot's message (the table message at start)."""
        self.delivery.delivered(slot, message_id)

    async def repost(self, view: TableView,
                     send: Callable[[render.Render], Awaitable[int | None]]) -> None:
        """`/ohhell table`: `send` posts the table anew; the old message stops being live."""
        ts = self._tables.get(view.table_id)
        if ts is None:
            ts = TableState(view, Slot(view.table_id, message_id=view.message_id,
                                       channel_id=view.channel_id, view=view))
            self._tables[view.table_id] = ts
        await self.delivery.repost(ts.table, view, send)

    def _dm_closed(self, table_id: int, user_id: int, acting: Acting | None) -> None:
        """Stop DMing this person for this game, say so on the table, and tell them."""
        ts = self._tables.get(table_id)
        with contextlib.suppress(TableError):
            self.tables.set_dm_failed(table_id, user_id)
        if ts is not None:
            ts.extras.dm_closed.add(user_id)
            ts.dms.pop(user_id, None)
            self.delivery.update(ts.table, ts.view, None, None)
        self._owed.add((table_id, user_id))
        if acting is not None and acting.user_id == user_id:  # their own click: tell them now
            self.delivery.spawn(self._tell(acting, table_id))

    def _dm_posted(self, table_id: int, user_id: int) -> None:
        """A new hand DM notified this person: it counts as their turn's notification."""
        ts = self._tables.get(table_id)
        if ts is not None and ts.view.status.active:
            self.nudges.notified(table_id, user_id)

    def _no_access(self, view: TableView, err: discord.HTTPException) -> None:
        """The bot may not post or edit the table message (no access or permissions, or the
        thread is archived): tell the host once."""
        if view.table_id in self._told_no_access:
            return
        self._told_no_access.add(view.table_id)
        log.warning("cannot post the table message of table %s in channel %s: %s",
                    view.table_id, view.channel_id, err)
        self.delivery.spawn(self._tell_host(view, archived=err.code == THREAD_ARCHIVED))

    async def _tell_host(self, view: TableView, *, archived: bool) -> None:
        await self.voices.prepare(view.guild_id, (view.host_id,))
        lang = self.voices.person(view.host_id, view.guild_id)
        text = (render.archived_notice(view, lang) if archived
                else render.no_access_notice(view, lang))
        if not await self.delivery.notice(view.host_id, text):
            self._notices[(view.table_id, view.host_id)] = text

    async def _tell(self, acting: Acting, table_id: int) -> None:
        """After the actor's answer: the notice, unless that answer carried it already."""
        await acting.responded.wait()
        key = (table_id, acting.user_id)
        if key not in self._owed:
            return
        self._owed.discard(key)
        try:
            await acting.interaction.followup.send(
                render.dm_closed_notice(lang_for(acting.interaction.locale)), ephemeral=True)
        except discord.HTTPException:
            self._owed.add(key)

    def take_notice(self, table_id: int, user_id: int, lang: Lang) -> str | None:
        """A notice owed to this person (their DMs are closed, the bot cannot post), once;
        `lang`: theirs (they are interacting)."""
        if (table_id, user_id) in self._owed:
            self._owed.discard((table_id, user_id))
            return render.dm_closed_notice(lang)
        return self._notices.pop((table_id, user_id), None)

    async def _draw_chart(self, ts: TableState) -> None:
        """Draw the game's chart off the event loop, then put it on the final table message
        (one more edit of that message, once a game)."""
        table_id = ts.view.table_id
        try:
            state = ts.view.state
            if state is None or not state.scoresheet:
                return
            names = [seat.name for seat in ts.view.seats]
            totals = [list(record.totals) for record in state.scoresheet]
            await self.voices.prepare(ts.view.guild_id)
            lang = self.voices.server(ts.view.guild_id)  # the channel's: the final message's
            title = t(lang, "{game}: running totals", game=render.game_title(ts.view, lang))
            draw = functools.partial(chart.running_totals_png, names, totals, title, lang)
            ts.extras.chart = await asyncio.get_running_loop().run_in_executor(
                self._executor, draw)
        except Exception:
            log.exception("could not draw the chart of table %s", table_id)
            return
        finally:
            self._charting.pop(table_id, None)
        self.delivery.update(ts.table, ts.view, None, None)

    def _forget_if_done(self, table_id: int) -> None:
        ts = self._tables.get(table_id)
        if ts is None:
            return
        ts.closing = [s for s in ts.closing if not _delivered(s)]
        if table_id in self._charting:  # the chart still goes on the final message
            return
        if not ts.view.status.active and all(_delivered(s) for s in ts.slots()):
            self._tables.pop(table_id, None)
            self._told_no_access.discard(table_id)
            self._owed = {key for key in self._owed if key[0] != table_id}
            for key in [k for k in self._notices if k[0] == table_id]:
                del self._notices[key]

    async def wait_delivered(self, table_id: int) -> None:
        """Wait until this table's due message updates are sent (benchmarks). A held table
        update (edit interval, computers about to move) is not waited for."""
        ts = self._tables.get(table_id)
        if ts is not None:
            await self.delivery.wait(ts.slots())

    async def close(self) -> None:
        """Shutting down: finish the charts being drawn, then send every update now, held
        ones too (see Delivery.close)."""
        if self._charting:
            await asyncio.gather(*self._charting.values(), return_exceptions=True)
        await self.delivery.close([slot for ts in list(self._tables.values())
                                   for slot in ts.slots()])
        await self.nudges.close()
        await self.voices.close()


def _note(e: Event, seats: Sequence[SeatView]) -> Note | None:
    """The table message's line for an event, if it has one (worded later, in the language
    of the moment it is shown)."""

    def name(seat: int, lang: Lang) -> str:
        if 0 <= seat < len(seats):
            return render.seat_label(seats[seat])
        return t(lang, "seat {number}", number=seat + 1)

    if isinstance(e, TrickWon):
        return lambda lang: t(lang, "{name} won trick {number}.", name=name(e.winner, lang),
                              number=e.trick_number)
    if isinstance(e, TimedOut):
        return lambda lang: t(lang, "{name} ran out of time; a computer moved for them.",
                              name=name(e.seat, lang))
    if isinstance(e, SeatAutopiloted):
        if e.on:
            return lambda lang: t(lang, "A computer plays for {name} until they act again.",
                                  name=name(e.seat, lang))
        return lambda lang: t(lang, "{name} is back.", name=name(e.seat, lang))
    if isinstance(e, SeatsChanged) and e.reason == "replaced":
        return lambda lang: t(lang, "{name} took the seat.", name=e.name)
    if isinstance(e, SeatsChanged) and e.reason in ("leave", "kick"):
        return lambda lang: t(lang, "{name} left.", name=e.name)
    if isinstance(e, TrumpChosen):
        return lambda lang: t(lang, "{name} named trump: {suit}.", name=name(e.seat, lang),
                              suit=t(lang, "no trump") if e.suit is None
                              else suit_name(e.suit, lang))
    if isinstance(e, TrumpTurned):
        if e.super_trump:
            return lambda lang: t(
                lang, "Turned after the bids: {trump}; the Super Trump is {card}.",
                trump=render.trump_text(e.card, e.suit, lang=lang), card=e.super_trump)
        return lambda lang: t(lang, "Turned after the bids: {trump}.",
                              trump=render.trump_text(e.card, e.suit, lang=lang))
    if isinstance(e, EvenBids):
        if e.lost:
            return lambda lang: t(lang, "The bids add up: everyone lost a card, taken blind.")
        return lambda lang: t(lang, "The bids add up: everyone got one more card.")
    if isinstance(e, TableCancelled):
        if e.reason == "everyone left":
            return lambda lang: t(lang, "Everyone left.")
        if e.by:
            return lambda lang: t(lang, "Ended by {who}.", who=f"<@{e.by}>")
        return lambda lang: t(lang, "The table was closed.")
    return None


def _delivered(slot: Slot) -> bool:
    """The slot's newest state is on Discord (or being sent by this very task)."""
    return slot.sent >= slot.version and (slot.task is None or slot.task.done()
                                          or slot.task is asyncio.current_task())


__all__ = ["COMPUTER_HOLD_SLACK", "DiscordPresenter", "TableState"]
