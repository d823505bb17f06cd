"""Hostile files read within bounds: size before reading, nesting depth before parsing.

A story file may come from anyone (a zip, a shared folder). Python's parsers recurse once per
level of nesting and hold a whole file in memory, so a 78 KB zip could cost minutes and half a
gigabyte, and 5,000 nested brackets a RecursionError. These readers refuse such files with an
:class:`InputError` (a ValueError, so READ_FAILURES covers it) before the parser sees them.
"""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
from typing import Any

from geo.errors import DatelineError

# The deepest a story file needs is 7: a position in a polygon of fronts.geojson
# ({ features [ { geometry { coordinates [ ring [ position [ ). Twice that leaves room for
# hand-made files and is far below Python's recursion limit (1,000).
MAX_DEPTH = 16


class InputError(DatelineError, ValueError):
    """A file refused before parsing: too big or nested too deeply. ``line`` where known."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def read_text(path: str | os.PathLike[str], max_bytes: int) -> str:
    """A UTF-8 file's text (a leading byte-order mark dropped), refused above ``max_bytes``.

    The size is checked before reading and again while reading (a file may grow meanwhile):
    at most ``max_bytes + 1`` bytes are ever read.
    """
    if os.stat(path).st_size > max_bytes:
        raise InputError(f"is larger than {_size(max_bytes)}")
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"is larger than {_size(max_bytes)}")
    return data.decode("utf-8-sig")


def _size(n: int) -> str:
    return f"{n / 1e6:g} MB" if n >= 1_000_000 else f"{n / 1e3:g} KB"


# Brackets outside strings and comments. Strings are matched whole (a multi-line string may
# hold any bracket); an unterminated one matches nothing, its quote is skipped and brackets after
# it count: that only over-counts a file the parser refuses anyway.
_TOML_TOKENS = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""+'
    r"|'''.*?'''+"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\[\]{}\n]",
    re.DOTALL,
)
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}\n]', re.DOTALL)


def nesting_depth(text: str, tokens: re.Pattern[str], limit: int) -> tuple[int, int | None]:
    """(deepest bracket nesting, line where it first passed ``limit`` or None); linear time."""
    depth = deepest = 0
    line = 1
    for m in tokens.finditer(text):
        tok = m.group()
        if tok == "\n":
            line += 1
        elif tok in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth > limit:
                    return deepest, line
        elif tok in "]}":
            depth = max(0, depth - 1)
        else:
            line += tok.count("\n")
    return deepest, None


def value_depth(value: Any, limit: int) -> int:
    """How deeply lists and dicts nest in a parsed value, counted without recursion (stops past
    ``limit``): TOML's dotted keys (``a.b.c = 1``) nest tables with no bracket at all."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _check_depth(text: str, tokens: re.Pattern[str], limit: int) -> None:
    _, line = nesting_depth(text, tokens, limit)
    if line is not None:
        raise InputError(f"is nested more than {limit} levels deep", line)


def toml_loads(text: str, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """``tomllib.loads`` for hostile text: nesting beyond ``max_depth`` is refused first."""
    _check_depth(text, _TOML_TOKENS, max_depth)
    doc = tomllib.loads(text)
    # The document is a table itself: one level more than its deepest brackets.
    if value_depth(doc, max_depth + 1) > max_depth + 1:
        raise InputError(f"is nested more than {max_depth} levels deep")
    return doc


def _no_constant(name: str) -> Any:
    raise InputError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 parses as inf
        raise InputError(f"{text[:40]} is too big a number")
    return value


def json_loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for hostile text: too deep is refused first; NaN, Infinity and numbers
    beyond a float's range too."""
    _check_depth(text, _JSON_TOKENS, max_depth)
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
