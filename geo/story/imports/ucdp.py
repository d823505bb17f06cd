"""UCDP's Georeferenced Event Dataset (GED, the 49-column CSV of releases 20.1 to 25.1).

One event per row: its place from where_coordinates, latitude and longitude with where_prec as
a radius, its dates from date_start to date_end (date_prec says how sure they are), its
category from type_of_violence, sides A and B as actors, ``best`` as ``killed`` (``low`` and
``high`` make it disputed when they differ), the first source headline as the summary's second
sentence, and UCDP with the event id and the source articles as the source.
"""

from __future__ import annotations

from geo.story.imports import countries
from geo.story.imports.base import Rows, day, degrees, header, records, whole, width
from geo.story.imports.story import Imported, PlaceFields, Source, name_cell

NAME = "UCDP GED"
COLUMNS = tuple(
    [
        "id",
        "relid",
        "year",
        "active_year",
        "code_status",
        "type_of_violence",
        "conflict_dset_id",
        "conflict_new_id",
        "conflict_name",
        "dyad_dset_id",
        "dyad_new_id",
        "dyad_name",
        "side_a_dset_id",
        "side_a_new_id",
        "side_a",
        "side_b_dset_id",
        "side_b_new_id",
        "side_b",
        "number_of_sources",
        "source_article",
        "source_office",
        "source_date",
        "source_headline",
        "source_original",
        "where_prec",
        "where_coordinates",
        "where_description",
        "adm_1",
        "adm_2",
        "latitude",
        "longitude",
        "geom_wkt",
        "priogrid_gid",
        "country",
        "country_id",
        "region",
        "event_clarity",
        "date_prec",
        "date_start",
        "date_end",
        "deaths_a",
        "deaths_b",
        "deaths_civilians",
        "deaths_unknown",
        "best",
        "high",
        "low",
        "gwnoa",
        "gwnob",
    ]
)
USED = [
    "id",
    "year",
    "type_of_violence",
    "dyad_name",
    "side_a",
    "side_b",
    "source_article",
    "source_office",
    "source_headline",
    "where_prec",
    "where_coordinates",
    "where_description",
    "adm_1",
    "adm_2",
    "latitude",
    "longitude",
    "country",
    "date_prec",
    "date_start",
    "date_end",
    "deaths_a",
    "deaths_b",
    "deaths_civilians",
    "deaths_unknown",
    "best",
    "high",
    "low",
]
SOURCE = Source(
    "ucdp",
    "UCDP Georeferenced Event Dataset (Uppsala Conflict Data Program)",
    "https://ucdp.uu.se/",
)
# type_of_violence -> (category, words for the summary).
VIOLENCE = {
    1: ("battle", "state-based armed conflict"),
    2: ("battle", "non-state conflict"),
    3: ("attack", "one-sided violence against civilians"),
}
# where_prec -> (radius in metres, place kind, what UCDP knows). 6 (the country) gets a radius
# holding the whole country instead; 7 (international waters or airspace) a wide circle.
PRECISION = {
    1: (2_000, "town", "the exact place"),
    2: (25_000, "area", "within about 25 km of this point"),
    3: (50_000, "region", "only the second-order division (adm_2)"),
    4: (150_000, "region", "only the first-order division (adm_1)"),
    5: (150_000, "area", "only a line or area larger than a division (a border, a road, a range)"),
    6: (0, "country", "only the country; the circle holds all of it"),
    7: (500_000, "area", "international waters or airspace"),
}
_DATES = ("%Y-%m-%d", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S")
_DEATHS = ("deaths_a", "deaths_b", "deaths_civilians", "deaths_unknown")


def place(cell: dict[str, str], lat: float, lon: float, precision: int, code: str) -> PlaceFields:
    """The row's place: where_coordinates at its point, where_prec as its radius."""
    radius, kind, words = PRECISION[precision]
    if precision == 6:
        radius = countries.country_radius_m(code, lat, lon)
    within = ", ".join(
        v.strip() for v in (cell["adm_2"], cell["adm_1"], cell["country"]) if v.strip()
    )
    described = (
        f" {cell['where_description'].strip()}." if cell["where_description"].strip() else ""
    )
    prefix = "" if precision == 1 else "approx: "
    note = f"{prefix}UCDP where_prec {precision} ({words}); {within}.{described}"
    name = cell["where_coordinates"].strip() or within or cell["country"].strip()
    # A place known only as the country (6) or at sea (7) lies in no one division.
    admin1 = name_cell(cell["adm_1"]) if precision <= 5 else ""
    return PlaceFields(name, kind, code, lat, lon, radius, note.strip(), admin1=admin1)


def read(text: str, rows: Rows, bounds, imported: Imported) -> None:
    """Check every row of a GED export and add its event to ``imported``."""
    it = records(text, rows, bounds)
    first = next(it, None)
    if first is None:
        rows.add("is empty", 0)
        return
    if not header(rows, first, COLUMNS, NAME):
        return
    for record in it:
        if width(rows, record, len(COLUMNS)):
            _row(dict(zip(COLUMNS, record, strict=True)), rows, imported)


def _numbers(cell: dict[str, str], rows: Rows) -> dict[str, int | None]:
    out = {
        "id": whole(rows, "id", cell["id"], 0, 10**11),
        "year": whole(rows, "year", cell["year"], 1800, 2200),
    }
    out["type"] = whole(rows, "type_of_violence", cell["type_of_violence"], 1, 3)
    out["where_prec"] = whole(rows, "where_prec", cell["where_prec"], 1, 7)
    out["date_prec"] = whole(rows, "date_prec", cell["date_prec"], 1, 5)
    for col in (*_DEATHS, "best", "high", "low"):
        out[col] = whole(rows, col, cell[col])
    return out


def _deaths_add_up(n: dict[str, int | None], rows: Rows) -> None:
    """low <= best <= high, and the four counts by side add up to best."""
    low, best, high = n["low"], n["best"], n["high"]
    if None not in (low, best, high) and not low <= best <= high:
        rows.add(
            f"deaths: low {low}, best {best}, high {high} are not in order (low <= best <= high)"
        )
    parts = [n[c] for c in _DEATHS]
    if best is not None and None not in parts and sum(parts) != best:
        rows.add(
            f"deaths_a + deaths_b + deaths_civilians + deaths_unknown = {sum(parts)},"
            f" not best ({best})"
        )


def _dates(cell: dict[str, str], year: int | None, rows: Rows):
    """(date_start, date_end), checked: in order, and ``year`` one of theirs."""
    start = day(rows, "date_start", cell["date_start"], _DATES)
    end = day(rows, "date_end", cell["date_end"], _DATES)
    if start and end and end < start:
        rows.add(f"date_end {end} is before date_start {start}")
    if start and year is not None and year not in (start.year, end.year if end else start.year):
        rows.add(f"year {year} is not the year of date_start ({start.year})")
    return start, end


def _country(cell: dict[str, str], rows: Rows) -> str | None:
    code = countries.from_name(cell["country"])
    if code is None and cell["country"].strip():
        rows.add(f"country {cell['country'][:60]!r} is not a known country")
    elif code is None:
        rows.add("country is empty")
    return code


def _row(cell: dict[str, str], rows: Rows, imported: Imported) -> None:
    """One row checked, every problem reported; the event added when it has none."""
    seen = rows.count
    n = _numbers(cell, rows)
    start, end = _dates(cell, n["year"], rows)
    lat = degrees(rows, "latitude", cell["latitude"], 90)
    lon = degrees(rows, "longitude", cell["longitude"], 180)
    _deaths_add_up(n, rows)
    code = _country(cell, rows)
    if rows.count > seen:
        return
    category, words = VIOLENCE[n["type"]]
    low, best, high = n["low"], n["best"], n["high"]
    disputed = low != high
    note = f"UCDP's estimates of the dead: low {low:,}, best {best:,}, high {high:,}"
    imported.add_event(
        f"ged-{n['id']}",
        place(cell, lat, lon, n["where_prec"], code),
        date=start,
        end_date=end,
        category=category,
        sub_type=words,
        actors=[a.strip().replace("|", "/") for a in (cell["side_a"], cell["side_b"]) if a.strip()],
        summary=_summary(cell, words),
        killed=best or None,
        confidence="disputed" if disputed else "reported",
        confidence_note=note if disputed else "",
        source_detail=_detail(cell, n),
    )


def _summary(cell: dict[str, str], words: str) -> str:
    """The dyad, the kind of violence and the place; the first source headline after it."""
    where = cell["where_coordinates"].strip() or cell["country"].strip()
    text = f"{cell['dyad_name'].strip() or cell['conflict_name'].strip()}: {words} at {where}."
    headline = cell["source_headline"].split(";")[0].strip()
    return f"{text} Headline: {headline}" if headline else text


def _detail(cell: dict[str, str], n: dict[str, int | None]) -> str:
    """The event's id at UCDP, the breakdown of the dead, date_prec and UCDP's own sources."""
    deaths = ", ".join(f"{c.removeprefix('deaths_').replace('_', ' ')} {n[c]}" for c in _DEATHS)
    parts = [f"UCDP GED event {n['id']} (https://ucdp.uu.se/ download)", f"deaths: {deaths}"]
    parts.append(f"date_prec {n['date_prec']}")
    for col in ("source_office", "source_article"):
        if cell[col].strip():
            parts.append(cell[col].strip())
    return "; ".join(parts)
