"""Every refusal and every rule line is a catalogue message (bot/i18n.py): a TableError, an
engine IllegalAction or Refusal, or a Phrase (engine/phrase.py) carries its English msgid and its
fields, and a reader gets it in their language; a message built from a variable could not be
looked up, so the source holds none."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.errors import TableError
from bot.i18n import LANGS, Lang, catalogue, has, say
from bot.models import TableOptions
from bot.options import check_level, check_options
from engine import Game, IllegalAction, Phrase, Rules
from tests.discord.test_language import ENGLISH, _words

ROOT = Path(__file__).resolve().parents[2]
SAYERS = {"Phrase", "Refusal", "IllegalAction", "TableError"}
"""The constructors whose first argument is a msgid (`TableError.of(phrase)` takes a phrase
made by one of them)."""


def _calls() -> Iterator[tuple[str, ast.Call]]:
    for folder in ("engine", "bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "engine" / "phrase.py":  # where a phrase is made from its parts
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else None
                if name in SAYERS:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def _msgids() -> dict[str, str]:
    found = {}
    for where, call in _calls():
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found[first.value] = where
    return found


def test_every_refusal_and_rule_line_is_written_as_a_literal_message() -> None:
    """`TableError(f"...")` or `TableError(text)` could not be found in the catalogue."""
    built = [where for where, call in _calls()
             if not (call.args and isinstance(call.args[0], ast.Constant)
                     and isinstance(call.args[0].value, str))]
    assert built == []
    assert len(_msgids()) > 150  # the scan sees the raise sites (it would pass seeing none)


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_and_rule_line_the_code_can_say_is_in_the_catalogue(lang: Lang) -> None:
    keys = {m.id for m in catalogue(lang) if m.id and m.context is None}
    missing = {msgid: where for msgid, where in _msgids().items() if msgid not in keys}
    assert missing == {}


def test_norwegian_translates_every_refusal_and_rule_line() -> None:
    untranslated = sorted(msgid for msgid in _msgids() if not has("nb", None, msgid))
    assert untranslated == []


def _refusal(action: object, *args: object, **kwargs: object) -> TableError | IllegalAction:
    with pytest.raises((TableError, IllegalAction)) as caught:
        action(*args, **kwargs)  # type: ignore[operator]
    return caught.value


def test_a_refusal_reads_english_as_ever_and_norwegian_with_its_fields_in_place() -> None:
    err = _refusal(check_level, "genius")
    assert str(err) == "There is no computer level 'genius': use random, easy, medium, hard."
    assert isinstance(err, TableError) and err.text("en") == str(err)
    assert err.text("nb") == ("Det finnes ikke noe datanivå 'genius': bruk random, easy, "
                              "medium, hard.")


def test_an_engine_refusal_names_the_suit_and_card_in_norwegian() -> None:
    game = Game.new(players=3, rules=Rules.preset("classic"), seed=4, dealer=0)
    for seat in (1, 2, 0):
        game.bid(seat, next(b for b in range(game.tricks_in_hand + 1) if b != game.hook_bid
                            or seat != 0))
    leader = game.turn
    game.play(leader, game.hand_of(leader)[0])
    follower = game.turn
    led = game.current_trick[0][1].suit
    held = game.hand_of(follower)
    offsuit = next((c for c in held if c.suit != led), None)
    if offsuit is None or all(c.suit != led for c in held):
        pytest.skip("this deal leaves nothing to refuse")
    err = _refusal(game.play, follower, offsuit)
    norwegian = say("nb", err.phrase)
    assert norwegian.startswith("Du må følge farge: du har ")
    assert norwegian.rstrip(".").split()[-1] in {"kløver", "ruter", "hjerter", "spar"}
    assert _words(norwegian) & ENGLISH == set()
    assert say("en", err.phrase) == str(err)


@pytest.mark.parametrize("name", Rules.preset_names(special_cards=True))
def test_every_preset_reads_its_rules_in_norwegian_card_words(name: str) -> None:
    rules = Rules.preset(name)
    for players in (None, rules.min_players):
        english = [say("en", line) for line in rules.describe_phrases(players)]
        assert english == rules.describe(players)
        lines = [say("nb", line) for line in rules.describe_phrases(players)]
        text = " ".join(lines)
        assert _words(text) & ENGLISH == set(), text
    assert "meld" in text and "trumf" in text and "runde" in text


def test_the_rules_of_a_game_with_a_table_size_read_norwegian() -> None:
    rules = Rules.preset("classic")
    text = " ".join(say("nb", line) for line in rules.describe_phrases())
    assert {"giveren", "stikk", "melder", "trumf", "kort"} <= _words(text)
    assert say("nb", rules.plan_phrase(4)).startswith("Med 4 spillere: 19 runder med ")
    problem = rules.why_not(9)
    assert problem is not None
    assert say("nb", problem) == "Klassisk Oh Hell er for 3 til 7 spillere, ikke 9."


def test_options_that_can_never_be_dealt_are_refused_in_norwegian() -> None:
    err = _refusal(check_options, TableOptions(preset="ouch", max_cards=1))
    assert isinstance(err, TableError)
    assert _words(err.text("nb")) & ENGLISH == set(), err.text("nb")


def test_a_phrase_is_english_without_a_catalogue() -> None:
    phrase = Phrase("The table is full ({limit} seats).", limit=5)
    assert str(phrase) == "The table is full (5 seats)."
