"""Guards: the exact decision a control was made for, so a stale or second use is refused.

A bid button, a card menu or a trump button is drawn for one decision of one seat: hand 3, the
card of trick 5. The control carries that decision (`Guard.code()`, a few characters of its
custom_id), and the service refuses the move once the decision is taken, in plain words ("That
menu is out of date: you already played K♣"), changing nothing.

Why the seat's turn and not the table's move counter: in simultaneous bidding the others' bids
do not take a seat's decision away, and a guard that changed with every move would re-render
every waiting DM after each bid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from engine import Move, Outcome, Phase, Play


class Decision(Protocol):
    """Where a game stands: a Game itself, or a PublicState or PlayerView of it."""

    @property
    def phase(self) -> Phase: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def trick_number(self) -> int: ...


_CODE = re.compile(r"(?P<hand>\d{1,4})(?:(?P<step>[a-z])(?P<trick>\d{1,3}))?")


def step_letter(kind: type[Move]) -> str:
    """A move type's letter in a guard: its initial (b, p, n, d)."""
    return kind.__name__[0].lower()


@dataclass(frozen=True, slots=True)
class Guard:
    """A decision: `hand_number`, the move awaited (`step`: its type's initial) and the trick.

    A guard with no step names only the hand (a hand message drawn before guards had steps,
    the terminal's prompt): it is refused only once that hand is over.
    """

    hand_number: int
    step: str | None = None
    trick_number: int = 0

    @classmethod
    def of(cls, state: Decision) -> Guard:
        """The decision the game awaits now (the trick counts only for a card). A Game is
        read directly (a move's check builds no public state for three numbers)."""
        awaits = state.phase.awaits
        if awaits is None:
            return cls(state.hand_number)
        return cls(state.hand_number, step_letter(awaits),
                   state.trick_number if awaits is Play else 0)

    @classmethod
    def taken(cls, outcome: Outcome) -> Guard:
        """The decision an accepted move took."""
        kind = type(outcome.move)
        trick = outcome.trick_number or 0 if kind is Play else 0
        return cls(outcome.hand_number, step_letter(kind), trick)

    def code(self) -> str:
        """The compact form custom_ids carry: "3", or "3p5" (hand 3, a card for trick 5)."""
        if self.step is None:
            return str(self.hand_number)
        return f"{self.hand_number}{self.step}{self.trick_number}"

    @classmethod
    def from_code(cls, text: str) -> Guard:
        """Read a guard back from `code()`; ValueError when it is not one."""
        found = _CODE.fullmatch(text)
        if found is None:
            raise ValueError(f"{text!r} is not a guard")
        step = found["step"]
        return cls(int(found["hand"]), step, int(found["trick"]) if step else 0)

    def covers(self, other: Guard) -> bool:
        """Both name the same decision (a hand-only guard covers its whole hand)."""
        if self.hand_number != other.hand_number:
            return False
        return self.step is None or (self.step, self.trick_number) == (
            other.step, other.trick_number)


GUARD_PATTERN = r"\d{1,4}(?:[a-z]\d{1,3})?"
"""The regular expression of a guard code, for DynamicItem templates."""

__all__ = ["GUARD_PATTERN", "Guard", "step_letter"]
