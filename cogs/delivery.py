"""Delivering the presenter's messages to Discord: when, and by which REST call.

A `Slot` is the presenter's plan for one message (the table message, or one DM hand): which
message, and its body, rendered lazily when it is sent. The presenter (cogs/presenter.py)
decides what each plan shows; Delivery only sends it: a task per slot sends or edits it, always
with the newest state, so a burst of moves costs one edit, edits of one message never overtake
each other, and a table's inbox is never held across Discord's latency. What happened comes
back as `Report`s on `Delivery.reports`, which the presenter reads (news goes up as values,
docs/architecture.md), or as the values its calls return.

Fewer edits of the table message (Discord limits edits to about 5 per 5 s per channel, and
docs/architecture.md section 6 budgets about one REST call per player action):
- at most one edit per `edit_interval` seconds (TABLE_EDIT_INTERVAL): the first change goes out
  at once, changes within the interval wait and go as one trailing edit of the newest state, so
  nothing (a hand's result, the final standings) is lost, only merged;
- when the seats to act next are computers, the update waits for their moves (at most
  `computer_hold`, about COMPUTER_DELAY, from the first change not yet shown), so one edit shows
  a person's move and the computers' answer together.
A message whose new body is exactly what it already shows is not edited. `close` sends whatever
is held before the bot disconnects. A slot held by an interaction's claim (`hold`, see
cogs/presenter.py) is not sent while held: the interaction response carries it (`answering`),
and what that response did not carry goes over REST once the last claim lets go (`let_go`).
Before a body is rendered the languages it needs are made known (`Voices.prepare`: a store read
once a process, no REST call).

Faults (docs/discord.md): discord.py retries 500/502/504 and waits out 429s by itself, and
raises everything else at once. A send that still fails with a server error, a 429, or a
dropped connection is tried again on the service's clock with backoff (RETRY_FIRST doubling up
to RETRY_CAP), always with the newest state, so what it carried is merged into the next try,
never lost; after MAX_TRIES (MAX_TRIES_FINAL for a table that has ended, whose message carries
the final standings) it gives up with a WARNING until the next change. 404 Unknown Message on
the table message posts it again (a finished game's standings too); 403 Missing Access or
Permissions and 50083 (the thread is archived) are not retried: a `NoAccess` report (the
presenter tells the host once), and the next change tries again. Per
table there is one slot per message (newest state only, at most one retry timer each).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import marshal
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING

from bot.clock import Clock
from bot.models import TableStatus, TableView
from bot.presenter import TableReads
from cogs import render
from cogs.render.body import ViewKey
from cogs.voices import Voices
from engine import PlayerView

log = logging.getLogger(__name__)

DM_CLOSED = 50007
"""Discord's error code for a person who does not accept DMs."""
_versions = itertools.count(1)

TABLE_EDIT_INTERVAL = 1.0
"""Default seconds between two edits of one table message (Settings.table_edit_interval)."""
COMPUTER_DELAY = 1.0
"""The service's default pacing of computer moves (Settings.computer_delay)."""
COMPUTER_HOLD_SLACK = 0.25
"""Seconds beyond COMPUTER_DELAY that a table update waits for the computers' moves (their
thinking time; a slower run is shown in a second edit)."""
CLOSE_TIMEOUT = 10.0
"""Seconds `close` waits for the last updates to reach Discord before giving up."""
_SOON = 0.001
"""A wait shorter than this is no wait (clock rounding)."""
RETRY_FIRST = 2.0
"""Seconds before the first retry of a failed send; doubled for each failure after."""
RETRY_CAP = 120.0
"""Most seconds between two tries of one message."""
MAX_TRIES = 8
"""Failed sends of one message in a row before delivery gives up until its next change
(about 8 minutes with the backoff above)."""
MAX_TRIES_FINAL = 20
"""The same for the message of a table that has ended (the final standings): about 35 min."""
NO_ACCESS = {50001, 50013}
MISSING_ACCESS = 50001
GONE = {10003, 10004}
"""Unknown Channel, Unknown Guild: the table's channel (or its server) no longer exists."""
"""Missing Access, Missing Permissions: the bot cannot see or post in the channel."""
CHANNEL_GONE = "table_channel_gone"
"""The bot event (listened to as `on_table_channel_gone(channel_id)`) for a table's channel that
Discord says no longer exists."""
THREAD_ARCHIVED = 50083
"""Posting in an archived thread fails until it is unarchived: told like NO_ACCESS."""


@dataclass(eq=False)
class Slot:
    """The presenter's plan for one message (the table message, or one DM hand): which
    message, the body it is to show (`body`, rendered when sent, so always the newest state),
    and how far Discord has it."""

    table_id: int
    user_id: int | None = None  # None: the table message
    seat: int | None = None
    hand_number: int | None = None
    message_id: int | None = None
    channel_id: int | None = None
    view: TableView | None = None
    pv: PlayerView | None = None
    final: bool = False  # a finished hand: no cards, no controls
    version: int = 0
    sent: int = 0
    controls: bool = False  # what was last sent carries move controls
    body: Callable[[Slot], render.Render] | None = None  # renders the plan's body when sent
    # (given the slot when called: a slot that kept itself in a partial would be a cycle, left
    # for the collector at every hand's end)
    held: int = 0  # open claims holding the message for their interaction responses
    refused: bool = False  # a DM Discord refused (50007): never tried again
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    shown: int | None = None  # fingerprint of the body the message shows (None: not known)
    shown_view: ViewKey | None = None  # key of the controls it shows (Render.view_key)
    inflight: int = 0  # the version being sent now
    dirty_since: float | None = None  # clock time of the first change not sent or in flight
    last_edit: float | None = None  # clock time of the last REST edit (the table message)
    timer: asyncio.Task[None] | None = None  # a held update waiting for its moment
    due: float | None = None  # when the timer fires
    results_shown: int = 0  # finished hands the table message showed when last sent
    failures: int = 0  # failed sends in a row
    retry_at: float | None = None  # clock time before which a failed message is not retried

    @property
    def is_table(self) -> bool:
        return self.user_id is None




@dataclass(frozen=True, slots=True)
class DmClosed:
    """Discord refused this person's hand DM (error 50007)."""

    table_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class DmPosted:
    """A hand DM went out as a NEW message (one that notifies, docs/discord.md)."""

    table_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class NoAccess:
    """The bot may not post or edit this table's message (403, or an archived thread)."""

    view: TableView
    error: discord.HTTPException


@dataclass(frozen=True, slots=True)
class Settled:
    """A finished hand's DM, or a message of an ended table, is sent (or given up): the
    presenter may forget it (and an ended table once all its messages are)."""

    table_id: int


Report = DmClosed | DmPosted | NoAccess | Settled
"""What a send found out that the presenter acts on."""


class Delivery:
    """Sends and edits the slots' messages (see the module docstring)."""

    def __init__(self, bot: discord.Client, tables: TableReads, clock: Clock, *,
                 edit_interval: float = TABLE_EDIT_INTERVAL,
                 computer_hold: float = COMPUTER_DELAY + COMPUTER_HOLD_SLACK,
                 voices: Voices | None = None) -> None:
        """`tables`: where the ids of the messages it posts are kept. A table's channel found
        gone (deleted while the bot was away) is told as the bot event `table_channel_gone`
        (CHANNEL_GONE, cogs/gateway.py ends its table). `edit_interval`, `computer_hold`: see
        the module docstring (0: no wait). `voices`: who reads which language; what a slot's
        body needs is loaded before it is rendered."""
        self.bot = bot
        self.tables = tables
        self.clock = clock
        self.reports: asyncio.Queue[Report] = asyncio.Queue()
        """What sends found out, in order (read by the presenter)."""
        self.edit_interval = edit_interval
        self.computer_hold = computer_hold
        self.voices = voices if voices is not None else Voices(bot)
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: set[asyncio.Task[Any]] = set()  # held updates waiting (in _tasks too)
        self._closing = False  # shutting down: send everything now

    def update(self, slot: Slot, view: TableView, pv: PlayerView | None) -> None:
        """Record the newest state of a slot and schedule it (unless a claim holds it)."""
        if slot.version <= max(slot.sent, slot.inflight):
            slot.dirty_since = self._now()  # the first change the message does not show
        slot.view, slot.version = view, next(_versions)
        if pv is not None:
            slot.pv = pv
        self._schedule(slot)

    @staticmethod
    def version_now() -> int:
        """A version older than every update to come (what a claim covers starts after it)."""
        return next(_versions)

    def hold(self, slot: Slot) -> None:
        """Send nothing of this message over REST: an interaction response is to carry it."""
        slot.held += 1

    def let_go(self, slot: Slot) -> None:
        """A claim on this message ended: what no response carried goes over REST."""
        slot.held -= 1
        if not slot.held and slot.sent < slot.version:
            self._schedule(slot)

    def _schedule(self, slot: Slot) -> None:
        """Send the slot now, or arm its timer for when it may be sent (see _wait_for)."""
        if slot.held and not self._closing:
            return  # let_go schedules it
        if slot.task is not None and not slot.task.done():
            return  # the running flush looks again when its send is done
        wait = self._wait_for(slot)
        if wait < _SOON:
            self._disarm(slot)
            slot.task = self.spawn(self._flush(slot))
        else:
            self._arm(slot, wait)

    def _now(self) -> float:
        return self.clock.now().timestamp()

    def _wait_for(self, slot: Slot) -> float:
        """Seconds before the slot's newest state may go out (0 for DMs: a turn never waits).

        A table message waits for the edit interval to pass since its last edit, and, while
        computers are to act next, for their moves (up to `computer_hold` after the first change
        not shown yet), unless a hand finished since it was last sent: a hand's result is not
        held for the next hand's computers (who may finish that hand too before it is shown)."""
        if self._closing or (slot.retry_at is None and not slot.is_table):
            return 0.0
        now = self._now()
        if slot.retry_at is not None and slot.retry_at > now:
            return slot.retry_at - now  # backing off after a failure
        if not slot.is_table:
            return 0.0
        due = now
        if slot.last_edit is not None:
            due = max(due, slot.last_edit + self.edit_interval)
        if (self.computer_hold > 0 and _computers_next(slot.view)
                and _results(slot.view) <= slot.results_shown):
            due = max(due, (slot.dirty_since or now) + self.computer_hold)
        return due - now

    def _arm(self, slot: Slot, wait: float) -> None:
        due = self._now() + wait
        if slot.timer is not None and not slot.timer.done() and slot.due is not None \
                and abs(slot.due - due) < _SOON:
            return
        self._disarm(slot)
        slot.due = due
        slot.timer = timer = self.spawn(self._later(slot, wait))
        self._timers.add(timer)
        timer.add_done_callback(self._timers.discard)

    def _disarm(self, slot: Slot) -> None:
        if slot.timer is not None and slot.timer is not asyncio.current_task():
            slot.timer.cancel()
        slot.timer = slot.due = None

    async def _later(self, slot: Slot, wait: float) -> None:
        """A held update's moment came: send the newest state."""
        await self.clock.sleep(wait)
        if slot.timer is asyncio.current_task():
            slot.timer = slot.due = None
        if slot.sent < slot.version and (slot.task is None or slot.task.done()):
            slot.task = self.spawn(self._flush(slot, held=True))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---- delivery -----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def answering(self, slot: Slot) -> AsyncIterator[render.Render]:
        """The newest body of a held slot, for an interaction response to carry: the message
        shows this version once the block ends without an error (no REST edit of it in
        flight meanwhile)."""
        async with slot.lock:
            await self._prepare(slot)
            version = slot.version
            body = self._body(slot)
            yield body
            slot.sent = max(slot.sent, version)
            slot.controls = body.controls
            slot.shown = None  # sent by discord.py: the fingerprint is not known
            slot.shown_view = body.view_key  # ... but its controls are the body's
            if slot.is_table:
                slot.results_shown = _results(slot.view)

    async def repost(self, slot: Slot, view: TableView,
                     send: Callable[[render.Render], Awaitable[int | None]]) -> None:
        """`/ohhell table`: `send` posts the table anew; the old message stops being live."""
        async with slot.lock:
            slot.view = slot.view or view
            await self._prepare(slot)
            version = slot.version
            body = self._body(slot)
            old = slot.message_id
            new = await send(body)
            if new is None:
                return
            slot.message_id, slot.sent = new, max(slot.sent, version)
            slot.shown, slot.shown_view = None, body.view_key
            self.tables.set_table_message(view.table_id, new)
        if old is not None and old != new:
            self.spawn(self._retire(view, old, new))

    async def _retire(self, view: TableView, old: int, new: int) -> None:
        url = f"https://discord.com/channels/{view.guild_id}/{view.channel_id}/{new}"
        with contextlib.suppress(discord.HTTPException):
            await self._edit(view.channel_id, old, render.moved_message(
                view, url, self.voices.server(view.guild_id)))

    def posted(self, slot: Slot, message_id: int | None) -> None:
        """An interaction response created the slot's message (the table message at start)."""
        if message_id is not None and slot.message_id is None:
            slot.message_id = message_id
            if slot.is_table:
                self.tables.set_table_message(slot.table_id, message_id)

    async def _flush(self, slot: Slot, *, held: bool = False) -> None:
        """Send the newest state until the message shows it (a table message may have to wait
        again: then the timer is armed and this task ends). `held`: the timer's moment came."""
        try:
            async with slot.lock:
                while slot.sent < slot.version:
                    if slot.held and not self._closing:
                        return  # a claim's interaction response carries it (let_go: REST)
                    if slot.refused:
                        slot.sent = slot.version
                        return
                    if not held:
                        wait = self._wait_for(slot)
                        if wait >= _SOON:
                            self._arm(slot, wait)
                            return
                    held = False
                    await self._prepare(slot)
                    version = slot.version
                    slot.inflight, slot.dirty_since = version, None
                    body = self._body(slot)
                    results = _results(slot.view)
                    try:
                        if slot.is_table:
                            await self._send_table(slot, body)
                            slot.results_shown = results
                        elif not await self._send_dm(slot, body):
                            return
                    except discord.Forbidden as err:
                        if err.code not in NO_ACCESS:
                            raise
                        if err.code == MISSING_ACCESS and await self._channel_missing(slot):
                            self._channel_gone(slot, err)
                        else:
                            self._cannot_post(slot, err)
                        slot.sent = version  # not retried: the next change tries again
                        continue
                    except discord.NotFound as err:  # the channel itself is gone
                        if err.code in GONE:
                            self._channel_gone(slot, err)
                        else:
                            log.warning("the %s message of table %s has nowhere to go: %s",
                                        _what(slot), slot.table_id, _reason(err))
                        slot.sent = version
                        continue
                    except discord.HTTPException as err:
                        if err.code == THREAD_ARCHIVED:  # until someone unarchives it
                            self._cannot_post(slot, err)
                            slot.sent = version
                            continue
                        if not passes(err):
                            raise
                        self._retry_later(slot, err)
                        return
                    except RETRYABLE as err:
                        self._retry_later(slot, err)
                        return
                    finally:
                        slot.inflight = 0
                    slot.sent, slot.controls = version, body.controls
                    slot.failures, slot.retry_at = 0, None
        except Exception:
            log.exception("could not update the %s message of table %s", _what(slot),
                          slot.table_id)
            slot.sent = slot.version  # a bug, not a fault: never keep a table for it
        finally:
            if slot.task is asyncio.current_task():
                slot.task = None  # a finished task would keep its context alive
            if slot.final or (slot.view is not None and not slot.view.status.active):
                self.reports.put_nowait(Settled(slot.table_id))

    @staticmethod
    def _body(slot: Slot) -> render.Render:
        assert slot.body is not None, "a plan names its body"
        return slot.body(slot)

    async def _prepare(self, slot: Slot) -> None:
        """Know the languages the slot's body is in (a read once a process, then memory)."""
        if slot.view is not None:
            await self.voices.prepare(slot.view.guild_id, (slot.user_id,))

    def _retry_later(self, slot: Slot, err: BaseException) -> None:
        """A send failed for a reason that passes (a server error, a 429 that outlasted
        discord.py's waits, a dropped connection): try again later with the newest state, with
        backoff, a bounded number of times."""
        slot.failures += 1
        ended = slot.view is not None and not slot.view.status.active
        if slot.failures >= (MAX_TRIES_FINAL if ended else MAX_TRIES):
            log.warning("gave up updating the %s message of table %s after %d tries: %s",
                        _what(slot), slot.table_id, slot.failures, _reason(err))
            slot.sent, slot.failures, slot.retry_at = slot.version, 0, None
            return
        delay = min(RETRY_CAP, RETRY_FIRST * 2 ** (slot.failures - 1))
        retry_after = getattr(err, "retry_after", None)  # discord.RateLimited says how long
        if isinstance(retry_after, int | float):
            delay = max(delay, float(retry_after))
        log.warning("could not update the %s message of table %s (%s); trying again in %.0f s",
                    _what(slot), slot.table_id, _reason(err), delay)
        slot.retry_at = self._now() + delay
        self._arm(slot, delay)

    async def _channel_missing(self, slot: Slot) -> bool:
        """After 50001 Missing Access: is the table's channel gone (GET answers 10003 or 10004)
        rather than closed to the bot (it exists: a permission problem, told to the host)?"""
        if not slot.is_table or slot.view is None:
            return False
        try:
            await self.bot.http.get_channel(slot.view.channel_id)
        except discord.NotFound as err:
            return err.code in GONE
        except discord.HTTPException:
            return False
        except RETRYABLE:
            return False
        return False

    def _channel_gone(self, slot: Slot, err: discord.HTTPException) -> None:
        """Report a table's channel found gone as an event (news goes up as events,
        docs/architecture.md): the cog that hears it ends the table as CHANNEL_DELETE does."""
        if slot.is_table and slot.view is not None:
            log.warning("the channel %s of table %s is gone (%s): ending the table",
                        slot.view.channel_id, slot.table_id, _reason(err))
            if slot.view.status.active:
                self.bot.dispatch(CHANNEL_GONE, slot.view.channel_id)
        else:
            log.warning("the %s message of table %s has nowhere to go: %s",
                        _what(slot), slot.table_id, _reason(err))

    def _cannot_post(self, slot: Slot, err: discord.HTTPException) -> None:
        if slot.is_table and slot.view is not None:
            self.reports.put_nowait(NoAccess(slot.view, err))
        else:
            log.warning("cannot update the %s message of table %s: %s", _what(slot),
                        slot.table_id, _reason(err))

    async def notice(self, user_id: int, text: str) -> bool:
        """A plain DM to this person (a notice, not a hand); False when it could not go."""
        try:
            cid = await self._dm_channel(user_id, None)
            with handle_message_parameters(content=text) as params:
                await self.bot.http.send_message(cid, params=params)
        except TRANSIENT as err:
            log.warning("could not DM a notice to %s: %s", user_id, _reason(err))
            return False
        return True

    # Raw REST: discord.py's Messageable.send / PartialMessage.edit would also build a Message
    # object from every reply, a measurable cost per action that the presenter never uses.

    async def _edit(self, channel_id: int, message_id: int, body: render.Render,
                    shown: int | None = None, shown_view: ViewKey | None = None) -> int | None:
        """Edit a message unless it shows this very body already (`shown`, its fingerprint);
        returns the fingerprint of what it shows now, or None when the edit was skipped.
        Controls it shows already (`shown_view`, their key) are left out of the edit: Discord
        keeps a message's components when an edit does not name them."""
        keep = body.view_key is not None and body.view_key == shown_view
        params = handle_message_parameters(
            content=body.content, embed=body.embed,
            view=MISSING if keep else body.controls_view(),
            attachments=body.discord_files() if body.files else MISSING,
            previous_allowed_mentions=self.bot.allowed_mentions)
        with params:
            fingerprint = _fingerprint(_payload_of(params), body.view_key)
            if fingerprint == shown:
                body.done()
                return None
            await self.bot.http.edit_message(channel_id, message_id, params=params)
        body.done()
        return fingerprint

    async def _post(self, channel_id: int, body: render.Render, *,
                    again: bool = False) -> tuple[int, int]:
        """Post a message (`again`: one that was posted before, whose mentions pinged then);
        returns its id and the fingerprint of its body."""
        pings = body.pings and not again
        view = body.controls_view()
        params = handle_message_parameters(
            content=body.content or MISSING, embed=body.embed,
            view=view if view is not None else MISSING,
            files=body.discord_files() if body.files else MISSING,
            allowed_mentions=(self.bot.allowed_mentions if pings
                              else discord.AllowedMentions.none()))
        with params:
            data = await self.bot.http.send_message(channel_id, params=params)
            fingerprint = _fingerprint(_payload_of(params), body.view_key)
        body.done()
        return int(data["id"]), fingerprint

    async def _send_table(self, slot: Slot, body: render.Render) -> None:
        view = slot.view
        assert view is not None
        again = slot.message_id is not None
        if slot.message_id is not None:
            try:
                shown = await self._edit(view.channel_id, slot.message_id, body, slot.shown,
                                         slot.shown_view)
            except discord.NotFound:  # somebody deleted the table message: post it again
                slot.message_id = slot.shown = slot.shown_view = None
            else:
                if shown is not None:
                    slot.shown, slot.last_edit = shown, self._now()
                    slot.shown_view = body.view_key
                return
        if view.status is TableStatus.CANCELLED:
            return  # nothing to show on a new message: the table was closed
        slot.message_id, slot.shown = await self._post(view.channel_id, body, again=again)
        slot.shown_view, slot.last_edit = body.view_key, self._now()
        self.tables.set_table_message(slot.table_id, slot.message_id)

    async def _dm_channel(self, user_id: int, known: int | None) -> int:
        cid = self._dm_channels.get(user_id) or known
        if cid is None:
            dm = await self.bot.create_dm(discord.Object(user_id))
            cid = dm.id
        self._dm_channels[user_id] = cid
        return cid

    async def _send_dm(self, slot: Slot, body: render.Render) -> bool:
        """Send or edit a DM hand; False when the person's DMs are closed."""
        assert slot.user_id is not None and slot.hand_number is not None
        try:
            cid = await self._dm_channel(slot.user_id, slot.channel_id)
            if slot.message_id is not None:
                try:
                    shown = await self._edit(cid, slot.message_id, body, slot.shown,
                                             slot.shown_view)
                    if shown is not None:
                        slot.shown, slot.shown_view = shown, body.view_key
                    return True
                except discord.NotFound:
                    slot.message_id = slot.shown = slot.shown_view = None
            if slot.final:
                return True
            mid, slot.shown = await self._post(cid, body)
            slot.shown_view = body.view_key
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                raise
            slot.refused = True
            self.reports.put_nowait(DmClosed(slot.table_id, slot.user_id))
            return False
        slot.message_id, slot.channel_id = mid, cid
        self.tables.set_dm_message(slot.table_id, slot.user_id, slot.hand_number, mid, cid)
        self.reports.put_nowait(DmPosted(slot.table_id, slot.user_id))
        return True

    async def welcome(self, view: TableView, user_id: int) -> int | DmClosed | None:
        """A first DM when someone joins: it finds closed DMs while they are still here.
        Returns its message id, DmClosed when Discord refused it, None when it failed."""
        try:
            await self.voices.prepare(view.guild_id, (user_id,))
            lang = self.voices.person(user_id, view.guild_id)
            cid = await self._dm_channel(user_id, None)
            mid, _ = await self._post(cid, render.welcome_dm(view, lang))
            return mid
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                log.warning("welcome DM to %s failed: %s", user_id, err)
                return None
            return DmClosed(view.table_id, user_id)
        except discord.HTTPException as err:
            log.warning("welcome DM to %s failed: %s", user_id, err)
        return None

    async def edit_dm(self, user_id: int, message_id: int, body: render.Render) -> None:
        """Edit one of this person's DMs once, best effort (a lobby's welcome DM)."""
        try:
            await self._edit(await self._dm_channel(user_id, None), message_id, body)
        except discord.HTTPException as err:
            log.warning("could not edit a DM of %s: %s", user_id, err)

    async def dm_channel(self, user_id: int) -> int:
        """This person's DM channel id (opened once, then remembered)."""
        return await self._dm_channel(user_id, None)

    def channel_of(self, user_id: int) -> int | None:
        """The DM channel known for this person, if any."""
        return self._dm_channels.get(user_id)

    async def wait(self, slots: list[Slot]) -> None:
        """Wait until these slots' due updates are sent (a held table update is not waited
        for)."""
        while True:
            pending = [s.task for s in slots if s.task is not None and not s.task.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self, slots: list[Slot]) -> None:
        """Shutting down: send every update now, held ones too, and wait for them (at most
        CLOSE_TIMEOUT seconds), so what was committed is on Discord before the bot leaves."""
        self._closing = True
        for timer in list(self._timers):
            timer.cancel()
        for slot in slots:
            slot.timer = slot.due = None
            if slot.sent < slot.version:
                self._schedule(slot)

        async def drain() -> None:
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)

        try:
            await asyncio.wait_for(drain(), CLOSE_TIMEOUT)
        except TimeoutError:
            log.warning("%d message updates were not sent before shutdown", len(self._tasks))


RETRYABLE: tuple[type[BaseException], ...] = (
    discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError)
"""Failures that pass besides HTTP statuses: a long rate limit discord.py refused to wait out,
dropped connections and timeouts."""
TRANSIENT: tuple[type[BaseException], ...] = (discord.HTTPException, *RETRYABLE)
"""What a send may raise that `passes` looks at."""


def passes(err: BaseException) -> bool:
    """A failure worth trying again: a server error or a 429 that outlasted discord.py's own
    tries (a plain HTTPException with that status), or one of RETRYABLE."""
    if isinstance(err, discord.HTTPException):
        return err.status == 429 or err.status >= 500
    return isinstance(err, RETRYABLE)


def _reason(err: BaseException) -> str:
    return str(err) or type(err).__name__


def _what(slot: Slot) -> str:
    return "table" if slot.is_table else f"DM ({slot.user_id})"


def _computers_next(view: TableView | None) -> bool:
    """Only computers (or people on autopilot) are to act: their moves follow by themselves."""
    st = view.state if view is not None else None
    if view is None or st is None or not view.status.active or not st.actor_seats:
        return False
    return all(view.seats[s].user_id is None or view.seats[s].autopilot for s in st.actor_seats)


def _results(view: TableView | None) -> int:
    """How many hands of the game are finished (and scored) in this view."""
    st = view.state if view is not None else None
    return len(st.scoresheet) if st is not None else 0


def _payload_of(params: Any) -> dict[str, Any] | None:
    """The JSON of a request, also when it travels as multipart beside files."""
    if params.payload is not None or not params.multipart:
        return params.payload  # type: ignore[no-any-return]
    return json.loads(params.multipart[0]["value"])  # type: ignore[no-any-return]


def _fingerprint(payload: dict[str, Any] | None, view_key: ViewKey | None = None
                 ) -> int:
    """What a message payload shows (text, embeds, controls, attached files), as a number: the
    same for a post and an edit of the same body, different when anything shown differs.
    Controls named by a key (Render.view_key) count by their key: an edit may leave them out."""
    payload = payload or {}
    controls: Any = (payload.get("components") or []) if view_key is None else view_key
    shown: Any = (payload.get("content") or None, payload.get("embeds") or [], controls,
             [a.get("filename") for a in payload.get("attachments") or []])
    # marshal's version 2 writes equal values alike (no references, no interning) and is
    # several times quicker than JSON; a payload is JSON's own values and a key plain ones
    return hash(marshal.dumps(shown, 2))


__all__ = ["COMPUTER_DELAY", "COMPUTER_HOLD_SLACK", "DM_CLOSED", "TABLE_EDIT_INTERVAL",
           "Delivery", "DmClosed", "DmPosted", "NoAccess", "Report", "Settled", "Slot"]
