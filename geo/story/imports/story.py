"""What every importer fills: places deduplicated, events, and the story folder written once.

A dataset module turns each valid row into one ``add_event`` call with its place's fields; this
module gives places and events their ids, checks what spans rows (duplicate ids, the span of
dates), and writes the folder through ``geo.story.storage.save_story``: validated under a
temporary name and renamed into place, so a refused or interrupted import leaves nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from geo.names import is_slug, one_line, slugify
from geo.story import checks
from geo.story.imports.base import Rows
from geo.story.load.schema import EVENT_COLUMNS, FIGURES, MAX_NAME, MAX_SPAN_DAYS, MAX_TITLE
from geo.story.model import Story

# A summary is a sentence or two on the details panel; ACLED's longest notes are about 2,000
# characters. Longer text is cut (with "…"), never refused.
MAX_SUMMARY = 2_000
MAX_DETAIL = 1_000


@dataclass(frozen=True)
class Source:
    """The dataset as the story's one [[sources]] entry."""

    id: str
    publication: str
    url: str


@dataclass(frozen=True)
class PlaceFields:
    """A place as one row gives it; rows giving the same fields share one place."""

    name: str
    kind: str
    country: str
    lat: float
    lon: float
    radius_m: int
    coord_source: str
    aliases: tuple[str, ...] = ()
    # The first-level division the dataset names (a name, "" when it names none). Part of the
    # key: two rows differing only in it are two places, as the loader's filter must tell them
    # apart (the datasets already put it in coord_source, so they never merged).
    admin1: str = ""


@dataclass
class Imported:
    """The rows of one export, as a story's tables take them."""

    source: Source
    rows: Rows
    places: dict[PlaceFields, str] = field(default_factory=dict)
    place_line: dict[str, int] = field(default_factory=dict)
    events: list[dict] = field(default_factory=list)
    event_line: dict[str, int] = field(default_factory=dict)
    left_out: Counter = field(default_factory=Counter)  # reason -> rows left out

    def place_id(self, place: PlaceFields) -> str:
        """The id of ``place``: the same fields give the same id."""
        if place in self.places:
            return self.places[place]
        base = slugify(place.name, "place")[:50].strip("-") or "place"
        pid, n = base, 1
        while pid in self.place_line:
            n += 1
            pid = f"{base}-{n}"
        self.places[place] = pid
        self.place_line[pid] = self.rows.line
        return pid

    def add_event(self, raw_id: str, place: PlaceFields, **cells) -> None:
        """One event; ``raw_id`` is the dataset's id (made a slug: ``SYR1234`` is ``syr1234``)."""
        eid = slugify(raw_id, "")
        if not is_slug(eid):
            self.rows.add(f"event id {raw_id[:40]!r} has no letter or digit")
            return
        if eid in self.event_line:
            self.rows.add(
                f"event id {raw_id!r} is used twice (first on line {self.event_line[eid]})"
            )
            return
        self.event_line[eid] = self.rows.line
        # A summary is required; notes of blanks or bidi controls alone leave none.
        summary = one_line(cells.pop("summary")) or "The export gives no description."
        row = {c: None for c in EVENT_COLUMNS} | {
            "id": eid,
            "place_id": self.place_id(place),
            "summary": _cut(summary, MAX_SUMMARY),
            "source": self.source.id,
            "source_detail": _cut(one_line(cells.pop("source_detail", "")), MAX_DETAIL),
            "confidence": "reported",
            "confidence_note": "",
        }
        row.update(cells)
        row["end_date"] = row["end_date"] if row["end_date"] != row["date"] else None
        self.events.append(row)


def name_cell(text: object) -> str:
    """A dataset's division or type name as the story keeps it: one line, no control
    character, "|" as "/" (links separate names with "|"), at most MAX_NAME characters (the
    loader refuses more)."""
    line = "".join(c for c in one_line(text) if c.isprintable()).replace("|", "/")
    return _cut(line, MAX_NAME)


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def check_places(imported: Imported) -> None:
    """Each place within its radius of its country, on the outlines the loader checks them
    against; a place that is not is reported at the export line that first gave it."""
    outlines = checks.load_outlines(str(checks.BASEMAP))
    if outlines is None:
        return
    for place, pid in imported.places.items():
        off = checks.distance_to_country_km(outlines, place.country, place.lat, place.lon)
        if off is not None and off > place.radius_m / 1000:
            imported.rows.add(
                f"{place.name} ({place.lat:g}, {place.lon:g}) lies {off:.0f} km outside"
                f" {place.country}, more than its radius of {place.radius_m / 1000:g} km",
                imported.place_line[pid],
            )


def story_tables(
    imported: Imported, story_id: str, title: str, what: str
) -> tuple[dict, pd.DataFrame, pd.DataFrame] | None:
    """(story.toml's meta, places, events) of a checked import; None (a problem) when empty
    or when its dates span more than a story may."""
    rows = imported.rows
    if not imported.events:
        rows.add("has no event to import", 0)
        return None
    events = pd.DataFrame(imported.events, columns=list(EVENT_COLUMNS))
    start = min(events["date"])
    end = max([*events["date"], *(d for d in events["end_date"] if d is not None)])
    days = (end - start).days + 1
    if days > MAX_SPAN_DAYS:
        rows.add(f"covers {days:,} days ({start}..{end}); a story covers at most 20 years", 0)
        return None
    for col in FIGURES:
        events[col] = pd.array(events[col], dtype="Int64")
    places = _places_table(imported)
    busiest = Counter(events["place_id"]).most_common(1)[0][0]
    meta = {
        "id": story_id,
        "title": one_line(title)[:MAX_TITLE],
        "summary": f"{len(events):,} events {what}, {start} to {end}. Imported by Dateline; the"
        " places' radii and the date ranges come from the dataset's precision codes.",
        "span": {"start": start, "end": end},
        "dateline": {"place": busiest, "date": end},
        "sources": [vars(imported.source)],
    }
    return meta, places, events


def _places_table(imported: Imported) -> pd.DataFrame:
    rows = [
        {
            "id": pid,
            "name": p.name,
            "aliases": list(p.aliases),
            "kind": p.kind,
            "country": p.country,
            "admin1": p.admin1,
            "lat": p.lat,
            "lon": p.lon,
            "radius_m": p.radius_m,
            "geonames_id": None,
            "coord_source": p.coord_source,
        }
        for p, pid in imported.places.items()
    ]
    return pd.DataFrame(rows)


def write_story(
    target: Path, tables: tuple[dict, pd.DataFrame, pd.DataFrame], replace: bool, store=None
) -> Story:
    """The story folder at ``target``, written atomically and validated (geo.story.storage);
    with ``store`` (geo.story.store: a folder or PostgreSQL) saved there as ``target``'s name."""
    from geo.story.storage import save_story, story_files

    meta, places, events = tables
    files = story_files(meta, places, events)
    if store is not None:
        return store.save(target.name, files, replace=replace)
    return save_story(target.parent, target.name, files, replace=replace)
