"""Players for the tests: they act through Discord only (slash commands, or buttons and selects
exactly as the bot rendered them), choosing legal moves from what they are shown."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot.models import TableStatus, TableView
from cogs.views import trump_label
from engine import Card, Phase
from tests.discord.harness import Call, Harness, Member
from tests.discord.limits import check_message


class Driver:
    """One table in one channel, played by `members` (seat order is join order)."""

    def __init__(self, h: Harness, members: list[Member], *, channel: int | None = None,
                 seed: int = 1) -> None:
        self.h, self.members = h, members
        self.channel = channel if channel is not None else h.channel
        self.rng = random.Random(seed)
        self.calls: list[Call] = []
        self.actions = 0

    @property
    def svc(self) -> Any:
        return self.h.bot.tables  # type: ignore[attr-defined]

    def view(self) -> TableView | None:
        return self.svc.directory.find_table(self.channel)

    def member(self, user_id: int | None) -> Member | None:
        return self.h.members.get(user_id) if user_id is not None else None

    async def send(self, payload: dict[str, Any]) -> list[Call]:
        calls = await self.h.send(payload)
        self.calls.extend(calls)
        for c in calls:
            errs = check_message(c.body)
            assert not errs, (c.path, errs)
        return calls

    async def slash(self, command: str, user: Member, **opts: Any) -> list[Call]:
        return await self.send(self.h.slash(command, user, channel=self.channel, **opts))

    async def lobby(self, *, bots: int = 0, **opts: Any) -> TableView:
        """The first member starts, the others join by slash command, the host deals."""
        host, *others = self.members
        await self.slash("ohhell start", host, **({"bots": bots} if bots else {}), **opts)
        for m in others:
            await self.slash("ohhell join", m)
        await self.slash("ohhell deal", host)
        view = self.view()
        assert view is not None and view.status is TableStatus.PLAYING
        return view

    # ---- choosing a move ----------------------------------------------------------------------

    def awaited(self) -> list[tuple[int, Member]]:
        """The people whose move is awaited now (computer seats act by themselves)."""
        view = self.view()
        if view is None or view.state is None:
            return []
        out = []
        for seat in view.state.actor_seats:
            m = self.member(view.seats[seat].user_id)
            if m is not None:
                out.append((seat, m))
        return out

    def move_for(self, seat: int) -> tuple[str, Any]:
        view = self.view()
        assert view is not None
        pv = self.svc.directory.seat_view(view.table_id, seat)
        if pv.phase in (Phase.BIDDING, Phase.SIMULTANEOUS_BIDDING):
            return "bid", self.rng.choice(pv.legal_bids)
        if pv.phase is Phase.PLAYING:
            return "play", self.rng.choice(pv.legal_cards)
        if pv.phase is Phase.TRUMP_CHOICE:
            return "trump", self.rng.choice(pv.legal_trumps)
        if pv.phase is Phase.DISCARD:
            return "discard", self.rng.sample(list(pv.hand), pv.discards_needed)
        raise AssertionError(pv.phase)

    # ---- acting -------------------------------------------------------------------------------

    async def act_slash(self, seat: int, member: Member) -> list[Call]:
        kind, move = self.move_for(seat)
        self.actions += 1
        if kind == "bid":
            return await self.slash("ohhell bid", member, tricks=move)
        assert kind == "play", "variant phases have no slash command: use controls"
        text = self.rng.choice([move.code, move.code.lower(), str(move),
                                move.code.replace("10", "T")])
        return await self.slash("ohhell play", member, card=text)

    def hand_message(self, member: Member) -> int:
        """The member's DM hand message that carries controls now."""
        dm = self.h.fake.dm_of(member.id)
        assert dm is not None, f"{member.name} has no DM channel"
        for mid in reversed(self.h.fake.messages_in(dm)):
            if self.h.components(mid):
                return mid
        raise AssertionError(f"no DM with controls for {member.name}")

    async def act_controls(self, seat: int, member: Member, message_id: int | None = None,
                           ) -> list[Call]:
        """Use the controls of the member's DM (or of `message_id`, e.g. a My hand message)."""
        payload = self.controls_payload(seat, member, message_id)
        self.actions += 1
        return await self.send(payload)

    def controls_payload(self, seat: int, member: Member,
                         message_id: int | None = None) -> dict[str, Any]:
        """The click or pick of a legal move on the member's DM (or `message_id`) controls."""
        kind, move = self.move_for(seat)
        mid = message_id if message_id is not None else self.hand_message(member)
        if kind == "bid":
            return self.h.click(mid, str(move), member)
        if kind == "play":
            return self.h.select(mid, [move.code], member)
        if kind == "trump":
            return self.h.click(mid, trump_label(move), member)
        return self.h.select(mid, [c.code for c in move], member)

    async def play_out(self, how: str = "slash", limit: int = 2000) -> None:
        """Play until the game is over: `how` is "slash" or "controls"."""
        for _ in range(limit):
            awaited = self.awaited()
            if not awaited:
                view = self.view()
                assert view is None, "the game stalled with nobody to act"
                return
            seat, member = awaited[0]
            if how == "slash":
                await self.act_slash(seat, member)
            else:
                await self.act_controls(seat, member)
        raise AssertionError("the game did not end")


CARD_TEXT = {c: re.compile(r"(?<![0-9A-Za-z])" + re.escape(str(c))) for c in (
    Card(r, s) for s in range(4) for r in range(2, 15))}


class PrivacyWatch:
    """Checks every recorded payload, as it is sent, against the hands at that moment:
    no card still in someone's hand may reach anyone else (public messages included)."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.leaks: list[str] = []
        self.checked = 0
        h.fake.on_call = self.check

    def owners(self) -> tuple[dict[Card, int | None], set[Card]]:
        svc = self.h.bot.tables  # type: ignore[attr-defined]
        owners: dict[Card, int | None] = {}
        public: set[Card] = set()
        for view in svc.directory.tables():
            if view.state is None:
                continue
            if view.state.trump_card is not None:
                public.add(view.state.trump_card)  # turned up for all to see
            if view.state.super_trump is not None:
                public.add(view.state.super_trump)  # named by the turned card, not its holder
            for s in view.seats:
                for c in svc.directory.seat_view(view.table_id, s.seat).hand:
                    owners[c] = s.user_id if s.user_id is not None else -1 - s.seat
        return owners, public

    def check(self, call: Call) -> None:
        if not call.json:
            return
        text = json.dumps(call.json, ensure_ascii=False)
        owners, public = self.owners()
        self.checked += 1
        for card, owner in owners.items():
            if owner == call.audience or card in public:
                continue
            pattern = CARD_TEXT.get(card)
            if pattern is None:  # a special card: alike ones share a name, only its code is its own
                seen = f'"{card.code}"' in text
            else:
                seen = bool(pattern.search(text)) or card.name in text or f'"{card.code}"' in text
            if seen:
                who = "everyone" if call.audience is None else f"user {call.audience}"
                self.leaks.append(f"{card} (held by {owner}) shown to {who}: {call.method} "
                                  f"{call.path} {text[:300]}")
