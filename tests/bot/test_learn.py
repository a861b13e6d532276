"""The guided first hand (003's worked example) played through to the end with one wrong move,
and an exported game stepped through, in the terminal (`python -m bot learn`, `replay FILE`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.learn import Lesson
from bot.models import TableOptions
from bot.service import TableService
from data import Store
from tests.bot.conftest import CHANNEL, GUILD, HOST
from tests.bot.helpers import any_move, is_open
from tests.bot.test_cli import ROOT, _run
from tests.discord.test_language import ENGLISH, _words

ANSWERS_WITH_ONE_WRONG_MOVE = ["2", "AH", "JS", "6D", "JS"]
"""The J♠ on Sam's diamond lead is the wrong move: you hold the 6♦ and must follow suit."""


def test_the_lesson_explains_each_step_and_a_wrong_move() -> None:
    lesson = Lesson()
    told = lesson.start().lines
    assert "J♠ A♥ 6♦" in " ".join(told) and "9♠" in " ".join(told)
    steps = [lesson.answer(answer) for answer in ANSWERS_WITH_ONE_WRONG_MOVE]
    assert [s.taken for s in steps] == [True, True, False, True, True]
    text = "\n".join(line for step in steps for line in step.lines)
    assert "Sam may not bid 0" in text
    assert "the 6♠ beats the A♥" in text
    wrong = "\n".join(steps[2].lines)
    assert "You must follow suit: you hold a diamond." in wrong and "Try again." in wrong
    assert steps[2].choices == ["6D", "JS"]  # asked again, nothing changed
    assert "10 + 2 = 12" in text and "/ohhell start" in text and "python -m bot play" in text
    assert steps[-1].done and lesson.game.scores == [12, 0, 11]


def test_an_answer_off_the_lesson_is_explained_and_changes_nothing() -> None:
    lesson = Lesson()
    lesson.start()
    for off in ("3", "seven", "", "ZZ"):
        step = lesson.answer(off)
        assert not step.taken and "bid 2" in " ".join(step.lines)
    assert lesson.game.bids == [None, None, None]
    lesson.answer("2")
    step = lesson.answer("6D")  # legal, but the lesson asks for the A♥
    assert not step.taken and "A♥" in " ".join(step.lines)


def test_a_norwegian_lesson_says_why_a_card_is_refused_in_norwegian() -> None:
    """The engine's reason (a card it cannot read, the follow-suit rule) reaches the reader in
    their language, not as the engine's English sentence."""
    lesson = Lesson(lang="nb")
    lesson.start()
    lesson.answer("2")
    lesson.answer("AH")
    steps = [lesson.answer("ZZ"), lesson.answer("JS")]  # not a card; a card that must follow
    assert not any(step.taken for step in steps)
    for step in steps:
        text = "\n".join(step.lines)
        assert _words(text) & ENGLISH == set(), text


def test_a_lesson_is_rebuilt_from_its_answers() -> None:
    """Discord carries the answers given so far in its buttons; the lesson comes back exactly."""
    lesson = Lesson.replayed(["2", "AH"])
    assert lesson.answers == ["2", "AH"] and lesson.choices() == ["6D", "JS"]
    with pytest.raises(ValueError, match="not an answer"):
        Lesson.replayed(["2", "JS"])


def test_learn_in_the_terminal_to_the_end(tmp_path: Path) -> None:
    result = _run(["learn"], cwd=tmp_path, stdin="\n".join(ANSWERS_WITH_ONE_WRONG_MOVE) + "\n")
    assert result.returncode == 0, result.stderr
    assert "You must follow suit" in result.stdout
    assert "you score 12" in result.stdout
    assert result.stdout.rstrip().endswith("python -m bot play.")


async def test_replay_an_exported_game_in_the_terminal(
    service: TableService, store: Store, tmp_path: Path
) -> None:
    from bot import archive

    options = TableOptions(preset="joker_high", computers=3, seed=8, max_cards=2,
                           computer_level="random")
    tid = (await service.open_table(GUILD, CHANNEL, HOST, "Host", options)).table_id
    await service.deal(tid, HOST)
    for step in range(500):
        await service.wait_idle()
        if not is_open(service, tid):
            break
        await any_move(service, tid, HOST, seed=step)
    game_id = await store.game_for_table(tid)
    assert game_id is not None
    exported = archive.export_game(await archive.tell(store, GUILD, game_id))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    result = _run(["replay", str(path)], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    hands = exported["hands"]
    for hand in hands:
        assert f"Hand {hand['number']} of {len(hands)}" in result.stdout
        assert f"trick {len(hand['play'])} of {len(hand['play'])}" in result.stdout
    assert "Final standings:" in result.stdout
    assert result.stdout.count(" wins it.") == sum(len(h["play"]) for h in hands)

    path.write_text('{"format": "something else"}', encoding="utf-8")
    refused = _run(["replay", str(path)], cwd=ROOT)
    assert refused.returncode == 2 and "not an exported Oh Hell game" in refused.stdout
