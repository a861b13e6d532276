"""Faults for the offline Discord: failing REST responses with Discord's real error bodies,
dropped connections, and the gateway events of deleted channels, threads and servers and of a
lost gateway connection.

A REST fault is served to discord.py's REAL `HTTPClient.request` (through a fake aiohttp
session), so discord.py itself decides what reaches the bot, as in production: it retries 500,
502, 504 (and 524) up to 5 tries and waits out a 429, then raises; 503, 403, 404 and a dropped
connection raise at once. Calls without a fault skip that loop and go straight to the fake, as
the harness always did. discord.py's own waits between its tries are skipped (they happen inside
one REST call); the bot's own backoff runs on the test's manual clock.

Every attempt discord.py makes is recorded in `fake.log` with `Call.status` set (the fake status
it got) so a test can count tries.

    faults = Faults(h)
    faults.fail("PATCH", CHANNEL_MESSAGE, 500, times=5)   # outlasts discord.py's 5 tries
    faults.fail("PATCH", CHANNEL_MESSAGE, 404, 10008)     # Unknown Message
    faults.drop("POST", CHANNEL_MESSAGES)                 # the connection drops
    faults.rate_limited("PATCH", CHANNEL_MESSAGE, times=5)
    await faults.channel_delete(channel_id)               # CHANNEL_DELETE through the parser
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import types
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import discord.http
from multidict import CIMultiDict

from tests.discord.harness import Call, Harness, drain, snowflake

MESSAGES = {
    500: (0, "500: Internal Server Error"),
    502: (0, "502: Bad Gateway"),
    503: (0, "503: Service Unavailable"),
    504: (0, "504: Gateway Timeout"),
    429: (0, "You are being rate limited."),
    403: (50013, "Missing Permissions"),
    404: (10008, "Unknown Message"),
}
CODES = {
    50001: "Missing Access",
    50007: "Cannot send messages to this user",
    50013: "Missing Permissions",
    10003: "Unknown Channel",
    10004: "Unknown Guild",
    10008: "Unknown Message",
    50083: "Thread is archived",
}
DROPPED = -1
"""`Fault.status` of a dropped connection."""

_route: contextvars.ContextVar[Any] = contextvars.ContextVar("faulted_route")


@dataclass
class Fault:
    method: str
    path: str
    status: int
    code: int
    times: int
    retry_after: float = 0.0
    channel_id: int | None = None  # None: any channel

    def matches(self, route: Any) -> bool:
        return (route.method == self.method and route.path == self.path and self.times > 0
                and (self.channel_id is None or str(route.channel_id) == str(self.channel_id)))


class _Response:
    """What discord.py reads of an aiohttp response."""

    def __init__(self, status: int, body: Any, headers: dict[str, str]) -> None:
        self.status, self.reason = status, "fake"
        self._text = json.dumps(body)
        self.headers = CIMultiDict({"content-type": "application/json", **headers})

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Attempt:
    def __init__(self, run: Any) -> None:
        self.run = run

    async def __aenter__(self) -> _Response:
        return await self.run()  # type: ignore[no-any-return]

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    """Stands in for discord.py's aiohttp session, for the faulted calls only."""

    def __init__(self, faults: Faults, real: Any) -> None:
        self.faults, self.real = faults, real

    @property
    def closed(self) -> bool:
        return bool(getattr(self.real, "closed", True))

    async def close(self) -> None:
        if self.real is not None:
            await self.real.close()

    def request(self, method: str, url: str, **kwargs: Any) -> _Attempt:
        return _Attempt(lambda: self.faults._attempt(_route.get()))

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("no gateway in the offline harness")


class _NoWaitAsyncio(types.ModuleType):
    """discord.http's view of asyncio with its retry waits skipped."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        await asyncio.sleep(0)
        return result


class Faults:
    """Scripted faults on one harness's Discord (see the module docstring)."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.faults: list[Fault] = []
        http = h.bot.http
        self._plain = http.request  # the harness's straight-to-the-fake request
        self._session = _Session(self, getattr(http, "_HTTPClient__session", None))
        http._HTTPClient__session = self._session  # type: ignore[attr-defined]
        http.request = self._request  # type: ignore[method-assign]
        self._kwargs: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("kw")
        if not isinstance(discord.http.asyncio, _NoWaitAsyncio):
            discord.http.asyncio = _NoWaitAsyncio("asyncio")  # type: ignore[attr-defined]

    # ---- scripting -------------------------------------------------------------------------

    def fail(self, method: str, path: str, status: int, code: int | None = None, *,
             times: int = 1, channel: int | None = None) -> None:
        """The next `times` attempts at this route (in `channel`, or any) answer `status`
        with Discord's error body (`code`: its JSON error code; default the usual one)."""
        self.faults.append(Fault(method, path, status,
                                 MESSAGES.get(status, (0, ""))[0] if code is None else code,
                                 times, channel_id=channel))

    def rate_limited(self, method: str, path: str, *, times: int = 5,
                     retry_after: float = 0.0, channel: int | None = None) -> None:
        """`times` 429 answers (5 outlast discord.py's tries: then it raises)."""
        self.faults.append(Fault(method, path, 429, 0, times, retry_after, channel))

    def drop(self, method: str, path: str, *, times: int = 1,
             channel: int | None = None) -> None:
        """The connection drops during the next `times` attempts (aiohttp's
        ServerDisconnectedError: discord.py does not retry it)."""
        self.faults.append(Fault(method, path, DROPPED, 0, times, channel_id=channel))

    def clear(self) -> None:
        self.faults.clear()

    def pending(self) -> int:
        """Faulty answers not served yet."""
        return sum(f.times for f in self.faults)

    # ---- the REST side ---------------------------------------------------------------------

    def _match(self, route: Any) -> Fault | None:
        return next((f for f in self.faults if f.matches(route)), None)

    async def _request(self, route: Any, **kwargs: Any) -> Any:
        if self._match(route) is None:
            return await self._plain(route, **kwargs)
        token = _route.set(route)
        saved = self._kwargs.set(dict(kwargs))
        try:  # discord.py's real request loop, with its retries, on our session
            return await discord.http.HTTPClient.request(self.h.bot.http, route, **kwargs)
        finally:
            _route.reset(token)
            self._kwargs.reset(saved)

    async def _attempt(self, route: Any) -> _Response:
        fault = self._match(route)
        if fault is None:  # the fault is used up: the fake answers for real
            data = await self._plain(route, **self._kwargs.get())
            return _Response(200, data, {})
        fault.times -= 1
        if fault.times == 0:
            self.faults.remove(fault)
        self._record(route, fault.status)
        if fault.status == DROPPED:
            raise aiohttp.ServerDisconnectedError()
        if fault.status == 429:
            return _Response(429, {"message": MESSAGES[429][1], "retry_after": fault.retry_after,
                                   "global": False}, {"Via": "1.1 google"})
        message = CODES.get(fault.code) or MESSAGES.get(fault.status, (0, "error"))[1]
        return _Response(fault.status, {"message": message, "code": fault.code}, {})

    def _record(self, route: Any, status: int) -> None:
        call = Call("rest", route.method, route.path, route.url, self._kwargs.get().get("json"))
        call.status = status  # type: ignore[attr-defined]
        fake = self.h.fake
        if fake.record:
            fake.calls.append(call)
            fake.log.append(call)

    # ---- the gateway side ------------------------------------------------------------------

    async def channel_delete(self, channel_id: int) -> None:
        """CHANNEL_DELETE for a text channel of the harness's guild."""
        await self.h.dispatch({"id": str(channel_id), "type": 0, "guild_id": str(self.h.guild_id),
                               "name": f"cards-{channel_id % 10_000}", "position": 0,
                               "permission_overwrites": [], "nsfw": False, "parent_id": None},
                              "CHANNEL_DELETE")

    async def thread_create(self, parent_id: int) -> int:
        """THREAD_CREATE: a public thread under `parent_id`; returns its id."""
        tid = snowflake()
        await self.h.dispatch({
            "id": str(tid), "type": 11, "guild_id": str(self.h.guild_id),
            "parent_id": str(parent_id), "name": "a game", "owner_id": "1",
            "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                "archive_timestamp": "2025-01-01T00:00:00.000000+00:00",
                                "locked": False}, "newly_created": True}, "THREAD_CREATE")
        return tid

    async def thread_delete(self, thread_id: int, parent_id: int) -> None:
        """THREAD_DELETE as Discord sends it (id, guild, parent, type only)."""
        await self.h.dispatch({"id": str(thread_id), "guild_id": str(self.h.guild_id),
                               "parent_id": str(parent_id), "type": 11}, "THREAD_DELETE")

    async def guild_delete(self, *, unavailable: bool) -> None:
        """GUILD_DELETE: `unavailable=True` is an outage, without it the bot was removed."""
        payload: dict[str, Any] = {"id": str(self.h.guild_id)}
        if unavailable:
            payload["unavailable"] = True
        await self.h.dispatch(payload, "GUILD_DELETE")

    async def guild_available(self) -> None:
        """GUILD_CREATE for the harness's guild after an outage (discord.py: on_guild_available)."""
        h = self.h
        everyone = {"id": str(h.guild_id), "name": "@everyone",
                    "permissions": str(h.guild.default_role.permissions.value), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False}
        channels = [{"id": str(c.id), "type": 0, "name": c.name, "position": 0,
                     "permission_overwrites": [], "guild_id": str(h.guild_id)}
                    for c in h.guild.text_channels]
        await h.dispatch({"id": str(h.guild_id), "name": "Card Room", "icon": None,
                          "owner_id": "1", "roles": [everyone], "channels": channels,
                          "members": [], "emojis": [], "features": [], "member_count": 2,
                          "unavailable": False, "threads": [], "stickers": [],
                          "joined_at": "2025-01-01T00:00:00.000000+00:00", "large": False},
                         "GUILD_CREATE")

    async def disconnect(self) -> None:
        """The gateway connection is lost: discord.py's Client.connect dispatches it."""
        self.h.bot.dispatch("disconnect")
        await drain()

    async def resumed(self) -> None:
        """The gateway resumed the session (RESUMED through its parser)."""
        await self.h.dispatch({}, "RESUMED")

    async def ready(self) -> None:
        """A new session after a reconnect that could not resume (on_ready)."""
        self.h.bot.dispatch("ready")
        await drain()
