"""Who Discord notifies, read off the calls the bot made (docs/discord.md, "Who gets notified").

Discord pushes a notification for a NEW message only:
- a new DM from the bot notifies the DM's owner (whatever it says, embeds or not);
- a new channel message (a REST post, or a public interaction response or followup) notifies
  each user its `content` mentions (`<@id>`, `<@!id>`) when `allowed_mentions` lets that
  mention ping (no `allowed_mentions` at all: every mention pings).
It never notifies for an edit (even one that adds a mention), for a mention inside an embed (it
renders as a name, never pings), for an ephemeral message (only the actor sees it, while
acting), or for a post Discord refused. A bot's reply to a person's own click in their DM is
the answer they are looking at, not a notification.

Kept apart from harness.py (which records the calls) so the fake's other helpers stay
independent; use `notified(h, member)` in tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.discord.harness import (
    CALLBACK,
    CHANNEL_MESSAGES,
    FOLLOWUP,
    PUBLIC,
    Call,
    FakeDiscord,
    Harness,
    Member,
)

MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"/channels/(\d+)/messages$")
EPHEMERAL = 64


@dataclass(frozen=True)
class Notification:
    """One push notification a user got: for a new DM (`why="dm"`) or a mention."""

    user_id: int
    why: str  # "dm" or "mention"
    message_id: int
    channel_id: int | None
    content: str
    call: Call


def _pings(body: dict[str, Any], user_id: int) -> bool:
    """Does a mention of `user_id` in this body's content ping them?"""
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return True
    if "users" in (allowed.get("parse") or []):
        return True
    return user_id in {int(u) for u in allowed.get("users") or []}


def _mentions(body: dict[str, Any]) -> list[int]:
    content = body.get("content") or ""
    seen: list[int] = []
    for match in MENTION.finditer(content):
        uid = int(match.group(1))
        if uid not in seen and _pings(body, uid):
            seen.append(uid)
    return seen


def _of_call(fake: FakeDiscord, call: Call) -> list[Notification]:
    if call.message_id is None:  # refused, or not a message
        return []
    body = call.body
    content = body.get("content") or ""
    if call.is_rest and call.method == "POST" and call.path == CHANNEL_MESSAGES:
        found = _CHANNEL.search(call.url)
        cid = int(found.group(1)) if found else None
        owner = fake.dm_owner.get(cid) if cid is not None else None
        if owner is not None:
            return [Notification(owner, "dm", call.message_id, cid, content, call)]
        return [Notification(uid, "mention", call.message_id, cid, content, call)
                for uid in _mentions(body)]
    new_public = (call.path == CALLBACK and (call.json or {}).get("type") == 4) or (
        call.path == FOLLOWUP and call.method == "POST")
    if not new_public or body.get("flags", 0) & EPHEMERAL:
        return []
    ctx = fake.interactions.get(call.interaction_id or 0)
    cid = ctx.channel_id if ctx is not None else None
    if cid is not None and cid in fake.dm_owner:
        return []  # the answer to the person's own click in their DM
    return [Notification(uid, "mention", call.message_id, cid, content, call)
            for uid in _mentions(body)]


def notifications(fake: FakeDiscord) -> list[Notification]:
    """Every notification Discord delivered for the bot's calls so far, in order."""
    return [n for call in fake.log for n in _of_call(fake, call)]


def notified(h: Harness, member: Member | int) -> list[Notification]:
    """The notifications this member got so far, in order."""
    uid = member if isinstance(member, int) else member.id
    return [n for n in notifications(h.fake) if n.user_id == uid]


def still_there(h: Harness, n: Notification) -> bool:
    """The notifying message is still in its channel (not deleted)."""
    return n.message_id in h.fake.messages


__all__ = ["PUBLIC", "Notification", "notifications", "notified", "still_there"]
