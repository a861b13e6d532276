"""The computer players `random`, `easy` and `medium`, and what every level shares.

A player sees only a PlayerView. Its randomness comes from its own `random.Random(seed)`.
Every decision is checked against the view's legal options before it is returned, so a player
never answers with an illegal move.
"""

from __future__ import annotations

import random

from engine.ai import special
from engine.ai.bits import SUIT_MASKS, mask_of
from engine.ai.knowledge import Knowledge, read_view
from engine.ai.policy import (
    TAKE_WHEN_BUST,
    TrickEstimator,
    choose_card,
    easy_card,
    easy_count,
    nearest_bid,
    wants_tricks,
)
from engine.cards import STANDARD_DECK, Card, Suit
from engine.moves import Bid, Declaration, Discard, Move, NameTrump, Play
from engine.view import PlayerView


class Player:
    """A computer player: one method per decision the rules can ask for."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ----- the surface -----

    def choose_move(self, view: PlayerView) -> Move:
        """The move the view's phase awaits: a bid, a card, a trump suit or discards."""
        awaited = view.phase.awaits
        if awaited is Bid:
            return Bid(self.choose_bid(view))
        if awaited is Play:
            return self.choose_play(view)
        if awaited is NameTrump:
            return NameTrump(self.choose_trump(view))
        if awaited is Discard:
            return Discard(tuple(self.choose_discards(view)))
        raise ValueError(f"There is nothing to decide in phase {view.phase.value}.")

    def choose_bid(self, view: PlayerView) -> int:
        if not view.legal_bids:
            raise ValueError("This seat has no bid to make now.")
        bid = self._special_bid(view) if _special(view) else self._bid(view)
        return bid if bid in view.legal_bids else view.legal_bids[0]

    def choose_card(self, view: PlayerView) -> Card:
        if not view.legal_cards:
            raise ValueError("This seat has no card to play now.")
        if _special(view):
            return self.choose_play(view).card
        if len(view.legal_cards) == 1:
            return view.legal_cards[0]
        card = self._card(view)
        return card if card in view.legal_cards else view.legal_cards[0]

    def choose_play(self, view: PlayerView) -> Play:
        """The card to play, with its declaration when it is a joker that takes one."""
        if not view.legal_cards:
            raise ValueError("This seat has no card to play now.")
        if not _special(view):
            return Play(self.choose_card(view))
        card, declaration = self._special_play(view)
        if card not in view.legal_cards:
            card, declaration = view.legal_cards[0], None
        options = view.declarations_for(card)
        if not options:
            return Play(card)
        return Play(card, declaration if declaration in options else options[0])

    def choose_declaration(self, view: PlayerView, card: Card) -> Declaration | None:
        """What to declare `card` as, for a caller that chose the card (None: nothing)."""
        options = view.declarations_for(card)
        if not options:
            return None
        declaration = special.best_declaration(view, card)
        return declaration if declaration in options else options[0]

    def choose_trump(self, view: PlayerView) -> Suit:
        options = view.legal_trumps or tuple(Suit)
        suit = self._special_trump(view) if _special(view) else self._trump(view)
        return suit if suit in options else options[0]

    def choose_discards(self, view: PlayerView) -> list[Card]:
        needed = view.discards_needed
        if needed <= 0:
            raise ValueError("This seat has nothing to discard now.")
        if _special(view):
            chosen = self._special_discards(view, needed)
        else:
            chosen = self._discards(view, needed)
        if len(set(chosen)) != needed or any(card not in view.hand for card in chosen):
            return list(view.hand[:needed])
        return chosen

    # ----- what each level fills in -----

    def _bid(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_bids)

    def _card(self, view: PlayerView) -> Card:
        return self.rng.choice(view.legal_cards)

    def _trump(self, view: PlayerView) -> Suit:
        return self.rng.choice(view.legal_trumps or tuple(Suit))

    def _discards(self, view: PlayerView, needed: int) -> list[Card]:
        return self.rng.sample(list(view.hand), needed)

    # ----- the special-card presets (engine/ai/special.py); random unless a level says -----

    def _special_bid(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_bids)

    def _special_play(self, view: PlayerView) -> special.Option:
        card = self.rng.choice(view.legal_cards)
        options = view.declarations_for(card)
        return card, self.rng.choice(options) if options else None

    def _special_trump(self, view: PlayerView) -> Suit:
        return self.rng.choice(view.legal_trumps or tuple(Suit))

    def _special_discards(self, view: PlayerView, needed: int) -> list[Card]:
        return self.rng.sample(list(view.hand), needed)


def _special(view: PlayerView) -> bool:
    return view.rules.special_cards != "none"


class RandomPlayer(Player):
    """Uniformly random legal moves."""

    level = "random"


class EasyPlayer(Player):
    """A beginner: counts aces and high trumps, plays high while it needs tricks, low after."""

    level = "easy"

    def _bid(self, view: PlayerView) -> int:
        if not view.hand:
            return nearest_bid(view.tricks_in_hand / view.players * 0.5, view.legal_bids)
        trump = -1 if view.trump_suit is None else int(view.trump_suit)
        return nearest_bid(easy_count(mask_of(view.hand), trump), view.legal_bids)

    def _card(self, view: PlayerView) -> Card:
        bid = view.bids[view.seat] or 0
        need = bid - view.tricks_won[view.seat]
        trump = -1 if view.trump_suit is None else int(view.trump_suit)
        best = read_view(view).best
        return STANDARD_DECK[easy_card(mask_of(view.legal_cards), best, trump, need)]

    def _trump(self, view: PlayerView) -> Suit:
        counts = [0, 0, 0, 0]
        for card in view.hand:
            counts[card.index // 13] += 2 + (card.rank >= 12)  # the suit (a standard hand)
        return Suit(max(range(4), key=lambda suit: counts[suit]))

    def _discards(self, view: PlayerView, needed: int) -> list[Card]:
        return sorted(view.hand, key=lambda card: card.rank)[:needed]

    def _special_bid(self, view: PlayerView) -> int:
        return special.easy_bid(view)

    def _special_play(self, view: PlayerView) -> special.Option:
        return special.view_option(view, careful=False)

    def _special_trump(self, view: PlayerView) -> Suit:
        return special.trump_for(view)

    def _special_discards(self, view: PlayerView, needed: int) -> list[Card]:
        return special.weakest(view, needed)


class MediumPlayer(Player):
    """Counts cards and voids, bids sure and likely tricks, ducks once made, takes when it must."""

    level = "medium"

    def _bid(self, view: PlayerView) -> int:
        if not view.hand:  # blind: about a fair share, shaded down
            return nearest_bid(view.tricks_in_hand / view.players * 0.75, view.legal_bids)
        return nearest_bid(self.estimate(view), view.legal_bids)

    @staticmethod
    def estimate(view: PlayerView) -> float:
        """Expected tricks of the own hand: sure tricks plus likely ones, and long trumps
        unless another seat picked the suit (the dealer under `dealer_picks` picks its own
        long suit, so its trumps outlast ours). The hard player's model of a medium bid still
        reads the estimate without long trumps."""
        trump = -1 if view.trump_suit is None else int(view.trump_suit)
        turned = _turned(view)
        picked_by_other = view.rules.trump_choice == "dealer_picks" and view.seat != view.dealer
        estimator = TrickEstimator(
            view.players, view.tricks_in_hand, trump, turned, long_trumps=not picked_by_other
        )
        return estimator.estimate(mask_of(view.hand))

    def _card(self, view: PlayerView) -> Card:
        k = read_view(view)
        return STANDARD_DECK[medium_card(k, mask_of(view.legal_cards), view.rules.scoring)]

    def _trump(self, view: PlayerView) -> Suit:
        return best_trump(view)

    def _discards(self, view: PlayerView, needed: int) -> list[Card]:
        return uncertain_discards(view, needed)

    def _special_bid(self, view: PlayerView) -> int:
        return special.medium_bid(view)

    def _special_play(self, view: PlayerView) -> special.Option:
        return special.view_option(view, careful=True)

    def _special_trump(self, view: PlayerView) -> Suit:
        return special.trump_for(view)

    def _special_discards(self, view: PlayerView, needed: int) -> list[Card]:
        return special.weakest(view, needed)


def _turned(view: PlayerView) -> int:
    if view.trump_card is not None and view.rules.trump_choice != "dealer_last_card":
        return 1 << view.trump_card.index
    return 0


def medium_card(k: Knowledge, legal: int, scoring: str) -> int:
    """The medium player's card (index) from what `k` knows."""
    me = k.seat
    bid = k.bids[me] if k.bids[me] >= 0 else 0
    need = bid - k.won[me]
    others = k.unseen
    for seat, cards in enumerate(k.known):
        if seat != me:
            others |= cards
    take = wants_tricks(need, k.tricks_left, TAKE_WHEN_BUST.get(scoring, False))
    last = len(k.trick) == k.players - 1
    return choose_card(
        legal, k.hand, k.best, k.trump, others, need, k.tricks_left, last, take
    )


def best_trump(view: PlayerView) -> Suit:
    """The suit that makes the own hand strongest (long and high)."""
    hand = mask_of(view.hand)
    best = Suit.CLUBS
    best_value = -1.0
    for suit in Suit:
        estimator = TrickEstimator(view.players, view.hand_size, int(suit), 0)
        value = estimator.estimate(hand) + 0.1 * (hand & SUIT_MASKS[suit]).bit_count()
        if value > best_value:
            best, best_value = suit, value
    return best


def uncertain_discards(view: PlayerView, needed: int) -> list[Card]:
    """Discard the cards whose trick value is least certain, keeping sure winners and losers."""
    trump = -1 if view.trump_suit is None else int(view.trump_suit)
    tricks = max(1, view.hand_size - needed)
    estimator = TrickEstimator(view.players, tricks, trump, _turned(view))
    hand = mask_of(view.hand)
    chosen: list[Card] = []
    for _ in range(needed):
        whole = estimator.estimate(hand)
        best_card = view.hand[0]
        best_key = 9.0
        for card in view.hand:
            bit = 1 << card.index
            if not hand & bit:
                continue
            value = whole - estimator.estimate(hand & ~bit)
            key = abs(value - 0.5)
            if key < best_key:
                best_card, best_key = card, key
        chosen.append(best_card)
        hand &= ~(1 << best_card.index)
    return chosen
