"""What one seat knows, read off its PlayerView into bit sets.

Everything here comes from the view alone: the own hand, the cards played (and who played them),
the trump card, the own discards, bids and tricks. From the play it infers voids: a seat that did
not follow suit holds none of the suit led; under must-trump, one that neither followed nor
trumped holds no trump either; under trump-lead-after-broken, a seat that led a trump before
trumps were broken held nothing but trumps.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.bits import FULL, NO_TRUMP, SUIT_MASKS, mask_of, popcount
from engine.moves import Phase
from engine.view import PlayerView

ALL_SUITS = 0b1111


@dataclass(slots=True)
class Knowledge:
    seat: int
    players: int
    trump: int
    tricks_in_hand: int
    hand_size: int
    blind: bool
    hand: int
    """The own hand (0 while a blind hand is hidden)."""
    played: int
    played_by: list[int]
    voids: list[int]
    """Per seat, a 4-bit set of suits the seat is known to hold none of."""
    known: list[int]
    """Per seat, cards known to be in that hand (the dealer's turned last card in Oh! Well)."""
    held: list[int]
    """Per seat, how many cards it holds now."""
    unseen: int
    """Cards whose place this seat does not know (other hands, the stock, others' discards)."""
    out_count: int
    """How many of the unseen cards are in no hand."""
    bids: list[int]
    """Bids, -1 where not made (or hidden)."""
    won: list[int]
    leader: int
    trick: list[int]
    broken: bool
    tricks_left: int
    """Tricks still to be won, the one in play included."""
    must_trump: bool
    after_broken: bool
    turned: int
    """The turned trump card when it is out of play (turn-up), as a bit set; else 0."""

    @property
    def best(self) -> int:
        """The card currently winning the trick in play, or -1."""
        trick = self.trick
        if not trick:
            return -1
        best = trick[0]
        trump = self.trump
        for card in trick[1:]:
            if card // 13 == best // 13:
                if card > best:
                    best = card
            elif card // 13 == trump:
                best = card
        return best


def read_view(view: PlayerView) -> Knowledge:
    players = view.players
    seat = view.seat
    rules = view.rules
    trump = NO_TRUMP if view.trump_suit is None else int(view.trump_suit)
    must_trump = rules.must_trump
    after_broken = rules.trump_lead == "after_broken"
    hand = mask_of(view.hand)
    blind = view.blind and not view.hand
    played_by = [0] * players
    voids = [0] * players
    broken = False
    tricks = list(view.tricks_played)
    if view.current_trick:
        tricks.append(view.current_trick)
    for trick in tricks:
        leader, lead_card = trick[0]
        led = lead_card.index // 13  # the suit's number, as in bits (standard cards only)
        if after_broken and trump >= 0 and led == trump and not broken:
            voids[leader] |= ALL_SUITS & ~(1 << trump)
        any_trump = led == trump
        for who, card in trick:
            played_by[who] |= 1 << card.index
            suit = card.index // 13
            if suit != led:
                voids[who] |= 1 << led
                if must_trump and trump >= 0 and suit != trump:
                    voids[who] |= 1 << trump
            if suit == trump:
                any_trump = True
        if any_trump and len(trick) == players:
            broken = True
    played = 0
    for cards in played_by:
        played |= cards
    known = [0] * players
    turned = 0
    if view.trump_card is not None:
        trump_bit = 1 << view.trump_card.index
        if rules.trump_choice == "dealer_last_card":
            if view.dealer != seat and not played & trump_bit:
                known[view.dealer] = trump_bit
        else:
            turned = trump_bit
    tricks_in_hand = view.tricks_in_hand
    held = [tricks_in_hand - popcount(cards) for cards in played_by]
    if view.phase in (Phase.DISCARD, Phase.TRUMP_CHOICE):
        held = [view.hand_size] * players
        held[seat] = len(view.hand)
    unseen = FULL & ~hand & ~played & ~turned & ~mask_of(view.discarded)
    for cards in known:
        unseen &= ~cards
    in_hands = sum(
        held[other] - popcount(known[other]) for other in range(players) if other != seat or blind
    )
    out_count = max(0, popcount(unseen) - in_hands)
    leader = view.current_trick[0][0] if view.current_trick else (
        view.turn if view.turn is not None else (view.dealer + 1) % players
    )
    return Knowledge(
        seat=seat,
        players=players,
        trump=trump,
        tricks_in_hand=tricks_in_hand,
        hand_size=view.hand_size,
        blind=blind,
        hand=hand,
        played=played,
        played_by=played_by,
        voids=voids,
        known=known,
        held=held,
        unseen=unseen,
        out_count=out_count,
        bids=[-1 if bid is None else bid for bid in view.bids],
        won=list(view.tricks_won),
        leader=leader,
        trick=[card.index for _, card in view.current_trick],
        broken=broken or view.trump_broken,
        tricks_left=tricks_in_hand - len(view.tricks_played),
        must_trump=must_trump,
        after_broken=after_broken,
        turned=turned,
    )


def suit_of_mask(suits: int) -> int:
    """The card bit set of a 4-bit suit set."""
    out = 0
    for suit in range(4):
        if suits >> suit & 1:
            out |= SUIT_MASKS[suit]
    return out
