"""A player's private messages: their hand (a DM, or the ephemeral `My hand`), the DM a hand
leaves once it is over, and the welcome DM when they sit down.

Only this seat's cards appear here (docs/rules.md section 5), with the public facts a player
needs to decide without looking at the table message.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.events import GameOver
from bot.guard import Guard
from bot.i18n import DEFAULT_LANG, Lang, t
from bot.models import TableStatus, TableView
from cogs import views
from cogs.render.body import BLUE, GOLD, GREY, Render
from cogs.render.lines import (
    action_words,
    deal_text,
    hand_title,
    over_under_line,
    seat_label,
    timestamp,
    trick_text,
    trump_now,
    your_result,
)
from cogs.render.scores import exact_bid_game, exact_bid_rule, exact_bid_text
from engine import Card, Phase, PlayerView, Suit, sort_hand


def hand_message(view: TableView, pv: PlayerView, *, dm: bool,
                 lang: Lang = DEFAULT_LANG) -> Render:
    """A player's own hand, and what they need to decide without looking at the table message:
    trump, whose turn it is, every bid so far, over or under, the trick in play; the cards they
    may play marked, and controls when it is their turn. In the player's language."""
    tid = view.table_id
    seats = view.seats
    trump = trump_now(pv.phase, pv.trump_card, pv.trump_suit, pv.dealer == pv.seat,
                      pv.super_trump, pv.rules.bid_before_trump and pv.phase.bidding, lang=lang)
    deal = deal_text(view, pv.hand_number, pv.hand_size, lang)
    names = [seat_label(seat) for seat in seats]  # each seat as this player reads it
    names[pv.seat] = t(lang, "you")
    dealer = names[pv.dealer]
    if dm:
        first = t(lang, "{deal} · trump **{trump}** · dealer {dealer} at {where}", deal=deal,
                  trump=trump, dealer=dealer, where=f"<#{view.channel_id}>")
    else:
        first = t(lang, "{deal} · trump **{trump}** · dealer {dealer}", deal=deal, trump=trump,
                  dealer=dealer)
    lines = [first]
    if not pv.to_act and pv.actor_seats:
        who = ", ".join(names[s] for s in pv.actor_seats)
        lines.append(f"▶ {who} {action_words(pv.phase.awaits, lang)}")
    if any(pv.has_bid):
        lines.append(t(lang, "Bids:") + " " + " · ".join(
            f"{names[s]} "
            + ("–" if not pv.has_bid[s] else "?" if b is None else f"**{b}**")
            for s, b in enumerate(pv.bids)))
    if pv.over_under is not None:
        lines.append(over_under_line(sum(b or 0 for b in pv.bids), pv.tricks_in_hand, lang))
    bid = pv.bids[pv.seat]
    if bid is not None and pv.phase is Phase.PLAYING:
        lines.append(t(lang, "You bid **{bid}** and have won **{won}**.", bid=bid,
                       won=pv.tricks_won[pv.seat]))
    elif bid is None and pv.scoresheet and pv.phase.bidding:  # how the last hand went
        rec = pv.scoresheet[-1]
        lines.append(t(lang, "Hand {number}: {result}", number=rec.hand_number,
                       result=your_result(rec, pv.seat, lang)))
    if pv.phase is Phase.PLAYING and (pv.current_trick or not pv.to_act):
        trick = (trick_text(pv.current_trick, seats, pv.declarations, pv.trump_suit, lang)
                 or t(lang, "nothing led yet"))
        lines.append(t(lang, "Trick {number}: {trick}", number=pv.trick_number, trick=trick))
    legal = pv.legal_cards if pv.to_act and pv.phase is Phase.PLAYING else ()
    if pv.blind and not pv.hand:
        lines.append(t(lang, "This is a blind hand: you bid before you see your cards."))
    else:
        lines.append(f"\n{cards_text(pv.hand, legal, lang)}")
    if pv.discarded:
        lines.append(t(lang, "Discarded: {cards}", cards=cards_text(pv.discarded, lang=lang)))
    held_kinds = {card.kind for card in pv.hand}
    for card, worth in pv.card_values:  # what the special cards in this hand are worth
        if card.kind in held_kinds and (card.special or card in pv.hand):
            lines.append(f"{card}: {worth}.")
    control: discord.ui.View | None = None
    if pv.to_act:
        deadline = (" · " + t(lang, "time runs out {when}", when=timestamp(view.deadline))
                    if view.deadline else "")
        guard = Guard.of(pv)
        if pv.phase.bidding:
            hook = (" " + t(lang, "(not {bid}: the hook)", bid=pv.hook_bid)
                    if pv.hook_bid is not None and pv.hook_bid not in pv.legal_bids else "")
            lines.append("\n**" + t(lang, "Your turn to bid") + f"**{hook}{deadline}")
            control = views.bid_controls(tid, guard, pv.hand_size, pv.legal_bids)
        elif pv.phase is Phase.PLAYING:
            lead = "" if pv.current_trick else "\n" + t(lang, "You lead.")
            lines.append("\n**" + t(lang, "Your turn to play") + f"**{deadline}{lead}")
            control = views.play_controls(tid, guard, pv.legal_cards, pv.legal_declarations,
                                          pv.trump_suit, lang)
        elif pv.phase is Phase.TRUMP_CHOICE:
            lines.append("\n**" + t(lang, "Name trump") + f"**{deadline}")
            control = views.trump_controls(tid, guard, pv.legal_trumps, lang)
        elif pv.phase is Phase.DISCARD:
            lines.append("\n" + t(lang, "**Discard {count}** face down",
                                   count=pv.discards_needed) + deadline)
            control = views.discard_controls(tid, guard, pv.hand, pv.discards_needed,
                                             lang)
    title = t(lang, "Your hand · {hand}", hand=hand_title(pv.hand_number, pv.hand_count, lang))
    e = discord.Embed(title=title,
                      colour=GOLD if pv.to_act else BLUE, description="\n".join(lines))
    return Render(e, control, controls=control is not None)


def cards_text(cards: Sequence[Card], legal: Sequence[Card] = (),
               lang: Lang = DEFAULT_LANG) -> str:
    """A hand sorted by suit then rank, suits apart; legal cards in bold when given."""
    marked = set(legal)
    groups: dict[Suit | None, list[str]] = {}  # special cards (no suit) last
    for c in sort_hand(list(cards)):
        groups.setdefault(c.suit, []).append(f"**{c}**" if c in marked else str(c))
    return "   ".join(" ".join(g) for g in groups.values()) or t(lang, "(no cards)")


def hand_over_message(view: TableView, seat: int, hand_number: int, *,
                      over: GameOver | None = None, departed: str | None = None,
                      lang: Lang = DEFAULT_LANG) -> Render:
    """A DM whose hand is finished, no cards and no controls: the player's line of the
    scoresheet; at the end of the game the final standings and their place; for a player who
    left or was removed (`departed`: "leave" or "kick"), that they are out."""
    where = f"<#{view.channel_id}>"
    if departed is not None:
        how = "kick" if departed == "kick" else "leave"
        title, text = _departed(how, view.state is not None, where, lang)
        return Render(discord.Embed(title=title, colour=GREY, description=text), None)
    st = view.state
    rec = next((r for r in (st.scoresheet if st else ()) if r.hand_number == hand_number), None)
    text = t(lang, "This hand is over.") if rec is None else your_result(rec, seat, lang)
    title = t(lang, "Hand {number} is over", number=hand_number)
    if view.status.active:
        text += "\n" + t(lang, "Your next hand is in a new message.")
    elif over is not None and exact_bid_game(view):
        title = t(lang, "The game is over")
        text = t(lang, "You {result}.", result=exact_bid_text(view, seat, lang))
        names = [seat_label(view.seats[w]) for w in over.winners]
        if len(names) > 1:
            won = t(lang, "{first} and {last} win.", first=", ".join(names[:-1]), last=names[-1])
        elif names:
            won = t(lang, "{winner} wins.", winner=names[0])
        else:
            won = t(lang, "Nobody made their exact bid: nobody wins.")
        text += "\n" + won + "\n" + exact_bid_rule(lang) + "\n" + t(
            lang, "The table: {where}", where=where)
    elif over is not None:
        title = t(lang, "The game is over")
        mine = next((s for s in over.standings if s.seat == seat), None)
        if mine is not None:
            tied = sum(1 for s in over.standings if s.place == mine.place) > 1
            fields = {"place": _ordinal(mine.place, lang), "of": len(over.standings),
                      "score": mine.score}
            text += "\n\n" + (
                t(lang, "**You finished {place} (tied) of {of}** with {score} points.", **fields)
                if tied else
                t(lang, "**You finished {place} of {of}** with {score} points.", **fields))
        lines = [f"{s.place}. {seat_label(view.seats[s.seat])}: {s.score}"
                 for s in over.standings]
        text += "\n" + t(lang, "Final standings:") + "\n" + "\n".join(lines)[:3000]
        text += "\n" + t(lang, "The table: {where}", where=where)
    elif view.status is TableStatus.CANCELLED:
        title = t(lang, "The game was ended")
        text += "\n" + t(lang, "The table in {where} was closed before the end; no result was "
                               "recorded.", where=where)
    else:
        text += "\n" + t(lang, "The game is over: see the table in {where}.", where=where)
    e = discord.Embed(title=title, colour=GOLD if over is not None else GREY, description=text)
    return Render(e, None)


def _departed(how: str, in_play: bool, where: str, lang: Lang) -> tuple[str, str]:
    """The DM's title and text for a player who went (`how`: "kick" or "leave")."""
    if how == "kick":
        return t(lang, "You were removed"), (
            t(lang, "The host removed you from the game in {where}; a computer plays your seat.",
              where=where) if in_play else
            t(lang, "The host removed you from the table in {where}.", where=where))
    if in_play:
        return t(lang, "You left the game"), t(
            lang, "You left the game in {where}; a computer plays your seat.", where=where)
    return t(lang, "You left the table"), t(lang, "You left the table in {where}.", where=where)


def _ordinal(n: int, lang: Lang) -> str:
    if lang != DEFAULT_LANG:
        return f"{n}."  # Norwegian writes places as "1.", "2."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def welcome_dm(view: TableView, lang: Lang = DEFAULT_LANG) -> Render:
    """The first DM a seated player gets, so they know where their hands will come."""
    e = discord.Embed(title="Oh Hell", colour=BLUE, description=t(
        lang, "You joined the table in {where}. Your cards will come here, one message per hand, "
        "with buttons when it is your turn.", where=f"<#{view.channel_id}>"))
    return Render(e, None)
