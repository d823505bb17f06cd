"""Tests for geo.story.checks and the geography checks of load_story."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from shapely import affinity
from shapely.geometry import box, shape

from geo.__main__ import main
from geo.story import checks
from geo.story.checks import Position
from geo.story.load import load_story
from tests.helpers import MINI, copy_mini, problems_of, replace

ROOT = Path(__file__).resolve().parents[3]
BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
QARA = "qara,Qara,Qarah|Qārah|Kara,town,SY,34.15558,36.74284,2000,"


@pytest.fixture(scope="module")
def outlines() -> checks.Outlines:
    loaded = checks.load_outlines()
    assert loaded is not None
    return loaded


def test_outlines_are_loaded_once(outlines):
    assert checks.load_outlines() is outlines
    assert {"LB", "SY", "IQ"} <= set(outlines.shapes)


def test_unreadable_outlines_are_none(tmp_path):
    bad = tmp_path / "countries.geojson"
    bad.write_text("{not json")
    assert checks.load_outlines(str(bad)) is None
    assert checks.load_outlines(str(tmp_path / "missing.geojson")) is None


@pytest.mark.parametrize(
    ("code", "lat", "lon", "lo", "hi"),
    [
        ("LB", 34.00583, 36.21806, 0.0, 0.0),  # Baalbek is in Lebanon
        ("SY", 34.00583, 36.21806, 8.5, 9.5),  # and about 9 km from Syria
        ("SY", 34.15558, 36.74284, 0.0, 0.0),  # Qara
        ("LB", 34.15558, 36.74284, 12.0, 15.0),
        ("SY", 33.89332, 35.50157, 44.0, 48.0),  # Beirut is about 46 km from Syria
    ],
)
def test_distance_to_country(outlines, code, lat, lon, lo, hi):
    assert lo <= checks.distance_to_country_km(outlines, code, lat, lon) <= hi


@pytest.mark.parametrize(
    ("code", "lat", "lon"),
    [
        ("FR", 34.0, 36.2),  # no outline for that country
        ("LB", 48.85, 2.35),  # outside the area the basemap covers
        ("TR", 41.0, 28.98),  # Istanbul: Turkey is clipped to the box, so it cannot be told
    ],
)
def test_distance_cannot_be_told(outlines, code, lat, lon):
    assert checks.distance_to_country_km(outlines, code, lat, lon) is None


def test_share_in_country(outlines):
    inside = box(36.2, 33.9, 36.25, 33.95)  # around Baalbek
    assert checks.share_in_country(outlines, "LB", inside) == 1.0
    assert checks.share_in_country(outlines, "SY", inside) == 0.0
    straddling = box(36.5, 34.1, 36.8, 34.3)
    share_lb = checks.share_in_country(outlines, "LB", straddling)
    share_sy = checks.share_in_country(outlines, "SY", straddling)
    assert 0 < share_lb < 1 and share_lb + share_sy == pytest.approx(1.0, abs=1e-6)
    assert checks.share_in_country(outlines, "LB", box(2.0, 48.0, 2.1, 48.1)) is None


def pos(day: int, lat: float, lon: float, radius_km: float = 0.0, group: str = "all"):
    return Position(f"p{day}{group}", date(2017, 8, day), group, lat, lon, radius_km)


@pytest.mark.parametrize(
    ("a", "b", "lo", "hi"),
    [
        (pos(1, 34.0, 37.0), pos(1, 34.0, 37.0), 0, 0),  # standing still
        (pos(1, 34.0, 37.0), pos(2, 34.0, 38.0), 3.8, 3.9),  # about 92 km in a day
        (pos(1, 34.0, 37.0), pos(3, 34.0, 38.0), 1.9, 1.95),  # the same over two days
        (pos(1, 34.0, 37.0), pos(1, 34.0, 38.0), 22.9, 23.2),  # same date: taken as 4 h apart
        (pos(1, 34.0, 37.0, 50), pos(2, 34.0, 38.0, 50), 0, 0),  # circles overlap
        (pos(1, 34.0, 37.0), pos(2, 34.0, 60.0), 85, 90),  # 2,100 km: no bus does that
    ],
)
def test_min_speed(a, b, lo, hi):
    assert lo <= checks.min_speed_kmh(a, b) <= hi


def test_legs_follow_each_group_from_the_shared_route():
    route = [
        pos(1, 34.0, 37.0),
        pos(2, 34.0, 38.0),
        pos(3, 34.0, 37.5, group="west"),
        pos(3, 34.0, 39.0, group="east"),
        pos(4, 34.0, 37.2, group="west"),
    ]
    legs = [(a.label, b.label) for a, b in checks.convoy_legs(route)]
    assert legs == [
        ("p1all", "p2all"),
        ("p2all", "p3west"),
        ("p2all", "p3east"),
        ("p3west", "p4west"),
    ]


def test_too_fast_reports_only_impossible_legs():
    route = [pos(1, 34.0, 37.0), pos(2, 34.0, 38.0), pos(3, 34.0, 60.0)]
    slow = checks.too_fast(route)
    assert [(a.label, b.label) for a, b, _ in slow] == [("p2all", "p3all")]
    assert slow[0][2] > checks.MAX_CONVOY_KMH


@pytest.mark.parametrize(
    ("note", "figures"),
    [
        ("Counts range from about 7,777 to 8,000 people.", [7777, 8000]),
        ("07:00 local in most sources; one source says the offensive ended on 26 Aug.", []),
        ("Nasrallah said 141 km² on 4 Aug and 140 km² on 24 Aug.", [141, 140]),
        ("Over 19–20 Aug (Al-Manar 115843); the T2 station; ¶12–¶13.", []),
        ("See alshahidwitness.com/lebanese-army-progress-isis-jaroud/2 for the 500 m.", [500]),
        ("DNA reported for 9 or 10 sets of remains in 2017, the 9th found later.", [9, 10]),
        ("", []),
    ],
)
def test_note_figures(note, figures):
    assert checks.note_figures(note) == figures


@pytest.mark.parametrize(
    ("note", "own", "other"),
    [
        ("Counts range from about 7,777 to 8,000 people.", [7777], [8000]),
        ("Counts range from about 7,777 to 8,000 people.", [7777, 8000], []),
        ("Others say 25.", [], []),  # no figure of its own: nothing to disagree with
        ("Shown at Beirut on 28 Aug.", [26], []),
    ],
)
def test_other_figures(note, own, other):
    assert checks.other_figures(note, own) == other


def test_bundled_story_passes_every_check():
    story = load_story(BUNDLED)
    assert len(story.events) == 79
    # Warnings only: sources without an address; they never make the story fail.
    assert all("has no url" in w.message for w in story.warnings)


def test_syrian_place_moved_into_lebanon_is_refused(bundled):
    lines = (bundled / "places.csv").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text.startswith("qara,"))
    replace(
        bundled / "places.csv", QARA, "qara,Qara,Qarah|Qārah|Kara,town,SY,34.00583,36.21806,2000,"
    )
    found = problems_of(bundled)
    assert any(p.startswith(f"places.csv:line {line}: qara ") and "outside SY" in p for p in found)


def test_lebanese_polygon_shifted_into_syria_is_refused(bundled):
    path = bundled / "fronts.geojson"
    doc = json.loads(path.read_text(encoding="utf-8"))
    feature = doc["features"][0]
    assert feature["properties"]["id"] == "lb-2017-08-19"
    moved = affinity.translate(shape(feature["geometry"]), xoff=0.12)
    feature["geometry"] = {
        "type": "Polygon",
        "coordinates": [list(map(list, moved.exterior.coords))],
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    found = problems_of(bundled)
    expected = "fronts.geojson:feature 1 (lb-2017-08-19): only "
    assert any(p.startswith(expected) and "lies in LB" in p for p in found), found


def test_convoy_position_a_bus_cannot_reach_is_refused(bundled):
    replace(
        bundled / "convoy.csv",
        "convoy-2017-09-01,2017-09-01,all,,34.75,39.5",
        "convoy-2017-09-01,2017-09-01,all,,34.75,63.5",
    )
    found = problems_of(bundled)
    # The leg into the bad position (line 6) and the leg out of it (line 7) both fail.
    assert any(p.startswith("convoy.csv:line 6: convoy-2017-09-01 is too far") for p in found), (
        found
    )
    assert any(p.startswith("convoy.csv:line 7: convoy-2017-09-02 is too far") for p in found), (
        found
    )


def test_reported_event_with_another_figure_in_its_note_is_refused(story_dir_mini):
    replace(
        story_dir_mini / "events.csv",
        "test,¶1,reported,",
        "test,¶1,reported,Others say 8000 people",
    )
    found = problems_of(story_dir_mini)
    expected = "events.csv:line 2: confidence is 'reported' but the note gives other figures"
    assert f"{expected} (8,000): make it 'disputed'" in found


@pytest.fixture
def story_dir_mini(tmp_path: Path) -> Path:
    return copy_mini(tmp_path)


def test_border_place_must_be_near_both_countries(story_dir_mini):
    # The mini "crossing" (LB|SY) moved to Beirut is far from Syria.
    replace(story_dir_mini / "places.csv", "LB|SY,34.2,36.6,8000", "LB|SY,33.9,35.5,8000")
    found = problems_of(story_dir_mini)
    assert any(p.startswith("places.csv:line 5: crossing ") and "outside SY" in p for p in found), (
        found
    )


def test_geography_can_be_skipped(story_dir_mini):
    replace(story_dir_mini / "places.csv", "LB|SY,34.2,36.6,8000", "LB|SY,33.9,35.5,8000")
    assert load_story(story_dir_mini, basemap=None).id == "mini"


def test_unreadable_basemap_is_a_warning(tmp_path):
    story = load_story(MINI, basemap=tmp_path / "missing.geojson")
    assert any("geography not checked" in str(w) for w in story.warnings)


def test_source_without_url_is_a_warning_not_a_problem(story_dir_mini):
    story = load_story(story_dir_mini)
    assert [str(w) for w in story.warnings] == [
        "story.toml:source 1 (test): has no url: a reader cannot look it up"
    ]


def test_cli_prints_warnings_and_still_passes(capsys):
    assert main(["validate", str(MINI)]) == 0
    captured = capsys.readouterr()
    assert "OK (1 warning)" in captured.out
    assert "warning: story.toml:source 1 (test): has no url" in captured.err
