"""The table service: every Oh Hell table the bot hosts, one per channel or thread.

It speaks ids and engine values only. Each action runs under its table's asyncio.Lock:
check it (the engine refuses illegal moves without changing the game), commit it to the
store together with its action-log row, and only then publish the events to the presenter.
A refusal raises TableError with a sentence for the player and changes nothing.

Computer seats think in an executor (never on the event loop) and a run of computer moves is
published as one batch. A person who does not act in time gets a warning at half time, then
the `medium` computer moves for them; after two timeouts in a row it keeps playing their seat
(autopilot) until they act again. Deadlines are stored, so timers survive a restart.

Where things live: this module has the public API and the act -> commit -> publish pipeline;
bot/timers.py the turn timers (TimerMixin); bot/computer_runs.py the computer players' runs
(ComputerRunsMixin); bot/moves.py applying a move to the engine; bot/table.py a table's live
state and its store row.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

from bot import computer
from bot import options as options_
from bot.clock import Clock, SystemClock
from bot.computer_runs import ComputerRunsMixin
from bot.errors import TableError
from bot.events import (
    Event,
    GameOver,
    GameStarted,
    RatingChange,
    SeatAutopiloted,
    SeatsChanged,
    Standing,
    TableCancelled,
    TableOpened,
    TurnChanged,
)
from bot.guard import Guard
from bot.models import TableOptions, TableStatus, TableView
from bot.moves import logged, sentence, take
from bot.narrate import hand_dealt, narrate
from bot.presenter import Presenter
from bot.table import LiveSeat, LiveTable
from bot.timers import TimerMixin
from data import Action, ChannelBusy, FinishedGame, Store, StoreError, TableRecord
from data import Seat as StoredSeat
from data import TableStatus as StoredStatus
from engine import (
    Bid,
    Card,
    Discard,
    Game,
    Move,
    NameTrump,
    Outcome,
    Phase,
    Play,
    PlayerView,
    Rules,
    Suit,
)

log = logging.getLogger(__name__)

@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Knobs of the service (the bot fills them from Settings; tests set delays to 0)."""

    default_turn_timeout: int = 120
    """Seconds per turn when the table does not say; 0 turns timers off."""
    computer_delay: float = 1.0
    """Pause before a run of computer moves, so people can follow; 0 in tests."""
    timeout_level: str = "medium"
    """The computer level that moves for a person whose time ran out (and on autopilot)."""
    autopilot_after: int = 2
    """Timeouts in a row after which a computer keeps playing the seat."""
    replacement_level: str = "medium"
    """The level of the computer that takes a kicked or departed person's seat."""


@dataclass(slots=True)
class ResumeReport:
    """What resume_all did: the tables brought back and the broken ones skipped (with why)."""

    resumed: list[int] = field(default_factory=list)
    broken: list[tuple[int, str]] = field(default_factory=list)


class TableService(TimerMixin, ComputerRunsMixin):
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
    ) -> None:
        """`store`: an open data.Store. `executor`: where computer players think (default: a
        one-thread pool owned by the service). `clock`: time source (tests pass ManualClock).
        `decide`: the computer's decision function (default bot.computer.decide; it must be
        picklable when the executor is a process pool).
        """
        self.store = store
        self.presenter = presenter
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self._own_executor = executor is None
        self._executor: Executor = executor or ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="ohhell-computer"
        )
        self._decide: computer.Decide = decide or computer.decide
        self._tables: dict[int, LiveTable] = {}
        self._by_channel: dict[int, int] = {}
        self._closed = False

    # ---- reads (synchronous, lock-free: safe inside publish) ----------------------------------

    def table(self, table_id: int) -> TableView:
        """The table's current view; TableError if there is no such active table."""
        return self._get(table_id).view()

    def table_for_channel(self, channel_id: int) -> TableView:
        """The active table in this channel or thread; TableError "There is no table in this
        channel." otherwise."""
        found = self.find_table(channel_id)
        if found is None:
            raise TableError("There is no table in this channel.")
        return found

    def find_table(self, channel_id: int) -> TableView | None:
        """The active table in this channel, or None (no error)."""
        table_id = self._by_channel.get(channel_id)
        return None if table_id is None else self._tables[table_id].view()

    def tables(self) -> list[TableView]:
        """Every active table (lobby or playing)."""
        return [t.view() for t in self._tables.values()]

    def hand_view(self, table_id: int, user_id: int) -> PlayerView:
        """What this person may see of the game: their own hand, legal bids and cards.
        TableError if they are not seated or the game has not been dealt."""
        t = self._get(table_id)
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("You are not in this game.")
        return self._seat_view(t, seat)

    def seat_view(self, table_id: int, seat: int) -> PlayerView:
        """The same by seat number (for the presenter that DMs each seat)."""
        t = self._get(table_id)
        if not 0 <= seat < len(t.seats):
            raise TableError(f"There is no seat {seat} at this table.")
        return self._seat_view(t, seat)

    def _seat_view(self, t: LiveTable, seat: int) -> PlayerView:
        if t.game is None:
            raise TableError("The cards have not been dealt yet.")
        return t.game.view(seat)

    # ---- lobby ---------------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions | None = None,
    ) -> TableView:
        """Open a table in this channel with the host in seat 0 (plus `options.bots` computer
        seats). TableError if the channel already has one, or the options are not valid
        (unknown preset or level)."""
        options = options or TableOptions()
        preset = options_.check_options(options)
        if channel_id in self._by_channel:
            raise TableError("There is already a table in this channel.")
        if 1 + options.bots > preset.max_players:
            raise TableError(
                f"{options.preset} seats at most {preset.max_players} players, "
                f"so {options.bots} computer players do not fit beside you."
            )
        seats = [LiveSeat(name=host_name, user_id=host_id)]
        for _ in range(options.bots):
            seats.append(_computer_seat(seats, options.bot_level))
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
            turn_timeout=self._timeout_of(options),
        )
        self._tables[t.id] = t
        self._by_channel[channel_id] = t.id
        async with t.lock:
            await self._publish(t, [TableOpened(table_id=t.id, host_id=host_id)])
        return t.view()

    async def join(self, table_id: int, user_id: int, name: str) -> TableView:
        """Take a seat in the lobby. TableError: already seated, table full, game started."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            self._need_lobby(t)
            if t.seat_of(user_id) is not None:
                raise TableError("You are already at this table.")
            limit = Rules.preset(t.options.preset).max_players
            if len(t.seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            t.seats.append(LiveSeat(name=name, user_id=user_id))
            seat = len(t.seats) - 1
            events.append(SeatsChanged("join", seat, name, user_id))
            return Action("join", seat=seat, user_id=user_id, payload={"name": name})

        return await self._act(table_id, act)

    async def leave(self, table_id: int, user_id: int) -> TableView:
        """Leave: in the lobby the seat goes (if the host leaves, the next person becomes host;
        with no person left the table is cancelled); mid-game a computer takes the seat."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            seat = self._need_seat(t, user_id)
            self._vacate(t, seat, events, "leave")
            return Action("leave", seat=seat, user_id=user_id)

        return await self._act(table_id, act)

    async def add_computer(
        self, table_id: int, user_id: int, level: str | None = None
    ) -> TableView:
        """Host only, lobby only: add a computer seat (`level`: random/easy/medium/hard,
        default the table's bot level)."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            self._need_lobby(t)
            self._need_host(t, user_id, "add computer players")
            chosen = level or t.options.bot_level
            options_.check_level(chosen)
            limit = Rules.preset(t.options.preset).max_players
            if len(t.seats) >= limit:
                raise TableError(f"The table is full ({limit} seats).")
            t.seats.append(_computer_seat(t.seats, chosen))
            seat = len(t.seats) - 1
            events.append(SeatsChanged("add_computer", seat, t.seats[seat].name, None))
            return Action("add_computer", seat=seat, user_id=user_id, payload={"level": chosen})

        return await self._act(table_id, act)

    async def deal(self, table_id: int, user_id: int) -> TableView:
        """Host only: start the game with the seats as they are (min..max players of the
        preset), dealing the first hand."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            self._need_lobby(t)
            self._need_host(t, user_id, "deal")
            players = len(t.seats)
            rules = options_.rules_for(t.options)
            if players < max(3, rules.min_players):
                raise TableError(
                    f"{rules.name} needs at least {max(3, rules.min_players)} players; "
                    f"there are {players}. Ask others to join or add computer players."
                )
            problem = rules.problem(players)
            if problem:
                raise TableError(problem)
            seed = t.options.seed if t.options.seed is not None else secrets.randbits(31)
            try:
                game = Game.new(players=players, rules=rules, seed=seed)
            except ValueError as err:
                raise TableError(str(err)) from None
            t.rules = rules
            t.game = game
            t.status = TableStatus.PLAYING
            events.append(GameStarted(players=players, preset=rules.name))
            events.append(hand_dealt(game))
            return Action("deal", user_id=user_id, payload={"seed": seed, "players": players})

        return await self._act(table_id, act, moved=True)

    # ---- play: one path for every move ---------------------------------------------------------

    async def act(
        self, table_id: int, user_id: int, move: Move, guard: Guard | None = None
    ) -> TableView:
        """A person's move. `guard`: the decision the control was made for (None: whatever is
        awaited now, as a slash command means). TableError, changing nothing: a stale or second
        use of a control, not your turn, not this step, or the engine's reason."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            game = self._need_game(t)
            seat = self._need_seat(t, user_id)
            if guard is not None:
                self._need_fresh(t, game, seat, guard)
            self._need_turn(t, game, seat, move)
            s = t.seats[seat]
            if s.autopilot:
                s.autopilot = False
                events.append(SeatAutopiloted(seat, False))
            s.timeouts = 0
            action, told = self._take(t, seat, move, user_id=user_id)
            events.extend(told)
            return action

        return await self._act(table_id, act, moved=True)

    async def bid(
        self, table_id: int, user_id: int, tricks: int, hand_number: int | None = None
    ) -> TableView:
        """Bid `tricks` (a door onto `act`; `hand_number`: refused once that hand is over)."""
        return await self.act(table_id, user_id, Bid(tricks), _hand_guard(hand_number))

    async def play(
        self, table_id: int, user_id: int, card: Card | str, hand_number: int | None = None
    ) -> TableView:
        """Play a card (a Card, or text like "10h", "TH", "10♥"); a door onto `act`."""
        return await self.act(table_id, user_id, Play(_card(card)), _hand_guard(hand_number))

    async def choose_trump(
        self, table_id: int, user_id: int, suit: Suit | str, hand_number: int | None = None
    ) -> TableView:
        """The dealer names trump (variant phase); `suit` a Suit or a letter/name/symbol."""
        if isinstance(suit, str):
            try:
                suit = Suit.parse(suit)
            except ValueError as err:
                raise TableError(sentence(str(err))) from None
        return await self.act(table_id, user_id, NameTrump(suit), _hand_guard(hand_number))

    async def discard(
        self,
        table_id: int,
        user_id: int,
        cards: Sequence[Card | str],
        hand_number: int | None = None,
    ) -> TableView:
        """Discard face down (variant phase); a door onto `act`."""
        move = Discard(tuple(_card(card) for card in cards))
        return await self.act(table_id, user_id, move, _hand_guard(hand_number))

    async def take_back(self, table_id: int, user_id: int) -> TableView:
        """A person on autopilot takes their seat back (bidding or playing does it too)."""

        def act(t: LiveTable, events: list[Event]) -> Action | None:
            seat = self._need_seat(t, user_id)
            s = t.seats[seat]
            if not s.autopilot:
                raise TableError("You are already playing your own seat.")
            s.autopilot = False
            s.timeouts = 0
            events.append(SeatAutopiloted(seat, False))
            return Action("take_back", seat=seat, user_id=user_id)

        return await self._act(table_id, act)

    # ---- control -------------------------------------------------------------------------------

    async def kick(self, table_id: int, user_id: int, target_id: int) -> TableView:
        """Host only: in the lobby the target's seat goes; mid-game a computer takes it."""

        def act(t: LiveTable, events: list[Event]) -> Action:
            self._need_host(t, user_id, "remove players")
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

    # ---- presenter bookkeeping (synchronous; persisted soon after, safe inside publish) ---------

    def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Remember the channel message that shows this table (edited in place)."""
        t = self._tables.get(table_id)
        if t is None or t.message_id == message_id:
            return
        t.message_id = message_id
        self._flush_soon(t)

    def set_dm_message(
        self,
        table_id: int,
        user_id: int,
        hand_number: int,
        message_id: int | None,
        channel_id: int | None = None,
    ) -> None:
        """Remember this person's DM hand message for `hand_number` (ignored when that hand is
        no longer the one in play)."""
        t = self._tables.get(table_id)
        if t is None or t.game is None or t.game.hand_number != hand_number:
            return
        seat = t.seat_of(user_id)
        if seat is None:
            return
        s = t.seats[seat]
        s.dm_message_id = message_id
        if channel_id is not None:
            s.dm_channel_id = channel_id
        self._flush_soon(t)

    def set_dm_failed(self, table_id: int, user_id: int) -> None:
        """This person's DMs are closed: presenters stop trying for this game."""
        t = self._tables.get(table_id)
        seat = None if t is None else t.seat_of(user_id)
        if t is None or seat is None or t.seats[seat].dm_failed:
            return
        t.seats[seat].dm_failed = True
        t.seats[seat].dm_message_id = None
        t.pending_log.append(("dm_failed", {"user_id": user_id}))  # audit; state is in meta
        self._flush_soon(t)

    # ---- life cycle ----------------------------------------------------------------------------

    async def resume_all(self) -> ResumeReport:
        """Load every table in progress from the store, rebuild it, reschedule its timer and
        any pending computer move, and publish nothing (except a game found finished but not
        yet recorded, which is recorded and published). Broken tables are reported, marked in
        the store and skipped."""
        report = ResumeReport()
        loaded = await self.store.load_active_tables()
        for broken in loaded.broken:
            log.warning("table %s cannot be resumed: %s", broken.table.id, broken.reason)
            report.broken.append((broken.table.id, broken.reason))
        for record in loaded.ok:
            if record.id in self._tables:
                continue
            try:
                t = await self._rebuild(record)
            except Exception as err:
                reason = f"{type(err).__name__}: {err}"
                log.exception("table %s cannot be resumed", record.id)
                with contextlib.suppress(StoreError):
                    await self.store.mark_broken(record.id, reason)
                report.broken.append((record.id, reason))
                continue
            self._tables[t.id] = t
            self._by_channel[t.channel_id] = t.id
            report.resumed.append(t.id)
            if t.status is TableStatus.PLAYING and t.game is not None:
                if t.game.phase is Phase.GAME_OVER:
                    async with t.lock:
                        events: list[Event] = []
                        await self._finish(t, events, None)
                        self._disarm(t)
                        await self._publish(t, events)
                        self._forget_if_closed(t)
                    continue
                self._arm_timer(t)
                self._wake_computers(t)
        return report

    async def _rebuild(self, record: TableRecord) -> LiveTable:
        """A LiveTable from its row: options and DM failures come from the row's meta."""
        if "options" in record.meta:
            options = TableOptions.model_validate(record.meta["options"])
        else:
            record = await self._meta_from_log(record)
            options = TableOptions.model_validate(record.meta["options"])
        t = LiveTable.from_record(record, options, self._timeout_of(options))
        if t.status is TableStatus.PLAYING and t.game is None:
            raise ValueError("a game in play has no snapshot")
        if t.game is not None and t.game.players != len(t.seats):
            raise ValueError(f"the snapshot has {t.game.players} seats, the table {len(t.seats)}")
        if t.deadline is not None and t.game is not None:
            # The warning moment may have passed while the bot was down: warn no more.
            t.warned = self.clock.now() >= t.deadline - timedelta(seconds=t.turn_timeout / 2)
        return t

    async def _meta_from_log(self, record: TableRecord) -> TableRecord:
        """FALLBACK for tables stored before migration 0003 (their meta is {}): read options,
        DM failures and the people computers replaced mid-game back from the action log. The
        table's next save writes them into meta, so this runs at most once per such table that
        acts. Remove once no database from before 0003 is in use."""
        options: dict[str, Any] = {}
        failed: set[int] = set()
        replaced: dict[str, int] = {}
        dealt = False
        for entry in await self.store.actions(record.id):
            if entry.action == "open":
                options = dict(entry.payload.get("options", {}))
            elif entry.action == "dm_failed":
                failed.add(int(entry.payload["user_id"]))
            elif entry.action == "deal":
                dealt = True
            elif dealt and entry.seat is not None and entry.action in ("leave", "kick"):
                who = entry.payload.get("target") if entry.action == "kick" else entry.user_id
                if who is not None:
                    replaced[str(entry.seat)] = int(who)
        seats = [i for i, s in enumerate(record.seats) if s.user_id in failed]
        meta = {**record.meta, "options": options, "dm_failed_seats": seats,
                "replaced_user_ids": replaced}
        return replace(record, meta=meta)

    async def wait_idle(self) -> None:
        """Wait until no computer move or bookkeeping save is pending (tests, the terminal).

        Tasks waiting on the clock (turn timers, the computers' pacing delay) count as idle;
        once the clock wakes them, their work is waited for.
        """
        while True:
            tables = list(self._tables.values())
            busy = [
                task
                for t in tables
                for task in (None if t.runner_waiting else t.runner, t.flusher)
                if task is not None and not task.done()
            ]
            if busy:
                # Re-check often: a busy task may go to sleep on the clock (then it is idle).
                await asyncio.wait(busy, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            elif any(t.timer_busy for t in tables):
                await asyncio.sleep(0.001)  # a timer is handling its moment: let it finish
            else:
                return

    async def close(self) -> None:
        """Stop timers and computer tasks; publish committed moves not told yet (a computer
        run stopped between its commits and its publish) and let the presenter deliver what it
        holds, so a restart shows every committed move; wait for pending bookkeeping saves;
        shut down an executor the service created (not one passed in). The store is the
        caller's."""
        self._closed = True
        tasks: list[asyncio.Task[None]] = []
        for t in self._tables.values():
            for task in (t.timer, t.runner):
                if task is not None and not task.done():
                    task.cancel()
                    tasks.append(task)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for t in list(self._tables.values()):
            if t.unpublished:
                async with t.lock:
                    events: list[Event] = []
                    if t.status.active:
                        await self._settle(t, events, moved=True)  # whose turn it is now
                    await self._publish(t, events)
        try:
            await self.presenter.close()
        except Exception:
            log.exception("the presenter failed to deliver its last updates")
        flushers = [t.flusher for t in self._tables.values()
                    if t.flusher is not None and not t.flusher.done()]
        if flushers:
            await asyncio.gather(*flushers, return_exceptions=True)
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # ---- the action discipline -----------------------------------------------------------------

    def _get(self, table_id: int) -> LiveTable:
        t = self._tables.get(table_id)
        if t is None:
            raise TableError("This table is closed: the game is over or was ended.")
        return t

    async def _act(
        self,
        table_id: int,
        act: Callable[[LiveTable, list[Event]], Action | None],
        *,
        moved: bool = False,
    ) -> TableView:
        """Run `act` under the lock, commit, then publish; undo everything if the save fails."""
        t = self._get(table_id)
        async with t.lock:
            if not t.status.active:
                raise TableError("This table is closed: the game is over or was ended.")
            events: list[Event] = []
            memento = t.memento()
            try:
                action = act(t, events)
            except TableError:
                t.restore(memento, game=False)  # refusals come before any change to the game
                raise
            try:
                await self._commit(t, action, events, moved=moved)
            except BaseException:
                t.restore(memento)
                raise
            await self._settle(t, events, moved=moved)
            await self._publish(t, events)
            self._forget_if_closed(t)
            return t.view()

    def _take(
        self,
        t: LiveTable,
        seat: int,
        move: Move,
        *,
        user_id: int | None = None,
        by: str | None = None,
        level: str | None = None,
    ) -> tuple[Action, list[Event]]:
        """The one place a move meets the engine (people, computers and timeouts alike):
        apply it, narrate what the engine says it caused, and write its log row."""
        game = t.game
        assert game is not None
        dealer = game.dealer
        outcome: Outcome = take(game, seat, move)
        t.seats[seat].computer_guard = None if by is None else Guard.taken(outcome)
        return logged(outcome, user_id=user_id, by=by, level=level), narrate(outcome, dealer)

    async def _commit(
        self, t: LiveTable, action: Action | None, events: list[Event], *, moved: bool
    ) -> None:
        """Save the table and its action in one transaction, with the deadline of the turn
        that follows; a game that just ended is recorded (results, ratings) in that same
        transaction. Waiting bookkeeping rows go with it."""
        if action is not None:
            t.revision += 1  # a computer deciding meanwhile must plan again
        game = t.game
        if t.status is TableStatus.PLAYING and game is not None:
            if game.phase is Phase.GAME_OVER:
                await self._finish(t, events, action)
                return
            t.deadline_changed = self._update_deadline(t, moved=moved)
            if game.hand_number != t.dm_hand:
                # A new hand gets new DM hand messages: the stored ids always belong to the
                # stored hand (the DM channels stay).
                for seat in t.seats:
                    seat.dm_message_id = None
                t.dm_hand = game.hand_number
        else:
            t.deadline_changed = t.deadline is not None
            t.deadline = None
        record = t.record(self.config.timeout_level)
        pending = t.pending_log
        if pending and action is None:
            name, payload = pending[0]
            action, pending = Action(name, payload=payload), pending[1:]
        await self.store.save_table(record, action)
        for name, payload in pending:
            await self.store.save_table(record, Action(name, payload=payload))
        t.pending_log = []
        t.version += 1 + len(pending)
        t.saved_game_json = record.snapshot_json

    async def _settle(self, t: LiveTable, events: list[Event], *, moved: bool) -> None:
        """After a commit: (re)set the turn timer, wake the computers, say whose turn it is."""
        game = t.game
        if t.status is not TableStatus.PLAYING or game is None:
            self._disarm(t)
            return
        self._arm_timer(t)
        self._wake_computers(t)
        if moved or t.deadline_changed:
            events.append(
                TurnChanged(
                    seats=tuple(game.actor_seats()),
                    awaits=game.phase.awaits,
                    hand_number=game.hand_number,
                    deadline=t.deadline,
                )
            )

    async def _finish(self, t: LiveTable, events: list[Event], action: Action | None) -> None:
        """Record a finished game (result and ratings in one transaction) and announce it."""
        game = t.game
        assert game is not None and t.rules is not None
        t.deadline = None
        record = t.record(self.config.timeout_level)
        people_seats = tuple(
            StoredSeat(name=s.name, user_id=s.user_id, computer_level=s.computer) for s in t.seats
        )
        result = FinishedGame.from_engine(game, t.rules, people_seats)
        try:
            recorded = await self.store.finish_game(record, result, action)
            changes = tuple(
                RatingChange(
                    user_id=c.user_id,
                    before=c.ordinal_before,
                    after=c.ordinal_after,
                    name=c.name,
                )
                for c in recorded.rating_changes
            )
        except StoreError:
            # A result the store refuses must not keep the game open for ever: close it
            # without a result (this raises, and so undoes the move, if even that fails).
            log.exception("could not record the finished game at table %s", t.id)
            await self.store.save_table(replace(record, status=StoredStatus.FINISHED), action)
            changes = ()
        t.status = TableStatus.FINISHED
        t.version += 1
        t.saved_game_json = record.snapshot_json
        t.pending_log = []
        standings = tuple(
            sorted(
                (
                    Standing(
                        place=r.placing,
                        seat=r.seat,
                        name=r.name,
                        user_id=t.seats[r.seat].user_id,
                        score=r.total,
                    )
                    for r in result.seats
                ),
                key=lambda s: (s.place, s.seat),
            )
        )
        events.append(
            GameOver(standings=standings, winners=tuple(game.winners), rating_changes=changes)
        )

    async def _publish(self, t: LiveTable, events: list[Event]) -> None:
        """Hand committed events to the presenter; its failure never undoes the action."""
        if t.unpublished:  # committed computer moves not told yet go first
            events = [*t.unpublished, *events]
            t.unpublished = []
        if not events:
            return
        try:
            await self.presenter.publish(t.view(), events)
        except Exception:
            log.exception("presenter failed on table %s", t.id)

    def _forget_if_closed(self, t: LiveTable) -> None:
        if t.status.active:
            return
        self._disarm(t)
        self._tables.pop(t.id, None)
        if self._by_channel.get(t.channel_id) == t.id:
            del self._by_channel[t.channel_id]

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
            events.append(SeatsChanged("replaced", seat, t.seats[seat].name, None))
        humans = t.humans()
        if not humans:
            t.status = TableStatus.CANCELLED
            t.deadline = None
            events.append(TableCancelled(by=user_id, reason="everyone left"))
        elif user_id == t.host_id:
            t.host_id = t.seats[humans[0]].user_id  # type: ignore[assignment]

    # ---- checks (raise TableError, change nothing) ---------------------------------------------

    def _need_lobby(self, t: LiveTable) -> None:
        if t.status is not TableStatus.LOBBY:
            raise TableError("The game has already started.")

    def _need_host(self, t: LiveTable, user_id: int, what: str) -> None:
        if user_id != t.host_id:
            raise TableError(f"Only the host can {what}.")

    def _need_seat(self, t: LiveTable, user_id: int) -> int:
        seat = t.seat_of(user_id)
        if seat is None:
            raise TableError("You are not in this game.")
        return seat

    def _need_game(self, t: LiveTable) -> Game:
        game = t.game
        if t.status is TableStatus.LOBBY or game is None:
            raise TableError("The game has not started yet.")
        if game.phase is Phase.GAME_OVER:
            raise TableError("This game is over.")
        return game

    def _need_fresh(self, t: LiveTable, game: Game, seat: int, guard: Guard) -> None:
        """Refuse a control whose decision is taken (a stale menu, a second pick)."""
        if guard.hand_number != game.hand_number:
            raise TableError(
                f"That was for hand {guard.hand_number}; hand {game.hand_number} is in play now."
            )
        if guard.step is None:
            return
        done = _done_at(game, seat, guard)
        if done is not None:
            if t.seats[seat].computer_guard == guard:
                raise TableError(f"That menu is out of date: a computer {done} for you.")
            raise TableError(f"That menu is out of date: you already {done}.")
        if not guard.covers(Guard.of(game.public_state())):
            raise TableError("That menu is out of date: the game has moved on.")

    def _need_turn(self, t: LiveTable, game: Game, seat: int, move: Move) -> None:
        expected = game.phase.awaits
        if expected is None or not isinstance(move, expected):
            raise TableError(_NOT_NOW.get(expected, "That is not possible now."))
        actors = game.actor_seats()
        if seat not in actors:
            if game.phase.simultaneous:
                raise TableError(
                    "You have already bid this hand."
                    if isinstance(move, Bid)
                    else "You have already discarded this hand."
                )
            names = ", ".join(t.seats[a].name for a in actors)
            raise TableError(f"It is not your turn: waiting for {names}.")

    # ---- bookkeeping saves ---------------------------------------------------------------------

    def _flush_soon(self, t: LiveTable) -> None:
        """Persist message ids and DM failures soon, under the lock, coalescing requests."""
        if t.flusher is not None and not t.flusher.done():
            return
        t.flusher = asyncio.get_running_loop().create_task(self._flush(t))

    async def _flush(self, t: LiveTable) -> None:
        try:
            async with t.lock:
                if t.flusher is asyncio.current_task():
                    t.flusher = None
                if not t.status.active:
                    return
                await self._commit(t, None, [], moved=False)
        except Exception:
            log.exception("could not save bookkeeping of table %s", t.id)
        finally:
            if t.flusher is asyncio.current_task():
                t.flusher = None


# ---- helpers ------------------------------------------------------------------------------------

_NOT_NOW: dict[type[Move] | None, str] = {
    Bid: "It is time to bid, not to do that.",
    Play: "It is time to play a card, not to do that.",
    NameTrump: "The dealer is choosing trump now.",
    Discard: "It is time to discard.",
}


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(card)
    except ValueError as err:
        raise TableError(sentence(str(err))) from None


def _hand_guard(hand_number: int | None) -> Guard | None:
    return None if hand_number is None else Guard(hand_number)


def _done_at(game: Game, seat: int, guard: Guard) -> str | None:
    """What `seat` did at the decision `guard` names in the hand in play ("played K♣"), or
    None when it has not taken that decision. Names only cards already on the table."""
    if guard.step == "p":
        tricks = game.tricks_played
        trick = (tricks[guard.trick_number - 1] if 0 < guard.trick_number <= len(tricks)
                 else game.current_trick if guard.trick_number == game.trick_number else [])
        card = next((c for s, c in trick if s == seat), None)
        return None if card is None else f"played {card}"
    if guard.step == "b":
        bid = game.bids[seat]
        return None if bid is None else f"bid {bid}"
    if guard.step == "n":
        suit = game.trump_suit
        if seat != game.dealer or game.phase is Phase.TRUMP_CHOICE or suit is None:
            return None
        return f"named {suit.label} trump"
    if guard.step == "d":
        return "discarded" if game.discarded[seat] else None
    return None


def _computer_seat(seats: Sequence[LiveSeat], level: str) -> LiveSeat:
    taken = {s.name for s in seats}
    number = 1
    while f"Bot {number}" in taken:
        number += 1
    return LiveSeat(name=f"Bot {number}", computer=level)


__all__ = ["ResumeReport", "ServiceConfig", "TableError", "TableService"]
