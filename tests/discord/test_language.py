"""Who reads what in which language (docs/discord.md: every interaction carries the person's
locale and the server's): what only one person reads (ephemeral answers, their hand) is in their
client's language; Norwegian (Discord's `no`) reads Norwegian Bokmål from the catalogue
(bot/i18n.py), and every body stays within Discord's limits (the Driver checks each one).

The table message renders in Norwegian (checked here from the render); who reads what the bot
sends on its own (the table message in the server's language, DMs and nudges in each person's)
is checked through the whole pipeline in tests/discord/test_voices.py; the commands' answers in
tests/discord/test_norwegian_answers.py, refusals and `/ohhell rules` in
tests/discord/test_refusal_language.py."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.events import GameOver, RatingChange, Standing
from bot.i18n import catalogue
from bot.models import TableStatus, TableView
from cogs import render
from engine import Game, Phase, Rules
from tests.discord.driver import Driver
from tests.discord.harness import Call, Harness, Member
from tests.discord.limits import check_message
from tests.discord.test_render import _body as _render_body
from tests.discord.test_render import _view

CODE = re.compile(r"`[^`]*`|<[^>]*>|\{[^}]*\}")
WORD = re.compile(r"[A-Za-zÆØÅæøå]+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CODE.sub(" ", text))}


def _english_words() -> set[str]:
    """The English catalogue's words longer than 3 letters that Norwegian never uses (so "over",
    "rating" or "Wizard", the same in both, do not count); commands and placeholders aside, and
    the slash commands' own texts (tests/discord/test_commands.py checks those)."""
    english: set[str] = set()
    norwegian: set[str] = set()
    for message in catalogue("nb"):
        if not message.id or (message.context or "").startswith("slash"):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english |= {w for i in ids for w in _words(i) if len(w) > 3}
        norwegian |= {w for s in strings for w in _words(s)}
    return english - norwegian


ENGLISH = _english_words()


def _text(call: Call) -> str:
    body: dict[str, Any] = call.body
    parts = [body.get("content") or ""]
    for e in body.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or "",
                  (e.get("footer") or {}).get("text") or ""]
        parts += [f"{f['name']} {f['value']}" for f in e.get("fields") or []]
    for row in body.get("components") or []:
        for c in row.get("components") or []:  # labels and placeholders (not the card names)
            parts += [c.get("label") or "", c.get("placeholder") or ""]
    return "\n".join(filter(None, parts))


def _answer(calls: list[Call], member: Member) -> str:
    (text,) = [_text(c) for c in calls if c.audience == member.id and c.body]
    return text


async def _answers(d: Driver, member: Member) -> dict[str, str]:
    """What `member` reads from the commands only they see, mid-game with a hand scored."""
    out = {}
    for command in ("ohhell help", "ohhell hand", "ohhell scores", "ohhell notify"):
        out[command] = _answer(await d.slash(command, member), member)
    out["ohhell rules"] = _answer(await d.slash("ohhell rules", member, preset="classic"),
                                  member).split("\n")[0]  # the title; the rule lines: see above
    return out


async def _second_hand(h: Harness, members: list[Member]) -> Driver:
    d = Driver(h, members)
    await d.lobby(max_cards=2)
    while d.view().state.hand_number == 1 or d.view().state.phase is not Phase.PLAYING:
        seat, m = d.awaited()[0]
        await d.act_slash(seat, m)
    return d


def test_the_english_word_list_holds_the_words_it_looks_for() -> None:
    assert {"trick", "tricks", "dealer", "trump", "your", "hand", "scoresheet"} <= ENGLISH
    assert not {"over", "under", "hell"} & ENGLISH


async def test_a_norwegian_player_reads_their_answers_in_norwegian(h: Harness) -> None:
    h.guild_locale = "no"
    alice, bob, carol = (h.member(n, locale="no") for n in ("alice", "bob", "carol"))
    d = await _second_hand(h, [alice, bob, carol])
    answers = await _answers(d, alice)
    for command, text in answers.items():
        assert _words(text) & ENGLISH == set(), (command, text)
    assert "Din hånd · runde 2 av" in answers["ohhell hand"]
    assert "trumf" in answers["ohhell hand"] and "giver" in answers["ohhell hand"]
    assert "meldt/tatt hver runde" in answers["ohhell scores"]
    assert answers["ohhell rules"].startswith("Klassisk Oh Hell")


async def test_an_english_client_at_a_norwegian_server_reads_english(h: Harness) -> None:
    h.guild_locale = "no"
    alice = h.member("alice")  # her client is English
    bob, carol = h.member("bob", locale="no"), h.member("carol", locale="no")
    d = await _second_hand(h, [alice, bob, carol])
    hers, his = await _answers(d, alice), await _answers(d, bob)
    assert "Your hand · hand 2 of" in hers["ohhell hand"]
    assert "dealer" in hers["ohhell hand"] and "bid/took each hand" in hers["ohhell scores"]
    assert hers["ohhell help"].startswith("How to play Oh Hell here")
    assert "Din hånd · runde 2 av" in his["ohhell hand"]
    assert _words(his["ohhell help"]) & ENGLISH == set()


def test_the_table_message_and_final_standings_render_in_norwegian_within_limits() -> None:
    """Every table message of a whole game, and its final result, rendered for a Norwegian
    server: no English word, within Discord's limits."""
    rules = Rules.preset("classic").model_copy(update={"hand_sizes": [3, 1, 2]})
    game = Game.new(players=4, rules=rules, seed=3)
    rng = random.Random(3)
    while game.phase is not Phase.GAME_OVER:
        seat = game.actor_seats()[0]
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice(game.legal_bids()))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
        if game.phase is not Phase.GAME_OVER:
            view = _view(game, rules, TableStatus.PLAYING)
            body = _render_body(render.table_message(view, render.TableExtras(), "nb"))
            assert check_message(body) == []
            text = _unnamed(_body_text(body), view)
            assert _words(text) & ENGLISH == set(), text
    view = _view(game, rules, TableStatus.FINISHED)
    over = GameOver(
        standings=tuple(Standing(i + 1, i, s.name, s.user_id, 10 - i)
                        for i, s in enumerate(view.seats)),
        winners=(0, 1), rating_changes=tuple(RatingChange(s.user_id, 1.5, 2.5, s.name)
                                             for s in view.seats))
    body = _render_body(render.table_message(view, render.TableExtras(game_over=over), "nb"))
    assert check_message(body) == []
    text = _unnamed(_body_text(body), view)
    assert _words(text) & ENGLISH == set(), text
    assert "Sluttstilling" in text and "vinner!" in text and "Omkamp" in text
    assert "Reprise" in text


def _unnamed(text: str, view: TableView) -> str:
    """The text without the players' names (the only English allowed)."""
    for seat in view.seats:
        text = text.replace(seat.name, "")
    return text


def _body_text(body: dict[str, Any]) -> str:
    return _text(Call("webhook", "POST", "/", "/", body))
