"""story.toml: read within its bounds, and each top-level key checked."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

from geo.bounded import InputError, read_text, toml_loads
from geo.names import clip, is_slug, noun, one_line
from geo.story.load.columns import is_number
from geo.story.load.problems import Checker
from geo.story.load.schema import (
    FIRST_DAY,
    LAST_DAY,
    MAX_FIELD,
    MAX_SOURCES,
    MAX_SPAN_DAYS,
    MAX_SUMMARY,
    MAX_TITLE,
    MAX_TOML_BYTES,
    META_KEYS,
    ROWS_PER_CHECK,
    SOURCE_KEYS,
)
from geo.story.model import WORDS, Problem

_CHAPTER_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*chapters[ \t]*\]\]", re.MULTILINE)


def read_meta(file: Path) -> tuple[str, dict[str, Any]]:
    """(text, parsed) of a story.toml, within MAX_TOML_BYTES and the nesting bound.

    Raises InputError (too big, too deep), FileNotFoundError, UnicodeDecodeError or
    TOMLDecodeError.
    """
    # utf-8-sig: Windows editors start files with a byte-order mark.
    text = read_text(file, MAX_TOML_BYTES)
    return text, toml_loads(text)


def load_meta(path: Path, problems: list[Problem], warnings: list[Problem], lines: list[int]):
    """story.toml's keys, checked; ``lines`` gets the line of each [[chapters]] header.

    A key that is wrong is reported and dropped (so the other files are still checked against
    what is right); None when the file cannot be read at all.
    """
    chk = Checker("story.toml", problems)
    try:
        text, meta = read_meta(path / "story.toml")
    except FileNotFoundError:
        chk.add("", "file is missing")
        return None
    except InputError as exc:
        chk.add(f"line {exc.line}" if exc.line else "", str(exc))
        return None
    except (ValueError, UnicodeDecodeError) as exc:  # TOMLDecodeError is a ValueError
        chk.add("", f"is not valid TOML: {exc}")
        return None
    lines += [text.count("\n", 0, m.start()) + 1 for m in _CHAPTER_HEADER.finditer(text)]
    _check_keys(meta, text, chk)
    _check_texts(meta, chk)
    for key, check in (
        ("span", _span_fault),
        ("dateline", _dateline_fault),
        ("landmarks", _landmarks_fault),
        ("map", _map_fault),
        ("words", _words_fault),
    ):
        if key in meta and (fault := check(meta[key])):
            chk.add("", fault)
            meta.pop(key)
    _check_sources(meta, chk, warnings)
    return meta


def _check_keys(meta: dict, text: str, chk: Checker) -> None:
    """No key outside META_KEYS (reported with its line), none of the required ones missing."""
    for key in [k for k in meta if k not in META_KEYS][:ROWS_PER_CHECK]:
        at = _key_line(text, key)
        chk.add(
            f"line {at}" if at else "",
            f"unknown key {clip(key)!r} (expected {', '.join(META_KEYS)})",
        )
    for key in ("id", "title", "summary", "span", "dateline", "sources"):
        if key not in meta:
            chk.add("", f"missing key {key!r}")


def _check_texts(meta: dict, chk: Checker) -> None:
    """id, title and summary: one-line text within their lengths; draft: a bool."""
    for key in ("id", "title", "summary"):
        if key in meta and (not isinstance(meta[key], str) or not one_line(meta[key])):
            chk.add("", f"{key} must be a non-empty string")
    if isinstance(meta.get("title"), str):
        # Shown as a heading, in the picker and in a PNG's caption: one line, no bidi controls.
        meta["title"] = one_line(meta["title"])
    for key, most in (("title", MAX_TITLE), ("summary", MAX_SUMMARY)):
        if isinstance(meta.get(key), str) and len(meta[key]) > most:
            chk.add("", f"{key} is {len(meta[key]):,} characters long; at most {most:,}")
    if "draft" in meta and not isinstance(meta["draft"], bool):
        chk.add("", "draft must be true or false")
    if isinstance(meta.get("id"), str) and not is_slug(meta["id"]):
        chk.add("", f"id {meta['id']!r} must be lowercase letters, digits and '-'")


def _span_fault(span: Any) -> str | None:
    """What is wrong with ``span``, or None when it is two dates in order within the bounds."""
    # A TOML datetime is a date subclass that cannot be compared with dates.
    ok = isinstance(span, dict) and set(span) == {"start", "end"}
    ok = ok and all(_is_day(span.get(k)) for k in ("start", "end"))
    if not ok:
        return "span must be { start = YYYY-MM-DD, end = YYYY-MM-DD }"
    if span["start"] > span["end"]:
        return f"span start {span['start']} is after end {span['end']}"
    if not FIRST_DAY <= span["start"] <= span["end"] <= LAST_DAY:
        return f"span must lie between {FIRST_DAY} and {LAST_DAY}"
    days = (span["end"] - span["start"]).days + 1
    if days > MAX_SPAN_DAYS:
        return f"span covers {days:,} days; a story covers at most {MAX_SPAN_DAYS:,}"
    return None


def _dateline_fault(dl: Any) -> str | None:
    ok = (
        isinstance(dl, dict)
        and is_slug(dl.get("place"))
        and set(dl) <= {"place", "date"}
        and ("date" not in dl or _in_range(dl["date"]))
    )
    return None if ok else "dateline must be { place = <places.csv id>, date = YYYY-MM-DD }"


def _landmarks_fault(marks: Any) -> str | None:
    ok = isinstance(marks, list) and all(is_slug(x) for x in marks)
    return None if ok else "landmarks must be a list of places.csv ids"


def _map_fault(view: Any) -> str | None:
    center = view.get("center") if isinstance(view, dict) else None
    zoom = view.get("zoom", 8) if isinstance(view, dict) else None
    ok = isinstance(zoom, int) and not isinstance(zoom, bool) and 0 <= zoom <= 20
    ok = ok and set(view) <= {"center", "zoom"}
    ok = ok and (
        center is None
        or (
            isinstance(center, list)
            and len(center) == 2
            and all(is_number(c) for c in center)
            and -90 <= center[0] <= 90
            and -180 <= center[1] <= 180
        )
    )
    return None if ok else "map must be { center = [lat, lon], zoom = <whole number> }"


def _words_fault(words: Any) -> str | None:
    ok = isinstance(words, dict) and all(
        k in WORDS and isinstance(v, str) and 0 < len(v.strip()) <= 40 and "<" not in v
        for k, v in words.items()
    )
    return None if ok else f"words must be {{ {' , '.join(WORDS)} = <text up to 40 characters> }}"


def _check_sources(meta: dict, chk: Checker, warnings: list[Problem]) -> None:
    """[[sources]]: a non-empty list of at most MAX_SOURCES; a bad list is emptied."""
    sources = meta.get("sources")
    if sources is None:
        return
    if not isinstance(sources, list) or not sources:
        chk.add("", "sources must be a non-empty list of [[sources]] tables")
        meta["sources"] = []
    elif len(sources) > MAX_SOURCES:
        chk.add("", f"has {len(sources):,} [[sources]]; at most {MAX_SOURCES:,}")
        meta["sources"] = []
    else:
        seen: set[str] = set()
        for n, src in enumerate(sources, 1):
            _check_source(n, src, seen, chk, warnings)


def _check_source(n: int, src: Any, seen: set[str], chk: Checker, warnings: list[Problem]):
    """Source ``n``: a slug id used once, a publication, text fields; no url is a warning."""
    where = f"source {n}"
    if not isinstance(src, dict) or not src.get("id") or not src.get("publication"):
        chk.add(where, "needs an id and a publication")
        return
    if not is_slug(src["id"]):
        chk.add(where, "id must be lowercase letters, digits and '-'")
        return
    bad = [k for k, v in src.items() if k != "date" and not isinstance(v, str)]
    if bad or ("date" in src and not _in_range(src["date"])):
        chk.add(where, "fields must be text (date: YYYY-MM-DD)")
    unknown = [k for k in src if k not in SOURCE_KEYS]
    if unknown:
        chk.add(
            where,
            f"unknown {noun(len(unknown), 'key')} {clip(', '.join(unknown))} "
            f"(expected {', '.join(SOURCE_KEYS)})",
        )
    long = [k for k, v in src.items() if isinstance(v, str) and len(v) > MAX_FIELD]
    if long:
        chk.add(where, f"{', '.join(long)}: at most {MAX_FIELD:,} characters")
    if src["id"] in seen:
        chk.add(where, f"id {src['id']!r} is used twice")
    seen.add(src["id"])
    url = src.get("url")
    if not (isinstance(url, str) and url.strip()):
        warnings.append(
            Problem(
                "story.toml", f"{where} ({src['id']})", "has no url: a reader cannot look it up"
            )
        )


def _is_day(value: object) -> bool:
    return isinstance(value, date) and not isinstance(value, datetime)


def _in_range(value: object) -> bool:
    return _is_day(value) and FIRST_DAY <= value <= LAST_DAY


def _key_line(text: str, key: str) -> int | None:
    """The line where a top-level key is set (``key =``, ``key.sub =``, ``[key]``), if found."""
    quoted = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
    found = re.search(rf"^[ \t]*(?:\[\[?[ \t]*)?{quoted}[ \t]*[.=\]]", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None
