"""The rules model: every option of docs/rules.md section 2, and the named presets of section 4.

A `Rules` value is frozen and knows nothing of the player count; `Rules.plan(players)` turns it
into the concrete hand sizes for a table, and refuses, in words, a table it cannot deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.cards import (
    HIGH_JOKER,
    JESTERS,
    JOKER,
    JOKER_2,
    LOSER_JOKER,
    LOW_JOKER,
    STANDARD_DECK,
    SUPER_JOKER,
    WIZARDS,
    Card,
    Suit,
    SuitWord,
)
from engine.phrase import Phrase, Refusal, Term

HandSequence = Literal["down_up", "up_down", "up", "down", "fixed", "random"]
Scoring = Literal["common", "strict", "penalty", "bonus_only", "wizard"]
ZeroBid = Literal["standard", "five_plus_hand", "five", "ten"]
TrumpChoice = Literal["turn_up", "dealer_picks", "rotation", "dealer_last_card"]
TrumpLead = Literal["anytime", "after_broken"]
Bidding = Literal["sequential", "simultaneous"]
Tiebreak = Literal["share", "extra_hands"]
GameEnd = Literal["sequence", "target"]
FirstDealer = Literal["draw", "first_jack"]
SpecialCards = Literal[
    "none", "joker_high", "joker_dup", "love_that_joker", "blackout_jokers", "super_screw",
    "wizard",
]
CardLoss = Literal["none", "random", "choice"]
WinnerRule = Literal["points", "exact_bid"]

PACK_SIZE = 52
TARGET_GAME_HAND_LIMIT = 60
"""A game to a target score ends after this many hands even if nobody has reached it."""
EXTRA_HAND_LIMIT = 10
"""Tie-break hands stop after this many; players still tied then share the win."""
MAX_HAND = 60
"""No hand holds more cards than this, whatever the pack."""
MAX_HANDS = 100
"""No game plans more hands than this."""

SCORING_TEXT = {
    "common": Phrase("exact bid: 10 + 1 per trick; missed: 1 per trick"),
    "strict": Phrase("exact bid: 10 + the bid; missed: nothing"),
    "penalty": Phrase("exact bid: 10 + 1 per trick; missed: minus 1 per trick over or under"),
    "bonus_only": Phrase("exact bid: 10; missed: nothing"),
    "wizard": Phrase("exact bid: 20 + 10 per trick; missed: minus 10 per trick over or under"),
}


class Rules(BaseModel):
    """A rule system. Fields are the options players agree on before the game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    title: str = "Custom rules"
    min_players: int = Field(3, ge=3, le=8)
    max_players: int = Field(7, ge=3, le=8)

    # The pack and the deal.
    removed_cards: dict[int, int] = Field(
        default_factory=dict,
        description="players -> cards taken off the bottom of the pack before dealing (Oh! Well)",
    )
    special_cards: SpecialCards = Field(
        "none", description="the special cards added and the rules they play by (section 4)"
    )
    wizards: int = Field(2, ge=1, le=4, description="Wizards, and as many Jesters (wizard)")
    removed_ranks: dict[int, list[int]] = Field(
        default_factory=dict,
        description="players -> ranks taken out of the pack (Blackout with Jokers: the 2s)",
    )
    hand_sequence: HandSequence = "down_up"
    max_hand: int | None = Field(
        None, ge=1, le=MAX_HAND,
        description="largest hand, capped by the pack; None = as large as it allows"
    )
    reserve_cards: int = Field(
        1, ge=0, le=10,
        description="cards that must stay undealt: 1 leaves a card to turn for trump"
    )
    hand_count: int | None = Field(
        None, ge=1, le=MAX_HANDS,
        description="hands in a fixed sequence, or a limit on up/down sequences"
    )
    deals_per_seat: int | None = Field(
        None, ge=1, description="a fixed sequence of this many deals per player"
    )
    hand_sizes: list[int] | None = Field(
        None, max_length=MAX_HANDS,
        description="explicit sequence of hand sizes, overriding hand_sequence"
    )

    # Trump.
    trump_choice: TrumpChoice = "turn_up"
    trump_rotation: list[Suit | None] = Field(
        default_factory=list, description="for trump_choice=rotation; None is no-trump"
    )
    last_hand_no_trump: bool = False

    # Bidding.
    hook: bool = True
    bidding: Bidding = "sequential"
    bid_before_trump: bool = Field(
        False, description="the trump card is turned only after every bid is in (super_screw)"
    )
    card_loss: CardLoss = Field(
        "none",
        description="bids adding up to the tricks cost every player a card (random or chosen); "
        "a 1-card hand deals everyone a second card instead",
    )
    blind_hand: int | None = Field(
        None, ge=1, le=MAX_HANDS,
        description="1-based number of the hand bid before the cards are seen"
    )
    announce_over_under: bool = False
    extra_card: bool = False
    discards: int = Field(0, ge=0, le=10)
    discards_six_plus: int | None = Field(None, ge=0, le=10)

    # Play.
    trump_lead: TrumpLead = "anytime"
    must_trump: bool = False

    # Scoring and the end.
    scoring: Scoring = "common"
    zero_bid: ZeroBid = "standard"
    blind_multiplier: int = Field(2, ge=1, le=10)
    winner_bonus: int = Field(0, ge=0, le=1_000)
    tiebreak: Tiebreak = "share"
    game_end: GameEnd = "sequence"
    winner_rule: WinnerRule = Field(
        "points", description="exact_bid: the winner made the exact bid, the higher bid first"
    )
    target_score: int = Field(100, ge=1, le=10_000)
    first_dealer: FirstDealer = "draw"

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        problem = self.problem()
        if problem:
            raise ValueError(problem)
        return self

    def problem(self, players: int | None = None) -> str | None:
        """Why these rules cannot be played (at this table size), in English, or None."""
        why = self.why_not(players)
        return None if why is None else str(why)

    def why_not(self, players: int | None = None) -> Phrase | None:
        """Why these rules cannot be played (at this table size), or None.

        Kept apart from pydantic validation because `model_copy(update=...)` skips validation:
        `Game.new` calls this so a hand-edited rules set is still checked.
        """
        bounds = self._out_of_bounds()
        if bounds:
            return bounds
        if self.min_players > self.max_players:
            return Phrase("The smallest table cannot be larger than the largest.")
        if self.trump_choice == "rotation" and not self.trump_rotation:
            return Phrase("Trump by rotation needs a list of trump suits.")
        if self.hand_sizes is not None and not self.hand_sizes:
            return Phrase("An explicit hand sequence needs at least one hand.")
        if self.hand_sizes and any(size < 1 for size in self.hand_sizes):
            return Phrase("Every hand needs at least one card.")
        if (
            self.hand_sequence == "fixed"
            and self.hand_count is None
            and self.deals_per_seat is None
            and self.game_end != "target"
        ):
            return Phrase("A fixed hand size needs a number of hands (or a target score).")
        if self.bidding == "simultaneous" and self.extra_card:
            return Phrase(
                "The extra card needs the dealer to bid last, so not with simultaneous bids.")
        if self.special_cards != "none":
            clash = [
                phrase
                for flag, phrase in (
                    (self.discards > 0, Phrase("Special cards do not combine with discards.")),
                    (self.extra_card, Phrase("Special cards do not combine with the extra card.")),
                    (self.must_trump, Phrase("Special cards do not combine with must-trump.")),
                    (self.trump_lead == "after_broken",
                     Phrase("Special cards do not combine with trumps led only once broken.")),
                    (self.trump_choice == "dealer_last_card",
                     Phrase("Special cards do not combine with the dealer's last card as "
                            "trump.")),
                )
                if flag
            ]
            if clash:
                return clash[0]
        if self.bid_before_trump and self.trump_choice != "turn_up":
            return Phrase("Bidding before the trump card is turned needs a turned trump card.")
        if self.card_loss != "none" and (self.discards or self.extra_card):
            return Phrase(
                "Losing a card for even bids does not combine with discards or the extra card.")
        if self.hand_sequence == "random" and self.hand_sizes is None and (
            self.hand_count not in (None, 1)
        ):
            return Phrase("A hand of random size is a one-hand game.")
        if self.winner_rule == "exact_bid" and (
            self.game_end == "target"
            or (self.hand_sizes is not None and len(self.hand_sizes) != 1)
            or (self.hand_sizes is None and self.hand_sequence != "random"
                and (self.hand_count != 1 or self.deals_per_seat is not None))
        ):
            return Phrase("The exact-bid winner (quick) is decided by a single hand.")
        if players is None:
            return None
        if not self.min_players <= players <= self.max_players:
            return Phrase("{title} is for {low} to {high} players, not {players}.",
                          title=Term("preset", self.title), low=self.min_players,
                          high=self.max_players, players=players)
        try:
            self.plan(players)
        except Refusal as error:
            return error.phrase
        return None

    def _out_of_bounds(self) -> Phrase | None:
        """The bounds pydantic checks, again: `model_copy(update=...)` skips them."""
        if not 3 <= self.min_players <= 8 or not 3 <= self.max_players <= 8:
            return Phrase("A table seats 3 to 8 players.")
        if self.max_hand is not None and not 1 <= self.max_hand <= MAX_HAND:
            return Phrase("The largest hand is 1 to {most} cards.", most=MAX_HAND)
        if self.hand_sizes is not None:
            if len(self.hand_sizes) > MAX_HANDS:
                return Phrase("A game has at most {most} hands.", most=MAX_HANDS)
            if any(
                isinstance(size, bool) or not isinstance(size, int) or size > MAX_HAND
                for size in self.hand_sizes
            ):
                return Phrase("Every hand has a whole number of cards, at most {most}.",
                              most=MAX_HAND)
        if self.hand_count is not None and not 1 <= self.hand_count <= MAX_HANDS:
            return Phrase("A game has 1 to {most} hands.", most=MAX_HANDS)
        if any(
            not 3 <= players <= 8 or not 0 <= removed < PACK_SIZE
            for players, removed in self.removed_cards.items()
        ):
            return Phrase("Cards removed from the pack: 0 or more, for a table of 3 to 8 players.")
        if not 0 <= self.reserve_cards <= 10:
            return Phrase("Cards kept back from the deal: 0 to 10.")
        if not 0 <= self.discards <= 10 or not 0 <= (self.discards_six_plus or 0) <= 10:
            return Phrase("Discards: 0 to 10 cards.")
        if self.blind_hand is not None and not 1 <= self.blind_hand <= MAX_HANDS:
            return Phrase("The blind hand is a hand number from 1 to {most}.", most=MAX_HANDS)
        if not 1 <= self.blind_multiplier <= 10:
            return Phrase("The blind multiplier is 1 to 10.")
        if not 0 <= self.winner_bonus <= 1_000 or not 1 <= self.target_score <= 10_000:
            return Phrase("The winner's bonus is 0 to 1,000 points and the target 1 to 10,000.")
        return None

    # ----- derived facts for a table -----

    def pack(self, players: int) -> list[Card]:
        """The cards in play at this table, in `index` order (before any are taken off the
        bottom for `removed_cards`)."""
        removed = set(self.removed_ranks.get(players, ()))
        cards = [card for card in STANDARD_DECK if card.rank not in removed]
        return cards + list(self.special_pack())

    def special_pack(self) -> tuple[Card, ...]:
        """The special cards these rules add to the 52."""
        special = self.special_cards
        if special in ("joker_high", "joker_dup"):
            return (JOKER,)
        if special == "love_that_joker":
            return (HIGH_JOKER, LOW_JOKER)
        if special == "blackout_jokers":
            return (JOKER, JOKER_2)
        if special == "super_screw":
            return (SUPER_JOKER, LOSER_JOKER)
        if special == "wizard":
            return WIZARDS[: self.wizards] + JESTERS[: self.wizards]
        return ()

    def pack_size(self, players: int) -> int:
        removed = self.removed_ranks.get(players, ())
        return (
            PACK_SIZE
            - 4 * len(set(removed))
            + len(self.special_pack())
            - self.removed_cards.get(players, 0)
        )

    def discards_for(self, players: int) -> int:
        if players >= 6 and self.discards_six_plus is not None:
            return self.discards_six_plus
        return self.discards

    def cap(self, players: int) -> int:
        """The largest hand the pack allows while keeping the reserved cards undealt."""
        return (self.pack_size(players) - self.reserve_cards) // players

    def largest_hand(self, players: int) -> int:
        cap = self.cap(players)
        return cap if self.max_hand is None else min(self.max_hand, cap)

    def plan(self, players: int) -> list[int]:
        """Hand sizes of the whole game at this table (a target game repeats its one size)."""
        pack = self.pack_size(players)
        discards = self.discards_for(players)
        if self.hand_sizes is not None:
            sizes = list(self.hand_sizes)
            most = max(sizes)
            if most * players > pack:
                raise Refusal(
                    "{most} cards each for {players} players needs {needed} cards; the pack has "
                    "{pack}.", most=most, players=players, needed=most * players, pack=pack,
                )
        else:
            most = self.largest_hand(players)
            if most < 1:
                raise Refusal("The pack cannot deal a hand to {players} players.",
                              players=players)
            down = list(range(most, 0, -1))
            up = list(range(1, most + 1))
            if self.hand_sequence == "down_up":
                sizes = down + up[1:]
            elif self.hand_sequence == "up_down":
                sizes = up + down[1:]
            elif self.hand_sequence == "up":
                sizes = up
            elif self.hand_sequence == "down":
                sizes = down
            elif self.hand_sequence == "random":
                sizes = [most]  # the largest it may be: the game draws the size (Game.new)
            elif self.deals_per_seat is not None:
                sizes = [most] * (self.deals_per_seat * players)
            else:
                sizes = [most] * (self.hand_count or 1)
            if self.hand_count is not None and self.hand_sequence not in ("fixed", "random"):
                sizes = sizes[: self.hand_count]
        if discards and min(sizes) <= discards:
            raise Refusal(
                "Each player discards {discards}, so every hand needs more than {discards} cards.",
                discards=discards,
            )
        if self.extra_card and self.bidding == "simultaneous":
            raise Refusal("The extra card cannot go with simultaneous bids.")
        return sizes

    # ----- presets -----

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named rule system of docs/rules.md section 4."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        try:
            fields = PRESETS[key]
        except KeyError:
            known = ", ".join(PRESETS)
            raise Refusal("There is no preset called {name!r}. Presets: {known}.", name=name,
                          known=known) from None
        return cls(name=key, **fields)

    @classmethod
    def preset_names(cls, special_cards: bool = False) -> list[str]:
        """The presets' names. Those with special cards (jokers, Wizards, Jesters) come only
        when asked for: a front end offers them once it can ask for a joker's declaration."""
        return [
            name
            for name, fields in PRESETS.items()
            if special_cards or fields.get("special_cards", "none") == "none"
        ]

    def describe(self, players: int | None = None) -> list[str]:
        """The rules in a few plain lines, in English (`describe_phrases` for any language)."""
        return [str(line) for line in self.describe_phrases(players)]

    def plan_phrase(self, players: int) -> Phrase:
        """What dealing to `players` gives: "With 3 players: 3 hands of 2, 1, 2 cards."."""
        if self.hand_sequence == "random" and not self.hand_sizes:
            return Phrase("With {players} players: one hand of 1 to {most} cards, drawn at "
                          "random.", players=players, most=self.plan(players)[0])
        sizes = self.plan(players)
        return Phrase("With {players} players: {count} hands of {sizes} cards.",
                      players=players, count=len(sizes), sizes=_sizes_text(sizes))

    def describe_phrases(self, players: int | None = None) -> list[Phrase]:
        """The rules in a few plain lines, for `/ohhell rules`: phrases a front end says in the
        reader's language."""
        lines = [Phrase("{low}-{high} players, {pack}.", low=self.min_players,
                        high=self.max_players, pack=_pack_text(self))]
        lines.append(_sequence_text(self) if players is None else self.plan_phrase(players))
        lines.append(_trump_text(self))
        lines.extend(SPECIAL_TEXT.get(self.special_cards, []))
        if self.discards and self.discards_six_plus is not None:
            lines.append(Phrase("Before bidding everyone discards {discards} cards face down "
                                "({six} with 6 or more players).", discards=self.discards,
                                six=self.discards_six_plus))
        elif self.discards:
            lines.append(Phrase("Before bidding everyone discards {discards} cards face down.",
                                discards=self.discards))
        if self.bidding == "simultaneous":
            lines.append(Phrase("Everyone bids at once; the bids are shown together."))
        if self.bid_before_trump:
            lines.append(Phrase("The bids come first; the trump card is turned after them."))
        if self.card_loss == "random":
            lines.append(Phrase(
                "If the bids add up to the tricks, every player loses a random card (it leaves "
                "play); in a 1-card hand everyone is dealt a second card instead."))
        elif self.card_loss != "none":
            lines.append(Phrase(
                "If the bids add up to the tricks, every player loses a card of their choice (it "
                "leaves play); in a 1-card hand everyone is dealt a second card instead."))
        else:
            lines.append(
                Phrase("Bidding goes clockwise from the dealer's left; the dealer bids last."))
        if self.hook and self.bidding == "sequential" and self.extra_card:
            lines.append(Phrase(
                "The hook: the dealer may not bid the number that makes the bids add up to the "
                "number of tricks. If they do, everyone gets one extra card."))
        elif self.hook and self.bidding == "sequential":
            lines.append(Phrase(
                "The hook: the dealer may not bid the number that makes the bids add up to the "
                "number of tricks."))
        else:
            lines.append(Phrase("No hook: the dealer may bid anything."))
        if self.blind_hand:
            lines.append(Phrase(
                "Hand {hand} is bid blind, before the cards are seen; an exact blind bid scores "
                "x{times}.", hand=self.blind_hand, times=self.blind_multiplier))
        if self.announce_over_under:
            lines.append(Phrase("After bidding the total is announced as over, under or even."))
        lines.append(Phrase("Follow suit if you can; otherwise play any card."))
        if self.must_trump:
            lines.append(Phrase("If you cannot follow suit you must trump when you can."))
        if self.trump_lead == "after_broken":
            lines.append(Phrase(
                "Trumps may not be led until one has been played (unless you hold only trumps)."))
        if self.zero_bid != "standard":
            lines.append(Phrase("Scoring: {scoring}. {zero}", scoring=SCORING_TEXT[self.scoring],
                                zero=_ZERO_BID_TEXT[self.zero_bid]))
        else:
            lines.append(Phrase("Scoring: {scoring}.", scoring=SCORING_TEXT[self.scoring]))
        if self.winner_rule == "exact_bid":
            lines.append(Phrase(
                "No scoresheet: the winner is whoever made the exact bid, the higher bid "
                "breaking ties; if nobody made it, nobody wins."))
            return lines
        if self.game_end == "target":
            lines.append(Phrase("The game ends when someone reaches {target} points.",
                                target=self.target_score))
        ties = (
            Phrase("Ties for first all win.")
            if self.tiebreak == "share"
            else Phrase(
                "A tie for first plays extra hands of the largest size until someone is ahead.")
        )
        if self.winner_bonus:
            ties = Phrase("{ties} The winner gets {bonus} bonus points.", ties=ties,
                          bonus=self.winner_bonus)
        lines.append(ties)
        return lines


_ZERO_BID_TEXT = {
    "five_plus_hand": Phrase("A made bid of 0 scores 5 + the number of tricks in the hand."),
    "five": Phrase("A made bid of 0 scores 5."),
    "ten": Phrase("A made bid of 0 scores 10."),
}


def _sizes_text(sizes: list[int]) -> str:
    if len(sizes) > 12:
        return ", ".join(str(size) for size in sizes[:6]) + " ... " + str(sizes[-1])
    return ", ".join(str(size) for size in sizes)


def _sequence_text(rules: Rules) -> Phrase:
    if rules.hand_sizes:
        return Phrase("Hands of {sizes} cards.", sizes=_sizes_text(rules.hand_sizes))
    most: Phrase | int = (Phrase("the most the pack allows") if rules.max_hand is None
                          else rules.max_hand)
    sequence = rules.hand_sequence
    if sequence == "down_up":
        return Phrase("Hands go down from {most} cards to 1 and back up.", most=most)
    if sequence == "up_down":
        return Phrase("Hands go up from 1 card to {most} and back down.", most=most)
    if sequence == "up":
        return Phrase("Hands go up from 1 card to {most}.", most=most)
    if sequence == "down":
        return Phrase("Hands go down from {most} cards to 1.", most=most)
    if sequence == "random":
        return Phrase("One hand of a random size, from 1 card up to {most}.", most=most)
    if rules.hand_count:
        return Phrase("Every hand has {most} cards, {count} hands.", most=most,
                      count=rules.hand_count)
    return Phrase("Every hand has {most} cards.", most=most)


_MANY: dict[str, Callable[[int], Phrase]] = {
    "joker": lambda count: Phrase("{count} Jokers", count=count),
    "wizard": lambda count: Phrase("{count} Wizards", count=count),
    "jester": lambda count: Phrase("{count} Jesters", count=count),
}
"""Two or more alike special cards, as the pack's line names them."""


def _pack_text(rules: Rules) -> Phrase:
    extra = rules.special_pack()
    if not extra:
        return Phrase("one 52-card pack")
    kinds: dict[str, list[Card]] = {}
    for card in extra:
        kinds.setdefault(card.kind, []).append(card)
    groups = [
        Phrase("a {card}", card=cards[0]) if len(cards) == 1
        else _MANY[kind](len(cards))
        for kind, cards in kinds.items()
    ]
    added = groups[0] if len(groups) == 1 else Phrase("{first} and {second}", first=groups[0],
                                                       second=groups[1])
    removed = sorted(rules.removed_ranks.items())
    if removed:
        players, ranks = removed[0]
        return Phrase("a 52-card pack plus {added} (with {players} players the {ranks}s come "
                      "out)", added=added, players=players, ranks=", ".join(map(str, ranks)))
    return Phrase("a 52-card pack plus {added}", added=added)


SPECIAL_TEXT: dict[str, list[Phrase]] = {
    "joker_high": [
        Phrase("The joker is the highest trump, above the Ace, and follows trumps (play it to a "
               "trump lead when it is your only trump). A turned joker means no trump; then a "
               "held joker beats every card and may be played at any time."),
    ],
    "joker_dup": [
        Phrase("The joker is a copy of the turned card (turn the 8♥: the joker is an 8♥, a "
               "trump); when both fall in one trick the one played first wins. A turned joker "
               "means no trump."),
    ],
    "love_that_joker": [
        Phrase("Two jokers, High and Low, may be played to any trick at any time. Say what it is "
               "as you play it: a suit and high (above its Ace) or low (below its 2), like 'High "
               "trump' or 'Low diamond'. If a plain suit is led and you can follow it, your "
               "joker may not be trump. Same declaration in one trick: the High joker wins."),
        Phrase("A turned joker means no trump, except that the other joker may be declared "
               "trump."),
    ],
    "blackout_jokers": [
        Phrase("All cards are dealt: none is turned."),
        Phrase("Jokers may not be led unless you hold nothing else, and not played to the first "
               "trick unless the Ace of trumps was led to it (or you hold nothing else); "
               "otherwise any time. The first joker played in a hand is declared high (wins the "
               "trick) or low (loses); the second is the opposite. After a led joker the first "
               "other card sets the suit."),
    ],
    "super_screw": [
        Phrase("Above the Ace of trumps: the Super Joker, the Loser Joker, then the Super Trump "
               "(the turned card's rank in the other suit of its colour: turn 5♠, the 5♣). The "
               "Super Trump follows its own suit; played, it beats all but a joker."),
        Phrase("Jokers may be played to any trick; a led joker sets no suit. A turned joker: no "
               "trump and no Super Trump."),
    ],
    "wizard": [
        Phrase("Wizards and Jesters may be played at any time. The first Wizard in a trick wins "
               "it; a Jester always loses (all Jesters: the first wins). A led Wizard frees "
               "everyone from following; after a led Jester the first number card sets the "
               "suit."),
        Phrase("A turned Jester means no trump; a turned Wizard lets the dealer name trump."),
    ],
}
"""The special-card rules in plain words, for `/ohhell rules`."""


def _trump_text(rules: Rules) -> Phrase:
    if rules.trump_choice == "dealer_picks":
        text = Phrase("After the deal the dealer picks the trump suit (no-trump is not allowed).")
    elif rules.trump_choice == "rotation":
        names = [SuitWord(suit) if suit is not None else Phrase("no trump")
                 for suit in rules.trump_rotation]
        text = Phrase("Trump rotates: {suits}.", suits=names)
    elif rules.trump_choice == "dealer_last_card":
        text = Phrase(
            "The dealer's own last card is turned for trump (it stays in the dealer's hand).")
    else:
        text = Phrase("The next card is turned for trump; with none left the hand has no trump.")
    if rules.last_hand_no_trump:
        return Phrase("{trump} The last hand is played without trump.", trump=text)
    return text


_CLASSIC: dict[str, Any] = {
    "title": "Classic Oh Hell",
    "hand_sequence": "down_up",
    "max_hand": 10,
    "hook": True,
    "scoring": "common",
}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": _CLASSIC,
    "vanikar": {
        "title": "Vanikar (1 up to 7 and back)",
        "hand_sequence": "up_down",
        "max_hand": 7,
        "scoring": "strict",
    },
    "ascending": {
        "title": "Ascending (Blackout)",
        "max_players": 8,
        "hand_sequence": "up",
        "max_hand": 15,
        "reserve_cards": 0,
        "last_hand_no_trump": True,
        "hook": False,
        "scoring": "strict",
    },
    "oh_well": {
        "title": "Oh! Well (the original, to 100)",
        "removed_cards": {3: 1, 5: 2, 6: 4, 7: 3},
        "hand_sequence": "fixed",
        "reserve_cards": 0,
        "trump_choice": "dealer_last_card",
        "hook": False,
        "scoring": "common",
        "game_end": "target",
        "target_score": 100,
    },
    "nomination_whist": {
        "title": "Nomination Whist",
        "hand_sequence": "down_up",
        "max_hand": 7,
        "first_dealer": "first_jack",
        "scoring": "common",
    },
    "up_and_down_river": {
        "title": "Up and Down the River",
        "min_players": 4,
        "max_players": 8,
        "hand_sequence": "down_up",
        "max_hand": 10,
        "scoring": "common",
    },
    "oh_pshaw": {
        "title": "Oh Pshaw (Bicycle)",
        "hand_sequence": "up",
        "max_hand": 15,
        "reserve_cards": 0,
        "hook": False,
        "announce_over_under": True,
        "scoring": "strict",
    },
    "british": {
        "title": "British Oh Hell (Parlett)",
        "hand_sequence": "up",
        "reserve_cards": 0,
        "hook": False,
        "scoring": "bonus_only",
    },
    "pagat": {
        "title": "Oh Hell (pagat.com)",
        "hand_sequence": "down_up",
        "max_hand": 10,
        "scoring": "strict",
    },
    "kachuful": {
        "title": "Kachuful (Judgement)",
        "hand_sequence": "down_up",
        "max_hand": 10,
        "trump_choice": "rotation",
        "trump_rotation": [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, None],
        "reserve_cards": 0,
        "scoring": "strict",
    },
    "la_podrida": {**_CLASSIC, "title": "La Podrida (must trump)", "must_trump": True},
    "dealer_picks": {
        **_CLASSIC,
        "title": "Dealer Picks the Suit",
        "trump_choice": "dealer_picks",
        "reserve_cards": 0,
    },
    "extra_card": {**_CLASSIC, "title": "Extra Card", "extra_card": True},
    "ouch": {
        "title": "Ouch (discard two)",
        "hand_sequence": "fixed",
        "reserve_cards": 2,
        "hand_count": 10,
        "discards": 2,
        "discards_six_plus": 1,
        "scoring": "strict",
    },
    "joker_high": {**_CLASSIC, "title": "Joker High", "special_cards": "joker_high"},
    "joker_dup": {
        **_CLASSIC,
        "title": "Joker as the turned card",
        "special_cards": "joker_dup",
    },
    "love_that_joker": {
        **_CLASSIC,
        "title": "Love That Joker (High and Low jokers)",
        "special_cards": "love_that_joker",
    },
    "blackout_jokers": {
        "title": "Blackout with Jokers",
        "min_players": 5,
        "max_players": 6,
        "special_cards": "blackout_jokers",
        "removed_ranks": {5: [2]},
        "hand_sequence": "fixed",
        "reserve_cards": 0,
        "deals_per_seat": 1,
        "trump_choice": "rotation",
        "trump_rotation": [Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES],
        "hook": True,
        "scoring": "common",
    },
    "super_screw": {
        **_CLASSIC,
        "title": "Super Screw Your Neighbour",
        "special_cards": "super_screw",
        "bidding": "simultaneous",
        "bid_before_trump": True,
        "card_loss": "random",
        "hook": False,
    },
    "wizard_lite": {
        "title": "Wizard lite (2 Wizards, 2 Jesters)",
        "max_players": 6,
        "special_cards": "wizard",
        "wizards": 2,
        "hand_sequence": "up",
        "reserve_cards": 0,
        "hook": False,
        "scoring": "wizard",
    },
    "wizard": {
        "title": "Wizard (4 Wizards, 4 Jesters)",
        "max_players": 6,
        "special_cards": "wizard",
        "wizards": 4,
        "hand_sequence": "up",
        "reserve_cards": 0,
        "hook": False,
        "scoring": "wizard",
    },
    "quick": {
        **_CLASSIC,
        "title": "Quick (one hand, exact bid wins)",
        "special_cards": "super_screw",
        "bidding": "simultaneous",
        "bid_before_trump": True,
        "card_loss": "random",
        "hook": False,
        "hand_sequence": "random",
        "max_hand": None,
        "winner_rule": "exact_bid",
    },
}
