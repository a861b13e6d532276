"""A table's live state inside the service, and its conversion to and from store rows.

Only the service touches these (from the table's inbox); presenters get frozen TableViews.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta

from bot.events import Event
from bot.guard import Guard
from bot.inbox import Inbox
from bot.models import SeatView, TableOptions, TableStatus, TableView
from data import Seat as StoredSeat
from data import TableRecord
from data import TableStatus as StoredStatus
from engine import Game, Phase, PlayerView, Rules


@dataclass(slots=True)
class LiveSeat:
    """One seat as the service keeps it (mutable)."""

    name: str
    user_id: int | None = None
    computer: str | None = None
    autopilot: bool = False
    timeouts: int = 0
    dm_message_id: int | None = None
    dm_channel_id: int | None = None
    dm_failed: bool = False
    replaced_user_id: int | None = None
    computer_guard: Guard | None = None
    """The decision a computer last took for this person's seat (timeout, autopilot): a
    refused stale control says so."""

    def copy(self) -> LiveSeat:
        """A copy to put back if an action's save fails (the fields are immutable values:
        a shallow copy, made field by field, a third of `copy.copy`'s cost)."""
        return LiveSeat(*[getattr(self, name) for name in _LIVE_SEAT_FIELDS])

    @property
    def human(self) -> bool:
        """A person sits here (maybe on autopilot)."""
        return self.user_id is not None

    @property
    def computer_plays(self) -> bool:
        """A computer makes this seat's moves now (a computer seat, or autopilot)."""
        return self.user_id is None or self.autopilot


_LIVE_SEAT_FIELDS = tuple(f.name for f in fields(LiveSeat))


@dataclass(frozen=True, slots=True)
class Memento:
    """A table's state before an action, to put back if the action's save fails."""

    status: TableStatus
    host_id: int
    seats: list[LiveSeat]
    rules: Rules | None
    had_game: bool
    deadline: datetime | None
    deadline_phase: tuple[int, Phase] | None
    warned: bool
    dm_hand_number: int | None


@dataclass(slots=True, eq=False)
class LiveTable:
    """A table in the service's memory: the game, the seats, and the tasks that serve it."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    options: TableOptions
    status: TableStatus = TableStatus.LOBBY
    seats: list[LiveSeat] = field(default_factory=list)
    message_id: int | None = None
    rules: Rules | None = None
    game: Game | None = None
    deadline: datetime | None = None
    deadline_phase: tuple[int, Phase] | None = None
    """(hand number, phase) the deadline was set in: simultaneous steps keep one deadline."""
    warned: bool = False
    dm_hand_number: int | None = None
    """The hand the seats' DM message ids belong to."""
    deadline_changed: bool = False
    """The last commit set a new deadline (or cleared it)."""
    saves: int = 0
    """Saves of this table's row so far (every commit; message ids are rows of their own)."""
    moves: int = 0
    """Grows with every committed action (not a save without one): a computer's decision made
    outside the lock is applied only if the count it was planned at is still current."""
    unpublished: list[Event] = field(default_factory=list)
    """Events of committed moves not yet published; the next publish tells them first."""
    turn_timeout: int = 0
    saved_game_json: str | None = None
    """The snapshot last committed: a failed save puts the game back to it. A resumed table
    holds none until it changes (`memento` writes it then): 100,000 waiting tables do not keep
    their snapshots twice, as the game and as text."""
    last_moved: bool = False
    """The last commit was a move or the deal (a new turn to announce)."""
    computer_retry: float = 0.0
    """Seconds the last retry of a computer move that failed to save waited (0: none)."""
    inbox: Inbox = field(default_factory=Inbox)
    """Every change to this table runs here, in order (bot/runner.py)."""
    rules_text: tuple[Rules, str] | None = None
    """The rules last written to a record and their JSON: a game's rules never change, and the
    row is saved after every move."""
    seat_views: tuple[Game, dict[int, PlayerView]] | None = None
    """Seat views of the game as it stands (`seat_view`), until the next change: a move's
    publish and the answer to it want the same seats' views (the mover's, the next actor's)."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a person, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def humans(self) -> list[int]:
        """The seats where a person sits."""
        return [i for i, s in enumerate(self.seats) if s.human]

    def awaited_people(self) -> list[int]:
        """The awaited seats that a person plays themself now (the timer runs for them)."""
        game = self.game
        if game is None or game.phase is Phase.GAME_OVER:
            return []
        return [seat for seat in game.actor_seats() if not self.seats[seat].computer_plays]

    def next_deadline(self, now: datetime, *, moved: bool) -> bool:
        """Set the deadline for whoever is awaited now; True when it changed.

        A move starts a new turn (a new deadline), except in the simultaneous steps where
        the same deadline covers everyone still to bid or discard.
        """
        game = self.game
        people = self.awaited_people()
        new: datetime | None
        if not people or self.turn_timeout <= 0:
            new = None
        elif self.deadline is not None and (
            not moved
            or (
                game is not None
                and game.phase.simultaneous
                and self.deadline_phase == (game.hand_number, game.phase)
            )
        ):
            new = self.deadline
        else:
            new = now + timedelta(seconds=self.turn_timeout)
        if game is not None:
            self.deadline_phase = (game.hand_number, game.phase)
        if new == self.deadline:
            return False
        self.deadline = new
        self.warned = False
        return True

    # -- rollback --------------------------------------------------------------------------------

    def memento(self) -> Memento:
        """What an action may change, to put back if its save fails."""
        if self.game is not None and self.saved_game_json is None:
            self.saved_game_json = self.game.to_json()  # resumed: its first change since
        return Memento(
            status=self.status,
            host_id=self.host_id,
            seats=[seat.copy() for seat in self.seats],
            rules=self.rules,
            had_game=self.game is not None,
            deadline=self.deadline,
            deadline_phase=self.deadline_phase,
            warned=self.warned,
            dm_hand_number=self.dm_hand_number,
        )

    def changing(self) -> None:
        """The table is about to change (Ledger.apply): the views kept of it are out of date."""
        self.seat_views = None

    def seat_view(self, seat: int) -> PlayerView:
        """What `seat` may see of the game (kept until the next change); ValueError for a
        seat the game does not have. The game must be dealt."""
        game = self.game
        assert game is not None
        kept = self.seat_views
        if kept is None or kept[0] is not game:
            kept = self.seat_views = (game, {})
        view = kept[1].get(seat)
        if view is None:
            view = kept[1][seat] = game.view(seat)
        return view

    def restore(self, memento: Memento, *, game: bool = True) -> None:
        """Undo an action whose save failed; the game comes back from the last snapshot
        (`game=False`: the action was refused before it touched the game)."""
        self.seat_views = None
        m = memento
        self.status, self.host_id, self.seats, self.rules = m.status, m.host_id, m.seats, m.rules
        self.deadline, self.deadline_phase, self.warned = m.deadline, m.deadline_phase, m.warned
        self.dm_hand_number = m.dm_hand_number
        if not game:
            if not m.had_game:
                self.game = None
            return
        if m.had_game and self.saved_game_json is not None:
            self.game = Game.from_json(self.saved_game_json)
        else:
            self.game = None

    # -- views and records -----------------------------------------------------------------------

    def view(self) -> TableView:
        """A frozen, public snapshot of the table now."""
        game = self.game
        hand_number = game.hand_number if game is not None else None
        return TableView(
            table_id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            message_id=self.message_id,
            host_id=self.host_id,
            status=self.status,
            options=self.options,
            rules=self.rules,
            seats=tuple(
                SeatView(
                    seat=i,
                    name=s.name,
                    user_id=s.user_id,
                    computer=s.computer,
                    autopilot=s.autopilot,
                    timeouts_in_row=s.timeouts,
                    dm_message_id=s.dm_message_id,
                    dm_hand_number=hand_number if s.dm_message_id is not None else None,
                    dm_failed=s.dm_failed,
                    dm_channel_id=s.dm_channel_id,
                    replaced_user_id=s.replaced_user_id,
                )
                for i, s in enumerate(self.seats)
            ),
            state=game.public_state() if game is not None else None,
            deadline=self.deadline,
            warned=self.warned,
            saves=self.saves,
        )

    def stored_seats(self, autopilot_level: str) -> tuple[StoredSeat, ...]:
        """Seats as the store keeps them: autopilot = a person's id with a computer level."""
        return tuple(
            StoredSeat(
                name=s.name,
                user_id=s.user_id,
                computer_level=s.computer
                if s.user_id is None
                else (autopilot_level if s.autopilot else None),
                hand_message_id=s.dm_message_id,
                dm_channel_id=s.dm_channel_id,
                timeouts=s.timeouts,
            )
            for s in self.seats
        )

    def rules_json(self) -> str:
        """The rules in force, or the preset's in the lobby (the store wants valid Rules)."""
        rules = self.rules if self.rules is not None else Rules.preset(self.options.preset)
        if self.rules_text is None or self.rules_text[0] is not rules:
            self.rules_text = (rules, rules.model_dump_json())
        return self.rules_text[1]

    def meta(self) -> dict[str, object]:
        """The service's own data kept in the table row (TableRecord.meta, migration 0003):
        the host's options, the seats whose DMs are closed, and who had each seat a computer
        took over (seat number as text -> user id: JSON keys are text)."""
        return {
            "options": self.options.model_dump(mode="json"),
            "dm_failed_seats": [i for i, s in enumerate(self.seats) if s.dm_failed],
            "replaced_user_ids": {str(i): s.replaced_user_id for i, s in enumerate(self.seats)
                                  if s.replaced_user_id is not None},
        }

    def record(self, autopilot_level: str) -> TableRecord:
        """The whole table as a store row."""
        return TableRecord(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            status=StoredStatus(self.status.value),
            rules_json=self.rules_json(),
            seats=self.stored_seats(autopilot_level),
            message_id=self.message_id,
            snapshot_json=self.game.to_json() if self.game is not None else None,
            turn_deadline=self.deadline.timestamp() if self.deadline is not None else None,
            saves=self.saves,
            meta=self.meta(),
        )

    @classmethod
    def from_record(
        cls, record: TableRecord, options: TableOptions, turn_timeout: int,
        game: Game | None = None,
    ) -> LiveTable:
        """Rebuild a table from its stored row; `options` as read by the service (from the
        row's meta). Seats listed in meta["dm_failed_seats"] get dm_failed, and
        meta["replaced_user_ids"] gives back who had a seat before a computer took it.
        `game`: the row's snapshot already read (None: read here)."""
        status = TableStatus(record.status.value)
        if game is None and record.snapshot_json is not None:
            game = Game.from_json(record.snapshot_json)
        rules = rules_of(record.rules_json) if game is not None else None
        failed = {int(i) for i in record.meta.get("dm_failed_seats", ())}
        replaced = {int(i): int(u) for i, u in record.meta.get("replaced_user_ids", {}).items()}
        seats = [
            LiveSeat(
                name=s.name,
                user_id=s.user_id,
                computer=s.computer_level if s.user_id is None else None,
                autopilot=s.user_id is not None and s.computer_level is not None,
                timeouts=s.timeouts,
                dm_message_id=s.hand_message_id,
                dm_channel_id=s.dm_channel_id,
                dm_failed=i in failed,
                replaced_user_id=replaced.get(i),
            )
            for i, s in enumerate(record.seats)
        ]
        deadline = (
            datetime.fromtimestamp(record.turn_deadline, UTC)
            if record.turn_deadline is not None
            else None
        )
        return cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            options=options,
            status=status,
            seats=seats,
            message_id=record.message_id,
            rules=rules,
            game=game,
            deadline=deadline,
            saves=record.saves,
            dm_hand_number=game.hand_number if game is not None else None,
            turn_timeout=turn_timeout,
        )


@functools.lru_cache(maxsize=256)
def rules_of(rules_json: str) -> Rules:
    """A table row's rules; tables with the same rules share one (frozen) object, so 100,000
    resumed tables hold a few Rules, not 100,000 (docs/architecture.md section 6)."""
    return Rules.model_validate_json(rules_json)


OPTIONS_KEPT = 1024
"""Distinct stored options whose one read object tables share (most tables share a few)."""
_OPTIONS_READ: dict[str, TableOptions] = {}


def options_of(stored: object) -> TableOptions:
    """A table row's options (meta["options"]); tables with the same options share one
    (frozen) object."""
    key = json.dumps(stored, sort_keys=True)
    options = _OPTIONS_READ.get(key)
    if options is None:
        options = TableOptions.model_validate(stored)
        if len(_OPTIONS_READ) < OPTIONS_KEPT:
            _OPTIONS_READ[key] = options
    return options


__all__ = ["LiveSeat", "LiveTable", "Memento", "options_of", "rules_of"]
