"""What players read: the table message, private hands, scoresheets, rules, leaderboards.

Pure functions of the service's read model (TableView, PlayerView) to discord payloads, so one
place decides what is public. The table message shows only public facts (docs/rules.md section 5);
a card appears in it only once played, and the last trick only while its hand is in play.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.errors import TableError
from bot.events import GameOver, RatingChange
from bot.guard import Guard
from bot.models import SeatView, TableStatus, TableView
from bot.options import rules_for
from bot.records import GuildSettings, PlayerStats
from cogs import views
from engine import (
    Bid,
    Card,
    Declaration,
    Discard,
    Move,
    NameTrump,
    Phase,
    Play,
    PlayerView,
    Rules,
    Suit,
    sort_hand,
)

GREEN, BLUE, GREY, GOLD = 0x2E7D32, 0x1565C0, 0x607D8B, 0xF9A825
ACTION_WORDS: dict[type[Move] | None, str] = {
    Bid: "to bid", Play: "to play", NameTrump: "to name trump", Discard: "to discard"}


@dataclass
class Render:
    """One message body: pass `kwargs()` to send, edit or an interaction response."""

    embed: discord.Embed
    view: discord.ui.View | None = None
    content: str | None = None
    controls: bool = False  # it carries controls for a move (bid, card, trump, discard)
    files: tuple[tuple[str, bytes], ...] = ()
    """Attachments (name, bytes): the end-of-game chart."""

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "embed": self.embed, "view": self.view}
        if self.files:
            out["attachments"] = self.discord_files()
        return out

    def discord_files(self) -> list[discord.File]:
        """Fresh File objects (discord.py consumes and closes them at each send)."""
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]

    def done(self) -> None:
        """Sent: drop the view's item cycles so reference counting frees it (see views.release)."""
        if self.view is not None:
            self.view.clear_items()

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embed": self.embed}
        if self.content:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.discord_files()
        return out


@dataclass
class TableExtras:
    """What the table message shows beyond the view: recent happenings and the result."""

    notes: list[str] = field(default_factory=list)
    game_over: GameOver | None = None
    dm_closed: set[int] = field(default_factory=set)  # user ids whose DMs failed
    chart: bytes | None = None
    """The end-of-game chart (PNG), once drawn."""
    invited: tuple[int, ...] = ()
    """People asked to a rematch (the lobby mentions those not seated yet)."""


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone (R: "in 2 minutes")."""
    return f"<t:{int(when.timestamp())}:{style}>"


def trump_text(card: Card | None, suit: Suit | None, super_trump: Card | None = None,
               *, later: bool = False) -> str:
    """The trump as the table shows it; a Wizard turned shows the suit the dealer named, and a
    Super Trump (super_screw) is named beside it. `later`: the card is turned after the bids."""
    if later and card is None:
        return "turned after the bids"
    if card is not None and suit is not None and card.suit == suit:
        text = f"{card} ({suit.label})"
    elif suit is not None:
        named = " named by the dealer" if card is not None and card.kind == "wizard" else ""
        text = f"{suit.symbol} {suit.label}" + (f" (turned {card}{named})" if card else "")
    elif card is not None and card.kind == "wizard":
        text = "turned a Wizard: the dealer names trump"
    else:
        text = f"no trump (turned {card})" if card is not None else "no trump"
    if super_trump is not None:
        text += f" · Super Trump {super_trump}"
    return text


def played_text(card: Card, declarations: Sequence[tuple[Card, Declaration]] = (),
                trump: Suit | None = None) -> str:
    """A played card, with what a joker was declared ("High Joker (low ♦)")."""
    for declared, declaration in declarations:
        if declared is card:
            return f"{card} ({declaration.text(trump)})"
    return str(card)


def seat_label(seat: SeatView) -> str:
    """Plain name (field names cannot hold mentions)."""
    return f"🤖 {seat.name}" if seat.is_computer else seat.name


def seat_mention(seat: SeatView) -> str:
    """A mention for people (it renders as their name and never pings inside an embed)."""
    return f"🤖 {seat.name}" if seat.is_computer else f"<@{seat.user_id}>"


def cards_text(cards: Sequence[Card], legal: Sequence[Card] = ()) -> str:
    """A hand sorted by suit then rank, suits apart; legal cards in bold when given."""
    marked = set(legal)
    groups: dict[Suit | None, list[str]] = {}  # special cards (no suit) last
    for c in sort_hand(list(cards)):
        groups.setdefault(c.suit, []).append(f"**{c}**" if c in marked else str(c))
    return "   ".join(" ".join(g) for g in groups.values()) or "(no cards)"


def trick_text(trick: Sequence[tuple[int, Card]], seats: Sequence[SeatView],
               declarations: Sequence[tuple[Card, Declaration]] = (),
               trump: Suit | None = None) -> str:
    return " · ".join(f"{seat_label(seats[s])} {played_text(c, declarations, trump)}"
                      for s, c in trick)


def hand_title(view: TableView) -> str:
    st = view.state
    if st is None:
        return ""
    of = f" of {st.hand_count}" if st.hand_count else ""
    return f"hand {st.hand_number}{of}"


def _options_text(view: TableView) -> str:
    o = view.options
    parts = [f"preset {o.preset}"]
    if o.max_cards:
        parts.append(f"at most {o.max_cards} cards")
    if o.scoring:
        parts.append(f"scoring {o.scoring}")
    if o.hook is not None:
        parts.append("hook on" if o.hook else "hook off")
    if o.turn_timeout == 0:
        parts.append("no turn timer")
    elif o.turn_timeout:
        parts.append(f"{o.turn_timeout} s a turn")
    return " · ".join(parts)


def game_title(view: TableView) -> str:
    """The game's name, e.g. "Classic Oh Hell" or "Oh Hell · Ouch (discard two)"."""
    return _title(view)


def _title(view: TableView) -> str:
    rules = view.rules
    name = rules.title if rules is not None else _preset_title(view.options.preset)
    return name if "oh" in name.lower() else f"Oh Hell · {name}"


def _preset_title(name: str) -> str:
    try:
        return Rules.preset(name).title
    except ValueError:
        return name


def table_message(view: TableView, extras: TableExtras) -> Render:
    """The one table message: lobby, game in play, or the final result."""
    if view.status is TableStatus.LOBBY:
        return _lobby(view, extras)
    if view.status is TableStatus.CANCELLED:
        return _closed(view, extras)
    if view.status is TableStatus.FINISHED or extras.game_over is not None:
        return _finished(view, extras)
    return _playing(view, extras)


def _lobby(view: TableView, extras: TableExtras) -> Render:
    seats = "\n".join(f"{s.seat + 1}. {seat_mention(s)}"
                      + (" (host)" if s.user_id == view.host_id else "") for s in view.seats)
    try:
        rules = Rules.preset(view.options.preset)
        size = f"{rules.min_players}-{rules.max_players} players"
    except ValueError:
        size = "3+ players"
    e = discord.Embed(title=f"{_title(view)} · lobby", colour=BLUE, description=(
        f"Host: <@{view.host_id}> · {size}\n\n{seats}\n\n"
        "Press **Join** to take a seat; the host presses **Deal** to start."))
    e.add_field(name="Options", value=_options_text(view), inline=False)
    plan = _plan(view)
    if plan:
        e.add_field(name="The game", value=plan, inline=False)
    seated = {s.user_id for s in view.seats}
    waiting = [u for u in extras.invited if u not in seated]
    content = None
    if waiting:
        mentions = " ".join(f"<@{u}>" for u in waiting)
        e.add_field(name="Invited to the rematch", value=mentions[:1024], inline=False)
        content = f"Rematch! {mentions}: press **Join** to play again."[:2000]
    _notes(e, extras, view)
    return Render(e, views.lobby_controls(view.table_id), content=content)


def _plan(view: TableView) -> str | None:
    """What dealing now would give ("With 3 players: 3 hands of 2, 1, 2 cards.")."""
    try:
        rules = rules_for(view.options)
        players = len(view.seats)
        if not rules.min_players <= players <= rules.max_players:
            return None
        return next((line for line in rules.describe(players) if line.startswith("With ")),
                    None)
    except (TableError, ValueError):
        return None


def _playing(view: TableView, extras: TableExtras) -> Render:
    st = view.state
    assert st is not None
    seats = view.seats
    dealer = seats[st.dealer]
    trump = trump_now(st.phase, st.trump_card, st.trump_suit, dealer_is_you=False,
                      super_trump=st.super_trump, later=_later(view))
    lines = [f"{deal_text(view, st.hand_number, st.hand_size)} · dealer "
             f"{seat_mention(dealer)} · trump **{trump}**"]
    if st.actor_seats:
        who = ", ".join(seat_mention(seats[s]) for s in st.actor_seats)
        when = f" · time runs out {timestamp(view.deadline)}" if view.deadline else ""
        lines.append(f"▶ {who} {ACTION_WORDS.get(st.phase.awaits, 'to play')}{when}")
        if view.warned and view.deadline:
            lines.append("⏰ Half the time is gone.")
    if st.phase.bidding and st.hook_bid is not None and st.turn == st.dealer:
        lines.append(f"The dealer may not bid **{st.hook_bid}** (the hook).")
    if st.over_under is not None and not st.phase.bidding:
        total, tricks = st.bid_total, st.tricks_in_hand
        ou = st.over_under if total == tricks else f"{st.over_under} by {abs(total - tricks)}"
        lines.append(f"Bids total {total} for {_tricks(tricks)}: **{ou}**.")
    e = discord.Embed(title=f"{_title(view)} · {hand_title(view)}", colour=GREEN,
                      description="\n".join(lines))
    for s in seats:
        bid = st.bids[s.seat]
        mark = " ▶" if s.seat in st.actor_seats else ""
        tag = " (D)" if s.seat == st.dealer else ""
        value = f"bid **{'-' if bid is None else bid}** · won **{st.tricks_won[s.seat]}**"
        value += f"\n{points(st.scores[s.seat])}"
        if s.autopilot:
            value += " · 🤖 autopilot"
        if s.user_id is not None and (s.dm_failed or s.user_id in extras.dm_closed):
            value += " · 📭 use My hand"
        e.add_field(name=f"{seat_label(s)}{tag}{mark}"[:256], value=value)
    if st.current_trick:
        e.add_field(name=f"Trick {st.trick_number}",
                    value=trick_text(st.current_trick, seats, st.declarations, st.trump_suit),
                    inline=False)
    if st.last_trick and sum(st.tricks_won) > 0:  # only while its hand is in play
        e.add_field(name="Last trick",
                    value=trick_text(st.last_trick, seats, st.declarations, st.trump_suit),
                    inline=False)
    if st.scoresheet:
        rec = st.scoresheet[-1]
        e.add_field(name=f"Hand {rec.hand_number} result", value=record_line(rec, seats),
                    inline=False)
    _notes(e, extras, view)
    return Render(e, views.table_controls(view.table_id))


def _later(view: TableView) -> bool:
    """The trump card is still to be turned after the bids (super_screw, quick)."""
    st = view.state
    return (view.rules is not None and view.rules.bid_before_trump and st is not None
            and st.phase.bidding)


def record_line(rec: Any, seats: Sequence[SeatView]) -> str:
    """One finished hand: bid/tricks, made or missed, points (total) per seat."""
    parts = []
    for s in seats:
        i = s.seat
        ok = "✅" if rec.made[i] else "❌"
        parts.append(f"{seat_label(s)} {rec.bids[i]}/{rec.tricks[i]} {ok} "
                     f"{rec.points[i]:+d} ({rec.totals[i]})")
    return "\n".join(parts)[:1024]


def _finished(view: TableView, extras: TableExtras) -> Render:
    over = extras.game_over
    e = discord.Embed(title=f"{_title(view)} · game over", colour=GOLD)
    if over is not None:
        seats = view.seats
        names = [seat_mention(seats[w]) for w in over.winners]
        e.description = ("🏆 " + " and ".join(names) + (" win!" if len(names) > 1 else " wins!")
                         if names else "The game is over.")
        ratings = {r.user_id: r for r in over.rating_changes}
        lines = []
        for s in over.standings:
            line = f"{s.place}. {seat_mention(seats[s.seat])}: **{s.score}**"
            if s.user_id in ratings:
                line += f" · rating {_rating(ratings[s.user_id])}"
            lines.append(line)
        if over.hints:
            lines.append("Not rated: hints were allowed at this table.")
        e.add_field(name="Final standings", value="\n".join(lines)[:1024], inline=False)
    sheet = scoresheet_text(view, 3000)
    if sheet:
        e.description = f"{e.description or ''}\n\n{sheet}"
    e.set_footer(text="/ohhell leaderboard · /ohhell stats · Rematch: the host opens a new table "
                      "with the same rules and players")
    files: tuple[tuple[str, bytes], ...] = ()
    if extras.chart is not None:
        e.set_image(url=f"attachment://{CHART_FILE}")
        files = ((CHART_FILE, extras.chart),)
    return Render(e, views.rematch_controls(view.table_id), files=files)


CHART_FILE = "scores.png"


def _rating(r: RatingChange) -> str:
    return f"{r.before:.1f} → {r.after:.1f} ({r.delta:+.1f})"


def _closed(view: TableView, extras: TableExtras) -> Render:
    e = discord.Embed(title=f"{_title(view)} · closed", colour=GREY,
                      description="This table was closed; no result was recorded.")
    _notes(e, extras, view)
    return Render(e, None)


def moved_message(view: TableView, jump_url: str) -> Render:
    """What an old table message says once `/ohhell table` posted a new one."""
    e = discord.Embed(title=_title(view), colour=GREY,
                      description=f"This table moved: [jump to the table]({jump_url}).")
    return Render(e, None)


def _notes(e: discord.Embed, extras: TableExtras, view: TableView) -> None:
    if extras.notes:
        text = "\n".join(extras.notes[-3:])
        e.set_footer(text=unmention(text, view)[:2048])


MENTION = re.compile(r"<@!?(\d+)>")


def unmention(text: str, view: TableView) -> str:
    """Mentions as names, for footers and titles, which show `<@123>` as it is: a seat's name,
    "the host", or "a moderator" (someone who may end a table without a seat)."""

    def name(match: re.Match[str]) -> str:
        user_id = int(match.group(1))
        seat = next((s for s in view.seats if s.user_id == user_id), None)
        if seat is not None:
            return seat.name
        return "the host" if user_id == view.host_id else "a moderator"

    return MENTION.sub(name, text)


# ---- private hands ------------------------------------------------------------------------------


def hand_message(view: TableView, pv: PlayerView, *, dm: bool) -> Render:
    """A player's own hand, and what they need to decide without looking at the table message:
    trump, whose turn it is, every bid so far, over or under, the trick in play; the cards they
    may play marked, and controls when it is their turn."""
    tid = view.table_id
    seats = view.seats
    where = f" at <#{view.channel_id}>" if dm else ""
    trump = trump_now(pv.phase, pv.trump_card, pv.trump_suit, pv.dealer == pv.seat,
                      pv.super_trump, pv.rules.bid_before_trump and pv.phase.bidding)
    lines = [f"{deal_text(view, pv.hand_number, pv.hand_size)} · trump **{trump}** · "
             f"dealer {_you_or(seats, pv.dealer, pv.seat)}{where}"]
    if not pv.to_act and pv.actor_seats:
        who = ", ".join(_you_or(seats, s, pv.seat) for s in pv.actor_seats)
        lines.append(f"▶ {who} {ACTION_WORDS.get(pv.phase.awaits, 'to play')}")
    if any(pv.has_bid):
        lines.append("Bids: " + " · ".join(
            f"{_you_or(seats, s, pv.seat)} "
            + ("–" if not pv.has_bid[s] else "?" if b is None else f"**{b}**")
            for s, b in enumerate(pv.bids)))
    if pv.over_under is not None:
        total = sum(b or 0 for b in pv.bids)
        tricks = pv.tricks_in_hand
        ou = pv.over_under if total == tricks else f"{pv.over_under} by {abs(total - tricks)}"
        lines.append(f"Bids total {total} for {_tricks(tricks)}: **{ou}**.")
    bid = pv.bids[pv.seat]
    if bid is not None and pv.phase is Phase.PLAYING:
        lines.append(f"You bid **{bid}** and have won **{pv.tricks_won[pv.seat]}**.")
    elif bid is None and pv.scoresheet and pv.phase.bidding:  # how the last hand went
        rec = pv.scoresheet[-1]
        made = "made it" if rec.made[pv.seat] else "missed"
        lines.append(f"Hand {rec.hand_number}: you bid {rec.bids[pv.seat]} and took "
                     f"{rec.tricks[pv.seat]}, {made}: {rec.points[pv.seat]:+d} "
                     f"(total {rec.totals[pv.seat]}).")
    if pv.phase is Phase.PLAYING and (pv.current_trick or not pv.to_act):
        trick = (trick_text(pv.current_trick, seats, pv.declarations, pv.trump_suit)
                 or "nothing led yet")
        lines.append(f"Trick {pv.trick_number}: {trick}")
    legal = pv.legal_cards if pv.to_act and pv.phase is Phase.PLAYING else ()
    if pv.blind and not pv.hand:
        lines.append("This is a blind hand: you bid before you see your cards.")
    else:
        lines.append(f"\n{cards_text(pv.hand, legal)}")
    if pv.discarded:
        lines.append(f"Discarded: {cards_text(pv.discarded)}")
    held_kinds = {card.kind for card in pv.hand}
    for card, worth in pv.card_values:  # what the special cards in this hand are worth
        if card.kind in held_kinds and (card.special or card in pv.hand):
            lines.append(f"{card}: {worth}.")
    control: discord.ui.View | None = None
    if pv.to_act:
        deadline = f" · time runs out {timestamp(view.deadline)}" if view.deadline else ""
        guard = Guard.of(pv)
        if pv.phase.bidding:
            hook = (f" (not {pv.hook_bid}: the hook)"
                    if pv.hook_bid is not None and pv.hook_bid not in pv.legal_bids else "")
            lines.append(f"\n**Your turn to bid**{hook}{deadline}")
            control = views.bid_controls(tid, guard, pv.hand_size, pv.legal_bids)
        elif pv.phase is Phase.PLAYING:
            lead = "" if pv.current_trick else "\nYou lead."
            lines.append(f"\n**Your turn to play**{deadline}{lead}")
            control = views.play_controls(tid, guard, pv.legal_cards, pv.legal_declarations,
                                          pv.trump_suit)
        elif pv.phase is Phase.TRUMP_CHOICE:
            lines.append(f"\n**Name trump**{deadline}")
            control = views.trump_controls(tid, guard, pv.legal_trumps)
        elif pv.phase is Phase.DISCARD:
            lines.append(f"\n**Discard {pv.discards_needed}** face down{deadline}")
            control = views.discard_controls(tid, guard, pv.hand, pv.discards_needed)
    of = f" of {pv.hand_count}" if pv.hand_count else ""
    e = discord.Embed(title=f"Your hand · hand {pv.hand_number}{of}",
                      colour=GOLD if pv.to_act else BLUE, description="\n".join(lines))
    return Render(e, control, controls=control is not None)


def _you_or(seats: Sequence[SeatView], seat: int, you: int) -> str:
    return "you" if seat == you else seat_label(seats[seat])


def trump_now(phase: Phase, card: Card | None, suit: Suit | None, dealer_is_you: bool,
              super_trump: Card | None = None, later: bool = False) -> str:
    """Trump as it stands: while the dealer names it, say so (it is not "no trump" yet); with
    the Super Trump beside it, or that it is turned after the bids (`later`)."""
    if phase is Phase.TRUMP_CHOICE:
        return "you name it" if dealer_is_you else "the dealer is choosing trump"
    return trump_text(card, suit, super_trump, later=later)


def deal_text(view: TableView, hand_number: int, hand_size: int) -> str:
    """How many cards this hand, and how many tricks when that differs: "**12 cards dealt**, 2
    discarded: **10 tricks**" (Ouch), "**4 cards** (3 dealt + 1 extra card): **4 tricks**"."""
    rules, players = view.rules, len(view.seats)
    if rules is None:
        return f"**{_cards(hand_size)}**"
    discards = rules.discards_for(players)
    if discards:
        return (f"**{_cards(hand_size)} dealt**, {discards} discarded: "
                f"**{_tricks(hand_size - discards)}**")
    plan = rules.plan(players)
    planned = plan[hand_number - 1] if hand_number <= len(plan) else hand_size
    if rules.extra_card and hand_size == planned + 1:
        return f"**{_cards(hand_size)}** ({planned} dealt + 1 extra card): **{_tricks(hand_size)}**"
    return f"**{_cards(hand_size)}**"


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _tricks(n: int) -> str:
    return "1 trick" if n == 1 else f"{n} tricks"


def hand_over_message(view: TableView, seat: int, hand_number: int, *,
                      over: GameOver | None = None, departed: str | None = None) -> Render:
    """A DM whose hand is finished, no cards and no controls: the player's line of the
    scoresheet; at the end of the game the final standings and their place; for a player who
    left or was removed (`departed`: "leave" or "kick"), that they are out."""
    where = f"<#{view.channel_id}>"
    if departed is not None:
        what = "table" if view.state is None else "game"  # the lobby, or a game in play
        text = ((f"The host removed you from the {what}" if departed == "kick"
                 else f"You left the {what}") + f" in {where}"
                + ("." if view.state is None else "; a computer plays your seat."))
        title = "You were removed" if departed == "kick" else f"You left the {what}"
        return Render(discord.Embed(title=title, colour=GREY, description=text), None)
    st = view.state
    rec = next((r for r in (st.scoresheet if st else ()) if r.hand_number == hand_number), None)
    if rec is None:
        text = "This hand is over."
    else:
        made = "made it" if rec.made[seat] else "missed"
        text = (f"You bid {rec.bids[seat]} and took {rec.tricks[seat]}: {made}, "
                f"{rec.points[seat]:+d} points (total {rec.totals[seat]}).")
    title = f"Hand {hand_number} is over"
    if view.status.active:
        text += "\nYour next hand is in a new message."
    elif over is not None:
        title = "The game is over"
        mine = next((s for s in over.standings if s.seat == seat), None)
        if mine is not None:
            tied = sum(1 for s in over.standings if s.place == mine.place) > 1
            text += (f"\n\n**You finished {_ordinal(mine.place)}"
                     f"{' (tied)' if tied else ''} of {len(over.standings)}** "
                     f"with {mine.score} points.")
        lines = [f"{s.place}. {seat_label(view.seats[s.seat])}: {s.score}"
                 for s in over.standings]
        text += "\nFinal standings:\n" + "\n".join(lines)[:3000]
        text += f"\nThe table: {where}"
    elif view.status is TableStatus.CANCELLED:
        title = "The game was ended"
        text += f"\nThe table in {where} was closed before the end; no result was recorded."
    else:
        text += f"\nThe game is over: see the table in {where}."
    e = discord.Embed(title=title, colour=GOLD if over is not None else GREY, description=text)
    return Render(e, None)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def welcome_dm(view: TableView) -> Render:
    e = discord.Embed(title="Oh Hell", colour=BLUE, description=(
        f"You joined the table in <#{view.channel_id}>. Your cards will come here, one message "
        "per hand, with buttons when it is your turn."))
    return Render(e, None)


def no_access_notice(view: TableView) -> str:
    """What the host is told once when the bot cannot post or edit the table message."""
    return (f"I cannot post the Oh Hell table in <#{view.channel_id}>: I am missing access or "
            "permissions there. Ask a server manager to let me View Channel, Send Messages, "
            "Embed Links and Read Message History in that channel, then use `/ohhell table` to "
            "show the table again. The game goes on meanwhile: players still get their hands "
            "by DM and with `/ohhell hand`.")


def archived_notice(view: TableView) -> str:
    """What the host is told once when the table's thread is archived."""
    return (f"The thread <#{view.channel_id}> with your Oh Hell table is archived, so I cannot "
            "update the table there. Unarchive it (or send a message in it) and the table "
            "shows again with the next move. The game goes on meanwhile: players still get "
            "their hands by DM and with `/ohhell hand`.")


DM_CLOSED_NOTICE = ("I cannot send you direct messages, so your cards will not come by DM. "
                    "Use the table's **My hand** button or `/ohhell hand` to see your hand "
                    "and play; the game goes on without waiting.")


# ---- turn notifications (cogs.nudges) -----------------------------------------------------------


@dataclass(frozen=True)
class NudgeText:
    """A nudge as a DM (`dm`) and as a channel message that mentions the person (`channel`).
    Plain content, not an embed: only content mentions ping, and content shows in the push."""

    dm: str
    channel: str


NOTIFY_WORDS = {"dm": "a DM", "mention": "a mention in the table's channel", "off": "off"}


def notify_text(own: str | None, server_default: str | None, *, saved: bool) -> str:
    """`/ohhell notify`: how this person is told it is their turn, and why."""
    after = "when your turn has waited a little"
    if own is not None:
        how = NOTIFY_WORDS[own]
        text = (f"Saved: {how}." if saved else f"Your choice: {how}.")
        if own == "off":
            return text + " You are not told when it is your turn (your hand DM still shows it)."
        return text + f" You get it {after}; it goes once you have acted."
    how = NOTIFY_WORDS[server_default or "dm"]
    return (f"You have not chosen: this server's default is {how}, {after}. "
            "Choose with `/ohhell notify how:`.")


def table_url(view: TableView) -> str:
    """A jump link to the table message (to the channel while it has none)."""
    base = f"https://discord.com/channels/{view.guild_id}/{view.channel_id}"
    return f"{base}/{view.message_id}" if view.message_id is not None else base


def turn_nudge(view: TableView, user_id: int, awaits: type[Move] | None) -> NudgeText:
    """Your turn has come and you have not acted yet."""
    what = ACTION_WORDS.get(awaits, "to play")
    return NudgeText(
        dm=f"⏰ Your turn {what} at the Oh Hell table: {table_url(view)}\n"
           "Your cards and buttons are in your hand message above.",
        channel=f"⏰ <@{user_id}>, your turn {what}. Your cards are in your DMs "
                "(or use **My hand** on the table).")


def warning_nudge(view: TableView, user_id: int, deadline: datetime) -> NudgeText:
    """Half your turn's time is gone."""
    when = timestamp(deadline)
    return NudgeText(
        dm=f"⏰ Half your time is gone: a computer moves for you {when} at the Oh Hell "
           f"table: {table_url(view)}",
        channel=f"⏰ <@{user_id}>, half your time is gone: a computer moves for you {when}.")


# ---- other commands -----------------------------------------------------------------------------


PHONE_WIDTH = 35
"""Characters of a code block line a phone shows without wrapping."""
MADE, MISSED = "✓", "✗"


def points(n: int) -> str:
    """ "1 pt", "12 pts", "-1 pt"."""
    return f"{n} pt" if abs(n) == 1 else f"{n} pts"


def scoresheet_text(view: TableView, limit: int = 3900) -> str:
    """The scoresheet for a phone (PHONE_WIDTH characters): a block per player, their whole name
    and total, then bid/took of each hand with ✓ made or ✗ missed; only the latest hands when it
    is too long for `limit`."""
    st = view.state
    if st is None or not st.scoresheet:
        return ""
    sheet = st.scoresheet
    for shown in range(len(sheet), 0, -1):
        body = _sheet_body(view, sheet[-shown:], cut=shown < len(sheet))
        text = f"bid/took each hand: {MADE} made, {MISSED} missed\n```\n{body}\n```"
        if len(text) <= limit:
            return text
    return text[:limit]


def _sheet_body(view: TableView, records: Sequence[Any], *, cut: bool) -> str:
    cells = [[f"{r.bids[s.seat]}/{r.tricks[s.seat]}{MADE if r.made[s.seat] else MISSED}"
              for r in records] for s in view.seats]
    width = max(len(c) for row in cells for c in row)
    per_line = max(1, (PHONE_WIDTH - 1) // (width + 1))
    lines: list[str] = []
    if cut:
        lines.append(f"(from hand {records[0].hand_number})")
    totals = records[-1].totals
    for s, row in zip(view.seats, cells, strict=True):
        name = s.name.replace("`", "'")
        total = points(totals[s.seat])
        if len(name) + 2 + len(total) <= PHONE_WIDTH:
            lines.append(f"{name}  {total.rjust(PHONE_WIDTH - len(name) - 2)}")
        else:  # a long name has the line to itself, the total under it
            lines += [name, total.rjust(PHONE_WIDTH)]
        padded = [c.ljust(width) for c in row]
        for i in range(0, len(padded), per_line):
            lines.append(" " + " ".join(padded[i:i + per_line]).rstrip())
    return "\n".join(lines)


def scoresheet(view: TableView) -> discord.Embed:
    """`/ohhell scores`: the scoresheet so far (the final sheet once the game is over)."""
    final = {TableStatus.FINISHED: " · final", TableStatus.CANCELLED: " · ended"}
    e = discord.Embed(title=f"{_title(view)} · scoresheet{final.get(view.status, '')}",
                      colour=BLUE)
    e.description = scoresheet_text(view) or "No hand has been scored yet."
    return e


def rules_embed(rules: Rules) -> discord.Embed:
    e = discord.Embed(title=f"{rules.title} (`{rules.name}`)", colour=BLUE,
                      description="\n".join(f"• {line}" for line in rules.describe())[:4096])
    return e


LEADERBOARD_FORMAT: dict[str, Callable[[PlayerStats], str]] = {
    "rating": lambda r: f"{r.rating:.1f}",
    "wins": lambda r: str(r.wins),
    "games": lambda r: str(r.games),
    "win_rate": lambda r: f"{r.win_rate:.0%}",
    "avg_points": lambda r: f"{r.avg_points:.1f}",
    "points_per_hand": lambda r: "-" if r.points_per_hand is None else f"{r.points_per_hand:.2f}",
    "bid_accuracy": lambda r: "-" if r.bid_accuracy is None else f"{r.bid_accuracy:.0%}",
    "best_game": lambda r: str(r.best_game),
    "streak": lambda r: str(r.streak),
}


def leaderboard_embed(rows: Sequence[PlayerStats], sort: str,
                      guild_name: str) -> discord.Embed:
    e = discord.Embed(title=f"Oh Hell leaderboard · {guild_name}", colour=GOLD)
    if not rows:
        e.description = "No finished games yet: start one with `/ohhell start`."
        return e
    fmt = LEADERBOARD_FORMAT.get(sort, LEADERBOARD_FORMAT["rating"])
    lines = [f"{i}. <@{r.user_id}> **{fmt(r)}** · {r.wins}/{r.games} won"
             for i, r in enumerate(rows, 1)]
    e.description = "\n".join(lines)[:4096]
    e.set_footer(text=f"sorted by {sort.replace('_', ' ')}")
    return e


def stats_embed(stats: PlayerStats | None, user_id: int) -> discord.Embed:
    e = discord.Embed(title="Oh Hell stats", colour=BLUE)
    if stats is None:
        e.description = f"<@{user_id}> has not finished a game in this server yet."
        return e
    acc = "-" if stats.bid_accuracy is None else f"{stats.bid_accuracy:.0%}"
    e.description = (
        f"<@{user_id}>\nGames **{stats.games}** · wins **{stats.wins}** ({stats.win_rate:.0%})\n"
        f"Rating **{stats.rating:.1f}** · exact bids {acc} · average {stats.avg_points:.1f} "
        f"points\nBest game {stats.best_game} · winning streak {stats.streak}")
    return e


def seconds_text(seconds: int) -> str:
    """A turn timeout as a person reads it: "120 s", or "untimed" for 0."""
    return "untimed" if seconds == 0 else f"{seconds} s"


PRESET_DECIDES = "the preset decides"


def settings_embed(guild_settings: GuildSettings, *, bot_turn_timeout: int) -> discord.Embed:
    """`/ohhell settings`: the values new tables in this server really start from.

    `bot_turn_timeout` is the bot's own default (DEFAULT_TURN_TIMEOUT), shown as a value where
    the server set none, never as "the bot default"."""
    gs = guild_settings
    opts = dict(gs.options)
    preset = (f"**{gs.default_preset}**" if gs.default_preset
              else "**classic** (the bot's default)")
    hook = opts.get("hook")
    timeout = (f"**{seconds_text(gs.turn_timeout)}**" if gs.turn_timeout is not None
               else f"**{seconds_text(bot_turn_timeout)}** (the bot's default)")
    lines = [f"Preset: {preset}",
             f"Scoring: **{opts.get('scoring') or PRESET_DECIDES}**",
             f"Hook: **{PRESET_DECIDES if hook is None else 'on' if hook else 'off'}**",
             f"Turn timeout: {timeout}",
             f"Computer players: **{'allowed' if gs.allow_computers else 'not allowed'}**",
             f"Turn notifications: **{NOTIFY_WORDS[gs.notify or 'dm']}**"
             + ("" if gs.notify else " (the bot's default)")
             + " for players who chose none (`/ohhell notify`)"]
    e = discord.Embed(title="Oh Hell server defaults", colour=BLUE, description="\n".join(lines))
    e.set_footer(text="A table's own /ohhell start options win over these. "
                      "/ohhell settings reset:<option> puts one back.")
    return e


def help_embed() -> discord.Embed:
    """`/ohhell help`: how to play here, in a few lines."""
    lines = [
        "**Open** a table: `/ohhell start` in a channel or thread (you are its host).",
        "**Join** with the table's **Join** button. The host may **Add bot** for computer "
        "players and presses **Deal** once 3 or more are seated.",
        "**Your hand** comes by DM, one message per hand, with buttons when it is your turn. "
        "DMs closed? Press **My hand** under the table (or `/ohhell hand`): only you see it.",
        "**Bid** how many tricks you will take, exactly; then **play** one card a trick, "
        "following suit when you can. Make your bid exactly to score.",
        "The table message in the channel is the live view: bids, the trick in play, "
        "over or under, the scores. `/ohhell scores` shows the scoresheet.",
        "The rules of each preset: `/ohhell rules` (e.g. `/ohhell rules preset:ouch`).",
        "**Your turn** is told by a DM or a mention when you have not acted for a while: "
        "choose with `/ohhell notify` (dm, mention or off).",
        "**Stuck?** `/ohhell hint` suggests a bid or card with its reason, only to you, at a "
        "table whose host allowed hints (`/ohhell start hints:`; such games are not rated).",
    ]
    return discord.Embed(title="How to play Oh Hell here", colour=BLUE,
                         description="\n".join(f"• {line}" for line in lines))
