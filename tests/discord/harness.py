"""Drive a real discord.py bot offline: the real gateway parsers and command tree, only HTTP faked.

Why: the cogs are only trustworthy when tested through discord.py's own pipeline (Interaction built
from a raw INTERACTION_CREATE payload, the app-command tree, DynamicItem dispatch, the webhook
adapter that carries interaction responses). Mocks of discord objects hide exactly the mistakes
that fail in production ("interaction failed", a missing `components` key, an unanswered click).

- REST (channel.send, message.edit, create_dm, tree.sync, login) goes through
  `HTTPClient.request`: replaced on the bot's own instance, so discord.py's route builders run.
- Interaction callbacks and followups bypass HTTPClient: they go through
  `discord.webhook.async_.AsyncWebhookAdapter`, replaced through the `async_context` ContextVar.
- Every call is recorded with its route, JSON body, and *audience*: `PUBLIC` for a channel message
  everybody sees, or the id of the only user who can see it (a DM, an ephemeral message).
- Discord's client validates option values before they reach the bot and discord.py trusts it, so
  the payload builders apply that validation (required options, types, ranges, choices, lengths).
- Errors in commands and components are only logged by discord.py: ERROR records of the `discord`,
  `cogs` and `bot` loggers are captured in `fake.errors` so tests can assert there were none.

Pinned to discord.py 2.7.1 (it leans on a few private names); `test_harness.py` keeps it honest.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import marshal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.webhook import async_ as wh_async

PUBLIC = None  # audience of a message every member of the channel can read
ISO = "2025-01-01T00:00:00.000000+00:00"
EVERYONE_PERMS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True,
    embed_links=True, add_reactions=True,
)
ADMIN_PERMS = discord.Permissions(EVERYONE_PERMS.value
                                  | discord.Permissions(manage_guild=True).value)
_ids = itertools.count(1_100_000_000_000_000_000)
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
WATCHED_LOGGERS = ("discord", "cogs", "bot")


def snowflake() -> int:
    """A fresh id, larger than any real one so they never collide."""
    return next(_ids)


def user_payload(uid: int, name: str | None = None, bot: bool = False) -> dict[str, Any]:
    name = name or f"user{uid}"
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name,
            "avatar": None, "bot": bot}


@dataclass
class Call:
    """One request the bot made: REST (`via="rest"`) or an interaction webhook (`via="webhook"`)."""

    via: str
    method: str
    path: str  # route template, e.g. /channels/{channel_id}/messages
    url: str
    json: Any
    params: Any = None
    audience: int | None = PUBLIC  # who can read the body: PUBLIC, or one user id
    interaction_user: int | None = None  # set for interaction webhooks
    message_id: int | None = None  # the message created or edited, when there is one
    files: list[tuple[str, bytes]] = field(default_factory=list)  # attachments (name, bytes)
    interaction_id: int | None = None  # the interaction a webhook call answers
    sent: float = field(default_factory=time.perf_counter, compare=False, repr=False)
    """When the request reached the fake (perf_counter), before the fake did its own work: the
    moment a real bot's request leaves for Discord (bench/bot.py times its answers by it)."""

    @property
    def body(self) -> dict[str, Any]:
        """The message body this call shows (the callback's `data`, or the JSON itself)."""
        j = self.json or {}
        if self.path == CALLBACK:
            return j.get("data") or {}
        return j if isinstance(j, dict) else {}

    @property
    def is_callback(self) -> bool:
        return self.path == CALLBACK

    @property
    def is_rest(self) -> bool:
        return self.via == "rest"


@dataclass
class _Interaction:
    user_id: int
    channel_id: int
    source: int | None  # message id the component sits on
    ephemeral_original: bool = False
    original: int | None = None  # message id of the response message
    responses: int = 0


class PackedMessages(dict):  # type: ignore[type-arg]
    """Messages kept as bytes (marshal: JSON's types, and several times cheaper than json both
    ways): a benchmark's hundred thousand fake messages then add nothing for the garbage
    collector to scan (bytes are not tracked), so the bot's own heap is what the loop-stall
    figure measures. Reads return a fresh copy."""

    def __setitem__(self, key: int, value: dict[str, Any]) -> None:
        super().__setitem__(key, marshal.dumps(value))

    def __getitem__(self, key: int) -> dict[str, Any]:
        return marshal.loads(super().__getitem__(key))  # type: ignore[no-any-return]

    def get(self, key: int, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 (self.get is this)

    def items(self) -> Any:
        return ((k, self[k]) for k in self)


class FakeResponse:
    """Just enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int, reason: str = "fake") -> None:
        self.status, self.reason = status, reason


class FakeWebhookAdapter(wh_async.AsyncWebhookAdapter):
    """Interaction responses and followups land here instead of aiohttp."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route: Any, session: Any = None, *, payload: Any = None,
                      multipart: Any = None, files: Any = None, params: Any = None,
                      **_kw: Any) -> Any:
        if multipart:  # with files, payload_json is the first form field
            payload = discord.utils._from_json(multipart[0]["value"])
        attached = []
        for f in files or ():
            attached.append((f.filename, f.fp.read()))
            f.reset()
        return self.fake.handle("webhook", route, payload, params, attached)


class FakeDiscord:
    """An in-memory Discord: answers the routes the bot uses and records every call."""

    def __init__(self, app_id: int = 4242) -> None:
        self.app_id = app_id
        self.bot_user = user_payload(snowflake(), "OhHellBot", bot=True)
        self.calls: list[Call] = []  # since the last take()
        self.log: list[Call] = []  # everything, for whole-game checks
        self.messages: dict[int, dict[str, Any]] = {}  # every message the bot created, by id
        self.audience: dict[int, int | None] = {}  # message id -> PUBLIC or user id
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (error 50007)
        self.deleted_channels: set[int] = set()  # every call there: 404 Unknown Channel
        self.interactions: dict[int, _Interaction] = {}  # interaction id -> context
        self.tokens: dict[str, int] = {}  # interaction token -> interaction id
        self.failures: list[tuple[str, str, int, int, str]] = []
        self.errors: list[logging.LogRecord] = []
        self.on_call: Callable[[Call], None] | None = None
        self.synced: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global)
        self.attachments: dict[int, list[tuple[str, bytes]]] = {}  # message id -> its files
        self.record = True  # keep calls in `calls` and `log` (a benchmark turns it off)

    # ---------- test controls ----------
    def fail_once(self, method: str, path: str, status: int, code: int, text: str = "fake") -> None:
        """Make the next call to this route template fail with this status and Discord code."""
        self.failures.append((method, path, status, code, text))

    def take(self) -> list[Call]:
        out, self.calls = self.calls, []
        return out

    def pack(self) -> None:
        """Keep messages as text from now on (see PackedMessages); they become read-only."""
        packed = PackedMessages()
        for mid, msg in self.messages.items():
            packed[mid] = msg
        self.messages = packed

    def forget(self, payload: dict[str, Any]) -> None:
        """Drop an answered interaction's context (a long benchmark must not grow forever)."""
        ctx = self.interactions.pop(int(payload["id"]), None)
        self.tokens.pop(payload["token"], None)
        if ctx is not None and ctx.original is not None and ctx.original != ctx.source:
            self.messages.pop(ctx.original, None)  # an ephemeral answer nobody clicks again
            self.audience.pop(ctx.original, None)

    def dm_of(self, user_id: int) -> int | None:
        return self.dm_channels.get(user_id)

    def messages_in(self, channel_id: int) -> list[int]:
        return [mid for mid, m in self.messages.items() if int(m["channel_id"]) == channel_id]

    # ---------- the fake server ----------
    async def http_request(self, route: Any, *, files: Any = None, form: Any = None,
                           **kwargs: Any) -> Any:
        payload = kwargs.get("json")
        if form:
            payload = discord.utils._from_json(form[0]["value"])
        attached = []
        for f in files or ():
            attached.append((f.filename, f.fp.read()))
            f.reset()
        return self.handle("rest", route, payload, kwargs.get("params"), attached)

    def _message(self, body: dict[str, Any], channel_id: int, audience: int | None,
                 mid: int | None = None) -> dict[str, Any]:
        old = self.messages.get(mid, {}) if mid else {}
        merged = {**old, **{k: v for k, v in body.items() if k in (
            "content", "embeds", "components", "flags")}}
        mid = mid or snowflake()
        msg = {"id": str(mid), "channel_id": str(channel_id), "author": self.bot_user,
               "content": merged.get("content") or "", "timestamp": ISO, "edited_timestamp": None,
               "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
               "attachments": [], "embeds": merged.get("embeds") or [], "pinned": False,
               "type": 0, "components": merged.get("components") or [],
               "flags": merged.get("flags") or 0}
        self.messages[mid] = msg
        self.audience.setdefault(mid, audience)
        return msg

    def _channel_audience(self, channel_id: int) -> int | None:
        return self.dm_owner.get(channel_id, PUBLIC)

    def handle(self, via: str, route: Any, payload: Any, params: Any,
               files: list[tuple[str, bytes]] | None = None) -> Any:
        call = Call(via, route.method, route.path, route.url, payload, params,
                    files=files or [])
        for i, (m, p, status, code, text) in enumerate(self.failures):
            if m == call.method and p == call.path:
                del self.failures[i]
                self._record(call)
                raise _error(status, code, text)
        try:
            return self._route(call, route)
        finally:  # refused calls are recorded too: they were made
            self._record(call)

    def _record(self, call: Call) -> None:
        if self.record:
            self.calls.append(call)
            self.log.append(call)
        if self.on_call is not None:
            self.on_call(call)

    def _route(self, call: Call, route: Any) -> Any:
        m, p, j = call.method, call.path, call.json or {}
        cid = getattr(route, "channel_id", None)
        if cid is not None and int(cid) in self.deleted_channels:
            raise _error(404, 10003, "Unknown Channel")  # any call in a deleted channel
        if (m, p) == ("GET", "/channels/{channel_id}"):
            return {"id": str(cid), "type": 0, "name": "cards", "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None}
        if (m, p) == ("GET", "/users/@me"):
            return self.bot_user
        if (m, p) == ("GET", "/oauth2/applications/@me"):
            return {"id": str(self.app_id), "name": "OhHell", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "x",
                    "owner": user_payload(1, "owner"), "flags": 0}
        if (m, p) == ("POST", "/users/@me/channels"):
            uid = int(j["recipient_id"])
            cid = self.dm_channels.setdefault(uid, snowflake())
            self.dm_owner[cid] = uid
            call.audience = uid
            return {"id": str(cid), "type": 1, "recipients": [user_payload(uid)]}
        if p in (CHANNEL_MESSAGES, CHANNEL_MESSAGE):
            return self._channel_message(call, route)
        if m == "PUT" and p.startswith("/applications/") and p.endswith("/commands"):
            self.synced[getattr(route, "guild_id", None)] = j
            return [{**c, "id": str(snowflake()), "application_id": str(self.app_id),
                     "version": "1"} for c in j]
        if p == CALLBACK and m == "POST":
            return self._callback(call, route)
        if p.startswith(FOLLOWUP):
            return self._webhook_message(call, route)
        raise NotImplementedError(f"the fake has no handler for {m} {p}")

    def _channel_message(self, call: Call, route: Any) -> Any:
        cid = int(route.channel_id)
        call.audience = self._channel_audience(cid)
        if call.method == "POST":
            owner = self.dm_owner.get(cid)
            if owner is not None and owner in self.closed_dms:
                raise _error(403, 50007, "Cannot send messages to this user")
            msg = self._message(call.json or {}, cid, call.audience)
            call.message_id = int(msg["id"])
            if call.files:
                self.attachments[call.message_id] = call.files
            return msg
        mid = int(call.url.rsplit("/", 1)[1])  # Route keeps no message_id attribute
        if mid not in self.messages:
            raise _error(404, 10008, "Unknown Message")
        if call.method == "DELETE":
            self.messages.pop(mid)
            return None
        call.message_id = mid
        call.audience = self.audience.get(mid, call.audience)
        if call.method == "GET":
            return self.messages[mid]
        if call.files or "attachments" in (call.json or {}):
            self.attachments[mid] = call.files  # an edit's attachments replace the old ones
        return self._message(call.json or {}, cid, call.audience, mid)

    def _callback(self, call: Call, route: Any) -> Any:
        iid = int(route.webhook_id)
        ctx = self.interactions[iid]
        call.interaction_id = iid
        ctx.responses += 1
        if ctx.responses > 1:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        call.interaction_user = ctx.user_id
        j = call.json
        itype, data = j["type"], j.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & 64)
        inter = {"id": str(iid), "type": 2, "response_message_loading": itype == 5,
                 "response_message_ephemeral": ephemeral}
        out: dict[str, Any] = {"interaction": inter}
        if itype in (4, 5):  # a new message (5: "thinking..." placeholder edited later)
            call.audience = ctx.user_id if ephemeral else PUBLIC
            msg = self._message(data if itype == 4 else {"flags": data.get("flags", 0)},
                                ctx.channel_id, call.audience)
            ctx.original, ctx.ephemeral_original = int(msg["id"]), ephemeral
            call.message_id = ctx.original
            inter["response_message_id"] = msg["id"]
            out["resource"] = {"type": itype, "message": msg}
        elif itype in (6, 7):  # update the message the component sits on
            assert ctx.source is not None, "UPDATE_MESSAGE outside a component interaction"
            ctx.original = ctx.source
            call.audience = self.audience.get(ctx.source, PUBLIC)
            call.message_id = ctx.source
            if itype == 7:
                msg = self._message(data, int(self.messages[ctx.source]["channel_id"]),
                                    call.audience, ctx.source)
                out["resource"] = {"type": itype, "message": msg}
        elif itype == 8:  # autocomplete choices: only the typing user sees them
            call.audience = ctx.user_id
        return out

    def _webhook_message(self, call: Call, route: Any) -> Any:
        iid = self.tokens[route.webhook_token]
        ctx = self.interactions[iid]
        call.interaction_user, call.interaction_id = ctx.user_id, iid
        if ctx.responses == 0:
            raise _error(404, 10015, "Unknown Webhook (the interaction was never answered)")
        j = call.json or {}
        if call.path == FOLLOWUP and call.method == "POST":
            call.audience = ctx.user_id if j.get("flags", 0) & 64 else PUBLIC
            msg = self._message(j, ctx.channel_id, call.audience)
            call.message_id = int(msg["id"])
            return msg
        mid = ctx.original if call.path == ORIGINAL else int(call.url.rsplit("/", 1)[1])
        assert mid is not None and mid in self.messages, "no such interaction message"
        call.audience, call.message_id = self.audience.get(mid, PUBLIC), mid
        if call.method == "DELETE":
            self.messages.pop(mid)
            return None
        if call.method == "GET":
            return self.messages[mid]
        return self._message(j, int(self.messages[mid]["channel_id"]), call.audience, mid)


def _error(status: int, code: int, text: str) -> discord.HTTPException:
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return cls(FakeResponse(status), {"code": code, "message": text})  # type: ignore[arg-type]


class _ErrorCapture(logging.Handler):
    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)


@dataclass
class Member:
    """A guild member the tests act as."""

    id: int
    name: str
    permissions: discord.Permissions = field(default_factory=lambda: EVERYONE_PERMS)
    locale: str = "en-US"
    """Their Discord client's language, sent with each interaction ("no" is Norwegian)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class Harness:
    """Feeds raw gateway payloads to a real bot and answers its HTTP calls in memory."""

    def __init__(self, bot: discord.Client, *, guild_id: int = 10,
                 fake: FakeDiscord | None = None) -> None:
        """`fake`: share another harness's Discord (a restarted bot sees the same messages)."""
        self.bot, self.fake = bot, fake or FakeDiscord()
        self.state = bot._connection
        bot.http.request = self._request  # type: ignore[method-assign]
        self.http_closed = False
        http_close = bot.http.close

        async def close_http() -> None:  # from here on, like aiohttp, refuse every request
            self.http_closed = True
            await http_close()

        bot.http.close = close_http  # type: ignore[method-assign]
        self.adapter = FakeWebhookAdapter(self.fake)
        self.guild_id = guild_id
        self._guild_locale = "en-US"
        self.members: dict[int, Member] = {}
        self._handler = _ErrorCapture(self.fake.errors)
        self.guild: discord.Guild

    @property
    def guild_locale(self) -> str:
        """The server's preferred language (Discord's `preferred_locale`): in its GUILD_CREATE,
        and sent as `guild_locale` with each interaction in it."""
        return self._guild_locale

    @guild_locale.setter
    def guild_locale(self, locale: str) -> None:
        """A server manager changes it: Discord sends GUILD_UPDATE (once the guild exists)."""
        self._guild_locale = locale
        if hasattr(self, "guild"):  # GUILD_UPDATE carries no channels or members
            update = {k: v for k, v in self._guild_data().items()
                      if k not in ("channels", "members")}
            self.state.parse_guild_update(update)  # type: ignore[arg-type]

    def _guild_data(self) -> dict[str, Any]:
        return {"id": str(self.guild_id), "name": "Card Room", "icon": None, "owner_id": "1",
                "preferred_locale": self._guild_locale,
                "roles": [{"id": str(self.guild_id), "name": "@everyone",
                           "permissions": str(EVERYONE_PERMS.value), "position": 0, "color": 0,
                           "hoist": False, "managed": False, "mentionable": False}],
                "channels": [], "members": [], "emojis": [], "features": [],
                "member_count": 2}

    async def _request(self, route: Any, **kwargs: Any) -> Any:
        """The bot's REST calls go to the fake until the bot closes its HTTP session."""
        if self.http_closed:
            raise RuntimeError("Session is closed")  # what aiohttp says after close()
        return await self.fake.http_request(route, **kwargs)

    async def start(self, channels: int = 1, channel_ids: list[int] | None = None) -> Harness:
        """Log in (which runs setup_hook) and make a guild with `channels` text channels
        (or with these channel ids, to restart a bot where another one was)."""
        wh_async.async_context.set(self.adapter)  # tasks created later inherit this context
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self._handler)
        await self.bot.login("fake-token")
        self.guild = discord.Guild(data=self._guild_data(),  # type: ignore[arg-type]
                                   state=self.state)
        self.state._add_guild(self.guild)
        self.channels: list[int] = [self.add_channel(cid) for cid in channel_ids or []] or [
            self.add_channel() for _ in range(channels)]
        self.fake.take()
        return self

    @property
    def channel(self) -> int:
        return self.channels[0]

    def add_channel(self, cid: int | None = None) -> int:
        cid = cid or snowflake()
        data = {"id": str(cid), "type": 0, "name": f"cards-{cid % 10_000}", "position": 0,
                "permission_overwrites": [], "guild_id": str(self.guild_id)}
        self.guild._add_channel(discord.TextChannel(state=self.state, guild=self.guild,
                                                    data=data))  # type: ignore[arg-type]
        return cid

    def member(self, name: str, *, admin: bool = False, locale: str = "en-US") -> Member:
        m = Member(snowflake(), name, ADMIN_PERMS if admin else EVERYONE_PERMS, locale)
        self.members[m.id] = m
        return m

    async def close(self) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).removeHandler(self._handler)
        await self.bot.close()

    # ---------- payload builders ----------
    def _base(self, itype: int, user: Member, data: dict[str, Any], channel_id: int | None,
              source: int | None = None) -> dict[str, Any]:
        iid, token = snowflake(), f"tok{snowflake()}"
        cid = channel_id if channel_id is not None else self.channel
        dm_owner = self.fake.dm_owner.get(cid)
        p: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.fake.app_id), "type": itype,
            "token": token, "version": 1, "attachment_size_limit": 8_388_608, "locale": user.locale,
            "app_permissions": str(ADMIN_PERMS.value), "data": data, "channel_id": str(cid),
            "authorizing_integration_owners": {"0": str(self.guild_id)}}
        u = user_payload(user.id, user.name)
        if dm_owner is None:
            p["channel"] = {"id": str(cid), "type": 0, "guild_id": str(self.guild_id),
                            "name": f"cards-{cid % 10_000}", "position": 0,
                            "permission_overwrites": [], "nsfw": False, "parent_id": None}
            p.update(guild_id=str(self.guild_id), guild_locale=self.guild_locale, context=0,
                     member={"user": u, "roles": [], "joined_at": ISO, "deaf": False,
                             "mute": False, "flags": 0,
                             "permissions": str(user.permissions.value)})
        else:
            assert dm_owner == user.id, "only the DM's owner can click in it"
            p["channel"] = {"id": str(cid), "type": 1, "recipients": [u]}
            p.update(user=u, context=1)
        self.fake.interactions[iid] = _Interaction(user.id, cid, source)
        self.fake.tokens[token] = iid
        return p

    def _command(self, qualified: str) -> app_commands.Command[Any, ..., Any]:
        parts = qualified.split()
        node: Any = self.bot.tree.get_command(parts[0])
        assert node is not None, f"no such command /{parts[0]}"
        for sub in parts[1:]:
            node = node.get_command(sub)
            assert node is not None, f"no such subcommand {sub} in /{qualified}"
        assert isinstance(node, app_commands.Command), f"/{qualified} is a group"
        return node

    def _option(self, cmd: app_commands.Command[Any, ..., Any], key: str, value: Any,
                resolved: dict[str, Any]) -> dict[str, Any]:
        """Validate one option value as Discord's client would, and encode it."""
        prm = cmd._params.get(key)
        assert prm is not None, f"/{cmd.qualified_name} has no option {key}"
        t = prm.type
        if t is discord.AppCommandOptionType.user:
            assert isinstance(value, Member), f"{key} takes a Member"
            resolved.setdefault("users", {})[str(value.id)] = user_payload(value.id, value.name)
            resolved.setdefault("members", {})[str(value.id)] = {
                "roles": [], "joined_at": ISO, "deaf": False, "mute": False, "flags": 0,
                "permissions": str(value.permissions.value)}
            return {"name": prm.display_name, "type": t.value, "value": str(value.id)}
        if t is discord.AppCommandOptionType.integer:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"Discord client would refuse {key}={value!r}: not an integer")
        elif t is discord.AppCommandOptionType.number:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"Discord client would refuse {key}={value!r}: not a number")
        elif t is discord.AppCommandOptionType.boolean:
            if not isinstance(value, bool):
                raise ValueError(f"Discord client would refuse {key}={value!r}: not a boolean")
        elif t is discord.AppCommandOptionType.string:
            if not isinstance(value, str):
                raise ValueError(f"Discord client would refuse {key}={value!r}: not text")
            lo, hi = prm.min_value or 0, prm.max_value or 6000
            if not lo <= len(value) <= hi:
                raise ValueError(f"Discord client would refuse {key}: length not in {lo}..{hi}")
        numeric = t in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)
        if numeric and ((prm.min_value is not None and value < prm.min_value) or (
                prm.max_value is not None and value > prm.max_value)):
                raise ValueError(f"Discord client would refuse {key}={value!r}: "
                                 f"range {prm.min_value}..{prm.max_value}")
        if prm.choices and value not in [c.value for c in prm.choices]:
            raise ValueError(f"Discord client would refuse {key}={value!r}: not one of the choices")
        return {"name": prm.display_name, "type": t.value, "value": value}

    def _wrap(self, cmd: app_commands.Command[Any, ..., Any],
              leaf: list[dict[str, Any]]) -> dict[str, Any]:
        node: Any = cmd
        options = leaf
        while node.parent is not None:
            kind = 1 if isinstance(node, app_commands.Command) else 2
            options = [{"name": node.name, "type": kind, "options": options}]
            node = node.parent
        return {"id": str(snowflake()), "name": node.name, "type": 1, "options": options}

    def _check_permissions(self, cmd: app_commands.Command[Any, ..., Any], user: Member) -> None:
        """Discord hides a command whose default_member_permissions the member lacks; only the
        top-level command carries them (discord.py does not sync a subcommand's)."""
        root: Any = cmd.root_parent or cmd
        need = root.default_permissions
        perms = user.permissions
        if need is not None and not perms >= need and not perms.administrator:
            raise PermissionError(f"Discord hides /{root.name} from {user.name}")

    def slash(self, qualified: str, user: Member, *, channel: int | None = None,
              **opts: Any) -> dict[str, Any]:
        """A CHAT_INPUT payload for a *registered* command, validated like Discord's client."""
        cmd = self._command(qualified)
        self._check_permissions(cmd, user)
        for k, prm in cmd._params.items():
            if prm.required and k not in opts:
                raise ValueError(f"Discord client would refuse: missing required option {k}")
        resolved: dict[str, Any] = {}
        leaf = [self._option(cmd, k, v, resolved) for k, v in opts.items()]
        data = self._wrap(cmd, leaf)
        if resolved:
            data["resolved"] = resolved
        return self._base(2, user, data, channel)

    def autocomplete(self, qualified: str, user: Member, focused: str, typed: str, *,
                     channel: int | None = None, **opts: Any) -> dict[str, Any]:
        """An APPLICATION_COMMAND_AUTOCOMPLETE payload: `focused` is being typed as `typed`."""
        cmd = self._command(qualified)
        resolved: dict[str, Any] = {}
        leaf = [self._option(cmd, k, v, resolved) for k, v in opts.items()]
        prm = cmd._params[focused]
        assert prm.autocomplete, f"{focused} has no autocomplete"
        leaf.append({"name": prm.display_name, "type": prm.type.value, "value": typed,
                     "focused": True})
        return self._base(4, user, self._wrap(cmd, leaf), channel)

    def _component(self, message_id: int, pick: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        msg = self.fake.messages[message_id]
        for row in msg["components"]:
            for c in row.get("components", []):
                if pick(c):
                    return c
        raise LookupError(f"no such component on message {message_id}")

    def components(self, message_id: int) -> list[dict[str, Any]]:
        """Every button and select on a message, as the bot last sent it."""
        msg = self.fake.messages[message_id]
        return [c for row in msg["components"] for c in row.get("components", [])]

    def click(self, message_id: int, label: str | None = None, user: Member | None = None, *,
              custom_id: str | None = None) -> dict[str, Any]:
        """Click a button *as it appears in the payload the bot sent* (refused when disabled)."""
        assert user is not None
        btn = self._component(message_id, lambda c: c["type"] == 2 and (
            c.get("custom_id") == custom_id if custom_id else c.get("label") == label))
        if btn.get("disabled"):
            raise ValueError(f"Discord client would not click the disabled button {label!r}")
        return self._from_message(message_id, user, {"custom_id": btn["custom_id"],
                                                     "component_type": 2})

    def select(self, message_id: int, values: list[str], user: Member, *,
               custom_id: str | None = None) -> dict[str, Any]:
        """Pick options in a select menu, checked against what the menu offers."""
        sel = self._component(message_id, lambda c: c["type"] == 3 and (
            custom_id is None or c.get("custom_id") == custom_id))
        allowed = {o["value"] for o in sel.get("options", [])}
        if not set(values) <= allowed:
            raise ValueError(f"{values} are not offered by the select")
        lo, hi = sel.get("min_values", 1), sel.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"the select takes {lo}..{hi} values")
        return self._from_message(message_id, user, {"custom_id": sel["custom_id"],
                                                     "component_type": 3, "values": values})

    def _from_message(self, message_id: int, user: Member, data: dict[str, Any]) -> dict[str, Any]:
        msg = self.fake.messages[message_id]
        aud = self.fake.audience.get(message_id)
        assert aud in (PUBLIC, user.id), "this user cannot see that message"
        p = self._base(3, user, data, int(msg["channel_id"]), source=message_id)
        p["message"] = msg
        return p

    # ---------- dispatch through the real gateway parser ----------
    async def dispatch(self, payload: dict[str, Any],
                       event: str = "INTERACTION_CREATE") -> list[Call]:
        """Feed one gateway event to the real parser, let everything it started finish."""
        wh_async.async_context.set(self.adapter)  # fixture contexts may not reach the test
        self.state.parsers[event](payload)
        await drain()
        return self.fake.take()

    def fire(self, payload: dict[str, Any], event: str = "INTERACTION_CREATE") -> None:
        """Feed one gateway event and return at once (a benchmark waits for what it needs)."""
        wh_async.async_context.set(self.adapter)
        self.state.parsers[event](payload)

    async def dispatch_many(self, payloads: list[dict[str, Any]]) -> list[Call]:
        """Several interactions arriving together (a double click): parse all, then drain."""
        wh_async.async_context.set(self.adapter)
        for p in payloads:
            self.state.parsers["INTERACTION_CREATE"](p)
        await drain()
        return self.fake.take()

    async def send(self, payload: dict[str, Any]) -> list[Call]:
        """Dispatch an interaction and insist it was answered exactly once."""
        calls = await self.dispatch(payload)
        iid = int(payload["id"])
        answered = self.fake.interactions[iid].responses
        assert answered == 1, f"interaction answered {answered} times: {calls}"
        return calls


def _idle(task: asyncio.Task[Any]) -> bool:
    """True for a task parked on a long sleep or an event: a timer, not unfinished work."""
    coro: Any = task.get_coro()
    while getattr(coro, "cr_await", None) is not None and hasattr(coro.cr_await, "cr_code"):
        coro = coro.cr_await  # down to the innermost coroutine
    code, frame = getattr(coro, "cr_code", None), getattr(coro, "cr_frame", None)
    if frame is None:
        return False
    if code in _TIMED:
        delay = frame.f_locals.get(_TIMED[code], 0)
        return isinstance(delay, int | float) and delay >= 0.25
    return code in _IDLE_WAITS


_TIMED = {asyncio.sleep.__code__: "delay", asyncio.wait_for.__code__: "timeout"}
_IDLE_WAITS = {asyncio.Event.wait.__code__, asyncio.Condition.wait.__code__,
               asyncio.Queue.get.__code__}


def register_idle(func: Any) -> None:
    """Treat a task parked in this coroutine function as idle (e.g. a manual clock's sleep)."""
    _IDLE_WAITS.add(func.__code__)


async def drain(rounds: int = 10_000) -> None:
    """Wait until every task is finished or parked on a timer (no sleeping, no timing).

    A busy task is waited for only briefly at a time: it may park on a timer rather than
    finish (a task that has not started yet looks busy, then sleeps on the manual clock), and
    is then idle. Only a task busy for 10 s in all is reported as stuck."""
    me = asyncio.current_task()
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 10
    for _ in range(rounds):
        for _ in range(3):
            await asyncio.sleep(0)
        busy = [t for t in asyncio.all_tasks() if t is not me and not t.done() and not _idle(t)]
        if not busy:
            return
        if loop.time() > give_up:
            raise AssertionError(f"tasks stuck for 10 s: {busy}")
        await asyncio.wait(busy, return_when=asyncio.FIRST_COMPLETED, timeout=0.05)
    raise AssertionError("tasks never settled")
