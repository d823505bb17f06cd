"""Chapters: the story told as a few dated turning points, each with its window, text and view."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from geo.names import noun
from geo.story.images import (
    IMAGE_KEYS,
    MAX_CAPTION,
    MAX_CREDIT,
    ChapterImage,
    ImageFault,
    check_image_file,
    safe_path,
)
from geo.story.model import Bounds, Chapter, Story
from geo.story.timeline import in_window
from geo.story.urlstate import url_int

MAX_CHAPTERS = 30
MAX_TITLE = 80
MAX_TEXT = 600
MAX_SOURCES = 12  # per chapter
MAX_VIEW_PLACES = 50
MARK_LABEL = 24  # characters of a timeline mark's label, ellipsis included
# A bounds frame narrower than this (degrees) is widened around its centre: fitting a single
# point would zoom the map in to its last level.
MIN_SPAN_DEG = 0.1
# Kinds whose point is only a rough centre of something large: framing them would zoom out to
# half a country (eastern Syria, Rif Dimashq).
UNFRAMED_KINDS = frozenset({"region", "country"})
SELECT_KINDS = ("place", "convoy", "front")
KEYS = ("title", "start", "end", "text", "sources", "select", "view", "image")
_SELECT = re.compile(rf"({'|'.join(SELECT_KINDS)}):([a-z0-9][a-z0-9-]*)")
# Markup that a Markdown or HTML renderer would turn into something else: tags and comments,
# links and images, bold, code. Chapters are shown as plain text, but a story that carries
# markup was written for another renderer, and would show as stray symbols.
_MARKUP = (
    (re.compile(r"<\s*/?\s*[A-Za-z!?][^>]*>"), "an HTML tag"),
    (re.compile(r"!?\[[^\]]*\]\([^)]*\)"), "a Markdown link"),
    (re.compile(r"\*\*|__"), "Markdown bold (** or __)"),
    (re.compile(r"`"), "a backtick (Markdown code)"),
    (re.compile(r"(?m)^\s{0,3}#{1,6}\s"), "a Markdown heading"),
)
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Known:
    """The ids a chapter may refer to, and when each convoy position and front is on the map.

    None for a file that could not be read: its problems are reported already, and checking
    against nothing would only repeat them.
    """

    sources: frozenset[str]
    places: frozenset[str] | None
    convoy: Mapping[str, date] | None  # id -> the position's date
    fronts: Mapping[str, tuple[date, date]] | None  # id -> (valid_from, valid_to)
    folder: Path | None = None  # the story folder, where a chapter's image file is checked


def _label(n: int, title: Any) -> str:
    """How a chapter is named in a problem: its number and the start of its title."""
    if not isinstance(title, str) or not title.strip():
        return f"chapter {n}"
    title = " ".join(_CONTROL.sub(" ", title).split())
    return f"chapter {n} ({title if len(title) <= 40 else title[:39] + '…'})"


def _day(value: Any) -> date | None:
    """A TOML date or an ISO ``YYYY-MM-DD`` string; None for anything else (datetimes too)."""
    if isinstance(value, datetime):
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def markup_in(text: str) -> str | None:
    """What markup ``text`` carries that a renderer would act on, or None for plain text."""
    for pattern, what in _MARKUP:
        if pattern.search(text):
            return what
    return None


def _text(value: Any, key: str, cap: int, say, *, one_line: bool = False) -> str | None:
    if not isinstance(value, str) or not value.strip():
        say(f"{key} is missing or empty")
        return None
    value = value.strip()
    if len(value) > cap:
        say(f"{key} is {len(value)} characters long; at most {cap}")
        return None
    # splitlines(): U+2028 and U+2029 break a line too (a title's bold showed its "**").
    if _CONTROL.search(value) or (one_line and len(value.splitlines()) > 1):
        say(f"{key} holds {'line breaks or ' if one_line else ''}control characters")
        return None
    what = markup_in(value)
    if what:
        say(f"{key} holds {what}: write plain text (it is shown as text, not rendered)")
        return None
    return value


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _bounds(value: Any, say) -> Bounds | None:
    form = "view.bounds must be [[south, west], [north, east]] in degrees"
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(c, list) and len(c) == 2 and all(map(_number, c)) for c in value)
    )
    if not ok:
        say(form)
        return None
    (s, w), (n, e) = value
    if not all(-90 <= lat <= 90 for lat in (s, n)) or not all(-180 <= lo <= 180 for lo in (w, e)):
        say(f"{form}: latitudes within ±90, longitudes within ±180")
        return None
    if not s < n:
        say(f"view.bounds south {s} must be below north {n}")
        return None
    if not w < e:
        # A frame across the antimeridian would need west > east; no story needs it yet.
        say(f"view.bounds west {w} must be less than east {e}")
        return None
    return ((float(s), float(w)), (float(n), float(e)))


def _ids(value: Any, key: str, known: frozenset[str] | None, what: str, cap: int, say):
    """A non-empty list of known ids (strings), reported in one problem per kind of fault."""
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        say(f"{key} must be a non-empty list of {what}")
        return None
    if len(value) > cap:
        say(f"{key} lists {len(value)} ids; at most {cap}")
        return None
    unknown = [x for x in value if known is not None and x not in known]
    if unknown:
        shown = ", ".join(repr(x[:40]) for x in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        say(f"{key}: {shown}{more} not a known {what[:-1] if what.endswith('s') else what}")
        return None
    return tuple(dict.fromkeys(value))


def _select(value: Any, end: date | None, known: Known, say) -> str | None:
    if not isinstance(value, str) or not (m := _SELECT.fullmatch(value)):
        say(f"select {str(value)[:60]!r} must be place:ID, convoy:ID or front:ID")
        return None
    kind, ident = m.groups()
    table = {"place": known.places, "convoy": known.convoy, "front": known.fronts}[kind]
    if table is None:
        return value
    if kind == "place" and ident not in table:
        say(f"select {value!r}: no such place in places.csv")
        return None
    if kind == "convoy":
        if ident not in table:
            say(f"select {value!r}: no such position in convoy.csv")
            return None
        # The map draws the convoy up to the window's last day.
        if end is not None and table[ident] > end:
            say(f"select {value!r}: the position of {table[ident]} is after the chapter ends")
            return None
    if kind == "front":
        if ident not in table:
            say(f"select {value!r}: no such polygon in fronts.geojson")
            return None
        # The map draws the fronts as they stood on the window's last day.
        lo, hi = table[ident]
        if end is not None and not lo <= end <= hi:
            say(f"select {value!r} is valid {lo}..{hi}, so not on the map on {end}, the last day")
            return None
    return value


def _view(value: Any, known: Known, say) -> tuple[Bounds | None, tuple[str, ...]]:
    if not isinstance(value, dict) or len(value) != 1 or not {"bounds", "places"} >= set(value):
        say('view must be { bounds = [[south, west], [north, east]] } or { places = ["id", ...] }')
        return None, ()
    if "bounds" in value:
        return _bounds(value["bounds"], say), ()
    fit = _ids(value["places"], "view.places", known.places, "places.csv ids", MAX_VIEW_PLACES, say)
    return None, fit or ()


def _image(value: Any, folder: Path | None, say) -> ChapterImage | None:
    """``image = { file = "...", caption = "...", credit = "..." }``, its file checked in
    ``folder`` (unchecked when None: the text is still checked)."""
    form = 'image must be { file = "<file in the story folder>", caption = "...", credit = "..." }'
    if not isinstance(value, dict) or set(value) != set(IMAGE_KEYS):
        say(form)
        return None
    caption = _text(value["caption"], "image.caption", MAX_CAPTION, say, one_line=True)
    credit = _text(value["credit"], "image.credit", MAX_CREDIT, say, one_line=True)
    try:
        path, mime, width, height = None, "", 0, 0
        if folder is not None:
            path = safe_path(folder, value["file"])
            mime, width, height = check_image_file(path, repr(value["file"]))
    except ImageFault as exc:
        say(str(exc))
        return None
    except OSError as exc:  # unreadable: permissions, a file that went away
        say(f"image.file {str(value['file'])[:60]!r} cannot be read ({exc.strerror})")
        return None
    if caption is None or credit is None:
        return None
    return ChapterImage(value["file"], caption, credit, mime, width, height, path)


def parse_chapters(
    raw: Any,
    known: Known,
    span: tuple[date, date] | None,
    problem,
    warn,
    lines: Sequence[int] = (),
) -> tuple[Chapter, ...]:
    """Validate story.toml's ``chapters`` array; report through ``problem(where, message)``.

    ``warn(where, message)`` takes what does not make the story wrong (overlapping windows);
    ``lines[n - 1]`` is the line of chapter n's ``[[chapters]]`` header, where known. Returns
    the chapters only when all of them are valid.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        problem("", "chapters must be an array of [[chapters]] tables")
        return ()
    if len(raw) > MAX_CHAPTERS:
        # Checking the first MAX_CHAPTERS bounds the report; the rest would only add noise.
        problem("", f"{len(raw)} chapters; a story may have at most {MAX_CHAPTERS}")
        raw = raw[:MAX_CHAPTERS]
    out: list[Chapter] = []
    faults = False
    previous: tuple[str, date | None, date | None] | None = None
    for n, table in enumerate(raw, 1):
        where = _label(n, table.get("title"))
        if len(lines) == len(raw) and lines:
            where += f", line {lines[n - 1]}"
        found: list[str] = []

        def say(message: str, where=where, found=found) -> None:
            found.append(message)
            problem(where, message)

        fields = _fields(table, known, span, say)
        _in_order(previous, fields["start"], where, say, warn)
        previous = (f"chapter {n}", fields["start"], fields["end"])
        if found:
            faults = True
            continue
        assert all(fields[k] for k in ("title", "text", "start", "end"))
        assert fields["sources"] is not None
        out.append(Chapter(n, **fields))
    return () if faults else tuple(out)


def _fields(table: dict, known: Known, span: tuple[date, date] | None, say) -> dict[str, Any]:
    """One [[chapters]] table's fields as Chapter takes them; None (or empty) where invalid."""
    unknown = [str(k)[:40] for k in table if k not in KEYS]
    if unknown:
        keys = noun(len(unknown), "key")
        say(f"unknown {keys} {', '.join(unknown)} (expected {', '.join(KEYS)})")
    title = _text(table.get("title"), "title", MAX_TITLE, say, one_line=True)
    text = _text(table.get("text"), "text", MAX_TEXT, say)
    start, end = _window(table, span, say)
    if "sources" not in table:
        say("sources is missing: list the [[sources]] ids the text rests on")
        sources = None
    else:
        sources = _ids(
            table["sources"], "sources", known.sources, "[[sources]] ids", MAX_SOURCES, say
        )
    select = None
    if "select" in table:
        select = _select(table["select"], end, known, say)
    bounds, fit = (None, ())
    if "view" in table:
        bounds, fit = _view(table["view"], known, say)
    image = _image(table["image"], known.folder, say) if "image" in table else None
    return {
        "title": title,
        "start": start,
        "end": end,
        "text": text,
        "sources": sources,
        "select": select,
        "bounds": bounds,
        "fit": fit,
        "image": image,
    }


def _window(table: dict, span: tuple[date, date] | None, say) -> tuple[date | None, date | None]:
    """A chapter's start and end, each None when missing, not a date or outside the span."""
    days: dict[str, date | None] = {}
    for key in ("start", "end"):
        value = table.get(key)
        days[key] = day = _day(value)
        if value is None:
            say(f"{key} is missing")
        elif day is None:
            say(f"{key} {str(value)[:40]!r} is not a date (YYYY-MM-DD)")
        elif span is not None and not span[0] <= day <= span[1]:
            say(f"{key} {day} is outside the story's span {span[0]}..{span[1]}")
            days[key] = None
    start, end = days["start"], days["end"]
    if start and end and start > end:
        say(f"start {start} is after end {end}")
    return start, end


def _in_order(previous, start: date | None, where: str, say, warn) -> None:
    """Chapters go in date order (a problem); a window overlapping the one before is a warning.

    ``previous`` is (its name, start, end) of the chapter before, or None for the first.
    """
    if previous and start and previous[1]:
        before, prev_start, prev_end = previous
        if start < prev_start:
            say(f"starts {start}, before {before} ({prev_start}): chapters go in date order")
        elif prev_end and start <= prev_end:
            warn(where, f"its window overlaps {before}'s ({prev_start}..{prev_end})")


def _framed(lats: list[float], lons: list[float]) -> list[list[float]] | None:
    """The box around the points, widened to at least MIN_SPAN_DEG each way."""
    if not lats:
        return None
    s, n = float(min(lats)), float(max(lats))
    w, e = float(min(lons)), float(max(lons))
    if n - s < MIN_SPAN_DEG:
        mid = (s + n) / 2
        s, n = mid - MIN_SPAN_DEG / 2, mid + MIN_SPAN_DEG / 2
    if e - w < MIN_SPAN_DEG:
        mid = (w + e) / 2
        w, e = mid - MIN_SPAN_DEG / 2, mid + MIN_SPAN_DEG / 2
    # Rounded to about 10 cm: the frame goes into URLs and pages, float noise need not.
    return [[round(max(s, -90.0), 6), round(w, 6)], [round(min(n, 90.0), 6), round(e, 6)]]


def _selected_points(story: Story, select: str) -> list[tuple[float, float]]:
    kind, _, ident = select.partition(":")
    if kind == "place":
        rows = story.places[story.places["id"] == ident]
        return [(float(r.lat), float(r.lon)) for r in rows.itertuples()]
    if kind == "convoy":
        rows = story.convoy[story.convoy["id"] == ident]
        return [(float(r.lat), float(r.lon)) for r in rows.itertuples()]
    if kind == "front":
        rows = story.fronts[story.fronts["id"] == ident]
        return [(lat, lon) for g in rows["geometry"] for lon, lat in g["coordinates"][0]]
    return []


def _convoy_points(story: Story, start: date, end: date) -> list[tuple[float, float]]:
    """The convoy's positions dated inside the window: where it moves while the chapter is open."""
    convoy = story.convoy
    if convoy.empty:
        return []
    days = pd.to_datetime(convoy["date"])
    rows = convoy[(days >= pd.Timestamp(start)) & (days <= pd.Timestamp(end))]
    return [(float(r.lat), float(r.lon)) for r in rows.itertuples()]


def _box_points(box: list[list[float]] | None) -> list[tuple[float, float]]:
    return [] if box is None else [(box[0][0], box[0][1]), (box[1][0], box[1][1])]


def chapter_bounds(story: Story, chapter: Chapter) -> list[list[float]] | None:
    """The frame a chapter opens on, ``[[south, west], [north, east]]``, or None for no change.

    ``view.bounds`` as given; else the box around ``view.places``; else around the places of
    the events in the chapter's window, leaving out regions and countries. The selection and
    the convoy's positions in the window are always inside it: a chapter about the convoy
    (Baalbek celebrates while the buses are stranded east of al-Sukhnah) must show where it is.
    """
    places = story.places.drop_duplicates("id").set_index("id")
    if chapter.bounds:
        (s, w), (n, e) = chapter.bounds
        points = [(s, w), (n, e)]
    elif chapter.fit:
        ids = [i for i in chapter.fit if i in places.index]
        fit = [(float(places.at[i, "lat"]), float(places.at[i, "lon"])) for i in ids]
        points = _box_points(_framed([p[0] for p in fit], [p[1] for p in fit]))
    else:
        events = in_window(story.events, chapter.start, chapter.end)
        ids = [i for i in dict.fromkeys(events["place_id"]) if i in places.index]
        points = [
            (float(places.at[i, "lat"]), float(places.at[i, "lon"]))
            for i in ids
            if places.at[i, "kind"] not in UNFRAMED_KINDS
        ]
    points += _selected_points(story, chapter.select) if chapter.select else []
    points += _convoy_points(story, chapter.start, chapter.end)
    points = [(lat, lon) for lat, lon in points if math.isfinite(lat) and math.isfinite(lon)]
    if chapter.bounds and all(
        chapter.bounds[0][0] <= lat <= chapter.bounds[1][0]
        and chapter.bounds[0][1] <= lon <= chapter.bounds[1][1]
        for lat, lon in points
    ):
        (s, w), (n, e) = chapter.bounds  # as given, not rounded
        return [[s, w], [n, e]]
    return _framed([p[0] for p in points], [p[1] for p in points])


def chapter_for_url(value: Any, chapters: Sequence[Chapter]) -> Chapter | None:
    """The chapter a ``chapter=N`` value names (1-based), or None for anything else."""
    if isinstance(value, list | tuple):
        value = value[0] if len(value) == 1 else None
    if not isinstance(value, str):
        return None
    n = url_int(value, 1, len(chapters))
    return None if n is None else chapters[n - 1]


def short_label(title: str, limit: int = MARK_LABEL) -> str:
    """``title`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    cut = title[: limit - 1]
    # Cut inside a word: drop the broken word, unless that would leave too little.
    if title[limit - 1] != " " and " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:–-") + "…"


def chapter_marks(chapters: Sequence[Chapter]) -> list[tuple[date, str]]:
    """Where the timeline marks the chapters: each one's first day and a short label."""
    return [(c.start, f"{c.number}. {short_label(c.title)}") for c in chapters]
