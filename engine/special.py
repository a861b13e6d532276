"""What special cards do: jokers, Wizards and Jesters under each rule system of docs/rules.md 4.

One `SpecialHand` holds one hand's facts (the system, trump, the turned card, the Super Trump)
and answers the questions play asks: which suit a card follows or leads as, whether it may be
played whatever was led, what a played card is worth in the trick, which declarations a joker
may take, and why a card is refused. The game keeps the state; this module only decides, so the
standard pack's hot path in `engine.game` never comes through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card, Suit, SuitWord
from engine.moves import Declaration
from engine.phrase import Phrase

TOP = 3
"""Beats every card below it whatever was led (Wizard, Super Joker, a joker declared high)."""
TRUMP = 2
LED = 1
OFF = 0
BOTTOM = -1
"""Loses to every card (Jester, a joker declared low in Blackout)."""

_SKIP = object()
"""A led card that leaves the suit to the next card (a Jester, a Blackout joker)."""

HIGH_LOW = (Declaration(None, True), Declaration(None, False))


class SpecialHand:
    """The special-card rules of one hand."""

    __slots__ = ("dup", "super_trump", "system", "trump", "turned")

    def __init__(
        self, system: str, trump: Suit | None, turned: Card | None, super_trump: Card | None
    ) -> None:
        self.system = system
        self.trump = trump
        self.turned = turned
        self.super_trump = super_trump
        self.dup = turned if system == "joker_dup" and turned is not None and not turned.special \
            else None

    # ----- what a card is -----

    def is_wild(self, card: Card) -> bool:
        """May be played to any trick, whatever was led."""
        if not card.special:
            return False
        if self.system == "joker_high":
            return self.trump is None
        if self.system == "joker_dup":
            return self.dup is None
        return True

    def suit_of(self, card: Card) -> Suit | None:
        """The suit a card that is not wild follows as (a joker that stands for a trump)."""
        if not card.special:
            return card.suit
        if self.system == "joker_high":
            return self.trump
        if self.system == "joker_dup" and self.dup is not None:
            return self.dup.suit
        return None

    def _leads(self, card: Card, declaration: Declaration | None) -> object:
        """The suit a card sets when it comes first: a Suit, None (no suit: free), or _SKIP."""
        if not card.special:
            return card.suit
        system = self.system
        if system == "wizard":
            return _SKIP if card.kind == "jester" else None
        if system == "blackout_jokers":
            return _SKIP
        if system == "love_that_joker":
            return declaration.suit if declaration is not None else None
        if not self.is_wild(card):
            return self.suit_of(card)
        return None

    def led_suit(
        self, trick: Sequence[tuple[int, Card]], declarations: dict[Card, Declaration]
    ) -> Suit | None:
        """The suit to follow in a trick so far; None when the others may play anything."""
        for _seat, card in trick:
            led = self._leads(card, declarations.get(card))
            if led is _SKIP:
                continue
            return led  # type: ignore[return-value]
        return None

    def key(
        self, card: Card, declaration: Declaration | None, led: Suit | None
    ) -> tuple[int, float]:
        """How strong a played card is in its trick: the highest key wins, the first of equals."""
        trump = self.trump
        if not card.special:
            if card is self.super_trump:
                return (TRUMP, 16)
            suit: Suit | None = card.suit
            rank: float = card.rank
        else:
            kind = card.kind
            system = self.system
            if system == "wizard":
                return (TOP, 0) if kind == "wizard" else (BOTTOM, 0)
            if system == "super_screw":
                return (TOP, 2 if kind == "super_joker" else 1)
            if system == "blackout_jokers":
                return (TOP, 0) if declaration is not None and declaration.high else (BOTTOM, 0)
            if system == "love_that_joker":
                if declaration is None or declaration.suit is None:
                    return (TOP, 0)
                suit = declaration.suit
                rank = (15 if declaration.high else 1) + (0.2 if kind == "high_joker" else 0.1)
            elif self.is_wild(card):
                return (TOP, 0)
            elif system == "joker_dup":
                assert self.dup is not None
                suit, rank = self.dup.suit, self.dup.rank
            else:  # joker_high with a trump suit: the highest trump
                suit, rank = trump, 15
        if suit == trump:
            return (TRUMP, rank)
        if suit == led:
            return (LED, rank)
        return (OFF, rank)

    def winner(
        self, trick: Sequence[tuple[int, Card]], declarations: dict[Card, Declaration]
    ) -> int:
        """The seat that wins a complete trick."""
        led = self.led_suit(trick, declarations)
        winner, best = trick[0][0], (BOTTOM - 1, 0.0)
        for seat, card in trick:
            key = self.key(card, declarations.get(card), led)
            if key > best:
                winner, best = seat, key
        return winner

    # ----- what may be played -----

    def legal(
        self,
        held: Sequence[Card],
        trick: Sequence[tuple[int, Card]],
        declarations: dict[Card, Declaration],
        first_trick: bool,
    ) -> list[Card]:
        """The cards of `held` that may be played to `trick` now (what `refusal` allows)."""
        if self.system == "blackout_jokers":
            return [card for card in held
                    if self.refusal(card, held, trick, declarations, first_trick) is None]
        led = self.led_suit(trick, declarations) if trick else None
        if led is None:
            return list(held)
        is_wild = self.is_wild
        suit_of = self.suit_of
        if not any(not is_wild(card) and suit_of(card) == led for card in held):
            return list(held)
        return [card for card in held if is_wild(card) or suit_of(card) == led]

    def refusal(
        self,
        card: Card,
        held: Sequence[Card],
        trick: Sequence[tuple[int, Card]],
        declarations: dict[Card, Declaration],
        first_trick: bool,
    ) -> Phrase | None:
        """Why `card` may not be played now (a sentence naming the rule), or None."""
        wild = self.is_wild(card)
        if self.system == "blackout_jokers" and wild:
            # Both restrictions yield to a hand of nothing but jokers: one of them must be played.
            only_jokers = all(self.is_wild(other) for other in held)
            if not trick and not only_jokers:
                return Phrase("A joker may not be led while you hold other cards.")
            if first_trick and not only_jokers and not self._ace_of_trumps_led(trick):
                return Phrase(
                    "A joker may not be played to the first trick of a hand unless the Ace of "
                    "trumps was led to it."
                )
            return None
        if wild or not trick:
            return None
        led = self.led_suit(trick, declarations)
        if led is None:
            return None
        followers = [
            other for other in held if not self.is_wild(other) and self.suit_of(other) == led
        ]
        if not followers or card in followers:
            return None
        if all(other.special for other in followers):
            return Phrase(
                "You must follow {suits}: your joker counts as a {suit} this hand ({value}).",
                suits=SuitWord(led), suit=SuitWord(led, singular=True),
                value=self.value_text(followers[0]),
            )
        held_suit = SuitWord(led, singular=True)
        joker_suit = self.suit_of(card)
        if card.suit is None and joker_suit is not None:
            joker = SuitWord(joker_suit, singular=True)
            if self.system == "joker_dup":
                return Phrase("You must follow suit: you hold a {suit}. The joker is a {joker} "
                              "this hand, not a wild card.", suit=held_suit, joker=joker)
            return Phrase("You must follow suit: you hold a {suit}. The joker is a {joker} this "
                          "hand (a trump).", suit=held_suit, joker=joker)
        if card is self.super_trump and card.suit is not None:
            return Phrase("You must follow suit: you hold a {suit}. The Super Trump {card} "
                          "belongs to {own}: it may be played to another suit only when you "
                          "cannot follow.", suit=held_suit, card=card, own=SuitWord(card.suit))
        return Phrase("You must follow suit: you hold a {suit}.", suit=held_suit)

    def _ace_of_trumps_led(self, trick: Sequence[tuple[int, Card]]) -> bool:
        if not trick or self.trump is None:
            return False
        led = trick[0][1]
        return not led.special and led.rank == 14 and led.suit == self.trump

    # ----- declarations -----

    def declarations_for(
        self,
        card: Card,
        held: Sequence[Card],
        trick: Sequence[tuple[int, Card]],
        declarations: dict[Card, Declaration],
    ) -> tuple[Declaration, ...]:
        """What `card` may be declared as it is played; empty when it takes no declaration."""
        if not card.special:
            return ()
        system = self.system
        if system == "blackout_jokers":
            return () if declarations else HIGH_LOW
        if system != "love_that_joker":
            return ()
        suits: list[Suit | None] = list(Suit)
        if self.trump is None and self.turned is not None and self.turned.special:
            suits.append(None)  # after a turned joker the other may be declared trump
        trump_like = self.trump
        led = self.led_suit(trick, declarations) if trick else None
        if led is not None and led != self.trump:
            can_follow = any(
                not other.special and other.suit == led for other in held
            )
            if can_follow:
                suits = [suit for suit in suits if suit != trump_like and suit is not None]
        return tuple(Declaration(suit, high) for suit in suits for high in (True, False))

    def auto_declaration(
        self, card: Card, declarations: dict[Card, Declaration]
    ) -> Declaration | None:
        """The value a card takes without a word (the second Blackout joker)."""
        if self.system == "blackout_jokers" and card.special and declarations:
            first = next(iter(declarations.values()))
            return Declaration(None, not first.high)
        return None

    def declaration_refusal(
        self,
        card: Card,
        declaration: Declaration | None,
        held: Sequence[Card],
        trick: Sequence[tuple[int, Card]],
        declarations: dict[Card, Declaration],
    ) -> Phrase | None:
        """Why this declaration (or its absence) is refused for `card`, or None."""
        options = self.declarations_for(card, held, trick, declarations)
        if not options:
            if declaration is None:
                return None
            auto = self.auto_declaration(card, declarations)
            if auto is not None:
                if declaration == auto:
                    return None
                if auto.high:
                    return Phrase("The second joker is high: the first was declared low.")
                return Phrase("The second joker is low: the first was declared high.")
            if not card.special:
                return Phrase("The {card} is not declared: only a joker is.", card=card)
            return Phrase("A {card} is not declared: play it as it is.", card=card)
        if self.system == "blackout_jokers":
            if declaration is None or declaration.high is None:
                return Phrase(
                    "Say whether the joker is high (it wins the trick) or low (it loses): it is "
                    "the first joker played this hand."
                )
            if declaration.suit is not None:
                return Phrase("A joker in Blackout is declared only high or low, not a suit.")
            return None
        if declaration is None or declaration.high is None:
            return Phrase(
                "Say what the {card} is as you play it: a suit and high or low, like "
                "High trump or Low diamond.", card=card,
            )
        if declaration in options:
            return None
        led = self.led_suit(trick, declarations)
        if declaration.suit is None:
            return Phrase(
                "A joker may be declared trump without a suit only when a joker was turned; "
                "name a suit."
            )
        if led is not None and declaration.suit == self.trump:
            return Phrase("A joker may not be declared trump while you can follow {suits}.",
                          suits=SuitWord(led))
        return Phrase("A joker may not be declared {declaration} now.",
                      declaration=describe_declaration(declaration, self.trump))

    # ----- what a card is worth, in words -----

    def value_text(self, card: Card, declarations: dict[Card, Declaration] | None = None) -> str:
        """What `card` is worth this hand, in plain words."""
        trump = self.trump
        system = self.system
        if card.suit is not None:
            if card is self.super_trump and trump is not None:
                return (
                    f"the Super Trump: above the Ace of trumps, beaten only by a joker; "
                    f"it follows {card.suit.label}"
                )
            return "an ordinary card"
        kind = card.kind
        if system == "joker_high":
            if trump is not None:
                return (
                    f"the highest trump, above the Ace of trumps; it follows "
                    f"{trump.label}"
                )
            return "no trump this hand: it beats every card and may be played at any time"
        if system == "joker_dup":
            if self.dup is not None:
                return (
                    f"a second {self.dup} (a trump); when both fall in one trick the first "
                    "played wins"
                )
            return "no card turned: it beats every card and may be played at any time"
        if system == "love_that_joker":
            other = "it beats the Low Joker" if kind == "high_joker" else "the High Joker beats it"
            extra = (
                " or trump (the only card that can be trump this hand)"
                if trump is None and self.turned is not None and self.turned.special
                else ""
            )
            return (
                "played any time; declare a suit and high (above its Ace) or low (below its 2)"
                f"{extra}; with the same declaration in one trick {other}"
            )
        if system == "blackout_jokers":
            if declarations:
                first = next(iter(declarations.values()))
                if len(declarations) >= 2:
                    return "both jokers have been played this hand"
                return (
                    f"the second joker is {'low (it loses)' if first.high else 'high (it wins)'}"
                    f": the first was declared {'high' if first.high else 'low'}"
                )
            return (
                "the first played is declared high (wins the trick) or low (loses); not led "
                "while you hold other cards, nor played to the first trick unless the Ace of "
                "trumps was led or you hold nothing else"
            )
        if system == "super_screw":
            if kind == "super_joker":
                return "beats every card; may be played any time; led, it sets no suit"
            return (
                "beats every card but the Super Joker; may be played any time; led, it sets "
                "no suit"
            )
        if kind == "wizard":
            return (
                "wins the trick (the first Wizard played wins); may be played any time; led, "
                "it frees everyone from following"
            )
        return (
            "loses the trick (unless every card is a Jester); may be played any time; led, "
            "the first number card sets the suit"
        )

    def card_values(
        self, pack: Iterable[Card], declarations: dict[Card, Declaration]
    ) -> tuple[tuple[Card, str], ...]:
        """One line per kind of special card in play this hand (and the Super Trump)."""
        out: list[tuple[Card, str]] = []
        seen: set[str] = set()
        for card in pack:
            if card.special and card.kind not in seen:
                seen.add(card.kind)
                out.append((card, self.value_text(card, declarations)))
        if self.super_trump is not None and self.trump is not None:
            out.append((self.super_trump, self.value_text(self.super_trump)))
        return tuple(out)


def super_trump_for(turned: Card | None) -> Card | None:
    """The Super Trump: the turned card's rank in the other suit of its colour (5♠: 5♣)."""
    if turned is None or turned.suit is None:
        return None
    partner = {
        Suit.CLUBS: Suit.SPADES,
        Suit.SPADES: Suit.CLUBS,
        Suit.HEARTS: Suit.DIAMONDS,
        Suit.DIAMONDS: Suit.HEARTS,
    }[turned.suit]
    return Card(turned.rank, partner)


def describe_declaration(declaration: Declaration, trump: Suit | None) -> str:
    """A declaration in words (see `Declaration.text`)."""
    return declaration.text(trump)


__all__ = ["SpecialHand", "describe_declaration", "super_trump_for"]
