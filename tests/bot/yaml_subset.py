"""Just enough YAML to read compose.yaml without a YAML library: block mappings and lists,
quoted and plain scalars, JSON-style flow lists, comments, and `&anchor` / `<<: *anchor`."""

from __future__ import annotations

import json
from typing import Any


def load(text: str) -> Any:
    """The document as dicts, lists and strings (None for an empty value)."""
    lines = [(len(raw) - len(raw.lstrip(" ")), _strip_comment(raw.strip()))
             for raw in text.splitlines()]
    lines = [(indent, body) for indent, body in lines if body]
    value, end = _block(lines, 0, lines[0][0] if lines else 0, {})
    assert end == len(lines), f"could not read line {end + 1}: {lines[end][1]!r}"
    return value


def _strip_comment(body: str) -> str:
    if body.startswith("#"):
        return ""
    quote = None
    for i, char in enumerate(body):
        if char in "\"'" and quote in (None, char):
            quote = None if quote == char else char
        elif char == "#" and quote is None and i > 0 and body[i - 1] == " ":
            return body[:i].rstrip()
    return body


def _block(lines: list[tuple[int, str]], i: int, indent: int,
           anchors: dict[str, Any]) -> tuple[Any, int]:
    if lines[i][1].startswith("- "):
        items: list[Any] = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            items.append(_scalar(lines[i][1][2:].strip()))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        key, _, rest = lines[i][1].partition(":")
        rest = rest.strip()
        i += 1
        anchor = None
        if rest.startswith("&"):
            anchor, rest = rest[1:], ""
        if key == "<<":
            assert rest.startswith("*"), rest
            mapping.update(anchors[rest[1:]])
            continue
        if rest:
            value = anchors[rest[1:]] if rest.startswith("*") else _scalar(rest)
        elif i < len(lines) and lines[i][0] > indent:
            value, i = _block(lines, i, lines[i][0], anchors)
        else:
            value = None
        if anchor is not None:
            anchors[anchor] = value
        mapping[_scalar(key)] = value
    return mapping, i


def _scalar(text: str) -> Any:
    if text.startswith(("[", '"')):
        return json.loads(text)
    if text.startswith("'") and text.endswith("'"):
        return text[1:-1]
    return text
