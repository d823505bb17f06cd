"""Issue 23's six ways one story broke every page: each is now a located refusal or a drawn story,
and the rest of the library is untouched."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from geo.map.payload import payload_json, story_payload
from geo.story import library
from geo.story.library import find_stories
from geo.story.load import (
    MAX_CONVOY_ROWS,
    MAX_FRONTS,
    MAX_FRONTS_AT_ONCE,
    MAX_SPAN_DAYS,
    MAX_TOML_BYTES,
    UPLOAD_LIMITS,
    StoryError,
    load_story,
)
from geo.story.storage import ZipError, files_from_zip, save_story, zip_story_id
from geo.story.timeline import (
    MAX_BARS,
    chart_period,
    events_per_day,
    events_per_period,
    held_area_long,
)
from tests.helpers import (
    MINI,
    copy_mini,
    deep_fronts_story,
    deep_toml_story,
    huge_array_toml,
    many_days_story,
    problems_of,
    replace,
    spanned_story,
    story_at_its_bounds,
    story_zip_with_toml,
)

# --- 1. nesting: a located problem, and the other stories still list and load ------------------


def test_a_deeply_nested_story_toml_is_a_located_problem(tmp_path: Path):
    story = deep_toml_story(tmp_path)
    assert "story.toml:line 17: is nested more than 16 levels deep" in problems_of(story)


def test_deeply_nested_fronts_are_a_located_problem(tmp_path: Path):
    story = deep_fronts_story(tmp_path)
    assert problems_of(story) == ["fronts.geojson:line 1: is nested more than 16 levels deep"]


def test_the_picker_lists_a_broken_story_and_every_other_one(tmp_path: Path):
    deep_toml_story(tmp_path)
    deep_fronts_story(tmp_path)
    copy_mini(tmp_path)
    found = find_stories(tmp_path)
    assert found["deep-toml"].problem == "story.toml is nested more than 16 levels deep"
    assert found["deep-toml"].title == "deep-toml"
    # Its story.toml is fine: what is wrong shows when it is opened.
    assert found["deep-fronts"].problem is None
    assert found["mini"].problem is None
    assert load_story(found["mini"].path).id == "mini"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\xff\xfe title", "story.toml is not UTF-8 text"),
        (b'title = "unclosed', "story.toml is not valid TOML"),
        (b"a = 1\n" * 100_000, "story.toml is larger than 512 KB"),
    ],
)
def test_the_picker_says_why_a_story_toml_cannot_be_read(tmp_path: Path, content, problem):
    story = copy_mini(tmp_path)
    (story / "story.toml").write_bytes(content)
    assert find_stories(tmp_path)["mini"].problem == problem


def test_the_picker_reads_a_story_toml_once_per_version(tmp_path: Path, monkeypatch):
    story = copy_mini(tmp_path)
    calls = []
    real = library.read_meta
    monkeypatch.setattr(library, "read_meta", lambda p: calls.append(p) or real(p))
    library._TITLES.clear()
    for _ in range(3):
        assert find_stories(tmp_path)["mini"].title == "Mini story for tests"
    assert len(calls) == 1
    replace(story / "story.toml", "Mini story for tests", "Edited title")
    assert find_stories(tmp_path)["mini"].title == "Edited title"
    assert len(calls) == 2


# --- 2. size and unknown keys: refused before parsing, never saved -----------------------------


def test_a_huge_story_toml_in_a_zip_is_refused_while_inflating():
    data = story_zip_with_toml(huge_array_toml(3_000_000))  # 6 MB of TOML in a small zip
    assert len(data) < 100_000
    started = time.perf_counter()
    with pytest.raises(ZipError, match=r"story\.toml is larger than 512 KB"):
        files_from_zip(data)
    assert time.perf_counter() - started < 5  # it never parses: milliseconds, with a CPU hog


def test_a_big_story_toml_in_a_folder_is_refused_unread(tmp_path: Path):
    story = copy_mini(tmp_path)
    with open(story / "story.toml", "a", encoding="utf-8") as fh:
        fh.write(huge_array_toml(MAX_TOML_BYTES // 2))
    assert problems_of(story)[0] == "story.toml: is larger than 512 KB"


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ('junk = "x"', "story.toml:line 7: unknown key 'junk'"),
        ("[junk]\na = 1", "story.toml:line 7: unknown key 'junk'"),
        ('"quoted key".a = 1', "story.toml:line 7: unknown key 'quoted key'"),
    ],
)
def test_unknown_top_level_keys_are_refused_with_their_line(tmp_path: Path, extra, problem):
    story = copy_mini(tmp_path)
    text = (story / "story.toml").read_text(encoding="utf-8")
    # Top-level keys go before the first table.
    text = text.replace("[[sources]]", extra + "\n\n[[sources]]", 1)
    (story / "story.toml").write_text(text, encoding="utf-8")
    assert any(p.startswith(problem) for p in problems_of(story)), problems_of(story)


def test_a_zip_with_a_big_unknown_key_is_not_saved(tmp_path: Path):
    # Appended after the last [[sources]] table: the key lands in that source.
    data = story_zip_with_toml('junk = "' + "x" * 400_000 + '"')
    assert len(data) < 30_000
    files = files_from_zip(data)
    with pytest.raises(StoryError) as info:
        save_story(tmp_path, zip_story_id(files, "x.zip"), files, limits=UPLOAD_LIMITS)
    shown = [str(p) for p in info.value.problems]
    assert "story.toml:source 2: unknown key junk (expected id, publication, date, url)" in shown
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('place = "beirut"', 'place = "beirut", junk = 1', "dateline must be"),
        ("end = 2017-08-31 }", "end = 2017-08-31, junk = 1 }", "span must be"),
        ('title = "Mini story for tests"', 'title = "' + "t" * 301 + '"', "title is 301"),
        ('title = "Mini story for tests"', 'draft = "yes"\ntitle = "x"', "draft must be"),
    ],
)
def test_story_toml_shapes_are_strict(tmp_path: Path, old, new, problem):
    story = copy_mini(tmp_path)
    replace(story / "story.toml", old, new)
    assert any(problem in p for p in problems_of(story)), problems_of(story)


def test_zip_story_id_survives_a_hostile_story_toml():
    for extra in ("a = " + "[" * 5000 + "]" * 5000, huge_array_toml(300_000)):
        files = {"story.toml": (MINI / "story.toml").read_bytes() + ("\n" + extra).encode()}
        assert zip_story_id(files, "upload.zip") == "upload"


# --- 3. spans: at most 20 years within 1800-2200; the payload grows with the events ------------


@pytest.mark.parametrize(
    ("start", "end", "problem"),
    [
        ("1900-01-01", "2099-12-31", "span covers 73,049 days; a story covers at most 7,305"),
        ("0001-01-01", "9999-12-31", "span must lie between 1800-01-01 and 2200-12-31"),
        ("1799-12-31", "1800-01-31", "span must lie between 1800-01-01 and 2200-12-31"),
        ("2200-12-01", "2201-01-01", "span must lie between 1800-01-01 and 2200-12-31"),
    ],
)
def test_long_or_far_spans_are_refused(tmp_path: Path, start, end, problem):
    story = spanned_story(tmp_path, start, end)
    assert f"story.toml: {problem}" in problems_of(story)


def test_a_twenty_year_span_loads_and_its_payload_does_not_walk_the_days(tmp_path: Path):
    short = load_story(MINI)
    story = load_story(spanned_story(tmp_path, "1998-01-01", "2017-12-31"))
    assert (story.end - story.start).days + 1 == MAX_SPAN_DAYS
    # The same convoy and fronts: the same change days, whatever the span.
    for key in ("days", "front_days"):
        assert story_payload(story)[key] == story_payload(short)[key]
    assert len(payload_json(story)[0]) < 1.05 * len(payload_json(short)[0])


def test_payload_lists_the_days_the_convoy_and_the_enclave_change():
    payload = story_payload(load_story(MINI))
    fronts, convoy = payload["front_days"], payload["days"]
    ids = [f["id"] for f in payload["fronts"]]
    # lb-1 19-21 Aug, lb-2 22-27 Aug, sy-1 19-27 Aug: from the 28th nothing is drawn.
    assert {d: [ids[i] for i in v] for d, v in fronts.items()} == {
        "2017-08-19": ["lb-1", "sy-1"],
        "2017-08-22": ["lb-2", "sy-1"],
        "2017-08-28": [],
    }
    assert list(convoy) == ["2017-08-28", "2017-08-29", "2017-08-30", "2017-08-31"]
    assert convoy["2017-08-28"]["convoy"] == [0]
    assert [p["group"] for p in convoy["2017-08-31"]["paths"]] == ["all", "east", "west"]


@pytest.mark.slow
def test_a_story_at_every_bound_loads_with_a_bounded_payload(tmp_path: Path):
    story = load_story(story_at_its_bounds(tmp_path))
    assert len(story.fronts) == MAX_FRONTS and len(story.convoy) == MAX_CONVOY_ROWS
    text, _ = payload_json(story)
    assert len(text) < 3_000_000  # 1.9 MB measured: the route repeated on 300 days
    payload = story_payload(story)
    assert len(payload["days"]) == MAX_CONVOY_ROWS
    assert len(payload["front_days"]) == 1_000 + 1  # one a week (both sides), and the end


def test_polygons_valid_on_one_day_are_bounded(tmp_path: Path):
    story = copy_mini(tmp_path)
    file = story / "fronts.geojson"
    doc = json.loads(file.read_text(encoding="utf-8"))
    first = doc["features"][0]
    doc["features"] = []
    for n in range(MAX_FRONTS_AT_ONCE + 1):
        f = json.loads(json.dumps(first))
        f["properties"]["id"] = f"lb-{n}"
        doc["features"].append(f)
    file.write_text(json.dumps(doc), encoding="utf-8")
    assert problems_of(story) == [
        "fronts.geojson: 21 polygons are valid on 2017-08-19; at most 20 on one day"
    ]


# --- 4. charts: any story the validator accepts, bounded rows -----------------------------------


@pytest.mark.parametrize(
    ("start", "end", "period"),
    [
        ("2017-08-01", "2017-08-31", "day"),
        ("2017-01-01", "2017-04-30", "day"),  # 120 days
        ("2017-01-01", "2017-05-01", "week"),
        ("2017-01-01", "2017-12-31", "week"),  # a year: 53 bars, not 365
        ("2017-01-01", "2019-04-20", "week"),  # 840 days
        ("2017-01-01", "2019-04-21", "month"),
        ("2010-01-01", "2017-12-31", "month"),
    ],
)
def test_chart_period_keeps_the_bars_few(start, end, period):
    from datetime import date

    assert chart_period(date.fromisoformat(start), date.fromisoformat(end)) == period


def test_a_twenty_year_story_of_many_days_charts_in_bounded_rows(tmp_path: Path):
    story = load_story(many_days_story(tmp_path))
    per_day = events_per_day(story.events, story.start, story.end)
    assert per_day.size > 5_000  # Altair's guard would have refused it
    period = chart_period(story.start, story.end)
    table = events_per_period(story.events, story.start, story.end, period)
    assert period == "month" and len(table) <= MAX_BARS
    assert table.to_numpy().sum() == len(story.events)
    assert list(table.columns) == list(per_day.columns)


def test_weeks_start_on_mondays_and_keep_every_event():
    import pandas as pd

    story = load_story(MINI)
    table = events_per_period(story.events, story.start, story.end, "week")
    assert all(d.weekday() == 0 for d in table.index)
    per_day = events_per_day(story.events, story.start, story.end)
    assert table.to_numpy().sum() == per_day.to_numpy().sum()
    assert isinstance(table.index, pd.DatetimeIndex)


def test_held_area_of_a_long_story_keeps_only_its_changes(tmp_path: Path):
    import pandas as pd

    story = load_story(spanned_story(tmp_path, "1998-01-01", "2017-12-31"))
    rows = held_area_long(story.fronts, story.start, story.end)
    assert len(rows) <= MAX_BARS
    # Each side's last row is there: the step line reaches the story's end.
    assert rows.groupby("side")["day"].max().eq(pd.Timestamp(story.end)).all()
    # A short story keeps one row a day, as before.
    short = load_story(MINI)
    daily = held_area_long(short.fronts, short.start, short.end)
    for _, side in daily.groupby("side"):
        assert side["day"].diff().dropna().eq(pd.Timedelta(days=1)).all()


# --- minor: non-finite numbers, too many rows ----------------------------------------------------


@pytest.mark.parametrize("value", ["Infinity", "NaN", "1e308", "-Infinity", "1e400"])
def test_non_finite_or_absurd_areas_are_refused(tmp_path: Path, value):
    story = copy_mini(tmp_path)
    file = story / "fronts.geojson"
    doc = file.read_text(encoding="utf-8")
    file.write_text(doc.replace('"reported_km2": 120', f'"reported_km2": {value}', 1))
    shown = problems_of(story)
    assert any(p.startswith("fronts.geojson:") for p in shown), shown


@pytest.mark.parametrize("value", ["inf", "nan", "1e999", "-inf", "1e12"])
def test_non_finite_or_absurd_figures_are_refused(tmp_path: Path, value):
    story = copy_mini(tmp_path)
    replace(story / "events.csv", ",7777,", f",{value},")
    shown = problems_of(story)
    assert any(p.startswith("events.csv:line 2: people") for p in shown), shown


def test_a_geonames_id_beyond_any_integer_is_refused(tmp_path: Path):
    story = copy_mini(tmp_path)
    replace(story / "places.csv", "276781,", "1e300,")
    assert "places.csv:line 2: geonames_id 1e300 is above 10000000000" in problems_of(story)


def test_too_many_fronts_are_refused_unchecked(tmp_path: Path):
    story = copy_mini(tmp_path)
    file = story / "fronts.geojson"
    doc = json.loads(file.read_text(encoding="utf-8"))
    doc["features"] = doc["features"][:1] * (MAX_FRONTS + 1)
    file.write_text(json.dumps(doc), encoding="utf-8")
    assert problems_of(story) == [f"fronts.geojson: has {MAX_FRONTS + 1:,} features; at most 2,000"]


def test_a_convoy_of_too_many_positions_is_refused(tmp_path: Path):
    story = copy_mini(tmp_path)
    file = story / "convoy.csv"
    lines = file.read_text(encoding="utf-8").splitlines()
    file.write_text("\n".join([lines[0], *[lines[1]] * (MAX_CONVOY_ROWS + 1)]) + "\n")
    assert f"convoy.csv: has more than {MAX_CONVOY_ROWS:,} rows" in problems_of(story)


def test_a_failure_no_check_foresaw_is_a_story_error(tmp_path: Path, monkeypatch):
    from geo.story.load import loaders

    def boom(*_a, **_k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(loaders, "_join_places", boom)
    with pytest.raises(StoryError) as info:
        load_story(copy_mini(tmp_path))
    shown = [str(p) for p in info.value.problems]
    assert shown == ["mini: cannot be read: it is nested too deeply to read"]


def test_a_title_is_one_line_without_bidi_controls(tmp_path: Path):
    story = copy_mini(tmp_path)
    replace(
        story / "story.toml",
        'title = "Mini story for tests"',
        'title = "Mini\\u202e story\\u2028for tests"',
    )
    assert load_story(story).title == "Mini story for tests"
    assert find_stories(tmp_path)["mini"].title == "Mini story for tests"
