"""Drivers for the service tests: open a table with computer seats, act for a person."""

from __future__ import annotations

from bot.models import TableOptions, TableView
from bot.service import TableService
from tests.bot.conftest import CHANNEL, GUILD, HOST


async def start_game(
    service: TableService,
    *,
    computers: int = 2,
    seed: int = 7,
    max_cards: int | None = 2,
    channel: int = CHANNEL,
    turn_timeout: int | None = None,
    level: str = "random",
    preset: str = "classic",
) -> TableView:
    """Host plus `computers` computer players, dealt; returns once they have moved."""
    view = await service.open_table(
        GUILD,
        channel,
        HOST,
        "Host",
        TableOptions(
            preset=preset,
            computers=computers,
            seed=seed,
            max_cards=max_cards,
            computer_level=level,
            turn_timeout=turn_timeout,
        ),
    )
    await service.deal(view.table_id, HOST)
    await service.wait_idle()
    return service.directory.table(view.table_id)


async def move(service: TableService, table_id: int, user_id: int) -> TableView:
    """Make the person's first legal move (a bid, else a card)."""
    me = service.directory.hand_view(table_id, user_id)
    hand = me.hand_number
    if me.legal_bids:
        return await service.bid(table_id, user_id, me.legal_bids[0], hand)
    if me.legal_cards:
        return await service.play(table_id, user_id, me.legal_cards[0], hand)
    raise AssertionError(f"seat {me.seat} has nothing to do in {me.phase}")


def is_open(service: TableService, table_id: int) -> bool:
    """True while the service still hosts the table."""
    return any(v.table_id == table_id for v in service.directory.tables())


async def any_move(service: TableService, table_id: int, user_id: int, seed: int = 0) -> None:
    """A random legal move of whatever kind the phase asks for (bid, card, trump, discards),
    through the one move path with the guard of the decision it answers."""
    from bot.computer import random_move
    from bot.guard import Guard

    me = service.directory.hand_view(table_id, user_id)
    if not me.to_act:
        raise AssertionError(f"nothing to do in {me.phase}")
    await service.act(table_id, user_id, random_move(me, seed), Guard.of(me))
