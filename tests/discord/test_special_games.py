"""The special-card presets through Discord: a person plays a whole game with the DM controls
only (a joker through the declaration select), computers in the other seats."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Phase, Play, Rules
from tests.discord.driver import Driver, PrivacyWatch
from tests.discord.harness import Harness, Member

SPECIAL = [name for name in Rules.preset_names(special_cards=True)
           if name not in Rules.preset_names()]


class JokerDriver(Driver):
    """Plays a joker that is declared as it is played through the declaration select."""

    def controls_payload(self, seat: int, member: Member,
                         message_id: int | None = None) -> dict[str, Any]:
        view = self.view()
        assert view is not None
        pv = self.svc.directory.seat_view(view.table_id, seat)
        if pv.phase is not Phase.PLAYING:
            return super().controls_payload(seat, member, message_id)
        mid = message_id if message_id is not None else self.hand_message(member)
        selects = {c["custom_id"].split(":")[1]: c["custom_id"]
                   for c in self.h.components(mid) if c["type"] == 3}
        card = self.rng.choice(pv.legal_cards)
        options = pv.declarations_for(card)
        if options:
            code = Play(card, self.rng.choice(options)).code()
            self.declared += 1
            return self.h.select(mid, [code], member, custom_id=selects["declare"])
        return self.h.select(mid, [card.code], member, custom_id=selects["card"])

    declared = 0


@pytest.mark.parametrize("preset", SPECIAL)
async def test_a_special_preset_played_through_dm_controls(h: Harness, preset: str) -> None:
    watch = PrivacyWatch(h)
    alice = h.member("alice")
    rules = Rules.preset(preset)
    players = rules.min_players
    d = JokerDriver(h, [alice], seed=7)
    table = await d.lobby(preset=preset, bots=players - 1, max_cards=4, bot_level="medium")
    assert table.message_id is not None
    await d.play_out("controls")
    assert d.view() is None, "the game did not finish"
    final = h.fake.messages[table.message_id]["embeds"][0]
    assert "game over" in final["title"]
    assert d.actions > 0 and not watch.leaks, watch.leaks


async def test_a_joker_is_declared_from_the_dm_and_shown_on_the_table(h: Harness) -> None:
    """love_that_joker until alice has played a joker through the declaration select: the
    table message and her DM name what it was declared."""
    alice = h.member("alice")
    for seed in range(1, 40):
        channel = h.add_channel()
        d = JokerDriver(h, [alice], channel=channel, seed=seed)
        await d.lobby(preset="love_that_joker", bots=2, max_cards=5, bot_level="random")
        await d.play_out("controls")
        if d.declared:
            break
    assert d.declared, "no joker came to alice in 40 games"
    used = " ".join(json.dumps(c.json, ensure_ascii=False) for c in h.fake.log if c.json)
    assert "ohhell:declare:" in used
    assert "Joker (high" in used or "Joker (low" in used


async def test_a_quick_game_ends_with_its_winners_and_no_scoresheet(h: Harness) -> None:
    alice = h.member("alice")
    d = JokerDriver(h, [alice], seed=3)
    table = await d.lobby(preset="quick", bots=2, max_cards=3, bot_level="medium")
    assert table.message_id is not None
    await d.play_out("controls")
    final = h.fake.messages[table.message_id]["embeds"][0]
    assert "game over" in final["title"]
    (field,) = final["fields"]
    assert field["name"] == "Bid and took" and "the exact bid wins" in field["value"]
    assert "Final standings" not in str(final) and "bid/took each hand" not in str(final)
    assert field["value"].count(", took ") == 3  # each player's bid and tricks, no points
    assert "wins!" in final["description"] or "win!" in final["description"] \
        or "nobody wins" in final["description"]
    dm = h.fake.dm_of(alice.id)
    assert dm is not None
    last = h.fake.messages[h.fake.messages_in(dm)[-1]]["embeds"][0]
    assert last["title"] == "The game is over" and "You bid " in last["description"]
    assert "points" not in last["description"] and "the exact bid wins" in last["description"]
