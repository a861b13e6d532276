"""What the hard player's simulation of a deal is set up from: the rules and the position every
sampled deal starts at (`Setup`), the kind of policy a simulated seat follows (MEDIUM, EASY,
GREEDY), and my moves worth telling apart (`distinct_moves`).

The simulator itself is compiled (engine/ai/kernel/play.py, search.py, bids.py); its definition
in plain Python, which the kernels are tested against, is tests/ai/plain_sim.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.bits import SUIT_MASKS
from engine.ai.knowledge import Knowledge

MEDIUM = 0
EASY = 1
GREEDY = 2


@dataclass(frozen=True, slots=True)
class Setup:
    """One decision's simulation set-up: the rules in play and the position every sampled deal
    starts from. What differs between deals (the hands, the bids, the seats' kinds) is passed
    beside it."""

    players: int
    trump: int
    must_trump: bool
    after_broken: bool
    bust_take: bool
    """Whether a seat that can no longer make its bid still wants tricks (the scoring's say)."""
    broken: bool
    leader: int
    trick: tuple[int, ...]
    """The cards already played to the trick in progress, from `leader`."""
    won: tuple[int, ...]
    left: int
    """Tricks still to finish, the one in progress included."""
    live: int = -1
    """Every card not yet played nor turned up: what a seat cannot see counts as outstanding
    (the stock included), as it does for a real player. -1: the seats know exactly which cards
    are in the hands."""

    @classmethod
    def at(cls, k: Knowledge, bust_take: bool, live: int) -> Setup:
        """The position `k` describes, mid-hand."""
        return cls(
            k.players, k.trump, k.must_trump, k.after_broken, bust_take, k.broken, k.leader,
            tuple(k.trick), tuple(k.won), k.tricks_left, live,
        )

    @classmethod
    def hand_start(cls, k: Knowledge, bust_take: bool, live: int, leader: int,
                   tricks: int) -> Setup:
        """The first lead of a hand of `tricks` tricks, with `k`'s rules."""
        return cls(
            k.players, k.trump, k.must_trump, k.after_broken, bust_take, False, leader, (),
            (0,) * k.players, tricks, live,
        )


def distinct_moves(legal: int, elsewhere: int) -> list[int]:
    """One card per run of equivalent cards (same suit, no card still elsewhere between them)."""
    out: list[int] = []
    for suit in range(4):
        cards = legal & SUIT_MASKS[suit]
        previous = -1
        while cards:
            card = (cards & -cards).bit_length() - 1
            cards ^= 1 << card
            if previous >= 0:
                between = elsewhere & ((1 << card) - 1) & ~((2 << previous) - 1)
                if not between:
                    previous = card
                    continue
            out.append(card)
            previous = card
    return out
