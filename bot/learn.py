"""A guided first hand: the worked example of the Vanikar rules (source 003 in docs/rules.md).

Three players, one 3-card hand, the 9♠ turned up: you hold J♠ A♥ 6♦, and you make every
decision while each step says why. The deal is built card by card with `Game.new(..., deck=)`, so
the example is exact; the two computer players are scripted. A move the lesson does not ask for
is explained and asked again (an illegal one with the engine's own words), and the lesson ends
with how to start a real table.

A lesson is a pure function of the answers given so far (`Lesson.replayed(answers)`), so Discord
can carry them in a button's custom_id and nothing is kept in memory between clicks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n import DEFAULT_LANG, Lang, t, tc
from bot.moves import refused
from engine import STANDARD_DECK, Card, Game, IllegalAction, Play, Rules, Suit

YOU, MIA, SAM = 0, 1, 2
OTHERS = ("Mia", "Sam")
DEALER = SAM
_DEALT = ("JS", "10H", "6S", "AH", "2D", "4D", "6D", "3C", "5C")
"""One card at a time from the dealer's left: you, Mia, Sam, you, Mia, Sam..."""
_TURNED = "9S"
_SCRIPT: dict[int, list[str]] = {MIA: ["b1", "10H", "2D", "3C"], SAM: ["b1", "6S", "4D", "5C"]}
"""The computers' moves in order (b: a bid)."""


@dataclass(frozen=True)
class Decision:
    """What the lesson waits for: the answer it asks for, and why (in a reader's language)."""

    kind: str  # "bid" or "card"
    expected: str
    ask: Callable[[Lang], str]
    why_not: Callable[[Lang], str]


_DECISIONS = (
    Decision(
        "bid", "2",
        lambda lang: t(lang, "Your bid: how many tricks will you take? You hold J♠ A♥ 6♦ and "
                             "spades are trump. The J♠ is a high trump and the A♥ the highest "
                             "heart: count on those two. Bid 2."),
        lambda lang: t(lang, "In this lesson bid 2: the J♠ (a high trump) and the A♥ (the top "
                             "heart) should each take a trick, and the 6♦ probably not."),
    ),
    Decision(
        "card", "AH",
        lambda lang: t(lang, "Bidding is over and you sit left of the dealer, so you lead the "
                             "first trick. Lead the A♥: nobody holds a higher heart, so only a "
                             "trump can beat it."),
        lambda lang: t(lang, "In this lesson lead the A♥, to see what a trump does to it."),
    ),
    Decision(
        "card", "6D",
        lambda lang: t(lang, "A diamond was led. Your turn: which card?"),
        lambda lang: t(lang, "Play the 6♦: following suit comes first."),
    ),
    Decision(
        "card", "JS",
        lambda lang: t(lang, "You lead the last trick with the J♠, your last card."),
        lambda lang: t(lang, "The J♠ is the only card you have left."),
    ),
)


def _suit_one(suit: Suit, lang: Lang) -> str:
    """One card's suit in a sentence: "a diamond" reads "ruter"."""
    if suit is Suit.CLUBS:
        return tc(lang, "suit one", "club")
    if suit is Suit.DIAMONDS:
        return tc(lang, "suit one", "diamond")
    if suit is Suit.HEARTS:
        return tc(lang, "suit one", "heart")
    return tc(lang, "suit one", "spade")


def _deck() -> list[Card]:
    top = [Card.parse(code) for code in (*_DEALT, _TURNED)]
    return top + [card for card in STANDARD_DECK if card not in top]


def lesson_rules() -> Rules:
    """Vanikar (003's rules: strict scoring, the hook) with one 3-card hand."""
    return Rules.preset("vanikar").model_copy(update={"hand_sizes": [3]})


@dataclass
class Step:
    """What to show after an answer: lines of text, the choices for the next decision (bids or
    your cards; empty when the lesson is over), and whether the answer was taken."""

    lines: list[str]
    choices: list[str]
    taken: bool
    done: bool


class Lesson:
    """One run of the guided hand. `start()` opens it; `answer(text)` takes a bid or a card;
    every line is in `lang`."""

    def __init__(self, lang: Lang = DEFAULT_LANG) -> None:
        self.lang = lang
        self.game = Game.new(players=3, rules=lesson_rules(), seed=3, dealer=DEALER,
                             deck=_deck())
        self.answers: list[str] = []
        self._script = {seat: list(moves) for seat, moves in _SCRIPT.items()}
        self._decision = 0

    @classmethod
    def replayed(cls, answers: Sequence[str], lang: Lang = DEFAULT_LANG) -> Lesson:
        """The lesson after these accepted answers (as `answers` lists them)."""
        lesson = cls(lang)
        lesson.start()
        for given in answers:
            if not lesson.answer(given).taken:
                raise ValueError(f"{given!r} is not an answer this lesson took")
        return lesson

    @property
    def done(self) -> bool:
        return self._decision >= len(_DECISIONS)

    def choices(self) -> list[str]:
        """The answers to offer: every bid of the hand, or every card you hold."""
        if self.done:
            return []
        if _DECISIONS[self._decision].kind == "bid":
            return [str(n) for n in range(self.game.hand_size + 1)]
        return [card.code for card in self.game.hand_of(YOU)]

    def start(self) -> Step:
        """The opening: the deal, what you hold, and the first question."""
        lang = self.lang
        lines = [
            t(lang, "Oh Hell, a first hand. Three players: you, Mia and Sam. Sam deals 3 cards "
                    "each and turns the next card up: the 9♠. Spades are trump for this hand: "
                    "any spade beats every card of another suit."),
            t(lang, "You hold J♠ A♥ 6♦. Everyone bids how many tricks they will take; you score "
                    "only for taking exactly your bid (these are the Vanikar rules: 10 + your bid "
                    "when you make it, nothing when you miss)."),
            t(lang, "The player left of the dealer bids first: that is you."),
            _DECISIONS[0].ask(lang),
        ]
        return Step(lines, self.choices(), taken=True, done=False)

    def answer(self, text: str) -> Step:
        """Take your answer: explained and asked again when it is not the lesson's, else
        played, followed by the computers' moves up to your next decision."""
        lang = self.lang
        if self.done:
            return Step([t(lang, "The lesson is over.")], [], taken=False, done=True)
        decision = _DECISIONS[self._decision]
        given = text.strip()
        lines: list[str] = []
        if decision.kind == "bid":
            if given != decision.expected:
                legal = [str(n) for n in self.game.legal_bids(YOU)]
                if given not in legal:
                    lines.append(t(lang, "{given} is not a bid here: bid 0 to {most}.",
                                   given=repr(given), most=self.game.hand_size))
                return self._again([*lines, decision.why_not(lang)])
            self.game.bid(YOU, int(given))
            lines.append(t(lang, "You bid {bid}.", bid=given))
        else:
            try:
                card = Card.parse(given)
            except ValueError as err:
                return self._again([refused(err).text(lang), decision.why_not(lang)])
            if card.code != decision.expected:
                try:
                    probe = self.game.copy()
                    probe.play(YOU, card)
                except IllegalAction as err:
                    return self._again([
                        t(lang, "The {card} is refused. {reason}", card=card,
                          reason=refused(err).text(lang)),
                        t(lang, "When you hold a card of the suit led you must play one (follow "
                                "suit); only when you have none may you play anything, a trump "
                                "included.") + " " + decision.why_not(lang),
                    ])
                return self._again([decision.why_not(lang)])
            outcome = self.game.apply(YOU, Play(card))
            lines.append(t(lang, "You play the {card}.", card=card))
            if outcome.trick is not None:
                lines.append(self._trick_told(outcome.trick.winner, outcome.game_over))
        self.answers.append(decision.expected)
        self._decision += 1
        lines += self._computers()
        if not self.done:
            lines.append(_DECISIONS[self._decision].ask(lang))
        return Step(lines, self.choices(), taken=True, done=self.done)

    def _again(self, lines: list[str]) -> Step:
        return Step([*lines, t(self.lang, "Try again.")], self.choices(), taken=False,
                    done=False)

    def _name(self, seat: int) -> str:
        return tc(self.lang, "lesson", "You") if seat == YOU else OTHERS[seat - 1]

    def _trick_told(self, winner: int, last: bool) -> str:
        lang = self.lang
        if winner == YOU:
            return (t(lang, "You win the last trick.") if last
                    else t(lang, "You win the trick and lead the next one."))
        name = self._name(winner)
        return (t(lang, "{name} wins the last trick.", name=name) if last
                else t(lang, "{name} wins the trick and leads the next one.", name=name))

    def _computers(self) -> list[str]:
        """The scripted players' moves until it is your turn or the hand is over, each said
        with why it matters."""
        told: list[str] = []
        game = self.game
        while game.turn is not None and game.turn != YOU and not game.winners:
            seat = game.turn
            move = self._script[seat].pop(0)
            if move.startswith("b"):
                told += self._bid(seat, int(move[1:]))
            else:
                told += self._play(seat, Card.parse(move))
        if game.winners:
            told += self._scores()
        return told

    def _bid(self, seat: int, bid: int) -> list[str]:
        game, lang = self.game, self.lang
        told = []
        if seat == DEALER:
            forbidden = [n for n in range(game.hand_size + 1) if n not in game.legal_bids(seat)]
            so_far = sum(b for b in game.bids if b is not None)
            told.append(t(
                lang, "Sam is the dealer and bids last. The bids so far add up to {so_far}, and "
                "the hand has {tricks} tricks. The dealer may not bid the number that makes the "
                "bids add up to the tricks (the hook), so that somebody must miss: Sam may not "
                "bid {forbidden}.", so_far=so_far, tricks=game.hand_size,
                forbidden=", ".join(map(str, forbidden))))
        game.bid(seat, bid)
        told.append(t(lang, "{name} bids {bid}.", name=self._name(seat), bid=bid))
        if seat == DEALER:
            total = sum(b for b in game.bids if b is not None)
            told.append(t(lang, "The bids add up to {total}, more than the {tricks} tricks: "
                                "somebody will take fewer than they bid.",
                          total=total, tricks=game.hand_size))
        return told

    def _play(self, seat: int, card: Card) -> list[str]:
        game, lang = self.game, self.lang
        led = game.current_trick[0][1] if game.current_trick else None
        outcome = game.apply(seat, Play(card))
        told = [t(lang, "{name} plays the {card}.", name=self._name(seat), card=card)]
        if led is not None and led.suit is not None and card.suit != led.suit \
                and card.suit == game.trump_suit:
            told.append(t(lang, "{name} has no {suit}, so may play any card, and plays a trump. "
                                "A trump beats every card of the other suits, whatever was led: "
                                "the {card} beats the {led}.", name=self._name(seat),
                          suit=_suit_one(led.suit, lang), card=card, led=led))
        if outcome.trick is not None:
            told.append(self._trick_told(outcome.trick.winner, outcome.game_over))
        return told

    def _scores(self) -> list[str]:
        record, lang = self.game.scoresheet[-1], self.lang
        lines = [t(lang, "The hand is over. Scoring (Vanikar: an exact bid scores 10 + the bid, "
                         "a missed one nothing):")]
        for seat in range(3):
            bid, took, points = record.bids[seat], record.tricks[seat], record.points[seat]
            how = (t(lang, "exactly the bid: 10 + {bid} = {points}", bid=bid, points=points)
                   if bid == took else t(lang, "missed: {points}", points=points))
            lines.append("  " + t(lang, "{name} bid {bid}, took {took}: {how}.",
                                  name=self._name(seat), bid=bid, took=took, how=how))
        lines += [
            t(lang, "You took exactly 2 tricks, so you score 12. That is the whole game: every "
                    "hand is dealt, bid and played like this one, with the hand size changing "
                    "from hand to hand."),
            t(lang, "Start a real table: in Discord, /ohhell start in a channel (friends press "
                    "Join, or Add bot for computer players, then Deal); in a terminal, python -m "
                    "bot play."),
        ]
        return lines


def learn_in_terminal(
    ask: Callable[[str], str] = input, write: Callable[[str], None] = print
) -> int:
    """`python -m bot learn`: the lesson at the keyboard. Returns the exit status."""
    lesson = Lesson()
    step = lesson.start()
    for line in step.lines:
        write(line)
    while not step.done:
        try:
            text = ask(f"({' / '.join(_label(c) for c in step.choices)}) > ")
        except EOFError:
            write("")
            write("Lesson stopped. Run python -m bot learn to start it again.")
            return 0
        step = lesson.answer(text)
        for line in step.lines:
            write(line)
    return 0


def _label(choice: str) -> str:
    """A choice as a player reads it: bids as they are, cards with their suit symbol."""
    return choice if choice.isdigit() else str(Card.parse(choice))


__all__ = ["Lesson", "Step", "learn_in_terminal", "lesson_rules"]
