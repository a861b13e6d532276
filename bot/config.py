"""The table service's knobs (the bot fills them from Settings; tests set delays to 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.models import TableOptions


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Knobs of the service (the bot fills them from Settings; tests set delays to 0)."""

    default_turn_timeout: int = 120
    """Seconds per turn when the table does not say; 0 turns timers off."""
    computer_delay: float = 1.0
    """Pause before a run of computer moves, so people can follow; 0 in tests."""
    timeout_level: str = "medium"
    """The computer level that moves for a person whose time ran out (and on autopilot)."""
    autopilot_after: int = 2
    """Timeouts in a row after which a computer keeps playing the seat."""
    replacement_level: str = "medium"
    """The level of the computer that takes a kicked or departed person's seat."""
    hint_slots: int = 4
    """Hints taken at once across the process, one thinking and the rest waiting (bot/hints.py):
    at about 0.5 s of CPU each, the last waits about 2 s on a free core; more are refused."""
    hint_cooldown: float = 5.0
    """Seconds after a person's hint is answered before they may ask again, so one person
    takes at most about a tenth of the hint worker; 0: no cooldown (the terminal)."""

    def turn_timeout_of(self, options: TableOptions) -> int:
        """Seconds per turn at a table with these options (its own, else the default)."""
        if options.turn_timeout is not None:
            return options.turn_timeout
        return self.default_turn_timeout


__all__ = ["ServiceConfig"]
