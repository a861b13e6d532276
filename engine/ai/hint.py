"""A hint for the decision in front of a person: the hard player's move, with its reason in numbers.

Everything comes from the asking seat's PlayerView, through the same search the hard player
runs, so a hint can tell nothing the view does not (tests/ai/test_hint.py swaps the hidden cards
and gets the same hint). For a bid it gives the chance of making the suggested bid and of the
next best; for a card, in how many of ten sampled deals the bid is still made after it, and the
same for the strongest other card; for a trump suit, the tricks the hand is worth with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.bits import mask_of
from engine.ai.hard import DEFAULT_THINK_TIME, HardPlayer
from engine.ai.policy import TrickEstimator
from engine.cards import STANDARD_DECK, Card, Suit
from engine.moves import Bid, DeclarationWord, Discard, Move, NameTrump, Play
from engine.phrase import Phrase
from engine.view import PlayerView

HINT_THINK_TIME = DEFAULT_THINK_TIME
"""A hint's CPU budget (seconds) when the asker gives none: the hard player's own, so a hint is
the move the computer would make (issue 24: at hard's 0.5 s a hint took 0.3-0.5 s, and hints
had a 35 ms budget of their own)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move and why, for the person whose view it was computed from."""

    move: Move
    phrase: Phrase
    """One line, as a phrase a front end says in the reader's language (engine/phrase.py):
    "Bid 2: you make it about 64% of the time; bid 1: 51%"."""
    chances: tuple[tuple[str, float], ...] = ()
    """The figures behind the text: (the option, its chance of making the bid), best first."""

    @property
    def text(self) -> str:
        """The line in English."""
        return str(self.phrase)


def suggest(
    view: PlayerView,
    seed: int = 0,
    think_time: float | None = None,
    iterations: int | None = None,
) -> Hint:
    """The hard player's suggestion for `view`'s pending decision, with its reason.

    `think_time` (seconds) and `iterations` (sampled deals) bound the search as they bound the
    hard player's; with `iterations` alone the hint is the same every time for the same view.
    Raises ValueError when the view's seat has nothing to decide. With neither bound, the
    search gets HINT_THINK_TIME seconds of CPU.
    """
    if think_time is None and iterations is None:
        think_time = HINT_THINK_TIME
    awaited = view.phase.awaits
    if view.rules.special_cards != "none" and (
        (awaited is Bid and view.legal_bids) or (awaited is Play and view.legal_cards)
    ):
        return _special_hint(view, seed, think_time, iterations)
    if awaited is Bid and view.legal_bids:
        return _bid_hint(view, seed, think_time, iterations)
    if awaited is Play and view.legal_cards:
        return _card_hint(view, seed, think_time, iterations)
    if awaited is NameTrump and view.legal_trumps:
        return _trump_hint(view, seed)
    if awaited is Discard and view.discards_needed > 0:
        cards = HardPlayer(seed).choose_discards(view)
        return Hint(Discard(tuple(cards)), Phrase(
            "Discard {cards}: the cards whose tricks are least certain, keeping your sure "
            "winners and sure losers.", cards=tuple(cards)))
    raise ValueError("There is nothing for you to decide right now.")


def _bid_hint(view: PlayerView, seed: int, think_time: float | None,
              iterations: int | None) -> Hint:
    player = HardPlayer(seed, think_time=think_time, iterations=iterations)
    bid = player.choose_bid(view)
    if len(view.legal_bids) == 1:
        return Hint(Bid(bid), Phrase("Bid {bid}: it is the only bid you may make.", bid=bid))
    makes = player.last_make
    values = player.last_values
    others = sorted(
        (b for b in makes if b != bid),
        key=lambda b: (-values.get(str(b), float("-inf")), abs(b - bid)),
    )
    chances = [(str(bid), makes.get(bid, 0.0))]
    if not others:
        return Hint(Bid(bid), Phrase("Bid {bid}: you make it about {percent}% of the time.",
                                     bid=bid, percent=_percent(makes.get(bid, 0.0))),
                    tuple(chances))
    runner = others[0]
    chances.append((str(runner), makes[runner]))
    return Hint(Bid(bid), Phrase(
        "Bid {bid}: you make it about {percent}% of the time; bid {runner}: {runner_percent}%.",
        bid=bid, percent=_percent(makes.get(bid, 0.0)), runner=runner,
        runner_percent=_percent(makes[runner])), tuple(chances))


def _card_hint(view: PlayerView, seed: int, think_time: float | None,
               iterations: int | None) -> Hint:
    if len(view.legal_cards) == 1:
        card = view.legal_cards[0]
        return Hint(Play(card), Phrase("Play the {card}: it is your only legal card.",
                                       card=card))
    player = HardPlayer(seed, think_time=think_time, iterations=iterations)
    player.explain = True
    card = player.choose_card(view)
    search = player.last_search
    if search is None:
        return Hint(Play(card), Phrase(
            "Play the {card}: your legal cards all do the same here.", card=card))
    chosen = search.candidates.index(card.index)
    runner = max(
        (i for i in range(len(search.candidates)) if i != chosen),
        key=lambda i: search.totals[i] / (search.seen[i] or 1.0),
    )
    chances = [search.makes[i] / (search.seen[i] or 1.0) for i in (chosen, runner)]
    other: Card = STANDARD_DECK[search.candidates[runner]]
    text = Phrase("Play the {card}: keeps your bid alive in {tenths} of 10 deals; the {other}: "
                  "{other_tenths} of 10.", card=card, tenths=_tenths(chances[0]), other=other,
                  other_tenths=_tenths(chances[1]))
    return Hint(Play(card), text, ((card.code, chances[0]), (other.code, chances[1])))


def _special_hint(view: PlayerView, seed: int, think_time: float | None,
                  iterations: int | None) -> Hint:
    """Special-card presets: hard's move, without odds (its search there keeps none yet)."""
    move = HardPlayer(seed, think_time=think_time, iterations=iterations).choose_move(view)
    if isinstance(move, Bid):
        return Hint(move, Phrase("Bid {bid}: the hard computer's choice (it gives no odds with "
                                 "special cards yet).", bid=move.tricks))
    assert isinstance(move, Play)
    if move.declaration is None:
        return Hint(move, Phrase("Play the {card}: the hard computer's choice (it gives no odds "
                                 "with special cards yet).", card=move.card))
    return Hint(move, Phrase(
        "Play the {card} as {declaration}: the hard computer's choice (it gives no odds with "
        "special cards yet).", card=move.card,
        declaration=DeclarationWord(move.declaration, view.trump_suit)))


def _trump_hint(view: PlayerView, seed: int) -> Hint:
    suit = HardPlayer(seed).choose_trump(view)
    hand = mask_of(view.hand)
    worth: dict[Suit, float] = {}
    for option in view.legal_trumps or tuple(Suit):
        estimator = TrickEstimator(view.players, view.hand_size, int(option), 0)
        worth[option] = estimator.estimate(hand)
    runner = max((s for s in worth if s != suit), key=lambda s: worth[s], default=None)
    if runner is None:
        return Hint(NameTrump(suit), Phrase(
            "Name {suit}: your hand is worth about {worth} tricks.", suit=suit.symbol,
            worth=f"{worth.get(suit, 0.0):.1f}"))
    return Hint(NameTrump(suit), Phrase(
        "Name {suit}: your hand is worth about {worth} tricks; with {runner}: {runner_worth}.",
        suit=suit.symbol, worth=f"{worth.get(suit, 0.0):.1f}", runner=runner.symbol,
        runner_worth=f"{worth[runner]:.1f}"))


def _percent(chance: float) -> int:
    return round(100 * chance)


def _tenths(chance: float) -> int:
    return round(10 * chance)
