"""Computer play for the special-card presets (jokers, Wizards, Jesters: docs/rules.md section 4).

The bit-set machinery of the other modules knows only the 52 standard cards, so these presets
get their own small toolkit built on the engine's own card rules (`engine.special.SpecialHand`,
the same code that judges the real tricks):

- `card_value`: how likely a held card is to take a trick (a Wizard and the Super Joker are sure
  tricks, a Jester a sure loss); the bid of easy and medium.
- `choose_option`: the card and declaration a heuristic player picks: the cheapest sure winner
  when the bid needs the trick (a joker declared high), the highest safe loser when it does not
  (a Jester, a joker declared low in a side suit); also the rollout policy of the search.
- `SpecialSearch`: hard's determinized search, as the standard presets do it: deal the unseen
  cards to the other seats (respecting the suits they have shown void) again and again, weigh
  each deal by how well it explains the opponents' bids and plays (`SpecialModel`, the
  standard pack's engine/ai/opponents.py on these cards), play each candidate out with the
  rollout policy for every seat (careful or careless, as the model reads each opponent), and
  keep the one that scores best (under Quick's rule: wins most often, `outcome`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.ai.bits import mask_of
from engine.ai.policy import TAKE_WHEN_BUST, TrickEstimator, easy_count, nearest_bid
from engine.cards import Card, Suit
from engine.moves import Declaration, Phase
from engine.scoring import exact_bid_winners, hand_points
from engine.special import BOTTOM, OFF, SpecialHand, super_trump_for
from engine.view import PlayerView

Option = tuple[Card, Declaration | None]
BID_WINDOW = 2.5
"""Hard weighs the bids within this many tricks of the medium estimate (a big hand would
otherwise roll out every bid from 0 to 20 in each sampled deal)."""
Trick = Sequence[tuple[int, Card]]


def hand_rules(view: PlayerView) -> SpecialHand:
    """The special-card rules of the view's hand, as the engine applies them."""
    return SpecialHand(view.rules.special_cards, view.trump_suit, view.trump_card,
                       view.super_trump)


# ----- what a card is worth -----


def card_value(card: Card, hand: SpecialHand, wizards: int) -> float | None:
    """The chance a special card (or the Super Trump) takes a trick; None for a plain card,
    which the standard estimate values."""
    if card is hand.super_trump:
        return 0.95
    if card.index < 52:
        return None
    kind = card.kind
    if kind == "wizard":
        return 1.0 if wizards <= 1 else 0.92
    if kind == "jester":
        return 0.0
    if kind == "super_joker":
        return 1.0
    if kind == "loser_joker":
        return 0.95
    if kind in ("high_joker", "low_joker"):
        return 0.85
    if hand.system == "blackout_jokers":
        return 0.5
    if hand.system == "joker_dup" and hand.dup is not None:
        return 0.25 + 0.05 * max(0, hand.dup.rank - 6)
    return 1.0  # joker_high: the highest trump, or in a no-trump hand above every card


def estimate_tricks(view: PlayerView, level: str) -> float:
    """Expected tricks of the own hand: standard cards by the usual estimate, special cards by
    `card_value`."""
    before_trump = (view.rules.bid_before_trump and view.trump_card is None
                    and view.phase.bidding)
    return HandCounter(view, level, before_trump).count(view.hand)


class HandCounter:
    """The trick count a level gives a hand of this view's deal (its own, or one sampled for
    another seat); `before_trump`: the trump card is turned after the bids, so each suit is as
    likely to be trump."""

    def __init__(self, view: PlayerView, level: str, before_trump: bool) -> None:
        self.hand = hand_rules(view)
        self.level = level
        self.tricks = view.tricks_in_hand
        self.trump = -1 if view.trump_suit is None else int(view.trump_suit)
        self.wizards = sum(card.kind == "wizard" for card in view.rules.special_pack())
        tricks = max(1, view.tricks_in_hand)
        if level == "easy":
            self.estimators: list[TrickEstimator] = []
        elif before_trump:
            self.estimators = [TrickEstimator(view.players, tricks, suit, 0) for suit in range(4)]
        else:
            turned = view.trump_card
            turned_mask = 1 << turned.index if turned is not None and turned.index < 52 else 0
            self.estimators = [TrickEstimator(view.players, tricks, self.trump, turned_mask)]

    def count(self, cards: Sequence[Card]) -> float:
        hand = self.hand
        plain = mask_of([card for card in cards
                         if card.index < 52 and card is not hand.super_trump])
        if self.level == "easy":
            total = float(easy_count(plain, self.trump))
        else:
            total = sum(e.estimate(plain) for e in self.estimators) / len(self.estimators)
        for card in cards:
            value = card_value(card, hand, self.wizards)
            if value is not None:
                total += value
        return min(total, float(self.tricks))


# ----- choosing a card and its declaration -----


def options_for(hand: SpecialHand, card: Card, held: Sequence[Card], trick: Trick,
                declarations: dict[Card, Declaration]) -> list[Declaration | None]:
    """The declarations worth considering for `card` (None when it takes none): for a joker
    of Love That Joker, the strongest and weakest it may be, not all sixteen."""
    allowed = hand.declarations_for(card, held, trick, declarations)
    if not allowed:
        return [None]
    if len(allowed) <= 4:
        return list(allowed)
    led = hand.led_suit(trick, declarations) if trick else None
    picks: list[Declaration | None] = []
    for wanted in (
        Declaration(hand.trump, True), Declaration(None, True), Declaration(led, True),
        Declaration(led, False),
    ):
        if wanted in allowed and wanted not in picks:
            picks.append(wanted)
    off = [d for d in allowed if d.high is False and d.suit is not None
           and d.suit not in (led, hand.trump)]
    if off:
        picks.append(off[0])
    highs = [d for d in allowed if d.high]
    if highs and not any(d is not None and d.high for d in picks):
        picks.append(highs[0])
    return list(picks) if picks else [allowed[0]]


def _trick_best(hand: SpecialHand, trick: Trick, declarations: dict[Card, Declaration],
                led: Suit | None) -> tuple[int, float]:
    best = (BOTTOM - 1, 0.0)
    for _seat, card in trick:
        key = hand.key(card, declarations.get(card), led)
        if key > best:
            best = key
    return best


def choose_option(
    hand: SpecialHand,
    held: Sequence[Card],
    legal: Sequence[Card],
    trick: Trick,
    declarations: dict[Card, Declaration],
    players: int,
    want: bool,
    careful: bool = True,
) -> Option:
    """A card (and declaration) by rule of thumb: win cheaply when the trick is wanted, lose
    with the highest card that surely loses when it is not. `careful` False is the easy level:
    the highest card to win, the lowest to lose."""
    options: list[tuple[tuple[int, float], bool, Card, Declaration | None]] = []
    led = hand.led_suit(trick, declarations) if trick else None
    best = _trick_best(hand, trick, declarations, led)
    for card in legal:
        for declaration in options_for(hand, card, held, trick, declarations):
            own_led = led
            if led is None:
                own_led = hand.led_suit([(0, card)], {card: declaration} if declaration else {})
            if declaration is None:
                declaration_used = hand.auto_declaration(card, declarations)
            else:
                declaration_used = declaration
            key = hand.key(card, declaration_used, own_led)
            wins = not trick or key > best
            options.append((key, wins, card, declaration))
    last = len(trick) == players - 1
    if want:
        winners = [option for option in options if option[1]]
        if winners and trick:
            if careful and last:
                chosen = min(winners, key=lambda option: option[0])
            else:
                chosen = max(winners, key=lambda option: option[0])
        elif trick:
            chosen = min(options, key=lambda option: option[0])
        else:
            chosen = max(options, key=lambda option: option[0])
    else:
        losers = [option for option in options if not option[1]]
        if careful and losers:
            chosen = max(losers, key=lambda option: option[0])
        else:
            chosen = min(options, key=lambda option: _lead_low(option[0]))
    return chosen[2], chosen[3]


def _lead_low(key: tuple[int, float]) -> tuple[int, float]:
    """Leading to lose: the lowest card, but a plain low card before a trump."""
    return (OFF if key[0] in (1, 0) else key[0], key[1])


def wants(rules_scoring: str, need: int) -> bool:
    return need > 0 or (need < 0 and TAKE_WHEN_BUST.get(rules_scoring, False))


def view_option(view: PlayerView, careful: bool) -> Option:
    """The heuristic card and declaration for the seat to act in `view`."""
    hand = hand_rules(view)
    declarations = dict(view.declarations)
    me = view.seat
    need = (view.bids[me] or 0) - view.tricks_won[me]
    want = wants(view.rules.scoring, need)
    return choose_option(hand, view.hand, view.legal_cards, view.current_trick, declarations,
                         view.players, want, careful)


def best_declaration(view: PlayerView, card: Card) -> Declaration | None:
    """The declaration a careful player gives `card` (None when it takes none)."""
    hand = hand_rules(view)
    declarations = dict(view.declarations)
    need = (view.bids[view.seat] or 0) - view.tricks_won[view.seat]
    chosen = choose_option(hand, view.hand, [card], view.current_trick, declarations,
                           view.players, wants(view.rules.scoring, need))
    return chosen[1]


def trump_for(view: PlayerView) -> Suit:
    """The suit to name (a turned Wizard): the longest and highest among the plain cards."""
    counts = [0.0, 0.0, 0.0, 0.0]
    for card in view.hand:
        if card.suit is not None:
            counts[card.suit] += 1 + card.rank / 28
    options = view.legal_trumps or tuple(Suit)
    return max(options, key=lambda suit: counts[suit])


def weakest(view: PlayerView, needed: int) -> list[Card]:
    """Cards to give up (a chosen card loss): the ones least likely to matter."""
    hand = hand_rules(view)
    def worth(card: Card) -> float:
        value = card_value(card, hand, 1)
        return value if value is not None else card.rank / 14
    return sorted(view.hand, key=worth)[:needed]


# ----- hard: determinized search -----


class World:
    """One guess at the hidden cards, played out to the end of the hand."""

    __slots__ = ("declarations", "first", "hand", "hands", "trick", "turn", "won")

    def __init__(self, hand: SpecialHand, hands: list[list[Card]], trick: list[tuple[int, Card]],
                 declarations: dict[Card, Declaration], turn: int, won: list[int],
                 first: bool) -> None:
        self.hand = hand
        self.hands = hands
        self.trick = trick
        self.declarations = declarations
        self.turn = turn
        self.won = won
        self.first = first

    def play(self, card: Card, declaration: Declaration | None, players: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        if declaration is None:
            declaration = self.hand.auto_declaration(card, self.declarations)
        if declaration is not None:
            self.declarations[card] = declaration
        self.trick.append((seat, card))
        if len(self.trick) == players:
            winner = self.hand.winner(self.trick, self.declarations)
            self.won[winner] += 1
            self.trick = []
            self.turn = winner
            self.first = False
        else:
            self.turn = (seat + 1) % players

    def finish(self, bids: Sequence[int], players: int, scoring: str,
               careful: Sequence[bool] | None = None) -> None:
        """Every seat plays by the rule of thumb (careful, unless `careful` says otherwise for
        the seat) until the hand is over."""
        hand = self.hand
        while self.hands[self.turn]:
            seat = self.turn
            held = self.hands[seat]
            legal = hand.legal(held, self.trick, self.declarations, self.first) or held
            want = wants(scoring, bids[seat] - self.won[seat])
            card, declaration = choose_option(hand, held, legal, self.trick, self.declarations,
                                              players, want,
                                              True if careful is None else careful[seat])
            self.play(card, declaration, players)


CAREFUL, CARELESS, OTHER = 0, 1, 2
"""Opponent kinds on these presets: plays like medium (`choose_option` careful), like easy
(careless), or some other way (any legal card; simulated as careful)."""
KIND_PRIOR = (0.45, 0.35, 0.2)
PLAY_MISS = 0.1
"""Chance a player of a kind plays some other card than its rule's."""
BID_MISS = 0.15
"""Chance a player of a kind bids other than the legal bid nearest its count."""

Event = tuple[int, list[tuple[int, Card]], dict[Card, Declaration], bool, int, Card]
"""An opponent's play: (seat, the trick before it, declarations before it, first trick?, its
need then: bid less tricks won, the card)."""


class SpecialModel:
    """What the opponents' bids and plays say about their hands, as engine/ai/opponents.py
    does for the standard pack: a sampled deal weighs the chance that a player of each kind
    (careful, careless, other) holding the sampled cards would have bid and played as each
    opponent did; each opponent's kind in the rollouts is drawn from its posterior."""

    def __init__(self, view: PlayerView, hand: SpecialHand) -> None:
        self.hand = hand
        self.players = view.players
        self.scoring = view.rules.scoring
        me = view.seat
        self.opponents = [seat for seat in range(view.players) if seat != me]
        rules = view.rules
        before_trump = rules.bid_before_trump
        self.counters = (HandCounter(view, "medium", before_trump),
                         HandCounter(view, "easy", before_trump))
        self.bids = {seat: bid for seat, bid in enumerate(view.bids)
                     if seat != me and bid is not None and not view.blind}
        tricks = view.tricks_in_hand
        hook = rules.hook and rules.bidding == "sequential"
        self.bid_options: dict[int, list[int]] = {}
        for seat in self.bids:
            options = list(range(tricks + 1))
            if hook and seat == view.dealer and not rules.extra_card:
                barred = tricks - sum(bid for other, bid in enumerate(view.bids)
                                      if other != seat and bid is not None)
                if barred in options:
                    options.remove(barred)
            self.bid_options[seat] = options
        self.played: dict[int, list[Card]] = {seat: [] for seat in self.opponents}
        self.events: list[Event] = []
        said = dict(view.declarations)
        declarations: dict[Card, Declaration] = {}
        won = [0] * view.players
        tricks_seen = [*view.tricks_played]
        if view.current_trick:
            tricks_seen.append(view.current_trick)
        for number, trick in enumerate(tricks_seen):
            for position, (seat, card) in enumerate(trick):
                if seat != me:
                    need = (view.bids[seat] or 0) - won[seat]
                    self.events.append((seat, list(trick[:position]), dict(declarations),
                                        number == 0, need, card))
                    self.played[seat].append(card)
                if card in said:
                    declarations[card] = said[card]
            if len(trick) == view.players:
                won[hand.winner(trick, declarations)] += 1
        self.active = bool(self.bids) or bool(self.events)
        self.cache: dict[tuple[int, frozenset[Card]], tuple[float, float, float]] = {}

    def likelihoods(self, seat: int, held: Sequence[Card]) -> tuple[float, float, float]:
        """Per kind, prior times the chance of the seat's bid and plays if it now holds
        `held` (remembered: late in a hand the same hands come up again and again)."""
        key = (seat, frozenset(held))
        known = self.cache.get(key)
        if known is None:
            known = self.cache[key] = self._likelihoods(seat, held)
        return known

    def _likelihoods(self, seat: int, held: Sequence[Card]) -> tuple[float, float, float]:
        careful, careless, other = KIND_PRIOR
        full = [*held, *self.played[seat]]
        bid = self.bids.get(seat)
        if bid is not None:
            options = self.bid_options[seat]
            miss = BID_MISS / max(1, len(options) - 1)
            careful *= (1 - BID_MISS) if nearest_bid(
                self.counters[0].count(full), options) == bid else miss
            careless *= (1 - BID_MISS) if nearest_bid(
                self.counters[1].count(full), options) == bid else miss
            other /= len(options)
        hand = self.hand
        cards = list(full)
        for who, trick, declarations, first, need, card in self.events:
            if who != seat:
                continue
            legal = hand.legal(cards, trick, declarations, first) or cards
            if len(legal) > 1:
                miss = PLAY_MISS / (len(legal) - 1)
                want = wants(self.scoring, need)
                for kind, flag in ((CAREFUL, True), (CARELESS, False)):
                    pick = choose_option(hand, cards, legal, trick, declarations, self.players,
                                         want, flag)[0]
                    chance = (1 - PLAY_MISS) if pick == card else miss
                    if kind == CAREFUL:
                        careful *= chance
                    else:
                        careless *= chance
                other /= len(legal)
            if card in cards:
                cards.remove(card)
        return careful, careless, other

    def weigh(self, hands: list[list[Card]], rng: random.Random) -> tuple[float, list[bool]]:
        """(this deal's weight, per seat whether it plays carefully in the rollouts)."""
        careful = [True] * self.players
        if not self.active:
            return 1.0, careful
        weight = 1.0
        for seat in self.opponents:
            likely = self.likelihoods(seat, hands[seat])
            total = sum(likely)
            if total <= 0.0:
                return 0.0, careful
            weight *= total
            careful[seat] = rng.random() * total >= likely[CARELESS]
        return weight, careful


class SpecialSearch:
    """Hard's search for the special presets: sampled deals of the unseen cards, rollouts."""

    def __init__(self, rng: random.Random, more: Callable[[int], bool],
                 model: bool = True) -> None:
        self.rng = rng
        self.more = more
        """Asked with the number of deals searched so far: whether to search another."""
        self.model = model
        """Whether deals are drawn by the opponent model (SpecialModel); else uniformly, and
        everyone is simulated as careful."""
        self.deals = 0

    def draw(self, view: PlayerView, hand: SpecialHand, unseen: list[Card], counts: list[int],
             voids: list[set[Suit]], model: SpecialModel | None,
             ) -> tuple[float, list[list[Card]], list[Card], list[bool] | None]:
        """A deal to search: (its weight, hands, cards left over, who plays carefully). Each
        consistent deal is drawn uniformly and weighted by the model (a pool to pick from by
        weight cost more in rollouts forgone than it saved)."""
        hands, rest = self.deal(view, hand, unseen, counts, voids)
        if model is None or not model.active:
            return 1.0, hands, rest, None
        weight, careful = model.weigh(hands, self.rng)
        return weight, hands, rest, careful

    # ----- the unseen cards -----

    def _voids(self, view: PlayerView, hand: SpecialHand) -> list[set[Suit]]:
        voids: list[set[Suit]] = [set() for _ in range(view.players)]
        declarations = dict(view.declarations)
        for trick in (*view.tricks_played, view.current_trick):
            for position in range(1, len(trick)):
                led = hand.led_suit(trick[:position], declarations)
                seat, card = trick[position]
                if led is not None and not hand.is_wild(card) and hand.suit_of(card) != led:
                    voids[seat].add(led)
        return voids

    def _unseen(self, view: PlayerView) -> list[Card]:
        seen = set(view.hand) | set(view.discarded)
        for trick in (*view.tricks_played, view.current_trick):
            seen.update(card for _, card in trick)
        if view.trump_card is not None:
            seen.add(view.trump_card)
        return [card for card in view.rules.pack(view.players) if card not in seen]

    def _counts(self, view: PlayerView) -> list[int]:
        done = len(view.tricks_played)
        in_trick = {seat for seat, _ in view.current_trick}
        if view.phase is Phase.PLAYING:
            return [view.tricks_in_hand - done - (seat in in_trick)
                    for seat in range(view.players)]
        return [view.tricks_in_hand] * view.players

    def deal(self, view: PlayerView, hand: SpecialHand, unseen: list[Card],
             counts: list[int], voids: list[set[Suit]]) -> tuple[list[list[Card]], list[Card]]:
        """Hands for the other seats (and the cards left over), respecting shown voids."""
        rng = self.rng
        me = view.seat
        for _attempt in range(12):
            pool = unseen[:]
            rng.shuffle(pool)
            hands: list[list[Card]] = [[] for _ in range(view.players)]
            hands[me] = list(view.hand)
            rest: list[Card] = []
            for card in pool:
                suit = None if hand.is_wild(card) else hand.suit_of(card)
                open_seats = [
                    seat for seat in range(view.players)
                    if seat != me and len(hands[seat]) < counts[seat]
                    and (suit is None or suit not in voids[seat])
                ]
                if open_seats:
                    hands[rng.choice(open_seats)].append(card)
                else:
                    rest.append(card)
            if all(len(hands[s]) == counts[s] for s in range(view.players) if s != me):
                return hands, rest
        pool = unseen[:]
        rng.shuffle(pool)
        hands = [[] for _ in range(view.players)]
        hands[me] = list(view.hand)
        for seat in range(view.players):
            if seat != me:
                hands[seat], pool = pool[: counts[seat]], pool[counts[seat]:]
        return hands, pool

    # ----- decisions -----

    def choose_card(self, view: PlayerView) -> Option:
        hand = hand_rules(view)
        declarations = dict(view.declarations)
        candidates: list[Option] = []
        for card in view.legal_cards:
            for declaration in options_for(hand, card, view.hand, view.current_trick,
                                           declarations):
                candidates.append((card, declaration))
        if len(candidates) == 1:
            return candidates[0]
        unseen = self._unseen(view)
        counts = self._counts(view)
        voids = self._voids(view, hand)
        bids = [bid or 0 for bid in view.bids]
        totals = [0.0] * len(candidates)
        me = view.seat
        model = SpecialModel(view, hand) if self.model else None
        self.deals = 0
        while self.more(self.deals):
            self.deals += 1
            weight, hands, _rest, careful = self.draw(view, hand, unseen, counts, voids, model)
            if weight <= 0.0:
                continue
            for index, (card, declaration) in enumerate(candidates):
                world = World(hand, [list(cards) for cards in hands], list(view.current_trick),
                              dict(declarations), me, list(view.tricks_won),
                              view.trick_number == 1)
                world.play(card, declaration, view.players)
                world.finish(bids, view.players, view.rules.scoring, careful)
                totals[index] += weight * outcome(view, bids, world.won)
        usual = view_option(view, careful=True)  # breaks ties: the rule of thumb's option
        return candidates[max(range(len(candidates)),
                              key=lambda i: (totals[i], candidates[i] == usual))]

    def choose_bid(self, view: PlayerView) -> int:
        legal = list(view.legal_bids)
        if len(legal) == 1:
            return legal[0]
        guess = estimate_tricks(view, "medium")
        near = [bid for bid in legal if abs(bid - guess) <= BID_WINDOW]
        legal = near or [min(legal, key=lambda bid: abs(bid - guess))]
        rules = view.rules
        me = view.seat
        unseen = self._unseen(view)
        counts = self._counts(view)
        voids: list[set[Suit]] = [set() for _ in range(view.players)]
        base = hand_rules(view)
        totals = {bid: 0.0 for bid in legal}
        leader = (view.dealer + 1) % view.players
        model = SpecialModel(view, base) if self.model else None
        self.deals = 0
        while self.more(self.deals):
            self.deals += 1
            weight, hands, rest, careful = self.draw(view, base, unseen, counts, voids, model)
            if weight <= 0.0:
                continue
            hand = base
            if rules.bid_before_trump and view.trump_card is None and rest:
                turned = self.rng.choice(rest)
                trump = turned.suit if turned.index < 52 else None
                hand = SpecialHand(rules.special_cards, trump, turned,
                                   super_trump_for(turned)
                                   if rules.special_cards == "super_screw" else None)
            guesses = [
                bid if bid is not None else _guess(hand, cards, view)
                for bid, cards in zip(view.bids, hands, strict=True)
            ]
            for bid in legal:
                bids = list(guesses)
                bids[me] = bid
                world = World(hand, [list(cards) for cards in hands], [], {}, leader,
                              [0] * view.players, True)
                world.finish(bids, view.players, rules.scoring, careful)
                totals[bid] += weight * outcome(view, bids, world.won)
        return max(legal, key=totals.__getitem__)


def outcome(view: PlayerView, bids: Sequence[int], won: Sequence[int]) -> float:
    """What a simulated hand is worth to the view's seat: its points, or under Quick's rule
    (no points: the exact bid wins, the highest such bid first) one for a win."""
    me = view.seat
    if view.rules.winner_rule == "exact_bid":
        return float(me in exact_bid_winners(bids, won))
    return hand_points(view.rules, bids[me], won[me], view.tricks_in_hand, view.blind)


def _guess(hand: SpecialHand, cards: list[Card], view: PlayerView) -> int:
    """Another seat's bid in a sampled deal: its cards' values, rounded."""
    wizards = sum(card.kind == "wizard" for card in view.rules.special_pack())
    total = 0.0
    for card in cards:
        value = card_value(card, hand, wizards)
        if value is None:
            if hand.trump is not None and card.suit == hand.trump:
                value = 0.3 + 0.05 * max(0, card.rank - 8)
            else:
                value = 0.8 if card.rank == 14 else (0.35 if card.rank == 13 else 0.0)
        total += value
    return round(total)


def easy_bid(view: PlayerView) -> int:
    return nearest_bid(estimate_tricks(view, "easy"), view.legal_bids)


def medium_bid(view: PlayerView) -> int:
    return nearest_bid(estimate_tricks(view, "medium"), view.legal_bids)


__all__ = [
    "SpecialSearch",
    "best_declaration",
    "card_value",
    "choose_option",
    "easy_bid",
    "estimate_tricks",
    "hand_rules",
    "medium_bid",
    "trump_for",
    "view_option",
    "weakest",
]
