"""The New story page's map: the draft's places as handles to drag, search candidates, framing.

The draft's story itself is drawn by ``js/story.js`` like any story (``layers.browser_layers``);
this module prepares only what the editor acts on, for ``js/editor.js``.
"""

from __future__ import annotations

import folium
import pandas as pd

from geo.map.assets import bundle, localize
from geo.map.layers import BASEMAP_URL, Basemap, ScriptState, _Map


class EditorOverlay(ScriptState):
    """One rerun's editing layer: hands ``js/editor.js`` the handles and candidates."""

    function, element_name = "edit", "DatelineEditor"


def editor_state(
    places: pd.DataFrame,
    candidates: list[dict] | None = None,
    target: str | None = None,
    frame_token: str = "",
) -> dict:
    """What ``js/editor.js`` draws: every placed row of the places table (index: row key) as a
    handle, the ``target`` row ringed with its radius, and numbered ``candidates``
    ({name, lat, lon, label}); ``frame_token`` changes when the map should frame them anew."""
    rows = places[places["lat"].notna() & places["lon"].notna()]
    handles = [
        {
            "k": str(key),
            "id": str(r["id"]),
            "n": str(r["name"]),
            "lat": round(float(r["lat"]), 5),
            "lon": round(float(r["lon"]), 5),
            "r": int(r["radius_m"]) if pd.notna(r["radius_m"]) else 0,
            "keep": bool(r["keep"]),
        }
        for key, r in rows.iterrows()
    ]
    cands = [
        {"i": i, "lat": round(c["lat"], 5), "lon": round(c["lon"], 5), "label": c["label"]}
        for i, c in enumerate(candidates or [])
    ]
    return {
        "places": handles,
        "candidates": cands,
        "target": None if target is None else str(target),
        "frame_token": frame_token,
    }


def editor_layers(state: dict) -> folium.FeatureGroup:
    """The editing layer as a feature group st_folium can swap on each rerun."""
    group = folium.FeatureGroup(name="Editing")
    EditorOverlay(state).add_to(group)
    return group


def editor_map(height: int = 460) -> folium.Map:
    """An empty offline map for the draft; ``js/editor.js`` frames it on the draft's places."""
    m = _Map(
        location=[20, 10],
        zoom_start=2,
        tiles=None,
        control_scale=True,
        height=height,
        min_zoom=2,
        max_zoom=16,
    )
    m.options.update(minZoom=2, maxZoom=16)
    Basemap(BASEMAP_URL).add_to(m)
    return bundle(localize(m))
