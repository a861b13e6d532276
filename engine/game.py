"""The game state machine: deal, variant steps, bidding, tricks, scoring, the next hand.

Every action is checked before anything changes, so a refused action leaves the game exactly as
it was. Randomness comes only from the seed: deal n's shuffle is a pure function of (seed, n), so a
snapshot needs no generator state to resume exactly.

What a seat sees is built in `engine.view`, snapshots and their soundness checks live in
`engine.snapshot`, and the special-card game in `engine.special_game`.
"""

from __future__ import annotations

import bisect
import json
from typing import Any, ClassVar

from engine.cards import ALL_CARDS, STANDARD_DECK, Card, Suit, SuitWord
from engine.deal import by_suit, card_index, deal_rng, dealt_pack, shuffled, slot_of
from engine.moves import Bid, Declaration, Discard, Move, NameTrump, Phase, Play
from engine.outcome import BiddingResult, HandStart, Outcome, Trick, TrickResult, over_under
from engine.phrase import Phrase, Refusal
from engine.rules import EXTRA_HAND_LIMIT, TARGET_GAME_HAND_LIMIT, Rules
from engine.scoring import HandRecord, exact_bid_winners, hand_points
from engine.snapshot import UNREADABLE, game_to_json, restore, snapshot_data
from engine.snapshot_text import SnapshotText
from engine.view import PlayerView, PublicState, player_view, public_state


class IllegalAction(Refusal):
    """A refused action: a sentence a player can read, as a phrase (engine/phrase.py) a front
    end says in the reader's language."""


# Phase members under module names: CPython 3.11's EnumType defines __getattr__, so each
# `Phase.X` read in a method is an unspecialised lookup, and the hot path reads these instead.
_BIDDING = Phase.BIDDING
_SIMULTANEOUS_BIDDING = Phase.SIMULTANEOUS_BIDDING
_PLAYING = Phase.PLAYING

_SLOT: tuple[int, ...] = tuple(slot_of(card) for card in ALL_CARDS)
"""The list of a held hand that keeps each card, by `Card.index`: its suit, or the special
cards' list."""

_ANY_SUIT: tuple[Suit, ...] = tuple(Suit)
_ONLY: tuple[tuple[Suit], ...] = tuple((suit,) for suit in Suit)
"""Each suit alone, made once: the hot path returns these instead of building a tuple."""


def parse_card(card: Card | str) -> Card:
    """A card as a player names it; IllegalAction, in words, when it names none."""
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(card)
    except Refusal as error:
        raise IllegalAction.of(error.phrase) from None


class _Told:
    """What the move being applied has caused so far (filled in by the steps it runs).

    The class attributes are the defaults, so a fresh record costs no assignments: most moves
    cause nothing but themselves."""

    hidden = False
    declared: Declaration | None = None
    turned_up: Card | None = None
    super_trump: Card | None = None
    cards_lost = False
    trump_named: Suit | None = None
    extra_card = False
    bidding: BiddingResult | None = None
    trick: TrickResult | None = None
    scored: HandRecord | None = None
    next_hand: HandStart | None = None
    winners: tuple[int, ...] | None = None


class Game:
    """One game of Oh Hell at a table of `players` seats (0-based, clockwise).

    The fields are slots: a game has more than the 30 attributes CPython 3.11 keeps in a class's
    shared key table, so as a plain instance its attribute dict would be built out, and every
    method call on it (`game.play`, `self._finish_trick`) would take the unspecialised lookup.
    """

    __slots__ = (
        "_after_broken", "_deal_index", "_extra_hands", "_held", "_must_trump",
        "_pending", "_plan", "_playable", "_scoresheet", "_snapshot_text", "_stock", "_told",
        "_tricks_played", "bids", "blind", "current_trick", "dealer", "declarations",
        "discarded", "hand_number", "hand_size", "phase", "players", "rules", "scores",
        "seed", "super_trump", "trick_number", "tricks_in_hand", "tricks_won",
        "trump_broken", "trump_card", "trump_suit", "turn", "winners",
    )

    players: int
    rules: Rules
    seed: int
    phase: Phase
    turn: int | None
    dealer: int
    hand_number: int
    hand_size: int
    tricks_in_hand: int
    _held: list[list[list[Card]]]
    trump_card: Card | None
    trump_suit: Suit | None
    super_trump: Card | None
    declarations: dict[Card, Declaration]
    blind: bool
    bids: list[int | None]
    tricks_won: list[int]
    current_trick: list[tuple[int, Card]]
    trick_number: int
    trump_broken: bool
    discarded: list[list[Card]]
    scores: list[int]
    winners: list[int]
    _plan: list[int]
    _deal_index: int
    _extra_hands: int
    _pending: list[int]
    _stock: list[Card]
    _tricks_played: list[Trick]
    _scoresheet: list[HandRecord]
    _must_trump: bool
    _after_broken: bool
    _told: _Told | None
    """What the move being applied has caused so far; None outside `apply`."""
    _playable: tuple[Suit, ...] | None
    """`_playable_suits` of the seat to play, kept from `legal_cards` for the `play` that
    follows; None once a card is played (and in a new or restored game)."""
    _snapshot_text: SnapshotText | None
    """What `to_json` encoded before and need not encode again (None until the first)."""

    special_cards: ClassVar[tuple[str, ...]] = ("none",)
    """The rules' `special_cards` this class plays; a subclass declares its own."""
    by_special_cards: ClassVar[dict[str, type[Game]]] = {}
    """Which class plays each `special_cards`: every class records itself as it is defined."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Game.by_special_cards.update(dict.fromkeys(cls.special_cards, cls))

    # ----- construction -----

    @classmethod
    def new(
        cls,
        players: int,
        rules: Rules | None = None,
        seed: int = 0,
        dealer: int | None = None,
        deck: list[Card] | list[str] | None = None,
    ) -> Game:
        """Start a game and deal its first hand.

        `dealer` None draws for the first dealer (or finds the first Jack, as the rules say);
        `deck` fixes the whole pack's order for the first hand, top card first.
        """
        rules = rules if rules is not None else Rules.preset("classic")
        problem = rules.why_not(players)
        if problem is not None:
            raise Refusal.of(problem)
        game = game_class(rules)._blank()
        game.players = players
        game.rules = rules
        game.seed = seed
        game._plan = rules.plan(players)
        if rules.hand_sequence == "random" and rules.hand_sizes is None:
            # Every hand keeps at least one card after its discards (Rules.plan's own check).
            least = rules.discards_for(players) + 1
            game._plan = [deal_rng(seed, -2).randint(least, game._plan[0])]
        game.scores = [0] * players
        game._scoresheet = []
        game.winners = []
        game._extra_hands = 0
        game._deal_index = 0
        game._cache_rule_flags()
        if dealer is None:
            dealer = game._first_dealer()
        elif not 0 <= dealer < players:
            raise ValueError(f"The dealer must be a seat from 0 to {players - 1}.")
        game.dealer = dealer
        game.hand_number = 1
        first_deck: list[Card] | None = None
        if deck is not None:
            first_deck = [parse_card(card) for card in deck]
            pack = rules.pack(players)
            if len(first_deck) != len(pack) or set(first_deck) != set(pack):
                raise ValueError(
                    f"A deck must hold each of the {len(pack)} cards of this pack exactly once."
                )
        game._deal(first_deck)
        return game

    @classmethod
    def _blank(cls) -> Game:
        """A game with no state yet, for `new` and `from_json` to fill in."""
        game = object.__new__(cls)
        game._told = None
        game._playable = None
        game._snapshot_text = None
        return game

    def _cache_rule_flags(self) -> None:
        """Copy the rules the hot path asks about into plain attributes."""
        self._must_trump = self.rules.must_trump
        self._after_broken = self.rules.trump_lead == "after_broken"

    def _first_dealer(self) -> int:
        rng = deal_rng(self.seed, -1)
        pack = shuffled(STANDARD_DECK, rng)
        if self.rules.first_dealer == "first_jack":
            for position, card in enumerate(pack):
                if card.rank == 11:
                    return position % self.players
        contenders = list(range(self.players))
        while True:
            rng.shuffle(pack)
            draws = {seat: pack[i].rank for i, seat in enumerate(contenders)}
            best = max(draws.values())
            contenders = [seat for seat in contenders if draws[seat] == best]
            if len(contenders) == 1:
                return contenders[0]

    # ----- the deal and the steps before play -----

    def _hand_size_for(self, hand_number: int) -> int:
        plan = self._plan
        if hand_number <= len(plan):
            return plan[hand_number - 1]
        if self.rules.game_end == "target":
            return plan[(hand_number - 1) % len(plan)]
        return max(plan)  # a tie-break hand

    def _is_last_planned_hand(self) -> bool:
        return self.rules.game_end == "sequence" and self.hand_number == len(self._plan)

    def _deal(self, deck: list[Card] | None = None) -> None:
        rules = self.rules
        players = self.players
        if deck is None:
            deck = self._shuffled_pack()
        self._deal_index += 1
        removed = rules.removed_cards.get(players, 0)
        if removed:
            deck = deck[:-removed]
        size = self._hand_size_for(self.hand_number)
        dealt = size * players
        self._held = self._hands_from(deck, dealt)
        self._stock = deck[dealt:]
        self.hand_size = size
        self.tricks_in_hand = size
        self.bids = [None] * players
        self.tricks_won = [0] * players
        self.current_trick = []
        self._tricks_played = []
        self.trick_number = 1
        self.trump_broken = False
        self.blind = rules.blind_hand == self.hand_number
        self.discarded = [[] for _ in range(players)]
        self._pending = []
        self.trump_card = None
        self.trump_suit = None
        self.super_trump = None
        self.declarations = {}
        self._trump_step(deck, dealt)

    def _shuffled_pack(self) -> list[Card]:
        return dealt_pack(self.seed, self._deal_index)

    def _hands_from(self, deck: list[Card], dealt: int) -> list[list[list[Card]]]:
        """Deal the top `dealt` cards: card i goes to seat dealer+1+i (mod players). Each hand is
        kept as suit lists in pack order, then its special cards, so legal cards come out
        sorted without sorting."""
        players = self.players
        first = self.dealer + 1
        held: list[list[list[Card]]] = [[] for _ in range(players)]
        for offset in range(players):
            hand: list[list[Card]] = [[], [], [], [], []]
            for card in sorted(deck[offset:dealt:players], key=card_index):
                hand[_SLOT[card.index]].append(card)
            held[(first + offset) % players] = hand
        return held

    def _trump_step(self, deck: list[Card], dealt: int) -> None:
        """Set trump for the new hand as the rules say, then go on to the next phase."""
        rules = self.rules
        dealer = self.dealer
        no_trump = rules.last_hand_no_trump and self._is_last_planned_hand()
        choice = rules.trump_choice
        if no_trump:
            pass
        elif choice == "turn_up":
            if self._stock:
                self.trump_card = self._stock.pop(0)
                self.trump_suit = self.trump_card.suit
        elif choice == "dealer_last_card":
            self.trump_card = deck[dealt - 1]
            self.trump_suit = self.trump_card.suit
        elif choice == "rotation":
            rotation = rules.trump_rotation
            self.trump_suit = rotation[(self.hand_number - 1) % len(rotation)]
        if choice == "dealer_picks" and not no_trump:
            self.phase = Phase.TRUMP_CHOICE
            self.turn = dealer
        else:
            self._after_trump()

    def _after_trump(self) -> None:
        discards = self.rules.discards_for(self.players)
        if discards:
            self.phase = Phase.DISCARD
            self.turn = None
            self._pending = list(self._seats_from_left())
        else:
            self._start_bidding()

    def _seats_from_left(self) -> list[int]:
        return [(self.dealer + 1 + offset) % self.players for offset in range(self.players)]

    def _start_bidding(self) -> None:
        if self.rules.bidding == "simultaneous":
            self.phase = _SIMULTANEOUS_BIDDING
            self.turn = None
            self._pending = self._seats_from_left()
        else:
            self.phase = _BIDDING
            self.turn = (self.dealer + 1) % self.players

    def _start_play(self) -> None:
        told = self._told
        if told is not None:
            bids = tuple(bid if bid is not None else 0 for bid in self.bids)
            total = sum(bids)
            told.bidding = BiddingResult(
                bids=bids,
                total=total,
                tricks=self.tricks_in_hand,
                over_under=over_under(total, self.tricks_in_hand),
            )
        self.phase = _PLAYING
        self._pending = []
        self.turn = (self.dealer + 1) % self.players

    # ----- public read surface -----

    @property
    def hand_count(self) -> int | None:
        """Planned hands in the game (tie-break hands excluded); None when playing to a target."""
        return None if self.rules.game_end == "target" else len(self._plan)

    @property
    def scoresheet(self) -> list[HandRecord]:
        return list(self._scoresheet)

    @property
    def last_trick(self) -> Trick | None:
        return self._tricks_played[-1] if self._tricks_played else None

    @property
    def tricks_played(self) -> list[Trick]:
        return list(self._tricks_played)

    @property
    def led_suit(self) -> Suit | None:
        return self.current_trick[0][1].suit if self.current_trick else None

    @property
    def bid_total(self) -> int:
        return sum(bid for bid in self.bids if bid is not None)

    @property
    def over_under(self) -> str | None:
        """"over", "under" or "even" against the tricks, once every bid is in."""
        if any(bid is None for bid in self.bids):
            return None
        total = self.bid_total
        if total > self.tricks_in_hand:
            return "over"
        return "under" if total < self.tricks_in_hand else "even"

    @property
    def hook_bid(self) -> int | None:
        """The number the dealer may not bid now, when the hook applies to this hand."""
        if not self.rules.hook or self.phase is not _BIDDING or self.turn != self.dealer:
            return None
        others = sum(filter(None, self.bids))  # the dealer, bidding last, has no bid yet
        forbidden = self.tricks_in_hand - others
        if 0 <= forbidden <= self.tricks_in_hand and not self._extra_card_possible():
            return forbidden
        return None

    def _extra_card_possible(self) -> bool:
        return self.rules.extra_card and len(self._stock) >= self.players

    def actor_seats(self) -> list[int]:
        """Seats whose action the game awaits: one, or several in the simultaneous steps."""
        if self.turn is not None:
            return [self.turn]
        return list(self._pending)

    def hand_of(self, seat: int) -> list[Card]:
        """A seat's cards. Only for the table service and tests: players get `view(seat)`."""
        clubs, diamonds, hearts, spades, special = self._held[seat]
        return [*clubs, *diamonds, *hearts, *spades, *special]

    def legal_trumps(self) -> list[Suit]:
        return list(Suit) if self.phase is Phase.TRUMP_CHOICE else []

    def legal_bids(self, seat: int | None = None) -> list[int]:
        """Bids open to `seat` (default: the seat to act); empty when it may not bid now."""
        phase = self.phase
        if phase is _BIDDING:
            if seat is not None and seat != self.turn:
                return []
            bids = list(range(self.tricks_in_hand + 1))
            if self.turn == self.dealer:
                hook = self.hook_bid
                if hook is not None:
                    bids.remove(hook)
            return bids
        if phase is _SIMULTANEOUS_BIDDING and (seat is None or seat in self._pending):
            return list(range(self.tricks_in_hand + 1))
        return []

    def legal_cards(self, seat: int | None = None) -> list[Card]:
        """Cards `seat` (default: the seat to act) may play now; empty when not its turn."""
        turn = self.turn
        if self.phase is not _PLAYING or (seat is not None and seat != turn):
            return []
        assert turn is not None
        held = self._held[turn]
        suits = self._playable
        if suits is None:
            suits = self._playable = self._playable_suits(held)
        if suits is _ANY_SUIT:
            clubs, diamonds, hearts, spades, _special = held
            return [*clubs, *diamonds, *hearts, *spades]
        if len(suits) == 1:
            return held[suits[0]][:]
        return [card for suit in suits for card in held[suit]]

    def _playable_suits(self, held: list[list[Card]]) -> tuple[Suit, ...]:
        """What may be played now, the one definition for the standard pack: a held card of one
        of these suits. Follow the led suit if you can; otherwise trump if must_trump says so;
        lead trumps only once broken (after_broken) unless you hold nothing else."""
        trick = self.current_trick
        if trick:
            led = trick[0][1].suit
            assert led is not None  # the standard pack's tricks hold only standard cards
            if held[led]:
                return _ONLY[led]
            trump = self.trump_suit
            if self._must_trump and trump is not None and held[trump]:
                return _ONLY[trump]
        elif self._after_broken and not self.trump_broken and self.trump_suit is not None:
            trump = self.trump_suit
            others = tuple(suit for suit in _ANY_SUIT if suit != trump and held[suit])
            if others:
                return others
        return _ANY_SUIT

    def _refusal(self, suits: tuple[Suit, ...]) -> Phrase:
        """Why a card outside `_playable_suits` (`suits`) is refused, in words."""
        trick = self.current_trick
        if not trick:
            return Phrase("Trumps have not been broken yet: lead another suit while you hold one.")
        held = SuitWord(suits[0], singular=True)
        if suits[0] == trick[0][1].suit:
            return Phrase("You must follow suit: you hold a {suit}.", suit=held)
        return Phrase("You cannot follow suit, so you must trump: you hold a {suit}.", suit=held)

    def legal_declarations(self, card: Card, seat: int | None = None) -> list[Declaration]:
        """What `card` may be declared as it is played now; empty when it takes no declaration
        (every card of the standard pack)."""
        return []

    # ----- actions -----

    def apply(self, seat: int, move: Move) -> Outcome:
        """The one door: take a move, and say what it caused.

        Raises IllegalAction (the game unchanged) when the move is not one the phase takes from
        that seat; the message names the rule.
        """
        hand_number = self.hand_number
        trick_number = self.trick_number
        told = self._told = _Told()
        try:
            if move.__class__ is Play:
                self._play_move(seat, move)
            elif move.__class__ is Bid:
                hidden = self.phase is _SIMULTANEOUS_BIDDING
                self._bid(seat, move.tricks)
                told.hidden = hidden
            elif move.__class__ is NameTrump:
                self._choose_trump(seat, move.suit)
            elif move.__class__ is Discard:
                self._discard(seat, list(move.cards))
                told.hidden = True
            else:
                raise IllegalAction("{move!r} is not a move.", move=move)
        finally:
            self._told = None
        return Outcome(
            seat=seat,
            move=move,
            hand_number=hand_number,
            hidden=told.hidden,
            trick_number=trick_number if move.__class__ is Play else None,
            trump_named=told.trump_named,
            declared=told.declared,
            turned_up=told.turned_up,
            super_trump=told.super_trump,
            cards_lost=told.cards_lost,
            extra_card=told.extra_card,
            bidding=told.bidding,
            trick=told.trick,
            scored=told.scored,
            next_hand=told.next_hand,
            winners=told.winners,
        )

    def _play_move(self, seat: int, move: Play) -> None:
        if move.declaration is not None:
            raise IllegalAction("The {card} is not declared: only a joker is.", card=move.card)
        self.play(seat, move.card)

    def choose_trump(self, seat: int, suit: Suit | str) -> None:
        """Name trump (the dealer, in dealer_picks); a thin door onto `apply`."""
        if isinstance(suit, str):
            try:
                suit = Suit.parse(suit)
            except ValueError:
                raise IllegalAction("{text!r} is not a suit: use C, D, H or S; no-trump is not "
                                    "allowed.", text=suit) from None
        if not isinstance(suit, Suit):
            raise IllegalAction("Choose a suit: clubs, diamonds, hearts or spades.")
        self.apply(seat, NameTrump(suit))

    def discard(self, seat: int, cards: list[Card] | list[str]) -> None:
        """Discard face down (ouch); a thin door onto `apply`."""
        self.apply(seat, Discard(tuple(parse_card(card) for card in cards)))

    def bid(self, seat: int, tricks: int) -> None:
        """Bid: `apply(seat, Bid(tricks))` without building the Outcome (the hot path)."""
        self._bid(seat, tricks)

    def _choose_trump(self, seat: int, suit: Suit) -> None:
        if self.phase is not Phase.TRUMP_CHOICE:
            raise IllegalAction("Trump is not being chosen now.")
        if seat != self.turn:
            raise IllegalAction("Only the dealer chooses trump.")
        if not isinstance(suit, Suit):
            raise IllegalAction("Choose a suit: clubs, diamonds, hearts or spades.")
        self.trump_suit = suit
        told = self._told
        if told is not None:
            told.trump_named = suit
        self._after_trump()

    def _discard(self, seat: int, chosen: list[Card]) -> None:
        if self.phase is not Phase.DISCARD:
            raise IllegalAction("It is not time to discard.")
        if seat not in self._pending:
            raise IllegalAction("You have already discarded this hand.")
        needed = self._discards_needed()
        if len(chosen) != needed or len(set(chosen)) != needed:
            raise IllegalAction("Discard exactly {needed} different cards.", needed=needed)
        held = self._held[seat]
        for card in chosen:
            if card not in held[slot_of(card)]:
                raise IllegalAction("You do not hold the {card}.", card=card)
        for card in chosen:
            held[slot_of(card)].remove(card)
        self.discarded[seat] = self.discarded[seat] + chosen
        self._pending.remove(seat)
        if not self._pending:
            self._discards_done(needed)

    def _discards_needed(self) -> int:
        return self.rules.discards_for(self.players)

    def _discards_done(self, needed: int) -> None:
        self.tricks_in_hand = self.hand_size - needed
        self._start_bidding()

    def _bid(self, seat: int, tricks: int) -> None:
        phase = self.phase
        if phase is _SIMULTANEOUS_BIDDING:
            if seat not in self._pending:
                raise IllegalAction("You have already bid this hand.")
        elif phase is not _BIDDING:
            raise IllegalAction("It is not time to bid.")
        elif seat != self.turn:
            raise IllegalAction("It is not your turn to bid.")
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise IllegalAction("A bid is a whole number of tricks.")
        if not 0 <= tricks <= self.tricks_in_hand:
            raise IllegalAction("Bids go from 0 to {most} in this hand.", most=self.tricks_in_hand)
        if phase is _BIDDING and seat == self.dealer:
            hook = self.hook_bid
            if tricks == hook:
                raise IllegalAction(
                    "The dealer may not bid {bid}: the bids would add up to the {tricks} tricks.",
                    bid=tricks, tricks=self.tricks_in_hand,
                )
        self.bids[seat] = tricks
        if phase is _SIMULTANEOUS_BIDDING:
            self._pending.remove(seat)
            if not self._pending:
                self._bids_complete()
            return
        if seat == self.dealer:
            if self._extra_card_possible() and self.bid_total == self.tricks_in_hand:
                self._deal_one_more_card()
            self._bids_complete()
        else:
            self.turn = (seat + 1) % self.players

    def _bids_complete(self) -> None:
        """Every bid is in: play starts (special rules may first take a step of their own)."""
        self._start_play()

    def _deal_one_more_card(self) -> None:
        """Everyone is dealt one more card from the stock (the hook bid made in extra_card; even
        bids in a 1-card hand of super_screw)."""
        for seat in self._seats_from_left():
            card = self._stock.pop(0)
            bisect.insort(self._held[seat][slot_of(card)], card, key=card_index)
        self.hand_size += 1
        self.tricks_in_hand += 1
        if self._told is not None:
            self._told.extra_card = True

    def play(self, seat: int, card: Card | str) -> None:
        """Play a card: `apply(seat, Play(card))` without building the Outcome (the hot path)."""
        if self.phase is not _PLAYING:
            raise IllegalAction("It is not time to play a card.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn to play.")
        if type(card) is not Card:
            card = parse_card(card)
        held = self._held[seat]
        suit = card.suit
        if suit is None:  # a special card: the standard pack never holds one
            raise IllegalAction("You do not hold a {card}: this pack has no special cards.",
                                card=card)
        same_suit = held[suit]
        try:
            position = same_suit.index(card)
        except ValueError:
            raise IllegalAction("You do not hold the {card}.", card=card) from None
        suits = self._playable
        if suits is None:
            suits = self._playable_suits(held)
        if suit not in suits:
            raise IllegalAction.of(self._refusal(suits))
        self._playable = None  # the position moves on
        trick = self.current_trick
        del same_suit[position]
        trick.append((seat, card))
        if len(trick) == self.players:
            self._finish_trick(trick)
        else:
            self.turn = (seat + 1) % self.players

    def _trick_winner(self, trick: list[tuple[int, Card]] | Trick) -> tuple[int, bool]:
        """The seat that wins a full trick, and whether a trump won it."""
        trump = self.trump_suit
        winner, best = trick[0]
        best_suit = best.suit
        best_rank = best.rank
        for seat, card in trick:  # suits are singletons: `is` compares them
            suit = card.suit
            if suit is best_suit:
                if card.rank > best_rank:
                    winner, best_rank = seat, card.rank
            elif suit is trump:
                winner, best_suit, best_rank = seat, suit, card.rank
        return winner, best_suit is trump

    def _finish_trick(self, trick: list[tuple[int, Card]]) -> None:
        winner, trumped = self._trick_winner(trick)
        if trumped:
            self.trump_broken = True
        self.tricks_won[winner] += 1
        played = tuple(trick)
        self._tricks_played.append(played)
        told = self._told
        if told is not None:
            told.trick = TrickResult(self.trick_number, played, winner)
        self.current_trick = []
        if self.trick_number < self.tricks_in_hand:
            self.trick_number += 1
            self.turn = winner
        else:
            self._score_hand()

    # ----- scoring and the next hand -----

    def _score_hand(self) -> None:
        rules = self.rules
        bids = [bid if bid is not None else 0 for bid in self.bids]
        tricks = self.tricks_won
        if rules.winner_rule == "exact_bid":  # quick: one hand, no scoresheet, no points
            self._end_game(exact_bid_winners(bids, tricks))
            return
        in_hand, blind = self.tricks_in_hand, self.blind
        points = [
            hand_points(rules, bid, took, in_hand, blind)
            for bid, took in zip(bids, tricks, strict=True)
        ]
        scores = self.scores
        for seat, gained in enumerate(points):
            scores[seat] += gained
        played = self._tricks_played
        self._scoresheet.append(
            HandRecord(
                hand_number=self.hand_number,
                hand_size=self.hand_size,
                tricks_in_hand=self.tricks_in_hand,
                dealer=self.dealer,
                trump_card=self.trump_card,
                trump_suit=self.trump_suit,
                bids=tuple(bids),
                tricks=tuple(tricks),
                made=tuple([bid == took for bid, took in zip(bids, tricks, strict=True)]),
                points=tuple(points),
                totals=tuple(scores),
                blind=blind,
                leaders=tuple([trick[0][0] for trick in played]),
                plays=tuple([card for trick in played for _, card in trick]),
            )
        )
        told = self._told
        if told is not None:
            told.scored = self._scoresheet[-1]
        if self._game_should_end():
            top = max(self.scores)
            winners = [seat for seat, score in enumerate(self.scores) if score == top]
            for seat in winners:
                self.scores[seat] += rules.winner_bonus
            self._end_game(winners)
            return
        self.dealer = (self.dealer + 1) % self.players
        self.hand_number += 1
        self._deal()
        if told is not None:
            told.next_hand = HandStart(
                hand_number=self.hand_number,
                hand_size=self.hand_size,
                tricks_in_hand=self.tricks_in_hand,
                dealer=self.dealer,
                trump_card=self.trump_card,
                trump_suit=self.trump_suit,
                phase=self.phase,
            )

    def _game_should_end(self) -> bool:
        rules = self.rules
        if rules.game_end == "target":
            done = (
                max(self.scores) >= rules.target_score
                or self.hand_number >= TARGET_GAME_HAND_LIMIT
            )
        else:
            done = self.hand_number >= len(self._plan)
        if not done:
            return False
        top = max(self.scores)
        tied = self.scores.count(top) > 1
        if tied and rules.tiebreak == "extra_hands" and self._extra_hands < EXTRA_HAND_LIMIT:
            self._extra_hands += 1
            return False
        return True

    def _end_game(self, winners: list[int]) -> None:
        self.winners = winners
        self.phase = Phase.GAME_OVER
        self.turn = None
        self._pending = []
        self._held = [by_suit([]) for _ in range(self.players)]
        if self._told is not None:
            self._told.winners = tuple(self.winners)

    # ----- what a seat sees, and snapshots -----

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see. Other hands, others' discards and hidden bids are left out."""
        return player_view(self, seat)

    def public_state(self) -> PublicState:
        """What everyone at the table may see (hidden simultaneous bids stay hidden)."""
        return public_state(self)

    def card_values(self) -> tuple[tuple[Card, str], ...]:
        """What each special card (and the Super Trump) is worth this hand, in words; empty for
        the standard pack."""
        return ()

    def discards_needed(self, seat: int) -> int:
        """Cards `seat` must still discard now: 0 unless it owes a discard."""
        if self.phase is not Phase.DISCARD or seat not in self._pending:
            return 0
        return self._discards_needed()

    def to_json(self) -> str:
        """The whole state as JSON; `Game.from_json` restores it exactly."""
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Restore a snapshot. Raises ValueError when it is not one this code can read."""
        try:
            data = snapshot_data(text)
            rules = _rules_read(data["rules"])
            game = game_class(rules)._blank()
            restore(game, data, rules)
        except UNREADABLE as error:
            raise ValueError(f"unreadable game snapshot: {error!r}") from None
        return game

    def _restored(self) -> None:
        """Rebuild what a snapshot does not store (special rules: the hand's card meanings)."""

    def copy(self) -> Game:
        """An independent copy, for trying an action without touching the original."""
        return Game.from_json(self.to_json())

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} players={self.players} hand={self.hand_number} "
            f"phase={self.phase.value} turn={self.turn}>"
        )


_RULES_READ: dict[str, Rules] = {}
RULES_READ_KEPT = 256
"""Distinct rules whose one read object snapshots share (a process restores many games of a
few presets: one Rules each, not one per game)."""


def _rules_read(data: Any) -> Rules:
    """The rules of a snapshot; games with equal rules share one (frozen) Rules object."""
    key = json.dumps(data, sort_keys=True)
    rules = _RULES_READ.get(key)
    if rules is None:
        rules = Rules.model_validate(data)
        if len(_RULES_READ) < RULES_READ_KEPT:
            _RULES_READ[key] = rules
    return rules


def game_class(rules: Rules) -> type[Game]:
    """The class that plays these rules: `Game` for the standard pack, else the subclass that
    declares their special cards (`engine.special_game`, which `engine` imports)."""
    return Game.by_special_cards[rules.special_cards]


Game.by_special_cards["none"] = Game

__all__ = ["Game", "IllegalAction", "game_class", "parse_card"]
