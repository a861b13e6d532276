"""Build a pack that deals chosen hands, so worked examples can be played exactly."""

from engine import STANDARD_DECK, Card


def pack_dealing(hands: dict[int, list[str]], dealer: int, turned: str | None) -> list[Card]:
    """The whole pack, top first, that deals `hands` (seat -> cards) from the dealer's left and
    then turns `turned`."""
    players = len(hands)
    size = len(hands[0])
    top: list[Card] = []
    for round_number in range(size):
        for offset in range(players):
            seat = (dealer + 1 + offset) % players
            top.append(Card.parse(hands[seat][round_number]))
    if turned is not None:
        top.append(Card.parse(turned))
    rest = [card for card in STANDARD_DECK if card not in top]
    return top + rest
