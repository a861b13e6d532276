"""The terminal in Norwegian (`--lang nb`): a whole game typed at the keyboard, wrong answers
and Norwegian card words included, reads Norwegian from the first line to the standings."""

from __future__ import annotations

import re
from pathlib import Path

from bot import cli
from bot.moves import read_card
from engine import Card
from tests.bot.test_cli import _run
from tests.discord.test_language import ENGLISH, _words

SCRIPT = "zz\n99\nhjelp\npoeng\n1\nhjerter 10\nruter 4\nspar 10\nauto\n"
"""Seed 4 deals you 4♦ and 10♥ in the first hand and Bot 2 leads a diamond: junk and a bid out
of range first, the help and the scores asked for by their Norwegian words, a bid, the 10♥
refused (you hold a diamond), the 4♦ named in Norwegian, then the computer plays on."""


def test_a_typed_game_in_norwegian_shows_no_english(tmp_path: Path) -> None:
    result = _run(["play", "--players", "3", "--max-cards", "2", "--seed", "4", "--lang", "nb"],
                  cwd=tmp_path, stdin=SCRIPT)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    english = {line: _words(line) & ENGLISH for line in out.splitlines()}
    assert {line: words for line, words in english.items() if words} == {}
    assert "'zz' er ingen melding: svar med et tall ('hjelp' sier" in out
    assert "Meldingene går fra 0 til 2 i denne runden." in out
    assert out.count(cli.help_text("nb")) == 2  # at the start, and for 'hjelp'
    assert "Ingen runde er ferdig" in out or "Ingen runder" in out or "poeng" in out
    assert "Din melding (0–2): " in out and "Ditt kort: " in out
    assert "Du må følge farge: du har ruter." in out  # hjerter 10 on a diamond lead
    assert "Du spiller 4♦." in out  # "ruter 4"
    assert "Sluttstilling:" in out
    assert re.search(r"Du melder \d\.", out)


def test_norwegian_card_words_name_cards_suit_or_rank_first() -> None:
    for typed, code in (("hjerter 10", "10H"), ("10 hjerter", "10H"), ("spar dame", "QS"),
                        ("dame spar", "QS"), ("ess ruter", "AD"), ("knekt av kløver", "JC"),
                        ("konge hjerter", "KH"), ("QS", "QS"), ("q of hearts", "QH")):
        assert read_card(typed) is Card.parse(code), typed
