"""The special-card presets in the terminal: a person types every move (a joker with its
declaration, in one line or at the second prompt) until the game is over."""

from __future__ import annotations

import random
import re

import pytest

from bot import cli
from bot.i18n import Lang
from engine import Card, Phase, PlayerView, Rules

SPECIAL = [name for name in Rules.preset_names(special_cards=True)
           if name not in Rules.preset_names()]


class Person:
    """Answers the terminal's prompts as a person would, from what the game shows them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.me: PlayerView | None = None
        self.card = ""
        self.typed: list[str] = []
        self.declared = 0

    def answer(self, prompt: str) -> str:
        me = self.me
        assert me is not None
        if prompt.startswith("Declare the"):
            options = me.declarations_for(next(c for c in me.legal_cards
                                               if c.code == self.card))
            text = self.rng.choice(options).text(me.trump_suit)
            self.declared += 1
        elif me.phase.bidding:
            text = str(self.rng.choice(me.legal_bids))
        elif me.phase is Phase.PLAYING:
            card = self.rng.choice(me.legal_cards)
            options = me.declarations_for(card)
            self.card = card.code
            text = card.code if card.special else self.rng.choice([card.code, str(card)])
            if options and self.rng.random() < 0.5:  # the declaration on the same line
                text = f"{text} {self.rng.choice(options).text(me.trump_suit)}"
                self.declared += 1
        elif me.phase is Phase.TRUMP_CHOICE:
            text = self.rng.choice(me.legal_trumps).letter
        else:
            text = " ".join(c.code for c in me.hand[: me.discards_needed])
        self.typed.append(text)
        return text


async def _play(
    preset: str, seed: int, monkeypatch: pytest.MonkeyPatch, person: Person | None = None
) -> tuple[Person, str]:
    person = person or Person(seed)
    real_prompt = cli._prompt

    def prompt(me: PlayerView, lang: Lang = "en") -> str:
        person.me = me
        return real_prompt(me, lang)

    async def ask(keyboard: object, text: str, write: object, level: str,
                  lang: Lang = "en") -> str:
        return person.answer(text)

    monkeypatch.setattr(cli, "_prompt", prompt)
    monkeypatch.setattr(cli, "_ask", ask)
    rules = Rules.preset(preset)
    args = cli.build_parser().parse_args(
        ["play", "--preset", preset, "--players", str(rules.min_players), "--max-cards", "3",
         "--seed", str(seed), "--level", "easy"])
    lines: list[str] = []
    assert await cli.play(args, out=lines.append) == 0
    return person, "\n".join(lines)


@pytest.mark.parametrize("preset", SPECIAL)
async def test_a_special_preset_typed_in_the_terminal(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    person, out = await _play(preset, 3, monkeypatch)
    assert "Final standings:" in out or "Nobody made" in out or "Winner" in out, out[-500:]
    assert person.typed
    assert "not a card" not in out and "Say what the" not in out, out


async def test_a_joker_typed_with_its_declaration_is_shown_as_declared(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(1, 30):
        person, out = await _play("love_that_joker", seed, monkeypatch)
        if person.declared:
            break
    assert person.declared, "no joker came to the person in 30 games"
    assert "You play High Joker (" in out or "You play Low Joker (" in out


class Copier(Person):
    """Types the joker prompt's own example whenever it offers one: what it shows must play."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.copied: list[str] = []

    def answer(self, prompt: str) -> str:
        assert len(self.typed) < 500, "the same answer refused again and again"
        example = re.search(r"like (.+)\): $", prompt)
        if example is None:
            return super().answer(prompt)
        self.copied.append(example.group(1))
        self.typed.append(example.group(1))
        return example.group(1)


@pytest.mark.parametrize("preset", ["love_that_joker", "blackout_jokers"])
async def test_the_joker_prompts_example_is_accepted_as_typed(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(1, 40):
        person, out = await _play(preset, seed, monkeypatch, Copier(seed))
        assert isinstance(person, Copier)
        if person.copied:
            break
    assert person.copied, "no joker came to the person in 40 games"
    assert "not declared" not in out and "is not a" not in out, out
    # each copied example was played: "JKH high trump ♠" shows as "You play High Joker (high
    # trump ♠)"
    for example in person.copied:
        code, said = example.split(" ", 1)
        assert f"You play {Card.parse(code)} ({said})." in out, (example, out)


class Generic(Person):
    """Plays a joker as "JK" (with its declaration or not), as the prompt's first example
    suggested; told to say which, types its code."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.generic: list[int] = []  # jokers held each time "JK" was typed
        self.seen: set[tuple[int, int, tuple[str, ...]]] = set()

    def answer(self, prompt: str) -> str:
        text = super().answer(prompt)
        me = self.me
        assert me is not None
        if not prompt.startswith("Your card") or text.split()[0] not in ("JKH", "JKL"):
            return text
        key = (me.hand_number, len(me.hand), tuple(c.code for c in me.legal_cards))
        if key in self.seen:  # asked which: the code
            return text
        self.seen.add(key)
        self.generic.append(sum(1 for c in me.legal_cards if c.special))
        self.typed[-1] = "JK" + text[3:]
        return self.typed[-1]


async def test_jk_names_the_one_joker_held_and_asks_which_of_two(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    outs: list[str] = []
    held: list[int] = []
    for seed in range(1, 80):
        person, out = await _play("love_that_joker", seed, monkeypatch, Generic(seed))
        assert isinstance(person, Generic)
        outs.append(out)
        held.extend(person.generic)
        if 1 in held and 2 in held:
            break
    assert 1 in held and 2 in held, held
    everything = "\n".join(outs)
    assert "not declared" not in everything and "is not a" not in everything
    # one joker: "JK" is it; both: the terminal asks which, once for each time
    assert everything.count("You hold more than one joker: say which, JKH or JKL.") == (
        held.count(2))
    assert "You do not hold" not in everything


async def test_a_quick_game_in_the_terminal_ends_with_bids_not_a_scoresheet(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = await _play("quick", 3, monkeypatch)
    end = out[out.index("No scoresheet: the exact bid wins"):]
    assert "Final standings" not in out and "points  total" not in out, out[-800:]
    assert end.count(", took ") == Rules.preset("quick").min_players
    assert re.search(r"Winners?: ", end) or "Nobody made their exact bid." in end
