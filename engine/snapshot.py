"""The snapshot format: a game's whole state as JSON, and back, with the checks that a state
read back could have come from play.

`Game.to_json` / `Game.from_json` / `Game.copy` come here; they read and fill the game through
`engine.state.GameState`, so this module does not import the game. The format is versioned so an old
snapshot is refused in plain words rather than misread; a snapshot read back after a crash or
from a hand-edited store that breaks an invariant would fail later in the middle of a move, so
it is refused here (`unsound`).
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import Card, Suit
from engine.deal import by_suit
from engine.moves import Declaration, Phase
from engine.rules import EXTRA_HAND_LIMIT, MAX_HAND, MAX_HANDS, TARGET_GAME_HAND_LIMIT, Rules
from engine.scoring import HandRecord
from engine.snapshot_text import SnapshotText, dumps
from engine.state import GameState

SNAPSHOT_VERSION = 1


UNREADABLE = (LookupError, TypeError, AttributeError, ArithmeticError, RecursionError)
"""What a damaged snapshot raises while it is read; `Game.from_json` words it as a ValueError."""


def game_to_json(game: GameState) -> str:
    """The whole state as JSON; `Game.from_json` restores it exactly.

    The same text as `json.dumps(game_to_dict(game))` with compact separators, built without
    encoding again what a game never changes: its rules and the records of its finished hands
    are encoded once and kept with the game (`SnapshotText`), since a table is saved after
    every move (docs/architecture.md section 4) and those are most of a long game's snapshot."""
    kept = game._snapshot_text
    if kept is None:
        kept = game._snapshot_text = SnapshotText()
    rules = kept.rules_of(game.rules)
    records = kept.records_of(game._scoresheet, record_to_dict)
    head = dumps({"version": SNAPSHOT_VERSION, "players": game.players})
    middle = dumps(_play_fields(game))
    return (f'{head[:-1]},"rules":{rules},{middle[1:-1]},"scoresheet":[{records}],'
            f'"winners":{dumps(game.winners)}}}')


def snapshot_data(text: str) -> dict[str, Any]:
    """A snapshot's values, once its version is one this code reads (else ValueError)."""
    data = json.loads(text)
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"snapshot version {data.get('version')!r} is not supported")
    return data  # type: ignore[no-any-return]


def whole(value: object) -> bool:
    """A whole number, and not a bool (JSON's true would pass as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def game_to_dict(game: GameState) -> dict[str, Any]:
    """The whole state as JSON-ready values."""
    return {
        "version": SNAPSHOT_VERSION,
        "players": game.players,
        "rules": game.rules.model_dump(mode="json"),
        **_play_fields(game),
        "scoresheet": [record_to_dict(record) for record in game._scoresheet],
        "winners": game.winners,
    }


def _play_fields(game: GameState) -> dict[str, Any]:
    """The state of play: the snapshot's fields between the rules and the scoresheet."""
    return {
        "seed": game.seed,
        "deal_index": game._deal_index,
        "extra_hands": game._extra_hands,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "phase": game.phase.value,
        "turn": game.turn,
        "pending": game._pending,
        "hand_size": game.hand_size,
        "tricks_in_hand": game.tricks_in_hand,
        "hands": [card_codes(game.hand_of(seat)) for seat in range(game.players)],
        "stock": card_codes(game._stock),
        "discarded": [card_codes(cards) for cards in game.discarded],
        "trump_card": game.trump_card.code if game.trump_card else None,
        "trump_suit": game.trump_suit.letter if game.trump_suit is not None else None,
        "super_trump": game.super_trump.code if game.super_trump else None,
        "declarations": [
            [card.code, declaration.code()] for card, declaration in game.declarations.items()
        ],
        "plan": game._plan,
        "blind": game.blind,
        "bids": game.bids,
        "tricks_won": game.tricks_won,
        "current_trick": [[seat, card.code] for seat, card in game.current_trick],
        "tricks_played": [[[s, c.code] for s, c in trick] for trick in game._tricks_played],
        "trick_number": game.trick_number,
        "trump_broken": game.trump_broken,
        "scores": game.scores,
    }


def restore(game: GameState, data: dict[str, Any], rules: Rules) -> None:
    """Fill a blank game (of the class that plays `rules`) from `game_to_dict`'s values. Raises
    ValueError, or one of UNREADABLE, when they are not a state play could reach."""
    game.players = int(data["players"])
    game.rules = rules
    game.seed = data["seed"]
    plan = data.get("plan") or game.rules.plan(int(data["players"]))
    if not isinstance(plan, list) or not plan or not all(
        whole(size) and 1 <= size <= MAX_HAND for size in plan
    ):
        raise ValueError("the snapshot's hand sizes are not a list of hand sizes")
    game._plan = plan
    game._deal_index = data["deal_index"]
    game._cache_rule_flags()
    game._extra_hands = data["extra_hands"]
    game.hand_number = data["hand_number"]
    game.dealer = data["dealer"]
    game.phase = Phase(data["phase"])
    game.turn = data["turn"]
    game._pending = list(data["pending"])
    game.hand_size = data["hand_size"]
    game.tricks_in_hand = data["tricks_in_hand"]
    game._held = [by_suit(cards_from_codes(hand)) for hand in data["hands"]]
    game._stock = cards_from_codes(data["stock"])
    game.discarded = [cards_from_codes(codes) for codes in data["discarded"]]
    game.trump_card = Card.parse(data["trump_card"]) if data["trump_card"] else None
    game.trump_suit = Suit.parse(data["trump_suit"]) if data["trump_suit"] else None
    super_trump = data.get("super_trump")
    game.super_trump = Card.parse(super_trump) if super_trump else None
    game.declarations = {
        Card.parse(code): Declaration.from_code(declared)
        for code, declared in data.get("declarations", [])
    }
    game.blind = data["blind"]
    game.bids = list(data["bids"])
    game.tricks_won = list(data["tricks_won"])
    game.current_trick = [(seat, Card.parse(code)) for seat, code in data["current_trick"]]
    game._tricks_played = [
        tuple((seat, Card.parse(code)) for seat, code in trick)
        for trick in data["tricks_played"]
    ]
    game.trick_number = data["trick_number"]
    game.trump_broken = data["trump_broken"]
    game.scores = list(data["scores"])
    game._scoresheet = [record_from_dict(record) for record in data["scoresheet"]]
    game.winners = list(data["winners"])
    game._restored()
    problem = unsound(game)
    if problem:
        raise ValueError(f"unsound game snapshot: {problem}")


def _turn_unsound(game: GameState) -> str | None:
    """Whether the seat to act is the one the bids and the tricks so far make it."""
    players = game.players
    left = (game.dealer + 1) % players
    phase = game.phase
    if phase is Phase.TRUMP_CHOICE:
        expected: int | None = game.dealer
    elif phase is Phase.BIDDING:
        made = sum(bid is not None for bid in game.bids)
        expected = (left + made) % players
        if any(game.bids[(left + offset) % players] is None for offset in range(made)):
            return "the bids were not made in turn"
    elif phase is Phase.PLAYING:
        if any(bid is None for bid in game.bids):
            return "a bid is missing"
        trick = game.current_trick
        done = game._tricks_played
        leader = game._trick_winner(done[-1])[0] if done else left
        if any(seat != (leader + i) % players for i, (seat, _) in enumerate(trick)):
            return "the cards of the trick were not played in turn"
        expected = (leader + len(trick)) % players
    else:
        return None
    return None if game.turn == expected else "the turn is not the seat to act"


def unsound(game: GameState) -> str | None:
    """Why a restored state could not have come from play, or None.

    A snapshot is read back after a crash or from a hand-edited store; a state that breaks
    an invariant would fail later in the middle of a move, so it is refused here.
    """
    players = game.players
    if not whole(players) or not 3 <= players <= 8:
        return f"{players!r} players"
    scalars = (game.seed, game._deal_index, game._extra_hands, game.hand_number, game.dealer,
               game.hand_size, game.tricks_in_hand, game.trick_number)
    if not all(map(whole, scalars)) or not (game.turn is None or whole(game.turn)):
        return "a number that is not a whole number"
    if not isinstance(game.blind, bool) or not isinstance(game.trump_broken, bool):
        return "a yes/no field that is not true or false"
    numbers = [*game.scores, *game.tricks_won, *game.winners, *game._pending]
    numbers += [bid for bid in game.bids if bid is not None]
    if not all(map(whole, numbers)):
        return "a score, bid, trick count or seat that is not a whole number"
    if game._deal_index < 1 or not 0 <= game._extra_hands <= EXTRA_HAND_LIMIT:
        return "the deal count is out of range"
    if not 1 <= game.hand_number <= MAX_HANDS + EXTRA_HAND_LIMIT + TARGET_GAME_HAND_LIMIT:
        return "the hand number is out of range"
    problem = game.rules.problem(players)
    if problem:
        return problem
    seats = range(players)
    for name in ("bids", "tricks_won", "scores", "discarded", "_held"):
        if len(getattr(game, name)) != players:
            return f"{name} is not one entry per seat"
    if game.dealer not in seats or (game.turn is not None and game.turn not in seats):
        return "a seat number out of range"
    if len(set(game._pending)) != len(game._pending) or any(
        seat not in seats for seat in game._pending
    ):
        return "the seats awaited are not distinct seats"
    phase = game.phase
    if (game.turn is None) != (phase.simultaneous or phase is Phase.GAME_OVER):
        return f"the turn does not fit the {phase.value} phase"
    if phase.simultaneous and not game._pending:
        return f"nobody is awaited in the {phase.value} phase"
    if not 1 <= game.tricks_in_hand <= game.hand_size + 1 or game.hand_size > MAX_HAND:
        return "the hand's size and its tricks disagree"
    most = max(game.hand_size, game.tricks_in_hand)  # a super_screw loss comes after bids
    if any(bid is not None and not 0 <= bid <= most for bid in game.bids):
        return "a bid out of range"
    done = len(game._tricks_played)
    if any(won < 0 for won in game.tricks_won) or sum(game.tricks_won) != done:
        return "the tricks won do not match the tricks played"
    if phase is not Phase.GAME_OVER and game.trick_number != done + 1:
        return "the trick number does not match the tricks played"
    if len(game.current_trick) >= players or any(
        len(trick) != players for trick in game._tricks_played
    ):
        return "a trick has the wrong number of cards"
    turn_problem = _turn_unsound(game)
    if turn_problem:
        return turn_problem
    every_card = [card for seat in seats for card in game.hand_of(seat)]
    every_card += game._stock
    every_card += [card for cards in game.discarded for card in cards]
    every_card += [card for _, card in game.current_trick]
    every_card += [card for trick in game._tricks_played for _, card in trick]
    if game.trump_card is not None and game.rules.trump_choice != "dealer_last_card":
        every_card.append(game.trump_card)
    if len(set(every_card)) != len(every_card):
        return "a card is in two places"
    if phase is Phase.GAME_OVER:
        if any(game._held[seat] != [[], [], [], [], []] for seat in seats):
            return "cards are still held after the game"
        if not game.winners and game.rules.winner_rule != "exact_bid":
            return "no winners"
        return None if set(game.winners) <= set(seats) else "a winner out of range"
    if len(every_card) != game.rules.pack_size(players):
        return "cards are missing from the pack"
    for seat in seats:
        expected = game.tricks_in_hand
        if phase is Phase.PLAYING:
            expected -= done + any(player == seat for player, _ in game.current_trick)
        elif phase is Phase.DISCARD or phase is Phase.TRUMP_CHOICE:
            expected = game.hand_size - (
                0 if seat in game._pending or phase is Phase.TRUMP_CHOICE
                else game._discards_needed()
            )
        if len(game.hand_of(seat)) != expected:
            return f"seat {seat} holds {len(game.hand_of(seat))} cards, not {expected}"
    return None




def card_codes(cards: Any) -> list[str]:
    return [card.code for card in cards]


def cards_from_codes(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def record_to_dict(record: HandRecord) -> dict[str, Any]:
    return {
        "hand_number": record.hand_number,
        "hand_size": record.hand_size,
        "tricks_in_hand": record.tricks_in_hand,
        "dealer": record.dealer,
        "trump_card": record.trump_card.code if record.trump_card else None,
        "trump_suit": record.trump_suit.letter if record.trump_suit is not None else None,
        "bids": list(record.bids),
        "tricks": list(record.tricks),
        "made": list(record.made),
        "points": list(record.points),
        "totals": list(record.totals),
        "blind": record.blind,
        "leaders": list(record.leaders),
        "plays": card_codes(record.plays),
    }


def record_from_dict(data: dict[str, Any]) -> HandRecord:
    return HandRecord(
        hand_number=data["hand_number"],
        hand_size=data["hand_size"],
        tricks_in_hand=data["tricks_in_hand"],
        dealer=data["dealer"],
        trump_card=Card.parse(data["trump_card"]) if data["trump_card"] else None,
        trump_suit=Suit.parse(data["trump_suit"]) if data["trump_suit"] else None,
        bids=tuple(data["bids"]),
        tricks=tuple(data["tricks"]),
        made=tuple(data["made"]),
        points=tuple(data["points"]),
        totals=tuple(data["totals"]),
        blind=data["blind"],
        leaders=tuple(data.get("leaders", ())),
        plays=tuple(cards_from_codes(data.get("plays", []))),
    )


HAND_PLAY_KEYS = ("leaders", "plays")
"""Scoresheet record fields added after snapshot version 1 was first stored."""


def snapshots_match(replayed: str, stored: str) -> bool:
    """Whether the snapshot of a game replayed from its action log is the stored one.

    A snapshot stored before finished hands kept their play has no `leaders` or `plays` in its
    scoresheet records; it still matches a replay that has them, when all else is equal."""
    if replayed == stored:
        return True
    try:
        told, saved = json.loads(replayed), json.loads(stored)
        records = told["scoresheet"]
        if any(key in record for record in saved["scoresheet"] for key in HAND_PLAY_KEYS):
            return False
        for record in records:
            for key in HAND_PLAY_KEYS:
                record.pop(key, None)
    except (ValueError, KeyError, TypeError):
        return False
    return bool(told == saved)


__all__ = [
    "SNAPSHOT_VERSION",
    "UNREADABLE",
    "card_codes",
    "cards_from_codes",
    "game_to_dict",
    "game_to_json",
    "record_from_dict",
    "record_to_dict",
    "restore",
    "snapshot_data",
    "snapshots_match",
    "unsound",
    "whole",
]
