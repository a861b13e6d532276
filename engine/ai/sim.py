"""A compact trick-taking simulator on bit sets, for the hard player's rollouts.

It plays the rest of a hand from any point with every hand known (one sampled deal), every seat
following the fast heuristic policy. It never touches the public Game class: hands are ints,
cards are ints, a trick is a list of ints. Tests check it against the engine (legal cards and
trick winners).
"""

from __future__ import annotations

from engine.ai.bits import SUIT_MASKS, legal_mask
from engine.ai.policy import choose_card


def rollout(
    hands: list[int],
    players: int,
    trump: int,
    must_trump: bool,
    after_broken: bool,
    broken: bool,
    leader: int,
    trick: list[int],
    bids: list[int],
    won: list[int],
    left: int,
    bust_take: bool,
    forced: int = -1,
) -> list[int]:
    """Play the hand out; returns the tricks won per seat. Inputs are not changed.

    `trick` holds the cards already played to the trick in progress (from `leader`), `left` the
    tricks still to finish (the one in progress included). `forced`, when set, is the card the
    next seat to act plays (the move being evaluated).
    """
    hands = hands[:]
    won = won[:]
    trick = trick[:]
    tmask = SUIT_MASKS[trump] if trump >= 0 else 0
    held = 0
    for hand in hands:
        held |= hand
    while left > 0:
        pos = len(trick)
        best = -1
        best_pos = 0
        if pos:
            best = trick[0]
            for i in range(1, pos):
                card = trick[i]
                if card // 13 == best // 13:
                    if card > best:
                        best, best_pos = card, i
                elif card // 13 == trump:
                    best, best_pos = card, i
        led = trick[0] // 13 if pos else -1
        while pos < players:
            seat = (leader + pos) % players
            hand = hands[seat]
            if forced >= 0:
                card = forced
                forced = -1
            else:
                legal = legal_mask(hand, led, trump, must_trump, after_broken, broken)
                need = bids[seat] - won[seat]
                card = choose_card(
                    legal,
                    hand,
                    best,
                    trump,
                    held & ~hand,
                    need,
                    left,
                    pos == players - 1,
                    need > 0 or (need < 0 and bust_take),
                )
            bit = 1 << card
            hands[seat] = hand ^ bit
            held ^= bit
            if best < 0:
                best, best_pos, led = card, pos, card // 13
            elif card // 13 == best // 13:
                if card > best:
                    best, best_pos = card, pos
            elif card // 13 == trump:
                best, best_pos = card, pos
            trick.append(card)
            pos += 1
        winner = (leader + best_pos) % players
        won[winner] += 1
        if tmask and best // 13 == trump:
            broken = True
        leader = winner
        trick = []
        left -= 1
    return won
