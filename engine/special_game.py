"""The game with special cards: jokers, Wizards or Jesters (docs/rules.md section 4).

`Game.new` and `Game.from_json` hand out a `SpecialGame` when the rules add special cards, so the
standard pack's play path in `engine.game` stays free of every special-card branch. What a
special card may do is decided by `engine.special.SpecialHand`; this class keeps the state.
"""

from __future__ import annotations

import random

from engine.cards import Card, Suit
from engine.deal import dealt_pack, slot_of
from engine.game import Game, IllegalAction, parse_card
from engine.moves import Declaration, Phase, Play
from engine.outcome import Trick
from engine.phrase import Phrase
from engine.special import TRUMP, SpecialHand, super_trump_for


class SpecialGame(Game):
    """A game whose pack holds jokers, Wizards or Jesters.

    Each special step is its own phase or move: a joker's declaration goes with its Play; a
    turned Wizard waits for the dealer's NameTrump; in super_screw the bids come first, then even
    bids cost a card (or deal a second one), then the trump card is turned.
    """

    special_cards = (
        "joker_high", "joker_dup", "love_that_joker", "blackout_jokers", "super_screw", "wizard"
    )
    _hand: SpecialHand
    _losing: bool = False

    # ----- the deal -----

    def _shuffled_pack(self) -> list[Card]:
        return dealt_pack(self.seed, self._deal_index, tuple(self.rules.pack(self.players)))

    def _trump_step(self, deck: list[Card], dealt: int) -> None:
        rules = self.rules
        self._losing = False
        no_trump = rules.last_hand_no_trump and self._is_last_planned_hand()
        choice = rules.trump_choice
        if choice == "turn_up" and not no_trump:
            if rules.bid_before_trump:
                self._after_trump()  # the card is turned once every bid is in
                return
            if self._turn_up():
                return  # a turned Wizard: the dealer names trump
            self._after_trump()
            return
        super()._trump_step(deck, dealt)
        if self.phase is Phase.TRUMP_CHOICE:
            self._refresh()  # the dealer names trump (dealer_picks): the cards mean no trump yet

    def _turn_up(self) -> bool:
        """Turn the next card for trump; True when it is a Wizard and the dealer must name trump."""
        if not self._stock:
            return False
        card = self._stock.pop(0)
        self.trump_card = card
        self.trump_suit = card.suit
        if self.rules.special_cards == "super_screw":
            self.super_trump = super_trump_for(card)
        told = self._told
        if told is not None:
            told.turned_up = card
            told.trump_named = self.trump_suit
            told.super_trump = self.super_trump
        if card.kind == "wizard":
            self.phase = Phase.TRUMP_CHOICE
            self.turn = self.dealer
            self._refresh()
            return True
        return False

    def _after_trump(self) -> None:
        self._refresh()
        super()._after_trump()

    def _refresh(self) -> None:
        self._hand = SpecialHand(
            self.rules.special_cards, self.trump_suit, self.trump_card, self.super_trump
        )

    def _restored(self) -> None:
        self._losing = self.phase is Phase.DISCARD and all(
            bid is not None for bid in self.bids
        )
        self._refresh()

    # ----- bids that add up (super_screw) -----

    def _bids_complete(self) -> None:
        rules = self.rules
        even = self.bid_total == self.tricks_in_hand
        if even and rules.card_loss != "none":
            if self.hand_size == 1:
                if len(self._stock) > self.players:
                    self._deal_one_more_card()
            elif rules.card_loss == "choice":
                self._losing = True
                self.phase = Phase.DISCARD
                self.turn = None
                self._pending = list(self._seats_from_left())
                return
            else:
                self._lose_random_cards()
        self._after_bids()

    def _after_bids(self) -> None:
        if self.rules.bid_before_trump and self.rules.trump_choice == "turn_up":
            self._turn_up()
        self._refresh()
        self._start_play()

    def _lose_random_cards(self) -> None:
        """Each player's left neighbour takes one card from them blind; it leaves play."""
        rng = random.Random(f"ohhell:{self.seed}:{self._deal_index}:loss")
        for seat in self._seats_from_left():
            cards = self.hand_of(seat)
            card = cards[int(rng.random() * len(cards))]
            self._held[seat][slot_of(card)].remove(card)
            self.discarded[seat] = self.discarded[seat] + [card]
        self.tricks_in_hand -= 1
        if self._told is not None:
            self._told.cards_lost = True

    def _discards_needed(self) -> int:
        return 1 if self._losing else super()._discards_needed()

    def _discards_done(self, needed: int) -> None:
        if not self._losing:
            super()._discards_done(needed)
            return
        self._losing = False
        self.tricks_in_hand = self.hand_size - 1
        if self._told is not None:
            self._told.cards_lost = True
        self._after_bids()

    # ----- play -----

    @property
    def led_suit(self) -> Suit | None:
        if not self.current_trick:
            return None
        return self._hand.led_suit(self.current_trick, self.declarations)

    def legal_cards(self, seat: int | None = None) -> list[Card]:
        turn = self.turn
        if self.phase is not Phase.PLAYING or (seat is not None and seat != turn):
            return []
        assert turn is not None
        return self._hand.legal(self.hand_of(turn), self.current_trick, self.declarations,
                                self.trick_number == 1)

    def legal_declarations(self, card: Card, seat: int | None = None) -> list[Declaration]:
        turn = self.turn
        if self.phase is not Phase.PLAYING or (seat is not None and seat != turn) or turn is None:
            return []
        held = self.hand_of(turn)
        return list(self._hand.declarations_for(card, held, self.current_trick,
                                                self.declarations))

    def _play_move(self, seat: int, move: Play) -> None:
        self.play(seat, move.card, move.declaration)

    def play(
        self, seat: int, card: Card | str, declaration: Declaration | None = None
    ) -> None:
        """Play a card; a joker that asks for it is played with its declaration."""
        if self.phase is not Phase.PLAYING:
            raise IllegalAction("It is not time to play a card.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to play.")
        card = parse_card(card)
        held = self.hand_of(seat)
        if card not in held:
            alike = next((other for other in held if card.special and other.kind == card.kind),
                         None)
            if alike is None and card.special:
                raise IllegalAction("You do not hold a {card}.", card=card)
            if alike is None:
                raise IllegalAction("You do not hold the {card}.", card=card)
            card = alike
        hand = self._hand
        trick = self.current_trick
        declarations = self.declarations
        first_trick = self.trick_number == 1
        if card not in hand.legal(held, trick, declarations, first_trick):
            raise IllegalAction.of(
                hand.refusal(card, held, trick, declarations, first_trick)
                or Phrase("The {card} may not be played now.", card=card)
            )
        refusal = hand.declaration_refusal(card, declaration, held, trick, declarations)
        if refusal is not None:
            raise IllegalAction.of(refusal)
        if declaration is None:
            declaration = hand.auto_declaration(card, declarations)
        self._held[seat][slot_of(card)].remove(card)
        if declaration is not None:
            declarations[card] = declaration
        if self._told is not None:
            self._told.declared = declaration
        trick.append((seat, card))
        if len(trick) == self.players:
            self._finish_trick(trick)
        else:
            self.turn = (seat + 1) % self.players

    def _trick_winner(self, trick: list[tuple[int, Card]] | Trick) -> tuple[int, bool]:
        hand = self._hand
        declarations = self.declarations
        winner = hand.winner(trick, declarations)
        trumped = any(
            hand.key(card, declarations.get(card), None)[0] == TRUMP
            for seat, card in trick
            if seat == winner
        )
        return winner, trumped

    def card_values(self) -> tuple[tuple[Card, str], ...]:
        if self.phase is Phase.GAME_OVER:
            return ()
        return self._hand.card_values(self.rules.special_pack(), self.declarations)


__all__ = ["SpecialGame"]
