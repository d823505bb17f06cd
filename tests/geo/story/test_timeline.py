"""Tests for geo.story.timeline: window filters, the convoy and fronts on a day, series."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from geopy.distance import geodesic
from hypothesis import given, settings
from hypothesis import strategies as st

from geo.story.load import Story, load_story
from geo.story.timeline import (
    all_actors,
    convoy_current,
    convoy_distance_km,
    convoy_paths,
    convoy_until,
    day_table,
    events_per_day,
    filter_events,
    fronts_on,
    held_area_long,
    held_area_series,
    in_window,
)
from tests.helpers import MINI

# The fixture's convoy positions (lat, lon): c1 at the crossing, c2 own, c3/c4 Palmyra, c5 own.
C1, C2, C3, C5 = (34.2, 36.6), (34.40, 37.50), (34.5624, 38.28402), (34.70, 38.90)
ALL_EVENTS = ["e1", "e2", "e3", "e4", "e6", "e5"]  # in date order


def d(text: str) -> date:
    return date.fromisoformat(text)


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


def ids(df: pd.DataFrame) -> list[str]:
    return list(df["id"])


# --- in_window / filter_events --------------------------------------------------------------------

# mini: e1 2 Aug; e2 19–27 Aug; e3 27 Aug; e4 28 Aug; e6 30 Aug; e5 31 Aug.
WINDOWS = [
    pytest.param("2017-08-01", "2017-08-31", ALL_EVENTS, id="whole-span"),
    pytest.param("2017-08-20", "2017-08-22", ["e2"], id="multi-day-started-before"),
    pytest.param("2017-08-27", "2017-08-27", ["e2", "e3"], id="last-day-of-span-and-single"),
    pytest.param("2017-08-19", "2017-08-19", ["e2"], id="first-day-of-span"),
    pytest.param("2017-08-10", "2017-08-19", ["e2"], id="window-ends-on-span-start"),
    pytest.param("2017-08-03", "2017-08-18", [], id="gap-no-events"),
    pytest.param("2017-08-02", "2017-08-02", ["e1"], id="nat-end-date-single-day"),
    pytest.param("2017-08-03", "2017-08-03", [], id="day-after-single-day-event"),
    pytest.param("2017-08-28", "2017-08-29", ["e4"], id="after-multi-day-ended"),
    pytest.param("2017-08-28", "2017-08-31", ["e4", "e6", "e5"], id="last-days"),
    pytest.param("2017-08-31", "2017-08-31", ["e5"], id="last-day"),
    pytest.param("2017-07-01", "2017-07-31", [], id="before-the-story"),
    pytest.param("2017-09-01", "2017-09-30", [], id="after-the-story"),
]


@pytest.mark.parametrize(("start", "end", "expected"), WINDOWS)
def test_in_window(story: Story, start: str, end: str, expected: list[str]):
    assert ids(in_window(story.events, d(start), d(end))) == expected


def test_in_window_accepts_timestamps(story: Story):
    got = in_window(story.events, pd.Timestamp("2017-08-20"), pd.Timestamp("2017-08-22 15:00"))
    assert ids(got) == ["e2"]


def frame(rows: list[tuple[str, str, str | None]]) -> pd.DataFrame:
    """A date-sorted events frame from (id, date, end_date) rows."""
    df = pd.DataFrame(rows, columns=["id", "date", "end_date"])
    df["date"] = pd.to_datetime(df["date"])
    df["end_date"] = pd.to_datetime(df["end_date"])
    return df.sort_values("date", kind="stable").reset_index(drop=True)


# A month-long event far before the window must still be found by in_window's sliced search.
LONG = frame(
    [
        ("a", "2017-01-01", "2017-01-31"),
        ("b", "2017-01-10", None),
        ("c", "2017-01-20", "2017-01-21"),
        ("d", "2017-01-25", None),
        ("e", "2017-02-05", "2017-02-06"),
    ]
)


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        pytest.param("2017-01-22", "2017-01-24", ["a"], id="only-the-long-one"),
        pytest.param("2017-01-21", "2017-01-21", ["a", "c"], id="last-day-of-c"),
        pytest.param("2017-01-31", "2017-02-04", ["a"], id="last-day-of-a"),
        pytest.param("2017-02-01", "2017-02-04", [], id="between"),
        pytest.param("2017-02-06", "2017-03-01", ["e"], id="tail"),
        pytest.param("2016-12-01", "2017-01-01", ["a"], id="first-day-of-a"),
        pytest.param("2016-01-01", "2018-01-01", ["a", "b", "c", "d", "e"], id="everything"),
    ],
)
def test_in_window_long_events(start: str, end: str, expected: list[str]):
    assert ids(in_window(LONG, d(start), d(end))) == expected


def test_in_window_empty_frame():
    assert in_window(frame([]), d("2017-01-01"), d("2017-12-31")).empty


def test_in_window_all_nat_end_dates():
    df = frame([("a", "2017-01-01", None), ("b", "2017-01-03", None)])
    assert ids(in_window(df, d("2017-01-02"), d("2017-01-03"))) == ["b"]


BASE = date(2017, 1, 1)


@settings(max_examples=150, deadline=None)
@given(
    spans=st.lists(
        st.tuples(st.integers(0, 60), st.one_of(st.none(), st.integers(0, 20))), max_size=25
    ),
    lo=st.integers(-5, 85),
    width=st.integers(0, 30),
)
def test_in_window_agrees_with_brute_force(spans, lo, width):
    rows = [
        (
            f"x{n}",
            (BASE + timedelta(days=s)).isoformat(),
            None if length is None else (BASE + timedelta(days=s + length)).isoformat(),
        )
        for n, (s, length) in enumerate(spans)
    ]
    df = frame(rows)
    start, end = BASE + timedelta(days=lo), BASE + timedelta(days=lo + width)
    expected = [
        r.id
        for r in df.itertuples()
        for last in [r.date if pd.isna(r.end_date) else r.end_date]
        if r.date <= pd.Timestamp(end) and last >= pd.Timestamp(start)
    ]
    assert ids(in_window(df, start, end)) == expected


@pytest.mark.parametrize(
    ("start", "end", "categories", "actors", "expected"),
    [
        pytest.param("2017-08-01", "2017-08-31", None, None, ALL_EVENTS, id="no-filter"),
        pytest.param("2017-08-01", "2017-08-31", [], None, [], id="no-category-chosen"),
        pytest.param(
            "2017-08-01", "2017-08-31", ["speech", "celebration"], None, ["e4", "e5"], id="two-cats"
        ),
        pytest.param(
            "2017-08-01", "2017-08-31", ("airstrike",), None, ["e6"], id="categories-tuple"
        ),
        pytest.param("2017-08-01", "2017-08-31", {"ceasefire"}, None, ["e3"], id="categories-set"),
        pytest.param("2017-08-01", "2017-08-31", ["battle"], None, [], id="absent-category"),
        pytest.param("2017-08-01", "2017-08-31", None, [], ALL_EVENTS, id="no-actor-chosen"),
        pytest.param("2017-08-01", "2017-08-31", None, ["ISIS"], ["e3"], id="one-actor"),
        pytest.param(
            "2017-08-01", "2017-08-31", None, ["Hezbollah"], ["e1", "e2", "e4"], id="co-actor"
        ),
        pytest.param(
            "2017-08-01",
            "2017-08-31",
            None,
            ["ISIS", "US-led coalition"],
            ["e3", "e6"],
            id="any-of-two-actors",
        ),
        pytest.param("2017-08-01", "2017-08-31", None, ["Nobody"], [], id="unknown-actor"),
        pytest.param(
            "2017-08-20",
            "2017-08-31",
            ["offensive", "speech"],
            ["Hezbollah"],
            ["e2", "e4"],
            id="window-category-actor",
        ),
    ],
)
def test_filter_events(story: Story, start, end, categories, actors, expected):
    got = filter_events(story.events, d(start), d(end), categories, actors)
    assert ids(got) == expected


@pytest.mark.parametrize(
    ("start", "end", "categories", "actors"),
    [
        pytest.param("2017-08-03", "2017-08-18", None, [], id="empty-window-no-actor"),
        pytest.param("2017-08-01", "2017-08-31", [], None, id="no-category-no-actor"),
    ],
)
def test_filter_events_with_no_match_keeps_the_columns(
    story: Story, start, end, categories, actors
):
    got = filter_events(story.events, d(start), d(end), categories, actors)
    assert got.empty
    assert list(got.columns) == list(story.events.columns)


@pytest.mark.parametrize(
    ("start", "end", "categories", "actors"),
    [
        pytest.param("2017-08-03", "2017-08-18", None, ["Hezbollah"], id="empty-window-actor"),
        pytest.param(
            "2017-08-28", "2017-08-31", ["offensive"], ["Hezbollah"], id="category-leaves-none"
        ),
    ],
)
def test_filter_events_actor_on_no_events_keeps_the_columns(
    story: Story, start, end, categories, actors
):
    got = filter_events(story.events, d(start), d(end), categories, actors)
    assert got.empty
    assert list(got.columns) == list(story.events.columns)


def test_filter_events_accepts_a_generator_of_categories(story: Story):
    cats = (c for c in ["speech", "airstrike"])
    got = filter_events(story.events, d("2017-08-01"), d("2017-08-31"), cats)
    assert ids(got) == ["e4", "e6"]


def test_all_actors(story: Story):
    assert all_actors(story.events) == ["Hezbollah", "ISIS", "Lebanese Army", "US-led coalition"]


# --- events_per_day -------------------------------------------------------------------------------


def test_events_per_day_has_one_row_per_day(story: Story):
    table = events_per_day(story.events, d("2017-08-01"), d("2017-08-31"))
    assert list(table.index) == list(pd.date_range("2017-08-01", "2017-08-31"))
    assert int(table.to_numpy().sum()) == 6
    assert table.loc["2017-08-28", "speech"] == 1
    assert table.loc["2017-08-29"].sum() == 0


@pytest.mark.parametrize("pick", [slice(None), slice(0, 3), slice(2, None, 2), slice(0, 0)])
def test_events_per_day_of_some_rows_counts_those_rows(story: Story, pick):
    start, end = d("2017-08-01"), d("2017-08-31")
    keep = np.zeros(len(story.events), dtype=bool)
    keep[pick] = True
    want = events_per_day(story.events[keep], start, end)
    rows = np.flatnonzero(keep)
    pd.testing.assert_frame_equal(events_per_day(story.events, start, end, rows), want)


def test_events_per_day_counts_a_span_on_its_first_day(story: Story):
    table = events_per_day(story.events, d("2017-08-18"), d("2017-08-20"))
    assert table["offensive"].tolist() == [0, 1, 0]
    assert int(table.to_numpy().sum()) == 1


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-27", {"ceasefire": 1}, id="27-aug"),
        pytest.param("2017-08-31", {"celebration": 1}, id="31-aug"),
        pytest.param("2017-08-02", {"evacuation": 1}, id="2-aug"),
        pytest.param("2017-08-15", {}, id="quiet-day"),
    ],
)
def test_events_per_day_row(story: Story, day: str, expected: dict[str, int]):
    table = events_per_day(story.events, d("2017-08-01"), d("2017-08-31"))
    row = table.loc[day]
    assert {c: int(n) for c, n in row.items() if n} == expected


def test_events_per_day_without_events_has_the_days_and_no_columns(story: Story):
    table = events_per_day(story.events.iloc[0:0], d("2017-08-18"), d("2017-08-20"))
    assert list(table.index) == list(pd.date_range("2017-08-18", "2017-08-20"))
    assert table.columns.empty


def test_events_per_day_outside_the_events_is_all_zero(story: Story):
    table = events_per_day(story.events, d("2017-08-10"), d("2017-08-12"))
    assert len(table) == 3
    assert int(table.to_numpy().sum()) == 0


@pytest.mark.parametrize(
    ("start", "end"),
    [("2017-08-01", "2017-08-31"), ("2017-08-18", "2017-08-20"), ("2017-08-10", "2017-08-12")],
)
def test_day_table_from_grouped_rows_is_events_per_day(story: Story, start: str, end: str):
    """A store's GROUP BY rows (start day, category, events) make events_per_day's table; the
    rows outside the window are dropped, as events that started before it are not counted."""
    ev = story.events
    rows = ev.groupby([ev["date"].dt.normalize(), "category"], observed=True).size()
    got = day_table([(day, cat, n) for (day, cat), n in rows.items()], d(start), d(end))
    want = events_per_day(ev, d(start), d(end))
    assert list(got.index) == list(want.index)
    if want.columns.empty:
        assert got.columns.empty
    else:
        pd.testing.assert_frame_equal(got, want, check_freq=False)
    assert day_table([], d(start), d(end)).columns.empty


# --- convoy ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-27", [], id="before-start"),
        pytest.param("2017-08-28", ["c1"], id="first-day"),
        pytest.param("2017-08-30", ["c1", "c2", "c3"], id="trunk"),
        pytest.param("2017-08-31", ["c1", "c2", "c3", "c5", "c4"], id="after-split"),
        pytest.param("2017-09-30", ["c1", "c2", "c3", "c5", "c4"], id="long-after"),
    ],
)
def test_convoy_until(story: Story, day: str, expected: list[str]):
    assert ids(convoy_until(story.convoy, d(day))) == expected


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-27", set(), id="before-start"),
        pytest.param("2017-08-28", {"c1"}, id="assembling"),
        pytest.param("2017-08-29", {"c2"}, id="moving"),
        pytest.param("2017-08-30", {"c3"}, id="halted"),
        pytest.param("2017-08-31", {"c4", "c5"}, id="split-only-branches"),
        pytest.param("2017-09-05", {"c4", "c5"}, id="after-last-position"),
    ],
)
def test_convoy_current(story: Story, day: str, expected: set[str]):
    assert set(convoy_current(story.convoy, d(day))["id"]) == expected


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-27", {}, id="before-start"),
        pytest.param("2017-08-28", {"all": [C1]}, id="one-point"),
        pytest.param("2017-08-29", {"all": [C1, C2]}, id="two-points"),
        pytest.param(
            "2017-08-31",
            {"all": [C1, C2, C3], "east": [C3, C5], "west": [C3, C3]},
            id="branches-start-at-trunk-end",
        ),
    ],
)
def test_convoy_paths(story: Story, day: str, expected: dict):
    got = convoy_paths(story.convoy, d(day))
    assert {g: [(float(a), float(b)) for a, b in p] for g, p in got.items()} == expected


def km(*points: tuple[float, float]) -> float:
    return sum(geodesic(p, q).km for p, q in itertools.pairwise(points))


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-27", {}, id="before-start"),
        pytest.param("2017-08-28", {"all": 0.0}, id="not-moved"),
        pytest.param("2017-08-30", {"all": km(C1, C2, C3)}, id="trunk"),
        pytest.param(
            "2017-08-31",
            {"all": km(C1, C2, C3), "east": km(C1, C2, C3, C5), "west": km(C1, C2, C3)},
            id="split",
        ),
    ],
)
def test_convoy_distance_km_is_geodesic(story: Story, day: str, expected: dict[str, float]):
    got = convoy_distance_km(story.convoy, d(day))
    assert got.keys() == expected.keys()
    for group, value in expected.items():
        assert got[group] == pytest.approx(value, abs=1e-6)


def test_convoy_trunk_is_about_160_km(story: Story):
    assert convoy_distance_km(story.convoy, d("2017-08-30"))["all"] == pytest.approx(160.0, abs=1)


# --- fronts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-18", set(), id="before"),
        pytest.param("2017-08-19", {"lb-1", "sy-1"}, id="first-day-inclusive"),
        pytest.param("2017-08-21", {"lb-1", "sy-1"}, id="lb-1-last-day-inclusive"),
        pytest.param("2017-08-22", {"lb-2", "sy-1"}, id="lb-2-first-day"),
        pytest.param("2017-08-27", {"lb-2", "sy-1"}, id="last-day-inclusive"),
        pytest.param("2017-08-28", set(), id="after"),
    ],
)
def test_fronts_on(story: Story, day: str, expected: set[str]):
    assert set(fronts_on(story.fronts, d(day))["id"]) == expected


NAN = math.nan


@pytest.mark.parametrize(
    ("day", "lb", "sy"),
    [
        pytest.param("2017-08-18", NAN, NAN, id="before-nan"),
        pytest.param("2017-08-19", 120.0, 60.0, id="first-day"),
        pytest.param("2017-08-21", 120.0, 60.0, id="lb-1-last-day"),
        pytest.param("2017-08-22", 20.0, 60.0, id="lb-2"),
        pytest.param("2017-08-27", 20.0, 60.0, id="last-day"),
        pytest.param("2017-08-28", 0.0, 0.0, id="day-after-is-zero"),
        pytest.param("2017-08-29", NAN, NAN, id="later-nan"),
    ],
)
def test_held_area_series(story: Story, day: str, lb: float, sy: float):
    series = held_area_series(story.fronts, d("2017-08-15"), d("2017-08-31"))
    assert list(series.columns) == ["LB", "SY"]
    assert list(series.index) == list(pd.date_range("2017-08-15", "2017-08-31"))
    for side, want in (("LB", lb), ("SY", sy)):
        got = series.loc[day, side]
        assert math.isnan(got) if math.isnan(want) else got == want, (side, got)


def test_held_area_series_window_before_the_end_has_no_zero(story: Story):
    series = held_area_series(story.fronts, d("2017-08-20"), d("2017-08-27"))
    assert (series["LB"] > 0).all()
    assert (series["SY"] == 60.0).all()


@pytest.fixture
def unreported_story(tmp_path: Path) -> Story:
    """The mini story with no published figure for lb-2."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    doc = json.loads((dest / "fronts.geojson").read_text(encoding="utf-8"))
    for feat in doc["features"]:
        if feat["properties"]["id"] == "lb-2":
            feat["properties"]["reported_km2"] = None
    (dest / "fronts.geojson").write_text(json.dumps(doc), encoding="utf-8")
    return load_story(dest)


def test_held_area_series_is_nan_where_no_figure(unreported_story: Story):
    series = held_area_series(unreported_story.fronts, d("2017-08-19"), d("2017-08-28"))
    lb = series["LB"]
    assert lb.loc["2017-08-21"] == 120.0
    assert lb.loc["2017-08-22":"2017-08-27"].isna().all()
    assert lb.loc["2017-08-28"] == 0.0


def test_held_area_series_without_fronts_has_no_columns(story: Story):
    series = held_area_series(story.fronts.iloc[0:0], d("2017-08-19"), d("2017-08-21"))
    assert series.columns.empty
    assert len(series) == 3


@pytest.mark.parametrize(
    ("start", "end", "day", "side", "km2", "carried"),
    [
        pytest.param("2017-08-19", "2017-08-31", "2017-08-21", "LB", 120.0, False, id="reported"),
        pytest.param("2017-08-19", "2017-08-31", "2017-08-23", "LB", 120.0, True, id="carried"),
        pytest.param("2017-08-19", "2017-08-31", "2017-08-28", "LB", 0.0, False, id="gone"),
        pytest.param("2017-08-19", "2017-08-31", "2017-08-31", "LB", 0.0, False, id="still-gone"),
        pytest.param("2017-08-25", "2017-08-26", "2017-08-25", "LB", 120.0, True, id="window"),
    ],
)
def test_held_area_long_has_no_gaps(unreported_story, start, end, day, side, km2, carried):
    long = held_area_long(unreported_story.fronts, d(start), d(end))
    assert long["day"].min() >= pd.Timestamp(start) and long["day"].max() <= pd.Timestamp(end)
    row = long[(long["day"] == pd.Timestamp(day)) & (long["side"] == side)]
    assert row["km2"].tolist() == [km2] and row["carried"].tolist() == [carried]
    assert not long["km2"].isna().any()


def test_held_area_long_starts_at_the_first_polygon(story: Story):
    long = held_area_long(story.fronts, d("2017-08-01"), d("2017-08-31"))
    assert long["day"].min() == pd.Timestamp("2017-08-19")


def test_held_area_long_without_fronts(story: Story):
    assert held_area_long(story.fronts.iloc[0:0], d("2017-08-19"), d("2017-08-21")).empty


def test_filter_killed_keeps_figures_in_the_range_and_drops_unknown_ones():
    import pandas as pd

    from geo.story.timeline import filter_killed, killed_range

    events = pd.DataFrame({"id": list("abcd"), "killed": pd.array([0, 12, None, 85], "Int64")})
    assert filter_killed(events, None) is events
    assert list(filter_killed(events, (0, 12))["id"]) == ["a", "b"]
    # An event with no figure is not known to be in any range.
    assert list(filter_killed(events, (0, 1000))["id"]) == ["a", "b", "d"]
    assert filter_killed(events, (13, 84)).empty
    assert killed_range(events) == 85
    assert killed_range(events.assign(killed=pd.array([None] * 4, "Int64"))) is None
