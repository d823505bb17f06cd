"""Divisions, districts and natural features of the bundled area table
(geo/geocoders/data/areas.csv, built by data/scripts/build_areas.py): lookup_division,
qualified-only names, rivers."""

from __future__ import annotations

import csv
import importlib.util
import itertools
import math
from pathlib import Path

import pytest

from geo.geocoders.gazetteer import (
    AREAS_FILE,
    FEATURES_FILE,
    Gazetteer,
    build_geonames_index,
    division_family,
    load_areas,
    load_feature_lines,
    name_skeleton,
)
from geo.geometry import distance_km
from geo.names import normalize

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "build_areas", ROOT / "data" / "scripts" / "build_areas.py"
)
build_areas = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_areas)

MOSUL = (36.34, 43.13)


@pytest.fixture(scope="module")
def gaz() -> Gazetteer:
    # No GeoNames towns: what is found comes from the area table alone.
    return Gazetteer(build_geonames_index([]), areas=load_areas())


# -- lookup_division -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "word", "country", "near", "km"),
    [
        # GeoNames' Ninawa, by its English name and type word.
        ("Nineveh", "province", "IQ", MOSUL, 150),
        ("Nineveh", "governorate", "IQ", MOSUL, 150),
        ("Ninawa", "Governorate", "IQ", MOSUL, 150),
        ("Aleppo", "governorate", "SY", (36.2, 37.16), 150),
        ("Hasakah", "province", "SY", (36.5, 40.75), 150),
        ("Hodeidah", "governorate", "YE", (14.8, 42.95), 150),
        ("Kunar", "province", "AF", (34.85, 71.1), 100),
        ("Borno", "state", "NG", (11.8, 13.1), 200),
        ("Kharkiv", "oblast", "UA", (49.6, 36.5), 150),
        ("Kharkiv", "region", "UA", (49.6, 36.5), 150),
        ("Fukushima", "prefecture", "JP", (37.4, 140.4), 100),
        # Second-level divisions: written with their type, or bare in GeoNames.
        ("Dadu", "district", "PK", (26.73, 67.78), 80),
        ("Sinjar", "district", "IQ", (36.32, 41.87), 60),
        ("Metcalfe", "county", "US", (37.0, -85.63), 30),
        ("Kharkiv", "district", "UA", (49.99, 36.23), 60),
        ("Linxia", "prefecture", "CN", (35.6, 103.2), 100),
        ("Ikorodu", "LGA", "NG", (6.62, 3.5), 40),
        ("Ikorodu", "local government area", "NG", (6.62, 3.5), 40),
        ("Gelan", "district", "AF", (32.7, 67.6), 60),
        ("Zambales", "province", "PH", (15.3, 120.1), 80),  # a second-level province
        ("Kampala", "District", "UG", (0.32, 32.58), 30),
    ],
)
def test_lookup_division(gaz: Gazetteer, name, word, country, near, km) -> None:
    found = gaz.lookup_division(name, word)
    assert found, (name, word)
    first = found[0]
    assert first.source == "area" and first.country == country, (first.id, first.name)
    assert distance_km(first.point, near) <= km, (first.id, first.point)
    assert first.radius_m >= 5_000


@pytest.mark.parametrize(
    ("name", "word", "level"),
    [
        ("Kharkiv", "oblast", "adm1"),  # the oblast, not the raion
        ("Kharkiv", "raion", "adm2"),  # the raion, not the oblast
        ("Nineveh", "province", "adm1"),
        ("Sinjar", "district", "adm2"),
    ],
)
def test_the_word_picks_the_level(gaz: Gazetteer, name, word, level) -> None:
    assert {p.id.split(":")[0] for p in gaz.lookup_division(name, word)} == {level}


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("Nineveh", "county"),  # a governorate is no county
        ("Sinjar", "province"),  # a district is no province
        ("Nineveh", "bridge"),  # not a division word
        ("Nineveh", ""),
        ("", "province"),
        # A county of geoBoundaries' table is a county, not a province.
        ("Jishishan", "province"),
    ],
)
def test_lookup_division_finds_nothing(gaz: Gazetteer, name, word) -> None:
    assert gaz.lookup_division(name, word) == []


@pytest.mark.parametrize(
    ("written", "table"),
    [
        ("Zenda Jan", "Zendeh Jan"),  # Persian final -eh, the vowels news writes
        ("Zindah Jan", "Zendeh Jan"),
        ("Kharkov", "Kharkiv"),
        ("Jishishan", "Jishishan"),
    ],
)
def test_name_skeleton_is_shared_by_romanizations(written: str, table: str) -> None:
    assert name_skeleton(normalize(written)) == name_skeleton(normalize(table)) != ""


@pytest.mark.parametrize("key", ["ara", "nineveh", "hodeidah", "district 9", "banana", ""])
def test_a_short_skeleton_says_too_little(key: str) -> None:
    # Three or four letters left would pair unrelated names ("Ara" and "Oro").
    assert name_skeleton(key) == ""


def test_a_division_found_by_another_romanization(gaz: Gazetteer) -> None:
    (found,) = gaz.lookup_division("Zenda Jan", "district")
    assert found.id == "adm2:7053050" and found.country == "AF"
    assert found.kind == "district" and found.radius_m >= 30_000


def test_the_skeleton_is_only_a_fallback(gaz: Gazetteer) -> None:
    # An exact name never picks up its skeleton's other divisions, and the type word still
    # decides the level: Kharkiv oblast is not a raion.
    assert {p.id.split(":")[0] for p in gaz.lookup_division("Kharkov", "oblast")} == {"adm1"}
    exact = gaz.lookup_division("Zendeh Jan", "district")
    assert [p.id for p in exact] == ["adm2:7053050"]
    assert gaz.lookup_division("Zenda Jan", "province") == []


@pytest.mark.parametrize(
    ("word", "family"),
    [
        ("Province", "province"),
        ("governorate", "province"),
        ("Oblast", "province"),
        ("L.G.A.", "district"),
        ("sub-county", "district"),
        ("County", "district"),
        ("prefecture", "prefecture"),
        ("city", ""),
    ],
)
def test_division_family(word: str, family: str) -> None:
    assert division_family(word) == family


# -- geoBoundaries' districts (districts.csv.gz, data/scripts/build_districts.py) -------------


@pytest.mark.parametrize(
    ("name", "word", "country", "near", "km"),
    [
        # GeoNames' third-level counties of China are in no package here; geoBoundaries has them.
        ("Jishishan", "county", "CN", (35.72, 102.87), 15),
        ("Jishishan Bonan, Dongxiang and Salar Autonomous", "County", "CN", (35.72, 102.87), 15),
        # A thana of Dhaka.
        ("Rampura", "district", "BD", (23.76, 90.42), 5),
    ],
)
def test_a_geoboundaries_district(gaz: Gazetteer, name, word, country, near, km) -> None:
    first = gaz.lookup_division(name, word)[0]
    assert first.id.startswith("adm3:gb-") and first.country == country
    assert first.kind == "district" and first.radius_m >= 2_000
    assert distance_km(first.point, near) <= km


def test_geoboundaries_districts_stay_qualified_only(gaz: Gazetteer) -> None:
    assert gaz.lookup("Jishishan") == [] and gaz.lookup("Rampura") == []


def test_a_geonames_division_comes_before_its_geoboundaries_twin(gaz: Gazetteer) -> None:
    # The build leaves out units GeoNames already has near: Sinjar district is GeoNames' alone.
    assert [p.id for p in gaz.lookup_division("Sinjar", "district")] == ["adm2:9166620"]


def test_the_districts_table() -> None:
    import csv
    import gzip

    from geo.geocoders.gazetteer import DISTRICTS_FILE
    from geo.names import variants

    with gzip.open(DISTRICTS_FILE, "rt", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert 50_000 <= len(rows) <= 150_000
    assert len({r["id"] for r in rows}) == len(rows)
    # Burkina Faso's communes in the package sit far from their towns: left out whole.
    assert not [r for r in rows if r["country"] == "BF"]
    for r in rows[::97]:
        assert r["id"].startswith("adm3:gb-") and r["match"] == "qualified"
        assert r["kind"] == "district" and int(r["radius_m"]) >= 2_000
        assert -90 <= float(r["lat"]) <= 90 and -180 <= float(r["lon"]) <= 180
        # The keys were written by today's normalize: a changed normalize needs a rebuild.
        names = [r["name"], *filter(None, [r["qualified"]])]
        assert set(r["keys"].split("|")) == variants(names[0], names[1:]), r["id"]


def test_a_missing_or_damaged_districts_table_gives_none(tmp_path: Path) -> None:
    import gzip

    from geo.geocoders.gazetteer import _read_keyed_rows

    bad = tmp_path / "bad.csv.gz"
    bad.write_bytes(b"not gzip at all")
    other = tmp_path / "other.csv.gz"
    other.write_bytes(gzip.compress(b"id,name,keys\nx:1,Foo,foo\n"))
    paths = [str(tmp_path / "missing.csv.gz"), str(bad), str(other)]
    assert _read_keyed_rows(paths) == {}


# -- plain lookup(): qualified-only names stay out -----------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Bare district and exonym names never become places by themselves.
        ("Jishishan", []),
        ("Sinjar", []),
        ("Dadu", []),
        ("Gelan", []),
        ("Nineveh", []),
        ("Metcalfe", []),
        # New typed names too: "Karak district" in a Jordan story is no Karak District of
        # Pakistan, "East Azerbaijan province" no "East Azerbaijan Province" key of its own.
        ("Dadu District", []),
        ("Karak District", []),
        ("Nineveh Governorate", []),
        ("East Azerbaijan Province", []),
        ("Birmingham", []),  # a city, not its metropolitan borough
        # As before: states by name, US counties with their type, UK counties and Philippine
        # provinces bare.
        ("Kentucky", [("US", "region")]),
        ("Metcalfe County", [("US", "district")]),
        ("Kent", [("GB", "district")]),
        ("Zambales", [("PH", "district")]),
    ],
)
def test_plain_lookup(gaz: Gazetteer, name: str, expected) -> None:
    found = [(p.country, p.kind) for p in gaz.lookup(name) if p.source == "area"]
    assert found[: len(expected) or None] == expected if expected else found == []


def test_qualified_names_are_no_keys(gaz: Gazetteer) -> None:
    assert not gaz.contains("jishishan") and not gaz.contains("sinjar")
    assert "Metcalfe County" in gaz and "Dadu District" not in gaz


def test_abbreviations_are_only_the_hand_ones() -> None:
    # An alias with a dot or in capitals counts as an abbreviation, matched as written (and put
    # in the extractor's written-forms pattern): only the hand table's may be so.
    hand = {a for v in build_areas.ABBREVIATIONS.values() for a in v.split("|")}
    assert set(load_areas().written) <= hand


# -- the table ----------------------------------------------------------------------------------


def _rows() -> list[dict[str, str]]:
    with open(AREAS_FILE, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_table_shape() -> None:
    rows = _rows()
    assert AREAS_FILE.stat().st_size <= 6_000_000
    assert FEATURES_FILE.stat().st_size <= 1_500_000
    assert len({r["id"] for r in rows}) == len(rows)
    assert {r["match"] for r in rows} == {"any", "qualified"}
    districts = [r for r in rows if r["kind"] == "district"]
    assert len(districts) > 30_000
    assert all(int(r["radius_m"]) >= 5_000 for r in districts)
    assert all(r["admin1"] for r in districts)
    kinds = {r["kind"] for r in rows}
    assert {"region", "district", "river", "lake", "mountains", "desert", "sea"} <= kinds
    types = {r["type"] for r in rows} - {""}
    from geo.geocoders.gazetteer import DIVISION_WORDS

    assert types <= set(DIVISION_WORDS)


# -- rivers, lakes, mountains ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind", "near", "km"),
    [
        ("Euphrates", "river", (35.0, 40.5), 50),
        ("River Jordan", "river", (32.3, 35.55), 50),
        ("Volga", "river", (53.2, 50.1), 50),
        ("Mekong River", "river", (20.35, 100.08), 50),
        ("Lake Victoria", "lake", (-1.0, 33.0), 50),
        ("Dead Sea", "lake", (31.5, 35.5), 20),
        ("Hindu Kush", "mountains", (35.5, 70.5), 50),
        ("Kalahari", "desert", (-23.0, 22.0), 50),
        ("Strait of Hormuz", "sea", (26.5, 56.3), 30),
    ],
)
def test_feature_lookup(gaz: Gazetteer, name, kind, near, km) -> None:
    found = [p for p in gaz.lookup(name) if p.source == "area"]
    assert found and found[0].kind == kind, name
    assert distance_km(found[0].point, near) <= km


@pytest.mark.parametrize("name", ["Jordan", "Don", "Amur", "Atacama", "Etna"])
def test_feature_names_that_are_places_need_their_type(gaz: Gazetteer, name: str) -> None:
    # "Jordan" is a country, "Amur" an oblast: the river or desert only as "Jordan River".
    kinds = {p.kind for p in gaz.lookup(name) if p.source == "area"}
    assert not kinds & {"river", "lake", "mountains", "desert"}


def _segment_km(p: tuple[float, float], line: tuple[tuple[float, float], ...]) -> float:
    """Distance from p to a line, sampling each segment every twentieth."""
    best = math.inf
    for a, b in itertools.pairwise(line):
        for t in range(21):
            q = (a[0] + (b[0] - a[0]) * t / 20, a[1] + (b[1] - a[1]) * t / 20)
            best = min(best, distance_km(p, q))
    return best


def test_rivers_are_lines_through_their_point() -> None:
    lines = load_feature_lines()
    rows = {r["id"]: r for r in _rows()}
    assert len(lines) >= 50 and "feature:euphrates" in lines
    euphrates = lines["feature:euphrates"]
    assert distance_km(euphrates[0], (38.8, 38.9)) < 100  # rises in Turkey
    assert distance_km(euphrates[-1], (31.0, 47.4)) < 50  # meets the Tigris at Qurna
    for fid, line in lines.items():
        row = rows[fid]
        assert row["kind"] == "river" and len(line) >= 3
        point = (float(row["lat"]), float(row["lon"]))
        assert _segment_km(point, line) <= 100, fid
        steps = [distance_km(a, b) for a, b in itertools.pairwise(line)]
        assert max(steps) < 1000, fid  # no vertex typed in the wrong hemisphere


def test_river_radius_holds_its_line() -> None:
    # Rivers listed without a point take it, and their radius, from the line.
    lines = load_feature_lines()
    rows = {r["id"]: r for r in _rows()}
    for name, _aliases, kind, *_rest in build_areas.MORE_FEATURES:
        fid = f"feature:{build_areas._slug(name)}"
        if kind != "river" or _rest[0] is not None:
            continue
        row = rows[fid]
        point = (float(row["lat"]), float(row["lon"]))
        assert all(distance_km(point, v) * 1000 <= int(row["radius_m"]) for v in lines[fid])


def test_feature_lines_missing_file(tmp_path) -> None:
    assert load_feature_lines(str(tmp_path / "none.geojson")) == {}


# -- the CSV's match and qualified columns, on a made-up table -----------------------------------


_HEADER = "id,name,aliases,kind,country,admin1,lat,lon,radius_m,population,type,match,qualified\n"


def _table(tmp_path, rows: str, header: str = _HEADER) -> Gazetteer:
    path = tmp_path / "areas.csv"
    path.write_text(header + rows, encoding="utf-8")
    load_areas.cache_clear()
    try:
        return Gazetteer(build_geonames_index([]), areas=load_areas(str(path)))
    finally:
        load_areas.cache_clear()


def test_match_column(tmp_path) -> None:
    gz = _table(
        tmp_path,
        "adm1:xx-north,Northland,,region,XX,01,10.0,10.0,100000,5000,province,any,Nordia\n"
        "adm2:1,Southtown District,,district,XX,01,10.5,10.5,20000,100,district,any,Southtown\n"
        "adm2:2,Westville,West Ville,district,XX,01,10.2,10.1,15000,50,,qualified,\n"
        "adm2:3,Broken,,district,XX,01,not-a-number,0,1000,0,,qualified,\n"
        "feature:x,X River,,river,,,1.0,1.0,5000,0,,any,\n",
    )
    assert [p.id for p in gz.lookup("Northland") if p.source == "area"] == ["adm1:xx-north"]
    assert [p.id for p in gz.lookup("Southtown District") if p.source == "area"] == ["adm2:1"]
    for bare in ("Nordia", "Southtown", "Westville", "West Ville", "Broken"):
        assert not [p for p in gz.lookup(bare) if p.source == "area"], bare
    assert [p.id for p in gz.lookup_division("Nordia", "province")] == ["adm1:xx-north"]
    assert [p.id for p in gz.lookup_division("Southtown", "district")] == ["adm2:1"]
    assert [p.id for p in gz.lookup_division("West Ville", "county")] == ["adm2:2"]
    assert gz.lookup_division("Broken", "district") == []  # a damaged row costs that row only
    assert gz.lookup_division("X River", "district") == []  # not a division


def test_old_table_without_match_column_matches_as_before(tmp_path) -> None:
    header = "id,name,aliases,kind,country,admin1,lat,lon,radius_m,population\n"
    gz = _table(tmp_path, "adm2:x,Scott County,,area,US,IN,38.7,-85.8,30000,24000\n", header)
    assert [p.id for p in gz.lookup("Scott County") if p.source == "area"] == ["adm2:x"]
    assert [p.id for p in gz.lookup_division("Scott", "county")] == ["adm2:x"]


# -- the build's name rules -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "core"),
    [
        ("Jishishan Baoanzu Dongxiangzu Salarzu Zizhixian", "Jishishan"),
        ("Linxia Hui Autonomous Prefecture", "Linxia"),
        ("Linxia Huizu Zizhizhou", "Linxia"),
        ("Yushu Tibetan Autonomous Prefecture", "Yushu"),
        ("Dadu District", "Dadu"),
        ("Nineveh Governorate", "Nineveh"),
        ("Province of Sulu", "Sulu"),
        ("Kabupaten Tapanuli Tengah", "Tapanuli Tengah"),
        ("Zolochivskyi Raion", "Zolochivskyi"),
        ("Condado de Boone", "Boone"),
        ("Anshan Shi", "Anshan"),
        ("Sinjar", "Sinjar"),
    ],
)
def test_core_name(name: str, core: str) -> None:
    assert build_areas.core_name(name) == core


@pytest.mark.parametrize(
    ("names", "typed", "qualified"),
    [
        (["Dadu", "Dadu District"], ["Dadu District"], ["Dadu"]),
        (
            ["Nīnawá", "Nineveh", "Nineveh Governorate"],
            ["Nineveh Governorate"],
            ["Nineveh", "Nīnawá"],
        ),
        (["Sinjar"], [], ["Sinjar"]),
        # Too general to be a name, even with its type word.
        (["Central", "Central District"], [], []),
        (["The 3rd Province", "Fars"], [], ["Fars"]),
        (["Powiat Radomski", "Radom County"], ["Radom County"], ["Radom", "Radomski"]),
        (["Zambales", "Province of Zambales"], ["Province of Zambales"], ["Zambales"]),
    ],
)
def test_name_modes(names, typed, qualified) -> None:
    assert build_areas.name_modes(names) == (typed, qualified)


# -- search (the New story page's place search box) --------------------------------------------
@pytest.mark.parametrize(
    ("query", "country", "near", "km"),
    [
        ("Sinjar", "IQ", (36.32, 41.87), 60),  # a town, then its district
        ("Nineveh province", "IQ", (36.0, 42.5), 120),  # a type word: divisions only
        ("Dadu district", "PK", (26.73, 67.78), 80),
    ],
)
def test_search_finds_towns_and_divisions(gaz: Gazetteer, query, country, near, km) -> None:
    found = gaz.search(query)
    assert found, query
    assert found[0].country == country and distance_km(found[0].point, near) <= km
    assert len({p.id for p in found}) == len(found)  # each place once


def test_search_finds_a_division_without_its_type_word(gaz: Gazetteer) -> None:
    # lookup() alone leaves a bare division name to a type word in the text.
    assert not [p for p in gaz.lookup("Dadu") if p.source == "area" and p.country == "PK"]
    assert any(p.source == "area" and p.country == "PK" for p in gaz.search("Dadu"))


@pytest.mark.parametrize("query", ["", "Xqzvillewock", "province"])
def test_search_finds_nothing_for_nothing(gaz: Gazetteer, query) -> None:
    assert gaz.search(query) == []


def test_puerto_rico_barrios_are_puerto_rico() -> None:
    # geoBoundaries counts Puerto Rico as part of the US; the build files its barrios by the
    # GeoNames towns they lie by (a Guajataca barrio of Quebradillas).
    import csv
    import gzip

    from geo.geocoders.gazetteer import DISTRICTS_FILE

    with gzip.open(DISTRICTS_FILE, "rt", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    island = [
        r for r in rows if 17.8 <= float(r["lat"]) <= 18.6 and -67.3 <= float(r["lon"]) <= -65.2
    ]
    assert len(island) > 500
    assert {r["country"] for r in island} == {"PR"}
    assert all(r["admin1"] for r in island)
    assert "Guajataca" in {r["name"] for r in island}


@pytest.mark.parametrize(
    ("name", "countries", "division"),
    [
        # A thana of Dhaka and its Indian namesakes: every district of the name, bare.
        ("Rampura", {"BD", "IN"}, False),
        # Sinjar district is GeoNames' (areas.csv), not geoBoundaries'.
        ("Sinjar", set(), True),
        ("Nineveh", set(), True),
    ],
)
def test_districts_and_divisions_by_bare_name(gaz: Gazetteer, name, countries, division) -> None:
    found = gaz.districts(name)
    assert {p.country for p in found} >= countries and (countries or not found)
    assert all(p.id.startswith("adm3:gb-") for p in found)
    assert gaz.is_division(name) is division
