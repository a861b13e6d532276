"""Cards: what players type is understood, and cards behave as values."""

import copy
import pickle

import pytest

from engine import STANDARD_DECK, Card, Suit, sort_hand


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", 14, Suit.SPADES),
        ("10h", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("Q♦", 12, Suit.DIAMONDS),
        ("2c", 2, Suit.CLUBS),
        (" j of spades ", 11, Suit.SPADES),
        ("10♥", 10, Suit.HEARTS),
    ],
)
def test_parse_accepts_what_players_type(text: str, rank: int, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1H", "11S", "ZZ", "10", "H10", "AX"])
def test_parse_refuses_nonsense_with_a_hint(text: str) -> None:
    with pytest.raises(ValueError, match="rank then the suit|not a suit"):
        Card.parse(text)


def test_str_uses_symbols() -> None:
    assert str(Card.parse("10H")) == "10♥"
    assert str(Card.parse("qs")) == "Q♠"
    assert Card.parse("ad").name == "Ace of diamonds"


def test_cards_are_values() -> None:
    card = Card.parse("10h")
    assert card == Card(10, Suit.HEARTS) == Card.parse("TH")
    assert hash(card) == hash(Card.parse("10♥"))
    assert len({Card.parse("AS"), Card(14, Suit.SPADES)}) == 1
    assert copy.deepcopy(card) == card
    assert pickle.loads(pickle.dumps(card)) == card
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]


def test_pack_and_sorting() -> None:
    assert len(set(STANDARD_DECK)) == 52
    hand = [Card.parse(code) for code in ["2S", "AH", "KS", "3C", "10H"]]
    assert [c.code for c in sort_hand(hand)] == ["3C", "AH", "10H", "KS", "2S"]
