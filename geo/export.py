"""Downloads: the events on screen as CSV (the story format) or GeoJSON."""

from __future__ import annotations

import json

import pandas as pd

from geo.story import EVENT_COLUMNS, FIGURES


def _cell(value) -> object:
    if isinstance(value, list):
        return "|".join(value)
    if value is None or (not isinstance(value, str | list | dict) and pd.isna(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    if hasattr(value, "item"):
        return value.item()
    return value


def events_csv(events: pd.DataFrame) -> str:
    """Events in the columns and formats of events.csv, so the download loads as a story file."""
    out = events.reindex(columns=list(EVENT_COLUMNS)).copy()
    for col in ("date", "end_date"):
        out[col] = pd.to_datetime(out[col]).dt.strftime("%Y-%m-%d")
    out["actors"] = out["actors"].map(lambda a: "|".join(a) if isinstance(a, list) else a)
    # Column by column, so a figure with gaps stays Int64 and is written as 7777, not 7777.0.
    for col in FIGURES:
        out[col] = pd.to_numeric(out[col]).astype("Int64")
    return out.to_csv(index=False)


def events_geojson(events: pd.DataFrame) -> str:
    """Events as a GeoJSON FeatureCollection of points at their places."""
    features = []
    for _, r in events.iterrows():
        props = {c: _cell(r[c]) for c in EVENT_COLUMNS}
        props["place_name"] = r["place_name"]
        props["radius_m"] = _cell(r["radius_m"])
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [float(r["lon"]), float(r["lat"])]},
                "properties": props,
            }
        )
    return json.dumps({"type": "FeatureCollection", "features": features}, ensure_ascii=False)
