"""The table message: the lobby, the game in play, the final result, a closed or moved table.

It shows only public facts (docs/rules.md section 5): a card appears in it only once played,
and the last trick only while its hand is in play.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.errors import TableError
from bot.events import GameOver, RatingChange
from bot.i18n import DEFAULT_LANG, Lang, say, t, tn
from bot.models import SeatView, TableStatus, TableView
from bot.options import rules_for
from cogs import views
from cogs.render.body import BLUE, GOLD, GREEN, GREY, LazyView, Render
from cogs.render.lines import (
    action_words,
    deal_text,
    game_title,
    hand_title,
    over_under_line,
    points,
    preset_words,
    seat_label,
    seat_mention,
    seat_result,
    timestamp,
    trick_text,
    trump_now,
)
from cogs.render.scores import (
    exact_bid_game,
    exact_bid_rule,
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


def table_message(view: TableView, extras: TableExtras, lang: Lang = DEFAULT_LANG) -> Render:
    """The one table message: lobby, game in play, or the final result; in the server's
    language, as everyone in the channel reads it."""
    if view.status is TableStatus.LOBBY:
        return _lobby(view, extras, lang)
    if view.status is TableStatus.CANCELLED:
        return _closed(view, extras, lang)
    if view.status is TableStatus.FINISHED or extras.game_over is not None:
        return _finished(view, extras, lang)
    return _playing(view, extras, lang)


def moved_message(view: TableView, jump_url: str, lang: Lang = DEFAULT_LANG) -> Render:
    """What an old table message says once `/ohhell table` posted a new one."""
    e = discord.Embed(title=game_title(view, lang), colour=GREY, description=t(
        lang, "This table moved: [jump to the table]({url}).", url=jump_url))
    return Render(e, None)


def _lobby(view: TableView, extras: TableExtras, lang: Lang) -> Render:
    host = " " + t(lang, "(host)")
    seats = "\n".join(f"{s.seat + 1}. {seat_mention(s)}"
                      + (host if s.user_id == view.host_id else "") for s in view.seats)
    try:
        rules = Rules.preset(view.options.preset)
        size = t(lang, "{least}-{most} players", least=rules.min_players,
                 most=rules.max_players)
    except ValueError:
        size = t(lang, "3+ players")
    e = discord.Embed(title=t(lang, "{game} · lobby", game=game_title(view, lang)), colour=BLUE,
                      description=t(lang, "Host: {host} · {size}", host=f"<@{view.host_id}>",
                                    size=size) + f"\n\n{seats}\n\n" + t(
                          lang, "Press **Join** to take a seat; the host presses **Deal** to "
                                "start."))
    e.add_field(name=t(lang, "Options"), value=_options_text(view, lang), inline=False)
    plan = _plan(view, lang)
    if plan:
        e.add_field(name=t(lang, "The game"), value=plan, inline=False)
    seated = {s.user_id for s in view.seats}
    waiting = [u for u in extras.invited if u not in seated]
    content = None
    if waiting:
        mentions = " ".join(f"<@{u}>" for u in waiting)
        e.add_field(name=t(lang, "Invited to the rematch"), value=mentions[:1024], inline=False)
        content = t(lang, "Rematch! {who}: press **Join** to play again.", who=mentions)[:2000]
    _notes(e, extras, view)
    return Render(e, content=content, pings=extras.invite_pings,
                  lazy_view=_controls(views.lobby_controls, view.table_id, lang))


def _options_text(view: TableView, lang: Lang) -> str:
    o = view.options
    parts = [t(lang, "preset {preset}", preset=preset_words(o.preset, lang))]
    if o.max_cards:
        parts.append(tn(lang, "at most {n} card", "at most {n} cards", o.max_cards))
    if o.scoring:
        parts.append(t(lang, "scoring {scoring}", scoring=preset_words(o.scoring, lang)))
    if o.hook is not None:
        parts.append(t(lang, "hook on") if o.hook else t(lang, "hook off"))
    if o.turn_timeout == 0:
        parts.append(t(lang, "no turn timer"))
    elif o.turn_timeout:
        parts.append(t(lang, "{seconds} s a turn", seconds=o.turn_timeout))
    return " · ".join(parts)


def _plan(view: TableView, lang: Lang) -> str | None:
    """What dealing now would give ("With 3 players: 3 hands of 2, 1, 2 cards.")."""
    try:
        rules = rules_for(view.options)
        players = len(view.seats)
        if not rules.min_players <= players <= rules.max_players:
            return None
        return say(lang, rules.plan_phrase(players))
    except (TableError, ValueError):
        return None


def _playing(view: TableView, extras: TableExtras, lang: Lang) -> Render:
    st = view.state
    assert st is not None
    seats = view.seats
    dealer = seats[st.dealer]
    trump = trump_now(st.phase, st.trump_card, st.trump_suit, dealer_is_you=False,
                      super_trump=st.super_trump, later=_later(view), lang=lang)
    lines = [t(lang, "{deal} · dealer {dealer} · trump **{trump}**",
               deal=deal_text(view, st.hand_number, st.hand_size, lang),
               dealer=seat_mention(dealer), trump=trump)]
    if st.actor_seats:
        who = ", ".join(seat_mention(seats[s]) for s in st.actor_seats)
        when = (" · " + t(lang, "time runs out {when}", when=timestamp(view.deadline))
                if view.deadline else "")
        lines.append(f"▶ {who} {action_words(st.phase.awaits, lang)}{when}")
        if view.warned and view.deadline:
            lines.append("⏰ " + t(lang, "Half the time is gone."))
    if st.phase.bidding and st.hook_bid is not None and st.turn == st.dealer:
        lines.append(t(lang, "The dealer may not bid **{bid}** (the hook).", bid=st.hook_bid))
    if st.over_under is not None and not st.phase.bidding:
        lines.append(over_under_line(st.bid_total, st.tricks_in_hand, lang))
    title = f"{game_title(view, lang)} · {hand_title(st.hand_number, st.hand_count, lang)}"
    e = discord.Embed(title=title, colour=GREEN, description="\n".join(lines))
    dealer_tag = " " + t(lang, "(D)")
    for s in seats:
        bid = st.bids[s.seat]
        mark = " ▶" if s.seat in st.actor_seats else ""
        tag = dealer_tag if s.seat == st.dealer else ""
        value = t(lang, "bid **{bid}** · won **{won}**", bid="-" if bid is None else bid,
                  won=st.tricks_won[s.seat])
        if not exact_bid_game(view):
            value += f"\n{points(st.scores[s.seat], lang)}"
        if s.autopilot:
            value += " · 🤖 " + t(lang, "autopilot")
        if s.user_id is not None and (s.dm_failed or s.user_id in extras.dm_closed):
            value += " · 📭 " + t(lang, "use My hand")
        e.add_field(name=f"{seat_label(s)}{tag}{mark}"[:256], value=value)
    if st.current_trick:
        e.add_field(name=t(lang, "Trick {number}", number=st.trick_number),
                    value=trick_text(st.current_trick, seats, st.declarations, st.trump_suit,
                                     lang),
                    inline=False)
    if st.last_trick and sum(st.tricks_won) > 0:  # only while its hand is in play
        e.add_field(name=t(lang, "Last trick"),
                    value=trick_text(st.last_trick, seats, st.declarations, st.trump_suit, lang),
                    inline=False)
    if st.scoresheet:
        rec = st.scoresheet[-1]
        e.add_field(name=t(lang, "Hand {number} result", number=rec.hand_number),
                    value=_hand_result(rec, seats), inline=False)
    _notes(e, extras, view)
    return Render(e, lazy_view=_controls(views.table_controls, view.table_id, lang))


def _controls(build: views.TableControls, table_id: int, lang: Lang) -> LazyView:
    """The table message's controls: decided by the table and the language alone."""
    return LazyView((build.__name__, table_id, lang), functools.partial(build, table_id, lang))


def _later(view: TableView) -> bool:
    """The trump card is still to be turned after the bids (super_screw, quick)."""
    st = view.state
    return (view.rules is not None and view.rules.bid_before_trump and st is not None
            and st.phase.bidding)


def _hand_result(record: HandRecord, seats: Sequence[SeatView]) -> str:
    """The last finished hand, a row per seat."""
    return "\n".join(f"{seat_label(s)} {seat_result(record, s.seat)}" for s in seats)[:1024]


def _finished(view: TableView, extras: TableExtras, lang: Lang) -> Render:
    over = extras.game_over
    e = discord.Embed(title=t(lang, "{game} · game over", game=game_title(view, lang)),
                      colour=GOLD)
    if over is not None:
        seats = view.seats
        names = [seat_mention(seats[w]) for w in over.winners]
        quick = exact_bid_game(view)
        if len(names) > 1:
            e.description = "🏆 " + t(lang, "{first} and {last} win!",
                                      first=", ".join(names[:-1]), last=names[-1])
        elif names:
            e.description = "🏆 " + t(lang, "{winner} wins!", winner=names[0])
        elif quick:
            e.description = t(lang, "Nobody made their exact bid: nobody wins.")
        else:
            e.description = t(lang, "The game is over.")
        ratings = {r.user_id: r for r in over.rating_changes}
        lines = []
        for s in over.standings:
            line = f"{s.place}. {seat_mention(seats[s.seat])}: **{s.score}**"
            if quick:  # no points: what each player bid and took decides
                line = f"{seat_mention(seats[s.seat])}: {exact_bid_text(view, s.seat, lang)}"
            if s.user_id in ratings:
                line += " · " + t(lang, "rating {change}", change=_rating(ratings[s.user_id]))
            lines.append(line)
        if over.hints:
            lines.append(t(lang, "Not rated: hints were allowed at this table."))
        if quick:
            lines.append(exact_bid_rule(lang))
        e.add_field(name=t(lang, "Bid and took") if quick else t(lang, "Final standings"),
                    value="\n".join(lines)[:1024], inline=False)
    sheet = scoresheet_text(view, 3000, lang)
    if sheet:
        e.description = f"{e.description or ''}\n\n{sheet}"
    e.set_footer(text=t(lang, "/ohhell leaderboard · /ohhell stats · Rematch: the host opens a "
                              "new table with the same rules and players"))
    files: tuple[tuple[str, bytes], ...] = ()
    if extras.chart is not None:
        e.set_image(url=f"attachment://{CHART_FILE}")
        files = ((CHART_FILE, extras.chart),)
    return Render(e, files=files,
                  lazy_view=_controls(views.rematch_controls, view.table_id, lang))


def _rating(r: RatingChange) -> str:
    return f"{r.before:.1f} → {r.after:.1f} ({r.delta:+.1f})"


def _closed(view: TableView, extras: TableExtras, lang: Lang) -> Render:
    e = discord.Embed(title=t(lang, "{game} · closed", game=game_title(view, lang)), colour=GREY,
                      description=t(lang, "This table was closed; no result was recorded."))
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
