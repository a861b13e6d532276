"""One simulated deal as a row of int64s, played on by the fast policies: tests/ai/plain_sim.py's
SimState and `advance`, compiled.

A row holds every hand, the tricks won, each seat's kind of policy and the trick in progress
(the columns below). The rules that play does not change are a second row (RULES_*); the bids
a third, since a bid search varies them over one deal."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.ai.kernel.bits import bit_count, bit_length, jit, legal
from engine.ai.kernel.cards import choose_card, easy_card, greedy_card
from engine.ai.sim import EASY, GREEDY, Setup

Row = npt.NDArray[np.int64]

MAX_PLAYERS = 10
HANDS = 0
WON = HANDS + MAX_PLAYERS
KINDS = WON + MAX_PLAYERS
POS = KINDS + MAX_PLAYERS
"""Cards played to the trick in progress."""
LEADER = POS + 1
BEST = LEADER + 1
"""The card winning the trick so far (-1: none played)."""
BEST_POS = BEST + 1
LED = BEST_POS + 1
"""The suit led (-1: none yet)."""
LEFT = LED + 1
"""Tricks still to finish, the one in progress included."""
BROKEN = LEFT + 1
LIVE = BROKEN + 1
"""Cards a simulated seat counts as outstanding (engine/ai/sim.py Setup.live)."""
HELD = LIVE + 1
"""Every card still in a hand."""
TRAIL = HELD + 1
"""The cards played since the row was made, hashed (plain_sim.py's trail, modulo 2**64)."""
WIDTH = TRAIL + 1

RULES_PLAYERS = 0
RULES_TRUMP = 1
RULES_MUST_TRUMP = 2
RULES_AFTER_BROKEN = 3
RULES_BUST_TAKE = 4
RULES_WIDTH = 5


def rules_row(setup: Setup) -> Row:
    """The rules `setup` plays by, as the kernels read them."""
    row = np.zeros(RULES_WIDTH, dtype=np.int64)
    row[RULES_PLAYERS] = setup.players
    row[RULES_TRUMP] = setup.trump
    row[RULES_MUST_TRUMP] = setup.must_trump and setup.trump >= 0
    row[RULES_AFTER_BROKEN] = setup.after_broken and setup.trump >= 0
    row[RULES_BUST_TAKE] = setup.bust_take
    return row


def deal_row(setup: Setup, hands: list[int], kinds: list[int] | None = None) -> Row:
    """A deal at `setup`'s position with these hands (plain_sim.py's SimState)."""
    row = np.zeros(WIDTH, dtype=np.int64)
    held = 0
    for seat, hand in enumerate(hands):
        row[HANDS + seat] = hand
        held |= hand
        row[WON + seat] = setup.won[seat]
        row[KINDS + seat] = kinds[seat] if kinds is not None else 0
    row[LEADER] = setup.leader
    row[LEFT] = setup.left
    row[BROKEN] = setup.broken
    row[HELD] = held
    row[LIVE] = held if setup.live < 0 else setup.live
    best = -1
    best_pos = 0
    for pos, card in enumerate(setup.trick):
        if best < 0:
            best, best_pos = card, pos
        elif card // 13 == best // 13:
            if card > best:
                best, best_pos = card, pos
        elif card // 13 == setup.trump:
            best, best_pos = card, pos
    row[POS] = len(setup.trick)
    row[BEST] = best
    row[BEST_POS] = best_pos
    row[LED] = setup.trick[0] // 13 if setup.trick else -1
    return row


@jit
def legal_cards(state: Row, rules: Row, seat: int) -> int:
    """The cards `seat` may play now."""
    return legal(state[HANDS + seat], state[LED], rules[RULES_TRUMP],
                 rules[RULES_MUST_TRUMP] != 0, rules[RULES_AFTER_BROKEN] != 0,
                 state[BROKEN] != 0)


@jit
def policy_card(state: Row, rules: Row, bids: Row, seat: int, legal_mask: int) -> int:
    """The card `seat`'s kind of policy plays from `legal_mask` (more than one card)."""
    need = bids[seat] - state[WON + seat]
    kind = state[KINDS + seat]
    trump = rules[RULES_TRUMP]
    if kind == GREEDY:
        return greedy_card(legal_mask, trump, need)
    if kind == EASY:
        return easy_card(legal_mask, state[BEST], trump, need)
    hand = state[HANDS + seat]
    return choose_card(
        legal_mask, hand, state[BEST], trump, state[LIVE] & ~hand, need, state[LEFT],
        state[POS] == rules[RULES_PLAYERS] - 1,
        need > 0 or (need < 0 and rules[RULES_BUST_TAKE] != 0),
    )


@jit
def play(state: Row, rules: Row, card: int) -> None:
    """The seat to act plays `card`; a full trick is gathered to its winner."""
    players = rules[RULES_PLAYERS]
    pos = state[POS]
    seat = (state[LEADER] + pos) % players
    bit = 1 << card
    state[HANDS + seat] ^= bit
    state[HELD] ^= bit
    state[LIVE] &= ~bit
    state[TRAIL] = state[TRAIL] * 53 + card + 1
    best = state[BEST]
    suit = card // 13
    if best < 0:
        state[BEST] = card
        state[BEST_POS] = pos
        state[LED] = suit
    elif suit == best // 13:
        if card > best:
            state[BEST] = card
            state[BEST_POS] = pos
    elif suit == rules[RULES_TRUMP]:
        state[BEST] = card
        state[BEST_POS] = pos
    pos += 1
    if pos < players:
        state[POS] = pos
        return
    winner = (state[LEADER] + state[BEST_POS]) % players
    state[WON + winner] += 1
    trump = rules[RULES_TRUMP]
    if trump >= 0 and state[BEST] // 13 == trump:
        state[BROKEN] = 1
    state[LEADER] = winner
    state[POS] = 0
    state[BEST] = -1
    state[BEST_POS] = 0
    state[LED] = -1
    state[LEFT] -= 1


@jit
def advance(state: Row, rules: Row, bids: Row, me: int, branch_at: int, first: int) -> None:
    """Play the policy for every seat (me too while I hold more than `branch_at` cards, and my
    forced moves) until I must choose among `branch_at` cards or fewer, or the hand ends;
    `first` (>= 0) is the card the seat to act plays first. plain_sim.py's `advance`."""
    players = rules[RULES_PLAYERS]
    while state[LEFT] > 0:
        seat = (state[LEADER] + state[POS]) % players
        if first >= 0:
            card = first
            first = -1
        else:
            hand = state[HANDS + seat]
            mask = legal(hand, state[LED], rules[RULES_TRUMP], rules[RULES_MUST_TRUMP] != 0,
                         rules[RULES_AFTER_BROKEN] != 0, state[BROKEN] != 0)
            if mask & (mask - 1) == 0:
                card = bit_length(mask) - 1
            elif seat == me and bit_count(hand) <= branch_at:
                return
            else:
                card = policy_card(state, rules, bids, seat, mask)
        play(state, rules, card)





def with_hands(template: Row, hands: list[int], kinds: list[int], live: int) -> Row:
    """`template` (a `deal_row`) with these hands and kinds: a sampled deal at its position;
    `live` as Setup.live."""
    row = template.copy()
    players = len(hands)
    row[HANDS:HANDS + players] = hands
    row[KINDS:KINDS + players] = kinds
    held = 0
    for hand in hands:
        held |= hand
    row[HELD] = held
    row[LIVE] = held if live < 0 else live
    return row
