"""Several reports, one story: a further article's draft tables merged into the story's.

Places are matched to the story's by gazetteer key, then by name; events to the story's when
they tell the same happening (same or nearby place, overlapping days, related category). A
merged event cites both sources; where their figures differ the story keeps its own, marks the
event 'disputed' and says in its note what the other report gives.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import pandas as pd

from geo.extract.draft import unique_slug
from geo.geometry import sphere_km
from geo.names import normalize, slugify, split_aliases, variants
from geo.story.load import FIGURES
from geo.vocabulary import CATEGORY

# Two placed rows with the same name further apart than this (or than the larger of their
# radii, for a country or a region) are namesakes: Tripoli in Lebanon is not Tripoli in Libya.
NAME_KM = 25.0
# Events at two places this close are at the same spot as far as a report's precision goes.
EVENT_KM = 10.0
# Reports date the same happening a day apart (the night it began, the day it was reported).
DAY_SLACK = timedelta(days=1)
# Words a report may put after a place's name or leave out: "Zamrani crossing" is "Zamrani".
_TYPE_WORDS = frozenset(
    {
        "area", "border", "camp", "city", "county", "crossing", "district", "governorate",
        "hill", "hills", "mountain", "mountains", "municipality", "prefecture", "province",
        "region", "state", "town", "valley", "village",
    }
)  # fmt: skip


def _missing(v: Any) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    return isinstance(v, float) and math.isnan(v)


def _text(v: Any) -> str:
    return "" if _missing(v) else str(v)


def _ticked(row: pd.Series) -> bool:
    """Whether a row's ``keep`` box is ticked; a table without the column keeps every row."""
    v = row.get("keep", True)
    return not _missing(v) and bool(v)


def source_id(source: dict, sources: list[dict]) -> str:
    """A new source's id: its publication's slug if free, else the first free "article-N"."""
    taken = {str(s.get("id")) for s in sources}
    slug = slugify(_text(source.get("publication")), "")
    if slug and slug not in taken:
        return slug
    n = 2
    while f"article-{n}" in taken:
        n += 1
    return f"article-{n}"


# --- places ---------------------------------------------------------------------------------------


def _point(row: pd.Series) -> tuple[float, float] | None:
    lat, lon = row.get("lat"), row.get("lon")
    if _missing(lat) or _missing(lon):
        return None
    try:
        return float(lat), float(lon)
    except (TypeError, ValueError):
        return None


def _radius_km(row: pd.Series) -> float:
    try:
        r = float(row.get("radius_m"))
    except (TypeError, ValueError):
        return 0.0
    return r / 1000 if math.isfinite(r) else 0.0


def _names(row: pd.Series) -> set[str]:
    return variants(_text(row.get("name")), split_aliases(row.get("aliases")))


def _core(name: str) -> str:
    """A normalised name without a type word at its end ("zamrani crossing" -> "zamrani")."""
    words = name.split()
    while len(words) > 1 and words[-1] in _TYPE_WORDS:
        words.pop()
    return " ".join(words)


@dataclass(frozen=True)
class _Place:
    """What matching needs of one place row, worked out once."""

    key: Any
    names: frozenset[str]
    cores: frozenset[str]
    point: tuple[float, float] | None
    radius_km: float


def _place(key: Any, row: pd.Series) -> _Place:
    names = _names(row)
    return _Place(key, frozenset(names), frozenset(map(_core, names)), _point(row), _radius_km(row))


def _match_place(new: _Place, story: list[_Place], keys: set) -> Any | None:
    """The story's index key for the place ``new`` names, or None: the same gazetteer key,
    else the same name or alias (unless both are placed far apart), else the same name but for
    a type word within NAME_KM."""
    if new.key in keys:
        return new.key
    near_name = None
    for old in story:
        km = sphere_km(new.point, old.point) if new.point and old.point else None
        if new.names & old.names:
            if km is None or km <= max(NAME_KM, new.radius_km, old.radius_km):
                return old.key
        elif near_name is None and km is not None and km <= NAME_KM and new.cores & old.cores:
            near_name = old.key
    return near_name


def _merge_place(story: pd.DataFrame, key: Any, row: pd.Series) -> None:
    """Add ``row``'s mentions to the story's row ``key``, its spelling as an alias, and its
    point where the story's row has none yet."""
    mine = story.loc[key]
    mentions = pd.to_numeric(
        pd.Series([mine.get("mentions"), row.get("mentions")]), errors="coerce"
    )
    story.at[key, "mentions"] = int(mentions.fillna(0).sum())
    name = _text(row.get("name")).strip()
    if name and normalize(name) not in _names(mine):
        aliases = split_aliases(mine.get("aliases"))
        story.at[key, "aliases"] = "|".join([*aliases, name])
    if _point(mine) is None and _point(row) is not None:
        for col in ("lat", "lon", "radius_m", "country", "kind", "keep"):
            if col in story.columns and col in row.index:
                story.at[key, col] = row[col]


def _add_places(
    places: pd.DataFrame, new_places: pd.DataFrame
) -> tuple[pd.DataFrame, dict[str, str], int, int]:
    """(places, new id -> story id, matched, added)."""
    story = places.copy()
    taken = {str(i) for i in story["id"]} if "id" in story.columns else set()
    ids: dict[str, str] = {}
    added_rows, added_keys = [], []
    matched = 0
    known = [_place(k, r) for k, r in story.iterrows()]
    keys = set(story.index)
    for key, row in new_places.iterrows():
        found = _match_place(_place(key, row), known, keys)
        if found is not None:
            matched += 1
            _merge_place(story, found, row)
            ids[str(row["id"])] = str(story.at[found, "id"])
            continue
        new = row.copy()
        base = slugify(_text(row.get("id")) or _text(row.get("name")), "place")
        new["id"] = unique_slug(base, taken)
        ids[str(row["id"])] = new["id"]
        added_rows.append(new)
        added_keys.append(key)
    if added_rows:
        extra = pd.DataFrame(added_rows)
        extra.index = pd.Index(added_keys, name=story.index.name or new_places.index.name)
        story = _concat(story, extra, new_places)
    return story, ids, matched, len(added_rows)


def _concat(story: pd.DataFrame, extra: pd.DataFrame, like: pd.DataFrame) -> pd.DataFrame:
    """``extra``'s rows after ``story``'s, in the story's dtypes where the values allow (the
    report's table ``like`` gives columns and dtypes while the story has none)."""
    base = story if len(story) or len(story.columns) else like
    out = pd.concat([story, extra.reindex(columns=base.columns)]) if len(story) else extra
    out = out.reindex(columns=base.columns)
    for col in base.columns:
        dtype = (story if len(story) else like).get(col, base[col]).dtype
        if out[col].dtype != dtype:
            # iterrows() left numbers as objects; a cell the dtype cannot hold keeps the wider one.
            with contextlib.suppress(TypeError, ValueError):
                out[col] = out[col].astype(dtype)
    return out


# --- events ---------------------------------------------------------------------------------------


def _as_day(v: Any) -> date | None:
    if _missing(v):
        return None
    if isinstance(v, datetime):  # pd.Timestamp too
        return v.date()
    if isinstance(v, date):
        return v
    try:
        return date.fromisoformat(str(v)[:10])
    except ValueError:
        return None


def _window(row: pd.Series) -> tuple[date, date] | None:
    start = _as_day(row.get("date"))
    if start is None:
        return None
    end = _as_day(row.get("end_date")) or start
    return start, max(start, end)


def _days(start: date, end: date) -> list[date]:
    # A story spans at most 20 years (load.MAX_SPAN_DAYS); an edited cell may say anything.
    n = min((end - start).days, 7_305)
    return [start + timedelta(days=k) for k in range(n + 1)]


def _family(category: str) -> str | None:
    cat = CATEGORY.get(category)
    return cat.family if cat else None


@dataclass(frozen=True)
class _Event:
    """What matching needs of one event row, worked out once."""

    window: tuple[date, date] | None
    category: str
    place: str


def _event(row: pd.Series) -> _Event:
    return _Event(_window(row), _text(row.get("category")), _text(row.get("place")))


def _same_happening(
    a: _Event, b: _Event, points: dict[str, tuple[float, float]]
) -> tuple[bool, bool, int] | None:
    """How close ``b`` is to telling the same happening as ``a`` (smaller is closer), or None
    when it is not: a place too far, days that do not meet, unrelated categories."""
    if a.window is None or b.window is None:
        return None
    (a0, a1), (b0, b1) = a.window, b.window
    if a0 - DAY_SLACK > b1 or b0 - DAY_SLACK > a1:
        return None
    if a.category != b.category and (
        _family(a.category) is None or _family(a.category) != _family(b.category)
    ):
        return None
    if a.place != b.place:
        pa, pb = points.get(a.place), points.get(b.place)
        if pa is None or pb is None or sphere_km(pa, pb) > EVENT_KM:
            return None
    gap = max(0, (a0 - b1).days, (b0 - a1).days)
    return (a.category != b.category, a.place != b.place, gap)


def _figure(col: str, n: int) -> str:
    return f"{n:,} km²" if col == "area_km2" else f"{n:,} {col}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _merge_event(
    story: pd.DataFrame, i: Any, new: pd.Series, src: str, names: dict[str, str]
) -> bool:
    """Fold ``new`` into the story's event ``i``; True when their figures differ."""
    old = story.loc[i]
    cited = [s for s in _text(old.get("source")).split("|") if s]
    differ: list[tuple[str, int, int]] = []
    for col in FIGURES:
        if col not in story.columns or col not in new.index or _missing(new[col]):
            continue
        if _missing(old[col]):
            story.at[i, col] = new[col]
        elif int(old[col]) != int(new[col]):
            differ.append((col, int(new[col]), int(old[col])))
    actors = [a for a in _text(old.get("actors")).split("|") if a]
    actors += [a for a in _text(new.get("actors")).split("|") if a and a not in actors]
    story.at[i, "actors"] = "|".join(actors)
    if src not in cited:
        story.at[i, "source"] = "|".join([*cited, src])
    if not differ:
        return False
    theirs = _and([_figure(col, n) for col, n, _ in differ])
    # One figure: "12 killed; Reuters gives 10". Several: each needs its word on both sides.
    ours = _and([f"{n:,}" if len(differ) == 1 else _figure(col, n) for col, _, n in differ])
    before = [names.get(s, s) for s in cited] or ["the story"]
    verb = "gives" if len(before) == 1 else "give"
    sentence = f"{names.get(src, src)} gives {theirs}; {_and(before)} {verb} {ours}."
    note = _text(old.get("confidence_note")).strip()
    if sentence not in note:
        story.at[i, "confidence_note"] = f"{note} {sentence}".strip()
    story.at[i, "confidence"] = "disputed"
    return True


def _add_events(
    events: pd.DataFrame,
    new_events: pd.DataFrame,
    places: pd.DataFrame,
    ids: dict[str, str],
    src: str,
    names: dict[str, str],
    first: str,
) -> tuple[pd.DataFrame, int, int, int]:
    """(events, merged, of them with differing figures, added); ``first`` is the source of
    story events that name none (tables drafted before events had a source column)."""
    story = events.copy().reset_index(drop=True)
    new = new_events.copy().reset_index(drop=True)
    if "source" not in story.columns:
        story["source"] = first
    story["source"] = [_text(s) or first for s in story["source"]]
    for df in (story, new):
        if "confidence_note" not in df.columns:
            df["confidence_note"] = ""
    new["place"] = [ids.get(_text(p), _text(p)) for p in new["place"]]
    new["source"] = src
    points = {str(r["id"]): p for _, r in places.iterrows() if (p := _point(r)) is not None}
    # Only ticked events meet: an unticked one is on its way out. Each story event takes at
    # most one of the report's (they are distinct happenings of their own), closest pairs
    # first, so which comes first in the report does not decide.
    kept = [i for i in story.index if _ticked(story.loc[i])]
    # Story events by each day they cover, a day either side included: a report's event is
    # held against those of its own days only, not against every event of the story.
    by_day: dict[date, list[Any]] = {}
    olds = {i: _event(story.loc[i]) for i in kept}
    for i, old in olds.items():
        if old.window is not None:
            for day in _days(old.window[0] - DAY_SLACK, old.window[1] + DAY_SLACK):
                by_day.setdefault(day, []).append(i)
    pairs = []
    for j, row in new.iterrows():
        if not _ticked(row):
            continue
        ev = _event(row)
        near = {i for day in _days(*ev.window) for i in by_day.get(day, ())} if ev.window else ()
        pairs += [(s, j, i) for i in near if (s := _same_happening(ev, olds[i], points))]
    matched: dict[Any, Any] = {}
    taken: set[Any] = set()
    for _, j, i in sorted(pairs):
        if j not in matched and i not in taken:
            matched[j] = i
            taken.add(i)
    disputed = sum(_merge_event(story, i, new.loc[j], src, names) for j, i in matched.items())
    appended = [row for j, row in new.iterrows() if j not in matched]
    if appended:
        extra = pd.DataFrame(appended).reindex(columns=story.columns)
        extra["confidence_note"] = extra["confidence_note"].fillna("")
        story = _concat(story, extra, new).reset_index(drop=True)
    return story, len(matched), disputed, len(appended)


# --- the whole report -----------------------------------------------------------------------------


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def add_report(
    places: pd.DataFrame,
    events: pd.DataFrame,
    sources: list[dict],
    new_places: pd.DataFrame,
    new_events: pd.DataFrame,
    new_source: dict,
) -> tuple[pd.DataFrame, pd.DataFrame, list[dict], list[str]]:
    """The story's places, events and sources with one more report's folded in, and notes
    saying what happened to it. The inputs are not changed."""
    first = str(sources[0]["id"]) if sources else ""
    src = source_id(new_source, sources)
    sources = [*sources, {**new_source, "id": src}]
    names = {str(s["id"]): _text(s.get("publication")) or str(s["id"]) for s in sources}
    places, ids, matched, added = _add_places(places, new_places)
    events, merged, disputed, appended = _add_events(
        events, new_events, places, ids, src, names, first
    )
    notes = [
        f"The report is source '{src}' ({names[src]}).",
        f"{_count(matched, 'place', 'places')} matched the story's, {added} added.",
    ]
    if merged:
        differ = ""
        if disputed:
            on = "" if disputed == merged == 1 else f" on {disputed}"
            differ = f" (figures differ{on}: marked disputed)"
        ones = "one" if merged == 1 else "ones"
        notes.append(
            f"{_count(merged, 'event', 'events')} merged with {ones} already in the story"
            f"{differ}; {appended} added."
        )
    else:
        notes.append(f"No event matched one already in the story; {appended} added.")
    return places, events, sources, notes
