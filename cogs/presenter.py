"""The Discord presenter: what each table's messages show after the service's events.

Per table there is one table message in the channel, and per seated person one DM per hand.
`publish` (run in the table's inbox, so it must be quick) turns events into plans: which
message (the table message, a person's DM of a hand, or one to post) shows which body (rendered
lazily, when it is sent). It notes the table's recent happenings and which DMs need a new state
(the seats that moved or are to move, every seat on a new hand), and hands each changed plan (a
`Slot`) to cogs/delivery.py, which only sends it, and reports back what it found (`Report`s,
read by `_read_reports`). A DM whose body did not change is not edited (e.g. the DMs of players
still to discard while others discard). `publish` knows nothing of interactions.

The answer to a click carries the update of the message clicked on (docs/architecture.md
section 6: the table message edit and the next player's DM are then the only REST calls of an
action). The cog makes that explicit: before calling the service it `claim`s the message the
click sits on (or, for `/ohhell start`, the table message to be posted); delivery holds that
message while the claim is open; after the call the cog asks `plan_for(claim)`, answers the
interaction with it and `release`s the claim, which sends over REST whatever the answer did not
carry (all of it when the action or the answer failed). A plan is only ever handed to the claim
that holds it, so a computer move or a timer at the same table never answers someone's
interaction; an update after the answer goes over REST as usual.

DMs that Discord refuses with error 50007 (the person does not accept DMs): the service is told
(`set_dm_failed`, so it is never tried again this game), the table message says to use My hand,
and the person is told ephemerally when they next interact (at once if it is their own action:
`settle` waits for the DMs their action sent).

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
from bot.i18n import Lang, t
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
    DmClosed,
    DmPosted,
    NoAccess,
    Report,
    Settled,
    Slot,
)
from cogs.nudges import NUDGE_AFTER, Nudger, Preference, always_dm
from cogs.voices import Voices
from engine import PlayerView

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


@dataclass(eq=False)
class Claim:
    """One person's action in progress, and the message its interaction response is to carry
    (see the module docstring). Made by `DiscordPresenter.claim`, ended by `release`."""

    table_id: int | None
    """None until the first publish in `channel_id` (`/ohhell start`, a rematch)."""
    user_id: int
    channel_id: int | None
    message_id: int | None
    """The message clicked on (None: a slash command)."""
    posts: bool
    """The response is to post the table message itself (`/ohhell start`)."""
    since: int
    """Updates newer than this version are the action's (or came while it ran)."""
    slot: Slot | None = None
    """The message held for the response, once known."""
    own_dms: list[Slot] = field(default_factory=list)
    """The person's own DMs updated over REST during the action (`settle` waits for them)."""
    open: bool = True

    def covers(self, slot: Slot) -> bool:
        """Is `slot` the message this claim's response is to carry?"""
        if self.slot is not None:
            return False
        if slot.message_id is not None:
            return slot.message_id == self.message_id
        return self.posts and slot.is_table and slot.channel_id == self.channel_id



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
        self.delivery = Delivery(bot, tables, clock, edit_interval=edit_interval,
                                 computer_hold=computer_hold, voices=self.voices)
        self._reader: asyncio.Task[None] | None = None  # reads delivery's reports
        self._claims: dict[int, list[Claim]] = {}  # table -> open claims
        self._unbound: list[Claim] = []  # open claims whose table is not known yet
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
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read_reports())
        ts = self._state(table)
        ts.view = table
        if table.message_id is not None and ts.table.message_id is None:
            ts.table.message_id = table.message_id
        if self._unbound:
            self._bind(table)
        self._remember(ts, events)
        if any(isinstance(e, TableCancelled) and e.reason in GONE for e in events):
            ts.table.sent = ts.table.version  # its channel is gone: nothing to edit or post
        else:
            self._update(ts.table, table, None)
        if table.state is not None or not table.status.active:
            self._update_dms(ts, events)
        for e in events:
            if (isinstance(e, SeatsChanged) and e.reason in ("leave", "kick")
                    and e.user_id in ts.welcomes and table.state is None):
                # out of the lobby: the welcome DM says so (mid-game, the hand DM does)
                self.delivery.spawn(self._farewell(table, e.user_id, ts.welcomes.pop(e.user_id),
                                                   e.reason))
            if isinstance(e, SeatsChanged) and e.reason == "join" and e.user_id is not None:
                key = (table.table_id, e.user_id)
                task = self.delivery.spawn(self._welcome(ts, e.user_id))
                self._welcomes[key] = task
                task.add_done_callback(functools.partial(self._welcomed, key))
        self.nudges.observe(table, events)

    def _state(self, view: TableView) -> TableState:
        ts = self._tables.get(view.table_id)
        if ts is None:
            table = Slot(view.table_id, message_id=view.message_id, channel_id=view.channel_id)
            table.body = self._body
            ts = self._tables[view.table_id] = TableState(view, table)
        return ts

    def _update(self, slot: Slot, view: TableView, pv: PlayerView | None) -> None:
        """A plan changed: hand it to delivery, held if an open claim's response carries it."""
        for claim in self._claims.get(slot.table_id, ()):
            if claim.covers(slot):
                claim.slot = slot
                self.delivery.hold(slot)
            elif (not slot.is_table and slot.user_id == claim.user_id
                    and slot is not claim.slot and slot not in claim.own_dms):
                claim.own_dms.append(slot)
        self.delivery.update(slot, view, pv)

    async def _welcome(self, ts: TableState, user_id: int) -> None:
        mid = await self.delivery.welcome(ts.view, user_id)
        if isinstance(mid, DmClosed):
            self._dm_closed(mid.table_id, mid.user_id)
        elif mid is not None and ts.view.state is None:  # kept while in the lobby only
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

    def _update_dms(self, ts: TableState, events: list[Event]) -> None:
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
                self._update(gone, view, None)
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
                self._update(slot, view, None)
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
                slot.body = self._body
                if seat.dm_hand_number == st.hand_number and seat.dm_message_id is not None:
                    slot.message_id = seat.dm_message_id  # it survived a restart
                ts.dms[uid] = slot
            elif not (everyone or seat.seat in touched or slot.controls != wants):
                continue
            try:
                pv = self.tables.seat_view(view.table_id, seat.seat)
            except TableError:
                continue
            self._update(slot, view, pv)

    # ---- rendering ----------------------------------------------------------------------------

    def _body(self, slot: Slot) -> render.Render:
        """The newest body of a slot's message: a plan's body, rendered only when it is sent
        (so a burst of moves renders once, and publish stays cheap)."""
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

    # ---- claims: the acting person's interaction response (cogs.ohhell) ----------------------

    def claim(self, table_id: int | None, user_id: int, *, channel_id: int | None,
              message_id: int | None = None, posts: bool = False) -> Claim:
        """Open a claim before an action: `message_id` (the message clicked on), or with `posts`
        the table message to be posted in `channel_id`, is held for the interaction response
        from now until `release`. `table_id` None: the table is known at its first publish in
        `channel_id`."""
        claim = Claim(table_id, user_id, channel_id, message_id, posts,
                      since=self.delivery.version_now())
        if table_id is None:
            self._unbound.append(claim)
            return claim
        self._claims.setdefault(table_id, []).append(claim)
        ts = self._tables.get(table_id)
        if ts is not None and message_id is not None:
            for slot in ts.slots():
                if claim.covers(slot):  # an update held already (the edit interval) waits too
                    claim.slot = slot
                    self.delivery.hold(slot)
                    break
        return claim

    def _bind(self, view: TableView) -> None:
        """Claims made before their table was known belong to the table published in their
        channel."""
        if not view.status.active:
            return  # a table that ended in this channel before: not the one to come
        for claim in [c for c in self._unbound if c.channel_id == view.channel_id]:
            self._unbound.remove(claim)
            claim.table_id = view.table_id
            self._claims.setdefault(view.table_id, []).append(claim)

    def plan_for(self, claim: Claim) -> Slot | None:
        """The plan for the claimed message, if it changed since the claim opened: what the
        claim's interaction response is to show (`answering`)."""
        slot = claim.slot
        if slot is None or not claim.open or slot.version <= claim.since:
            return None
        return slot

    def answering(self, plan: Slot) -> contextlib.AbstractAsyncContextManager[render.Render]:
        """The body of `plan` for the interaction response; once the block ends without an
        error, the message shows it."""
        return self.delivery.answering(plan)

    def release(self, claim: Claim, *, posted: int | None = None) -> None:
        """End the claim (once; again does nothing): what its response did not carry (all of
        it when the action or the response failed) goes over REST. `posted`: the id of the
        message the response created (the table message of `/ohhell start`)."""
        if not claim.open:
            return
        claim.open = False
        if claim.table_id is None:
            self._unbound.remove(claim)
        else:
            claims = self._claims[claim.table_id]
            claims.remove(claim)
            if not claims:
                del self._claims[claim.table_id]
        slot = claim.slot
        if slot is not None:
            self.delivery.posted(slot, posted)
            self.delivery.let_go(slot)

    async def settle(self, claim: Claim, lang: Lang) -> str | None:
        """After the response: wait for the DMs the action sent the person over REST; the
        notice owed if Discord refused one (their own action tells them at once)."""
        if not claim.own_dms or claim.table_id is None:
            return None
        await self.delivery.wait(claim.own_dms)
        if self._reader is not None:
            await self.delivery.reports.join()  # what those sends found out is read
        key = (claim.table_id, claim.user_id)
        if key not in self._owed:
            return None
        self._owed.discard(key)
        return render.dm_closed_notice(lang)

    # ---- what delivery found out ----------------------------------------------------------

    async def _read_reports(self) -> None:
        """Act on delivery's reports, in order, for as long as the presenter lives."""
        reports = self.delivery.reports
        while True:
            report = await reports.get()
            try:
                self._on_report(report)
            except Exception:
                log.exception("could not act on %s", report)
            finally:
                reports.task_done()

    def _on_report(self, report: Report) -> None:
        if isinstance(report, DmPosted):
            self._dm_posted(report.table_id, report.user_id)
        elif isinstance(report, DmClosed):
            self._dm_closed(report.table_id, report.user_id)
        elif isinstance(report, NoAccess):
            self._no_access(report.view, report.error)
        elif isinstance(report, Settled):
            self._forget_if_done(report.table_id)

    async def repost(self, view: TableView,
                     send: Callable[[render.Render], Awaitable[int | None]]) -> None:
        """`/ohhell table`: `send` posts the table anew; the old message stops being live."""
        ts = self._state(view)
        await self.delivery.repost(ts.table, view, send)

    def _dm_closed(self, table_id: int, user_id: int) -> None:
        """Stop DMing this person for this game, say so on the table, and tell them."""
        ts = self._tables.get(table_id)
        with contextlib.suppress(TableError):
            self.tables.set_dm_failed(table_id, user_id)
        if ts is not None:
            ts.extras.dm_closed.add(user_id)
            ts.dms.pop(user_id, None)
            self._update(ts.table, ts.view, None)
        self._owed.add((table_id, user_id))

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
        self._update(ts.table, ts.view, None)

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
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        reports = self.delivery.reports
        while not reports.empty():  # what the last sends found out is kept (set_dm_failed)
            self._on_report(reports.get_nowait())
            reports.task_done()
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
