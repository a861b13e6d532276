"""The rules model: every option of RULES.md section 2, and the named presets of section 4.

A `Rules` value is frozen and knows nothing of the player count; `Rules.plan(players)` turns it
into the concrete hand sizes for a table, and refuses, in words, a table it cannot deal.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.cards import Suit

HandSequence = Literal["down_up", "up_down", "up", "down", "fixed"]
Scoring = Literal["common", "strict", "penalty", "bonus_only", "wizard"]
ZeroBid = Literal["standard", "five_plus_hand", "five", "ten"]
TrumpChoice = Literal["turn_up", "dealer_picks", "rotation", "dealer_last_card"]
TrumpLead = Literal["anytime", "after_broken"]
Bidding = Literal["sequential", "simultaneous"]
Tiebreak = Literal["share", "extra_hands"]
GameEnd = Literal["sequence", "target"]
FirstDealer = Literal["draw", "first_jack"]

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
    "common": "exact bid: 10 + 1 per trick; missed: 1 per trick",
    "strict": "exact bid: 10 + the bid; missed: nothing",
    "penalty": "exact bid: 10 + 1 per trick; missed: minus 1 per trick over or under",
    "bonus_only": "exact bid: 10; missed: nothing",
    "wizard": "exact bid: 20 + 10 per trick; missed: minus 10 per trick over or under",
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
    target_score: int = Field(100, ge=1, le=10_000)
    first_dealer: FirstDealer = "draw"

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        problem = self.problem()
        if problem:
            raise ValueError(problem)
        return self

    def problem(self, players: int | None = None) -> str | None:
        """Why these rules cannot be played (at this table size), or None.

        Kept apart from pydantic validation because `model_copy(update=...)` skips validation:
        `Game.new` calls this so a hand-edited rules set is still checked.
        """
        bounds = self._out_of_bounds()
        if bounds:
            return bounds
        if self.min_players > self.max_players:
            return "The smallest table cannot be larger than the largest."
        if self.trump_choice == "rotation" and not self.trump_rotation:
            return "Trump by rotation needs a list of trump suits."
        if self.hand_sizes is not None and not self.hand_sizes:
            return "An explicit hand sequence needs at least one hand."
        if self.hand_sizes and any(size < 1 for size in self.hand_sizes):
            return "Every hand needs at least one card."
        if self.hand_sequence == "fixed" and self.hand_count is None and self.game_end != "target":
            return "A fixed hand size needs a number of hands (or a target score)."
        if self.bidding == "simultaneous" and self.extra_card:
            return "The extra card needs the dealer to bid last, so not with simultaneous bids."
        if players is None:
            return None
        if not self.min_players <= players <= self.max_players:
            return (
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}."
            )
        try:
            self.plan(players)
        except ValueError as error:
            return str(error)
        return None

    def _out_of_bounds(self) -> str | None:
        """The bounds pydantic checks, again: `model_copy(update=...)` skips them."""
        if not 3 <= self.min_players <= 8 or not 3 <= self.max_players <= 8:
            return "A table seats 3 to 8 players."
        if self.max_hand is not None and not 1 <= self.max_hand <= MAX_HAND:
            return f"The largest hand is 1 to {MAX_HAND} cards."
        if self.hand_sizes is not None:
            if len(self.hand_sizes) > MAX_HANDS:
                return f"A game has at most {MAX_HANDS} hands."
            if any(
                isinstance(size, bool) or not isinstance(size, int) or size > MAX_HAND
                for size in self.hand_sizes
            ):
                return f"Every hand has a whole number of cards, at most {MAX_HAND}."
        if self.hand_count is not None and not 1 <= self.hand_count <= MAX_HANDS:
            return f"A game has 1 to {MAX_HANDS} hands."
        if any(
            not 3 <= players <= 8 or not 0 <= removed < PACK_SIZE
            for players, removed in self.removed_cards.items()
        ):
            return "Cards removed from the pack: 0 or more, for a table of 3 to 8 players."
        if not 0 <= self.reserve_cards <= 10:
            return "Cards kept back from the deal: 0 to 10."
        if not 0 <= self.discards <= 10 or not 0 <= (self.discards_six_plus or 0) <= 10:
            return "Discards: 0 to 10 cards."
        if self.blind_hand is not None and not 1 <= self.blind_hand <= MAX_HANDS:
            return f"The blind hand is a hand number from 1 to {MAX_HANDS}."
        if not 1 <= self.blind_multiplier <= 10:
            return "The blind multiplier is 1 to 10."
        if not 0 <= self.winner_bonus <= 1_000 or not 1 <= self.target_score <= 10_000:
            return "The winner's bonus is 0 to 1,000 points and the target 1 to 10,000."
        return None

    # ----- derived facts for a table -----

    def pack_size(self, players: int) -> int:
        return PACK_SIZE - self.removed_cards.get(players, 0)

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
                raise ValueError(
                    f"{most} cards each for {players} players needs {most * players} cards; "
                    f"the pack has {pack}."
                )
        else:
            most = self.largest_hand(players)
            if most < 1:
                raise ValueError(f"The pack cannot deal a hand to {players} players.")
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
            else:
                sizes = [most] * (self.hand_count or 1)
            if self.hand_count is not None and self.hand_sequence != "fixed":
                sizes = sizes[: self.hand_count]
        if discards and min(sizes) <= discards:
            raise ValueError(
                f"Each player discards {discards}, so every hand needs more than {discards} cards."
            )
        if self.extra_card and self.bidding == "simultaneous":
            raise ValueError("The extra card cannot go with simultaneous bids.")
        return sizes

    # ----- presets -----

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named rule system of RULES.md section 4."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        try:
            fields = PRESETS[key]
        except KeyError:
            known = ", ".join(PRESETS)
            raise ValueError(f"There is no preset called {name!r}. Presets: {known}.") from None
        return cls(name=key, **fields)

    @classmethod
    def preset_names(cls) -> list[str]:
        return list(PRESETS)

    def describe(self, players: int | None = None) -> list[str]:
        """The rules in a few plain lines, for `/ohhell rules`."""
        lines = [f"{self.min_players}-{self.max_players} players, one 52-card pack."]
        if players is not None:
            sizes = self.plan(players)
            lines.append(
                f"With {players} players: {len(sizes)} hands of {_sizes_text(sizes)} cards."
            )
        else:
            lines.append(_sequence_text(self))
        lines.append(_trump_text(self))
        if self.discards:
            extra = (
                f" ({self.discards_six_plus} with 6 or more players)"
                if self.discards_six_plus is not None
                else ""
            )
            lines.append(
                f"Before bidding everyone discards {self.discards} cards face down{extra}."
            )
        if self.bidding == "simultaneous":
            lines.append("Everyone bids at once; the bids are shown together.")
        else:
            lines.append("Bidding goes clockwise from the dealer's left; the dealer bids last.")
        if self.hook and self.bidding == "sequential":
            lines.append(
                "The hook: the dealer may not bid the number that makes the bids add up to the "
                "number of tricks."
                + (" If they do, everyone gets one extra card." if self.extra_card else "")
            )
        else:
            lines.append("No hook: the dealer may bid anything.")
        if self.blind_hand:
            lines.append(
                f"Hand {self.blind_hand} is bid blind, before the cards are seen; an exact blind "
                f"bid scores x{self.blind_multiplier}."
            )
        if self.announce_over_under:
            lines.append("After bidding the total is announced as over, under or even.")
        lines.append("Follow suit if you can; otherwise play any card.")
        if self.must_trump:
            lines.append("If you cannot follow suit you must trump when you can.")
        if self.trump_lead == "after_broken":
            lines.append(
                "Trumps may not be led until one has been played (unless you hold only trumps)."
            )
        scoring = f"Scoring: {SCORING_TEXT[self.scoring]}."
        if self.zero_bid != "standard":
            scoring += " " + _ZERO_BID_TEXT[self.zero_bid]
        lines.append(scoring)
        if self.game_end == "target":
            lines.append(f"The game ends when someone reaches {self.target_score} points.")
        ties = (
            "Ties for first all win."
            if self.tiebreak == "share"
            else "A tie for first plays extra hands of the largest size until someone is ahead."
        )
        if self.winner_bonus:
            ties += f" The winner gets {self.winner_bonus} bonus points."
        lines.append(ties)
        return lines


_ZERO_BID_TEXT = {
    "five_plus_hand": "A made bid of 0 scores 5 + the number of tricks in the hand.",
    "five": "A made bid of 0 scores 5.",
    "ten": "A made bid of 0 scores 10.",
}


def _sizes_text(sizes: list[int]) -> str:
    if len(sizes) > 12:
        return ", ".join(str(size) for size in sizes[:6]) + " ... " + str(sizes[-1])
    return ", ".join(str(size) for size in sizes)


def _sequence_text(rules: Rules) -> str:
    if rules.hand_sizes:
        return f"Hands of {_sizes_text(rules.hand_sizes)} cards."
    most = "the most the pack allows" if rules.max_hand is None else f"{rules.max_hand}"
    return {
        "down_up": f"Hands go down from {most} cards to 1 and back up.",
        "up_down": f"Hands go up from 1 card to {most} and back down.",
        "up": f"Hands go up from 1 card to {most}.",
        "down": f"Hands go down from {most} cards to 1.",
        "fixed": f"Every hand has {most} cards"
        + (f", {rules.hand_count} hands." if rules.hand_count else "."),
    }[rules.hand_sequence]


def _trump_text(rules: Rules) -> str:
    if rules.trump_choice == "dealer_picks":
        text = "After the deal the dealer picks the trump suit (no-trump is not allowed)."
    elif rules.trump_choice == "rotation":
        names = ", ".join(
            suit.label if suit is not None else "no trump" for suit in rules.trump_rotation
        )
        text = f"Trump rotates: {names}."
    elif rules.trump_choice == "dealer_last_card":
        text = "The dealer's own last card is turned for trump (it stays in the dealer's hand)."
    else:
        text = "The next card is turned for trump; with none left the hand has no trump."
    if rules.last_hand_no_trump:
        text += " The last hand is played without trump."
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
}
