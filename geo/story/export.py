"""Downloads: the events on screen as CSV (the story format) or GeoJSON."""

from __future__ import annotations

import json

import pandas as pd

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
