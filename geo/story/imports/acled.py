"""ACLED's export (the 31 columns of its data export tool and API, 2023 codebook) as a story.

docs/importers.md gives the mapping; in short: one event per row, its place from location,
latitude and longitude with geo_precision as a radius, its dates from event_date and
time_precision, its category from event_type and sub_event_type (``SUB_EVENTS``), actors,
fatalities as ``killed``, notes as the summary, and ACLED itself (with the event id and ACLED's
own sources) as the source.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from geo.names import normalize
from geo.story.export import ACLED_COLUMNS, ACLED_SUB_EVENTS
from geo.story.imports import countries
from geo.story.imports.base import Rows, day, degrees, header, records, whole, width
from geo.story.imports.story import Imported, PlaceFields, Source, name_cell

NAME = "ACLED"
COLUMNS = (
    "event_id_cnty",
    "event_date",
    "year",
    "time_precision",
    "disorder_type",
    "event_type",
    "sub_event_type",
    "actor1",
    "assoc_actor_1",
    "inter1",
    "actor2",
    "assoc_actor_2",
    "inter2",
    "interaction",
    "civilian_targeting",
    "iso",
    "region",
    "country",
    "admin1",
    "admin2",
    "admin3",
    "location",
    "latitude",
    "longitude",
    "geo_precision",
    "source",
    "source_scale",
    "notes",
    "fatalities",
    "tags",
    "timestamp",
)
# What the importer reads; docs/importers.md lists the rest as dropped.
USED = [
    "event_id_cnty",
    "event_date",
    "year",
    "time_precision",
    "event_type",
    "sub_event_type",
    "actor1",
    "assoc_actor_1",
    "actor2",
    "assoc_actor_2",
    "civilian_targeting",
    "iso",
    "country",
    "admin1",
    "admin2",
    "location",
    "latitude",
    "longitude",
    "geo_precision",
    "source",
    "source_scale",
    "notes",
    "fatalities",
]
SOURCE = Source(
    "acled", "ACLED (Armed Conflict Location & Event Data), data export", "https://acleddata.com/"
)
ADDRESS = "https://acleddata.com/"

# (event_type, sub_event_type) -> the story's category: ACLED's codebook, kept beside the
# export, which codes a story's own sub_type back with it.
SUB_EVENTS = ACLED_SUB_EVENTS
_PROTESTS = "Protests"
# Matched without case; ACLED spelt "protestors" in some releases.
_SUB_EVENTS = {(t.lower(), s.lower()): c for (t, s), c in SUB_EVENTS.items()}
_SUB_EVENTS[(_PROTESTS.lower(), "excessive force against protestors")] = "protest"
# geo_precision -> (radius in metres, place kind). 1: the town itself, 3 km (a town's extent;
# geo.story.export codes a town within 5 km back as 1); 2: near a town
# or a small part of a region, 25 km; 3: a larger region (a provincial capital stands for it),
# 100 km. A place that is only the country gets a radius holding the whole country instead.
PRECISION = {1: (3_000, "town"), 2: (25_000, "area"), 3: (100_000, "region")}
_PRECISION_WORDS = {
    1: "the town or a point in it",
    2: "near this town, or a small part of the region",
    3: "only a larger region; ACLED's point stands for it",
}
# time_precision -> days either side of event_date; 3 is the whole month.
_WEEK = 3


def dates(event_day: date, precision: int) -> tuple[date, date]:
    """The first and last day an event may have happened on, from ACLED's time_precision:
    1 the day; 2 a week or weekend (event_date ± 3 days); 3 only the month (all of it)."""
    if precision == 2:
        return event_day - timedelta(days=_WEEK), event_day + timedelta(days=_WEEK)
    if precision == 3:
        last = calendar.monthrange(event_day.year, event_day.month)[1]
        return event_day.replace(day=1), event_day.replace(day=last)
    return event_day, event_day


def place(cell: dict[str, str], lat: float, lon: float, precision: int, code: str) -> PlaceFields:
    """The row's place: its point with geo_precision's radius; a location that names the
    country itself is the whole country (its radius holds it, never its middle as a point)."""
    name = cell["location"].strip()
    within = ", ".join(v for v in (cell["admin2"], cell["admin1"], cell["country"]) if v.strip())
    if normalize(name) == normalize(cell["country"]):
        return PlaceFields(
            name,
            "country",
            code,
            lat,
            lon,
            countries.country_radius_m(code, lat, lon),
            f"approx: ACLED geo_precision {precision}, only the country is known;"
            " the circle holds all of it",
        )
    radius, kind = PRECISION[precision]
    prefix = "" if precision == 1 else "approx: "
    note = f"{prefix}ACLED geo_precision {precision} ({_PRECISION_WORDS[precision]}); {within}"
    admin1 = name_cell(cell["admin1"])
    return PlaceFields(name, kind, code, lat, lon, radius, note, admin1=admin1)


def actors(cell: dict[str, str]) -> list[str]:
    """actor1, its associates, actor2's associates, actor2: each once, ``|`` (the story's
    separator) written as ``/``."""
    names = [cell["actor1"]]
    for col in ("assoc_actor_1", "assoc_actor_2"):
        names += cell[col].split(";")
    names.append(cell["actor2"])
    out: list[str] = []
    for n in names:
        n = n.strip().replace("|", "/")
        if n and n not in out:
            out.append(n)
    return out


def read(text: str, rows: Rows, bounds, imported: Imported) -> None:
    """Check every row of an ACLED export and add its event to ``imported``."""
    it = records(text, rows, bounds)
    first = next(it, None)
    if first is None:
        rows.add("is empty", 0)
        return
    if [c.strip() for c in first] == list(ACLED_COLUMNS):
        layout = ACLED_COLUMNS  # Dateline's own ACLED download, read back
    elif header(rows, first, COLUMNS, NAME):
        layout = COLUMNS
    else:
        return
    for record in it:
        if width(rows, record, len(layout)):
            cell = _MISSING | dict(zip(layout, record, strict=True))
            _row(cell, rows, imported)


# What Dateline's 17-column ACLED download (geo.story.export) does not write: the day is exact
# (a range's first day is written, the range is in the notes), the country goes by name.
_MISSING = dict.fromkeys(COLUMNS, "") | {"time_precision": "1"}


def _row(cell: dict[str, str], rows: Rows, imported: Imported) -> None:
    """One row checked, every problem reported; the event added when it has none."""
    seen = rows.count
    event_day = day(rows, "event_date", cell["event_date"], ("%Y-%m-%d", "%d %B %Y"))
    year = whole(rows, "year", cell["year"], 1800, 2200)
    if event_day and year is not None and event_day.year != year:
        rows.add(f"year {year} is not event_date's year ({event_day.year})")
    tp = whole(rows, "time_precision", cell["time_precision"], 1, 3)
    gp = whole(rows, "geo_precision", cell["geo_precision"], 1, 3)
    lat = degrees(rows, "latitude", cell["latitude"], 90)
    lon = degrees(rows, "longitude", cell["longitude"], 180)
    killed = whole(rows, "fatalities", cell["fatalities"])
    category = _SUB_EVENTS.get(
        (cell["event_type"].strip().lower(), cell["sub_event_type"].strip().lower())
    )
    if category is None:
        rows.add(
            f"event_type {cell['event_type'][:60]!r} with sub_event_type"
            f" {cell['sub_event_type'][:60]!r} is not in ACLED's codebook"
        )
    code = _country(cell, rows)
    if not cell["location"].strip():
        rows.add("location is empty")
    if not cell["event_id_cnty"].strip():
        rows.add("event_id_cnty is empty")
    if rows.count > seen:
        return
    first, last = dates(event_day, tp)
    imported.add_event(
        cell["event_id_cnty"].strip(),
        place(cell, lat, lon, gp, code),
        date=first,
        end_date=last,
        category=category,
        sub_type=name_cell(cell["sub_event_type"]),
        actors=actors(cell),
        summary=cell["notes"].strip() or f"{cell['sub_event_type']} in {cell['location']}.",
        killed=killed or None,  # ACLED's 0 is "none reported": no figure
        source_detail=_detail(cell),
    )


def _country(cell: dict[str, str], rows: Rows) -> str | None:
    """The row's ISO alpha-2 country from ``iso`` (ISO numeric), else from its name."""
    iso = whole(rows, "iso", cell["iso"], 0, 999) if cell["iso"].strip() else 0
    code = countries.from_numeric(iso) if iso else None
    code = code or countries.from_name(cell["country"])
    if code is None and iso is not None:
        rows.add(f"country {cell['country'][:60]!r} (iso {iso}) is not a known country")
    return code


def _detail(cell: dict[str, str]) -> str:
    """Where a reader finds the event: ACLED's export at its id, its coding, ACLED's sources."""
    parts = [
        f"ACLED event {cell['event_id_cnty'].strip()} ({ADDRESS} data export)",
        f"{cell['event_type']}: {cell['sub_event_type']}",
    ]
    if cell["civilian_targeting"].strip():
        parts.append(cell["civilian_targeting"].strip().lower())
    if cell["source"].strip():
        scale = f" ({cell['source_scale'].strip()})" if cell["source_scale"].strip() else ""
        parts.append(f"ACLED's sources: {cell['source'].strip()}{scale}")
    return "; ".join(parts)
