"""The scoresheet: `/ohhell scores`, and the sheet under the final standings.

Laid out for a phone: PHONE_WIDTH characters a line, a block per player.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import DEFAULT_LANG, Lang, t
from bot.models import TableStatus, TableView
from cogs.render.body import BLUE
from cogs.render.lines import game_title, points
from engine import HandRecord

PHONE_WIDTH = 35
"""Characters of a code block line a phone shows without wrapping."""
MADE, MISSED = "✓", "✗"


def exact_bid_rule(lang: Lang = DEFAULT_LANG) -> str:
    """Quick's rule in a line, where the scoresheet would be."""
    return t(lang, "No scoresheet: the exact bid wins, the higher bid breaking ties.")


def exact_bid_game(view: TableView) -> bool:
    """Quick's rule (docs/rules.md section 4): one hand, the exact bid wins, no scoresheet."""
    return view.rules is not None and view.rules.winner_rule == "exact_bid"


def exact_bid_text(view: TableView, seat: int, lang: Lang = DEFAULT_LANG) -> str:
    """What a seat bid and took in the hand, and whether it was exact: "bid 2, took 2 ✓"."""
    st = view.state
    bid = st.bids[seat] if st is not None else None
    if st is None or bid is None:
        return t(lang, "did not bid")
    took = st.tricks_won[seat]
    return t(lang, "bid {bid}, took {took} {mark}", bid=bid, took=took,
             mark=MADE if bid == took else MISSED)


def scoresheet(view: TableView, lang: Lang = DEFAULT_LANG) -> discord.Embed:
    """`/ohhell scores`: the scoresheet so far (the final sheet once the game is over)."""
    title = game_title(view, lang)
    if view.status is TableStatus.FINISHED:
        title = t(lang, "{game} · scoresheet · final", game=title)
    elif view.status is TableStatus.CANCELLED:
        title = t(lang, "{game} · scoresheet · ended", game=title)
    else:
        title = t(lang, "{game} · scoresheet", game=title)
    e = discord.Embed(title=title, colour=BLUE)
    e.description = scoresheet_text(view, lang=lang) or (
        exact_bid_rule(lang) if exact_bid_game(view) else t(lang, "No hand has been scored yet."))
    return e


def scoresheet_text(view: TableView, limit: int = 3900, lang: Lang = DEFAULT_LANG) -> str:
    """The scoresheet for a phone (PHONE_WIDTH characters): a block per player, their whole name
    and total, then bid/took of each hand with ✓ made or ✗ missed; only the latest hands when it
    is too long for `limit`."""
    st = view.state
    if st is None or not st.scoresheet:
        return ""
    sheet = st.scoresheet
    for shown in range(len(sheet), 0, -1):
        body = _sheet_body(view, sheet[-shown:], cut=shown < len(sheet), lang=lang)
        key = t(lang, "bid/took each hand: {made} made, {missed} missed", made=MADE,
                missed=MISSED)
        text = f"{key}\n```\n{body}\n```"
        if len(text) <= limit:
            return text
    return text[:limit]


def _sheet_body(view: TableView, records: Sequence[HandRecord], *, cut: bool,
                lang: Lang) -> str:
    cells = [[f"{r.bids[s.seat]}/{r.tricks[s.seat]}{MADE if r.made[s.seat] else MISSED}"
              for r in records] for s in view.seats]
    width = max(len(c) for row in cells for c in row)
    per_line = max(1, (PHONE_WIDTH - 1) // (width + 1))
    lines: list[str] = []
    if cut:
        lines.append(t(lang, "(from hand {number})", number=records[0].hand_number))
    totals = records[-1].totals
    for s, row in zip(view.seats, cells, strict=True):
        name = s.name.replace("`", "'")
        total = points(totals[s.seat], lang)
        if len(name) + 2 + len(total) <= PHONE_WIDTH:
            lines.append(f"{name}  {total.rjust(PHONE_WIDTH - len(name) - 2)}")
        else:  # a long name has the line to itself, the total under it
            lines += [name, total.rjust(PHONE_WIDTH)]
        padded = [c.ljust(width) for c in row]
        for i in range(0, len(padded), per_line):
            lines.append(" " + " ".join(padded[i:i + per_line]).rstrip())
    return "\n".join(lines)
