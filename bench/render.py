"""Presentation CPU of one action: the table message and the next player's DM rendered and put
through delivery's REST edit (Discord stubbed out, so only the bot's own work counts), and the
actor's DM rendered for the interaction response.

Random 4-player classic games are replayed move by move; every action is timed as the running
bot handles it (cogs/render, cogs/views, Delivery._edit with its fingerprint and the controls it
leaves out). The figure is the least process CPU time per action over the runs, so a busy
machine inflates it less than a wall-clock one; compare trees back to back with the same options.

    python bench/render.py [--hand-size 2] [--games 6] [--runs 8]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.models import SeatView, TableOptions, TableStatus, TableView
from cogs import render
from cogs.delivery import Delivery
from engine import Game, Phase, PlayerView, Rules

Step = tuple[TableView, PlayerView, PlayerView]


def _view(game: Game, rules: Rules) -> TableView:
    seats = tuple(SeatView(seat=i, name=f"Player{i}", user_id=10**17 + i, computer=None,
                           autopilot=False, timeouts_in_row=0, dm_message_id=None,
                           dm_hand_number=None, dm_failed=False) for i in range(game.players))
    return TableView(table_id=123456789, guild_id=10**18, channel_id=10**18 + 99,
                     message_id=10**18 + 7, host_id=10**17, status=TableStatus.PLAYING,
                     options=TableOptions(preset=rules.name, turn_timeout=86_400), rules=rules,
                     seats=seats, state=game.public_state(), deadline=None, warned=False,
                     saves=1)


def steps(hand_size: int, games: int) -> list[Step]:
    """After each move: the table, the actor's view and the next actor's view."""
    out: list[Step] = []
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [hand_size] * 6})
    for seed in range(games):
        game = Game.new(players=4, rules=rules, seed=seed)
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            seat = game.actor_seats()[0]
            if game.phase is Phase.BIDDING:
                game.bid(seat, rng.choice(game.legal_bids()))
            else:
                game.play(seat, rng.choice(game.legal_cards()))
            if game.phase is not Phase.GAME_OVER and game.actor_seats():
                out.append((_view(game, rules), game.view(seat),
                            game.view(game.actor_seats()[0])))
    return out


class _Http:
    async def edit_message(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {}


class _Bot:
    http = _Http()
    allowed_mentions = None


async def measure(all_steps: list[Step], runs: int) -> float:
    """Least CPU seconds per action over `runs` replays."""
    delivery = Delivery(_Bot(), None, None)  # type: ignore[arg-type]
    best = float("inf")
    for _ in range(runs):
        shown: int | None = None
        shown_view: Any = None
        start = time.process_time()
        for view, actor, following in all_steps:
            table = render.table_message(view, render.TableExtras(), "en")
            shown = await delivery._edit(1, 2, table, shown, shown_view) or shown
            shown_view = table.view_key
            await delivery._edit(3, 4, render.hand_message(view, following, dm=True, lang="en"))
            answer = render.hand_message(view, actor, dm=True, lang="en")
            answer.kwargs()
            answer.done()
        best = min(best, (time.process_time() - start) / len(all_steps))
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hand-size", type=int, default=2,
                   help="cards a hand (2: as bench/bot.py plays; 10: long hands, card selects)")
    p.add_argument("--games", type=int, default=6, help="games replayed a run")
    p.add_argument("--runs", type=int, default=8, help="replays; the least is reported")
    args = p.parse_args()
    all_steps = steps(args.hand_size, args.games)
    best = asyncio.run(measure(all_steps, args.runs))
    print(f"{len(all_steps)} actions ({args.hand_size}-card hands): presentation CPU per "
          f"action {best * 1e6:.0f} us (least of {args.runs} runs)")


if __name__ == "__main__":
    main()
