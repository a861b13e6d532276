"""A guard names one decision of one hand, survives its custom_id form, and refuses a move
once that decision is taken (through the service, without Discord)."""

from __future__ import annotations

import pytest

from bot.errors import TableError
from bot.guard import Guard
from bot.service import TableService
from engine import Bid, Game, Play, Rules
from tests.bot.conftest import HOST
from tests.bot.helpers import start_game


def test_codes_round_trip_and_old_hand_only_codes_read() -> None:
    for guard in (Guard(3, "p", 5), Guard(12, "b", 0), Guard(1, "n", 0), Guard(7)):
        assert Guard.from_code(guard.code()) == guard
    assert Guard.from_code("4") == Guard(4)  # a custom_id from before guards had steps
    with pytest.raises(ValueError):
        Guard.from_code("4p")


def test_the_guard_of_a_position_names_its_step_and_trick() -> None:
    game = Game.new(players=3, rules=Rules.preset("classic"), seed=2)
    assert Guard.of(game.public_state()) == Guard(1, "b", 0)
    while game.phase.bidding:
        game.apply(game.turn, Bid(game.legal_bids()[0]))  # type: ignore[arg-type]
    assert Guard.of(game.public_state()) == Guard(1, "p", 1)
    game.apply(game.turn, Play(game.legal_cards(game.turn)[0]))  # type: ignore[arg-type]
    assert Guard.of(game) == Guard.of(game.public_state()) == Guard(1, "p", 1)
    assert Guard(1).covers(Guard(1, "p", 1)) and not Guard(1, "p", 2).covers(Guard(1, "p", 1))


async def test_a_taken_decision_is_refused_and_changes_nothing(service: TableService) -> None:
    view = await start_game(service, computers=2, max_cards=3)
    me = service.directory.hand_view(view.table_id, HOST)
    guard = Guard.of(me)
    await service.act(view.table_id, HOST, Bid(me.legal_bids[0]), guard)
    await service.wait_idle()
    before = service.directory.table(view.table_id)
    with pytest.raises(TableError, match=r"^That menu is out of date: you already bid "):
        await service.act(view.table_id, HOST, Bid(me.legal_bids[-1]), guard)
    after = service.directory.table(view.table_id)
    assert after.saves == before.saves and after.state == before.state
    me = service.directory.hand_view(view.table_id, HOST)
    if me.legal_cards:  # a card guard from the bidding is refused by its step, not by luck
        with pytest.raises(TableError, match="out of date"):
            await service.act(view.table_id, HOST, Play(me.legal_cards[0]), guard)
