"""The README: a row for every preset, made from the engine's own rules, and commands that work
as written in a new shell."""

from __future__ import annotations

import re
from pathlib import Path

from engine import Rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BEGIN = "<!-- presets: begin (tests/test_readme.py writes these rows; keep them in step) -->"
END = "<!-- presets: end -->"
TABLE_PLAYERS = 4
"""The hands column is a game for this many players (or the fewest a preset allows)."""


def hands_text(rules: Rules, players: int) -> str:
    """A game's hands in words: "19 hands: 10 down to 1, back up to 10"."""
    sizes = rules.plan(players)
    most, count = max(sizes), len(sizes)
    discards = rules.discards_for(players)
    if rules.hand_sequence == "random" and not rules.hand_sizes:
        return f"1 hand of 1 to {most} cards, drawn at random"
    if rules.game_end == "target":
        text = f"hands of {most} until someone reaches {rules.target_score} points"
    elif rules.hand_sizes:
        text = f"{count} hands: {', '.join(str(size) for size in sizes)}"
    else:
        text = f"{count} hands" + {
            "down_up": f": {most} down to 1, back up to {most}",
            "up_down": f": 1 up to {most}, back down to 1",
            "up": f": 1 up to {most}",
            "down": f": {most} down to 1",
            "fixed": f" of {most}",
        }[rules.hand_sequence]
    if discards:
        text += f", {discards} discarded from each (so {most - discards} tricks)"
    return text


def scoring_text(rules: Rules) -> str:
    """How a hand scores, in the engine's words (`Rules.describe`, as `/ohhell rules` says it)."""
    lines = rules.describe()
    if rules.winner_rule == "exact_bid":
        line = next(line for line in lines if line.startswith("No scoresheet"))
    else:
        line = next(line for line in lines if line.startswith("Scoring: "))
    return line.removeprefix("Scoring: ").removesuffix(".")


def preset_rows() -> list[str]:
    """The README's preset table, one row a preset in the engine's order."""
    rows = [
        f"| preset | what it is | players | hands (a game for {TABLE_PLAYERS}) | scoring |",
        "|---|---|---|---|---|",
    ]
    for name in Rules.preset_names(special_cards=True):
        rules = Rules.preset(name)
        players = max(TABLE_PLAYERS, rules.min_players)
        hands = hands_text(rules, players)
        if players != TABLE_PLAYERS:
            hands = f"with {players} players: {hands}"
        rows.append(f"| `{name}` | {rules.title} | {rules.min_players}-{rules.max_players} "
                    f"| {hands} | {scoring_text(rules)} |")
    return rows


def test_the_readme_has_a_row_for_every_preset_as_the_engine_defines_it() -> None:
    assert BEGIN in README and END in README
    shown = README.split(BEGIN, 1)[1].split(END, 1)[0].strip().splitlines()
    expected = preset_rows()
    assert shown == expected, "README.md's preset table should read:\n" + "\n".join(expected)


def test_python_commands_work_in_a_new_shell() -> None:
    # A new shell has no virtual environment active: a command runs the venv's python by its
    # path, or activates the venv first on the same line.
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    assert blocks
    for block in blocks:
        for line in block.splitlines():
            command = line.split("#", 1)[0]
            for part in re.split(r"&&|;", command):
                words = part.split()
                if words and words[0] in ("python", "pip", "ruff", "mypy"):
                    assert ". .venv/bin/activate" in command.split(part)[0], line
    for span in re.findall(r"`([^`\n]+)`", README):
        assert not re.match(r"python (bench/|-m bot play)", span), span
