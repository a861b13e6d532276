"""The end-of-game chart, checked as an image: its size, one line per player, readable on both
of Discord's themes."""

from __future__ import annotations

import io

import pytest
from matplotlib.lines import Line2D
from PIL import Image

from cogs.chart import (
    BACKGROUND,
    PALETTE,
    TEXT,
    contrast,
    running_totals_figure,
    running_totals_png,
)

DARK_THEME, LIGHT_THEME = "#313338", "#FFFFFF"
NAMES = ["Alexandrina", "Bob", "🤖 Bot 2", "Carol", "Dmitri", "Eve", "Fay", "Gus"]


def game(players: int, hands: int) -> list[list[int]]:
    """Running totals that cross each other, as a real game's do."""
    totals, rows = [0] * players, []
    for h in range(hands):
        totals = [t + seat * 4 + (10 + h % 3 if (h + seat) % 3 else 1)
                  for seat, t in enumerate(totals)]
        rows.append(list(totals))
    return rows


def rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def pixels_near(image: Image.Image, colour: str, tolerance: int = 12) -> int:
    target = rgb(colour)
    return sum(count for count, px in image.getcolors(maxcolors=1 << 20)
               if all(abs(a - b) <= tolerance for a, b in zip(px[:3], target, strict=True)))


@pytest.mark.parametrize("players", [3, 5, 8])
def test_one_line_per_player_through_every_hand(players: int) -> None:
    totals = game(players, 7)
    figure = running_totals_figure(NAMES[:players], totals)
    (axes,) = figure.axes
    lines = [line for line in axes.get_lines() if isinstance(line, Line2D)]
    assert len(lines) == players
    assert len({line.get_color() for line in lines}) == players  # told apart by colour
    assert len({line.get_marker() for line in lines}) == players  # and by marker
    by_name = {str(line.get_label()).split(". ", 1)[1].rsplit("  ", 1)[0]: line for line in lines}
    for seat in range(players):
        name = "Bot 2" if seat == 2 else NAMES[seat]  # the emoji is no glyph of the font
        line = by_name[name]
        assert list(line.get_xdata()) == list(range(8))  # hand 0 (the start) to hand 7
        assert list(line.get_ydata()) == [0, *(row[seat] for row in totals)]
    # the legend reads as the final standings
    labels = [str(line.get_label()) for line in lines]
    finals = [int(label.rsplit("  ", 1)[1]) for label in labels]
    assert finals == sorted(finals, reverse=True) and labels[0].startswith("1. ")


def test_the_png_has_its_size_and_every_line_is_drawn() -> None:
    png = running_totals_png(NAMES, game(8, 19))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (800, 450)
    rgba = image.convert("RGBA")
    for colour in PALETTE:  # each player's colour shows as a line, not a dot
        assert pixels_near(rgba, colour) > 300, colour
    assert pixels_near(rgba, TEXT, tolerance=40) > 200  # title, axes and legend text


def test_readable_in_the_dark_and_the_light_theme() -> None:
    image = Image.open(io.BytesIO(running_totals_png(NAMES[:4], game(4, 5)))).convert("RGBA")
    # opaque everywhere: it looks the same whichever theme is behind it
    assert image.getchannel("A").getextrema() == (255, 255)
    on_dark = Image.alpha_composite(Image.new("RGBA", image.size, DARK_THEME), image)
    on_light = Image.alpha_composite(Image.new("RGBA", image.size, LIGHT_THEME), image)
    assert on_dark.tobytes() == on_light.tobytes()
    # its own panel: the lines (WCAG 3:1 for graphics) and the text (7:1) stand out from it
    assert all(contrast(colour, BACKGROUND) >= 3 for colour in PALETTE)
    assert contrast(TEXT, BACKGROUND) >= 7
    # and the panel is a card on the light theme, not lost in it
    assert contrast(BACKGROUND, LIGHT_THEME) >= 3
    corner = image.getpixel((2, 2))
    assert isinstance(corner, tuple) and corner[:3] == rgb(BACKGROUND)


def test_refuses_a_ragged_sheet() -> None:
    with pytest.raises(ValueError, match="one total per player"):
        running_totals_png(["A", "B", "C"], [[1, 2, 3], [4, 5]])


def test_a_game_without_a_hand_still_draws() -> None:
    image = Image.open(io.BytesIO(running_totals_png(["A", "B", "C"], [])))
    assert image.size == (800, 450)


def test_drawn_in_a_worker_process_as_the_bot_does() -> None:
    # the bot draws the chart in its worker processes (COMPUTER_WORKERS), so the function and
    # its arguments must cross a process boundary
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        png = pool.submit(running_totals_png, NAMES[:3], game(3, 4), "Classic").result(120)
    assert Image.open(io.BytesIO(png)).size == (800, 450)


def test_the_chart_speaks_the_language_asked_for() -> None:
    """The final message's chart is in the server's language (cogs/voices.py)."""
    figure = running_totals_figure(["A", "B", "\U0001F47E"], [[1, 2, 3]], lang="nb")
    (axes,) = figure.axes
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("runde", "poeng")
    assert axes.get_title(loc="left") == "Poengsum runde for runde"
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert any("Plass 3" in line for line in legend)  # the name the font cannot draw
    english = running_totals_figure(["A", "B", "C"], [[1, 2, 3]]).axes[0]
    assert (english.get_xlabel(), english.get_ylabel()) == ("hand", "points")
