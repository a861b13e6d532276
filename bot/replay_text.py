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
from bot.card_words import card_label
from bot.i18n import DEFAULT_LANG, Lang, declaration_words, t, tc, tn
from engine import Card, Declaration, Suit

Document = dict[str, Any]


def card_text(code: str, lang: Lang = DEFAULT_LANG) -> str:
    """A card code as players read it ("10H" -> "10♥"); an unknown code as it is."""
    try:
        return card_label(Card.parse(code), lang)
    except ValueError:
        return code


def _trump_text(hand: Document, names: list[str], lang: Lang) -> str:
    """ "9♠ turned up, ♠ trump (named by Ann)"."""
    turned = (t(lang, "{card} turned up", card=card_text(hand["trump_card"], lang))
              if hand["trump_card"] else t(lang, "no card turned"))
    letter = hand["trump_suit"]
    suit = (t(lang, "no trump") if letter is None
            else t(lang, "{symbol} trump", symbol=Suit.parse(letter).symbol))
    text = f"{turned}, {suit}"
    if hand["trump_named_by"] is not None:
        text += " " + t(lang, "(named by {name})", name=names[hand["trump_named_by"]])
    return text


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


def steps(document: Document, lang: Lang = DEFAULT_LANG) -> list[list[str]]:
    """The game as steps of lines: the players, then per hand its deal and bids, then each
    trick (the hand's last trick also shows the scoresheet row); the final standings last."""
    names = [p["name"] for p in document["players"]]
    hands = document["hands"]
    game = document["game"]
    players = ", ".join(
        t(lang, "{name} ({level} computer)", name=p["name"],
          level=tc(lang, "slash", p["computer"])) if p["computer"] else p["name"]
        for p in document["players"])
    told: list[list[str]] = [[
        tn(lang, "Game {game}: {preset}, finished {finished}, {n} hand.",
           "Game {game}: {preset}, finished {finished}, {n} hands.", len(hands),
           game=game["id"], preset=tc(lang, "slash", game["preset"].replace("_", " ")),
           finished=game["finished_at"]),
        t(lang, "Players: {players}", players=players),
    ]]
    for hand in hands:
        lines = [tn(lang, "Hand {number} of {count}: {n} card each, {dealer} deals; {trump}.",
                    "Hand {number} of {count}: {n} cards each, {dealer} deals; {trump}.",
                    hand["cards_dealt"], number=hand["number"], count=len(hands),
                    dealer=names[hand["dealer"]], trump=_trump_text(hand, names, lang))]
        lines += [f"  {names[seat]}: {' '.join(card_text(c, lang) for c in cards)}"
                  for seat, cards in enumerate(hand["dealt"])]
        if hand["in_play"] is not None:
            lines.append(t(lang, "Before play the hands became:"))
            lines += [f"  {names[seat]}: {' '.join(card_text(c, lang) for c in cards)}"
                      for seat, cards in enumerate(hand["in_play"])]
        lines.append(t(lang, "Bids: {bids}.", bids=", ".join(
            f"{names[b['seat']]} {b['bid']}" for b in hand["bids"])))
        told.append(lines)
        for number, trick in enumerate(hand["play"], start=1):
            cards = ", ".join(_played(names[c["seat"]], c, _trump(hand), lang)
                              for c in trick["cards"])
            lines = [t(lang, "Hand {number}, trick {trick} of {count}: {cards}. {winner} wins it.",
                       number=hand["number"], trick=number, count=len(hand["play"]),
                       cards=cards, winner=names[trick["winner"]])]
            if number == len(hand["play"]):
                lines += ["  " + _score_line(names[s["seat"]], s, lang) for s in hand["scores"]]
            told.append(lines)
    ranked = sorted(document["players"], key=lambda p: (p["placing"], p["seat"]))
    won = " " + t(lang, "(won)")
    told.append([t(lang, "Final standings:")] + [
        f"  {p['placing']}. {p['name']} {p['total']}" + (won if p["winner"] else "")
        for p in ranked
    ])
    return told


def _played(name: str, played: Document, trump: Suit | None, lang: Lang) -> str:
    """ "Ann 10♥", or "Ann High Joker (low ♦)" with what a joker was declared."""
    text = f"{name} {card_text(played['card'], lang)}"
    if played["declared"]:
        declared = declaration_words(lang, Declaration.from_code(played["declared"]), trump)
        text += f" ({declared})"
    return text


def _score_line(name: str, score: Document, lang: Lang) -> str:
    fields = {"name": name, "bid": score["bid"], "took": score["tricks"],
              "points": f"{score['points']:+d}", "total": score["total"]}
    if score["made"]:
        return t(lang, "{name}: bid {bid}, took {took} (made): {points}, total {total}", **fields)
    return t(lang, "{name}: bid {bid}, took {took} (missed): {points}, total {total}", **fields)


def hand_starts(document: Document) -> list[int]:
    """The step each hand's deal is told at (steps() tells the players first, then per hand
    its deal and one step per trick), so a replay can move hand by hand."""
    starts, step = [], 1
    for hand in document["hands"]:
        starts.append(step)
        step += 1 + len(hand["play"])
    return starts


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


__all__ = ["card_text", "hand_starts", "read_export", "replay_file", "steps"]
