"""The table service: every Oh Hell table the bot hosts, one per channel or thread.

It speaks ids and engine values only. Each action is a change run by the table's runner, in
the table's inbox (one at a time, in order, no lock): check it (the engine refuses illegal
moves without changing the game), commit it to the store together with its action-log row,
and only then publish the events to the presenter. A refusal raises TableError with a
sentence for the player and changes nothing.

Computer seats think in an executor (never on the event loop) and a run of computer moves is
published as one batch. A person who does not act in time gets a warning at half time, then
the `medium` computer moves for them; after two timeouts in a row it keeps playing their seat
(autopilot) until they act again. Deadlines are stored, so timers survive a restart.

Where things live (each a class with its collaborators passed in, built here in order):
bot/directory.py the tables, their reads and the presenter's bookkeeping (TableDirectory);
bot/ledger.py the one commit operation (Ledger.apply); bot/checks.py the refusals every
command checks first; bot/resume.py rebuilding a table from its row; bot/timers.py the turn
timers (TurnTimers); bot/computer_runs.py the computer players' runs (ComputerRuns);
bot/runner.py the owner of every change (TableRunner: inbox, commit, whose turn, publish);
bot/outages.py the gateway-outage accounting; bot/inbox.py a table's serial inbox;
bot/moves.py a move on the engine and in the log; bot/table.py a table's live state and its
store row. This module routes the commands (the public API); its reads are the directory's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from bot import checks, computer
from bot import options as options_
from bot.clock import Clock, SystemClock
from bot.computer_runs import ComputerRuns
from bot.config import ServiceConfig
from bot.directory import TableDirectory
from bot.errors import TableError
from bot.events import (
    Event,
    GameStarted,
    SeatAutopiloted,
    SeatsChanged,
    TableCancelled,
    TableOpened,
)
from bot.guard import Guard
from bot.hints import HintDesk
from bot.ledger import Change, Ledger
from bot.models import TableOptions, TableStatus, TableView
from bot.moves import perform, refused
from bot.narrate import hand_dealt
from bot.outages import Outages
from bot.presenter import Presenter
from bot.resume import ResumeReport, rebuild, rules_readable
from bot.runner import TableRunner
from bot.scheduler import Scheduler
from bot.table import LiveSeat, LiveTable
from bot.timers import TurnTimers
from data import (
    Action,
    ChannelBusy,
    KeptMessage,
    LoadedTables,
    LoggedAction,
    StaleTable,
    Store,
    StoreError,
    TableRecord,
)
from data import Seat as StoredSeat
from data import TableStatus as StoredStatus
from engine import (
    Bid,
    Card,
    Discard,
    Game,
    Move,
    NameTrump,
    Phase,
    Play,
    Rules,
    Suit,
)
from engine.phrase import Phrase, Term

log = logging.getLogger(__name__)

RESUME_CHUNK = 500
"""Tables resumed together: their logs are read in one statement."""
GONE_CHANNEL = Phrase("This game ended because its channel was deleted; no result was recorded. "
                      "Start a new game with /ohhell start in another channel.")
GONE_GUILD = Phrase(
    "This game ended because the bot was removed from the server; no result was recorded.")


class TableService:
    """Hosts tables; see the module docstring for the action discipline."""

    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        *,
        config: ServiceConfig | None = None,
        executor: Executor | None = None,
        clock: Clock | None = None,
        decide: computer.Decide | None = None,
        directory: TableDirectory | None = None,
        ledger: Ledger | None = None,
        scheduler: Scheduler | None = None,
    ) -> None:
        """`store`: an open data.Store. `presenter`: built before the service (a presenter that
        reads hands is built on `directory`, which is then passed here, with the `ledger` it
        was built on, and the `scheduler` it keeps its moments in). `executor`: where computer
        players think (default: a one-thread pool owned by the service). `clock`: time source
        (tests pass ManualClock). `decide`: the computer's decision function (default
        bot.computer.decide; it must be picklable when the executor is a process pool).
        """
        self.store = store
        self.presenter = presenter
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self._ledger = ledger or Ledger(store, self.config, self.clock)
        self.directory = directory or TableDirectory(self._ledger)
        self._own_executor = executor is None
        self._executor: Executor = executor or ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="ohhell-computer"
        )
        self.hint_desk = HintDesk(  # hints think apart from the computers (bot/hints.py)
            self.config, self.clock, processes=isinstance(self._executor, ProcessPoolExecutor)
        )
        self.scheduler = scheduler if scheduler is not None else Scheduler(self.clock)
        """The process's one clock for deadlines (turn timers here, notifications in cogs/)."""
        self._timers = TurnTimers(self.scheduler)
        self._computers = ComputerRuns(
            self.config, self.clock, self._executor, decide or computer.decide
        )
        self._runner = TableRunner(self.directory, self._ledger, presenter, self._timers,
                                   self._computers, self.config, self.scheduler)
        self._outages = Outages(self.directory, self._timers, self._runner, self.clock)

    # ---- lobby ---------------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions | None = None,
        invited: Sequence[int] = (),
        rematch_of: int | None = None,
    ) -> TableView:
        """Open a table in this channel with the host in seat 0 (plus `options.computers` computer
        seats). TableError if the channel already has one, or the options are not valid
        (unknown preset or level). `invited`: people asked to join a rematch of the table
        `rematch_of`, told to the presenter."""
        options = options or TableOptions()
        preset = options_.check_options(options)
        if self.directory.channel_taken(channel_id):
            raise TableError("There is already a table in this channel.")
        if 1 + options.computers > preset.max_players:
            raise TableError(
                "{preset} seats at most {most} players, so {computers} computer players do not "
                "fit beside you.", preset=Term("preset", preset.title), most=preset.max_players,
                computers=options.computers,
            )
        seats = [LiveSeat(name=host_name, user_id=host_id)]
        for _ in range(options.computers):
            seats.append(_computer_seat(seats, options.computer_level))
        payload = {"options": options.model_dump(mode="json")}
        try:
            record = await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                rules_json=preset.model_dump_json(),
                seats=[
                    StoredSeat(name=s.name, user_id=s.user_id, computer_level=s.computer)
                    for s in seats
                ],
                action=Action("open", seat=0, user_id=host_id, payload=payload),
                meta={"options": payload["options"], "dm_failed_seats": []},
            )
        except ChannelBusy:
            raise TableError("There is already a table in this channel.") from None
        t = LiveTable(
            id=record.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options=options,
            seats=seats,
            turn_timeout=self.config.turn_timeout_of(options),
        )
        self.directory.add(t)
        await self._runner.tell(t, [TableOpened(table_id=t.id, host_id=host_id,
                                                invited=tuple(invited),
                                                rematch_of=rematch_of)])
        return t.view()

    async def rematch(
        self, table_id: int, user_id: int, name: str, *, computers_allowed: bool = True
    ) -> TableView:
        """The host of a finished game opens a new table in its channel: the same rules, as
        many computer players, and its people invited (they join with one click).

        TableError: the game is not over, the caller is not its host, or the channel already
        has another table."""
        record = await self.store.get_table(table_id)
        if record is None:
            raise TableError("That game is gone.")
        if record.status is not StoredStatus.FINISHED:
            raise TableError("A rematch opens once the game is over.")
        if user_id != record.host_id:
            raise TableError("Only the host can open the rematch; press Join on the new table "
                             "when they do.")
        try:
            options = TableOptions.model_validate(record.meta.get("options") or {})
        except ValueError:
            options = TableOptions()
        computers = sum(1 for seat in record.seats if seat.user_id is None)
        if not computers_allowed:
            computers = 0  # the server turned them off since
        options = options.model_copy(update={"computers": computers, "seed": None})
        people = [seat.user_id for seat in record.seats
                  if seat.user_id is not None and seat.user_id != user_id]
        return await self.open_table(record.guild_id, record.channel_id, user_id, name, options,
                                     invited=people, rematch_of=table_id)

    async def join(self, table_id: int, user_id: int, name: str) -> TableView:
        """Take a seat in the lobby. TableError: already seated, table full, game started."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            checks.need_lobby(t)
            if t.seat_of(user_id) is not None:
                raise TableError("You are already at this table.")
            limit = Rules.preset(t.options.preset).max_players
            if len(t.seats) >= limit:
                raise TableError("The table is full ({limit} seats).", limit=limit)
            t.seats.append(LiveSeat(name=name, user_id=user_id))
            seat = len(t.seats) - 1
            events.append(SeatsChanged("join", seat, name, user_id))
            return Action("join", seat=seat, user_id=user_id, payload={"name": name})

        return await self._act(table_id, act)

    async def leave(self, table_id: int, user_id: int) -> TableView:
        """Leave: in the lobby the seat goes (if the host leaves, the next person becomes host;
        with no person left the table is cancelled); mid-game a computer takes the seat."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            seat = checks.need_seat(t, user_id)
            self._vacate(t, seat, events, "leave")
            return Action("leave", seat=seat, user_id=user_id)

        return await self._act(table_id, act)

    async def add_computer(
        self, table_id: int, user_id: int, level: str | None = None
    ) -> TableView:
        """Host only, lobby only: add a computer seat (`level`: random/easy/medium/hard,
        default the table's bot level)."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            checks.need_lobby(t)
            checks.need_host(t, user_id, Phrase("Only the host can add computer players."))
            chosen = level or t.options.computer_level
            options_.check_level(chosen)
            limit = Rules.preset(t.options.preset).max_players
            if len(t.seats) >= limit:
                raise TableError("The table is full ({limit} seats).", limit=limit)
            t.seats.append(_computer_seat(t.seats, chosen))
            seat = len(t.seats) - 1
            events.append(SeatsChanged("add_computer", seat, t.seats[seat].name, None))
            return Action("add_computer", seat=seat, user_id=user_id, payload={"level": chosen})

        return await self._act(table_id, act)

    async def deal(self, table_id: int, user_id: int) -> TableView:
        """Host only: start the game with the seats as they are (min..max players of the
        preset), dealing the first hand."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            checks.need_lobby(t)
            checks.need_host(t, user_id, Phrase("Only the host can deal."))
            players = len(t.seats)
            rules = options_.rules_for(t.options)
            if players < max(3, rules.min_players):
                raise TableError(
                    "{preset} needs at least {least} players; there are {players}. Ask others to "
                    "join or add computer players.", preset=Term("preset", rules.title),
                    least=max(3, rules.min_players), players=players,
                )
            problem = rules.why_not(players)
            if problem is not None:
                raise TableError.of(problem)
            seed = t.options.seed if t.options.seed is not None else secrets.randbits(31)
            try:
                game = Game.new(players=players, rules=rules, seed=seed)
            except ValueError as err:
                raise refused(err) from None
            t.rules = rules
            t.game = game
            t.status = TableStatus.PLAYING
            events.append(GameStarted(players=players, preset=rules.name))
            events.append(hand_dealt(game))
            return Action("deal", user_id=user_id, payload={"seed": seed, "players": players})

        return await self._act(table_id, act)

    # ---- hints ---------------------------------------------------------------------------------

    async def hint(self, table_id: int, user_id: int) -> Phrase:
        """The hard computer's suggestion for this person's pending decision, with its reason in
        numbers, from their own view only, worked out at the hint desk (bot/hints.py), never in
        the computers' executor. TableError when the table does not allow hints, they hold no
        seat, they have nothing to decide now, or the desk refuses (busy, or their cooldown)."""
        t = self.directory.get(table_id)
        if not t.options.hints:
            raise TableError(
                "Hints are off at this table: the host can allow them when opening one "
                "(/ohhell start hints:True; such a game is not rated)."
            )
        view = self.directory.hand_view(table_id, user_id)
        seed = (t.options.seed if t.options.seed is not None else t.id) * 7919 + t.moves
        return await self.hint_desk.ask(user_id, view, seed)

    # ---- play: one path for every move ---------------------------------------------------------

    async def act(
        self, table_id: int, user_id: int, move: Move, guard: Guard | None = None
    ) -> TableView:
        """A person's move. `guard`: the decision the control was made for (None: whatever is
        awaited now, as a slash command means). TableError, changing nothing: a stale or second
        use of a control, not your turn, not this step, or the engine's reason."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            game = checks.need_game(t)
            seat = checks.need_seat(t, user_id)
            if guard is not None:
                checks.need_fresh(t, game, seat, guard)
            checks.need_turn(t, game, seat, move)
            s = t.seats[seat]
            if s.autopilot:
                s.autopilot = False
                events.append(SeatAutopiloted(seat, False))
            s.timeouts = 0
            action, told = perform(t, seat, move, user_id=user_id)
            events.extend(told)
            return action

        return await self._act(table_id, act)

    async def bid(
        self, table_id: int, user_id: int, tricks: int, hand_number: int | None = None
    ) -> TableView:
        """Bid `tricks` (a door onto `act`; `hand_number`: refused once that hand is over)."""
        return await self.act(table_id, user_id, Bid(tricks), _hand_guard(hand_number))

    async def play(
        self, table_id: int, user_id: int, card: Card, hand_number: int | None = None
    ) -> TableView:
        """Play a card; a door onto `act`."""
        return await self.act(table_id, user_id, Play(card), _hand_guard(hand_number))

    async def choose_trump(
        self, table_id: int, user_id: int, suit: Suit, hand_number: int | None = None
    ) -> TableView:
        """The dealer names trump (variant phase); a door onto `act`."""
        return await self.act(table_id, user_id, NameTrump(suit), _hand_guard(hand_number))

    async def discard(
        self,
        table_id: int,
        user_id: int,
        cards: Sequence[Card],
        hand_number: int | None = None,
    ) -> TableView:
        """Discard face down (variant phase); a door onto `act`."""
        move = Discard(tuple(cards))
        return await self.act(table_id, user_id, move, _hand_guard(hand_number))

    # ---- control -------------------------------------------------------------------------------

    async def kick(self, table_id: int, user_id: int, target_id: int) -> TableView:
        """Host only: in the lobby the target's seat goes; mid-game a computer takes it."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            checks.need_host(t, user_id, Phrase("Only the host can remove players."))
            if target_id == user_id:
                raise TableError("You cannot remove yourself: use leave, or end the game.")
            seat = t.seat_of(target_id)
            if seat is None:
                raise TableError("That person is not at this table.")
            self._vacate(t, seat, events, "kick")
            return Action("kick", seat=seat, user_id=user_id, payload={"target": target_id})

        return await self._act(table_id, act)

    async def end(self, table_id: int, user_id: int, is_manager: bool = False) -> TableView:
        """Cancel the table (host, or a member with Manage Server: the cog passes
        `is_manager`). No result is recorded."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            if user_id != t.host_id and not is_manager:
                raise TableError("Only the host or a server manager can end this game.")
            t.status = TableStatus.CANCELLED
            t.deadline = None
            events.append(TableCancelled(by=user_id, reason="ended"))
            return Action("end", user_id=user_id)

        return await self._act(table_id, act)

    # ---- the channel, thread or server is gone (Discord said so) ------------------------------

    async def channel_gone(self, channel_id: int) -> list[int]:
        """The channel or thread was deleted: its table ends (cancelled, no result, never
        resumed) and its controls are refused in plain words. Returns the tables ended."""
        found = self.directory.find_table(channel_id)
        if found is None:
            return []
        await self._close_for(found.table_id, "channel deleted", GONE_CHANNEL)
        return [found.table_id]

    async def guild_gone(self, guild_id: int) -> list[int]:
        """The bot was removed from the server (not an outage): every table of it ends as in
        `channel_gone`. Returns the tables ended."""
        ended = []
        self._outages.server_removed(guild_id)
        for view in self.directory.tables():
            if view.guild_id == guild_id:
                await self._close_for(view.table_id, "bot removed", GONE_GUILD)
                ended.append(view.table_id)
        return ended

    async def _close_for(self, table_id: int, reason: str, refusal: Phrase) -> None:
        def act(t: LiveTable, events: list[Event]) -> Action:
            t.status = TableStatus.CANCELLED
            t.deadline = None
            events.append(TableCancelled(by=None, reason=reason))
            return Action("end", payload={"reason": reason})

        with contextlib.suppress(TableError):  # closed meanwhile
            await self._act(table_id, act)
        self.directory.closed_because(table_id, refusal)

    # ---- the gateway connection (bot/outages.py) ---------------------------------------------

    def pause_timers(self) -> None:
        """The bot lost the gateway: no interactions arrive, so no turn may time out."""
        self._outages.gateway_lost()

    async def resume_timers(self) -> None:
        """The gateway is back: every awaited turn gets the time it had left."""
        await self._outages.gateway_back()

    def pause_guild(self, guild_id: int) -> None:
        """A server is unavailable (an outage, not a removal): its turn timers pause."""
        self._outages.server_down(guild_id)

    async def resume_guild(self, guild_id: int) -> None:
        """The server is back: its awaited turns get the time they had left."""
        await self._outages.server_back(guild_id)

    # ---- life cycle ----------------------------------------------------------------------------

    async def resume_all(self, loaded: LoadedTables | None = None) -> ResumeReport:
        """Load every table in progress from the store, rebuild it, reschedule its timer and
        any pending computer move, and publish nothing (except a game found finished but not
        yet recorded, which is recorded and published). Broken tables are reported, marked in
        the store and skipped. `loaded`: the tables to resume instead of every one (a process
        of several resumes the tables it claimed, bot/shards.py); ones it hosts are skipped."""
        report = ResumeReport()
        if loaded is None:
            # the snapshots are read (and checked) once, by bot.resume.rebuild, not here as well
            loaded = await self.store.load_active_tables(validate=rules_readable)
        for broken in loaded.broken:
            log.warning("table %s cannot be resumed: %s", broken.table.id, broken.reason)
            report.broken.append((broken.table.id, broken.reason))
            report.channels[broken.table.id] = broken.table.channel_id
        new = [r for r in reversed(loaded.ok) if not self.directory.holds(r.id)]
        del loaded  # rows are let go as their tables are built, so the rows' memory is
        # reused by the tables': 100,000 rows and 100,000 tables are not held at once
        while new:
            # The logs of a few hundred games in one read, not three reads per table:
            # resuming 100,000 tables takes minutes, not an hour (docs/architecture.md
            # section 6). A table this process let go before is read one by one, as stored now.
            chunk = new[-RESUME_CHUNK:][::-1]
            del new[-RESUME_CHUNK:]
            logs = await self.store.logs_of([r for r in chunk if r.snapshot_json is not None
                                             and not self.directory.let_go(r.id)])
            kept = await self.store.kept_messages_of([r.id for r in chunk])
            for record in chunk:
                await self._resume_one(record, logs.pop(record.id, None),
                                       kept.pop(record.id, []), report)
        return report

    async def _resume_one(self, record: TableRecord, log_of: list[LoggedAction] | None,
                          kept: list[KeptMessage], report: ResumeReport) -> None:
        """Rebuild one stored table (`log_of`: its log, read after its row; `kept`: its
        message rows) and set it going."""
        if self.directory.let_go(record.id):
            # durability: a copy this process held may have been dropped (and saved)
            # since the row was read, so the table is rebuilt from the row as stored now.
            current = await self.store.get_table(record.id)
            if current is None or not current.is_open:
                return
            record, kept = current, await self.store.kept_messages(record.id)
        elif record.snapshot_json is not None and log_of is None:
            return  # saved since it was read: the next claim reads it again
        try:
            t = await rebuild(record, self.store, self.config, self.clock.now(), log_of, kept)
        except StaleTable:
            return  # saved meanwhile (a copy dropped here): the next claim reads it again
        except Exception as err:
            reason = f"{type(err).__name__}: {err}"
            log.exception("table %s cannot be resumed", record.id)
            with contextlib.suppress(StoreError):
                await self.store.mark_broken(record.id, reason)
            report.broken.append((record.id, reason))
            report.channels[record.id] = record.channel_id
            return
        self.directory.add(t)
        report.resumed.append(t.id)
        if t.status is TableStatus.PLAYING and t.game is not None:
            if t.game.phase is Phase.GAME_OVER:
                await self._runner.finish_found_over(t)
                return
            await self._runner.resume(t, self.clock.now())

    async def hand_over(self, table_ids: Sequence[int]) -> None:
        """Stop driving these tables: another process drives them now (bot/shards.py). Their
        timers and computers stop here, nothing is published or saved; waits for an action in
        progress on them to end."""
        for table_id in table_ids:
            if not self.directory.holds(table_id):
                continue
            await self._runner.hand_over(self.directory.get(table_id))

    async def wait_idle(self) -> None:
        """Wait until no change, computer move or message row is pending (tests, the
        terminal).

        Tasks waiting on the clock (turn timers, the computers' pacing delay) count as idle;
        once the clock wakes them, their work is waited for.
        """
        while True:
            busy = [*self._computers.working(), *(t.inbox.draining for t in self.directory.live()
                                                  if t.inbox.draining is not None)]
            if self.directory.messages.writing is not None:
                busy.append(self.directory.messages.writing)
            if busy:
                # Re-check often: a busy task may go to sleep on the clock (then it is idle).
                await asyncio.wait(busy, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            elif self._timers.busy:
                await asyncio.sleep(0.001)  # a timer is handling its moment: let it finish
            else:
                return

    async def close(self) -> None:
        """Stop timers and computer tasks; publish committed moves not told yet (a computer
        run stopped between its commits and its publish) and let the presenter deliver what it
        holds, so a restart shows every committed move; wait for the changes on their way;
        shut down an executor the service created (not one passed in). The store is the
        caller's."""
        await self._timers.close()
        await self._computers.close()
        await self.scheduler.close()
        await self._drain()  # a change that started ends (it may be a commit on its way)
        for t in self.directory.live():
            await self._runner.publish_committed(t)
        try:
            await self.presenter.close()
        except Exception:
            log.exception("the presenter failed to deliver its last updates")
        await self._drain()
        await self.directory.messages.close()  # the message ids of the last deliveries
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self.hint_desk.close()

    async def _drain(self) -> None:
        """Wait until every table's inbox is empty."""
        while draining := [t.inbox.draining for t in self.directory.live()
                           if t.inbox.draining is not None]:
            await asyncio.gather(*draining, return_exceptions=True)

    # ---- the action discipline -----------------------------------------------------------------

    def _get(self, table_id: int) -> LiveTable:
        return self.directory.get(table_id)

    async def _act(self, table_id: int, change: Change) -> TableView:
        """Run `change` through the table's runner: in its inbox, committed, then published;
        undone if the save fails."""
        return await self._runner.change(self._get(table_id), change)

    # ---- seats ---------------------------------------------------------------------------------

    def _vacate(self, t: LiveTable, seat: int, events: list[Event], reason: str) -> None:
        """Take a person out of a seat: gone in the lobby, a computer's mid-game."""
        s = t.seats[seat]
        user_id = s.user_id
        if t.status is TableStatus.LOBBY:
            del t.seats[seat]
            events.append(SeatsChanged(reason, seat, s.name, user_id))
        else:
            t.seats[seat] = LiveSeat(
                name=f"{s.name} (bot)",
                computer=self.config.replacement_level,
                replaced_user_id=user_id,
            )
            # who went and why (their DM says so), then who took the seat
            events.append(SeatsChanged(reason, seat, s.name, user_id))
            events.append(SeatsChanged("replaced", seat, t.seats[seat].name, None))
        humans = t.humans()
        if not humans:
            t.status = TableStatus.CANCELLED
            t.deadline = None
            events.append(TableCancelled(by=user_id, reason="everyone left"))
        elif user_id == t.host_id:
            new_host = t.seats[humans[0]].user_id
            assert new_host is not None  # humans() lists seats a person sits in
            t.host_id = new_host


# ---- helpers ------------------------------------------------------------------------------------

def _hand_guard(hand_number: int | None) -> Guard | None:
    return None if hand_number is None else Guard(hand_number)


def _computer_seat(seats: Sequence[LiveSeat], level: str) -> LiveSeat:
    taken = {s.name for s in seats}
    number = 1
    while f"Bot {number}" in taken:
        number += 1
    return LiveSeat(name=f"Bot {number}", computer=level)


__all__ = ["ResumeReport", "ServiceConfig", "TableError", "TableService"]
