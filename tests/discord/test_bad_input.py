"""Rules that can never be dealt are refused when the table is opened, not when it deals."""

from __future__ import annotations

from tests.discord.harness import CALLBACK, Harness


async def test_start_refuses_rules_that_can_never_be_dealt(h: Harness) -> None:
    alice = h.member("alice")
    calls = await h.send(h.slash("ohhell start", alice, preset="ouch", max_cards=1))
    assert len(calls) == 1
    (answer,) = calls
    assert answer.path == CALLBACK and answer.body["flags"] & 64 and answer.audience == alice.id
    assert answer.body["content"] == (
        "These rules can never be dealt: Each player discards 2, so every hand needs more "
        "than 2 cards."
    )
    assert h.bot.tables.directory.find_table(h.channel) is None  # type: ignore[attr-defined]
    # the same preset with a hand that can be dealt opens as usual
    await h.send(h.slash("ohhell start", alice, preset="ouch", max_cards=5))
    assert h.bot.tables.directory.find_table(h.channel) is not None  # type: ignore[attr-defined]
