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

from engine import STANDARD_DECK, Card, Game, IllegalAction, Play, Rules

YOU, MIA, SAM = 0, 1, 2
NAMES = ("You", "Mia", "Sam")
DEALER = SAM
_DEALT = ("JS", "10H", "6S", "AH", "2D", "4D", "6D", "3C", "5C")
"""One card at a time from the dealer's left: you, Mia, Sam, you, Mia, Sam..."""
_TURNED = "9S"
_SCRIPT: dict[int, list[str]] = {MIA: ["b1", "10H", "2D", "3C"], SAM: ["b1", "6S", "4D", "5C"]}
"""The computers' moves in order (b: a bid)."""


@dataclass(frozen=True)
class Decision:
    """What the lesson waits for: the answer it asks for, and why."""

    kind: str  # "bid" or "card"
    expected: str
    ask: str
    why_not: str


_DECISIONS = (
    Decision(
        "bid", "2",
        "Your bid: how many tricks will you take? You hold J♠ A♥ 6♦ and spades are trump. The "
        "J♠ is a high trump and the A♥ the highest heart: count on those two. Bid 2.",
        "In this lesson bid 2: the J♠ (a high trump) and the A♥ (the top heart) should each "
        "take a trick, and the 6♦ probably not.",
    ),
    Decision(
        "card", "AH",
        "Bidding is over and you sit left of the dealer, so you lead the first trick. Lead the "
        "A♥: nobody holds a higher heart, so only a trump can beat it.",
        "In this lesson lead the A♥, to see what a trump does to it.",
    ),
    Decision(
        "card", "6D",
        "A diamond was led. Your turn: which card?",
        "Play the 6♦: following suit comes first.",
    ),
    Decision(
        "card", "JS",
        "You lead the last trick with the J♠, your last card.",
        "The J♠ is the only card you have left.",
    ),
)


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
    """One run of the guided hand. `start()` opens it; `answer(text)` takes a bid or a card."""

    def __init__(self) -> None:
        self.game = Game.new(players=3, rules=lesson_rules(), seed=3, dealer=DEALER,
                             deck=_deck())
        self.answers: list[str] = []
        self._script = {seat: list(moves) for seat, moves in _SCRIPT.items()}
        self._decision = 0

    @classmethod
    def replayed(cls, answers: Sequence[str]) -> Lesson:
        """The lesson after these accepted answers (as `answers` lists them)."""
        lesson = cls()
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
        lines = [
            "Oh Hell, a first hand. Three players: you, Mia and Sam. Sam deals 3 cards each and "
            "turns the next card up: the 9♠. Spades are trump for this hand: any spade beats "
            "every card of another suit.",
            "You hold J♠ A♥ 6♦. Everyone bids how many tricks they will take; you score only "
            "for taking exactly your bid (these are the Vanikar rules: 10 + your bid when you "
            "make it, nothing when you miss).",
            "The player left of the dealer bids first: that is you.",
            _DECISIONS[0].ask,
        ]
        return Step(lines, self.choices(), taken=True, done=False)

    def answer(self, text: str) -> Step:
        """Take your answer: explained and asked again when it is not the lesson's, else
        played, followed by the computers' moves up to your next decision."""
        if self.done:
            return Step(["The lesson is over."], [], taken=False, done=True)
        decision = _DECISIONS[self._decision]
        given = text.strip()
        lines: list[str] = []
        if decision.kind == "bid":
            if given != decision.expected:
                legal = [str(n) for n in self.game.legal_bids(YOU)]
                if given not in legal:
                    lines.append(f"{given!r} is not a bid here: bid 0 to {self.game.hand_size}.")
                return self._again([*lines, decision.why_not])
            self.game.bid(YOU, int(given))
            lines.append("You bid 2.")
        else:
            try:
                card = Card.parse(given)
            except ValueError as err:
                return self._again([str(err), decision.why_not])
            if card.code != decision.expected:
                try:
                    probe = self.game.copy()
                    probe.play(YOU, card)
                except IllegalAction as err:
                    return self._again([
                        f"The {card} is refused. {err}",
                        "When you hold a card of the suit led you must play one (follow suit); "
                        "only when you have none may you play anything, a trump included. "
                        + decision.why_not,
                    ])
                return self._again([decision.why_not])
            outcome = self.game.apply(YOU, Play(card))
            lines.append(f"You play the {card}.")
            if outcome.trick is not None:
                lines.append(_trick_told(outcome.trick.winner, outcome.game_over))
        self.answers.append(decision.expected)
        self._decision += 1
        lines += self._computers()
        if not self.done:
            lines.append(_DECISIONS[self._decision].ask)
        return Step(lines, self.choices(), taken=True, done=self.done)

    def _again(self, lines: list[str]) -> Step:
        return Step([*lines, "Try again."], self.choices(), taken=False, done=False)

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
        game = self.game
        told = []
        if seat == DEALER:
            forbidden = [n for n in range(game.hand_size + 1) if n not in game.legal_bids(seat)]
            so_far = sum(b for b in game.bids if b is not None)
            told.append(
                f"Sam is the dealer and bids last. The bids so far add up to {so_far}, and the "
                f"hand has {game.hand_size} tricks. The dealer may not bid the number that makes "
                f"the bids add up to the tricks (the hook), so that somebody must miss: Sam may "
                f"not bid {', '.join(map(str, forbidden))}."
            )
        game.bid(seat, bid)
        told.append(f"{NAMES[seat]} bids {bid}.")
        if seat == DEALER:
            total = sum(b for b in game.bids if b is not None)
            told.append(f"The bids add up to {total}, more than the {game.hand_size} tricks: "
                        "somebody will take fewer than they bid.")
        return told

    def _play(self, seat: int, card: Card) -> list[str]:
        game = self.game
        led = game.current_trick[0][1] if game.current_trick else None
        outcome = game.apply(seat, Play(card))
        told = [f"{NAMES[seat]} plays the {card}."]
        if led is not None and led.suit is not None and card.suit != led.suit \
                and card.suit == game.trump_suit:
            told.append(f"{NAMES[seat]} has no {led.suit.label.rstrip('s')}, so may play any "
                        "card, and plays a trump. A trump beats every card of the other suits, "
                        f"whatever was led: the {card} beats the {led}.")
        if outcome.trick is not None:
            told.append(_trick_told(outcome.trick.winner, outcome.game_over))
        return told

    def _scores(self) -> list[str]:
        record = self.game.scoresheet[-1]
        lines = ["The hand is over. Scoring (Vanikar: an exact bid scores 10 + the bid, a missed "
                 "one nothing):"]
        for seat in range(3):
            bid, took, points = record.bids[seat], record.tricks[seat], record.points[seat]
            how = (f"exactly the bid: 10 + {bid} = {points}" if bid == took
                   else f"missed: {points}")
            lines.append(f"  {NAMES[seat]} bid {bid}, took {took}: {how}.")
        lines += [
            "You took exactly 2 tricks, so you score 12. That is the whole game: every hand is "
            "dealt, bid and played like this one, with the hand size changing from hand to hand.",
            "Start a real table: in Discord, /ohhell start in a channel (friends press Join, or "
            "Add bot for computer players, then Deal); in a terminal, python -m bot play.",
        ]
        return lines


def _trick_told(winner: int, last: bool) -> str:
    who = "You win" if winner == YOU else f"{NAMES[winner]} wins"
    if last:
        return f"{who} the last trick."
    return f"{who} the trick and lead{'s' if winner != YOU else ''} the next one."


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
