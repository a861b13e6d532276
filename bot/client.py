"""The Discord client: a commands.Bot that owns the store, the table service and the cogs.

Nothing here connects to Discord until `start`/`run`: discord.py calls `setup_hook` after
login and before the gateway connects, which is where the store opens (applying migrations),
the cogs load (they add the slash commands, the dynamic buttons and the Discord presenter),
and every table in progress resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import discord
from discord.ext import commands
from discord.http import handle_message_parameters

from bot.clock import Clock, SystemClock
from bot.command_sync import SyncRecord, payload_digest, record_path, sync_target
from bot.directory import TableDirectory
from bot.health import heartbeat_loop
from bot.invite import invite_url
from bot.ledger import Ledger
from bot.presenter import Presenter, PresenterSlot
from bot.scheduler import Scheduler
from bot.service import ResumeReport, ServiceConfig, TableService
from bot.settings import CannotStart, Settings
from bot.shards import ShardLeases, ShardPlan, process_name
from bot.slash_locale import CatalogueTranslator
from bot.tree import AnsweringTree
from data import Store, StoreError, parse_address
from engine.warm import warm_up

log = logging.getLogger(__name__)

BROKEN_NOTICE = ("The Oh Hell game in this channel could not be restored after the bot "
                 "restarted: its saved state did not check out, so it was set aside and no "
                 "result was recorded. Sorry! Start a new game with /ohhell start.")

EXTENSIONS: tuple[str, ...] = ("cogs.ohhell", "cogs.history")
"""The cogs loaded at start-up, by name (bot/ never imports cogs/ directly)."""


def service_config(settings: Settings) -> ServiceConfig:
    """The table service's knobs from the settings."""
    return ServiceConfig(
        default_turn_timeout=settings.default_turn_timeout,
        computer_delay=settings.computer_delay,
    )


def computer_executor(workers: int) -> Executor | None:
    """A process pool for the computer players (None: the service's own thread).

    Processes, because the hard player is CPU-bound and holds the GIL the event loop needs.
    "spawn" so no worker inherits the loop's threads or sockets. Each worker first loads (or,
    on a machine that never ran them, compiles) the hard player's kernels, so no table's first
    computer move waits on that (engine/warm.py).
    """
    if workers <= 0:
        return None
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=warm_up)


class OhHellBot(commands.Bot):
    """The bot. Cogs reach the game through `bot.tables` (the TableService) and the records
    through `bot.store`. A cog's `setup` builds its presenter on `bot.directory` (the tables'
    reads and bookkeeping), then attaches it to the service (`bot.attach_presenter`),
    and registers its DynamicItems with `bot.add_dynamic_items`.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        clock: Clock | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            tree_cls=AnsweringTree,
            **client_options,
        )
        self.settings = settings
        self.extensions_to_load: tuple[str, ...] = tuple(extensions)
        self.clock = clock
        self._store: Store | None = None
        self._tables: TableService | None = None
        self._directory: TableDirectory | None = None
        self._ledger: Ledger | None = None
        self._scheduler: Scheduler | None = None
        self.presenter: Presenter | None = None
        """The presenter a cog attached to the table service (None: nothing is shown)."""
        self._presenters = PresenterSlot()
        self._closing = False
        self._executor: Executor | None = None
        self.resume_report: ResumeReport | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self.leases: ShardLeases | None = None
        """This process's shard lease, when it is one of several (SHARD_COUNT)."""

    @property
    def store(self) -> Store:
        """The open store (from setup_hook on)."""
        if self._store is None:
            raise RuntimeError("the store opens in setup_hook; the bot has not started")
        return self._store

    @property
    def tables(self) -> TableService:
        """The table service (from setup_hook on)."""
        if self._tables is None:
            raise RuntimeError("the table service starts in setup_hook; the bot has not started")
        return self._tables

    @property
    def executor(self) -> Executor | None:
        """The worker processes for CPU-bound work off the loop (the computers' decisions, the
        end-of-game chart); None: threads of this process (COMPUTER_WORKERS=0)."""
        return self._executor

    @property
    def service_clock(self) -> Clock:
        """The clock the table service keeps time by (from setup_hook on)."""
        if self._ledger is None:
            raise RuntimeError("the tables open in setup_hook; the bot has not started")
        return self._ledger.clock

    @property
    def scheduler(self) -> Scheduler:
        """The process's one scheduler of deadlines (turn timers, nudges, retries), from
        setup_hook on."""
        if self._scheduler is None:
            raise RuntimeError("the tables open in setup_hook; the bot has not started")
        return self._scheduler

    @property
    def directory(self) -> TableDirectory:
        """The tables' reads and bookkeeping, for a presenter built before the service (from
        setup_hook on)."""
        if self._directory is None:
            raise RuntimeError("the tables open in setup_hook; the bot has not started")
        return self._directory

    def attach_presenter(self, presenter: Presenter) -> TableService:
        """The service publishes to `presenter` from now on (a cog's setup); returns it."""
        self._presenters.attach(presenter)
        self.presenter = presenter
        return self.tables

    def detach_presenter(self, presenter: Presenter) -> None:
        """The service stops publishing to `presenter` (its cog unloads)."""
        self._presenters.detach(presenter)
        if self.presenter is presenter:
            self.presenter = None

    @property
    def closing(self) -> bool:
        """`close` has begun (a cog unloading then leaves delivery to the service's close)."""
        return self._closing

    async def setup_hook(self) -> None:
        """Open the store, start the service, load the cogs, resume the tables, sync commands."""
        settings = self.settings
        plan = shard_plan(settings)
        self._store = await open_store(settings, process_name(plan) if plan is not None else None)
        self._executor = computer_executor(settings.computer_workers)
        clock = self.clock or SystemClock()
        self._ledger = Ledger(self._store, service_config(settings), clock)
        self._directory = TableDirectory(self._ledger)
        self._scheduler = Scheduler(clock)
        self._tables = TableService(
            self._store,
            self._presenters,
            config=self._ledger.config,
            clock=clock,
            executor=self._executor,
            directory=self._directory,
            ledger=self._ledger,
            scheduler=self._scheduler,
        )
        await self.tree.set_translator(CatalogueTranslator())
        for name in self.extensions_to_load:
            await self.load_extension(name)
            log.info("loaded %s", name)
        if plan is None:
            self.resume_report = await self.tables.resume_all()
        else:
            self.leases = ShardLeases(self._store, self.tables, plan)
            self.resume_report = await self.leases.start()
        log.info(
            "resumed %d tables (%d broken)",
            len(self.resume_report.resumed),
            len(self.resume_report.broken),
        )
        await self._tell_broken(self.resume_report)
        tune_garbage_collector(self)
        tune_thread_switching()
        if self.application_id is not None:
            log.info("add the bot to a server with %s", invite_url(self.application_id))
        if settings.sync_commands:
            await self.sync_commands()
        if settings.heartbeat_path is not None:
            beats = heartbeat_loop(settings.heartbeat_path, lambda: self.is_connected(),
                                   check_writes=self._store.check_writes)
            self._heartbeat = asyncio.create_task(beats, name="heartbeat")

    async def _tell_broken(self, report: ResumeReport) -> None:
        """Say in its channel that a table was set aside (its saved game did not check out),
        so its players are not left waiting on it."""
        for table_id, _reason in report.broken:
            channel_id = report.channels.get(table_id)
            if channel_id is None:
                continue
            try:
                with handle_message_parameters(content=BROKEN_NOTICE) as params:
                    await self.http.send_message(channel_id, params=params)
            except (discord.HTTPException, OSError) as err:
                log.warning("could not tell channel %s that table %s is broken: %s",
                            channel_id, table_id, err)

    def is_connected(self) -> bool:
        """Connected to the gateway right now (false while it reconnects)."""
        ws = self.ws
        return self.is_ready() and not self.is_closed() and ws is not None and ws.open

    async def sync_commands(self) -> bool:
        """Sync slash commands, to DEV_GUILD_ID only when set (instant), else globally; skipped
        when the same commands were synced to the same place before. True when it synced."""
        guild = None
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = payload_digest(payload)
        target = sync_target(self.application_id or 0, guild.id if guild else None)
        record = SyncRecord(record_path(self.settings.database_file()))
        where = f"guild {guild.id}" if guild else "every server (global)"
        if record.is_current(target, digest):
            log.info("commands unchanged since the last sync to %s: not synced", where)
            return False
        synced = await self.tree.sync(guild=guild)
        record.remember(target, digest)
        log.info("synced %d commands to %s", len(synced), where)
        return True

    async def command_payload(self, guild: discord.abc.Snowflake | None = None
                              ) -> list[dict[str, Any]]:
        """What a sync sends: every command with its translations (bot.slash_locale), so a
        changed translation is synced too."""
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        if translator is None:
            return [command.to_dict(self.tree) for command in commands]
        return [await command.get_translated_payload(self.tree, translator)
                for command in commands]

    async def close(self) -> None:
        """Stop the service's timers, disconnect, then close the store and the workers."""
        self._closing = True
        release_garbage_collector(self)
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self.leases is not None:
            with contextlib.suppress(StoreError):
                await self.leases.stop()
            self.leases = None
        if self._tables is not None:
            await self._tables.close()
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


async def open_store(settings: Settings, owner: str | None = None) -> Store:
    """The store the settings name, migrations applied; CannotStart says, in one line naming
    the setting and the fix, why it cannot be opened."""
    target = settings.database_target()
    shown = parse_address(target)
    setting = settings.database_setting()
    try:
        store = await Store.open(target, owner=owner)
    except (StoreError, OSError, sqlite3.Error) as err:
        hint = (
            "It must be a SQLite database in a folder the user the bot runs as can write (in "
            f"the Docker image: uid 10001); move it away or choose another {setting}"
            if shown.dialect == "sqlite"
            else f"Is the PostgreSQL server up, and are the user, password and database in "
            f"{setting} right?"
        )
        raise CannotStart(f"cannot open the database {shown} ({setting}): {err}. {hint}") from err
    log.info("database %s open", shown)
    return store


async def check_store(settings: Settings) -> None:
    """Open and close the store once before logging in, so a database the bot cannot use
    stops it before any table resumes (CannotStart); `database_problem` then catches what
    opening does not, such as a read-only file."""
    store = await open_store(settings)
    await store.close()
    problem = settings.database_problem()
    if problem is not None:
        raise CannotStart(problem)


YOUNG_GENERATION_THRESHOLD = 500
"""Allocations (less deallocations) between young collections. A young collection examines
every object born since the last one that is still alive, and freeing old objects counts
against the threshold: at 10,000 tables, each move replacing long-lived state, a young
collection at 100,000 examined ~170k objects for 320 ms of CPU (bench/bot.py --stall-stacks,
loaded machine). A pause follows what it examines, and each object's references into the
large frozen heap cost a cache miss, so small collections keep the pauses short for the same
total: on a quiet machine, 10,000 tables at 100 actions/s, at 5,000 (survivors frozen) 20
collections in 30 s, each 8-12k objects, p50 12 ms, max 30 ms (285 ms in all; loop stall 30-39
ms); at 1,000, 116 collections of ~1.8k objects, p50 1.5 ms, max 5.9 ms (220 ms in all; stall
18.7 ms). Later, with a cheaper click, a collection still ran during 25 of the 30 slowest
responses at 1,000 (p50 1.6 ms); at 500, back to back with 1,000, two pairs: response p99 5.18 /
5.69 and 5.65 / 6.34 ms, stall 12.2 / 16.0 and 12.5 / 14.8 ms, CPU per action alike.

The loop itself starts these collections (COLLECT_EVERY), between two callbacks, rather than
Python amid whatever code allocated the 500th object: a collection then never lengthens the
response that happened to allocate it (a collection ran during half of the slowest 1% of
responses). Four pairs, run in turn (10,000 tables, one core free, the other shared with a
nice'd job): response p99 4.45 / 5.43, 4.10 / 5.05, 4.23 / 4.97, 4.56 / 4.40 ms against
Python's own collections at 500."""

COLLECT_EVERY = 0.02
"""Seconds between the loop's looks at the young generation. The young generation grows by
about 70 objects in 20 ms at 100 actions/s, so a collection starts at most that far past
YOUNG_GENERATION_THRESHOLD; 50 wakeups a second cost an idle bot nothing it would notice."""

BACKSTOP_THRESHOLD = 10_000
"""Python's own young collections, still on for a burst between two looks (a blocked loop, a
computer player's thread): far enough above YOUNG_GENERATION_THRESHOLD that the loop's looks
start nearly every collection."""


FULL_PASS_GROWTH = 1.5
"""A full collection runs once the process's resident memory has grown to this many times
what it was after the last one: memory held by cycles that died frozen is then freed."""


def tune_garbage_collector(owner: object) -> None:
    """Freeze what start-up built (settings, cogs, resumed tables) and, after every collection,
    what survived it, so each collection examines only what was born since the last: small
    and bounded at any number of tables, where the older generations' passes over every
    table took 300 ms and more at 10,000 tables. Frozen objects are still freed by reference
    counting; a cycle that dies frozen (a click leaves none, tests/discord/test_memory.py)
    waits for the full collection FULL_PASS_GROWTH brings, so memory stays bounded even so.
    `owner`: the bot, until `release_garbage_collector`."""
    gc.collect()
    gc.freeze()
    if not _COLLECTOR.owners:
        _COLLECTOR.python_threshold = gc.get_threshold()
        gc.callbacks.append(_freeze_survivors)
    gc.set_threshold(BACKSTOP_THRESHOLD, 20, 100)
    _COLLECTOR.owners.add(id(owner))
    loop = _COLLECTOR.loop = asyncio.get_running_loop()
    _COLLECTOR.resident_after_full = resident_bytes()
    if _COLLECTOR.look is not None:  # the looks move to the newest bot's loop
        _COLLECTOR.look.cancel()
    _COLLECTOR.look = loop.call_later(COLLECT_EVERY, _look)


def release_garbage_collector(owner: object) -> None:
    """`owner` closed; once no bot of the process runs, collections examine every object
    again (tests start many bots in one process: their cycles must not outlive them)."""
    if id(owner) not in _COLLECTOR.owners:
        return
    _COLLECTOR.owners.discard(id(owner))
    if not _COLLECTOR.owners:
        gc.callbacks.remove(_freeze_survivors)
        _COLLECTOR.loop = None
        _COLLECTOR.full_pass_due = False
        if _COLLECTOR.look is not None:
            _COLLECTOR.look.cancel()
            _COLLECTOR.look = None
        gc.set_threshold(*_COLLECTOR.python_threshold)
        gc.unfreeze()


def resident_bytes() -> int:
    """The process's resident memory now (Linux's /proc; 0 elsewhere: no full passes). Read
    after every collection, so it must be cheap: gc.get_freeze_count walks every frozen
    object (tens of ms at 10,000 tables)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return 0


_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _Collector:
    """The collector's state while bots of this process run."""

    def __init__(self) -> None:
        self.owners: set[int] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.resident_after_full = 0
        self.full_pass_due = False
        self.look: asyncio.TimerHandle | None = None
        """The loop's next look at the young generation."""
        self.python_threshold: tuple[int, int, int] = gc.get_threshold()
        """What the thresholds were before the first bot tuned them."""


_COLLECTOR = _Collector()


def _look() -> None:
    """Collect the young generation once it reached YOUNG_GENERATION_THRESHOLD (unless the
    collector was turned off, for a diagnosis); look again after COLLECT_EVERY."""
    if gc.isenabled() and gc.get_count()[0] >= YOUNG_GENERATION_THRESHOLD:
        gc.collect(0)
    loop = _COLLECTOR.loop
    _COLLECTOR.look = None
    if loop is not None and not loop.is_closed():
        _COLLECTOR.look = loop.call_later(COLLECT_EVERY, _look)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """After each collection (in whichever thread ran it): freeze what survived, and ask the
    loop for a full pass once memory grew past FULL_PASS_GROWTH (a collection cannot start
    another from its callback)."""
    if phase != "stop" or _COLLECTOR.full_pass_due:
        return
    gc.freeze()
    loop = _COLLECTOR.loop
    if loop is not None and 0 < _COLLECTOR.resident_after_full * FULL_PASS_GROWTH < (
            resident_bytes()):
        _COLLECTOR.full_pass_due = True
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(_full_pass)


def _full_pass() -> None:
    """Examine every object once: cycles that died frozen go."""
    if not _COLLECTOR.owners:  # the bots closed meanwhile: nothing is frozen any more
        _COLLECTOR.full_pass_due = False
        return
    started = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    _COLLECTOR.resident_after_full = resident_bytes()
    _COLLECTOR.full_pass_due = False
    log.info("full garbage collection: %d objects unreachable, %.0f ms, %d MB resident after",
             found, (time.perf_counter() - started) * 1000, _COLLECTOR.resident_after_full >> 20)


GIL_SWITCH_INTERVAL = 0.0005
"""Seconds the event loop may keep the GIL while the store's threads wait for it (CPython's
default is 0.005). Each SQLite call of the writer thread takes the GIL back several times; with
the loop busy, each waited up to the whole interval, so a save took up to 20 ms and, on a loaded
machine, the writer fell seconds behind (bench/bot.py --switch-interval: saves p50 7.8 s at 0.005,
2.8 s at 0.0005, 1,000 tables at 20 actions/s, load 8.7)."""


def tune_thread_switching() -> None:
    """Let the store's threads take the GIL soon after they ask (GIL_SWITCH_INTERVAL)."""
    sys.setswitchinterval(GIL_SWITCH_INTERVAL)


def create_bot(
    settings: Settings,
    *,
    extensions: Sequence[str] = EXTENSIONS,
    clock: Clock | None = None,
) -> OhHellBot:
    """The bot, configured but not connected (call `await bot.start(token)` or `bot.run`).

    `clock`: the table service's time source (tests pass a ManualClock). With SHARD_COUNT set,
    an AutoShardedBot that connects SHARD_IDS (all shards when unset).
    """
    if settings.shard_count is None:
        return OhHellBot(settings, extensions=extensions, clock=clock)
    return ShardedOhHellBot(
        settings,
        extensions=extensions,
        clock=clock,
        shard_count=settings.shard_count,
        shard_ids=settings.shard_ids,
    )


class ShardedOhHellBot(OhHellBot, commands.AutoShardedBot):
    """The bot as one of several processes: discord.py's AutoShardedBot on SHARD_IDS."""


def shard_plan(settings: Settings) -> ShardPlan | None:
    """This process's part of the shards (None: one process drives every table)."""
    if settings.shard_count is None:
        return None
    own = settings.shard_ids if settings.shard_ids is not None else range(settings.shard_count)
    return ShardPlan(
        shard_count=settings.shard_count,
        shard_ids=tuple(own),
        takeover_ids=tuple(s for s in settings.takeover_shard_ids if s not in own),
        lease_seconds=settings.lease_seconds,
    )


__all__ = [
    "EXTENSIONS",
    "OhHellBot",
    "ShardedOhHellBot",
    "check_store",
    "computer_executor",
    "create_bot",
    "open_store",
    "service_config",
    "shard_plan",
]
