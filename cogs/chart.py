"""The end-of-game chart: every player's running total, hand by hand, as a PNG.

A pure function of names and totals (no Discord, no event loop): matplotlib's object API with
the Agg canvas, never pyplot, so it holds no global figure state; callers run it off the event
loop (`asyncio.to_thread`), since drawing takes tens of milliseconds.

Readable in Discord's dark and light themes: the image carries its own opaque dark panel (the
colour of Discord's dark embeds), so it looks the same on either; every line colour stands out
from that panel by a WCAG contrast of at least 3:1 and the text by at least 7:1. Lines differ by
marker and dash too, not only by colour, and the legend lists players by final standing.
Its words (axes, title, a seat with no drawable name) are in the language asked for: the
server's, as it goes on the final table message (cogs/voices.py).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from functools import lru_cache

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.ft2font import FT2Font
from matplotlib.ticker import MaxNLocator

from bot.i18n import DEFAULT_LANG, Lang, t, tc

WIDTH, HEIGHT, DPI = 800, 450, 100
"""Pixels: wide enough for Discord's desktop preview, legible when a phone scales it down."""
BACKGROUND = "#2B2D31"
"""Discord's dark embed colour: native in the dark theme, a clear card in the light one."""
TEXT = "#F2F3F5"
GRID = "#4E5058"
PALETTE = ("#FFB020", "#56B4E9", "#5FD38D", "#F0E442", "#FF7A6B", "#D8A1FF", "#7FE5E0",
           "#FFFFFF")
"""Eight colours, one a seat (Oh Hell seats at most 8), after Okabe and Ito's colour-blind safe
set, lightened where needed to stand out from BACKGROUND."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", "-", "-.", "-", "--", "-", ":")

_lock = threading.Lock()
"""One drawing at a time: matplotlib does not promise thread safety, and charts are rare."""


def running_totals_png(names: Sequence[str], totals: Sequence[Sequence[int]],
                       title: str | None = None, lang: Lang = DEFAULT_LANG) -> bytes:
    """The chart as PNG bytes. `totals[h][seat]` is the seat's total after hand h + 1."""
    figure = running_totals_figure(names, totals, title, lang)
    buffer = io.BytesIO()
    with _lock:
        FigureCanvasAgg(figure)  # attaches itself: savefig draws with Agg, no pyplot
        figure.savefig(buffer, format="png", facecolor=BACKGROUND)
    return buffer.getvalue()


def running_totals_figure(names: Sequence[str], totals: Sequence[Sequence[int]],
                          title: str | None = None, lang: Lang = DEFAULT_LANG) -> Figure:
    """The chart as a matplotlib Figure (one Line2D per player, labelled with the name);
    `title`: default "Running totals" in `lang`."""
    if any(len(row) != len(names) for row in totals):
        raise ValueError("every hand needs one total per player")
    if len(names) > len(PALETTE):
        raise ValueError(f"at most {len(PALETTE)} players")
    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor=BACKGROUND)
    axes = figure.add_subplot()
    axes.set_facecolor(BACKGROUND)
    hands = list(range(len(totals) + 1))  # hand 0: everyone starts at 0
    last = totals[-1] if totals else [0] * len(names)
    order = sorted(range(len(names)), key=lambda seat: -last[seat])
    for place, seat in enumerate(order, 1):
        ys = [0, *(row[seat] for row in totals)]
        axes.plot(hands, ys, color=PALETTE[seat], marker=MARKERS[seat],
                  linestyle=DASHES[seat], linewidth=2.4, markersize=6,
                  label=f"{place}. {drawable(names[seat], seat, lang)}  {ys[-1]}")
    axes.set_title(title or t(lang, "Running totals"), color=TEXT, fontsize=15, loc="left",
                   pad=10)
    axes.set_xlabel(tc(lang, "chart", "hand"), color=TEXT, fontsize=12)
    axes.set_ylabel(t(lang, "points"), color=TEXT, fontsize=12)
    axes.tick_params(colors=TEXT, labelsize=11)
    axes.grid(True, color=GRID, linewidth=0.8)
    axes.set_axisbelow(True)
    for spine in axes.spines.values():
        spine.set_color(GRID)
    axes.set_xlim(0, max(1, len(totals)))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, fontsize=12,
                labelcolor=TEXT, handlelength=2.6)
    figure.tight_layout()
    return figure


@lru_cache(maxsize=1)
def _glyphs() -> frozenset[int]:
    """The code points the chart's font can draw (names may hold emoji it cannot)."""
    return frozenset(FT2Font(findfont(FontProperties())).get_charmap())


LONGEST_NAME = 20
"""Characters of a name in the legend; a longer one ends in "…" so the plot keeps its width."""


def drawable(name: str, seat: int, lang: Lang = DEFAULT_LANG) -> str:
    """The name without characters the font would draw as empty boxes ("Seat 3" if none left),
    shortened past LONGEST_NAME."""
    glyphs = _glyphs()
    kept = "".join(ch for ch in name if ord(ch) in glyphs).strip()
    if len(kept) > LONGEST_NAME:
        kept = kept[:LONGEST_NAME - 1].rstrip() + "…"
    return kept or t(lang, "Seat {number}", number=seat + 1)


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two "#RRGGBB" colours (1 to 21)."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


__all__ = ["BACKGROUND", "PALETTE", "TEXT", "contrast", "running_totals_figure",
           "running_totals_png"]
