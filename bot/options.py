"""Table options (what the host picks at /ohhell start) checked and turned into engine Rules."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.errors import TableError
from bot.models import COMPUTER_LEVELS, TableOptions
from engine import Rules


def table_options(**chosen: Any) -> TableOptions:
    """The options of a new table from what the host and the server's settings chose;
    TableError naming the option when one is out of bounds (a server default stored before its
    bounds were checked, say), instead of an unexplained failure."""
    try:
        return TableOptions(**chosen)
    except ValidationError as err:
        first = err.errors()[0]
        name = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise TableError(
            "The option {option} cannot be {value!r} ({why}). If it is this server's default, a "
            "server manager can set it again with /ohhell settings.", option=name,
            value=first.get("input"), why=first["msg"].lower(),
        ) from None


def check_level(level: str) -> None:
    """TableError unless `level` is a computer level (random, easy, medium, hard)."""
    if level not in COMPUTER_LEVELS:
        raise TableError("There is no computer level {level!r}: use {levels}.", level=level,
                         levels=", ".join(COMPUTER_LEVELS))


def check_options(options: TableOptions) -> Rules:
    """The preset's rules, after checking the options can make rules at all."""
    presets = Rules.preset_names(special_cards=True)
    if options.preset not in presets:
        raise TableError("There is no preset {preset!r}. Presets: {presets}.",
                         preset=options.preset, presets=", ".join(presets))
    check_level(options.computer_level)
    rules = rules_for(options)
    problems = [
        rules.why_not(players) for players in range(rules.min_players, rules.max_players + 1)
    ]
    if all(problems):
        raise TableError("These rules can never be dealt: {problem}", problem=problems[0])
    return Rules.preset(options.preset)


def rules_for(options: TableOptions) -> Rules:
    """The preset with the host's overrides, validated."""
    preset = Rules.preset(options.preset)
    update: dict[str, Any] = {}
    if options.max_cards is not None:
        update["max_hand"] = options.max_cards
        update["hand_sizes"] = None
    if options.scoring is not None:
        update["scoring"] = options.scoring
    if options.hook is not None:
        update["hook"] = options.hook
    if not update:
        return preset
    try:
        return Rules.model_validate({**preset.model_dump(), **update})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise TableError("Those options do not work together ({where}: {why}).", where=where,
                         why=first["msg"]) from None


__all__ = ["check_level", "check_options", "rules_for", "table_options"]
