"""Turn notifications ("nudges"): a person slow to act gets one message Discord really delivers.

Discord notifies for a NEW message only (a new DM, or a channel message whose content mentions
the person), never for an edit or a mention inside an embed (docs/discord.md). The DM hand
that is edited to show "your turn" therefore tells nobody. So when a person's turn comes and
they have not acted `after` seconds later (NUDGE_AFTER, 20 by default, on the service's clock),
they get one nudge: a short DM with a jump link to the table, or a channel message that mentions
them, as they chose with `/ohhell notify` (else the server's default from `/ohhell settings`,
else DM), in their language (their last-seen Discord locale, else the server's; cogs/voices.py).
Someone who acts in time is not nudged. The turn timer's half-time warning goes the
same way. A turn gets at most one notification: a new DM that reached the person during it, or
less than `after` seconds before it began and since they last acted (a new hand's DM, which
carries the last hand's result), was it, and no nudge follows. Each person keeps at most one
nudge: it is deleted when they act (or their turn ends otherwise) and when the next one goes
out, so neither DMs nor the channel fill up. A person whose DMs are closed is mentioned in the
channel instead.

Their moments are kept in the process's one scheduler (bot/scheduler.py), with the turn timers.
Best effort: a nudge that Discord refuses is logged and dropped (the game never waits on it).
The nudges on Discord are kept in the store too (Records.keep_nudge, migration 0011), so after
a restart (TurnResumed) the bot still knows them: one whose person is still to act stays, as
that turn's notification, and goes when they act; the others are deleted at once. A turn in
progress whose person has no nudge yet gets it `after` seconds from when the turn began (at once
if that moment passed while the bot was down), or from the restart when the table has no timer
to tell when it began.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord
from discord.http import handle_message_parameters

from bot.clock import Clock
from bot.events import (
    BidMade,
    CardPlayed,
    DiscardsMade,
    Event,
    SeatAutopiloted,
    SeatsChanged,
    TimerWarning,
    TrumpChosen,
    TurnChanged,
    TurnResumed,
)
from bot.i18n import DEFAULT_LANG, Lang
from bot.models import TableView
from bot.records import PostedNudge, Records
from bot.scheduler import Scheduler
from cogs import render

log = logging.getLogger(__name__)

NUDGE_AFTER = 20.0
"""Default seconds a person's turn waits before they are notified (Settings.turn_nudge_after)."""
DEFAULT_HOW = "dm"
ADOPT_PER_READ = 500
"""Resumed tables whose kept nudges one statement reads."""
"""How someone is told when neither they nor their server chose (data.NOTIFY_WAYS lists all)."""
DM_CLOSED = 50007

Preference = Callable[[int, int], Awaitable[str]]
"""(guild id, user id) -> "dm", "mention" or "off"."""
Speaker = Callable[[int, int], Awaitable[Lang]]
"""(guild id, user id) -> the language the person reads (cogs/voices.py)."""
Wording = Callable[[Lang], "render.NudgeText"]
"""A nudge's text, worded in the language of the person it goes to."""


async def english(guild_id: int, user_id: int) -> Lang:
    """The speaker when nobody knows better (no cogs.voices at hand)."""
    return DEFAULT_LANG


async def always_dm(guild_id: int, user_id: int) -> str:
    """The preference when nobody set one (and no store is at hand)."""
    return DEFAULT_HOW


def stored_preference(records: Records) -> Preference:
    """The person's own choice (/ohhell notify), else their server's default (/ohhell
    settings notify:), else a DM; read when a nudge is due (rare: only slow turns)."""

    async def how(guild_id: int, user_id: int) -> str:
        own = await records.get_notify(user_id)
        if own is not None:
            return own
        return (await records.get_settings(guild_id)).notify or DEFAULT_HOW

    return how


@dataclass(eq=False)
class Turn:
    """One person's turn at one table, from when it came until they act."""

    table_id: int
    user_id: int
    view: TableView
    awaits: type | None = None
    due: datetime | None = None  # when the nudge goes if they have not acted
    ended: bool = False
    warned: bool = False  # the half-time warning is due (it replaces the nudge)
    notified: bool = False  # a new DM was the turn's notification (no nudge)


@dataclass(eq=False)
class Posted:
    """A nudge on Discord, to delete once it has done its job."""

    channel_id: int
    message_id: int


class Nudger:
    """Schedules, sends and removes nudges (see the module docstring). `observe` is called
    with every publish of the table service, under its lock: it only notes and spawns."""

    def __init__(self, bot: discord.Client, clock: Clock, *, after: float = NUDGE_AFTER,
                 preference: Preference = always_dm,
                 dm_channel: Callable[[int], Awaitable[int]] | None = None,
                 scheduler: Scheduler | None = None, records: Records | None = None,
                 speaker: Speaker = english) -> None:
        """`after`: grace seconds (0: no nudges, warnings still go). `dm_channel`: the DM
        channel id of a user (the presenter's cached lookup). `scheduler`: the process's
        deadlines (the table service's; default: one of its own). `records`: where the posted
        nudges are kept across restarts (None: in memory only). `speaker`: the language of
        the person nudged."""
        self.bot, self.clock, self.after = bot, clock, after
        self._scheduler = scheduler if scheduler is not None else Scheduler(clock)
        self.preference = preference
        self.speaker = speaker
        self._dm_channel = dm_channel
        self._records = records
        self._adopting: dict[int, asyncio.Future[None]] = {}  # table -> its kept nudges read
        self._to_adopt: list[int] = []  # tables resumed whose kept nudges are still to read
        self._adopter: asyncio.Task[None] | None = None
        self._turns: dict[int, dict[int, Turn]] = {}  # table id -> user id -> their turn
        self._posted: dict[tuple[int, int], Posted] = {}  # (table, user) -> the nudge shown
        self._fresh: dict[tuple[int, int], datetime] = {}  # new DM since they acted -> when
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._people: dict[int, set[int]] = {}
        """Table id -> the people with a fresh DM, a nudge or a lock there, so a table that
        closes is cleared without scanning every table's (at 10,000 tables, ~30k entries each)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    # ---- what happened ------------------------------------------------------------------------

    def observe(self, view: TableView, events: list[Event]) -> None:
        """Start, keep or end turns from a publish's events (the view is as of after them)."""
        tid = view.table_id
        for e in events:
            if isinstance(e, BidMade | CardPlayed | DiscardsMade | TrumpChosen):
                self._end(tid, _user(view, e.seat))  # whoever moved (a computer too) is done
            elif isinstance(e, SeatAutopiloted) and e.on:
                self._end(tid, _user(view, e.seat))
            elif isinstance(e, SeatsChanged) and e.user_id is not None and e.reason != "join":
                self._end(tid, e.user_id)
            elif isinstance(e, TurnChanged):
                self._turn_changed(view, e)
            elif isinstance(e, TurnResumed):
                self._turn_changed(view, e, began=e.began)
                self._adopt_kept(tid)
            elif isinstance(e, TimerWarning):
                for seat in e.seats:
                    self._warn(view, seat, e.deadline)
        turns = self._turns.get(tid, {})
        if not view.status.active:
            for uid in list(turns):
                self._end(tid, uid)
            keys = [(tid, uid) for uid in self._people.pop(tid, ())]
            for key in keys:
                self._fresh.pop(key, None)
            for key in [k for k in keys if k in self._posted]:
                self._spawn(self._remove(key))
            for key in [k for k in keys if k in self._locks]:
                if not self._locks[key].locked() and key not in self._posted:
                    del self._locks[key]
        for turn in turns.values():
            turn.view = view

    def _turn_changed(self, view: TableView, e: TurnChanged | TurnResumed,
                      began: datetime | None = None) -> None:
        """A turn for the people in `e.seats` (one that `began` before, after a restart)."""
        tid = view.table_id
        people: set[int] = set()
        for seat in e.seats:
            sv = view.seats[seat] if 0 <= seat < len(view.seats) else None
            if sv is None or sv.user_id is None or sv.autopilot:
                continue
            people.add(sv.user_id)
            turns = self._turns.setdefault(tid, {})
            if sv.user_id not in turns:
                turn = Turn(tid, sv.user_id, view, awaits=e.awaits)
                turns[sv.user_id] = turn
                start = self.clock.now() if began is None else began
                dm_at = self._fresh.get((tid, sv.user_id))
                turn.notified = dm_at is not None and start - dm_at < timedelta(seconds=self.after)
                if self.after > 0 and not turn.notified:
                    turn.due = start + timedelta(seconds=self.after)
                    self._schedule(turn)
        for uid in [u for u in self._turns.get(tid, {}) if u not in people]:
            self._end(tid, uid)

    def _schedule(self, turn: Turn) -> None:
        """Nudge the turn at its moment (a deadline in the scheduler, not a task)."""
        assert turn.due is not None
        self._scheduler.at(("nudge", turn.table_id, turn.user_id), turn.due,
                           lambda: self._due_now(turn))

    def _due_now(self, turn: Turn) -> None:
        """The turn's moment came: nudge the person if it still waits on them."""
        if not (turn.ended or turn.warned or turn.notified or self._closed):
            self._spawn(self._send(turn, functools.partial(
                render.turn_nudge, turn.view, turn.user_id, turn.awaits), nudge=True))

    def _adopt_kept(self, table_id: int) -> None:
        """A restart: read the table's nudges kept from before (once; its nudges wait). One
        task reads them for every table resumed, a few hundred tables a statement, so a
        restart with 100,000 tables holds one task for it, not one per table."""
        if self._records is None or table_id in self._adopting:
            return
        self._adopting[table_id] = asyncio.get_running_loop().create_future()
        self._to_adopt.append(table_id)
        if self._adopter is None:
            self._adopter = self._spawn(self._adopt_all())

    async def _adopt_all(self) -> None:
        assert self._records is not None
        try:
            while self._to_adopt:
                batch = self._to_adopt[:ADOPT_PER_READ]
                del self._to_adopt[:ADOPT_PER_READ]
                try:
                    kept = await self._records.posted_nudges_of(batch)
                except Exception:
                    log.exception("could not read the nudges kept for tables %s", batch)
                    kept = {}
                try:  # a task only for the tables that kept some (their deletes overlap)
                    await asyncio.gather(*(self._adopt(table_id, kept[table_id])
                                           for table_id in batch if kept.get(table_id)))
                finally:
                    for table_id in batch:
                        self._adopted(table_id)
        finally:
            self._adopter = None
            for table_id in self._to_adopt:  # closing: nobody reads them now
                self._adopted(table_id)
            self._to_adopt.clear()

    def _adopted(self, table_id: int) -> None:
        done = self._adopting.pop(table_id, None)
        if done is not None and not done.done():
            done.set_result(None)

    async def _adopt(self, table_id: int, kept: list[PostedNudge]) -> None:
        """Nudges posted before the restart: one whose person is still to act stays (it was
        their turn's notification) until they act; the others are deleted now."""
        for row in kept:
            key = (table_id, row.user_id)
            async with self._lock(key):
                turn = self._turns.get(table_id, {}).get(row.user_id)
                shown = Posted(row.channel_id, row.message_id)
                if turn is not None and not turn.ended and key not in self._posted:
                    self._posted[key] = shown
                    turn.notified = True
                    self._scheduler.cancel(("nudge", table_id, row.user_id))
                else:
                    await self._delete(key, shown)
            if key not in self._posted and not self._lock(key).locked():
                self._drop_lock(key)

    def notified(self, table_id: int, user_id: int) -> None:
        """A new message (a new hand's DM, with the last hand's result) just notified this
        person: it is the one notification of their turn if that turn has come, or comes
        within the nudge's grace and before they act again; then no nudge follows (the
        half-time warning still does)."""
        turn = self._turns.get(table_id, {}).get(user_id)
        if turn is None:
            self._fresh[(table_id, user_id)] = self.clock.now()
            self._people.setdefault(table_id, set()).add(user_id)
        elif not turn.ended:
            turn.notified = True
            self._scheduler.cancel(("nudge", table_id, user_id))

    def _end(self, table_id: int, user_id: int | None) -> None:
        """The person's turn is over (they acted, a computer moved, they left): no nudge for
        it, and the one they got goes."""
        if user_id is None:
            return
        key = (table_id, user_id)
        self._fresh.pop(key, None)
        turns = self._turns.get(table_id)
        turn = turns.pop(user_id, None) if turns is not None else None
        if turn is not None:
            turn.ended = True
            self._scheduler.cancel(("nudge", table_id, user_id))
        if turns is not None and not turns:
            del self._turns[table_id]
        if key in self._posted:
            self._spawn(self._remove(key))

    def _warn(self, view: TableView, seat: int, deadline: datetime) -> None:
        sv = view.seats[seat] if 0 <= seat < len(view.seats) else None
        if sv is None or sv.user_id is None or sv.autopilot:
            return
        turns = self._turns.setdefault(view.table_id, {})
        turn = turns.get(sv.user_id)
        if turn is None:
            turn = turns[sv.user_id] = Turn(view.table_id, sv.user_id, view)
        turn.warned = True
        self._spawn(self._send(turn, functools.partial(
            render.warning_nudge, view, sv.user_id, deadline)))

    # ---- delivery ------------------------------------------------------------------------------

    async def _send(self, turn: Turn, wording: Wording, *, nudge: bool = False) -> None:
        """Post the nudge (`nudge`; else the warning) the person chose, replacing the one they
        have; if their turn ended meanwhile, take it down again."""
        key = (turn.table_id, turn.user_id)
        try:
            adopting = self._adopting.get(turn.table_id)
            if adopting is not None:  # a nudge kept from before the restart may stand for it
                await asyncio.shield(adopting)
            async with self._lock(key):
                view = turn.view
                if turn.ended or (nudge and (turn.notified or turn.warned)):
                    return
                how = await self.preference(view.guild_id, turn.user_id)
                if how == "off" or turn.ended:
                    return
                text = wording(await self.speaker(view.guild_id, turn.user_id))
                seat = view.seat_of(turn.user_id)
                closed = seat is None or view.seats[seat].dm_failed
                posted = None
                if how == "dm" and not closed:
                    posted = await self._post_dm(turn.user_id, text.dm)
                if posted is None:
                    posted = await self._post(view.channel_id, text.channel, turn.user_id)
                old = self._posted.pop(key, None)
                self._posted[key] = posted
                await self._keep(key, posted)
                if old is not None:
                    await self._delete(key, old, kept=False)  # its row was replaced
                if turn.ended and self._posted.get(key) is posted:
                    del self._posted[key]
                    await self._delete(key, posted)
        except asyncio.CancelledError:
            raise
        except discord.HTTPException as err:
            log.warning("could not nudge %s at table %s: %s", turn.user_id, turn.table_id, err)
        except Exception:
            log.exception("could not nudge %s at table %s", turn.user_id, turn.table_id)

    def _lock(self, key: tuple[int, int]) -> asyncio.Lock:
        """One person's nudges at one table go out and come down in order (kept until the
        table closes); every nudge is posted under it."""
        self._people.setdefault(key[0], set()).add(key[1])
        return self._locks.setdefault(key, asyncio.Lock())

    async def _post_dm(self, user_id: int, content: str) -> Posted | None:
        """A DM, or None when the person's DMs are closed."""
        try:
            if self._dm_channel is not None:
                cid = await self._dm_channel(user_id)
            else:
                cid = (await self.bot.create_dm(discord.Object(user_id))).id
            return await self._post(cid, content, None)
        except discord.Forbidden as err:
            if err.code == DM_CLOSED:
                return None
            raise

    async def _post(self, channel_id: int, content: str, mention: int | None) -> Posted:
        allowed = (discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(mention)])
                   if mention is not None else discord.AllowedMentions.none())
        params = handle_message_parameters(content=content, allowed_mentions=allowed)
        with params:
            data = await self.bot.http.send_message(channel_id, params=params)
        return Posted(channel_id, int(data["id"]))

    async def _remove(self, key: tuple[int, int]) -> None:
        lock = self._lock(key)
        async with lock:
            posted = self._posted.pop(key, None)
            if posted is not None:
                await self._delete(key, posted)
        waiting = key[1] in self._turns.get(key[0], {})
        if not waiting and key not in self._posted and not lock.locked():
            self._drop_lock(key)

    def _drop_lock(self, key: tuple[int, int]) -> None:
        """Forget the person's lock, and them in the table's index once nothing else of
        theirs is kept there."""
        self._locks.pop(key, None)
        if key not in self._fresh and key not in self._posted:
            people = self._people.get(key[0])
            if people is not None:
                people.discard(key[1])
                if not people:
                    del self._people[key[0]]

    async def _keep(self, key: tuple[int, int], posted: Posted) -> None:
        """Note the posted nudge in the store, for after a restart (best effort)."""
        if self._records is None:
            return
        try:
            await self._records.keep_nudge(PostedNudge(*key, posted.channel_id,
                                                       posted.message_id))
        except Exception:
            log.exception("could not keep the nudge of %s at table %s", key[1], key[0])

    async def _delete(self, key: tuple[int, int], posted: Posted, *, kept: bool = True) -> None:
        """Delete the nudge on Discord, then its row (`kept`: it has one of its own)."""
        try:
            await self.bot.http.delete_message(posted.channel_id, posted.message_id)
        except discord.NotFound:
            pass  # already gone (the person or a moderator deleted it)
        except discord.HTTPException as err:
            log.warning("could not delete a nudge in %s: %s", posted.channel_id, err)
            return  # its row stays: a restart tries again
        if kept and self._records is not None:
            try:
                await self._records.forget_nudge(PostedNudge(*key, posted.channel_id,
                                                             posted.message_id))
            except Exception:
                log.exception("could not forget the nudge of %s at table %s", key[1], key[0])

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Stop the nudge schedule; let nudges on their way finish."""
        self._closed = True
        for table_id, turns in self._turns.items():
            for user_id in turns:
                self._scheduler.cancel(("nudge", table_id, user_id))
        with contextlib.suppress(Exception):
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _user(view: TableView, seat: int) -> int | None:
    return view.seats[seat].user_id if 0 <= seat < len(view.seats) else None


__all__ = ["DEFAULT_HOW", "NUDGE_AFTER", "Nudger", "always_dm", "english", "stored_preference"]
