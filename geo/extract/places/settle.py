"""After resolution: rivers drawn at the story's stretch, towns settled in named areas."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from geo.extract.places.records import PlaceMention
from geo.extract.places.votes import ANCHOR_RADIUS_M
from geo.geocoders.gazetteer import GazetteerPlace, load_feature_lines
from geo.geometry import sphere_km
from geo.names import normalize

# A river's stretch the story is on: this far round the point of its line nearest the story.
_STRETCH_M = 50_000


@lru_cache(maxsize=1)
def _feature_lines() -> dict[str, tuple[tuple[float, float], ...]]:
    return load_feature_lines()


def _on_the_stretch(found: list[PlaceMention]) -> list[PlaceMention]:
    """Rivers drawn at the point of their line nearest the article's towns ("the Dnipro" in a
    report on Kherson is the Dnipro at Kherson, not the river's middle 265 km away)."""
    lines = _feature_lines()
    rivers = [p for p in found if p.place_id in lines and p.placed]
    towns = [(p.lat, p.lon) for p in found
             if p.placed and p.radius_m <= ANCHOR_RADIUS_M and p.place_id not in lines
             and p.kind not in ("country", "region", "border")]  # fmt: skip
    if not rivers or not towns:
        return found
    moved: dict[str, tuple[float, float]] = {}
    for r in rivers:
        if r.place_id not in moved:
            moved[r.place_id] = min(
                lines[r.place_id], key=lambda v: min(sphere_km(v, t) for t in towns)
            )
    return [
        replace(p, lat=moved[p.place_id][0], lon=moved[p.place_id][1], radius_m=_STRETCH_M)
        if p.place_id in moved else p
        for p in found
    ]  # fmt: skip


# Areas the article names that can settle which of a country's same-name towns it means.
_SETTLING_KINDS = frozenset({"border", "region", "district", "area"})
_SETTLING_MAX_M = 600_000
# A town this many times smaller than the one chosen does not take its place ("Snow fell in
# Indiana; Atlanta closed schools" is Georgia's Atlanta, not Indiana's village).
_SETTLING_DWARF = 20


def _settle_in_areas(found: list[PlaceMention]) -> list[PlaceMention]:
    """Towns moved to the same-name town of their country that lies inside an area the article
    names, when the one chosen lies in none ("Ciudad Hidalgo" in a report on the border between
    Guatemala and Mexico is the Chiapas border town, not the bigger one in Michoacán)."""
    areas = {
        p.place_id: p for p in found
        if p.placed and p.kind in _SETTLING_KINDS and p.radius_m <= _SETTLING_MAX_M
    }  # fmt: skip
    if not areas:
        return found

    def inside(lat: float, lon: float) -> bool:
        return any(
            sphere_km((lat, lon), (a.lat, a.lon)) * 1000 <= a.radius_m  # type: ignore[arg-type]
            for a in areas.values()
        )

    moved: dict[str, GazetteerPlace | None] = {}
    out = []
    for p in found:
        if p.source != "geonames" or not p.placed or p.place_id in areas:
            out.append(p)
            continue
        if p.place_id not in moved:
            moved[p.place_id] = None
            chosen = next((c.population for c in p.candidates if c.id == p.place_id), 0)
            if not inside(p.lat, p.lon):  # type: ignore[arg-type]
                moved[p.place_id] = next(
                    (c for c in p.candidates if c.id != p.place_id and c.source == "geonames"
                     and c.country == p.country and normalize(c.name) == normalize(p.name)
                     and (c.population or 0) * _SETTLING_DWARF >= (chosen or 0)
                     and inside(c.lat, c.lon)),
                    None,
                )  # fmt: skip
        c = moved[p.place_id]
        out.append(p if c is None else replace(
            p, name=c.name, lat=c.lat, lon=c.lon, radius_m=c.radius_m, kind=c.kind,
            place_id=c.id,
        ))  # fmt: skip
    return out
