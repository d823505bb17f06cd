"""The ACLED importer: its tables (precision codes, dates, event types) and the fixture export
imported, validated and exported back unchanged."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo import vocabulary
from geo.__main__ import main
from geo.story.export import events_acled_csv
from geo.story.imports import acled, import_export
from geo.story.library import BUNDLED
from geo.story.load import load_story

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("stories") / "acled-fixture"
    import_export("acled", DATASETS / "acled.csv", target, title="Fixture")
    return target


@pytest.fixture(scope="module")
def story(imported: Path):
    return load_story(imported)


@pytest.fixture(scope="module")
def original() -> dict[str, dict[str, str]]:
    """The fixture's rows by event id."""
    text = (DATASETS / "acled.csv").read_text(encoding="utf-8")
    return {r["event_id_cnty"]: r for r in csv.DictReader(io.StringIO(text))}


@pytest.mark.parametrize(
    ("precision", "radius_m", "kind"),
    [(1, 3_000, "town"), (2, 25_000, "area"), (3, 100_000, "region")],
)
def test_geo_precision_is_a_radius(precision, radius_m, kind):
    cell = {"location": "Ariha", "admin1": "Idleb", "admin2": "Ariha", "country": "Syria"}
    place = acled.place(cell, 35.8, 36.6, precision, "SY")
    assert (place.radius_m, place.kind) == (radius_m, kind)
    assert place.coord_source.startswith("approx:") == (precision > 1)


def test_a_place_that_is_only_the_country_holds_the_country():
    cell = {"location": "Syria", "admin1": "", "admin2": "", "country": "Syria"}
    place = acled.place(cell, 35.0, 38.5, 3, "SY")
    assert place.kind == "country"
    # Syria is about 800 km across: from its middle the circle reaches every border.
    assert 350_000 <= place.radius_m <= 700_000
    assert "only the country" in place.coord_source


@pytest.mark.parametrize(
    ("precision", "first", "last"),
    [
        (1, date(2023, 3, 15), date(2023, 3, 15)),
        (2, date(2023, 3, 12), date(2023, 3, 18)),
        (3, date(2023, 3, 1), date(2023, 3, 31)),
    ],
)
def test_time_precision_is_a_date_range(precision, first, last):
    assert acled.dates(date(2023, 3, 15), precision) == (first, last)


def test_time_precision_3_in_february_of_a_leap_year():
    assert acled.dates(date(2024, 2, 10), 3) == (date(2024, 2, 1), date(2024, 2, 29))


@pytest.mark.parametrize(
    ("event_type", "sub_event_type", "category"),
    [
        ("Battles", "Armed clash", "battle"),
        ("Battles", "Government regains territory", "capture"),
        ("Explosions/Remote violence", "Air/drone strike", "airstrike"),
        ("Explosions/Remote violence", "Suicide bomb", "suicide-bombing"),
        ("Explosions/Remote violence", "Remote explosive/landmine/IED", "bombing"),
        ("Violence against civilians", "Abduction/forced disappearance", "abduction"),
        ("Protests", "Peaceful protest", "protest"),
        ("Riots", "Mob violence", "riot"),
        ("Strategic developments", "Arrests", "arrest"),
        ("Strategic developments", "Non-violent transfer of territory", "handover"),
    ],
)
def test_sub_event_types_become_categories(event_type, sub_event_type, category):
    assert acled.SUB_EVENTS[(event_type, sub_event_type)] == category


def test_every_acled_sub_event_type_has_a_vocabulary_category():
    assert len(acled.SUB_EVENTS) == 25
    assert set(acled.SUB_EVENTS.values()) <= set(vocabulary.CATEGORIES)
    # A category that ACLED codes keeps ACLED's own event type (the export writes it back).
    # Only looting, which the vocabulary files with riots, changes ACLED's event type.
    changed = {
        pair
        for pair, category in acled.SUB_EVENTS.items()
        if vocabulary.acled_event_type(category) not in ("", pair[0])
    }
    assert changed == {("Strategic developments", "Looting/property destruction")}


def test_actors_keep_order_and_sides():
    cell = {
        "actor1": "A",
        "assoc_actor_1": "B; C",
        "actor2": "D|E",
        "assoc_actor_2": "A",
    }
    assert acled.actors(cell) == ["A", "B", "C", "D/E"]


def test_the_fixture_imports_and_validates(imported: Path, capsys):
    assert main(["validate", str(imported)]) == 0
    assert "12 (2023-03-01" in capsys.readouterr().out


def test_places_are_deduplicated(story):
    # Ariha (two events) and Beirut (two events) are one place each.
    assert len(story.places) == 10
    assert story.places["id"].is_unique
    counts = story.events["place_id"].value_counts()
    assert counts["ariha"] == 2 and counts["beirut"] == 2


def test_admin1_and_sub_event_type_are_kept(story, original):
    places = story.places.set_index("id")
    assert places.at["ariha", "admin1"] == "Idleb"
    assert places.at["arsal", "admin1"] == "Baalbek-Hermel"
    assert places.at["syria", "admin1"] == ""  # the whole country lies in no one division
    for eid, sub in story.events.set_index("id")["sub_type"].items():
        assert sub == original[eid.upper()]["sub_event_type"]


def test_places_differing_only_in_admin1_are_two(tmp_path):
    text = (DATASETS / "acled.csv").read_text(encoding="utf-8").splitlines()
    rows = list(csv.DictReader(io.StringIO("\n".join(text))))
    twin = dict(rows[0], event_id_cnty="SYR999999", admin1="Elsewhere")
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows([rows[0], twin])
    result = import_export("acled", out.getvalue().encode(), tmp_path / "twins", name="t.csv")
    assert sorted(result.story.places["admin1"]) == ["Elsewhere", "Idleb"]


def test_figures_dates_sources(story):
    ev = story.events.set_index("id")
    assert ev.at["syr900001", "killed"] == 3
    assert pd.isna(ev.at["syr900002", "killed"])  # ACLED's 0: none reported
    assert ev.at["syr900003", "date"] == pd.Timestamp("2023-03-03")
    assert ev.at["syr900003", "end_date"] == pd.Timestamp("2023-03-09")
    assert ev.at["syr900004", "end_date"] == pd.Timestamp("2023-03-31")
    assert ev.at["syr900006", "date"] == pd.Timestamp("2023-03-05")  # "05 March 2023"
    detail = ev.at["syr900002", "source_detail"]
    assert "SYR900002" in detail and "https://acleddata.com/" in detail
    assert "Invented Wire; Invented Monitor (National-International)" in detail
    assert set(story.events["source"]) == {"acled"}
    assert story.sources.iloc[0]["url"] == "https://acleddata.com/"
    assert ev.at["syr900001", "actors"] == [
        "Military Forces of Syria (2000-)",
        "Hayat Tahrir al-Sham",
    ]


def test_round_trip_through_the_acled_export(story, original):
    """ACLED fixture -> import -> export: the same ids, dates, fatalities and coordinates."""
    out = csv.DictReader(io.StringIO(events_acled_csv(story.events, story.places)))
    exported = {r["event_id_cnty"].upper(): r for r in out}
    coded = story.events[story.events["category"].map(vocabulary.acled_event_type) != ""]
    # Every event whose category ACLED codes goes back (a statement does not: docs/importers.md).
    assert set(exported) == {i.upper() for i in coded["id"]}
    assert len(exported) == 11
    for eid, row in exported.items():
        src = original[eid]
        assert int(row["fatalities"]) == int(src["fatalities"])
        assert float(row["latitude"]) == float(src["latitude"])
        assert float(row["longitude"]) == float(src["longitude"])
        assert row["location"] == src["location"]
        assert row["actor1"] == src["actor1"]
        # The story's sub_type and admin1 give ACLED's own coding back (not the vocabulary's
        # nearest: "Remote explosive/landmine/IED" stays itself); a place that is the whole
        # country has no admin1.
        assert (row["event_type"], row["sub_event_type"]) == (
            src["event_type"],
            src["sub_event_type"],
        )
        whole_country = src["location"] == src["country"]
        assert row["admin1"] == ("" if whole_country else src["admin1"])
        first = date.fromisoformat(row["event_date"])
        if src["time_precision"] == "1":
            assert row["event_date"] == pd.Timestamp(src["event_date"]).strftime("%Y-%m-%d")
        else:  # a range: its first day, and the range in the notes
            assert first <= pd.Timestamp(src["event_date"]).date()
            assert "From 2023-" in row["notes"]
        if src["geo_precision"] == "1":
            assert row["geo_precision"] == "1"


def test_dateline_acled_download_reads_back_unchanged(tmp_path):
    """A story's ACLED download (geo.story.export, 17 columns) imported again exports the same
    ids, dates, types, places, coordinates and fatalities."""
    bundled = load_story(BUNDLED / "qalamoun-2017")
    first = events_acled_csv(bundled.events, bundled.places)
    result = import_export("acled", first.encode(), tmp_path / "again", name="download.csv")
    second = events_acled_csv(result.story.events, result.story.places)
    keep = ["event_id_cnty", "event_date", "year", "event_type", "sub_event_type", "actor1"]
    keep += ["admin1"]
    keep += ["country", "location", "latitude", "longitude", "geo_precision", "fatalities"]
    before = pd.read_csv(io.StringIO(first), dtype=str, keep_default_na=False)[keep]
    after = pd.read_csv(io.StringIO(second), dtype=str, keep_default_na=False)[keep]
    assert len(before) == 23
    pd.testing.assert_frame_equal(
        before.sort_values("event_id_cnty").reset_index(drop=True),
        after.sort_values("event_id_cnty").reset_index(drop=True),
    )
