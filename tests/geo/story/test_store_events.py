"""Big stories' events through the storage contract: the window and viewport queries of the
folder backend (a Parquet file queried by embedded DuckDB) and of PostgreSQL + PostGIS (SQL on
a GiST-indexed point) give the same rows as the pandas filter, and the same rows as each other."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from geo.story.events_store import (
    ALL_COLUMNS,
    LIGHT_COLUMNS,
    Narrow,
    WindowError,
    narrowed_per_period,
)
from geo.story.library import BUNDLED
from geo.story.load import load_story
from geo.story.storage import folder_files
from geo.story.timeline import filter_events, per_period
from tests.geo.story.test_store_contract import empty_database, make_store

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

N_EVENTS = 3000
BUNDLED_STORY = BUNDLED / "qalamoun-2017"
WINDOWS = [
    (date(2017, 1, 1), date(2017, 12, 31)),
    (date(2017, 3, 1), date(2017, 3, 31)),
    (date(2017, 6, 15), date(2017, 6, 15)),
    (date(2016, 1, 1), date(2017, 1, 2)),
    (date(2017, 5, 2), date(2017, 5, 1)),  # start after end: empty
]
FILTERS = [
    (None, None, None),
    (["battle", "convoy"], None, None),
    (None, ["ISIS"], None),
    (["airstrike"], ["Hezbollah", "SDF"], None),
    (None, None, (33.0, 35.5, 34.5, 37.0)),  # a viewport
    (["battle"], ["Syrian Army"], (32.0, 35.0, 36.0, 39.0)),
    ([], None, None),
    (None, None, (35.0, 36.0, 34.0, 37.0)),  # an inverted box holds nothing
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = generate_story(tmp_path_factory.mktemp("gen"), N_EVENTS, seed=11, story_id="big")
    files = folder_files(folder)
    return files, load_story(folder)


@pytest.fixture(scope="module")
def saved(request, tmp_path_factory, generated):
    """Both backends holding the generated story as ``big``, with their event stores."""
    where = tmp_path_factory.mktemp("stores")
    url = request.getfixturevalue("postgres_url")
    empty_database(url)
    out = {}
    for kind in ("folder", "postgres"):
        store = make_store(kind, where / kind, url)
        store.save("big", generated[0])
        out[kind] = store.events("big")
    return out


def _expected(story, start, end, cats, actors, bbox) -> pd.DataFrame:
    want = filter_events(story.events, start, end, cats, actors)
    if start > end:  # the stores hold no window that ends before it starts
        want = want.iloc[:0]
    if bbox is not None:
        south, west, north, east = bbox
        lat, lon = want["lat"], want["lon"]
        want = want[(lat >= south) & (lat <= north) & (lon >= west) & (lon <= east)]
    return want


@pytest.mark.parametrize("kind", ["folder", "postgres"])
@pytest.mark.parametrize(("start", "end"), WINDOWS)
@pytest.mark.parametrize(("cats", "actors", "bbox"), FILTERS)
def test_window_matches_the_pandas_filter(saved, generated, kind, start, end, cats, actors, bbox):
    events = saved[kind]
    want = _expected(generated[1], start, end, cats, actors, bbox)
    got = events.window(start, end, cats, actors, bbox)
    assert got.index.tolist() == want.index.tolist()
    assert got["id"].tolist() == want["id"].tolist()
    assert list(got.columns) == list(ALL_COLUMNS)
    assert events.count(start, end, cats, actors, bbox) == len(want)


@pytest.mark.parametrize(("start", "end"), WINDOWS[:4])
@pytest.mark.parametrize(("cats", "actors", "bbox"), FILTERS[:6])
def test_both_backends_give_the_same_rows(saved, start, end, cats, actors, bbox):
    folder = saved["folder"].window(start, end, cats, actors, bbox)
    sql = saved["postgres"].window(start, end, cats, actors, bbox)
    assert sql.index.tolist() == folder.index.tolist()
    for col in ("date", "end_date", "lat", "lon", "killed", "radius_m"):
        pd.testing.assert_series_equal(sql[col], folder[col], check_names=False)
    for col in ("id", "category", "place_id", "summary", "source", "place_name", "confidence"):
        assert sql[col].astype(str).tolist() == folder[col].astype(str).tolist()
    assert sql["actors"].map(list).tolist() == folder["actors"].map(list).tolist()


NARROWS = [
    Narrow(killed=(5, None)),
    Narrow(killed=(None, 0)),
    Narrow(countries=("SY",)),
    Narrow(countries=("LB", "IQ")),
    Narrow(countries=()),  # no country chosen: nothing
    Narrow(text="BATTLE reported"),
    Narrow(text="x%"),  # wildcards taken literally
    Narrow(text="_"),
    Narrow(text="\\"),
    Narrow(text="'; DROP TABLE dateline_events; --"),
    Narrow(killed=(1, 40), countries=("SY", "LB"), text="near"),
    Narrow(admin1=("Aleppo Governorate",)),
    Narrow(admin1=("Homs Governorate", "Nowhere")),
    Narrow(admin1=()),  # no region chosen: nothing
    Narrow(sub_types=("Armed clash",)),
    Narrow(sub_types=("Air/drone strike", "Shelling/artillery/missile attack")),
    Narrow(sub_types=("'; DROP TABLE dateline_events; --",)),
    Narrow(killed=(1, 40), admin1=("Damascus Governorate",), sub_types=("Armed clash",)),
]


def _narrowed(story, start, end, narrow: Narrow) -> pd.DataFrame:
    """The pandas reference: the Narrow filters written out over the loaded story."""
    want = filter_events(story.events, start, end)
    if narrow.killed is not None:
        lo, hi = narrow.killed
        k = want["killed"]
        want = want[
            (k >= lo if lo is not None else k.notna()) & (k <= hi if hi is not None else True)
        ]
    if narrow.countries is not None:
        country = story.places.set_index("id")["country"]
        want = want[want["place_id"].map(country).isin(narrow.countries)]
    if narrow.admin1 is not None:
        admin1 = story.places.set_index("id")["admin1"]
        want = want[want["place_id"].map(admin1).isin(narrow.admin1)]
    if narrow.sub_types is not None:
        want = want[want["sub_type"].isin(narrow.sub_types)]
    if narrow.text:
        hit = pd.Series(False, index=want.index)
        for col in ("summary", "source_detail", "confidence_note"):
            hit |= want[col].str.lower().str.contains(narrow.text.lower(), regex=False)
        want = want[hit]
    return want


@pytest.mark.parametrize("narrow", NARROWS)
def test_both_backends_narrow_alike(saved, generated, narrow):
    """killed, countries, text, admin1 and sub-type filters: the same rows, counts and
    per-place counts from DuckDB and from PostgreSQL, and the rows pandas gives."""
    start, end = date(2017, 2, 1), date(2017, 10, 31)
    f, p = saved["folder"], saved["postgres"]
    want = _narrowed(generated[1], start, end, narrow)
    got_f = f.window(start, end, narrow=narrow)
    got_p = p.window(start, end, narrow=narrow)
    assert got_p.index.tolist() == got_f.index.tolist() == want.index.tolist()
    assert got_p["id"].tolist() == want["id"].tolist()
    assert p.count(start, end, narrow=narrow) == f.count(start, end, narrow=narrow) == len(want)
    n = len(generated[1].places)
    per_place = p.counts_per_place(start, end, ["battle"], n_places=n, narrow=narrow)
    assert np.array_equal(
        per_place, f.counts_per_place(start, end, ["battle"], n_places=n, narrow=narrow)
    )
    cols = {"columns": ["date", "killed"], "limit": 7}
    first = p.window(start, end, narrow=narrow, **cols)
    assert first.index.tolist() == f.window(start, end, narrow=narrow, **cols).index.tolist()


def test_both_backends_list_the_same_sub_types(saved, generated):
    want = sorted(set(generated[1].events["sub_type"]) - {""})
    assert saved["postgres"].sub_types == saved["folder"].sub_types == want
    assert len(want) >= 2


def test_the_narrow_cases_are_not_vacuous(saved, generated):
    """Most Narrow cases keep some events and drop others (so the test above can fail)."""
    start, end = date(2017, 2, 1), date(2017, 10, 31)
    total = saved["postgres"].count(start, end)
    counts = [saved["postgres"].count(start, end, narrow=n) for n in NARROWS]
    assert sum(0 < c < total for c in counts) >= 5, counts
    with pytest.raises(WindowError):
        saved["postgres"].count(start, end, narrow=Narrow(killed=("many", None)))
    with pytest.raises(WindowError):
        saved["postgres"].count(start, end, narrow=Narrow(text="x" * 1000))


@pytest.mark.parametrize("narrow", [None, *NARROWS])
@pytest.mark.parametrize("period", ["day", "week", "month"])
def test_chart_counts_through_a_narrow_agree(saved, generated, narrow, period):
    """The timeline chart's counts: pandas over the loaded story, DuckDB's and PostgreSQL's
    GROUP BY give the same table (issue 28: the charts follow the Killed, Countries and text
    filters)."""
    start, end = date(2017, 1, 1), date(2017, 12, 31)
    story = generated[1]
    want = narrowed_per_period(story, start, end, period, ["battle", "airstrike"], None, narrow)
    for kind in ("folder", "postgres"):
        # Without a narrow, or through killed and countries only, a big story is counted from
        # its light events, in memory; the store's GROUP BY is checked on its own below.
        store = saved[kind]
        big = SimpleNamespace(store=store, events=store.light_events(), places=story.places)
        got = narrowed_per_period(big, start, end, period, ["battle", "airstrike"], None, narrow)
        pd.testing.assert_frame_equal(got, want, check_freq=False)
        table = store.counts_per_day(start, end, ["battle", "airstrike"], narrow=narrow)
        pd.testing.assert_frame_equal(per_period(table, period), want, check_freq=False)
    # Not vacuous: the pandas reference is the narrowed events written out.
    events = filter_events(story.events, start, end, ["battle", "airstrike"])
    if narrow is not None:
        events = _narrowed(story, start, end, narrow)
        events = events[events["category"].isin(["battle", "airstrike"])]
    assert int(want.to_numpy().sum()) == len(events)


@pytest.mark.parametrize("period", ["day", "week"])
def test_the_whole_storys_chart_through_each_filter_is_its_own(saved, generated, period):
    """The whole story's chart (every category) counted from the kept day cells of its light
    events, one filter after another, as pandas counts the filtered events."""
    story = generated[1]
    start, end = story.events["date"].min().date(), story.events["date"].max().date()
    store = saved["folder"]
    big = SimpleNamespace(store=store, events=store.light_events(), places=story.places)
    for narrow in (Narrow(killed=(1, None)), Narrow(countries=("SY",)), Narrow(killed=(3, 9))):
        want = narrowed_per_period(story, start, end, period, None, None, narrow)
        got = narrowed_per_period(big, start, end, period, None, None, narrow)
        pd.testing.assert_frame_equal(got, want, check_freq=False)
        assert 0 < int(got.to_numpy().sum()) < len(story.events)


@pytest.mark.parametrize("narrow", [None, Narrow(killed=(1, None))])
def test_chart_counts_by_actor_agree(saved, generated, narrow):
    """An actor filter is counted in the store's SQL too, with or without a narrow."""
    start, end = date(2017, 1, 1), date(2017, 12, 31)
    want = narrowed_per_period(generated[1], start, end, "week", None, ["ISIS"], narrow)
    assert 0 < want.to_numpy().sum() < N_EVENTS
    for kind in ("folder", "postgres"):
        big = SimpleNamespace(store=saved[kind], events=None)  # counted without the events
        got = narrowed_per_period(big, start, end, "week", None, ["ISIS"], narrow)
        pd.testing.assert_frame_equal(got, want, check_freq=False)


def test_chart_counts_follow_actors_and_an_empty_window(saved):
    f, p = saved["folder"], saved["postgres"]
    start, end = date(2017, 3, 1), date(2017, 4, 30)
    narrow = Narrow(killed=(1, None))
    a = f.counts_per_day(start, end, None, ["ISIS"], narrow=narrow)
    b = p.counts_per_day(start, end, None, ["ISIS"], narrow=narrow)
    pd.testing.assert_frame_equal(a, b, check_freq=False)
    assert 0 < a.to_numpy().sum() < f.count(start, end, narrow=narrow)
    assert len(a) == 61
    empty = f.counts_per_day(start, end, [], narrow=narrow)
    assert empty.empty and len(empty) == 61
    assert p.counts_per_day(end, start, narrow=narrow).empty


def test_both_stores_give_the_same_killed_top(saved, generated):
    """The Killed slider's top, one max() in each store: the same on the same data."""
    want = int(generated[1].events["killed"].max())
    assert saved["folder"].max_killed() == saved["postgres"].max_killed() == want


def test_the_folder_backend_answers_with_duckdb(saved):
    import duckdb

    from geo.story.events_store import EventStore

    folder = saved["folder"]
    assert isinstance(folder, EventStore)
    assert isinstance(folder._connection, duckdb.DuckDBPyConnection)


def test_limits_columns_places_and_counts_per_place_agree(saved, generated):
    story = generated[1]
    start, end = date(2017, 2, 1), date(2017, 8, 31)
    f, p = saved["folder"], saved["postgres"]
    kw = {"columns": ["date", "place_id"], "limit": 25}
    assert p.window(start, end, **kw).index.tolist() == f.window(start, end, **kw).index.tolist()
    ids = list(story.places["id"][:5])
    a = p.window(start, end, place_ids=ids).index.tolist()
    assert a == f.window(start, end, place_ids=ids).index.tolist() and a
    n = len(story.places)
    assert np.array_equal(
        p.counts_per_place(start, end, ["battle"], n_places=n),
        f.counts_per_place(start, end, ["battle"], n_places=n),
    )
    assert p.facets() == f.facets()
    assert p.n_events == f.n_events == N_EVENTS


def test_light_events_and_downloads_agree(saved):
    f, p = saved["folder"], saved["postgres"]
    fl, pl = f.light_events(), p.light_events()
    assert list(pl.columns) == list(LIGHT_COLUMNS) == list(fl.columns)
    for col in LIGHT_COLUMNS:
        assert pl[col].astype(str).tolist() == fl[col].astype(str).tolist()
    start, end = date(2017, 1, 1), date(2017, 12, 31)
    parts = list(p.frames(start, end, ["battle"], None, size=50))
    assert len(parts) > 1  # a download never holds the window whole
    whole = pd.concat(parts)
    assert whole.index.tolist() == f.window(start, end, ["battle"]).index.tolist()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bbox": (float("nan"), 0, 1, 1)}, "finite"),
        ({"bbox": (1, 2, 3)}, "south, west, north, east"),
        ({"columns": ["date", "__import__"]}, "unknown column"),
        ({"columns": ["date; DROP TABLE dateline_events"]}, "unknown column"),
    ],
)
def test_hostile_arguments_are_refused_by_both(saved, kwargs, message):
    for events in saved.values():
        with pytest.raises(WindowError, match=message):
            events.window(date(2017, 1, 1), date(2017, 2, 1), **kwargs)


def test_the_events_table_has_its_spatial_and_date_indexes(saved):
    import psycopg

    p = saved["postgres"]
    with psycopg.connect(p.store.url) as conn:
        rows = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'dateline_events'"
        ).fetchall()
        defs = dict(rows)
        assert "USING gist (geom)" in defs["dateline_events_geom"]
        assert "(story_id, date, last)" in defs["dateline_events_date"]
        # The viewport query can use the GiST index (forced on: the planner would scan 3,000
        # rows in one go otherwise).
        conn.execute("SET enable_seqscan = off")
        plan = conn.execute(
            "EXPLAIN SELECT row FROM dateline_events WHERE geom &&"
            " ST_MakeEnvelope(35.5, 33, 37, 34.5, 4326)"
        ).fetchall()
        assert "dateline_events_geom" in " ".join(r[0] for r in plan)


def test_the_app_opens_a_big_saved_story_with_its_events_in_the_database(
    saved, generated, monkeypatch
):
    from geo.story import events_store
    from geo.story.events_store import story_window
    from geo.story.pg import PgEventStore
    from geo.story.store import open_listed

    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    store = saved["postgres"].store
    entry = store.entries()["big"]
    story = open_listed(store.folder(entry), store)
    assert isinstance(story.store, PgEventStore)
    assert len(story.events) == N_EVENTS and list(story.events.columns) == list(LIGHT_COLUMNS)
    start, end = date(2017, 4, 1), date(2017, 4, 30)
    want = _expected(generated[1], start, end, None, ["ISIS"], None)
    got = story_window(story, start, end, None, ["ISIS"], full_upto=10**6)
    assert got.index.tolist() == want.index.tolist()
    # A folder that is no copy of a database story opens as before.
    assert open_listed(BUNDLED_STORY, store).store is None


def test_hostile_text_comes_back_from_the_database_as_it_went_in(postgres_url, tmp_path):
    """Quotes, backslashes, braces, commas, new lines and markup in every text field and actor
    survive the COPY into PostgreSQL (the CSV and text[] quoting)."""
    import csv

    from tests.helpers import hostile_story

    folder = hostile_story(tmp_path)
    with open(folder / "events.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rows[0]["actors"] = 'say "hi" \\ {x},y|NULL|'
    rows[0]["summary"] = 'a\\b "c" {d} e,\nf\r\ng \\N'
    rows[-1]["confidence_note"] = ""
    with open(folder / "events.csv", "w", encoding="utf-8", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=list(rows[0]))
        out.writeheader()
        out.writerows(rows)
    files = folder_files(folder)
    empty_database(postgres_url)
    story = make_store("postgres", tmp_path, postgres_url).save("hostile", files)
    events = make_store("postgres", tmp_path, postgres_url).events("hostile")
    got = events.window(story.start, story.end)
    want = story.events
    assert got.index.tolist() == want.index.tolist()
    for col in ("id", "summary", "source_detail", "confidence_note", "place_name"):
        assert got[col].tolist() == want[col].astype(object).tolist(), col
    assert got["actors"].map(list).tolist() == want["actors"].map(list).tolist()
    assert 'say "hi" \\ {x},y' in got["actors"].iloc[0]


def test_an_events_table_made_before_sub_type_gets_the_column(postgres_url, tmp_path):
    """A database whose events table predates sub_type: the next server adds the column (empty
    for the old rows) instead of failing every COPY and query. Last here: it drops the column."""
    import psycopg

    from geo.story.pg import PostgresStore

    there = (
        "SELECT count(*) FROM information_schema.columns"
        " WHERE table_name = 'dateline_events' AND column_name = 'sub_type'"
    )
    with psycopg.connect(postgres_url) as conn:
        conn.execute("ALTER TABLE dateline_events DROP COLUMN sub_type")
        conn.commit()
        assert conn.execute(there).fetchone()[0] == 0
    PostgresStore(postgres_url, tmp_path).connect().close()
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute(there).fetchone()[0] == 1
