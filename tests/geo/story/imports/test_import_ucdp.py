"""The UCDP GED importer: where_prec as radii, date ranges, deaths as a disputed range."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from geo.__main__ import main
from geo.story.imports import countries, import_export, ucdp
from geo.story.load import load_story

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"


@pytest.fixture(scope="module")
def story(tmp_path_factory):
    target = tmp_path_factory.mktemp("stories") / "ucdp-fixture"
    import_export("ucdp", DATASETS / "ucdp_ged.csv", target)
    assert main(["validate", str(target)]) == 0
    return load_story(target)


def test_the_layout_is_geds_49_columns():
    assert len(ucdp.COLUMNS) == 49
    assert ucdp.COLUMNS[:3] == ("id", "relid", "year")
    assert ucdp.COLUMNS[-5:] == ("best", "high", "low", "gwnoa", "gwnob")
    assert set(ucdp.USED) <= set(ucdp.COLUMNS)


@pytest.mark.parametrize(
    ("where_prec", "radius_m", "kind"),
    [
        (1, 2_000, "town"),
        (2, 25_000, "area"),
        (3, 50_000, "region"),
        (4, 150_000, "region"),
        (5, 150_000, "area"),
        (7, 500_000, "area"),
    ],
)
def test_where_prec_is_a_radius(where_prec, radius_m, kind):
    cell = {c: "" for c in ucdp.COLUMNS} | {"where_coordinates": "Homs town", "country": "Syria"}
    place = ucdp.place(cell, 34.7, 36.7, where_prec, "SY")
    assert (place.radius_m, place.kind) == (radius_m, kind)
    assert place.coord_source.startswith("approx:") == (where_prec > 1)


def test_where_prec_6_is_the_whole_country_not_its_middle():
    cell = {c: "" for c in ucdp.COLUMNS} | {"where_coordinates": "Syria", "country": "Syria"}
    place = ucdp.place(cell, 35.0, 38.5, 6, "SY")
    assert place.kind == "country"
    assert place.radius_m == countries.country_radius_m("SY", 35.0, 38.5) >= 350_000


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Syria", "SY"),
        ("Yemen (North Yemen)", "YE"),
        ("DR Congo (Zaire)", "CD"),
        ("Bosnia-Herzegovina", "BA"),
        ("Russia (Soviet Union)", "RU"),
        ("Kingdom of eSwatini (Swaziland)", "SZ"),
        ("Ivory Coast", "CI"),
        ("Atlantis", None),
    ],
)
def test_ged_country_names(name, code):
    assert countries.from_name(name) == code


def test_events_dates_and_figures(story):
    ev = story.events.set_index("id")
    assert len(ev) == 6
    assert ev.at["ged-990001", "category"] == "battle"
    assert ev.at["ged-990002", "category"] == "attack"  # one-sided violence
    assert ev.at["ged-990002", "date"] == pd.Timestamp("2017-08-20")
    assert ev.at["ged-990002", "end_date"] == pd.Timestamp("2017-08-23")
    assert pd.isna(ev.at["ged-990001", "end_date"])
    assert ev.at["ged-990001", "killed"] == 7
    assert ev.at["ged-990001", "actors"] == ["Government of Syria", "IS"]


def test_low_and_high_apart_make_a_disputed_range(story):
    ev = story.events.set_index("id")
    assert ev.at["ged-990002", "confidence"] == "disputed"
    assert ev.at["ged-990002", "confidence_note"] == (
        "UCDP's estimates of the dead: low 3, best 5, high 9"
    )
    assert ev.at["ged-990001", "confidence"] == "reported"


def test_sources_headlines_and_deaths_by_side(story):
    ev = story.events.set_index("id")
    assert "Headline: Invented headline: clashes" in ev.at["ged-990001", "summary"]
    detail = ev.at["ged-990001", "source_detail"]
    assert "UCDP GED event 990001" in detail
    assert "deaths: a 3, b 4, civilians 0, unknown 0" in detail
    assert story.sources.iloc[0]["url"] == "https://ucdp.uu.se/"


def test_country_wide_event_is_a_country_place(story):
    places = story.places.set_index("id")
    pid = story.events.set_index("id").at["ged-990005", "place_id"]
    assert places.at[pid, "kind"] == "country"
    assert places.at[pid, "radius_m"] >= 350_000


def test_adm_1_is_admin1_and_type_of_violence_the_sub_type(story):
    places = story.places.set_index("id")
    assert places.at["palmyra-town", "admin1"] == "Homs governorate"
    assert places.at["syria", "admin1"] == ""  # where_prec 6: the whole country
    kinds = set(story.events["sub_type"])
    assert kinds == {words for _, words in ucdp.VIOLENCE.values()}
