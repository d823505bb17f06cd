"""The GDELT 2.0 importer: 61 columns, CAMEO roots as categories, geo types as radii."""

from __future__ import annotations

from pathlib import Path

import pytest

from geo import vocabulary
from geo.__main__ import main
from geo.story.imports import countries, gdelt, import_export
from geo.story.load import load_story

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    target = tmp_path_factory.mktemp("stories") / "gdelt-fixture"
    result = import_export("gdelt", DATASETS / "gdelt_events.tsv", target)
    assert main(["validate", str(target)]) == 0
    return result


def test_the_layout_is_61_columns():
    assert len(gdelt.COLUMNS) == 61
    assert gdelt.COLUMNS.index("EventRootCode") == 28
    assert gdelt.COLUMNS.index("ActionGeo_Type") == 51
    assert gdelt.COLUMNS[-2:] == ("DATEADDED", "SOURCEURL")
    assert set(gdelt.USED) <= set(gdelt.COLUMNS)


def test_every_cameo_root_has_a_category():
    assert sorted(gdelt.CAMEO_ROOTS) == [f"{n:02d}" for n in range(1, 21)]
    assert {c for c, _ in gdelt.CAMEO_ROOTS.values()} <= set(vocabulary.CATEGORIES)


@pytest.mark.parametrize(
    ("root", "category"),
    [("01", "statement"), ("14", "protest"), ("17", "arrest"), ("18", "attack"), ("19", "battle")],
)
def test_cameo_roots(root, category):
    assert gdelt.CAMEO_ROOTS[root][0] == category


@pytest.mark.parametrize(
    ("geo_type", "radius_m", "kind"),
    [(2, 300_000, "region"), (3, 5_000, "town"), (4, 5_000, "town"), (5, 150_000, "region")],
)
def test_geo_type_is_a_radius(geo_type, radius_m, kind):
    cell = {"ActionGeo_FullName": "Aleppo, Halab, Syria", "ActionGeo_FeatureID": "-1"}
    place = gdelt.place(cell, 36.2, 37.16, geo_type, "SY")
    assert (place.radius_m, place.kind, place.name) == (radius_m, kind, "Aleppo")
    assert place.aliases == ("Aleppo, Halab, Syria",)


def test_geo_type_1_is_the_whole_country():
    cell = {"ActionGeo_FullName": "Syria", "ActionGeo_FeatureID": "SY"}
    place = gdelt.place(cell, 35.0, 38.0, 1, "SY")
    assert place.kind == "country" and place.radius_m >= 350_000
    assert "centroid" in place.coord_source


@pytest.mark.parametrize(("fips", "iso"), [("LE", "LB"), ("SY", "SY"), ("IZ", "IQ"), ("XX", None)])
def test_fips_country_codes(fips, iso):
    assert countries.from_fips(fips) == iso


def test_the_unplaced_row_is_left_out_and_counted(imported):
    assert imported.left_out == {gdelt.UNPLACED: 1}
    assert len(imported.story.events) == 4
    assert "gdelt-1100000004" not in set(imported.story.events["id"])


def test_source_url_summary_and_note(imported):
    ev = imported.story.events.set_index("id")
    assert ev.at["gdelt-1100000001", "source_detail"].startswith(
        "https://news.invalid/2023/03/05/aleppo-clash; GDELT event 1100000001"
    )
    assert ev.at["gdelt-1100000001", "summary"] == (
        "Fight (CAMEO 190): Syria towards Rebel, at Aleppo, Halab, Syria."
    )
    assert ev.at["gdelt-1100000001", "category"] == "battle"
    assert "machine-coded" in ev.at["gdelt-1100000001", "confidence_note"]


def test_a_story_round_trip_loads(imported):
    assert len(load_story(imported.story.path).places) == 4


def test_admin1_from_the_full_name_and_the_cameo_root_as_sub_type(imported):
    """GDELT's ADM1Code is a FIPS code, not a name: the name comes from ActionGeo_FullName."""
    places = imported.story.places.set_index("id")
    assert places.at["aleppo", "admin1"] == "Halab"  # a city: the part before the country
    assert places.at["syria", "admin1"] == ""  # a country lies in no one division
    ev = imported.story.events.set_index("id")
    assert ev.at["gdelt-1100000001", "sub_type"] == "Fight"


@pytest.mark.parametrize(
    ("full", "geo_type", "admin1"),
    [
        ("Aleppo, Halab, Syria", 4, "Halab"),
        ("Austin, Texas, United States", 3, "Texas"),
        ("Halab, Syria", 5, "Halab"),
        ("Texas, United States", 2, "Texas"),
        ("Damascus, Syria", 4, ""),  # a city named without its division
        ("Syria", 1, ""),
    ],
)
def test_admin1_of_a_full_name(full, geo_type, admin1):
    assert gdelt.admin1(full, geo_type) == admin1
