"""An exported game (docs/export.md) told in words, step by step: `python -m bot replay FILE`.

It reads only the documented export format, so it also reads files written by an older or newer
bot of the same format version. Each step is a hand's deal and bids, or one trick (the last
trick of a hand with its scoresheet row); the same lines serve the terminal and Discord's replay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.archive import EXPORT_FORMAT, EXPORT_VERSION
from engine import Card, Declaration, Suit

Document = dict[str, Any]


def card_text(code: str) -> str:
    """A card code as players read it ("10H" -> "10♥"); an unknown code as it is."""
    try:
        return str(Card.parse(code))
    except ValueError:
        return code


def _suit_text(letter: str | None) -> str:
    return "no trump" if letter is None else f"{Suit.parse(letter).symbol} trump"


def read_export(text: str) -> Document:
    """Parse an export; ValueError in words when it is not one this bot reads."""
    try:
        document = json.loads(text)
    except ValueError:
        raise ValueError("This file is not JSON, so it is not an exported game.") from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValueError("This file is not an exported Oh Hell game.")
    if document.get("version") != EXPORT_VERSION:
        raise ValueError(f"This export is version {document.get('version')!r}; this bot reads "
                         f"version {EXPORT_VERSION}.")
    return document


def steps(document: Document) -> list[list[str]]:
    """The game as steps of lines: the players, then per hand its deal and bids, then each
    trick (the hand's last trick also shows the scoresheet row); the final standings last."""
    names = [p["name"] for p in document["players"]]
    hands = document["hands"]
    game = document["game"]
    told: list[list[str]] = [[
        f"Game {game['id']}: {game['preset']}, finished {game['finished_at']}, "
        f"{len(hands)} hand{'s' if len(hands) != 1 else ''}.",
        "Players: " + ", ".join(
            p["name"] + (f" ({p['computer']} computer)" if p["computer"] else "")
            for p in document["players"]),
    ]]
    for hand in hands:
        trump = (f"{card_text(hand['trump_card'])} turned up, "
                 if hand["trump_card"] else "no card turned, ") + _suit_text(hand["trump_suit"])
        if hand["trump_named_by"] is not None:
            trump += f" (named by {names[hand['trump_named_by']]})"
        lines = [
            f"Hand {hand['number']} of {len(hands)}: {hand['cards_dealt']} card"
            f"{'s' if hand['cards_dealt'] != 1 else ''} each, {names[hand['dealer']]} deals; "
            f"{trump}.",
        ]
        lines += [f"  {names[seat]}: {' '.join(card_text(c) for c in cards)}"
                  for seat, cards in enumerate(hand["dealt"])]
        if hand["in_play"] is not None:
            lines.append("Before play the hands became:")
            lines += [f"  {names[seat]}: {' '.join(card_text(c) for c in cards)}"
                      for seat, cards in enumerate(hand["in_play"])]
        lines.append("Bids: " + ", ".join(f"{names[b['seat']]} {b['bid']}"
                                          for b in hand["bids"]) + ".")
        told.append(lines)
        for number, trick in enumerate(hand["play"], start=1):
            cards = ", ".join(
                f"{names[c['seat']]} {card_text(c['card'])}"
                + (f" ({Declaration.from_code(c['declared']).text(_trump(hand))})"
                   if c["declared"] else "")
                for c in trick["cards"])
            lines = [f"Hand {hand['number']}, trick {number} of {len(hand['play'])}: {cards}."
                     f" {names[trick['winner']]} wins it."]
            if number == len(hand["play"]):
                lines += [
                    f"  {names[s['seat']]}: bid {s['bid']}, took {s['tricks']}"
                    f" ({'made' if s['made'] else 'missed'}): {s['points']:+d},"
                    f" total {s['total']}"
                    for s in hand["scores"]
                ]
            told.append(lines)
    ranked = sorted(document["players"], key=lambda p: (p["placing"], p["seat"]))
    told.append(["Final standings:"] + [
        f"  {p['placing']}. {p['name']} {p['total']}" + (" (won)" if p["winner"] else "")
        for p in ranked
    ])
    return told


def _trump(hand: Document) -> Suit | None:
    return None if hand["trump_suit"] is None else Suit.parse(hand["trump_suit"])


def replay_file(
    path: Path,
    *,
    pause: bool,
    ask: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Tell the exported game at path; with pause, wait for Enter between steps ('q' stops).
    Returns the exit status (2 for a file that cannot be read)."""
    try:
        document = read_export(path.read_text(encoding="utf-8"))
        told = steps(document)
    except OSError as err:
        write(f"error: cannot read {path}: {err.strerror or err}")
        return 2
    except (ValueError, KeyError, TypeError, IndexError) as err:
        write(f"error: {path} cannot be replayed: {err}")
        return 2
    for index, lines in enumerate(told):
        for line in lines:
            write(line)
        if pause and index < len(told) - 1:
            try:
                if ask("(Enter: next step, q: quit) ").strip().lower() in ("q", "quit"):
                    return 0
            except EOFError:
                pause = False
    return 0


__all__ = ["card_text", "read_export", "replay_file", "steps"]
