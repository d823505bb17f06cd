"""Downloads: the events on screen as CSV (the story format) or GeoJSON."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pandas as pd

from geo.names import spreadsheet_cell
from geo.story.load import EVENT_COLUMNS, FIGURES


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
    publication = events["source"].map(lambda s: (sources or {}).get(s, s))
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
