"""What the details panel shows for a clicked place, convoy position or front polygon."""

from __future__ import annotations

from datetime import date

from geo.geometry import distance_km
from geo.story.model import Story
from geo.story.timeline import convoy_distance_km, in_window


def landmarks(story: Story) -> list[str]:
    """Place ids that distances are measured to: story.toml ``landmarks``, else the dateline."""
    ids = story.meta.get("landmarks") or [story.meta["dateline"]["place"]]
    known = set(story.places["id"])
    return [i for i in ids if i in known]


def place_details(story: Story, place_id: str, start: date, end: date) -> dict | None:
    """The place, its events inside [start, end] in date order, and distances to the landmarks."""
    places = story.places.set_index("id")
    if place_id not in places.index:
        return None
    p = places.loc[place_id]
    if story.store is not None:  # a big story: only this place's rows are read
        events = story.store.window(start, end, place_ids=[place_id])
    else:
        events = in_window(story.events, start, end)
        events = events[events["place_id"] == place_id]
    events = events.sort_values(["date", "id"])
    distances = {
        places.loc[lm, "name"]: distance_km(
            (p["lat"], p["lon"]), (places.loc[lm, "lat"], places.loc[lm, "lon"])
        )
        for lm in landmarks(story)
        if lm != place_id
    }
    return {
        "id": place_id,
        "name": p["name"],
        "aliases": list(p["aliases"]),
        "kind": p["kind"],
        "country": p["country"],
        "admin1": p["admin1"] if isinstance(p.get("admin1"), str) else "",
        "lat": float(p["lat"]),
        "lon": float(p["lon"]),
        "radius_m": int(p["radius_m"]),
        "coord_source": p["coord_source"],
        "events": events,
        "distances_km": distances,
    }


def convoy_details(story: Story, row_id: str) -> dict | None:
    """A convoy position and the distance its group had travelled by then."""
    rows = story.convoy[story.convoy["id"] == row_id]
    if rows.empty:
        return None
    r = rows.iloc[0]
    # Distance at the position's own date: the panel says "by then", whatever the window.
    travelled = convoy_distance_km(story.convoy, r["date"])
    return {**r.to_dict(), "travelled_km": travelled.get(r["group"], 0.0)}


def front_details(story: Story, front_id: str) -> dict | None:
    """A front polygon's properties."""
    rows = story.fronts[story.fronts["id"] == front_id]
    return None if rows.empty else rows.iloc[0].drop("geometry").to_dict()
