"""Tests for geo.map.scale (windowing and aggregating big windows) and its use by the window
payload."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geo.map import scale
from geo.map.text import parse_key
from geo.map.window import window_payload
from geo.story.load import load_story
from geo.story.timeline import in_window

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
DAY0 = pd.Timestamp("2017-01-01")


def make_events(starts: list[int], spans: list[int | None]) -> pd.DataFrame:
    """Events sorted by date as the loader leaves them: day offsets from DAY0, span in days."""
    order = np.argsort(starts, kind="stable")
    date = [DAY0 + pd.Timedelta(days=starts[i]) for i in order]
    end = [
        pd.NaT if spans[i] is None else DAY0 + pd.Timedelta(days=starts[i] + spans[i])
        for i in order
    ]
    return pd.DataFrame(
        {
            "id": [f"e{i}" for i in order],
            "date": pd.to_datetime(pd.Series(date, dtype="datetime64[us]")),
            "end_date": pd.to_datetime(pd.Series(end, dtype="datetime64[us]")),
        }
    )


def brute_window(events: pd.DataFrame, lo: int, hi: int) -> pd.DataFrame:
    first, last = DAY0 + pd.Timedelta(days=lo), DAY0 + pd.Timedelta(days=hi)
    ends = events["end_date"].fillna(events["date"])
    return events[(events["date"] <= last) & (ends >= first)]


# --- windowing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lo", "hi", "ids"),
    [
        (0, 0, ["e0"]),
        (1, 1, ["e0", "e1"]),  # e0 runs 0-3
        (4, 4, []),
        (5, 9, ["e2", "e3"]),
        (12, 20, ["e3"]),  # e3 runs 9-30, starts before the window
        (31, 40, []),
    ],
)
def test_in_window_table(lo, hi, ids):
    events = make_events([0, 1, 5, 9], [3, None, 0, 21])
    assert (
        list(in_window(events, DAY0 + pd.Timedelta(days=lo), DAY0 + pd.Timedelta(days=hi))["id"])
        == ids
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.one_of(st.none(), st.integers(0, 20))),
        max_size=40,
    ),
    st.integers(0, 80),
    st.integers(0, 30),
)
def test_in_window_matches_a_full_scan(rows, lo, width):
    events = make_events([r[0] for r in rows], [r[1] for r in rows])
    got = in_window(events, DAY0 + pd.Timedelta(days=lo), DAY0 + pd.Timedelta(days=lo + width))
    pd.testing.assert_frame_equal(got, brute_window(events, lo, lo + width))


def test_whole_span_window_is_a_slice_not_a_copy():
    events = make_events(list(range(50)), [None] * 50)
    got = in_window(events, DAY0, DAY0 + pd.Timedelta(days=60))
    assert len(got) == 50 and np.shares_memory(got["date"].to_numpy(), events["date"].to_numpy())


# --- projection and viewport ------------------------------------------------------------------


@given(st.floats(-80, 80), st.floats(-179, 179), st.integers(0, 18))
def test_pixels_round_trip(lat, lon, zoom):
    x, y = scale.to_pixels(lat, lon, zoom)
    back_lat, back_lon = scale.to_latlon(x, y, zoom)
    assert back_lat == pytest.approx(lat, abs=1e-9) and back_lon == pytest.approx(lon, abs=1e-9)


def _state(zoom, s, w, n, e):
    return {
        "zoom": zoom,
        "bounds": {"_southWest": {"lat": s, "lng": w}, "_northEast": {"lat": n, "lng": e}},
    }


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (_state(9, 33.0, 35.0, 34.0, 37.0), scale.Viewport(9, 33.0, 35.0, 34.0, 37.0)),
        (_state(8.6, "33", "35", "34", "37"), scale.Viewport(9, 33.0, 35.0, 34.0, 37.0)),
        (None, None),
        ({}, None),
        ({"zoom": 8}, None),
        (_state(8, None, None, None, None), None),  # st_folium's default before the map loads
        (_state(8, 34.0, 35.0, 33.0, 37.0), None),  # south above north
        (_state("x", 33.0, 35.0, 34.0, 37.0), None),
        (_state(8, float("nan"), 35.0, 34.0, 37.0), None),
    ],
)
def test_viewport_from_state(state, expected):
    assert scale.Viewport.from_state(state) == expected


def test_fitting_contains_the_bounds_and_picks_leaflets_zoom():
    levant = (29.6, 34.3, 37.3, 42.3)
    view = scale.Viewport.fitting(levant, size_px=(800, 620))
    assert view.zoom == 6
    assert view.south <= levant[0] and view.north >= levant[2]
    assert view.west <= levant[1] and view.east >= levant[3]
    # One level closer it would not fit.
    tighter = scale.Viewport.fitting((33.0, 35.0, 34.0, 36.0), size_px=(800, 620))
    assert tighter.zoom > view.zoom


def test_area_is_padded_and_stable_under_small_pans():
    view = scale.Viewport(10, 33.8, 35.4, 34.0, 35.8)
    area = view.area()
    assert area.south < view.south and area.north > view.north
    assert area.west < view.west and area.east > view.east
    nudged = scale.Viewport(10, 33.8005, 35.4005, 34.0005, 35.8005)
    assert nudged.area() == area


# --- codes and counts --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_story(tmp_path_factory):
    return load_story(generate_story(tmp_path_factory.mktemp("stories"), 5000, seed=3))


def test_window_codes_from_story_codes_match_a_lookup(big_story):
    codes = scale.place_codes(big_story.events, big_story.places)
    assert (codes >= 0).all()
    window = in_window(big_story.events, pd.Timestamp("2017-03-01"), pd.Timestamp("2017-03-31"))
    fast = scale.window_codes(window, big_story.places, codes)
    np.testing.assert_array_equal(fast, scale.place_codes(window, big_story.places))
    ids = big_story.places["id"].to_numpy()[fast]
    assert (ids == window["place_id"].to_numpy()).all()


def test_place_summary_matches_groupby(big_story):
    window = in_window(big_story.events, pd.Timestamp("2017-05-01"), pd.Timestamp("2017-06-30"))
    codes = scale.place_codes(window, big_story.places)
    wanted = np.array([0, 3, 7, 40])
    got = scale.place_summary(window, codes, wanted)
    for row in got.index:
        evs = window[window["place_id"] == big_story.places["id"].iloc[row]]
        assert got.loc[row, "events"] == len(evs)
        assert got.loc[row, "first"] == evs["date"].min()
        assert got.loc[row, "last"] == evs["end_date"].fillna(evs["date"]).max()
        assert got.loc[row, "category"] == evs["category"].iloc[-1]
    assert set(got.index) == {w for w in wanted if (codes == w).any()}


def test_place_summary_never_counts_unplaced_events_for_the_last_place():
    # Code -1 (no place) must not be read as the last place row: only wanted places' rows count.
    days = pd.to_datetime(["2017-01-01", "2017-01-02", "2017-01-03", "2017-01-04"])
    window = pd.DataFrame(
        {"date": days, "end_date": pd.NaT, "category": ["a", "b", "c", "d"]}, index=[5, 6, 7, 8]
    )
    codes = np.array([-1, 2, 0, -1])
    got = scale.place_summary(window, codes, np.array([2, 0]))
    assert got.loc[2].to_dict() == {
        "events": 1,
        "first": days[1],
        "last": days[1],
        "category": "b",
        "order": 1,
    }
    assert list(got.index) == [2, 0] and got.loc[0, "order"] == 2


@pytest.mark.parametrize("first, stop", [(0, 5000), (1586, 2518), (4000, 4001), (17, 999)])
def test_place_index_summary_is_place_summary(big_story, first, stop):
    window = big_story.events.iloc[first:stop]  # a run of rows, as in_window mostly slices
    index = scale.PlaceIndex.of(big_story.events, big_story.places)
    n = len(big_story.places)
    span = index.span(window)
    assert span == (first, stop)
    wanted = np.arange(-1, n + 2)
    got = index.summary(window, span, index.groups(span, n), wanted)
    codes = scale.window_codes(window, big_story.places, index.codes)
    want = scale.place_summary(window, codes, wanted)
    assert len(got) > 0
    pd.testing.assert_frame_equal(got, want, check_index_type=False, check_dtype=False)
    lo, hi = index.groups(span, n)
    np.testing.assert_array_equal(hi - lo, scale.place_counts(codes, n))


@pytest.mark.parametrize("start, end", [("2017-05-01", "2017-06-30"), ("2017-01-01", "2017-12-31")])
def test_a_date_window_uses_the_index_only_when_it_is_a_run_of_rows(big_story, start, end):
    window = in_window(big_story.events, pd.Timestamp(start), pd.Timestamp(end))
    index = scale.PlaceIndex.of(big_story.events, big_story.places)
    labels = window.index.to_numpy()
    run = bool((np.diff(labels) == 1).all())
    assert index.span(window) == ((labels[0], labels[-1] + 1) if run else None)
    day = pd.Timestamp(end).date()
    assert window_payload(big_story, window, day, index=index) == window_payload(
        big_story, window, day
    )


@pytest.mark.parametrize("first, stop", [(0, 5000), (0, 1), (63, 65), (100, 4999), (128, 256)])
def test_place_index_categories_are_those_of_the_rows(big_story, monkeypatch, first, stop):
    monkeypatch.setattr(scale.PlaceIndex, "BLOCK", 64)  # many blocks, and rows on both ends
    events = big_story.events.assign(category=big_story.events["category"].astype("category"))
    index = scale.PlaceIndex.of(events, big_story.places)
    window = events.iloc[first:stop]
    want = sorted(str(c) for c in window["category"].unique())
    assert index.categories_in((first, stop)) == want
    if stop - first < 10:  # a few rows: not every category, so the answer is not all of them
        assert len(want) < len(events["category"].cat.categories)


def test_place_index_is_not_used_for_a_window_that_is_not_a_run_of_rows(big_story):
    index = scale.PlaceIndex.of(big_story.events, big_story.places)
    every_other = big_story.events.iloc[::2]
    assert index.span(every_other) is None
    picked = big_story.events[big_story.events["category"] == big_story.events["category"].iloc[0]]
    assert index.span(picked) is None
    end = date(2017, 12, 31)
    assert window_payload(big_story, picked, end, index=index) == window_payload(
        big_story, picked, end
    )


def test_a_long_event_sets_its_place_last_day(big_story):
    events = big_story.events.copy()
    row = len(events) // 2
    events.loc[row, "end_date"] = pd.Timestamp("2030-01-01")
    index = scale.PlaceIndex.of(events, big_story.places)
    n = len(big_story.places)
    span = (0, len(events))
    place = int(index.codes[row])
    got = index.summary(events, span, index.groups(span, n), np.array([place]))
    assert got.loc[place, "last"] == pd.Timestamp("2030-01-01")


# --- aggregation --------------------------------------------------------------------------------

points = st.lists(
    st.tuples(st.floats(29.0, 38.0), st.floats(34.0, 43.0), st.integers(0, 500)),
    min_size=1,
    max_size=300,
)


@settings(max_examples=100, deadline=None)
@given(points, st.integers(3, 14))
def test_clusters_preserve_counts_and_hold_their_points(pts, zoom):
    lat, lon, w = (np.array(v) for v in zip(*pts, strict=True))
    cells = scale.grid_clusters(lat, lon, w, zoom)
    assert cells["events"].sum() == w.sum()
    assert cells["points"].sum() == len(lat)
    assert cells["key"].is_unique
    assert (cells["south"] <= cells["lat"] + 1e-9).all() and (
        cells["lat"] <= cells["north"] + 1e-9
    ).all()
    assert (cells["west"] <= cells["lon"] + 1e-9).all() and (
        cells["lon"] <= cells["east"] + 1e-9
    ).all()
    # Each cell's bounds fit in one grid cell: no cluster spans more than CELL_PX on screen.
    x0, y1 = scale.to_pixels(cells["south"], cells["west"], zoom)
    x1, y0 = scale.to_pixels(cells["north"], cells["east"], zoom)
    assert ((x1 - x0) <= scale.CELL_PX + 1e-6).all() and ((y1 - y0) <= scale.CELL_PX + 1e-6).all()


@pytest.mark.parametrize(
    ("zoom", "coarser_than"),
    [(5, 8), (8, 11), (11, 14)],
)
def test_zooming_in_splits_clusters(zoom, coarser_than, big_story):
    lat = big_story.places["lat"].to_numpy(dtype=float)
    lon = big_story.places["lon"].to_numpy(dtype=float)
    w = np.ones(len(lat), dtype=int)
    assert len(scale.grid_clusters(lat, lon, w, zoom)) < len(
        scale.grid_clusters(lat, lon, w, coarser_than)
    )


@pytest.mark.parametrize(
    ("viewport", "limit", "clustered"),
    [
        (scale.Viewport(6, 29.0, 33.0, 38.0, 44.0), 200, True),  # 250 places in view
        (scale.Viewport(6, 29.0, 33.0, 38.0, 44.0), 10_000, False),
        (scale.Viewport(11, 33.45, 36.2, 33.55, 36.4), 200, False),  # a few around Damascus
        (scale.Viewport(14, 29.0, 33.0, 38.0, 44.0), 10, False),  # deepest zoom: never merged
    ],
)
def test_plan_preserves_counts(big_story, viewport, limit, clustered):
    places = big_story.places
    lat = places["lat"].to_numpy(dtype=float)
    lon = places["lon"].to_numpy(dtype=float)
    window = in_window(big_story.events, pd.Timestamp("2017-01-01"), pd.Timestamp("2017-12-31"))
    counts = scale.place_counts(scale.place_codes(window, places), len(places))
    plan = scale.plan_layer(lat, lon, counts, viewport, limit=limit)
    in_area = viewport.area().contains(lat, lon) & (counts > 0)
    assert in_area.any()
    # The sum over clusters and single places is every event in the (padded) view.
    assert counts[plan.places].sum() + plan.clusters["events"].sum() == counts[in_area].sum()
    assert (not plan.clusters.empty) == clustered
    assert (plan.clusters["points"] >= 2).all()
    assert set(plan.places) <= set(np.flatnonzero(in_area))


def _cells(*rows: tuple[str, int, float, float]) -> pd.DataFrame:
    """Grid clusters (key, events, lat, lon), each of two places a degree across."""
    return pd.DataFrame(
        [
            {"key": k, "events": n, "points": 2, "lat": lat, "lon": lon, "south": lat - 0.5,
             "west": lon - 0.5, "north": lat + 0.5, "east": lon + 0.5, "point": 0}
            for k, n, lat, lon in rows
        ]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "kept"),
    [
        # At zoom 6 a degree of longitude is ~182 px; these discs are ~40 px across.
        pytest.param([("a", 239_000, 33.0, 36.0), ("b", 1_000, 33.1, 36.1)], {"a": 240_000},
                     id="a-small-disc-under-a-big-one-joins-it"),
        pytest.param([("a", 500, 33.0, 36.0), ("b", 90_000, 33.0, 36.15)], {"b": 90_500},
                     id="the-bigger-disc-takes-the-smaller"),
        pytest.param([("a", 5_000, 33.0, 36.0), ("b", 5_000, 33.0, 37.0)],
                     {"a": 5_000, "b": 5_000}, id="discs-apart-stay-apart"),
        pytest.param([("a", 9_000, 33.0, 36.0), ("b", 10, 33.0, 36.2), ("c", 10, 33.0, 36.4)],
                     {"a": 9_020}, id="a-grown-disc-takes-the-next-one-too"),
        pytest.param([("a", 7, 33.0, 36.0)], {"a": 7}, id="one-disc"),
    ],
)  # fmt: skip
def test_overlapping_discs_are_merged_into_the_bigger(rows, kept):
    got = scale.apart(_cells(*rows), 6)
    assert dict(zip(got["key"], got["events"], strict=True)) == kept
    assert got["events"].sum() == sum(r[1] for r in rows)
    assert got["points"].sum() == 2 * len(rows)
    if len(got) < len(rows):  # a merged disc spans its parts' bounds
        assert got["west"].min() == min(r[3] for r in rows) - 0.5


def test_no_two_discs_of_a_plan_overlap(big_story):
    places = big_story.places
    lat, lon = (places[c].to_numpy(dtype=float) for c in ("lat", "lon"))
    counts = np.random.default_rng(5).integers(1, 200_000, len(places))
    for zoom in (5, 6, 7):
        view = scale.Viewport(zoom, 29.0, 33.0, 38.0, 44.0)
        plan = scale.plan_layer(lat, lon, counts, view, limit=10)
        c = plan.clusters
        assert len(c) >= 2
        x, y = scale.to_pixels(c["lat"], c["lon"], zoom)
        r = scale.disc_radius_px(c["events"])
        gap = np.hypot(x[:, None] - x, y[:, None] - y) - (r[:, None] + r)
        assert (gap[~np.eye(len(c), dtype=bool)] >= 0).all()


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1"),
        (999, "999"),
        (1000, "1k"),
        (1234, "1.2k"),
        (9_960, "10k"),
        (12_345, "12k"),
        (999_400, "999k"),
        (999_999, "1M"),
        (1_000_000, "1M"),
        (2_345_678, "2.3M"),
    ],
)
def test_short_count(n, text):
    assert scale.short_count(n) == text


@pytest.mark.parametrize(
    ("tip", "cluster", "place"),
    [
        ("1,234 events at 12 places · click to zoom in [cluster:z8-150-101]", (8, 150, 101), None),
        ("<b>Arsal</b> · 3 events [place:arsal]", None, ("place", "arsal")),
        (None, None, None),
    ],
)
def test_cluster_keys_are_not_selections(tip, cluster, place):
    assert scale.parse_cluster_key(tip) == cluster
    assert parse_key(tip) == place


# --- the window payload -------------------------------------------------------------------------


def test_big_window_payload_counts_every_event_once(big_story, monkeypatch):
    monkeypatch.setattr(scale, "POINT_LIMIT", 100)  # the story's 250 places are "too many"
    window = in_window(big_story.events, pd.Timestamp("2017-01-01"), pd.Timestamp("2017-12-31"))
    index = scale.PlaceIndex.of(big_story.events, big_story.places)
    view = scale.Viewport(6, 29.0, 33.0, 38.0, 44.0)
    data = window_payload(big_story, window, date(2017, 12, 31), viewport=view, index=index)
    counted = sum(r[1] for r in data["summary"]) + sum(c["n"] for c in data["clusters"])
    assert counted == len(window)
    assert any(c["key"].startswith("cluster:z6-") for c in data["clusters"])
    assert all(scale.parse_cluster_key(c["tip"]) is not None for c in data["clusters"])


def test_zoomed_in_payload_draws_single_places_only(big_story):
    window = in_window(big_story.events, pd.Timestamp("2017-01-01"), pd.Timestamp("2017-12-31"))
    view = scale.Viewport(11, 33.45, 36.2, 33.55, 36.4)
    data = window_payload(big_story, window, date(2017, 12, 31), viewport=view)
    assert data["summary"] and not data["clusters"]
    ids = {data["places"][r[0]]["id"] for r in data["summary"]}
    assert all(i.startswith("p") for i in ids)


def _by_place(data: dict) -> list:
    return [[data["places"][r[0]]["id"], *r[1:]] for r in data["summary"]]


def test_bundled_story_is_drawn_whole_wherever_the_reader_looks():
    story = load_story(BUNDLED)
    window = in_window(story.events, story.start, story.end)
    plain = window_payload(story, window, story.end)
    with_view = window_payload(
        story,
        window,
        story.end,
        viewport=scale.Viewport(12, 33.0, 35.0, 34.0, 36.0),
        index=scale.PlaceIndex.of(story.events, story.places),
    )
    assert plain["scope"] == with_view["scope"] == "window"
    # The same events at the same places; the places merely in view differ.
    assert _by_place(plain) == _by_place(with_view)
    assert sum(r[1] for r in plain["summary"]) == len(window)


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        (["b", "a", "b", "zz", "c"], [1, 0, 1, -1, 2]),
        ([], []),
        (["zz"], [-1]),
    ],
)
@pytest.mark.parametrize("categorical", [False, True])
def test_place_codes_of_plain_and_categorical_ids(ids, expected, categorical):
    places = pd.DataFrame({"id": ["a", "b", "c"]})
    col = pd.Series(ids, dtype="category" if categorical else "str")
    if categorical:
        col = col.cat.add_categories(["unused"])  # ids the window does not hold are fine
    codes = scale.place_codes(pd.DataFrame({"place_id": col}), places)
    assert codes.dtype == np.int32
    assert codes.tolist() == expected


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 40, 300])
def test_the_sweep_finds_exactly_the_discs_that_touch_another(seed, n):
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(0, 900, n), rng.uniform(0, 600, n)
    x[: n // 4] = 450.0  # some on one vertical line: the sweep must not stop early there
    r = rng.uniform(8, 40, n)
    gap = np.hypot(x[:, None] - x, y[:, None] - y) - (r[:, None] + r)
    np.fill_diagonal(gap, np.inf)
    np.testing.assert_array_equal(scale._touching(x, y, r), (gap < 0).any(axis=1))
