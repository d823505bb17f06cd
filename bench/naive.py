"""The naive approach most folium tutorials show, as the benchmark's baseline.

Read the CSV (or Parquet) with pandas, keep the rows whose date falls in the window with a
boolean mask, add one ``folium.Marker`` with a ``folium.Popup`` per event, and render the whole
map into one HTML page.
"""

from __future__ import annotations

from pathlib import Path

import folium
import pandas as pd


def load(path: Path) -> pd.DataFrame:
    """Events joined to their places' coordinates."""
    path = Path(path)
    parquet = path / "events.parquet"
    events = pd.read_parquet(parquet) if parquet.exists() else pd.read_csv(path / "events.csv")
    places = pd.read_csv(path / "places.csv")
    events["date"] = pd.to_datetime(events["date"])
    places = places[["id", "name", "lat", "lon"]].rename(columns={"id": "place_id"})
    return events.merge(places, on="place_id", how="left")


def window(events: pd.DataFrame, start, end) -> pd.DataFrame:
    """Events whose date lies in [start, end]."""
    return events[(events["date"] >= pd.Timestamp(start)) & (events["date"] <= pd.Timestamp(end))]


def build_map(events: pd.DataFrame) -> folium.Map:
    """One marker with a popup per event."""
    m = folium.Map(location=[33.9, 36.5], zoom_start=7)
    for _, row in events.iterrows():
        html = f"<b>{row['date']:%d %b %Y}</b> · {row['category']}<br>{row['summary']}"
        folium.Marker(
            [row["lat"], row["lon"]],
            popup=folium.Popup(html, max_width=300),
            tooltip=row["name"],
        ).add_to(m)
    return m


def render(m: folium.Map) -> str:
    """The whole page, as a tutorial's ``m.save("map.html")`` or ``st_folium(m)`` sends it."""
    return m.get_root().render()
