"""The New story page's own draft never blocks Save: every fixture article drafts to a story
the validator accepts and the store saves, and the editor's own mistakes name their row."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.extract import extract
from geo.extract.draft import (
    DraftError,
    DraftMeta,
    draft_events,
    draft_from_story,
    draft_places,
    locate_problems,
    preview,
    set_point,
    story_from_draft,
)
from geo.geocoders.gazetteer import Gazetteer
from geo.story.load import StoryError
from geo.story.storage import save_story
from tests.helpers import FIXTURES

ROOT = Path(__file__).resolve().parents[3]
FORMATS = {".html": "html", ".md": "markdown", ".txt": "text"}
# Every article the project holds: the test fixtures and the bench's reports of every kind.
ARTICLES = sorted(
    p
    for folder in (FIXTURES / "articles", ROOT / "bench" / "articles")
    for p in folder.iterdir()
    if p.suffix in FORMATS and p.name != "README.md"
)
META = DraftMeta("Draft check", "", date(2020, 1, 1), "Wire")


@pytest.fixture(scope="module")
def gazetteer(gazetteer_cache):
    return Gazetteer.load(cache_dir=gazetteer_cache)


def _draft(path: Path, gazetteer):
    ex = extract(path.read_text(), date(2020, 1, 1), gazetteer=gazetteer, fmt=FORMATS[path.suffix])
    places = draft_places(ex, gazetteer)
    return places, draft_events(ex, places)


def test_there_are_articles_to_check():
    assert len(ARTICLES) >= 40


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.name)
def test_every_draft_validates_and_saves(path, gazetteer, tmp_path):
    places, events = _draft(path, gazetteer)
    story_id, files, _ = story_from_draft(META, places, events)
    story = preview(files)  # raises StoryError on any problem
    assert len(story.places) == int(places["keep"].sum())
    saved = save_story(tmp_path, story_id, files)
    assert (saved.path / "events.csv").exists()


@pytest.mark.parametrize(
    ("name", "lat", "lon", "country"),
    [
        # A river and a sea come with no country from the gazetteer: they take the land's.
        ("Tigris river", 36.33, 43.15, "IQ"),
        ("Mediterranean", 32.85, 22.6, "LY"),
    ],
)
def test_a_point_takes_the_country_it_lies_in(name, lat, lon, country, gazetteer):
    places = pd.DataFrame(
        [{"keep": False, "id": "x", "name": name, "aliases": "", "kind": "area",
          "country": "", "lat": None, "lon": None, "radius_m": 5000, "mentions": 1}],
        index=pd.Index(["x"], name="_key"),
    )  # fmt: skip
    moved = set_point(places, "x", lat, lon, gazetteer)
    assert moved.at["x", "country"] == country
    assert bool(moved.at["x", "keep"])  # a pinned place is kept


def test_open_sea_stays_unkept(gazetteer):
    places = pd.DataFrame(
        [{"keep": False, "id": "x", "name": "Mid-ocean", "aliases": "", "kind": "area",
          "country": "", "lat": None, "lon": None, "radius_m": 5000, "mentions": 1}],
        index=pd.Index(["x"], name="_key"),
    )  # fmt: skip
    moved = set_point(places, "x", 0.0, -30.0, gazetteer)
    assert moved.at["x", "country"] == ""
    assert not bool(moved.at["x", "keep"])


@pytest.mark.parametrize(("lat", "lon"), [(91, 0), (0, 181), (-90.5, 10)])
def test_a_point_off_the_globe_is_refused(lat, lon, gazetteer):
    places, _ = _draft(FIXTURES / "articles" / "wire_arsal.txt", gazetteer)
    with pytest.raises(DraftError):
        set_point(places, places.index[0], lat, lon, gazetteer)


def test_an_editors_mistake_names_its_row(gazetteer):
    places, events = _draft(FIXTURES / "articles" / "wire_arsal.txt", gazetteer)
    kept = places.index[places["keep"].astype(bool)]
    wrong = kept[1]
    places.loc[wrong, "country"] = "lebanon"  # not ISO alpha-2
    first_event = events.index[0]
    events.loc[first_event, "summary"] = ""  # a required cell
    _, files, _ = story_from_draft(META, places, events)
    with pytest.raises(StoryError) as caught:
        preview(files)
    located = locate_problems(caught.value.problems, places, events)
    by_table = {(p.table, p.row): p for p in located}
    assert ("places", wrong) in by_table
    assert by_table[("places", wrong)].label == places.at[wrong, "name"]
    assert "country" in by_table[("places", wrong)].message
    assert ("events", first_event) in by_table
    assert "summary" in by_table[("events", first_event)].message


@pytest.mark.parametrize("name", ["wire_arsal.txt", "combine_shelling_first.txt"])
def test_a_saved_story_comes_back_as_the_same_tables(name, gazetteer, tmp_path):
    places, events = _draft(FIXTURES / "articles" / name, gazetteer)
    events["summary"] = "In our own words."  # a finished story
    story_id, files, _ = story_from_draft(META, places, events)
    saved = save_story(tmp_path, story_id, files)
    again_places, again_events, sources = draft_from_story(saved)
    assert [s["id"] for s in sources] == list(saved.sources["id"])
    meta = DraftMeta(saved.title, saved.meta["summary"], date(2020, 1, 1), "Wire")
    _, again, _ = story_from_draft(meta, again_places, again_events, sources)
    for part in ("places.csv", "events.csv"):  # the same rows (a saved story is date-sorted)
        assert sorted(again[part].splitlines()) == sorted(files[part].splitlines()), part
