"""Discord's documented limits that discord.py does not enforce before sending.

Why: Discord rejects an oversized sync or message with a 400 at run time, in production, after the
tests passed. Values from discord-api-docs (Application Commands, Message, Embed, Components).
Our command and option names are lowercase ASCII, so a plain `re` pattern is enough (Discord allows
more scripts; we do not use them).
"""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUB = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def _chars(o: dict[str, Any]) -> int:
    """Name + description + choice names/values, recursively (8000 per top-level command)."""
    n = len(o.get("name", "")) + len(o.get("description", ""))
    n += sum(len(c["name"]) + len(str(c["value"])) for c in o.get("choices") or [])
    return n + sum(_chars(x) for x in o.get("options") or [])


def check_command(d: dict[str, Any], errs: list[str], path: str = "", depth: int = 0) -> list[str]:
    p = f"{path}/{d['name']}"
    if not NAME.match(d["name"]):
        errs.append(f"{p}: name must be 1-32 lowercase letters, digits, - or _")
    if not 1 <= len(d.get("description", "")) <= 100:
        errs.append(f"{p}: description must be 1-100 characters")
    opts = d.get("options") or []
    if len(opts) > 25:
        errs.append(f"{p}: {len(opts)} options > 25")
    names = [o["name"] for o in opts]
    if len(names) != len(set(names)):
        errs.append(f"{p}: duplicate option names")
    if any(o["type"] in SUB for o in opts) and not all(o["type"] in SUB for o in opts):
        errs.append(f"{p}: subcommands mixed with options")
    seen_optional = False
    for o in opts:
        if o["type"] in SUB:
            if depth >= 2 or (o["type"] == 2 and depth >= 1):
                errs.append(f"{p}/{o['name']}: nested too deep")
            check_command(o, errs, p, depth + 1)
            continue
        q = f"{p}/{o['name']}"
        if not NAME.match(o["name"]):
            errs.append(f"{q}: bad option name")
        if not 1 <= len(o.get("description", "")) <= 100:
            errs.append(f"{q}: description must be 1-100 characters")
        if o.get("required") and seen_optional:
            errs.append(f"{q}: required option after an optional one")
        seen_optional |= not o.get("required")
        choices = o.get("choices") or []
        if len(choices) > 25:
            errs.append(f"{q}: {len(choices)} choices > 25")
        if choices and o.get("autocomplete"):
            errs.append(f"{q}: choices and autocomplete are exclusive")
        for c in choices:
            if not 1 <= len(c["name"]) <= 100:
                errs.append(f"{q}: choice name must be 1-100 characters")
            if isinstance(c["value"], str) and not 1 <= len(c["value"]) <= 100:
                errs.append(f"{q}: choice value must be 1-100 characters")
        for k in ("min_length", "max_length"):
            if k in o and not 0 <= o[k] <= 6000:
                errs.append(f"{q}: {k} must be 0-6000")
    if depth == 0 and _chars(d) > 8000:
        errs.append(f"{p}: more than 8000 characters in names, descriptions and choices")
    return errs


def _locales(o: dict[str, Any]) -> set[str]:
    found = set(o.get("name_localizations") or {}) | set(o.get("description_localizations") or {})
    for c in o.get("choices") or []:
        found |= set(c.get("name_localizations") or {})
    for x in o.get("options") or []:
        found |= _locales(x)
    return found


def localized(o: dict[str, Any], locale: str) -> dict[str, Any]:
    """The command as a client in `locale` sees it (its translations where it has them): each
    locale must keep within the limits on its own (Norwegian strings are longer)."""
    out = dict(o)
    out["name"] = (o.get("name_localizations") or {}).get(locale, o["name"])
    if "description" in o:
        out["description"] = (o.get("description_localizations") or {}).get(locale,
                                                                              o["description"])
    if o.get("choices"):
        out["choices"] = [{**c, "name": (c.get("name_localizations") or {}).get(locale, c["name"])}
                          for c in o["choices"]]
    if o.get("options"):
        out["options"] = [localized(x, locale) for x in o["options"]]
    return out


def check_sync_payload(payload: list[dict[str, Any]]) -> list[str]:
    """Check the JSON body of a PUT .../commands (what tree.sync sends), in every locale it
    carries translations for."""
    errs: list[str] = []
    for locale in sorted(set().union(*(_locales(c) for c in payload))):
        errs += [f"[{locale}] {e}" for e in _check_payload([localized(c, locale)
                                                            for c in payload])]
    return errs + _check_payload(payload)


def _check_payload(payload: list[dict[str, Any]]) -> list[str]:
    errs: list[str] = []
    slash = [c for c in payload if c.get("type", 1) == 1]
    if len(slash) > 100:
        errs.append("more than 100 slash commands in one scope")
    names = [c["name"] for c in slash]
    if len(names) != len(set(names)):
        errs.append("duplicate command names")
    for c in slash:
        check_command(c, errs)
    return errs


def check_tree(tree: app_commands.CommandTree[Any]) -> list[str]:
    return check_sync_payload([c.to_dict(tree) for c in tree._get_all_commands()])


EMBED_LIMITS = (("title", 256), ("description", 4096))


def check_message(body: dict[str, Any]) -> list[str]:
    """Check one message body (send, edit, interaction response or followup)."""
    errs: list[str] = []
    if len(body.get("content") or "") > 2000:
        errs.append("content > 2000 characters")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errs.append("more than 10 embeds")
    total = 0
    for e in embeds:
        for k, lim in EMBED_LIMITS:
            if len(e.get(k) or "") > lim:
                errs.append(f"embed {k} > {lim}")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.append("more than 25 embed fields")
        for f in fields:
            if not 1 <= len(f["name"]) <= 256 or not 1 <= len(f["value"]) <= 1024:
                errs.append(f"embed field {f['name'][:20]!r}: name 1-256, value 1-1024")
        footer = (e.get("footer") or {}).get("text", "")
        author = (e.get("author") or {}).get("name", "")
        if len(footer) > 2048:
            errs.append("embed footer > 2048")
        if len(author) > 256:
            errs.append("embed author > 256")
        total += len(e.get("title") or "") + len(e.get("description") or "") + len(footer)
        total += len(author) + sum(len(f["name"]) + len(f["value"]) for f in fields)
    if total > 6000:
        errs.append("embeds together > 6000 characters")
    rows = body.get("components") or []
    if len(rows) > 5:
        errs.append("more than 5 action rows")
    ids: list[str] = []
    for r in rows:
        items = r.get("components", [])
        if r.get("type") != 1:
            errs.append("top-level component is not an action row")
        if not 1 <= len(items) <= 5:
            errs.append("an action row holds 1-5 components")
        if any(c["type"] != 2 for c in items) and len(items) > 1:
            errs.append("a select must be alone in its row")
        for c in items:
            cid = c.get("custom_id")
            if cid is not None:
                ids.append(cid)
                if not 1 <= len(cid) <= 100:
                    errs.append(f"custom_id {cid[:30]!r} not 1-100 characters")
            if c["type"] == 2:
                if len(c.get("label") or "") > 80:
                    errs.append("button label > 80")
                if not c.get("label") and not c.get("emoji"):
                    errs.append("button with neither label nor emoji")
            if c["type"] == 3:
                opts = c.get("options", [])
                if not 1 <= len(opts) <= 25:
                    errs.append("a select holds 1-25 options")
                if len(c.get("placeholder") or "") > 150:
                    errs.append("select placeholder > 150")
                lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                if not (0 <= lo <= hi <= 25 and hi <= max(len(opts), 1)):
                    errs.append("select min/max values out of range")
                for so in opts:
                    if not 1 <= len(so["label"]) <= 100 or not 1 <= len(so["value"]) <= 100:
                        errs.append("select option label/value 1-100")
                    if len(so.get("description") or "") > 100:
                        errs.append("select option description > 100")
    if len(ids) != len(set(ids)):
        errs.append("duplicate custom_id in one message")
    return errs
