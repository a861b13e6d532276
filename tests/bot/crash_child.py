"""A child process for the crash tests: it plays real games through the table service and the
engine (people's moves through `TableService.act`, computers through the service's own runs)
and reports every acknowledged move on stdout, flushed, before it chooses the next one. The
parent kills it at random moments (SIGKILL) and starts it again on the same database.

    python tests/bot/crash_child.py DB_PATH CHANNELS SEED

Besides moves, it does the table's bookkeeping at random now and then (bookkeeping()): a DM that
failed, new message ids, a person leaving mid-game, the host ending the table; those are saved
too (some as waiting rows that go with the next save), so kills land among them.

Lines (JSON, one per line):
  {"ready": {"resumed": [ids], "broken": [[id, reason]...]}}   after resume_all
  {"move": [table, hand, seat, action, payload]}              after act() returned
A line is written only after the call it reports has returned, so it is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.errors import TableError
from bot.models import TableOptions, TableView
from bot.moves import LOG_NAMES
from bot.presenter import NullPresenter
from bot.service import ServiceConfig, TableService
from data import Store
from engine import Bid, Discard, Move, NameTrump, Phase, Play

GUILD = 77
PEOPLE = (101, 102)  # two people per table, plus computer seats
PRESETS = ("classic", "classic", "dealer_picks", "kachuful", "oh_pshaw")


def say(kind: str, value: object) -> None:
    sys.stdout.write(json.dumps({kind: value}) + "\n")
    sys.stdout.flush()


def choose(service: TableService, view: TableView, seat: int, rng: random.Random) -> Move:
    pv = service.directory.seat_view(view.table_id, seat)
    if pv.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
        return Bid(rng.choice(pv.legal_bids))
    if pv.phase is Phase.PLAYING:
        return Play(rng.choice(pv.legal_cards))
    if pv.phase is Phase.TRUMP_CHOICE:
        return NameTrump(rng.choice(pv.legal_trumps))
    if pv.phase is Phase.DISCARD:
        return Discard(tuple(rng.sample(list(pv.hand), pv.discards_needed)))
    raise AssertionError(pv.phase)


async def open_and_deal(service: TableService, channel: int, rng: random.Random,
                        guild: int = GUILD) -> int:
    preset = rng.choice(PRESETS)
    options = TableOptions(preset=preset, bots=rng.randint(1, 2), bot_level="random",
                           max_cards=rng.randint(2, 4), turn_timeout=0)
    view = await service.open_table(guild, channel, PEOPLE[0], "Ann", options)
    await service.join(view.table_id, PEOPLE[1], "Bob")
    await service.deal(view.table_id, PEOPLE[0])
    return view.table_id


async def bookkeeping(service: TableService, view: TableView, rng: random.Random) -> None:
    """Now and then, what Discord makes the table save besides moves: a DM that failed (a
    waiting row), new message ids, a person leaving mid-game, the host ending the table."""
    roll = rng.random()
    people = [s.user_id for s in view.seats if s.user_id is not None and not s.autopilot]
    if roll < 0.02 and people:
        service.directory.set_dm_failed(view.table_id, rng.choice(people))
    elif roll < 0.04:
        service.directory.set_table_message(view.table_id, rng.randrange(1, 1 << 40))
    elif roll < 0.05 and view.state is not None and people:
        service.directory.set_dm_message(view.table_id, rng.choice(people), view.state.hand_number,
                               rng.randrange(1, 1 << 40), rng.randrange(1, 1 << 40))
    elif roll < 0.055 and view.state is not None and PEOPLE[1] in people:
        await service.leave(view.table_id, PEOPLE[1])
    elif roll < 0.058:
        await service.end(view.table_id, view.host_id)


async def deal_lobby(service: TableService, view: TableView) -> None:
    """A lobby left by a kill or a hand-back: deal it, or seat Bob when it lacks a player."""
    try:
        await service.deal(view.table_id, view.host_id)
    except TableError:
        await service.join(view.table_id, PEOPLE[1], "Bob")


def person_to_move(view: TableView, rng: random.Random) -> tuple[int, int] | None:
    """A person (not on autopilot) whose move is awaited, at random: (seat, user id); None
    while only computers are to move."""
    assert view.state is not None
    people = [s for s in view.state.actor_seats if view.seats[s].user_id is not None
              and not view.seats[s].autopilot]
    if not people:
        return None
    seat = rng.choice(people)
    user = view.seats[seat].user_id
    assert user is not None
    return seat, user


async def play(service: TableService, channel: int, rng: random.Random,
               guild: int = GUILD) -> None:
    while True:
        view = service.directory.find_table(channel)
        if view is None:
            try:
                await open_and_deal(service, channel, rng, guild)
            except TableError:
                await asyncio.sleep(0.001)
            continue
        with contextlib.suppress(TableError):
            await bookkeeping(service, view, rng)
        view = service.directory.find_table(channel)
        if view is None:
            continue
        if view.state is None:  # a lobby left by a kill: deal it
            await deal_lobby(service, view)
            continue
        mover = person_to_move(view, rng)
        if mover is None:
            await asyncio.sleep(0.001)  # the computers are moving
            continue
        seat, user = mover
        move = choose(service, view, seat, rng)
        try:
            await service.act(view.table_id, user, move)
        except TableError:
            continue  # the table moved meanwhile (a computer, the game ended): look again
        say("move", [view.table_id, view.state.hand_number, seat, LOG_NAMES[type(move)],
                     move.payload()])


async def main(path: str, channels: int, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    service = TableService(store, NullPresenter(),
                           config=ServiceConfig(default_turn_timeout=0, computer_delay=0))
    report = await service.resume_all()
    say("ready", {"resumed": report.resumed, "broken": report.broken})
    await asyncio.gather(*(play(service, 5000 + c, random.Random(rng.random()))
                           for c in range(channels)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
