"""Tests for geo.extract.draft: extraction to editable tables, and tables back to a valid story."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest
from geopy.location import Location

from geo.extract import extract
from geo.extract.draft import (
    DraftMeta,
    add_place,
    draft_events,
    draft_places,
    place_candidates,
    preview,
    story_from_draft,
    unrewritten,
    use_candidate,
)
from geo.geocoders.gazetteer import Gazetteer, GazetteerPlace
from geo.names import slugify
from geo.story.load import StoryError
from tests.helpers import FIXTURES

ARTICLE = (FIXTURES / "articles" / "wire_arsal.txt").read_text()
PUBLISHED = date(2017, 7, 31)


@pytest.fixture(scope="module")
def ex(gazetteer_cache):
    places = pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)
    gazetteer = Gazetteer.load(places, cache_dir=gazetteer_cache)
    return extract(ARTICLE, PUBLISHED, gazetteer=gazetteer)


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Lebanon–Syria border region", "lebanon-syria-border-region"),
        ("Deir ez-Zor", "deir-ez-zor"),
        ("Ḥimṣ", "hims"),
        ("***", "item"),
        ("", "item"),
    ],
)
def test_slugify(text, slug):
    assert slugify(text) == slug


def test_places_table_has_one_row_per_place(ex):
    places = draft_places(ex)
    assert places["id"].is_unique
    assert places["keep"].all()
    assert "Arsal" in set(places["name"])
    assert places["mentions"].sum() == len(ex.places)
    assert set(place_candidates(ex)) == set(places.index)


def test_events_point_at_place_ids_and_keep_the_sentence(ex):
    places = draft_places(ex)
    events = draft_events(ex, places)
    assert len(events) == len(ex.events) > 0
    assert set(events["place"]) <= set(places["id"])
    assert (events["summary"] == events["sentence"]).all()
    assert unrewritten(events) == len(events)


def test_draft_becomes_a_valid_story(ex):
    places = draft_places(ex)
    events = draft_events(ex, places)
    meta = DraftMeta("Arsal, July 2017", "Our summary.", PUBLISHED, "Test wire")
    story_id, files, notes = story_from_draft(meta, places, events)
    assert story_id == "arsal-july-2017" and notes == []
    story = preview(files)
    assert len(story.events) == len(events)
    assert story.meta["draft"] is True  # summaries are still the article's sentences
    assert story.start <= PUBLISHED <= story.end


def test_rewritten_summaries_clear_the_draft_flag(ex):
    places = draft_places(ex)
    events = draft_events(ex, places)
    events["summary"] = [f"Our own words {n}." for n in range(len(events))]
    assert unrewritten(events) == 0
    _, files, _ = story_from_draft(DraftMeta("T", "", PUBLISHED, ""), places, events)
    assert "draft" not in preview(files).meta


def test_events_of_dropped_places_are_left_out_with_a_note(ex):
    places = draft_places(ex)
    events = draft_events(ex, places)
    dropped = events["place"].iloc[0]
    places.loc[places["id"] == dropped, "keep"] = False
    _, files, notes = story_from_draft(DraftMeta("T", "", PUBLISHED, ""), places, events)
    n = int((events["place"] == dropped).sum())
    assert notes == [f"{n} event(s) left out: their place is not kept."]
    assert len(preview(files).events) == len(events) - n


def test_bad_coordinates_fail_validation_with_the_line(ex):
    places = draft_places(ex)
    places.iloc[0, places.columns.get_loc("lat")] = 123.0
    _, files, _ = story_from_draft(
        DraftMeta("T", "", PUBLISHED, ""), places, draft_events(ex, places)
    )
    with pytest.raises(StoryError) as info:
        preview(files)
    assert any("places.csv:line 2: lat 123" in str(p) for p in info.value.problems)


def test_use_candidate_moves_the_row(ex):
    places = draft_places(ex)
    key = places.index[0]
    other = GazetteerPlace("gn:1", "Elsewhere", 35.123456, 37.654321, "village", "SY", 2000,
                           800, 1, "geonames")  # fmt: skip
    moved = use_candidate(places, key, other)
    row = moved.loc[key]
    assert (row["lat"], row["lon"], row["radius_m"]) == (35.12346, 37.65432, 2000)
    assert (row["country"], row["kind"]) == ("SY", "village")
    assert moved.drop(key).equals(places.drop(key))


def test_add_place_appends_a_row_once():
    places = pd.DataFrame(
        [
            {
                "keep": True,
                "id": "arsal",
                "name": "Arsal",
                "kind": "town",
                "country": "LB",
                "lat": 34.18,
                "lon": 36.42,
                "radius_m": 2000,
                "mentions": 1,
            }
        ],
        index=pd.Index(["arsal"], name="_key"),
    )
    loc = Location(
        "Palmyra, SY",
        (34.5624, 38.28402),
        {"id": "gn:163808", "name": "Palmyra", "kind": "city", "country": "SY", "radius_m": 10000},
    )
    more = add_place(places, loc)
    assert list(more["id"]) == ["arsal", "palmyra"]
    assert more.loc["gn:163808", "radius_m"] == 10000
    assert add_place(more, loc).equals(more)


def test_a_draft_with_no_events_is_a_story_file_set_not_a_crash(ex):
    places = draft_places(ex)
    # What the editor hands back for an article without events: no rows, object columns.
    events = draft_events(ex, places).iloc[0:0].astype(object)
    meta = DraftMeta("No events", "Our summary.", PUBLISHED, "Test wire")
    story_id, files, _ = story_from_draft(meta, places, events)
    assert story_id == "no-events" and "events.csv" in files
    assert unrewritten(events) == 0
