"""AppTest: the map page with DATELINE_DATABASE_URL set lists and opens the database's stories,
and still shows the bundled ones when the database is down."""

from __future__ import annotations

from pathlib import Path

import pytest

from geo.story.pg import PostgresStore
from geo.story.storage import folder_files
from tests.geo.story.test_store_contract import bundled_files, empty_database, retitled
from tests.helpers import app_run


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(tmp_path / "stories"))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def test_a_story_in_the_database_is_listed_and_opened(postgres_url, monkeypatch, tmp_path):
    empty_database(postgres_url)
    # Saved by "another server": its own cache folder.
    other = PostgresStore(postgres_url, cache=tmp_path / "other-server")
    other.save("from-db", retitled(bundled_files(), "Kept in PostgreSQL"))
    monkeypatch.setenv("DATELINE_DATABASE_URL", postgres_url)
    at = app_run(story="from-db")
    assert at.selectbox(key="story_pick").value == "from-db"
    assert "Kept in PostgreSQL (yours)" in at.selectbox(key="story_pick").options
    assert [s.value for s in at.subheader] == ["Kept in PostgreSQL"]
    assert not at.error and not at.warning


def test_a_database_that_is_down_leaves_the_bundled_stories(monkeypatch):
    monkeypatch.setenv("DATELINE_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    at = app_run()
    assert at.selectbox(key="story_pick").value == "qalamoun-2017"
    assert any("Only the bundled stories are listed" in w.value for w in at.warning)
    assert not at.error


def test_a_big_story_in_the_database_draws_its_page_from_sql(postgres_url, monkeypatch, tmp_path):
    """The map page, its table and charts on a big saved story, whose events stay in PostgreSQL
    (BIG_EVENTS and the map's BROWSER_LIMIT lowered: 3,000 events count as big)."""
    import sys

    from geo.map import window
    from geo.story import events_store, pg

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from bench.generate import generate_story

    empty_database(postgres_url)
    folder = generate_story(tmp_path / "gen", 3000, seed=5, story_id="big-db")
    files = folder_files(folder)
    PostgresStore(postgres_url, cache=tmp_path / "other-server").save("big-db", files)
    monkeypatch.setenv("DATELINE_DATABASE_URL", postgres_url)
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    # And the map sends windows, as it does for a story that big (its events have no actors).
    monkeypatch.setattr(window, "BROWSER_LIMIT", 100)
    asked = []
    real = pg.PgEventStore.window
    monkeypatch.setattr(
        pg.PgEventStore, "window", lambda self, *a, **k: asked.append(a) or real(self, *a, **k)
    )
    counted = []
    real_counts = pg.PgEventStore.counts_per_day
    monkeypatch.setattr(
        pg.PgEventStore,
        "counts_per_day",
        lambda self, *a, **k: counted.append(k.get("narrow")) or real_counts(self, *a, **k),
    )
    at = app_run({"show_table": True}, story="big-db")
    assert at.selectbox(key="story_pick").value == "big-db"
    assert len(at.dataframe[0].value) > 0
    assert asked, "the table's rows were not asked of the database"
    assert not at.error
    # Issue 28: the Killed slider is offered (its top one max() in the database), and a
    # narrowed range reaches the table, and a text search the timeline chart's GROUP BY.
    from geo.story.load import load_story

    top = int(load_story(folder).events["killed"].max())
    assert at.slider(key="killed").value == (0, top)
    rows = len(at.dataframe[0].value)
    at.slider(key="killed").set_value((1, top)).run()
    assert not at.exception and not at.error
    assert len(at.dataframe[0].value) < rows
    # Killed alone: the chart is counted from the figures in memory; a text search is not
    # kept in memory, so the chart's counts come from the database's GROUP BY.
    assert not counted
    at.text_input(key="text_search").input("near").run()
    assert not at.exception and not at.error
    assert counted and counted[-1].killed == (1, top) and counted[-1].text == "near"
