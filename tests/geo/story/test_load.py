"""Tests for geo.story.load: loading a good story and reporting every problem of a broken one."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from geo.__main__ import main
from geo.story.load import StoryError, load_story
from tests.helpers import MINI, copy_mini, problems_of, replace


@pytest.fixture
def story_dir(tmp_path: Path) -> Path:
    return copy_mini(tmp_path)


def test_good_story_has_proper_dtypes():
    story = load_story(MINI)
    ev = story.events
    assert story.id == "mini"
    assert len(ev) == 6
    assert pd.api.types.is_datetime64_any_dtype(ev["date"])
    assert pd.api.types.is_datetime64_any_dtype(ev["end_date"])
    assert str(ev["militants"].dtype) == "Int64"
    assert ev.loc[ev["id"] == "e4", "militants"].item() == 308
    assert ev["militants"].isna().sum() == 5
    assert list(ev["date"]) == sorted(ev["date"])
    # Events carry their place's coordinates and name.
    e5 = ev.set_index("id").loc["e5"]
    assert (e5["place_name"], e5["lat"], e5["lon"]) == ("Baalbek", 34.00583, 36.21806)
    assert ev.set_index("id").loc["e2", "actors"] == ["Lebanese Army", "Hezbollah"]
    assert story.places.set_index("id").loc["arsal", "aliases"] == ["Aarsal", "Ersal"]


def test_convoy_positions_take_coordinates_from_places_or_own():
    convoy = load_story(MINI).convoy.set_index("id")
    assert (convoy.loc["c1", "lat"], convoy.loc["c1", "lon"]) == (34.2, 36.6)
    assert (convoy.loc["c2", "lat"], convoy.loc["c2", "lon"]) == (34.40, 37.50)


def test_fronts_have_dates_and_computed_area():
    fronts = load_story(MINI).fronts.set_index("id")
    assert fronts.loc["lb-1", "valid_from"] == pd.Timestamp("2017-08-19")
    assert fronts.loc["lb-1", "computed_km2"] == pytest.approx(102.2, abs=0.2)


# Each case breaks one file in one way; the problem must name the file and the line.
BROKEN = [
    (
        "places.csv",
        "arsal,Arsal,Aarsal|Ersal,town,LB,34.17944,",
        "arsal,Arsal,,town,LB,94.1,",
        "places.csv:line 4: lat 94.1 is above 90",
    ),
    (
        "places.csv",
        "palmyra,Palmyra",
        "arsal,Palmyra",
        "places.csv:line 6: id 'arsal' is used twice",
    ),
    (
        "places.csv",
        "city,LB,33.89332",
        "metropolis,LB,33.89332",
        "places.csv:line 2: kind 'metropolis' is not one of",
    ),
    (
        "events.csv",
        "e1,2017-08-02",
        "e1,2017-13-02",
        "events.csv:line 2: date '2017-13-02' is not a date",
    ),
    (
        "events.csv",
        "e6,2017-08-30",
        "e6,2017-09-30",
        "events.csv:line 7: date 2017-09-30 is outside the story's span",
    ),
    (
        "events.csv",
        "e2,2017-08-19,2017-08-27",
        "e2,2017-08-19,2017-08-18",
        "events.csv:line 3: end_date 2017-08-18 is before date 2017-08-19",
    ),
    (
        "events.csv",
        "e5,2017-08-31,,baalbek",
        "e5,2017-08-31,,atlantis",
        "events.csv:line 6: place_id 'atlantis' is not a known place",
    ),
    ("events.csv", "airstrike", "alien-landing", "events.csv:line 7: category 'alien-landing'"),
    (
        "events.csv",
        ",308,331,",
        ",308.5,331,",
        "events.csv:line 5: militants '308.5' is not a whole number",
    ),
    (
        "events.csv",
        ",308,331,",
        ",many,331,",
        "events.csv:line 5: militants 'many' is not a number",
    ),
    ("events.csv", "A ceasefire takes effect.", "", "events.csv:line 4: summary is empty"),
    (
        "events.csv",
        "other,,claimed",
        "nowhere,,claimed",
        "events.csv:line 3: source 'nowhere' is not a known source",
    ),
    ("events.csv", "e3,2017-08-27", "e1,2017-08-27", "events.csv:line 4: id 'e1' is used twice"),
    (
        "events.csv",
        "test,,reported,\ne6",
        "test,,sure,\ne6",
        "events.csv:line 6: confidence 'sure' is not one of",
    ),
    (
        "convoy.csv",
        "c2,2017-08-29,all,,34.40,37.50",
        "c2,2017-08-29,all,,,",
        "convoy.csv:line 3: needs a place_id or both lat and lon",
    ),
    ("convoy.csv", "halted", "parked", "convoy.csv:line 4: status 'parked' is not one of"),
    (
        "story.toml",
        'place = "beirut"',
        'place = "gotham"',
        "story.toml: dateline place 'gotham' is unknown",
    ),
    (
        "story.toml",
        "start = 2017-08-01",
        "start = 2017-09-30",
        "story.toml: span start 2017-09-30 is after end",
    ),
]


def test_old_stories_get_empty_admin1_and_sub_type():
    story = load_story(MINI)
    assert set(story.places["admin1"]) == {""}
    assert set(story.events["sub_type"]) == {""}


def test_admin1_and_sub_type_are_read_and_bounded(story_dir):
    places = (story_dir / "places.csv").read_text(encoding="utf-8").splitlines()
    places[0] += ",admin1"
    places[1:] = [line + f",Region {n}" for n, line in enumerate(places[1:])]
    (story_dir / "places.csv").write_text("\n".join(places) + "\n", encoding="utf-8")
    story = load_story(story_dir)
    assert story.places.set_index("id").at["baalbek", "admin1"] == "Region 1"
    events = pd.read_csv(story_dir / "events.csv", dtype=str, keep_default_na=False)
    events["sub_type"] = ["Armed clash", "", "x" * 201, "Shelling", "a\tb", "a|b"]
    events.to_csv(story_dir / "events.csv", index=False)
    found = problems_of(story_dir)
    assert found == [
        "events.csv:line 4: sub_type has 201 characters; at most 200",
        "events.csv:line 6: sub_type holds a control character (a tab, a line break)",
        "events.csv:line 7: sub_type holds a '|' (links separate names with it): use '/'",
    ]
    events.loc[[2, 4, 5], "sub_type"] = "Armed clash"
    events.to_csv(story_dir / "events.csv", index=False)
    story = load_story(story_dir)
    assert story.events.set_index("id").at["e1", "sub_type"] == "Armed clash"
    places[2] = places[2].replace("Region 1", "R" * 300)
    (story_dir / "places.csv").write_text("\n".join(places) + "\n", encoding="utf-8")
    assert problems_of(story_dir) == ["places.csv:line 3: admin1 has 300 characters; at most 200"]


@pytest.mark.parametrize(("file", "old", "new", "expected"), BROKEN)
def test_each_kind_of_problem_is_reported_with_its_line(story_dir, file, old, new, expected):
    replace(story_dir / file, old, new)
    found = problems_of(story_dir)
    assert any(p.startswith(expected) for p in found), found


def test_every_problem_is_reported_at_once(story_dir):
    for file, old, new, _ in BROKEN[:6]:
        replace(story_dir / file, old, new)
    found = problems_of(story_dir)
    for _, _, _, expected in BROKEN[:6]:
        assert any(p.startswith(expected) for p in found), (expected, found)


def edit_front(story_dir: Path, n: int, **props) -> None:
    path = story_dir / "fronts.geojson"
    doc = json.loads(path.read_text())
    geometry = props.pop("geometry", None)
    doc["features"][n]["properties"].update(props)
    if geometry is not None:
        doc["features"][n]["geometry"] = geometry
    path.write_text(json.dumps(doc))


BOWTIE = {"type": "Polygon", "coordinates": [[[36, 34], [37, 35], [37, 34], [36, 35], [36, 34]]]}


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        (
            {"valid_from": "2017-08-25", "valid_to": "2017-08-20"},
            "fronts.geojson:feature 1 (lb-1): valid_from 2017-08-25 is after valid_to 2017-08-20",
        ),
        ({"side": "XX"}, "fronts.geojson:feature 1 (lb-1): side 'XX' must be LB or SY"),
        ({"drawn_km2": 500}, "fronts.geojson:feature 1 (lb-1): drawn_km2 500 does not match"),
        ({"geometry": BOWTIE}, "fronts.geojson:feature 1 (lb-1): polygon is not valid"),
        ({"valid_to": "2018-01-01"}, "fronts.geojson:feature 1 (lb-1): valid_to 2018-01-01 is out"),
        ({"source": None}, "fronts.geojson:feature 1 (lb-1): property 'source' is missing"),
    ],
)
def test_front_problems(story_dir, props, expected):
    edit_front(story_dir, 0, **props)
    found = problems_of(story_dir)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(
    ("file", "content", "expected"),
    [
        ("story.toml", "title = [unclosed", "story.toml: is not valid TOML"),
        ("events.csv", "id,date\ne1,2017-08-02\n", "events.csv:line 1: missing required column"),
        ("fronts.geojson", "{not json", "fronts.geojson:line 1: is not valid JSON"),
        ("places.csv", b"id,name\n\xff\xfe", "places.csv: cannot be read"),
    ],
)
def test_unreadable_files(story_dir, file, content, expected):
    target = story_dir / file
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content)
    found = problems_of(story_dir)
    assert any(p.startswith(expected) for p in found), found


def test_unknown_column_is_reported(story_dir):
    replace(story_dir / "events.csv", "confidence_note", "confidence_note,kiled")
    assert any("unknown column: kiled" in p for p in problems_of(story_dir))


def test_missing_folder():
    with pytest.raises(StoryError, match="is not a story folder"):
        load_story("/nonexistent/story")


def test_cli_validate_good(capsys):
    assert main(["validate", str(MINI)]) == 0
    out = capsys.readouterr().out
    assert "events      6" in out and "OK" in out


def test_cli_validate_bad(story_dir, capsys):
    replace(story_dir / "events.csv", "e1,2017-08-02", "e1,2017-13-02")
    replace(story_dir / "places.csv", "34.17944", "94.1")
    assert main(["validate", str(story_dir)]) == 1
    err = capsys.readouterr().err
    assert "events.csv:line 2" in err and "places.csv:line 4" in err


def test_cli_usage(capsys):
    assert main(["validate"]) == 2
    assert main([]) == 2
