"""Buttons and selects: DynamicItems whose custom_id carries the table and the decision.

Why dynamic: the state lives in the custom_id, not in a View object in memory, so every control
keeps working after a restart (they are registered with `bot.add_dynamic_items`), and a control
from an earlier decision or a finished game reaches the service, which refuses it politely.

Each move control carries the guard of the decision it was drawn for (bot.guard) and builds its
own `Move` in its callback; the cog (`ComponentHandler`, reached through
`interaction.client.get_cog(COG_NAME)`) only takes it to the service, so this module imports no
cog code; the one exception is the final message's Replay button, which cogs.history (the cog that
owns replaying, and imports nothing of cogs) defines.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol, runtime_checkable

import discord

from bot.card_words import card_label, card_name
from bot.errors import TableError
from bot.guard import GUARD_PATTERN, Guard
from bot.i18n import DEFAULT_LANG, Lang, declaration_words, lang_for, t, tc, tn
from bot.moves import refused
from cogs.history import ReplayTableButton
from engine import (
    Bid,
    Card,
    Declaration,
    Discard,
    Move,
    NameTrump,
    Play,
    Suit,
    move_from_code,
    sort_hand,
)

COG_NAME = "OhHell"
PREFIX = "ohhell:"
TABLE_ID = r"(?P<table>\d{1,18})"
"""A table id in a custom_id: at most 18 digits, so any id read back fits the database's 64-bit
integers (docs/discord.md: a custom_id can be forged); a longer one matches no control and is
answered as out of date."""
LOBBY_ACTIONS: tuple[tuple[str, discord.ButtonStyle], ...] = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("addbot", discord.ButtonStyle.secondary),
    ("deal", discord.ButtonStyle.primary),
    ("cancel", discord.ButtonStyle.danger),
)


@runtime_checkable
class ComponentHandler(Protocol):
    """What the cog does when a control is used (see cogs.ohhell)."""

    async def on_lobby(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        ...

    async def on_my_hand(self, interaction: discord.Interaction, table_id: int) -> None:
        ...

    async def on_move(self, interaction: discord.Interaction, table_id: int, guard: Guard,
                      move: Callable[[], Move]) -> None:
        """`move` builds the move (TableError when the pick is not one), so a bad pick is
        answered like any refusal."""
        ...

    async def on_rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        ...


async def _handle(item: discord.ui.Item[Any], interaction: discord.Interaction,
                  call: Callable[[ComponentHandler], Coroutine[Any, Any, None]]) -> None:
    try:
        cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if not isinstance(cog, ComponentHandler):  # being reloaded: never "interaction failed"
            await interaction.response.send_message(
                t(lang_for(interaction.locale),
                  "The card table is restarting; try again in a moment."), ephemeral=True)
            return
        await call(cog)
    finally:
        release(interaction, item)


def _cards(values: Sequence[str]) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(value) for value in values)
    except ValueError as err:
        raise refused(err) from None


def _card_options(cards: Sequence[Card], lang: Lang) -> list[discord.SelectOption]:
    """One option per card (value: its code, like 10H) named in the reader's words; a lone "-"
    when there is none, because Discord refuses a select without options."""
    return [_card_option(c, lang) for c in cards] or [discord.SelectOption(label="-", value="-")]


@functools.cache
def _card_option(card: Card, lang: Lang) -> discord.SelectOption:
    """A card's option, made once per card and language (a few hundred at most): discord.py
    only reads an option, when it sends the select."""
    return discord.SelectOption(label=card_label(card, lang), value=card.code,
                                description=card_name(card, lang))


def release(interaction: discord.Interaction, item: discord.ui.Item[Any] | None = None) -> None:
    """Break the reference cycles discord.py leaves around an answered interaction.

    Why: the interaction and its response point at each other, and the View rebuilt from the
    clicked message and its items do too, so every click left ~40 objects for the cyclic
    garbage collector; with 1,000 tables those pile up in the oldest generation and make the
    full collections that stall the event loop. Without the cycles, reference counting frees
    them the moment the click is handled.

    `Interaction.response` is a cached slot property whose InteractionResponse holds the
    interaction; discord.py 2.7 has no public way to drop it (nor to answer without it), so
    this one line empties the slot it caches in. tests/discord/test_memory.py fails the day
    that stops working.
    """
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]
    view = item.view if item is not None else None
    if view is not None:
        view.clear_items()


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"ohhell:lobby:{TABLE_ID}:(?P<action>join|leave|addbot|deal|cancel)"):
    """Join, Leave, Add bot, Deal, Cancel under the lobby's table message."""

    def __init__(self, table_id: int, action: str, lang: Lang = DEFAULT_LANG) -> None:
        style = next(st for a, st in LOBBY_ACTIONS if a == action)
        super().__init__(discord.ui.Button(label=lobby_label(action, lang), style=style,
                                           custom_id=f"ohhell:lobby:{table_id}:{action}"))
        self.table_id, self.action = table_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction,
                      lambda cog: cog.on_lobby(interaction, self.table_id, self.action))


class MyHandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"ohhell:hand:{TABLE_ID}"):
    """Shows the clicker their hand (ephemeral, with controls): works with DMs closed."""

    def __init__(self, table_id: int, lang: Lang = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Button(label=t(lang, "My hand"),
                                           style=discord.ButtonStyle.primary,
                                           emoji="🂠", custom_id=f"ohhell:hand:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MyHandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_my_hand(interaction, self.table_id))


class BidButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=rf"ohhell:bid:{TABLE_ID}:(?P<guard>{GUARD_PATTERN}):(?P<n>\d{{1,2}})"):
    """One bid value; the hooked bid is rendered disabled."""

    def __init__(self, table_id: int, guard: Guard, n: int, *, enabled: bool = True,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=str(n), style=discord.ButtonStyle.primary if enabled else
            discord.ButtonStyle.secondary, disabled=not enabled, row=row,
            custom_id=f"ohhell:bid:{table_id}:{guard.code()}:{n}"))
        self.table_id, self.guard, self.n = table_id, guard, n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> BidButton:
        return cls(int(match["table"]), Guard.from_code(match["guard"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_move(
            interaction, self.table_id, self.guard, lambda: Bid(self.n)))


class CardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=rf"ohhell:card:{TABLE_ID}:(?P<guard>{GUARD_PATTERN})"):
    """A select of the cards the player may play now (values are card codes like 10H)."""

    def __init__(self, table_id: int, guard: Guard, cards: Sequence[Card] = (),
                 lang: Lang = DEFAULT_LANG) -> None:
        options = _card_options(cards, lang)
        super().__init__(discord.ui.Select(custom_id=f"ohhell:card:{table_id}:{guard.code()}",
                                           placeholder=t(lang, "Play a card"),
                                           options=options[:25]))
        self.table_id, self.guard = table_id, guard

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CardSelect:
        return cls(int(match["table"]), Guard.from_code(match["guard"]))

    def move(self) -> Move:
        """The card picked, as a Play (TableError when the pick is not a card)."""
        (card,) = _cards(self.item.values[:1] or ["-"])
        return Play(card)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_move(
            interaction, self.table_id, self.guard, self.move))


class DeclareSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=rf"ohhell:declare:{TABLE_ID}:(?P<guard>{GUARD_PATTERN})"):
    """Play a joker with what it is declared ("High Joker: high ♠ (trump)"): one option per
    joker and declaration (values are Play codes like pJKH/Sh)."""

    def __init__(self, table_id: int, guard: Guard,
                 plays: Sequence[tuple[Card, Declaration]] = (),
                 trump: Suit | None = None, lang: Lang = DEFAULT_LANG) -> None:
        options = [discord.SelectOption(
            label=f"{card_label(card, lang)}: {declaration_words(lang, declaration, trump)}"[:100],
            value=Play(card, declaration).code())
            for card, declaration in plays] or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"ohhell:declare:{table_id}:{guard.code()}",
                                           placeholder=t(lang, "Play a joker, saying what it is"),
                                           options=options[:25]))
        self.table_id, self.guard = table_id, guard

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DeclareSelect:
        return cls(int(match["table"]), Guard.from_code(match["guard"]))

    def move(self) -> Move:
        """The joker and declaration picked, as a Play."""
        value = (self.item.values[:1] or ["-"])[0]
        try:
            move = move_from_code(value)
        except ValueError as err:
            raise refused(err) from None
        if not isinstance(move, Play):
            raise TableError("That is not a card to play.")
        return move

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_move(
            interaction, self.table_id, self.guard, self.move))


class DiscardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=rf"ohhell:discard:{TABLE_ID}:(?P<guard>{GUARD_PATTERN})"):
    """Pick the cards to discard face down (variants with discards)."""

    def __init__(self, table_id: int, guard: Guard, cards: Sequence[Card] = (),
                 count: int = 1, lang: Lang = DEFAULT_LANG) -> None:
        options = _card_options(cards, lang)
        count = max(1, min(count, len(options)))
        super().__init__(discord.ui.Select(
            custom_id=f"ohhell:discard:{table_id}:{guard.code()}", options=options[:25],
            placeholder=tn(lang, "Discard {n} card", "Discard {n} cards", count),
            min_values=count, max_values=count))
        self.table_id, self.guard = table_id, guard

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DiscardSelect:
        return cls(int(match["table"]), Guard.from_code(match["guard"]))

    def move(self) -> Move:
        """The cards picked, as a Discard."""
        return Discard(_cards(self.item.values))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_move(
            interaction, self.table_id, self.guard, self.move))


def trump_label(suit: Suit, lang: Lang = DEFAULT_LANG) -> str:
    """ "♠ Spades": the symbol, and the word for whoever cannot tell the symbols apart (the
    suit's name is the one cogs.render.lines.suit_name puts in the catalogue)."""
    name = tc(lang, "suit", suit.label)
    return f"{suit.symbol} {name.capitalize()}"


def lobby_label(action: str, lang: Lang = DEFAULT_LANG) -> str:
    """A lobby button's label; the lobby's text names Join and Deal in the same words."""
    labels = {"join": t(lang, "Join"), "leave": t(lang, "Leave"), "addbot": t(lang, "Add bot"),
              "deal": t(lang, "Deal"), "cancel": t(lang, "Cancel")}
    return labels[action]


class TrumpButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"ohhell:trump:{TABLE_ID}:(?P<guard>{GUARD_PATTERN}):(?P<suit>[CDHS])"):
    """The dealer names trump (dealer_picks): one button per suit allowed."""

    def __init__(self, table_id: int, guard: Guard, suit: Suit,
                 lang: Lang = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Button(
            label=trump_label(suit, lang), style=discord.ButtonStyle.primary,
            custom_id=f"ohhell:trump:{table_id}:{guard.code()}:{suit.letter}"))
        self.table_id, self.guard, self.suit = table_id, guard, suit

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TrumpButton:
        return cls(int(match["table"]), Guard.from_code(match["guard"]),
                   Suit.parse(match["suit"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_move(
            interaction, self.table_id, self.guard, lambda: NameTrump(self.suit)))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"ohhell:rematch:{TABLE_ID}"):
    """Under a finished game: the host opens a new table with the same rules and players."""

    def __init__(self, table_id: int, lang: Lang = DEFAULT_LANG) -> None:
        super().__init__(discord.ui.Button(label=t(lang, "Rematch"),
                                           style=discord.ButtonStyle.success,
                                           emoji="🔁", custom_id=f"ohhell:rematch:{table_id}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(self, interaction, lambda cog: cog.on_rematch(interaction, self.table_id))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, MyHandButton, BidButton, CardSelect, DeclareSelect, DiscardSelect, TrumpButton,
    RematchButton)
"""Register these with `bot.add_dynamic_items(*DYNAMIC_ITEMS)`."""


def is_ours(custom_id: str) -> bool:
    """True for a custom_id this bot made, whether or not a template still matches it."""
    return custom_id.startswith(PREFIX)


def matches_any(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id)
               for item in DYNAMIC_ITEMS)


TableControls = Callable[[int, Lang], discord.ui.View]
"""The table message's controls of a table, in a language (lobby, game, rematch)."""


def lobby_controls(table_id: int, lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, _ in LOBBY_ACTIONS:
        view.add_item(LobbyButton(table_id, action, lang))
    return view


def rematch_controls(table_id: int, lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    """Under a finished game: Rematch, and Replay (cogs.history owns replaying)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table_id, lang))
    view.add_item(ReplayTableButton(table_id, lang))
    return view


def table_controls(table_id: int, lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(MyHandButton(table_id, lang))
    return view


def bid_controls(table_id: int, guard: Guard, hand_size: int,
                 legal: Sequence[int]) -> discord.ui.View:
    """Bids 0..hand_size, five a row (18 buttons at most for 17 cards: 4 rows)."""
    view = discord.ui.View(timeout=None)
    allowed = set(legal)
    for n in range(min(hand_size, 24) + 1):
        view.add_item(BidButton(table_id, guard, n, enabled=n in allowed, row=n // 5))
    return view


def play_controls(table_id: int, guard: Guard, legal: Sequence[Card],
                  declarations: Sequence[tuple[Card, Sequence[Declaration]]] = (),
                  trump: Suit | None = None, lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    """The card select; a joker that is declared as it is played goes in a second select, one
    option per declaration, so a pick is always a whole move."""
    view = discord.ui.View(timeout=None)
    declared = {card for card, options in declarations if options}
    plain = [card for card in sort_hand(list(legal)) if card not in declared]
    if plain or not declared:
        view.add_item(CardSelect(table_id, guard, plain, lang))
    if declared:
        plays = [(card, option) for card, options in declarations for option in options]
        view.add_item(DeclareSelect(table_id, guard, plays, trump, lang))
    return view


def trump_controls(table_id: int, guard: Guard, suits: Sequence[Suit],
                   lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for suit in suits:
        view.add_item(TrumpButton(table_id, guard, suit, lang))
    return view


def discard_controls(table_id: int, guard: Guard, cards: Sequence[Card],
                     count: int, lang: Lang = DEFAULT_LANG) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DiscardSelect(table_id, guard, sort_hand(list(cards)), count, lang))
    return view
