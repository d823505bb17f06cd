"""Load a story folder into validated pandas tables, or report every problem with file and line."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from shapely.geometry import shape

from geo.bounded import InputError, json_loads, read_text, toml_loads
from geo.errors import READ_FAILURES, DatelineError, failure_text
from geo.geometry import polygon_area_km2
from geo.names import SLUG, clip, is_slug, one_line
from geo.story import checks
from geo.story.chapters import Chapter, Known, parse_chapters
from geo.story.checks import BASEMAP, Outlines
from geo.vocabulary import CATEGORIES as VOCABULARY_CATEGORIES

# Every category of the event vocabulary (docs/event-vocabulary.md); the war categories of the
# first story format are all in it, so every old story stays valid.
CATEGORIES = VOCABULARY_CATEGORIES
CONFIDENCE = ("reported", "claimed", "disputed")
PLACE_KINDS = (
    "city",
    "town",
    "village",
    "region",
    "valley",
    "hill",
    "crossing",
    "station",
    "country",
    "border",
    "area",
)
CONVOY_STATUS = ("assembling", "moving", "halted", "split", "arrived", "returned")
FIGURES = (
    "people",
    "militants",
    "civilians",
    "killed",
    "wounded",
    "missing",
    "displaced",
    "arrested",
    "evacuated",
    "captives",
    "remains",
    "buses",
    "vehicles",
    "area_km2",
)
PLACE_COLUMNS = (
    "id",
    "name",
    "aliases",
    "kind",
    "country",
    "lat",
    "lon",
    "radius_m",
    "geonames_id",
    "coord_source",
)
EVENT_COLUMNS = (
    "id",
    "date",
    "end_date",
    "place_id",
    "category",
    "actors",
    "summary",
    *FIGURES,
    "source",
    "source_detail",
    "confidence",
    "confidence_note",
)
CONVOY_COLUMNS = (
    "id",
    "date",
    "group",
    "place_id",
    "lat",
    "lon",
    "radius_m",
    "status",
    "note",
    "source",
)
FRONT_PROPERTIES = (
    "id",
    "side",
    "holder",
    "valid_from",
    "valid_to",
    "drawn_km2",
    "approximate",
    "source",
)
_SLUG = SLUG
# A bad file must cost seconds and a screenful, not minutes and gigabytes: the first
# ROWS_PER_CHECK rows of each check and PROBLEMS_PER_FILE problems of each file are kept, the
# rest only counted.
ROWS_PER_CHECK = 20
PROBLEMS_PER_FILE = 200
# A problem quotes values from the file: at most this many characters of it are kept.
MAX_MESSAGE = 300
# Far beyond any hand-drawn outline (the bundled ones have 13); a million vertices made every
# slider step take 8 s.
MAX_POLYGON_VERTICES = 5_000
MAX_FRONTS_BYTES = 20_000_000
# Polygons are one per side and period: the bundled story has 11. Each is checked against the
# basemap (milliseconds), so a file of 100,000 tiny ones would cost minutes.
MAX_FRONTS = 2_000
# A side's outline is one polygon per period (the bundled story never has more than two on a
# day). The map's payload lists the polygons of each day they change, so this bounds its size.
MAX_FRONTS_AT_ONCE = 20
# story.toml is read by the story picker too: the bundled one is 14 KB; 30 chapters of 600
# characters and 500 sources fit in a quarter of this. A bigger one is refused unread.
MAX_TOML_BYTES = 512_000
MAX_SOURCES = 500
SOURCE_KEYS = ("id", "publication", "date", "url")
# Text lengths: a title is a line (the bundled one has 99 characters), a summary a paragraph
# (1,203), a source's publication or address a line (227).
MAX_TITLE = 300
MAX_SUMMARY = 5_000
MAX_FIELD = 2_000
# A convoy is a few dozen positions (the bundled story has 21). The map's payload repeats the
# route so far on each day the convoy moves, so it grows with the square of this: 300 positions
# on 300 days are at most about a megabyte.
MAX_CONVOY_ROWS = 300
# What story.toml may hold at its top level (docs/story-format.md); anything else is a typo or
# a payload, and is refused with its line.
META_KEYS = (
    "id",
    "title",
    "summary",
    "span",
    "dateline",
    "landmarks",
    "words",
    "map",
    "draft",
    "sources",
    "chapters",
)
# A story covers at most 20 years (7,305 days): the date slider, Play and the charts are made for
# days to years, and a span of centuries would cost every page run. Dates lie in 1800-2200.
MAX_SPAN_DAYS = 7_305
FIRST_DAY, LAST_DAY = date(1800, 1, 1), date(2200, 12, 31)
# Figures are counts of people and things: a billion is beyond any event. Areas are in km²; the
# Earth's surface is 510 million.
MAX_FIGURE = 1_000_000_000
MAX_AREA_KM2 = 510_000_000


@dataclass(frozen=True)
class Limits:
    """How big a story's tables may be, checked from file sizes and Parquet metadata first."""

    max_rows: int = 5_000_000
    max_parquet_bytes: int = 4_000_000_000  # uncompressed, as the Parquet footer declares


# Stories shared as a zip are checked harder than the reader's own folders.
UPLOAD_LIMITS = Limits(max_rows=1_000_000, max_parquet_bytes=400_000_000)
# drawn_km2 is stored rounded; allow for that and for a journalist's hand edit of the file.
_AREA_TOLERANCE = 0.02


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a story file, located by file and line (or feature)."""

    file: str
    where: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.where}: {self.message}"
            if self.where
            else (f"{self.file}: {self.message}")
        )


class Problems(list):
    """The problems of one story: at most PROBLEMS_PER_FILE kept per file, the rest counted."""

    def __init__(self, per_file: int = PROBLEMS_PER_FILE):
        super().__init__()
        self.per_file = per_file
        self.kept: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def append(self, problem: Problem) -> None:
        if len(problem.message) > MAX_MESSAGE:  # a value quoted from a hostile file
            problem = Problem(problem.file, problem.where, clip(problem.message, MAX_MESSAGE))
        n = self.kept.get(problem.file, 0)
        if n >= self.per_file:
            self.dropped[problem.file] = self.dropped.get(problem.file, 0) + 1
            return
        self.kept[problem.file] = n + 1
        super().append(problem)

    def closed(self) -> list[Problem]:
        """The kept problems plus one line per file saying how many more there were."""
        more = [Problem(f, "", f"... and {n:,} more problem(s)") for f, n in self.dropped.items()]
        return [*self, *more]


class StoryError(DatelineError, ValueError):
    """Raised when a story folder has problems; ``problems`` lists them (capped per file)."""

    def __init__(self, path: Path | str, problems: list[Problem], warnings: list[Problem] = ()):
        self.path = Path(path)
        self.problems = problems.closed() if isinstance(problems, Problems) else list(problems)
        self.warnings = list(warnings)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in story {self.path}:\n{lines}")


def problem_text(exc: StoryError, limit: int = 30) -> str:
    """A screenful of a StoryError's problems, one a line, with a count of the rest."""
    lines = [str(p) for p in exc.problems[:limit]]
    if len(exc.problems) > limit:
        lines.append(f"... {len(exc.problems) - limit:,} more (python -m geo validate lists them)")
    return "\n".join(lines)


@dataclass(frozen=True)
class Story:
    """A loaded, validated story: metadata plus one DataFrame per file."""

    path: Path
    meta: dict[str, Any]
    places: pd.DataFrame
    events: pd.DataFrame
    convoy: pd.DataFrame
    fronts: pd.DataFrame
    sources: pd.DataFrame = field(repr=False)
    # Things a reader should know that do not make the story wrong (a source with no address).
    warnings: tuple[Problem, ...] = ()
    # story.toml's [[chapters]] in date order; empty for a story told without chapters.
    chapters: tuple[Chapter, ...] = ()
    # A big story's events stay on disk (geo.story.events_store.EventStore): then ``events``
    # holds only every event's category and place_id, in order, and the rest is queried.
    store: Any = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def summary(self) -> str:
        return self.meta["summary"]

    @property
    def start(self) -> date:
        return self.meta["span"]["start"]

    @property
    def end(self) -> date:
        return self.meta["span"]["end"]


class _Checker:
    """Collects problems while one file's columns are parsed."""

    def __init__(self, file: str, problems: list[Problem], first_line: int = 2):
        self.file = file
        self.problems = problems
        self.first_line = first_line
        self.count = 0  # every problem found, kept or not

    def add(self, where: str, message: str) -> None:
        self.count += 1
        self.problems.append(Problem(self.file, where, message))

    def rows(self, mask: pd.Series, message: Callable[[Any], str]) -> None:
        """Report the first rows where ``mask`` is true; ``message`` gets the row's index label."""
        hits = mask[mask.fillna(False).astype(bool)].index
        for idx in hits[:ROWS_PER_CHECK]:
            self.add(f"line {int(idx) + self.first_line}", message(idx))
        if len(hits) > ROWS_PER_CHECK:
            first = message(hits[0])
            self.add("", f"{len(hits) - ROWS_PER_CHECK:,} more line(s) like: {first[:120]}")
            self.count += len(hits) - ROWS_PER_CHECK - 1


def _parquet_too_big(path: Path, limits: Limits) -> str | None:
    """Why a Parquet file must not be read, from its footer alone; None when it may be."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    if meta.num_rows > limits.max_rows:
        return f"has {meta.num_rows:,} rows; at most {limits.max_rows:,} can be loaded"
    if size > limits.max_parquet_bytes:
        return f"unpacks to {size / 1e6:,.0f} MB; at most {limits.max_parquet_bytes / 1e6:,.0f} MB"
    return None


def _read_csv(
    path: Path,
    columns: tuple[str, ...],
    required: set[str],
    chk: _Checker,
    limits: Limits = Limits(),
):
    """Read a CSV (or Parquet) as strings; report missing and unknown columns."""
    try:
        if path.suffix == ".parquet":
            if reason := _parquet_too_big(path, limits):
                chk.add("", reason)
                return None
            df = pd.read_parquet(path)
            df = df.astype({c: "string" for c in df.columns if c in columns})
            df = df.fillna("")
        else:
            df = pd.read_csv(
                path,
                dtype=str,
                keep_default_na=False,
                encoding="utf-8-sig",
                nrows=limits.max_rows + 1,
            )
            if len(df) > limits.max_rows:
                chk.add("", f"has more than {limits.max_rows:,} rows")
                return None
    except FileNotFoundError:
        chk.add("", "file is missing")
        return None
    except (UnicodeDecodeError, pd.errors.ParserError, ValueError, OSError) as exc:
        chk.add("", f"cannot be read: {exc}")
        return None
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in columns if c in required and c not in df.columns]
    unknown = [c for c in df.columns if c not in columns]
    if missing:
        chk.add("line 1", f"missing required column(s): {', '.join(missing)}")
    if unknown:
        listed = ", ".join(clip(c) for c in unknown[:5]) + (" …" if len(unknown) > 5 else "")
        chk.add("line 1", f"unknown column(s): {listed} (expected {', '.join(columns)})")
    if missing:
        return None
    for c in columns:
        if c not in df.columns:
            df[c] = ""
    df = df[list(columns)].copy()
    for c in columns:
        df[c] = df[c].astype(str).str.strip()
    return df


def _required(df: pd.DataFrame, cols: list[str], chk: _Checker) -> None:
    for c in cols:
        chk.rows(df[c] == "", lambda _i, c=c: f"{c} is empty")


def _slug_ids(df: pd.DataFrame, chk: _Checker) -> None:
    bad = (df["id"] != "") & ~df["id"].str.fullmatch(_SLUG)
    chk.rows(bad, lambda i: f"id {df.at[i, 'id']!r} must be lowercase letters, digits and '-'")
    dup = (df["id"] != "") & df["id"].duplicated(keep="first")
    chk.rows(dup, lambda i: f"id {df.at[i, 'id']!r} is used twice")


def _dates(df: pd.DataFrame, col: str, chk: _Checker, span: tuple[date, date] | None):
    raw = df[col]
    parsed = pd.to_datetime(raw, format="%Y-%m-%d", errors="coerce")
    bad = (raw != "") & parsed.isna()
    chk.rows(bad, lambda i: f"{col} {raw[i]!r} is not a date (YYYY-MM-DD)")
    if span is not None:
        lo, hi = pd.Timestamp(span[0]), pd.Timestamp(span[1])
        out = parsed.notna() & ((parsed < lo) | (parsed > hi))
        chk.rows(out, lambda i: f"{col} {raw[i]} is outside the story's span {span[0]}..{span[1]}")
    return parsed


def _numbers(df: pd.DataFrame, col: str, chk: _Checker, lo=None, hi=None, integer=False):
    raw = df[col]
    num = pd.to_numeric(raw.str.replace(",", "", regex=False), errors="coerce")
    # "inf", "nan" and "1e999" parse as floats that are no figure: refused like any other text.
    num = num.where(np.isfinite(num.astype("float64")))
    bad = (raw != "") & num.isna()
    chk.rows(bad, lambda i: f"{col} {raw[i]!r} is not a number")
    if integer:
        frac = num.notna() & (num.round() != num)
        chk.rows(frac, lambda i: f"{col} {raw[i]!r} is not a whole number")
    if lo is not None:
        chk.rows(num < lo, lambda i: f"{col} {raw[i]} is below {lo}")
    if hi is not None:
        chk.rows(num > hi, lambda i: f"{col} {raw[i]} is above {hi}")
    if integer:
        # Beyond 2**53 a float is no exact whole number, and past int64 the cast is garbage.
        exact = (num.round() == num) & (num.abs() <= 2**53)
        return num.where(exact).astype("Int64")
    return num.astype("Float64")


def _enum(df: pd.DataFrame, col: str, allowed: tuple[str, ...], chk: _Checker) -> None:
    bad = (df[col] != "") & ~df[col].isin(allowed)
    chk.rows(bad, lambda i: f"{col} {df.at[i, col]!r} is not one of {', '.join(allowed)}")


def _refs(df, col: str, known: set[str], what: str, chk: _Checker, many: bool = False) -> None:
    if many:  # "reuters|ap": every id must be known
        bad = df[col].map(lambda v: bool(v) and not set(v.split("|")) <= known)
    else:
        bad = (df[col] != "") & ~df[col].isin(known)
    chk.rows(bad, lambda i: f"{col} {df.at[i, col]!r} is not a known {what}")


def source_names(value: str, names: dict[str, str]) -> str:
    """The publications an event's ``source`` cell cites ("reuters|ap": "Reuters; AP")."""
    return "; ".join(names.get(i, i) for i in str(value).split("|") if i) or str(value)


def _row_checks(df, required: set[str], place_ids: set[str], source_ids: set[str], chk) -> None:
    """What events and convoy rows share: required cells, ids, place and source references."""
    _required(df, sorted(required), chk)
    _slug_ids(df, chk)
    _refs(df, "place_id", place_ids, "place (places.csv id)", chk)
    # A happening two reports give cites both.
    _refs(df, "source", source_ids, "source (story.toml [[sources]] id)", chk, many=True)


def _split_list(s: pd.Series) -> pd.Series:
    return s.map(lambda v: [x.strip() for x in v.split("|") if x.strip()] if v else [])


# What a story calls its moving group, its held area and who holds it (story.toml [words]).
WORDS = {"convoy": "convoy", "enclave": "held area", "held": "held"}


def story_words(meta: dict) -> dict[str, str]:
    """The story's own words for its convoy, enclave and holder, with plain defaults."""
    return {**WORDS, **(meta.get("words") or {})}


_CHAPTER_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*chapters[ \t]*\]\]", re.MULTILINE)


def _load_meta(path: Path, problems: list[Problem], warnings: list[Problem], lines: list[int]):
    """story.toml's keys, checked; ``lines`` gets the line of each [[chapters]] header."""
    chk = _Checker("story.toml", problems)
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
    for key in [k for k in meta if k not in META_KEYS][:ROWS_PER_CHECK]:
        at = _key_line(text, key)
        chk.add(
            f"line {at}" if at else "",
            f"unknown key {clip(key)!r} (expected {', '.join(META_KEYS)})",
        )
    for key in ("id", "title", "summary", "span", "dateline", "sources"):
        if key not in meta:
            chk.add("", f"missing key {key!r}")
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
    span = meta.get("span")
    if span is not None:
        # A TOML datetime is a date subclass that cannot be compared with dates.
        ok = isinstance(span, dict) and set(span) == {"start", "end"}
        ok = ok and all(_is_day(span.get(k)) for k in ("start", "end"))
        if not ok:
            chk.add("", "span must be { start = YYYY-MM-DD, end = YYYY-MM-DD }")
            meta.pop("span")
        elif span["start"] > span["end"]:
            chk.add("", f"span start {span['start']} is after end {span['end']}")
            meta.pop("span")
        elif not FIRST_DAY <= span["start"] <= span["end"] <= LAST_DAY:
            chk.add("", f"span must lie between {FIRST_DAY} and {LAST_DAY}")
            meta.pop("span")
        elif (span["end"] - span["start"]).days + 1 > MAX_SPAN_DAYS:
            days = (span["end"] - span["start"]).days + 1
            chk.add("", f"span covers {days:,} days; a story covers at most {MAX_SPAN_DAYS:,}")
            meta.pop("span")
    dl = meta.get("dateline")
    if dl is not None and not (
        isinstance(dl, dict)
        and is_slug(dl.get("place"))
        and set(dl) <= {"place", "date"}
        and ("date" not in dl or _in_range(dl["date"]))
    ):
        chk.add("", "dateline must be { place = <places.csv id>, date = YYYY-MM-DD }")
        meta.pop("dateline")
    marks = meta.get("landmarks")
    if marks is not None and not (isinstance(marks, list) and all(is_slug(x) for x in marks)):
        chk.add("", "landmarks must be a list of places.csv ids")
        meta.pop("landmarks")
    view = meta.get("map")
    if view is not None:
        center = view.get("center") if isinstance(view, dict) else None
        zoom = view.get("zoom", 8) if isinstance(view, dict) else None
        ok = isinstance(zoom, int) and not isinstance(zoom, bool) and 0 <= zoom <= 20
        ok = ok and set(view) <= {"center", "zoom"}
        ok = ok and (
            center is None
            or (
                isinstance(center, list)
                and len(center) == 2
                and all(_is_number(c) for c in center)
                and -90 <= center[0] <= 90
                and -180 <= center[1] <= 180
            )
        )
        if not ok:
            chk.add("", "map must be { center = [lat, lon], zoom = <whole number> }")
            meta.pop("map")
    words = meta.get("words")
    if words is not None:
        ok = isinstance(words, dict) and all(
            k in WORDS and isinstance(v, str) and 0 < len(v.strip()) <= 40 and "<" not in v
            for k, v in words.items()
        )
        if not ok:
            chk.add("", f"words must be {{ {' , '.join(WORDS)} = <text up to 40 characters> }}")
            meta.pop("words")
    sources = meta.get("sources")
    if sources is not None:
        if not isinstance(sources, list) or not sources:
            chk.add("", "sources must be a non-empty list of [[sources]] tables")
            meta["sources"] = []
        elif len(sources) > MAX_SOURCES:
            chk.add("", f"has {len(sources):,} [[sources]]; at most {MAX_SOURCES:,}")
            meta["sources"] = []
        else:
            seen: set[str] = set()
            for n, src in enumerate(sources, 1):
                if not isinstance(src, dict) or not src.get("id") or not src.get("publication"):
                    chk.add(f"source {n}", "needs an id and a publication")
                    continue
                if not is_slug(src["id"]):
                    chk.add(f"source {n}", "id must be lowercase letters, digits and '-'")
                    continue
                bad = [k for k, v in src.items() if k != "date" and not isinstance(v, str)]
                if bad or ("date" in src and not _in_range(src["date"])):
                    chk.add(f"source {n}", "fields must be text (date: YYYY-MM-DD)")
                unknown = [k for k in src if k not in SOURCE_KEYS]
                if unknown:
                    chk.add(
                        f"source {n}",
                        f"unknown key(s) {clip(', '.join(unknown))}"
                        f" (expected {', '.join(SOURCE_KEYS)})",
                    )
                long = [k for k, v in src.items() if isinstance(v, str) and len(v) > MAX_FIELD]
                if long:
                    chk.add(f"source {n}", f"{', '.join(long)}: at most {MAX_FIELD:,} characters")
                if src["id"] in seen:
                    chk.add(f"source {n}", f"id {src['id']!r} is used twice")
                seen.add(src["id"])
                url = src.get("url")
                if not (isinstance(url, str) and url.strip()):
                    warnings.append(
                        Problem(
                            "story.toml",
                            f"source {n} ({src['id']})",
                            "has no url: a reader cannot look it up",
                        )
                    )
    return meta


def _is_day(value: object) -> bool:
    return isinstance(value, date) and not isinstance(value, datetime)


def _in_range(value: object) -> bool:
    return _is_day(value) and FIRST_DAY <= value <= LAST_DAY


def _key_line(text: str, key: str) -> int | None:
    """The line where a top-level key is set (``key =``, ``key.sub =``, ``[key]``), if found."""
    quoted = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
    found = re.search(rf"^[ \t]*(?:\[\[?[ \t]*)?{quoted}[ \t]*[.=\]]", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else None


def read_meta(file: Path) -> tuple[str, dict[str, Any]]:
    """(text, parsed) of a story.toml, within MAX_TOML_BYTES and the nesting bound.

    Raises InputError (too big, too deep), FileNotFoundError, UnicodeDecodeError or
    TOMLDecodeError.
    """
    # utf-8-sig: Windows editors start files with a byte-order mark.
    text = read_text(file, MAX_TOML_BYTES)
    return text, toml_loads(text)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _vertices(geom: dict) -> int:
    """How many positions a Polygon's rings hold, without reading them (0 if malformed)."""
    rings = geom.get("coordinates")
    if not isinstance(rings, list):
        return 0
    return sum(len(r) for r in rings if isinstance(r, list))


def _load_places(path: Path, problems: list[Problem]) -> pd.DataFrame | None:
    chk = _Checker("places.csv", problems)
    required = {"id", "name", "kind", "country", "lat", "lon", "radius_m", "coord_source"}
    df = _read_csv(path / "places.csv", PLACE_COLUMNS, required, chk)
    if df is None:
        return None
    _required(df, sorted(required), chk)
    _slug_ids(df, chk)
    _enum(df, "kind", PLACE_KINDS, chk)
    bad_cc = (df["country"] != "") & ~df["country"].str.fullmatch(r"[A-Z]{2}(\|[A-Z]{2})*")
    chk.rows(
        bad_cc, lambda i: f"country {df.at[i, 'country']!r} is not ISO alpha-2 (LB, SY, LB|SY)"
    )
    out = df.copy()
    out["lat"] = _numbers(df, "lat", chk, -90, 90)
    out["lon"] = _numbers(df, "lon", chk, -180, 180)
    out["radius_m"] = _numbers(df, "radius_m", chk, 0, 20_000_000, integer=True)
    # GeoNames ids are below 20 million today; ten billion leaves room and fits any integer type.
    out["geonames_id"] = _numbers(df, "geonames_id", chk, 1, 10_000_000_000, integer=True)
    out["aliases"] = _split_list(df["aliases"])
    return out


def _load_events(
    path: Path, problems, span, place_ids, source_ids, limits: Limits = Limits()
) -> pd.DataFrame | None:
    file = path / "events.parquet"
    if not file.exists():
        file = path / "events.csv"
    chk = _Checker(file.name, problems)
    required = {"id", "date", "place_id", "category", "summary", "source", "confidence"}
    df = _read_csv(file, EVENT_COLUMNS, required, chk, limits)
    if df is None:
        return None
    _row_checks(df, required, place_ids, source_ids, chk)
    _enum(df, "category", CATEGORIES, chk)
    _enum(df, "confidence", CONFIDENCE, chk)
    out = df.copy()
    out["date"] = _dates(df, "date", chk, span)
    out["end_date"] = _dates(df, "end_date", chk, span)
    before = out["end_date"].notna() & out["date"].notna() & (out["end_date"] < out["date"])
    chk.rows(before, lambda i: f"end_date {df.at[i, 'end_date']} is before date {df.at[i, 'date']}")
    for col in FIGURES:
        most = MAX_AREA_KM2 if col == "area_km2" else MAX_FIGURE
        out[col] = _numbers(df, col, chk, 0, most, integer=True)
    out["actors"] = _split_list(df["actors"])
    _reported_with_other_figures(df, out, chk)
    return out


def _empty_events() -> pd.DataFrame:
    """An events table with no rows, in the dtypes ``_load_events`` gives."""
    out = pd.DataFrame({c: pd.Series(dtype="str") for c in EVENT_COLUMNS})
    for col in ("date", "end_date"):
        out[col] = pd.Series(dtype="datetime64[us]")
    for col in FIGURES:
        out[col] = pd.Series(dtype="Int64")
    out["actors"] = pd.Series(dtype=object)
    return out


def _reported_with_other_figures(df: pd.DataFrame, out: pd.DataFrame, chk: _Checker) -> None:
    """A 'reported' event whose note gives a figure of its own: the sources disagree."""
    noted = (df["confidence"] == "reported") & df["confidence_note"].str.contains(r"\d")
    for idx in noted[noted].index:
        own = [int(v) for v in out.loc[idx, list(FIGURES)] if pd.notna(v)]
        other = checks.other_figures(df.at[idx, "confidence_note"], own)
        if other:
            chk.add(
                f"line {int(idx) + chk.first_line}",
                f"confidence is 'reported' but the note gives other figures"
                f" ({', '.join(f'{n:,}' for n in other)}): make it 'disputed'",
            )


def _load_convoy(path: Path, problems, span, place_ids, source_ids) -> pd.DataFrame | None:
    chk = _Checker("convoy.csv", problems)
    file = path / "convoy.csv"
    if not file.exists():
        return pd.DataFrame({c: pd.Series(dtype="object") for c in CONVOY_COLUMNS})
    required = {"id", "date", "group", "radius_m", "status", "note", "source"}
    df = _read_csv(file, CONVOY_COLUMNS, required, chk, Limits(max_rows=MAX_CONVOY_ROWS))
    if df is None:
        return None
    _row_checks(df, required, place_ids, source_ids, chk)
    _enum(df, "status", CONVOY_STATUS, chk)
    out = df.copy()
    out["date"] = _dates(df, "date", chk, span)
    out["lat"] = _numbers(df, "lat", chk, -90, 90)
    out["lon"] = _numbers(df, "lon", chk, -180, 180)
    out["radius_m"] = _numbers(df, "radius_m", chk, 0, 20_000_000, integer=True)
    nowhere = (df["place_id"] == "") & ((df["lat"] == "") | (df["lon"] == ""))
    chk.rows(nowhere, lambda _i: "needs a place_id or both lat and lon")
    return out


def _load_fronts(path: Path, problems, span, source_ids, outlines=None) -> pd.DataFrame | None:
    chk = _Checker("fronts.geojson", problems)
    file = path / "fronts.geojson"
    columns = [*FRONT_PROPERTIES, "reported_km2", "note", "geometry", "computed_km2"]
    if not file.exists():
        return pd.DataFrame({c: pd.Series(dtype="object") for c in columns})
    try:
        doc = json_loads(read_text(file, MAX_FRONTS_BYTES))
    except InputError as exc:
        chk.add(f"line {exc.line}" if exc.line else "", str(exc))
        return None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        where = f"line {exc.lineno}" if hasattr(exc, "lineno") else ""
        chk.add(where, f"is not valid JSON: {exc}")
        return None
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        chk.add("", "must be a GeoJSON FeatureCollection")
        return None
    rows = []
    lo, hi = span if span else (None, None)
    features = doc.get("features")
    if not isinstance(features, list):
        chk.add("", "features must be a list of GeoJSON Features")
        return None
    if len(features) > MAX_FRONTS:
        chk.add("", f"has {len(features):,} features; at most {MAX_FRONTS:,}")
        return None
    for n, feat in enumerate(features, 1):
        if not isinstance(feat, dict) or not isinstance(feat.get("properties") or {}, dict):
            chk.add(f"feature {n}", "must be a GeoJSON Feature with a properties object")
            continue
        props = feat.get("properties") or {}
        where = f"feature {n}" + (f" ({props['id']})" if is_slug(props.get("id")) else "")
        n_before = chk.count
        for key in FRONT_PROPERTIES:
            if props.get(key) in (None, ""):
                chk.add(where, f"property {key!r} is missing")
        if props.get("id") not in (None, "") and not is_slug(props["id"]):
            chk.add(where, "id must be lowercase letters, digits and '-'")
        text_keys = ("side", "holder", "source", "valid_from", "valid_to", "note")
        wrong = [k for k in text_keys if props.get(k) is not None and not isinstance(props[k], str)]
        if wrong:
            chk.add(where, f"property(ies) {', '.join(wrong)} must be text")
            continue
        if props.get("side") not in (None, "") and props["side"] not in ("LB", "SY"):
            chk.add(where, f"side {props['side']!r} must be LB or SY")
        if props.get("source") and props["source"] not in source_ids:
            chk.add(where, f"source {props['source']!r} is not a known source")
        dates = {}
        for key in ("valid_from", "valid_to"):
            try:
                dates[key] = date.fromisoformat(str(props.get(key)))
            except ValueError:
                if props.get(key) not in (None, ""):
                    chk.add(where, f"{key} {props.get(key)!r} is not a date (YYYY-MM-DD)")
                continue
            if lo and not lo <= dates[key] <= hi:
                chk.add(where, f"{key} {dates[key]} is outside the story's span {lo}..{hi}")
        if len(dates) == 2 and dates["valid_from"] > dates["valid_to"]:
            chk.add(
                where, f"valid_from {dates['valid_from']} is after valid_to {dates['valid_to']}"
            )
        geom = feat.get("geometry") or {}
        computed = None
        if not isinstance(geom, dict) or geom.get("type") != "Polygon":
            chk.add(where, "geometry must be a Polygon")
        elif _vertices(geom) > MAX_POLYGON_VERTICES:
            chk.add(
                where,
                f"polygon has {_vertices(geom):,} vertices; at most {MAX_POLYGON_VERTICES:,}"
                " (simplify it)",
            )
        else:
            try:
                poly = shape(geom)
                if not poly.is_valid or poly.is_empty:
                    chk.add(where, "polygon is not valid (self-intersecting or empty)")
                else:
                    computed = polygon_area_km2(geom["coordinates"])
                    _front_in_its_country(poly, props.get("side"), outlines, chk, where)
            except (ValueError, TypeError, IndexError, AttributeError) as exc:
                chk.add(where, f"polygon cannot be read: {exc}")
        for key in ("reported_km2", "drawn_km2"):
            val = props.get(key)
            if val not in (None, "") and not _area(val):
                most = f"{MAX_AREA_KM2:,}"
                chk.add(where, f"{key} {str(val)[:40]!r} must be a number from 0 to {most}")
        drawn = props.get("drawn_km2")
        measured = computed is not None and _area(drawn) and drawn > 0
        if measured and abs(drawn - computed) > max(0.1, _AREA_TOLERANCE * computed):
            chk.add(
                where,
                f"drawn_km2 {drawn} does not match the polygon's area {computed:.1f} km²"
                " (run data/scripts/fronts_areas.py)",
            )
        if chk.count == n_before:
            rows.append(
                {
                    **{k: props.get(k) for k in FRONT_PROPERTIES},
                    # None where no source gives a figure for that day: the chart shows a gap.
                    "reported_km2": props.get("reported_km2"),
                    "note": props.get("note", ""),
                    "valid_from": pd.Timestamp(dates["valid_from"]),
                    "valid_to": pd.Timestamp(dates["valid_to"]),
                    "geometry": geom,
                    "computed_km2": round(computed, 1),
                }
            )
    _fronts_at_once(rows, chk)
    return pd.DataFrame(rows, columns=columns)


def _fronts_at_once(rows: list[dict], chk: _Checker) -> None:
    """At most MAX_FRONTS_AT_ONCE polygons may be valid on one day (a sweep over their dates)."""
    changes: dict[pd.Timestamp, int] = {}
    for r in rows:
        changes[r["valid_from"]] = changes.get(r["valid_from"], 0) + 1
        after = r["valid_to"] + pd.Timedelta(days=1)
        changes[after] = changes.get(after, 0) - 1
    valid = 0
    for day in sorted(changes):
        valid += changes[day]
        if valid > MAX_FRONTS_AT_ONCE:
            chk.add("", f"{valid:,} polygons are valid on {day:%Y-%m-%d}; at most"
                        f" {MAX_FRONTS_AT_ONCE} on one day")  # fmt: skip
            return


def _area(value: object) -> bool:
    """A finite number of km² from 0 to the Earth's surface (NaN fails every comparison)."""
    return _is_number(value) and 0 <= value <= MAX_AREA_KM2


def _front_in_its_country(poly, side, outlines: Outlines | None, chk: _Checker, where: str):
    """At least MIN_FRONT_SHARE of a side's polygon must lie in that country on the basemap."""
    if outlines is None or side not in ("LB", "SY"):
        return
    share = checks.share_in_country(outlines, side, poly)
    if share is not None and share < checks.MIN_FRONT_SHARE:
        chk.add(
            where,
            f"only {share:.1%} of the polygon lies in {side} on the basemap"
            f" (side {side} needs at least {checks.MIN_FRONT_SHARE:.0%})",
        )


def _places_in_their_countries(places: pd.DataFrame, outlines: Outlines, problems) -> None:
    """Each place's point must lie within its radius of every country its country cell names."""
    chk = _Checker("places.csv", problems)
    ok = places[["lat", "lon", "radius_m"]].notna().all(axis=1) & (places["country"] != "")
    rows = places[ok]
    codes = rows["country"].str.split("|").explode()
    found = []
    for code, group in rows.loc[codes.index].groupby(codes.to_numpy(), sort=False):
        off = checks.outside_km(outlines, code, group["lat"], group["lon"])
        radius_km = group["radius_m"].to_numpy(dtype=float) / 1000
        pairs = zip(group.index, off, radius_km, strict=True)
        found += [(i, code, o, r) for i, o, r in pairs if o > r]
    for idx, code, off, radius_km in sorted(found, key=lambda f: f[0]):
        lat, lon = places.at[idx, "lat"], places.at[idx, "lon"]
        chk.add(
            f"line {int(idx) + chk.first_line}",
            f"{places.at[idx, 'id']} ({lat}, {lon}) lies {off:.1f} km outside {code}, more than"
            f" its radius of {radius_km:g} km: check lat/lon, country or radius_m",
        )


def _convoy_speed(convoy: pd.DataFrame, places: pd.DataFrame, problems) -> None:
    """No leg of the convoy's route may need more than MAX_CONVOY_KMH.

    Each group's route is in date order and, within a date, in file order (checks.convoy_legs);
    a leg within one date is given checks.SAME_DAY_HOURS, a leg across dates 24 h a day.
    """
    if convoy.empty:
        return
    chk = _Checker("convoy.csv", problems)
    # places.csv may itself be broken (a duplicate id is reported there): use each id once.
    usable = places[places["id"] != ""].drop_duplicates("id")
    joined = _join_places(convoy, usable)
    ok = joined[["date", "lat", "lon", "radius_m"]].notna().all(axis=1)
    positions = [
        checks.Position(idx, r["date"].date(), r["group"], r["lat"], r["lon"], r["radius_m"] / 1000)
        for idx, r in joined[ok].iterrows()
    ]
    for a, b, kmh in checks.too_fast(positions):
        allowed, check = _leg_time(a, b)
        chk.add(
            f"line {int(b.label) + chk.first_line}",
            f"{convoy.at[b.label, 'id']} is too far from {convoy.at[a.label, 'id']}"
            f" (line {int(a.label) + chk.first_line}): even between the edges of their circles it"
            f" needs {kmh:.0f} km/h over {allowed}, faster than a bus"
            f" ({checks.MAX_CONVOY_KMH:.0f} km/h); check {check}",
        )


def _leg_time(a: checks.Position, b: checks.Position) -> tuple[str, str]:
    """The time _convoy_speed allows from ``a`` to ``b`` and what to check, for its message."""
    days = (b.day - a.day).days
    if days > 0:
        return f"{days} day(s)", "lat/lon, radius_m or the date"
    hours = f"{checks.SAME_DAY_HOURS:g} h"
    return f"{hours} (one date: at most {hours} apart)", "lat/lon, radius_m, the date or row order"


def _join_places(df: pd.DataFrame, places: pd.DataFrame) -> pd.DataFrame:
    """Add place_name, lat, lon and radius_m (the place's, unless the row has its own)."""
    lookup = places.set_index("id")
    out = df.copy()
    ids = out["place_id"]
    out["place_name"] = ids.map(lookup["name"]).fillna("")
    for col in ("lat", "lon", "radius_m"):
        from_place = ids.map(lookup[col])
        out[col] = out[col].fillna(from_place) if col in out else from_place
    return out


def _load_chapters(meta, span, source_ids, tables, lines, problems, warnings):
    """story.toml's [[chapters]], checked against the ids the other files define."""
    places, convoy, fronts = tables
    if not meta or "chapters" not in meta:
        return ()
    positions = None
    if convoy is not None:
        pairs = zip(convoy["id"], convoy["date"], strict=True)
        positions = {i: d.date() for i, d in pairs if pd.notna(d)}
    valid = None
    if fronts is not None:
        valid = {r.id: (r.valid_from.date(), r.valid_to.date()) for r in fronts.itertuples()}
    known = Known(
        sources=frozenset(source_ids),
        places=None if places is None else frozenset(places["id"]),
        convoy=positions,
        fronts=valid,
    )
    return parse_chapters(
        meta["chapters"],
        known,
        span,
        lambda where, msg: problems.append(Problem("story.toml", where, msg)),
        lambda where, msg: warnings.append(Problem("story.toml", where, msg)),
        lines,
    )


def _guarded(file: str, problems: list[Problem], load: Callable[[], Any]) -> Any:
    """Run one file's loader; a case no check foresaw is that file's problem, not a crash."""
    try:
        return load()
    except READ_FAILURES as exc:
        problems.append(Problem(file, "", f"cannot be read: {failure_text(exc, 280)}"))
        return None


def unreadable(path: str | Path, exc: BaseException) -> StoryError:
    """A StoryError for a failure no check foresaw (one of READ_FAILURES) while reading a story."""
    return StoryError(path, [Problem(Path(path).name, "", f"cannot be read: {failure_text(exc)}")])


def load_story(
    path: str | Path,
    limits: Limits = Limits(),
    *,
    basemap: str | Path | None = BASEMAP,
    with_events: bool = True,
    checked_places: pd.DataFrame | None = None,
) -> Story:
    """Load and validate the story folder at ``path``; raise StoryError listing its problems.

    Whatever a hostile folder holds, the only exception is StoryError (READ_FAILURES become one).
    """
    try:
        return _load_story(path, limits, basemap, with_events, checked_places)
    except StoryError:
        raise
    except READ_FAILURES as exc:
        raise unreadable(path, exc) from exc


def _load_story(
    path: str | Path,
    limits: Limits,
    basemap: str | Path | None,
    with_events: bool,
    checked_places: pd.DataFrame | None,
) -> Story:
    """load_story's work.

    ``limits`` bound the tables (UPLOAD_LIMITS for a story that came as a zip). ``basemap`` is
    the countries GeoJSON that places and fronts are checked against (the one the map draws);
    None skips those checks. ``with_events=False`` leaves the events file unread (an empty
    events table): the event store has validated it already. ``checked_places`` is that
    store's copy of ``places.csv`` as this function loaded and checked it from the same files:
    it is used instead of reading and checking the file again.
    """
    path = Path(path)
    if not path.is_dir():
        raise StoryError(path, [Problem(str(path), "", "is not a story folder")])
    problems = Problems()
    warnings: list[Problem] = []
    outlines = checks.load_outlines(str(basemap)) if basemap is not None else None
    if basemap is not None and outlines is None:
        warnings.append(Problem(str(basemap), "", "cannot be read: geography not checked"))
    chapter_lines: list[int] = []
    meta = _guarded(
        "story.toml", problems, lambda: _load_meta(path, problems, warnings, chapter_lines)
    )
    span = None
    if meta and "span" in meta:
        span = (meta["span"]["start"], meta["span"]["end"])
    if checked_places is not None:
        places = checked_places
    else:
        places = _guarded("places.csv", problems, lambda: _load_places(path, problems))
    place_ids = set(places["id"]) if places is not None else set()
    source_ids = {
        s.get("id")
        for s in (meta or {}).get("sources", [])
        if isinstance(s, dict) and is_slug(s.get("id"))
    }
    if with_events:
        events = _guarded(
            "events",
            problems,
            lambda: _load_events(path, problems, span, place_ids, source_ids, limits),
        )
    else:
        events = _empty_events()
    convoy = _guarded(
        "convoy.csv", problems, lambda: _load_convoy(path, problems, span, place_ids, source_ids)
    )
    fronts = _guarded(
        "fronts.geojson",
        problems,
        lambda: _load_fronts(path, problems, span, source_ids, outlines),
    )
    if places is not None and outlines is not None and checked_places is None:
        _places_in_their_countries(places, outlines, problems)
    if places is not None and convoy is not None:
        _convoy_speed(convoy, places, problems)
    if (
        meta
        and "dateline" in meta
        and places is not None
        and meta["dateline"]["place"] not in (place_ids)
    ):
        problems.append(
            Problem("story.toml", "", f"dateline place {meta['dateline']['place']!r} is unknown")
        )
    for lm in (meta or {}).get("landmarks", []):
        if places is not None and lm not in place_ids:
            problems.append(Problem("story.toml", "", f"landmark {lm!r} is not a places.csv id"))
    chapters = _load_chapters(
        meta, span, source_ids, (places, convoy, fronts), chapter_lines, problems, warnings
    )
    if problems:
        raise StoryError(path, problems, warnings)
    assert meta is not None and places is not None and events is not None
    assert convoy is not None and fronts is not None
    events = _join_places(events, places)
    events = events.sort_values(["date", "id"], kind="stable").reset_index(drop=True)
    convoy = _join_places(convoy, places)
    convoy = convoy.sort_values(["date", "group"], kind="stable").reset_index(drop=True)
    fronts = fronts.sort_values(["side", "valid_from"], kind="stable").reset_index(drop=True)
    sources = pd.DataFrame(meta["sources"]).astype(object)
    return Story(path, meta, places, events, convoy, fronts, sources, tuple(warnings), chapters)


def describe(story: Story) -> str:
    """A one-screen summary of a loaded story."""
    p, e = story.places, story.events
    cats = e["category"].value_counts()
    lines = [
        f"{story.title}  [{story.id}]",
        f"span        {story.start} .. {story.end}",
        f"events      {len(e)} ({e['date'].min():%Y-%m-%d} .. {e['date'].max():%Y-%m-%d})",
        "categories  " + ", ".join(f"{c} {n}" for c, n in cats.items()),
        f"places      {len(p)} ({(p['radius_m'] >= 5000).sum()} approximate, radius ≥ 5 km)",
        f"convoy      {len(story.convoy)} positions",
        f"fronts      {len(story.fronts)} polygons",
        f"sources     {len(story.sources)}",
        *([f"chapters    {len(story.chapters)}"] if story.chapters else []),
        f"bbox        lat {p['lat'].min():.4f} .. {p['lat'].max():.4f}, "
        f"lon {p['lon'].min():.4f} .. {p['lon'].max():.4f}",
    ]
    return "\n".join(lines)


def run_validate(argv: list[str]) -> int:
    """``python -m geo validate PATH``: summary and exit 0, or every problem and exit 1."""
    if len(argv) != 1:
        print("usage: python -m geo validate PATH", file=sys.stderr)
        return 2
    try:
        story = load_story(argv[0])
    except StoryError as exc:
        print(exc, file=sys.stderr)
        _print_warnings(exc.warnings)
        return 1
    print(describe(story))
    _print_warnings(story.warnings)
    print(f"OK ({len(story.warnings)} warning(s))" if story.warnings else "OK")
    return 0


def _print_warnings(warnings: list[Problem] | tuple[Problem, ...]) -> None:
    """Warnings go to stderr, one a line, and never change the exit status."""
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
