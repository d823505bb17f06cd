"""Tests for geo.story.events_store: window queries against the pandas filter, the disk cache."""

from __future__ import annotations

import json
import os
import shutil
import sys
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from geo.story import events_store, place_index
from geo.story.details import place_details
from geo.story.events_store import LIGHT_COLUMNS, MAP_COLUMNS, open_store, open_story, story_window
from geo.story.export import events_csv, events_csv_parts, events_geojson, events_geojson_parts
from geo.story.library import find_stories
from geo.story.load import StoryError, load_story
from geo.story.place_index import PlaceIndex
from geo.story.timeline import events_per_day, filter_events, longest_span
from tests.helpers import MINI

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

N_EVENTS = 3000
ROW_GROUP = 256  # small, so a window spans several row groups and most are skipped


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A synthetic story, its pandas load and its event store (row groups of ROW_GROUP)."""
    folder = generate_story(tmp_path_factory.mktemp("stories"), N_EVENTS, seed=11)
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(events_store, "ROW_GROUP", ROW_GROUP)
        store = open_store(folder, cache, in_process=True)
    return folder, cache, load_story(folder), store


def _bbox_mask(df: pd.DataFrame, bbox) -> pd.Series:
    south, west, north, east = bbox
    return (df["lat"] >= south) & (df["lat"] <= north) & (df["lon"] >= west) & (df["lon"] <= east)


WINDOWS = [
    (date(2017, 1, 1), date(2017, 12, 31)),
    (date(2017, 3, 1), date(2017, 3, 31)),
    (date(2017, 6, 15), date(2017, 6, 15)),
    (date(2017, 12, 31), date(2017, 12, 31)),
    (date(2016, 1, 1), date(2017, 1, 2)),
]
FILTERS = [
    (None, None, None),
    (["battle", "convoy"], None, None),
    (None, ["ISIS"], None),
    (["airstrike"], ["Hezbollah", "SDF"], None),
    (None, None, (33.0, 35.5, 34.5, 37.0)),
    (["battle"], ["Syrian Army"], (32.0, 35.0, 36.0, 39.0)),
]


@pytest.mark.parametrize(("start", "end"), WINDOWS)
@pytest.mark.parametrize(("cats", "actors", "bbox"), FILTERS)
def test_window_matches_the_pandas_filter(built, start, end, cats, actors, bbox):
    _, _, story, store = built
    want = filter_events(story.events, start, end, cats, actors)
    if bbox is not None:
        want = want[_bbox_mask(want, bbox)]
    got = store.window(start, end, cats, actors, bbox)
    # The same rows, in the same order, labelled by their row in the story.
    assert got.index.tolist() == want.index.tolist()
    assert got["id"].tolist() == want["id"].tolist()
    for col in ("date", "end_date", "lat", "lon", "killed"):
        pd.testing.assert_series_equal(got[col], want[col], check_names=False)
    for col in ("category", "place_id", "summary", "source", "place_name"):
        assert got[col].astype(str).tolist() == want[col].astype(str).tolist()
    assert got["actors"].map(list).tolist() == want["actors"].map(list).tolist()
    assert store.count(start, end, cats, actors, bbox) == len(want)


@pytest.mark.parametrize(
    ("start", "end", "cats", "actors", "bbox"),
    [
        (date(2017, 5, 2), date(2017, 5, 1), None, None, None),  # start after end
        (date(2018, 1, 1), date(2018, 12, 31), None, None, None),  # after the story
        (date(2017, 1, 1), date(2017, 12, 31), [], None, None),  # no category chosen
        (date(2017, 1, 1), date(2017, 12, 31), ["no-such"], None, None),
        (date(2017, 1, 1), date(2017, 12, 31), None, ["Nobody"], None),
        (date(2017, 1, 1), date(2017, 12, 31), None, None, (0.0, 0.0, 1.0, 1.0)),
        (date(2017, 1, 1), date(2017, 12, 31), None, None, (35.0, 36.0, 34.0, 37.0)),  # inverted
    ],
)
def test_empty_windows_keep_their_columns(built, start, end, cats, actors, bbox):
    _, _, _, store = built
    got = store.window(start, end, cats, actors, bbox)
    assert got.empty
    assert list(got.columns) == list(events_store.ALL_COLUMNS)
    assert store.window(start, end, cats, actors, bbox, columns=MAP_COLUMNS).columns.tolist() == [
        *MAP_COLUMNS
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bbox": (float("nan"), 0, 1, 1)}, "finite"),
        ({"bbox": (1, 2, 3)}, "south, west, north, east"),
        ({"bbox": "33,35,34,36"}, "south, west, north, east"),
        ({"columns": ["date", "__import__"]}, "unknown column"),
    ],
)
def test_hostile_arguments_are_refused(built, kwargs, message):
    _, _, _, store = built
    with pytest.raises(events_store.WindowError, match=message):
        store.window(date(2017, 1, 1), date(2017, 2, 1), **kwargs)


def test_projection_limit_and_place_filter(built):
    _, _, story, store = built
    start, end = date(2017, 2, 1), date(2017, 8, 31)
    want = filter_events(story.events, start, end)
    got = store.window(start, end, columns=MAP_COLUMNS)
    assert list(got.columns) == list(MAP_COLUMNS)
    assert got.index.tolist() == want.index.tolist()
    first = store.window(start, end, limit=10)
    assert first["id"].tolist() == want["id"].head(10).tolist()
    pid = want["place_id"].iloc[0]
    here = store.window(start, end, place_ids=[pid])
    assert here["id"].tolist() == want.loc[want["place_id"] == pid, "id"].tolist()
    assert store.window(start, end, place_ids=[]).empty


def test_counts_per_place_and_facets(built):
    _, _, story, store = built
    start, end = date(2017, 4, 1), date(2017, 9, 30)
    want = filter_events(story.events, start, end, ["battle", "speech"])
    codes = pd.Index(story.places["id"]).get_indexer(want["place_id"])
    expected = np.bincount(codes, minlength=len(story.places))
    got = store.counts_per_place(start, end, ["battle", "speech"], n_places=len(story.places))
    assert got.tolist() == expected.tolist()
    cats, actors = store.facets()
    assert cats == sorted(story.events["category"].unique())
    assert actors == sorted({a for acts in story.events["actors"] for a in acts})


def test_events_per_day_on_map_columns_matches_the_full_window(built):
    _, _, story, store = built
    start, end = date(2017, 3, 10), date(2017, 4, 20)
    full = events_per_day(filter_events(story.events, start, end), start, end)
    light = events_per_day(store.window(start, end, columns=MAP_COLUMNS), start, end)
    pd.testing.assert_frame_equal(light, full)


def test_the_parquet_is_date_sorted_with_geoparquet_points(built):
    """Row groups in date order (DuckDB skips those whose statistics cannot match) and each
    event's point as WKB, described by the file's GeoParquet ``geo`` metadata."""
    _, _, story, store = built
    meta = pq.read_metadata(store.events_path)
    assert meta.num_row_groups == -(-N_EVENTS // ROW_GROUP)
    firsts = [meta.row_group(i).column(1).statistics.min for i in range(meta.num_row_groups)]
    assert firsts == sorted(firsts)
    geo = json.loads(meta.metadata[b"geo"])
    assert geo["primary_column"] == "geometry"
    assert geo["columns"]["geometry"]["encoding"] == "WKB"
    table = pq.read_table(store.events_path, columns=["geometry", "lat", "lon"])
    first = table["geometry"][0].as_py()
    assert first[:5] == b"\x01\x01\x00\x00\x00"
    x, y = np.frombuffer(first[5:], dtype="<f8")
    assert (x, y) == (table["lon"][0].as_py(), table["lat"][0].as_py())
    assert {len(g) for g in table["geometry"].to_pylist()} == {21}  # one WKB point each
    west, south, east, north = geo["columns"]["geometry"]["bbox"]
    assert (east, south) == (story.events["lon"].max(), story.events["lat"].min())
    assert west == story.events["lon"].min() and north == story.events["lat"].max()


def test_the_date_filter_is_pushed_into_the_parquet_scan(built):
    _, _, _, store = built
    plan = store._connection.execute(
        "EXPLAIN SELECT row FROM read_parquet(?) WHERE date <= ? AND last >= ?",
        [str(store.events_path), date(2017, 7, 1), date(2017, 7, 1)],
    ).fetchall()
    text = " ".join(str(r) for r in plan)
    scan = text[
        text.index("PARQUET_SCAN") if "PARQUET_SCAN" in text else text.index("READ_PARQUET") :
    ]
    assert "date" in scan and "Filters" in scan


def test_the_cache_is_reused_and_follows_a_changed_file(tmp_path):
    folder = generate_story(tmp_path / "stories", 400, seed=2)
    cache = tmp_path / "cache"
    first = open_store(folder, cache, in_process=True)
    assert open_store(folder, cache, in_process=True).folder == first.folder
    mtime = first.events_path.stat().st_mtime_ns
    events = folder / "events.csv"
    text = events.read_text(encoding="utf-8")
    events.write_text(text.replace("reported near", "seen near", 1), encoding="utf-8")
    second = open_store(folder, cache, in_process=True)
    assert second.folder != first.folder
    assert not first.folder.exists()  # the stale entry is pruned
    assert "seen near" in second.window(date(2017, 1, 1), date(2017, 12, 31))["summary"].iloc[0]
    # Same bytes, new mtime: rebuilt too (size, mtime and content all count).
    os.utime(events, ns=(mtime, mtime + 10**9))
    assert open_store(folder, cache, in_process=True).folder != second.folder


def test_unchanged_files_are_not_hashed_again(tmp_path, monkeypatch):
    folder = generate_story(tmp_path / "stories", 400, seed=2)
    cache = tmp_path / "cache"
    first = open_store(folder, cache, in_process=True)
    hashed = []
    real = events_store.source_key
    monkeypatch.setattr(events_store, "source_key", lambda *a: hashed.append(a) or real(*a))
    assert open_store(folder, cache, in_process=True).folder == first.folder
    assert hashed == []
    # Other bytes, then the old size and mtime put back: the change time still moved.
    events = folder / "events.csv"
    stat = events.stat()
    text = events.read_text(encoding="utf-8")
    events.write_text(text.replace("reported near", "REPORTED NEAR", 1), encoding="utf-8")
    os.utime(events, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert events.stat().st_size == stat.st_size
    second = open_store(folder, cache, in_process=True)
    assert len(hashed) == 1 and second.folder != first.folder
    assert "REPORTED NEAR" in second.window(date(2017, 1, 1), date(2017, 12, 31))["summary"][0]
    # A damaged memo is not trusted either: the files are hashed again.
    next(cache.glob("*.key")).write_text("garbage", encoding="utf-8")
    assert open_store(folder, cache, in_process=True).folder == second.folder
    assert len(hashed) == 2


def test_a_half_written_entry_is_never_used(tmp_path, monkeypatch):
    folder = generate_story(tmp_path / "stories", 400, seed=2)
    cache = tmp_path / "cache"
    good = open_store(folder, cache, in_process=True)
    want = good.window(date(2017, 1, 1), date(2017, 12, 31))["id"].tolist()
    # A truncated Parquet (a crash while copying, a full disk): the summary's size disagrees.
    data = good.events_path.read_bytes()
    good.events_path.write_bytes(data[: len(data) // 2])
    rebuilt = open_store(folder, cache, in_process=True)
    assert rebuilt.window(date(2017, 1, 1), date(2017, 12, 31))["id"].tolist() == want
    # A build that fails half-way leaves no entry and no temporary folder behind.
    shutil.rmtree(rebuilt.folder)

    def broken(table, where, **kwargs):
        Path(where).write_bytes(b"PAR1 half")
        raise OSError("disk full")

    monkeypatch.setattr(events_store.pq, "write_table", broken)
    with pytest.raises(OSError, match="disk full"):
        open_store(folder, cache, in_process=True)
    # Only the memo of the files' key is left (see test_unchanged_files_are_not_hashed_again).
    assert [p.suffix for p in cache.iterdir()] == [".key"]


def test_the_cache_is_never_listed_as_a_story(built):
    _, cache, _, store = built
    assert store.folder.parent == cache
    assert find_stories(cache) == {}
    assert not (store.folder / "story.toml").exists()
    summary = json.loads((store.folder / "summary.json").read_text())
    assert summary["events"] == N_EVENTS


def test_open_story_keeps_small_stories_on_pandas(tmp_path):
    story = open_story(MINI, tmp_path)
    assert story.store is None
    pd.testing.assert_frame_equal(story.events, load_story(MINI).events)
    assert not tmp_path.joinpath("x").exists() and list(tmp_path.iterdir()) == []


def test_a_big_story_is_checked_in_a_child_and_queried(tmp_path, monkeypatch):
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    folder = generate_story(tmp_path / "stories", 300, seed=4)
    story = open_story(folder, tmp_path / "cache")
    full = load_story(folder)
    assert story.store is not None and story.store.n_events == 300
    # story.events is light: every event's map columns, in order.
    assert list(story.events.columns) == list(LIGHT_COLUMNS)
    assert story.events["place_id"].astype(str).tolist() == full.events["place_id"].tolist()
    start, end = date(2017, 2, 1), date(2017, 11, 30)
    few = story_window(story, start, end, full_upto=1000)
    want = filter_events(full.events, start, end)
    assert few["id"].tolist() == want["id"].tolist()
    for cats, actors in ((None, None), (["battle", "speech"], None), (None, ["ISIS"])):
        many = story_window(story, start, end, cats, actors, full_upto=10)
        want = filter_events(full.events, start, end, cats, actors)
        # In memory, the light columns; from a query (actors), the map's.
        assert list(many.columns) == list(MAP_COLUMNS if actors else LIGHT_COLUMNS)
        assert many.index.tolist() == want.index.tolist()
    pid = full.events["place_id"].iloc[0]
    got, want = place_details(story, pid, start, end), place_details(full, pid, start, end)
    assert got["events"]["id"].tolist() == want["events"]["id"].tolist()


def test_a_cached_open_takes_the_checked_places_and_not_places_csv(tmp_path, monkeypatch):
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    folder = generate_story(tmp_path / "stories", 300, seed=4)
    cache = tmp_path / "cache"
    want = load_story(folder).places.astype({"id": object})
    pd.testing.assert_frame_equal(open_story(folder, cache).places, want)
    # Opened again from the store: places.csv is neither read nor checked.
    from geo.story.load import loaders

    def unread(*args, **kwargs):
        raise AssertionError("places.csv was read again")

    with monkeypatch.context() as mp:
        mp.setattr(loaders, "load_places", unread)
        mp.setattr(loaders, "_places_in_their_countries", unread)
        pd.testing.assert_frame_equal(open_story(folder, cache).places, want)
    # A damaged copy of the same size is not trusted: places.csv is read and checked again.
    copy = next(cache.glob("*/places.parquet"))
    copy.write_bytes(b"\0" * copy.stat().st_size)
    pd.testing.assert_frame_equal(open_story(folder, cache).places, want)


def test_the_light_columns_load_from_plain_arrays_as_from_the_parquet(built):
    _, _, _, store = built
    light = store.light_events()
    pd.testing.assert_frame_equal(light, events_store._light_from_parquet(store.events_path))
    assert list(light.columns) == list(LIGHT_COLUMNS) and len(light) == N_EVENTS


def test_the_entry_holds_the_events_by_place_as_built_from_the_light_columns(built):
    _, _, _, store = built
    saved = store.place_index()
    assert saved is not None and isinstance(saved.keys, np.memmap)
    fresh = PlaceIndex.of(store.light_events(), store.places())
    for name in ("codes", "keys", "ends"):
        np.testing.assert_array_equal(getattr(saved, name), getattr(fresh, name))
    for got, want in zip(saved.categories, fresh.categories, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_a_missing_or_mismatched_place_index_is_built_instead(built, tmp_path):
    _, _, _, store = built
    assert PlaceIndex.load(tmp_path / "nothing", N_EVENTS) is None
    assert PlaceIndex.load(store.folder / place_index.FOLDER, N_EVENTS + 1) is None


def test_damaged_light_arrays_are_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    folder = generate_story(tmp_path / "stories", 300, seed=4)
    cache = tmp_path / "cache"
    want = open_story(folder, cache).events
    light = next(cache.glob("*/light"))
    arrays = {f.stem: np.load(f) for f in light.glob("*.npy")}
    for damage in (
        {"place_id_codes": arrays["place_id_codes"][:-1]},
        {"category_codes": arrays["category_codes"] + 100},
        {"killed": arrays["killed"].astype(np.float64)},
        {"date": None},
    ):
        for name, array in {**arrays, **damage}.items():
            (light / f"{name}.npy").unlink(missing_ok=True)
            if array is not None:
                np.save(light / f"{name}.npy", array)
        got = events_store.EventStore(light.parent, {}).light_events()
        pd.testing.assert_frame_equal(got, want)  # read from the Parquet instead


def _mapped(array: np.ndarray) -> bool:
    """Whether ``array`` is a view of a memory-mapped file."""
    while isinstance(array, np.ndarray):
        if isinstance(array, np.memmap):
            return True
        array = array.base
    return False


def test_the_light_columns_are_mapped_not_read(built):
    _, _, _, store = built
    light = store.light_events()
    # The dates and figures are views of the entry's files, not copies in the server.
    assert all(_mapped(light[col].to_numpy()) for col in ("date", "end_date", "killed"))
    assert not _mapped(events_store._light_from_parquet(store.events_path)["date"].to_numpy())


def test_a_broken_big_story_reports_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    folder = generate_story(tmp_path / "stories", 300, seed=4)
    events = folder / "events.csv"
    lines = events.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[5] = lines[5].replace("2017-", "17-", 1)
    events.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(StoryError) as err:
        open_story(folder, tmp_path / "cache")
    assert any(p.file == "events.csv" and p.where == "line 6" for p in err.value.problems)
    assert not any((tmp_path / "cache").glob("*/summary.json"))


@pytest.mark.parametrize(("cats", "actors"), [(None, None), (["battle"], ["ISIS"]), ([], None)])
def test_downloads_a_part_at_a_time_match_the_whole_window(built, cats, actors):
    _, _, story, store = built
    start, end = date(2017, 2, 1), date(2017, 5, 31)
    want = filter_events(story.events, start, end, cats, actors)
    parts = list(store.frames(start, end, cats, actors, size=5))
    assert len(parts) != 1 or want.empty  # several parts, or none
    assert events_csv_parts(parts) == events_csv(want)
    got = json.loads(events_geojson_parts(store.frames(start, end, cats, actors)))
    assert got == json.loads(events_geojson(want))


def _narrowed(story, start, end, killed=None, countries=None, text=None) -> pd.DataFrame:
    """The pandas reference for Narrow: the same filters written out over the loaded story."""
    want = filter_events(story.events, start, end)
    if killed is not None:
        lo, hi = killed
        k = want["killed"]
        want = want[
            (k >= lo if lo is not None else k.notna()) & (k <= hi if hi is not None else True)
        ]
    if countries is not None:
        country = story.places.set_index("id")["country"]
        want = want[want["place_id"].map(country).isin(countries)]
    if text is not None:
        needle = text.lower()
        hit = pd.Series(False, index=want.index)
        for col in ("summary", "source_detail", "confidence_note"):
            hit |= want[col].fillna("").str.lower().str.contains(needle, regex=False)
        want = want[hit]
    return want


@pytest.mark.parametrize(
    "narrow",
    [
        {"killed": (5, None)},
        {"killed": (None, 0)},
        {"killed": (2, 10)},
        {"countries": ("SY",)},
        {"countries": ("LB", "IQ")},
        {"text": "BATTLE reported"},
        {"text": "near"},
        {"text": "x%"},  # a wildcard taken literally: matches nothing here
        {"text": "_"},
        {"text": "'; DROP TABLE events; --"},
        {"text": "\\"},
        {"killed": (1, None), "countries": ("SY",), "text": "near"},
    ],
)
def test_narrow_filters_in_sql_match_pandas(built, narrow):
    _, _, story, store = built
    start, end = date(2017, 1, 1), date(2017, 12, 31)
    want = _narrowed(story, start, end, **narrow)
    n = events_store.Narrow(**narrow)
    got = store.window(start, end, narrow=n)
    assert got.index.tolist() == want.index.tolist()
    assert store.count(start, end, narrow=n) == len(want)
    per_place = store.counts_per_place(start, end, narrow=n, n_places=len(story.places))
    assert per_place.sum() == len(want)


def test_narrow_refuses_what_it_cannot_take(built):
    _, _, _, store = built
    day = date(2017, 3, 1)
    with pytest.raises(events_store.WindowError, match="at most"):
        store.window(day, day, narrow=events_store.Narrow(text="x" * (events_store.TEXT_MAX + 1)))
    with pytest.raises(events_store.WindowError, match="killed"):
        store.count(day, day, narrow=events_store.Narrow(killed=("a", 1)))
    with pytest.raises(events_store.WindowError, match="finite"):
        store.count(day, day, narrow=events_store.Narrow(killed=(float("nan"), 1)))
    assert store.count(day, day, narrow=events_store.Narrow(countries=())) == 0


def test_one_read_only_connection_per_store_with_its_limits(built):
    _, _, _, store = built
    con = store._connection
    assert store._connection is con
    limit, threads = con.execute(
        "SELECT current_setting('memory_limit'), current_setting('threads')"
    ).fetchone()
    assert threads == 2 and limit.startswith(("1.0 GiB", "953.6 MiB", "1 GB", "1.0 GB"))
    import duckdb

    with pytest.raises(duckdb.Error):
        con.execute("CREATE TABLE t (x INT)")


def test_narrow_filters_are_not_vacuous(built):
    """The cases above keep some events and drop others (else they would test nothing)."""
    _, _, story, _ = built
    start, end = date(2017, 1, 1), date(2017, 12, 31)
    total = len(filter_events(story.events, start, end))
    for narrow in ({"killed": (2, 10)}, {"countries": ("SY",)}, {"text": "BATTLE reported"}):
        assert 0 < len(_narrowed(story, start, end, **narrow)) < total, narrow


def test_the_highest_toll_is_kept_by_the_build_and_matches_the_query(built):
    _, _, story, store = built
    want = int(story.events["killed"].max())
    assert store.summary["killed_top"] == want == store.max_killed()
    asked = events_store.EventStore(
        store.folder, {k: v for k, v in store.summary.items() if k != "killed_top"}
    )
    assert asked.max_killed() == want  # an entry without it asks DuckDB


def test_the_longest_event_is_kept_by_the_build(built):
    _, _, story, store = built
    want = longest_span(story.events)
    assert want > pd.Timedelta(0)  # the story has events that last: the figure means something
    assert pd.Timedelta(microseconds=store.summary["longest_us"]) == want
    big = SimpleNamespace(store=store, events=store.light_events())
    assert events_store._longest(big) == want
    # An entry written without it works it out from the events.
    older = events_store.EventStore(
        store.folder, {k: v for k, v in store.summary.items() if k != "longest_us"}
    )
    assert events_store._longest(SimpleNamespace(store=older, events=big.events)) == want
