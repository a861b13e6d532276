"""Every ending lands (issue 11): each person's DM shows a finished hand's result and, at the end,
the final standings and their place with no controls left (not only the player of the last
card); `/ohhell scores` still shows the game's sheet once it is over; a kicked player's DM says
they were removed, and a player who left sees that they left."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import Boot
from tests.discord.driver import Driver
from tests.discord.harness import Harness, Member


def dm_embeds(h: Harness, m: Member) -> list[tuple[int, dict[str, Any]]]:
    """(message id, embed) of every message in the member's DM, oldest first."""
    dm = h.fake.dm_of(m.id)
    assert dm is not None
    return [(mid, h.fake.messages[mid]["embeds"][0]) for mid in h.fake.messages_in(dm)
            if h.fake.messages[mid]["embeds"]]


def hand_dms(h: Harness, m: Member) -> list[tuple[int, dict[str, Any]]]:
    return [(mid, e) for mid, e in dm_embeds(h, m) if e.get("title") != "Oh Hell"]  # no welcome


async def test_every_dm_shows_each_hands_result_and_the_final_standings(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=4)
    await d.lobby(max_cards=2)
    await d.play_out("slash")  # slash commands: no DM is answered by an interaction
    for m in (alice, bob, carol):
        dms = hand_dms(h, m)
        *hands, last = dms
        assert hands, f"{m.name} got one hand DM only"
        for mid, e in hands:
            assert e["title"].startswith("Hand ") and e["title"].endswith(" is over"), e
            assert "You bid " in e["description"]
            assert h.components(mid) == []
        mid, e = last
        assert e["title"] == "The game is over"
        assert "You finished " in e["description"] and "Final standings" in e["description"]
        assert h.components(mid) == []


async def test_the_place_in_the_final_dm_is_the_players_own(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=5)
    await d.lobby(max_cards=1)
    await d.play_out("controls")
    places = {}
    for m in (alice, bob, carol):
        text = hand_dms(h, m)[-1][1]["description"]
        places[m.name] = text.split("You finished ", 1)[1].split(" ", 1)[0]
    board = (await d.slash("ohhell scores", alice))[0].body["embeds"][0]
    assert "final" in board["title"]
    assert all(name[:8] in board["description"] for name in places)
    assert "1st" in places.values()


async def test_scores_after_the_game_show_its_final_sheet(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol], seed=6)
    await d.lobby(max_cards=2)
    await d.play_out("slash")
    [answer] = await d.slash("ohhell scores", bob)
    embed = answer.body["embeds"][0]
    assert answer.audience == bob.id
    assert "There is no table" not in str(answer.body)
    assert "final" in embed["title"]
    assert all(m.name in embed["description"] for m in (alice, bob, carol))
    other = h.add_channel()
    [refused] = await h.send(h.slash("ohhell scores", bob, channel=other))
    assert "There is no table in this channel" in str(refused.body)


async def test_scores_after_a_restart_show_the_finished_games_final_sheet(boot: Boot) -> None:
    h1 = await boot()
    alice, bob, carol = h1.member("alice"), h1.member("bob"), h1.member("carol")
    d1 = Driver(h1, [alice, bob, carol], seed=6)
    await d1.lobby(max_cards=2)
    await d1.play_out("slash")
    before = (await d1.slash("ohhell scores", bob))[0].body["embeds"][0]
    await h1.close()

    h2 = await boot(share_with=h1)  # the bot restarted: nothing of the game is in memory
    [answer] = await Driver(h2, [alice, bob, carol], seed=6).slash("ohhell scores", bob)
    embed = answer.body["embeds"][0]
    assert "There is no table" not in str(answer.body)
    assert "final" in embed["title"]
    assert embed["description"] == before["description"]
    assert all(m.name in embed["description"] for m in (alice, bob, carol))


async def test_a_kicked_player_is_told_and_one_who_left_sees_it(h: Harness) -> None:
    alice, bob, carol, dan = (h.member(n) for n in ("alice", "bob", "carol", "dan"))
    d = Driver(h, [alice, bob, carol, dan], seed=7)
    await d.lobby(max_cards=3)
    await d.slash("ohhell kick", alice, member=bob)
    await d.slash("ohhell leave", carol)
    bob_last = hand_dms(h, bob)[-1]
    assert "removed" in bob_last[1]["title"].lower() and h.components(bob_last[0]) == []
    carol_last = hand_dms(h, carol)[-1]
    assert "You left the game" in carol_last[1]["title"] and h.components(carol_last[0]) == []
    await d.play_out("slash")
    assert hand_dms(h, bob)[-1] == bob_last  # nothing more for the one who is out


async def test_a_player_kicked_from_the_lobby_is_told_in_their_welcome_dm(h: Harness) -> None:
    alice, bob, carol = h.member("alice"), h.member("bob"), h.member("carol")
    d = Driver(h, [alice, bob, carol])
    await d.slash("ohhell start", alice)
    await d.slash("ohhell join", bob)
    await d.slash("ohhell join", carol)
    await d.slash("ohhell kick", alice, member=bob)
    await d.slash("ohhell leave", carol)
    [(_, bob_dm)] = dm_embeds(h, bob)
    assert bob_dm["title"] == "You were removed" and "removed you from the table" in (
        bob_dm["description"])
    [(_, carol_dm)] = dm_embeds(h, carol)
    assert carol_dm["title"] == "You left the table"
