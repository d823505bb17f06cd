"""load_story: every file of a story folder read, checked against the others, and joined."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from geo.errors import READ_FAILURES
from geo.names import is_slug, plural
from geo.story import checks
from geo.story.chapters import Known, parse_chapters
from geo.story.checks import BASEMAP, Outlines
from geo.story.load.fronts import load_fronts
from geo.story.load.meta import load_meta
from geo.story.load.problems import Checker, Problems, StoryError, guarded, unreadable
from geo.story.load.schema import FOLDER_LIMITS, Limits
from geo.story.load.tables import empty_events, load_convoy, load_events, load_places
from geo.story.model import Problem, Story


def load_story(
    path: str | Path,
    limits: Limits = FOLDER_LIMITS,
    *,
    basemap: str | Path | None = BASEMAP,
    with_events: bool = True,
    checked_places: pd.DataFrame | None = None,
    events_loader: Callable | None = None,
) -> Story:
    """Load and validate the story folder at ``path``; raise StoryError listing its problems.

    ``limits`` bound the tables (UPLOAD_LIMITS for a story that came as a zip). ``basemap`` is
    the countries GeoJSON that places and fronts are checked against (the one the map draws);
    None skips those checks. ``with_events=False`` leaves the events file unread (an empty
    events table): the event store has validated it already. ``checked_places`` is that
    store's copy of ``places.csv`` as this function loaded and checked it from the same files:
    it is used instead of reading and checking the file again. ``events_loader`` stands in for
    ``load_events`` (same arguments and answer): the event store's chunked check.

    Whatever a hostile folder holds, the only exception is StoryError (READ_FAILURES become one).
    """
    try:
        loader = events_loader or load_events
        return _load_story(Path(path), limits, basemap, with_events, checked_places, loader)
    except StoryError:
        raise
    except READ_FAILURES as exc:
        raise unreadable(path, exc) from exc


def _load_story(
    path: Path,
    limits: Limits,
    basemap: str | Path | None,
    with_events: bool,
    checked_places: pd.DataFrame | None,
    events_loader: Callable,
) -> Story:
    """load_story's work: each file read on its own, then the checks across files."""
    if not path.is_dir():
        raise StoryError(path, [Problem(str(path), "", "is not a story folder")])
    problems = Problems()
    warnings: list[Problem] = []
    outlines = checks.load_outlines(str(basemap)) if basemap is not None else None
    if basemap is not None and outlines is None:
        warnings.append(Problem(str(basemap), "", "cannot be read: geography not checked"))
    chapter_lines: list[int] = []
    meta = guarded(
        "story.toml", problems, lambda: load_meta(path, problems, warnings, chapter_lines)
    )
    span = (meta["span"]["start"], meta["span"]["end"]) if meta and "span" in meta else None
    if checked_places is not None:
        places = checked_places
    else:
        places = guarded("places.csv", problems, lambda: load_places(path, problems))
    place_ids = set(places["id"]) if places is not None else set()
    source_ids = _source_ids(meta)
    if with_events:
        events = guarded(
            "events",
            problems,
            lambda: events_loader(path, problems, span, place_ids, source_ids, limits),
        )
    else:
        events = empty_events()
    convoy = guarded(
        "convoy.csv", problems, lambda: load_convoy(path, problems, span, place_ids, source_ids)
    )
    fronts = guarded(
        "fronts.geojson", problems, lambda: load_fronts(path, problems, span, source_ids, outlines)
    )
    if places is not None:
        # The event store's checked copy of places.csv was checked against the basemap already.
        unchecked = outlines if checked_places is None else None
        _across_files(meta, places, convoy, unchecked, problems)
    chapters = _load_chapters(
        path, meta, span, source_ids, (places, convoy, fronts), chapter_lines, problems, warnings
    )
    if problems:
        raise StoryError(path, problems, warnings)
    return _story(path, meta, places, events, convoy, fronts, tuple(warnings), chapters)


def _source_ids(meta: dict | None) -> set[str]:
    """The ids of story.toml's [[sources]] that are slugs (the others are reported already)."""
    return {
        s.get("id")
        for s in (meta or {}).get("sources", [])
        if isinstance(s, dict) and is_slug(s.get("id"))
    }


def _across_files(meta, places, convoy, outlines: Outlines | None, problems) -> None:
    """What one file says about another's ids: places on the basemap, the convoy's pace, the
    dateline place and the landmarks."""
    place_ids = set(places["id"])
    if outlines is not None:
        _places_in_their_countries(places, outlines, problems)
    if convoy is not None:
        _convoy_speed(convoy, places, problems)
    if meta and "dateline" in meta and meta["dateline"]["place"] not in place_ids:
        problems.append(
            Problem("story.toml", "", f"dateline place {meta['dateline']['place']!r} is unknown")
        )
    for lm in (meta or {}).get("landmarks", []):
        if lm not in place_ids:
            problems.append(Problem("story.toml", "", f"landmark {lm!r} is not a places.csv id"))


def _story(path, meta, places, events, convoy, fronts, warnings, chapters) -> Story:
    """The Story of tables that have no problems: places joined in, rows in their order."""
    assert meta is not None and places is not None and events is not None
    assert convoy is not None and fronts is not None
    events = _join_places(events, places)
    events = events.sort_values(["date", "id"], kind="stable").reset_index(drop=True)
    convoy = _join_places(convoy, places)
    convoy = convoy.sort_values(["date", "group"], kind="stable").reset_index(drop=True)
    fronts = fronts.sort_values(["side", "valid_from"], kind="stable").reset_index(drop=True)
    sources = pd.DataFrame(meta["sources"]).astype(object)
    return Story(path, meta, places, events, convoy, fronts, sources, warnings, chapters)


def _places_in_their_countries(places: pd.DataFrame, outlines: Outlines, problems) -> None:
    """Each place's point must lie within its radius of every country its country cell names."""
    chk = Checker("places.csv", problems)
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
    chk = Checker("convoy.csv", problems)
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
        return plural(days, "day"), "lat/lon, radius_m or the date"
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


def _load_chapters(path, meta, span, source_ids, tables, lines, problems, warnings):
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
        folder=path,
    )
    return parse_chapters(
        meta["chapters"],
        known,
        span,
        lambda where, msg: problems.append(Problem("story.toml", where, msg)),
        lambda where, msg: warnings.append(Problem("story.toml", where, msg)),
        lines,
    )
