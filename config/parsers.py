"""A JSON parser for the API that refuses hostile nesting with a 400.

Python's decoder recurses once per nesting level: a body of about a thousand
``[`` raised RecursionError, a 500 on every endpoint. Bodies nested deeper than
``MAX_JSON_DEPTH`` are refused outright (no endpoint takes more than a few
levels), and so is anything the decoder itself cannot follow.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32


def json_depth_exceeds(value: object, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def loads_bounded(text: str | bytes, *, limit: int | None = None) -> object:
    """``json.loads`` that raises ValueError for too-deep or undecodable input."""
    bound = limit or int(getattr(settings, "API_MAX_JSON_DEPTH", MAX_JSON_DEPTH))
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise ValueError(f"JSON nested deeper than {bound} levels") from exc
    if json_depth_exceeds(value, bound):
        raise ValueError(f"JSON nested deeper than {bound} levels")
    return value


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a nesting limit; violations are a clear 400."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = stream.read() if stream is not None else b""
            return loads_bounded(data.decode(encoding))
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - not {encoding} text") from exc
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
