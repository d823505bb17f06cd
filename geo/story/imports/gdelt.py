"""GDELT 2.0's event export: 61 tab-separated columns, no header line, CAMEO-coded.

One event per row that GDELT placed (ActionGeo_Type 1-5): its place from ActionGeo_FullName and
its point with the geo type as a radius, its day from SQLDATE, its category from the CAMEO root
code (``CAMEO_ROOTS``), Actor1Name and Actor2Name as actors, a summary written from the CAMEO
label and the actors (GDELT has no headline), and the article (SOURCEURL) as the source. A row
GDELT could not place (geo type 0) is left out and counted: there is nowhere to draw it.
"""

from __future__ import annotations

from geo.story.imports import countries
from geo.story.imports.base import Rows, day, degrees, records, whole, width
from geo.story.imports.story import Imported, PlaceFields, Source, name_cell

NAME = "GDELT 2.0"
_ACTOR = [
    "Code",
    "Name",
    "CountryCode",
    "KnownGroupCode",
    "EthnicCode",
    "Religion1Code",
    "Religion2Code",
    "Type1Code",
    "Type2Code",
    "Type3Code",
]
_GEO = ["Type", "FullName", "CountryCode", "ADM1Code", "ADM2Code", "Lat", "Long", "FeatureID"]
COLUMNS = (
    "GLOBALEVENTID",
    "SQLDATE",
    "MonthYear",
    "Year",
    "FractionDate",
    *(f"Actor1{c}" for c in _ACTOR),
    *(f"Actor2{c}" for c in _ACTOR),
    "IsRootEvent",
    "EventCode",
    "EventBaseCode",
    "EventRootCode",
    "QuadClass",
    "GoldsteinScale",
    "NumMentions",
    "NumSources",
    "NumArticles",
    "AvgTone",
    *(f"Actor1Geo_{c}" for c in _GEO),
    *(f"Actor2Geo_{c}" for c in _GEO),
    *(f"ActionGeo_{c}" for c in _GEO),
    "DATEADDED",
    "SOURCEURL",
)
USED = [
    "GLOBALEVENTID",
    "SQLDATE",
    "Actor1Name",
    "Actor2Name",
    "EventCode",
    "EventRootCode",
    "QuadClass",
    "GoldsteinScale",
    "ActionGeo_Type",
    "ActionGeo_FullName",
    "ActionGeo_CountryCode",
    "ActionGeo_Lat",
    "ActionGeo_Long",
    "ActionGeo_FeatureID",
    "SOURCEURL",
]
SOURCE = Source(
    "gdelt",
    "GDELT Project, event database 2.0 (machine-coded from news)",
    "https://www.gdeltproject.org/",
)
# CAMEO's twenty root codes -> (the story's category, CAMEO's label).
CAMEO_ROOTS = {
    "01": ("statement", "Make public statement"),
    "02": ("statement", "Appeal"),
    "03": ("statement", "Express intent to cooperate"),
    "04": ("statement", "Consult"),
    "05": ("agreement", "Engage in diplomatic cooperation"),
    "06": ("agreement", "Engage in material cooperation"),
    "07": ("decision", "Provide aid"),
    "08": ("agreement", "Yield"),
    "09": ("decision", "Investigate"),
    "10": ("statement", "Demand"),
    "11": ("statement", "Disapprove"),
    "12": ("statement", "Reject"),
    "13": ("statement", "Threaten"),
    "14": ("protest", "Protest"),
    "15": ("decision", "Exhibit force posture"),
    "16": ("decision", "Reduce relations"),
    "17": ("arrest", "Coerce"),
    "18": ("attack", "Assault"),
    "19": ("battle", "Fight"),
    "20": ("attack", "Use unconventional mass violence"),
}
# ActionGeo_Type -> (radius in metres, place kind, what GDELT knows). 1 (a country) gets a
# radius holding the whole country: GDELT's point is the country's centroid.
GEO_TYPES = {
    1: (
        0,
        "country",
        "only the country; GDELT's point is its centroid, the circle holds all of it",
    ),
    2: (300_000, "region", "only the US state; GDELT's point is its centroid"),
    3: (5_000, "town", "a US city or landmark"),
    4: (5_000, "town", "a city or landmark outside the US"),
    5: (
        150_000,
        "region",
        "only the first-order division outside the US; GDELT's point is its centroid",
    ),
}
UNPLACED = "GDELT could not place it (ActionGeo_Type 0)"


def place(cell: dict[str, str], lat: float, lon: float, geo_type: int, code: str) -> PlaceFields:
    """ActionGeo_FullName ("Aleppo, Halab, Syria"): its first part as the name, the whole as an
    alias, at GDELT's point with the geo type's radius."""
    full = cell["ActionGeo_FullName"].strip()
    name = full.split(",")[0].strip() or full
    radius, kind, words = GEO_TYPES[geo_type]
    if geo_type == 1:
        radius = countries.country_radius_m(code, lat, lon)
    prefix = "" if geo_type in (3, 4) else "approx: "
    feature = cell["ActionGeo_FeatureID"].strip()
    note = f"{prefix}GDELT ActionGeo_Type {geo_type} ({words})" + (
        f"; feature {feature}" if feature else ""
    )
    aliases = (full,) if full != name else ()
    return PlaceFields(name, kind, code, lat, lon, radius, note, aliases, admin1(full, geo_type))


def admin1(full: str, geo_type: int) -> str:
    """The first-level division's name in ActionGeo_FullName: GDELT's ADM1Code is a FIPS code
    ("SY09"), not a name, while the full name spells it: "Halab, Syria" (a division, types 2
    and 5: its first part), "Aleppo, Halab, Syria" (a city, types 3 and 4: the part before the
    country). "" for a country, or a city named without its division."""
    parts = [p.strip() for p in full.split(",")]
    if geo_type in (2, 5) and len(parts) >= 2:
        return name_cell(parts[0])
    if geo_type in (3, 4) and len(parts) >= 3:
        return name_cell(parts[-2])
    return ""


def read(text: str, rows: Rows, bounds, imported: Imported) -> None:
    """Check every row of a GDELT 2.0 event export and add its event to ``imported``."""
    any_row = False
    for record in records(text, rows, bounds, delimiter="\t", quoted=False):
        if not any_row and record and record[0].strip() == "GLOBALEVENTID":
            rows.add("starts with a header line; GDELT's event files have none", 1)
            return
        any_row = True
        if width(rows, record, len(COLUMNS)):
            _row(dict(zip(COLUMNS, record, strict=True)), rows, imported)
    if not any_row and not rows.count:
        rows.add("is empty", 0)


def _where(cell: dict[str, str], rows: Rows) -> tuple[float | None, float | None, str | None]:
    """ActionGeo's point and ISO country, checked (a placed row needs all three and a name)."""
    lat = degrees(rows, "ActionGeo_Lat", cell["ActionGeo_Lat"], 90)
    lon = degrees(rows, "ActionGeo_Long", cell["ActionGeo_Long"], 180)
    code = countries.from_fips(cell["ActionGeo_CountryCode"])
    if code is None:
        rows.add(
            f"ActionGeo_CountryCode {cell['ActionGeo_CountryCode'][:10]!r}"
            " is not a FIPS country code"
        )
    if not cell["ActionGeo_FullName"].strip():
        rows.add("ActionGeo_FullName is empty")
    return lat, lon, code


def _row(cell: dict[str, str], rows: Rows, imported: Imported) -> None:
    """One row checked, every problem reported; the event added when it has none (a row with
    no place is counted in ``imported.left_out``)."""
    seen = rows.count
    event_id = whole(rows, "GLOBALEVENTID", cell["GLOBALEVENTID"], 0, 10**15)
    when = day(rows, "SQLDATE", cell["SQLDATE"], ("%Y%m%d",))
    root = cell["EventRootCode"].strip()
    if root not in CAMEO_ROOTS:
        rows.add(f"EventRootCode {root[:10]!r} is not a CAMEO root code (01-20)")
    elif not cell["EventCode"].strip().startswith(root):
        rows.add(f"EventCode {cell['EventCode'][:10]!r} is not under root code {root}")
    quad = whole(rows, "QuadClass", cell["QuadClass"], 1, 4)
    geo_type = whole(rows, "ActionGeo_Type", cell["ActionGeo_Type"], 0, 5)
    if rows.count > seen:
        return
    if geo_type == 0:
        imported.left_out[UNPLACED] += 1
        return
    lat, lon, code = _where(cell, rows)
    if rows.count > seen:
        return
    category, label = CAMEO_ROOTS[root]
    a1, a2 = cell["Actor1Name"].strip(), cell["Actor2Name"].strip()
    who = f"{a1.title() or 'An unnamed actor'}" + (f" towards {a2.title()}" if a2 else "")
    url = cell["SOURCEURL"].strip()
    full = cell["ActionGeo_FullName"].strip()
    imported.add_event(
        f"gdelt-{event_id}",
        place(cell, lat, lon, geo_type, code),
        date=when,
        end_date=None,
        category=category,
        sub_type=label,
        actors=[a.replace("|", "/") for a in (a1, a2) if a],
        summary=f"{label} (CAMEO {cell['EventCode'].strip()}): {who}, at {full}.",
        source_detail=f"{url or 'no article address'}; GDELT event {event_id}, QuadClass {quad},"
        f" Goldstein {cell['GoldsteinScale'].strip() or '?'}",
        confidence_note="machine-coded by GDELT from a news article; not checked by hand",
    )
