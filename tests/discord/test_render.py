"""The largest tables still fit Discord's message limits (7 seats, long names, long games)."""

from __future__ import annotations

import random
from typing import Any

from bot.events import GameOver, RatingChange, Standing
from bot.models import SeatView, TableOptions, TableStatus, TableView
from cogs import render
from engine import Game, Phase, Rules
from tests.discord.limits import check_message

LONG = "A Very Long Display Name Indeed!"  # 32 characters, Discord's longest


def _body(r: render.Render) -> dict[str, Any]:
    return {"content": r.content, "embeds": [r.embed.to_dict()],
            "components": r.view.to_components() if r.view is not None else []}


def _view(game: Game, rules: Rules, status: TableStatus) -> TableView:
    seats = tuple(SeatView(seat=i, name=f"{LONG[:31]}{i}", user_id=10**18 + i, computer=None,
                           autopilot=i == 2, timeouts_in_row=0, dm_message_id=None,
                           dm_hand_number=None, dm_failed=i == 3)
                  for i in range(game.players))
    return TableView(table_id=123456789, guild_id=10**18, channel_id=10**18 + 99,
                     message_id=10**18 + 7, host_id=10**18, status=status,
                     options=TableOptions(preset=rules.name, turn_timeout=86_400), rules=rules,
                     seats=seats, state=game.public_state(), deadline=None, warned=False,
                     saves=1)


def test_long_games_with_seven_long_names_fit() -> None:
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [7, 1, 2] * 10})
    game = Game.new(players=7, rules=rules, seed=1)
    rng = random.Random(1)
    largest = 0
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice(game.legal_bids()))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
        if game.phase is not Phase.GAME_OVER:
            view = _view(game, rules, TableStatus.PLAYING)
            body = _body(render.table_message(view, render.TableExtras(notes=["x" * 200] * 3)))
            assert check_message(body) == []
            pv = game.view(seat)
            assert check_message(_body(render.hand_message(view, pv, dm=True))) == []
            largest = max(largest, len(str(body)))
    view = _view(game, rules, TableStatus.FINISHED)
    over = GameOver(
        standings=tuple(Standing(i + 1, i, s.name, s.user_id, 100 - i) for i, s in
                        enumerate(view.seats)),
        winners=(0,), rating_changes=tuple(RatingChange(s.user_id, 1.5, 2.5, s.name)
                                           for s in view.seats))
    final = _body(render.table_message(view, render.TableExtras(game_over=over)))
    assert check_message(final) == []
    assert "Final standings" in str(final) and "```" in final["embeds"][0]["description"]
    sheet = render.scoresheet(view).to_dict()
    assert check_message({"embeds": [sheet]}) == []
    assert len(game.scoresheet) == 30 and largest > 0


def test_bid_buttons_for_the_largest_hand_fit() -> None:
    from bot.guard import Guard
    from cogs import views

    view = views.bid_controls(1, Guard(1, "b"), 17, [n for n in range(18) if n != 5])
    body = {"components": view.to_components(), "embeds": []}
    assert check_message(body) == []
    buttons = [c for row in body["components"] for c in row["components"]]
    assert len(buttons) == 18 and [b["disabled"] for b in buttons].count(True) == 1
