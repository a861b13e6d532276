"""/ohhell hint through discord.py's pipeline: allowed by the host at /ohhell start, only the
asker sees it, never more than their own view, and a game with hints is kept but not rated."""

from __future__ import annotations

import re

from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import CALLBACK, Call, Harness

HINT = re.compile(
    r"Bid \d+: you make it about \d+% of the time(; bid \d+: \d+%)?\."
    r"|Play the \S+: (keeps your bid alive in \d+ of 10 deals; the \S+: \d+ of 10"
    r"|it is your only legal card|your legal cards all do the same here)\."
)


def _answer(calls: list[Call]) -> Call:
    """The webhook message that answered the command (after its 'thinking' deferral)."""
    return next(c for c in calls if c.via == "webhook" and c.path != CALLBACK)


async def test_a_hint_answers_only_the_asker_with_its_reason_in_numbers(h: Harness) -> None:
    watch = PrivacyWatch(h)
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=3)
    await d.lobby(max_cards=3, hints=True)
    asked = 0
    while d.view() is not None and asked < 4:
        (seat, m), = d.awaited()
        calls = await d.slash("ohhell hint", m)
        assert calls[0].path == CALLBACK and calls[0].json["type"] == 5  # "thinking..."
        assert calls[0].json["data"]["flags"] & 64  # ephemeral
        answer = _answer(calls)
        assert answer.audience == m.id
        assert HINT.fullmatch(answer.body["content"]), answer.body["content"]
        for c in calls:
            watch.check(c)
        waiting = next(p for p in (alice, bob, carol) if p.id != m.id)
        refused = _answer(await d.slash("ohhell hint", waiting))
        assert refused.body["content"] == "There is nothing for you to decide right now."
        assert refused.audience == waiting.id
        await d.act_slash(seat, m)
        asked += 1
    assert asked == 4
    assert not watch.leaks, watch.leaks


async def test_hints_are_off_unless_the_host_allows_them(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.lobby(max_cards=2)
    (seat, m), = d.awaited()
    calls = await d.slash("ohhell hint", m)
    answer = _answer(calls)
    assert answer.body["content"].startswith("Hints are off at this table")
    assert answer.audience == m.id
    assert d.view().state.bids[seat] is None  # nothing changed


async def test_a_game_with_hints_is_stored_as_such_and_rates_nobody(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=5)
    table = await d.lobby(max_cards=1, hints=True)
    await d.play_out("slash")
    assert d.view() is None
    store = h.bot.store  # type: ignore[attr-defined]
    game_id = await store.game_for_table(table.table_id)
    assert game_id is not None
    stored = await store.get_game(game_id)
    assert stored is not None and stored.hints
    standings = next(
        f for f in h.fake.messages[table.message_id]["embeds"][0]["fields"]
        if f["name"] == "Final standings"
    )["value"]
    assert "Not rated: hints were allowed at this table." in standings
    assert "rating" not in standings.replace("Not rated", "")
    calls = await d.slash("ohhell stats", alice)
    assert "Games **1**" in calls[0].body["embeds"][0]["description"]
