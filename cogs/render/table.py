"""The table message: the lobby, the game in play, the final result, a closed or moved table.

It shows only public facts (docs/rules.md section 5): a card appears in it only once played,
and the last trick only while its hand is in play.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.errors import TableError
from bot.events import GameOver, RatingChange
from bot.models import SeatView, TableStatus, TableView
from bot.options import rules_for
from cogs import views
from cogs.render.body import BLUE, GOLD, GREEN, GREY, Render
from cogs.render.lines import (
    ACTION_WORDS,
    deal_text,
    game_title,
    hand_title,
    over_under_line,
    points,
    seat_label,
    seat_mention,
    seat_result,
    timestamp,
    trick_text,
    trump_now,
)
from cogs.render.scores import (
    EXACT_BID_RULE,
    exact_bid_game,
    exact_bid_text,
    scoresheet_text,
)
from engine import HandRecord, Rules

CHART_FILE = "scores.png"
"""The end-of-game chart's attachment name, which the final embed shows as its image."""


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
    invite_pings: bool = True
    """The lobby's post notifies the invited (False: a rematch of the same game again)."""


def table_message(view: TableView, extras: TableExtras) -> Render:
    """The one table message: lobby, game in play, or the final result."""
    if view.status is TableStatus.LOBBY:
        return _lobby(view, extras)
    if view.status is TableStatus.CANCELLED:
        return _closed(view, extras)
    if view.status is TableStatus.FINISHED or extras.game_over is not None:
        return _finished(view, extras)
    return _playing(view, extras)


def moved_message(view: TableView, jump_url: str) -> Render:
    """What an old table message says once `/ohhell table` posted a new one."""
    e = discord.Embed(title=game_title(view), colour=GREY,
                      description=f"This table moved: [jump to the table]({jump_url}).")
    return Render(e, None)


def _lobby(view: TableView, extras: TableExtras) -> Render:
    seats = "\n".join(f"{s.seat + 1}. {seat_mention(s)}"
                      + (" (host)" if s.user_id == view.host_id else "") for s in view.seats)
    try:
        rules = Rules.preset(view.options.preset)
        size = f"{rules.min_players}-{rules.max_players} players"
    except ValueError:
        size = "3+ players"
    e = discord.Embed(title=f"{game_title(view)} · lobby", colour=BLUE, description=(
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
    return Render(e, views.lobby_controls(view.table_id), content=content,
                  pings=extras.invite_pings)


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
        lines.append(over_under_line(st.bid_total, st.tricks_in_hand))
    e = discord.Embed(title=f"{game_title(view)} · {hand_title(st.hand_number, st.hand_count)}",
                      colour=GREEN, description="\n".join(lines))
    for s in seats:
        bid = st.bids[s.seat]
        mark = " ▶" if s.seat in st.actor_seats else ""
        tag = " (D)" if s.seat == st.dealer else ""
        value = f"bid **{'-' if bid is None else bid}** · won **{st.tricks_won[s.seat]}**"
        if not exact_bid_game(view):
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
        e.add_field(name=f"Hand {rec.hand_number} result", value=_hand_result(rec, seats),
                    inline=False)
    _notes(e, extras, view)
    return Render(e, views.table_controls(view.table_id))


def _later(view: TableView) -> bool:
    """The trump card is still to be turned after the bids (super_screw, quick)."""
    st = view.state
    return (view.rules is not None and view.rules.bid_before_trump and st is not None
            and st.phase.bidding)


def _hand_result(record: HandRecord, seats: Sequence[SeatView]) -> str:
    """The last finished hand, a row per seat."""
    return "\n".join(f"{seat_label(s)} {seat_result(record, s.seat)}" for s in seats)[:1024]


def _finished(view: TableView, extras: TableExtras) -> Render:
    over = extras.game_over
    e = discord.Embed(title=f"{game_title(view)} · game over", colour=GOLD)
    if over is not None:
        seats = view.seats
        names = [seat_mention(seats[w]) for w in over.winners]
        quick = exact_bid_game(view)
        e.description = ("🏆 " + " and ".join(names) + (" win!" if len(names) > 1 else " wins!")
                         if names else "Nobody made their exact bid: nobody wins." if quick
                         else "The game is over.")
        ratings = {r.user_id: r for r in over.rating_changes}
        lines = []
        for s in over.standings:
            line = f"{s.place}. {seat_mention(seats[s.seat])}: **{s.score}**"
            if quick:  # no points: what each player bid and took decides
                line = f"{seat_mention(seats[s.seat])}: {exact_bid_text(view, s.seat)}"
            if s.user_id in ratings:
                line += f" · rating {_rating(ratings[s.user_id])}"
            lines.append(line)
        if over.hints:
            lines.append("Not rated: hints were allowed at this table.")
        if quick:
            lines.append(EXACT_BID_RULE)
        e.add_field(name="Bid and took" if quick else "Final standings",
                    value="\n".join(lines)[:1024], inline=False)
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


def _rating(r: RatingChange) -> str:
    return f"{r.before:.1f} → {r.after:.1f} ({r.delta:+.1f})"


def _closed(view: TableView, extras: TableExtras) -> Render:
    e = discord.Embed(title=f"{game_title(view)} · closed", colour=GREY,
                      description="This table was closed; no result was recorded.")
    _notes(e, extras, view)
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
