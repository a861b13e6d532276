"""Finished games looked back at: history pages, a game told again, exports, forgetting.

Everything here reads the store; nothing here changes a game. A game is told again from its
table's action log (the seed of its deal and every move since, which every finished game has,
old ones included), played through the engine's replay (engine/replay.py) and checked against
the final snapshot the table kept, whose scoresheet holds each hand's play: a replay that does
not come out as the game was played is refused rather than shown wrong. Only games with a
finished-game row are ever told, so no card of a game in play is shown.

The export format is documented in docs/export.md (version EXPORT_VERSION); change both
together.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.errors import TableError
from data import LoggedAction, Store
from data.history import GameSummary, HistoryPage
from engine import Game, Rules, move_from_payload
from engine.replay import GameReplay, NotFinished, replay_game
from engine.snapshot import snapshots_match

EXPORT_FORMAT = "ohhell-game"
EXPORT_VERSION = 1
MOVE_ACTIONS = ("bid", "play", "trump", "discard")


@dataclass(frozen=True)
class ToldGame:
    """A finished game with its replay and its rules, ready to step through or export."""

    summary: GameSummary
    rules: Rules
    replay: GameReplay


async def history(store: Store, guild_id: int, *, user_id: int | None = None,
                  preset: str | None = None, before: int | None = None,
                  limit: int = 5) -> HistoryPage:
    """A page of the server's finished games, newest first; an unknown preset is refused in
    words (so a typo does not read as "no games")."""
    if preset is not None and preset not in Rules.preset_names(special_cards=True):
        raise TableError("There is no preset called {preset!r}.", preset=preset)
    return await store.history(guild_id, user_id=user_id, preset=preset, before=before,
                               limit=limit)


async def tell(store: Store, guild_id: int, game_id: int) -> ToldGame:
    """A finished game of this server told again. TableError (in words) for a game that is
    not a finished game here, or whose record does not replay."""
    summary = await store.game_summary(game_id)
    if summary is None or summary.guild_id != guild_id:
        raise TableError("There is no finished game {game} in this server.", game=game_id)
    if summary.table_id is None:
        raise TableError("Game {game} was stored without its moves, so it cannot be replayed.",
                         game=game_id)
    table = await store.get_table(summary.table_id)
    log = await store.actions(summary.table_id)
    try:
        rules = Rules.model_validate_json(table.rules_json if table else "")
        replay = replay_log(rules, log)
    except NotFinished:
        raise TableError(
            "That game is still being played: it can be replayed once it is over.") from None
    except ValueError:
        raise TableError(
            "Game {game}'s record does not replay, so it cannot be shown.", game=game_id) from None
    stored = table.snapshot_json if table is not None else None
    if stored is not None and not snapshots_match(replay.final.to_json(), stored):
        raise TableError("Game {game}'s record does not replay, so it cannot be shown.",
                         game=game_id)
    return ToldGame(summary, rules, replay)


def replay_log(rules: Rules, log: list[LoggedAction]) -> GameReplay:
    """The game a table's action log tells, from its last deal. Raises NotFinished for a game
    in play, ValueError for a log that does not replay."""
    deals = [index for index, entry in enumerate(log) if entry.action == "deal"]
    if not deals:
        raise NotFinished("the game was never dealt")
    deal = log[deals[-1]]
    game = Game.new(players=int(deal.payload["players"]), rules=rules,
                    seed=int(deal.payload["seed"]))
    moves = []
    for entry in log[deals[-1] + 1:]:
        if entry.action in MOVE_ACTIONS:
            if entry.seat is None:
                raise ValueError(f"action {entry.id} is a move without a seat")
            moves.append((entry.seat, move_from_payload(entry.payload)))
    return replay_game(game, moves)


# -- export ---------------------------------------------------------------------------------


def _time(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def export_game(told: ToldGame) -> dict[str, Any]:
    """The whole game in the documented export format (docs/export.md)."""
    summary, rules, replay = told.summary, told.rules, told.replay
    hands = []
    for hand in replay.hands:
        record = hand.record
        hands.append({
            "number": record.hand_number,
            "cards_dealt": len(hand.dealt[0]),
            "tricks": record.tricks_in_hand,
            "dealer": record.dealer,
            "blind": record.blind,
            "trump_card": record.trump_card.code if record.trump_card else None,
            "trump_suit": record.trump_suit.letter if record.trump_suit is not None else None,
            "trump_named_by": hand.named_by,
            "dealt": [[card.code for card in cards] for cards in hand.dealt],
            "in_play": None if hand.in_play is None
            else [[card.code for card in cards] for cards in hand.in_play],
            "bids": [{"seat": seat, "bid": bid} for seat, bid in hand.bids],
            "play": [
                {
                    "leader": trick.cards[0].seat,
                    "cards": [
                        {"seat": played.seat, "card": played.card.code,
                         "declared": None if played.declared is None
                         else played.declared.code()}
                        for played in trick.cards
                    ],
                    "winner": trick.winner,
                }
                for trick in hand.tricks
            ],
            "scores": [
                {"seat": seat, "bid": record.bids[seat], "tricks": record.tricks[seat],
                 "made": record.made[seat], "points": record.points[seat],
                 "total": record.totals[seat]}
                for seat in range(replay.players)
            ],
        })
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {"id": summary.game_id, "finished_at": _time(summary.finished_at),
                 "preset": summary.preset},
        "rules": {
            "preset": rules.name,
            "scoring": rules.scoring,
            "zero_bid": rules.zero_bid,
            "blind_multiplier": rules.blind_multiplier,
            "winner_rule": rules.winner_rule,
            "described": rules.describe(replay.players),
            "all": rules.model_dump(mode="json"),
        },
        "players": [
            {"seat": seat.seat, "name": seat.name,
             "computer": seat.computer_level, "total": seat.total, "placing": seat.placing,
             "winner": seat.winner}
            for seat in summary.seats
        ],
        "hands": hands,
    }


def export_json(told: ToldGame) -> str:
    """The export as a JSON text (UTF-8, cards as codes like "10H")."""
    return json.dumps(export_game(told), ensure_ascii=False, indent=1)


def scoresheet_csv(told: ToldGame) -> str:
    """The scoresheet as a spreadsheet reads it: one row per hand and player."""
    out = io.StringIO()
    writer = csv.writer(out)
    names = {seat.seat: seat.name for seat in told.summary.seats}
    writer.writerow(["hand", "cards", "dealer", "trump", "seat", "player", "bid", "tricks",
                     "made", "points", "total"])
    for hand in told.replay.hands:
        record = hand.record
        trump = record.trump_card.code if record.trump_card else (
            record.trump_suit.letter if record.trump_suit is not None else "none")
        for seat in range(told.replay.players):
            writer.writerow([record.hand_number, record.hand_size, names.get(record.dealer, ""),
                             trump, seat, names.get(seat, ""), record.bids[seat],
                             record.tricks[seat], "yes" if record.made[seat] else "no",
                             record.points[seat], record.totals[seat]])
    return out.getvalue()


async def results_csv(store: Store, guild_id: int) -> str:
    """Every finished game of the server, one row per game and player, newest first."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "finished_at", "preset", "hands", "seat", "player", "computer",
                     "total", "placing", "winner"])
    before: int | None = None
    while True:
        page = await store.history(guild_id, before=before, limit=25)
        for game in page.games:
            for seat in game.seats:
                writer.writerow([game.game_id, _time(game.finished_at), game.preset, game.hands,
                                 seat.seat, seat.name, seat.computer_level or "",
                                 seat.total, seat.placing, "yes" if seat.winner else "no"])
        if page.next_before is None:
            return out.getvalue()
        before = page.next_before


__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "ToldGame",
    "export_game",
    "export_json",
    "history",
    "replay_log",
    "results_csv",
    "scoresheet_csv",
    "tell",
]
