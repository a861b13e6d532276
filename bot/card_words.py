"""Cards in words, in the reader's language: the one place the terminal, the replay and Discord
read a card's name and a suit from (bot/i18n.py holds the words, and says a joker's declaration:
`declaration_words`)."""

from __future__ import annotations

import functools

from bot.i18n import DEFAULT_LANG, Lang, t, tc
from engine import Card, Suit


def suit_name(suit: Suit, lang: Lang = DEFAULT_LANG) -> str:
    """The suit's plural name: kløver, ruter, hjerter, spar."""
    if suit is Suit.CLUBS:
        return tc(lang, "suit", "clubs")
    if suit is Suit.DIAMONDS:
        return tc(lang, "suit", "diamonds")
    if suit is Suit.HEARTS:
        return tc(lang, "suit", "hearts")
    return tc(lang, "suit", "spades")


def rank_word(rank: int, lang: Lang = DEFAULT_LANG) -> str:
    """A rank in words: "Queen" ("dame"); a number rank is its number."""
    if rank == 11:
        return tc(lang, "rank", "Jack")
    if rank == 12:
        return tc(lang, "rank", "Queen")
    if rank == 13:
        return tc(lang, "rank", "King")
    if rank == 14:
        return tc(lang, "rank", "Ace")
    return str(rank)


def card_label(card: Card, lang: Lang = DEFAULT_LANG) -> str:
    """A card as it is shown beside others: "Q♥", or a special card's name in `lang` (the
    engine's English name is the catalogue's key)."""
    return tc(lang, "card", str(card)) if card.suit is None else str(card)


@functools.cache
def card_name(card: Card, lang: Lang = DEFAULT_LANG) -> str:
    """The card in words, as a player says it: "Queen of hearts", "Hjerter dame". Kept per
    card and language (a card select names up to 25 cards at every turn)."""
    if card.suit is None:
        return card_label(card, lang)
    words = t(lang, "{rank} of {suit}", rank=rank_word(card.rank, lang),
              suit=suit_name(card.suit, lang))
    return words[:1].upper() + words[1:]
