"""Countries, demonyms, directional regions ("eastern Syria") and borders for the extractor.

Countries come from ``geo/extract/data/countries.csv`` (Natural Earth 10 m admin-0, public domain;
``data/scripts/make_countries.py`` rebuilds it): the centroid of each country's mainland and a
radius that holds all of it.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from geopy.distance import geodesic

from geo.geocoders.gazetteer import GazetteerPlace
from geo.geometry import distance_km
from geo.names import normalize

COUNTRIES_FILE = Path(__file__).parent / "data" / "countries.csv"

# Compass bearing of each directional qualifier; None = the middle.
QUALIFIERS: dict[str, float | None] = {
    "northern": 0.0, "north": 0.0, "north-eastern": 45.0, "northeastern": 45.0,
    "northeast": 45.0, "north-east": 45.0, "eastern": 90.0, "east": 90.0,
    "south-eastern": 135.0, "southeastern": 135.0, "southeast": 135.0, "south-east": 135.0,
    "southern": 180.0, "south": 180.0, "south-western": 225.0, "southwestern": 225.0,
    "southwest": 225.0, "south-west": 225.0, "western": 270.0, "west": 270.0,
    "north-western": 315.0, "northwestern": 315.0, "northwest": 315.0, "north-west": 315.0,
    "central": None,
}  # fmt: skip
# A border drawn from two countries' centroids is this uncertain at least.
_MIN_BORDER_RADIUS_M = 50_000


@dataclass(frozen=True)
class Country:
    """One row of the country table."""

    iso2: str
    name: str
    aliases: tuple[str, ...]
    demonyms: tuple[str, ...]
    lat: float
    lon: float
    radius_m: int
    bbox: tuple[float, float, float, float] | None = None  # lat_min, lat_max, lon_min, lon_max

    def as_place(self) -> GazetteerPlace:
        """The country as a gazetteer place (kind ``country``)."""
        return GazetteerPlace(
            id=f"country:{self.iso2.lower()}",
            name=self.name,
            lat=self.lat,
            lon=self.lon,
            kind="country",
            country=self.iso2,
            radius_m=self.radius_m,
            population=None,
            geonames_id=None,
            source="country",
        )


@dataclass(frozen=True)
class CountryTable:
    """Countries by matching key of their names, and by the keys of their demonyms."""

    by_key: dict[str, Country]
    by_demonym: dict[str, Country]
    by_iso: dict[str, Country]
    max_tokens: int

    def country(self, name: str) -> Country | None:
        """The country called ``name`` (any listed spelling), or None."""
        return self.by_key.get(normalize(name))

    def demonym(self, word: str) -> Country | None:
        """The country whose people or adjective ``word`` names ("Lebanese" -> Lebanon)."""
        return self.by_demonym.get(normalize(word))


def _split(cell: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in cell.split("|") if s.strip())


@lru_cache(maxsize=2)
def load_countries(path: str | None = None) -> CountryTable:
    """The country table (the bundled one by default)."""
    with open(path or COUNTRIES_FILE, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    by_key: dict[str, Country] = {}
    by_demonym: dict[str, Country] = {}
    by_iso: dict[str, Country] = {}
    for row in rows:
        bbox = None
        if row.get("lat_min"):
            bbox = tuple(float(row[k]) for k in ("lat_min", "lat_max", "lon_min", "lon_max"))
        country = Country(
            row["iso2"], row["name"], _split(row["aliases"]), _split(row["demonyms"]),
            float(row["lat"]), float(row["lon"]), int(row["radius_m"]), bbox,  # type: ignore[arg-type]
        )  # fmt: skip
        by_iso[country.iso2] = country
        for name in (country.name, *country.aliases):
            # Formal names are unambiguous; a short alias never overrides a real name.
            by_key.setdefault(normalize(name), country)
        for word in country.demonyms:
            by_demonym.setdefault(normalize(word), country)
    max_tokens = max((k.count(" ") + 1 for k in by_key), default=1)
    return CountryTable(by_key, by_demonym, by_iso, max_tokens)


_US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
    "Delaware", "District of Columbia", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
    "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts",
    "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota",
    "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina",
    "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
    "West Virginia", "Wisconsin", "Wyoming",
)  # fmt: skip


@lru_cache(maxsize=1)
def us_state_names() -> frozenset[str]:
    """Matching keys of the US states' names ("Paris, Texas" votes for the US)."""
    return frozenset(normalize(s) for s in _US_STATES)


def _part_of_box(
    centre: tuple[float, float], box: tuple[float, float, float, float], bearing: float | None
) -> tuple[float, float, float, float]:
    """The part of a bounding box a direction names, split at the centre: "eastern" is the box
    east of it, "north-eastern" the quarter, "central" the middle half each way."""
    lat_min, lat_max, lon_min, lon_max = box
    lat, lon = centre
    if bearing is None:
        return ((lat_min + lat) / 2, (lat + lat_max) / 2, (lon_min + lon) / 2, (lon + lon_max) / 2)
    north, south = bearing in (0.0, 45.0, 315.0), bearing in (135.0, 180.0, 225.0)
    east, west = bearing in (45.0, 90.0, 135.0), bearing in (225.0, 270.0, 315.0)
    return (
        lat if north else lat_min,
        lat if south else lat_max,
        lon if east else lon_min,
        lon if west else lon_max,
    )


# Kept per place and qualifier: a geodesic per mention made "eastern Syria" repeated slow.
@lru_cache(maxsize=4096)
def directional_place(
    base: GazetteerPlace,
    qualifier: str,
    box: tuple[float, float, float, float] | None = None,
) -> GazetteerPlace:
    """ "eastern X": that part of X's bounding box when known (countries), else X moved half its
    radius that way with a radius that still holds the whole half."""
    bearing = QUALIFIERS[qualifier.lower()]
    slug = qualifier.lower().replace(" ", "-")
    name = f"{qualifier.lower()} {base.name}"
    if box is not None:
        lat_lo, lat_hi, lon_lo, lon_hi = _part_of_box((base.lat, base.lon), box, bearing)
        mid = ((lat_lo + lat_hi) / 2, (lon_lo + lon_hi) / 2)
        return replace(
            base,
            id=f"{slug}:{base.id}",
            name=name,
            lat=round(mid[0], 4),
            lon=round(mid[1], 4),
            kind="region",
            radius_m=math.ceil(distance_km(mid, (lat_hi, lon_hi)) * 1000),
            source="derived",
        )
    radius = max(base.radius_m, 1_000)
    if bearing is None:
        return replace(base, id=f"{slug}:{base.id}", name=name, radius_m=int(radius * 0.6),
                       source="derived")  # fmt: skip
    moved = geodesic(kilometers=radius / 2000).destination((base.lat, base.lon), bearing)
    # From the shifted centre, the half-disc's far corners lie sqrt(1/4 + 1) ~ 1.12 radii away.
    return replace(
        base,
        id=f"{slug}:{base.id}",
        name=name,
        lat=round(moved.latitude, 4),
        lon=round(moved.longitude, 4),
        kind="region" if base.kind in ("country", "region") else "area",
        radius_m=math.ceil(radius * 1.12),
        source="derived",
    )


def border_place(a: GazetteerPlace, b: GazetteerPlace) -> GazetteerPlace:
    """The border between two countries: on the line between their centres, at a's edge."""
    ra, rb = max(a.radius_m, 1), max(b.radius_m, 1)
    # The border crosses the centre line about where a's extent ends, in proportion to both.
    f = ra / (ra + rb)
    lat = a.lat + (b.lat - a.lat) * f
    lon = a.lon + (b.lon - a.lon) * f
    return GazetteerPlace(
        id=f"border:{a.country.lower()}-{b.country.lower()}",
        name=f"{a.name}–{b.name} border",
        lat=round(lat, 4),
        lon=round(lon, 4),
        kind="border",
        country=f"{a.country}|{b.country}",
        radius_m=max(min(ra, rb), _MIN_BORDER_RADIUS_M),
        population=None,
        geonames_id=None,
        source="derived",
    )
