"""Tests for geo.extract.draft: extraction to editable tables, and tables back to a valid story."""

from __future__ import annotations

import errno
import os
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.errors import DatelineError
from geo.extract import draft, extract
from geo.extract.draft import (
    PLACE_TABLE,
    DraftMeta,
    add_found,
    draft_events,
    draft_places,
    place_candidates,
    preview,
    story_from_draft,
    unrewritten,
)
from geo.geocoders.gazetteer import Gazetteer
from geo.names import slugify
from geo.story.load import StoryError
from geo.story.storage import DiskError
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
    # Ticked: every placed name; unticked with no point: the names left for the editor to pin.
    placed = places["lat"].notna()
    assert (places["keep"] == placed).all() and placed.any()
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
    name = places.loc[places["id"] == dropped, "name"].iloc[0]
    noun = "event" if n == 1 else "events"
    assert notes == [f"{n} {noun} left out until {name} is pinned or ticked."]
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


@pytest.mark.parametrize(
    ("step", "code", "reason"),
    [
        ("mkdtemp", errno.ENOSPC, "the disk is full"),
        ("write", errno.EFBIG, "a file is larger than this system allows"),
        ("load", errno.EACCES, "there is no permission to write there"),
    ],
)
def test_a_file_system_fault_in_preview_is_a_disk_error(ex, monkeypatch, step, code, reason):
    # The page shows a DatelineError as a message; a bare OSError would be a traceback.
    places = draft_places(ex)
    _, files, _ = story_from_draft(
        DraftMeta("T", "", PUBLISHED, ""), places, draft_events(ex, places)
    )
    made: list[Path] = []
    mkdtemp = draft.tempfile.mkdtemp

    def fail(*_a, **_k):
        raise OSError(code, os.strerror(code))

    def record(*a, **k):
        made.append(Path(mkdtemp(*a, **k)))
        return str(made[-1])

    monkeypatch.setattr(draft.tempfile, "mkdtemp", fail if step == "mkdtemp" else record)
    if step == "write":
        monkeypatch.setattr(Path, "write_bytes", fail)
    if step == "load":
        monkeypatch.setattr(draft, "load_story", fail)
    with pytest.raises(DiskError) as info:
        preview(files)
    assert isinstance(info.value, DatelineError)
    assert str(info.value) == f"The draft cannot be checked: {reason}. Nothing was saved."
    assert isinstance(info.value.__cause__, OSError)
    assert len(made) == (step != "mkdtemp") and not any(p.exists() for p in made)


def test_add_found_appends_a_row_once():
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
    found = {"id": "gn:163808", "name": "Palmyra", "kind": "city", "country": "SY",
             "radius_m": 10000, "lat": 34.5624, "lon": 38.28402}  # fmt: skip
    more = add_found(places, found)
    assert list(more["id"]) == ["arsal", "palmyra"]
    assert more.loc["gn:163808", "radius_m"] == 10000
    assert add_found(more, found).equals(more)


@pytest.mark.parametrize(
    ("text", "name", "source", "via", "expected"),
    [
        ("Raqqa", "Ar Raqqah", "geonames", "name", ("Raqqa", "Ar Raqqah")),
        ("al-Hol", "Al Ḩawl", "geonames", "name", ("al-Hol", "Al Ḩawl")),
        ("PARIS", "Paris", "geonames", "dateline", ("Paris", "")),
        ("Beirut", "Beirut", "geonames", "name", ("Beirut", "")),
        ("BAGHDAD", "Baghdad", "geonames", "name", ("Baghdad", "")),
        ("Ersal", "Arsal", "story", "name", ("Arsal", "")),
        ("eastern Syria", "eastern Syria", "derived", "qualifier", ("eastern Syria", "")),
    ],
)
def test_article_spelling_is_the_name(text, name, source, via, expected) -> None:
    from types import SimpleNamespace

    from geo.extract.draft import article_name

    mention = SimpleNamespace(text=text, name=name, source=source, via=via)
    assert article_name(mention) == expected


@pytest.mark.parametrize(
    ("name", "lat", "lon", "error"),
    [
        ("", 34.0, 40.9, "needs a name"),
        ("   ", 34.0, 40.9, "needs a name"),
        ("Baghuz", 95.0, 40.9, "not a point"),
        ("Baghuz", 34.0, 181.0, "not a point"),
    ],
)
def test_new_place_rejects(name, lat, lon, error) -> None:
    from geo.extract.draft import new_place

    empty = pd.DataFrame(columns=list(PLACE_TABLE), index=pd.Index([], name="_key"))
    with pytest.raises(ValueError, match=error):
        new_place(empty, name, lat, lon)


def test_new_place_adds_a_row_with_a_radius() -> None:
    from geo.extract.draft import new_place

    empty = pd.DataFrame(columns=list(PLACE_TABLE), index=pd.Index([], name="_key"))
    one = new_place(empty, " Baghuz  Fawqani ", 34.4512345, 40.9387654, radius_m=3000)
    (row,) = one.to_dict("records")
    assert (row["id"], row["name"], row["lat"], row["lon"], row["radius_m"], row["kind"]) == (
        "baghuz-fawqani", "Baghuz Fawqani", 34.45123, 40.93877, 3000, "village",
    )  # fmt: skip
    twice = new_place(one, "Baghuz Fawqani", 34.4512345, 40.9387654)
    assert len(twice) == 1  # the same click twice adds nothing
    other = new_place(one, "Baghuz Fawqani", 34.46, 40.94)
    assert list(other["id"]) == ["baghuz-fawqani", "baghuz-fawqani-2"]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("city", "city"), ("region", "region"), ("river", "area"), ("sea", "area"),
     ("mountains", "area"), ("something", "town")],
)  # fmt: skip
def test_gazetteer_kinds_in_story_words(kind: str, expected: str) -> None:
    from geo.extract.draft import _kind

    assert _kind(kind) == expected


def test_a_draft_with_no_events_is_a_story_file_set_not_a_crash(ex):
    places = draft_places(ex)
    # What the editor hands back for an article without events: no rows, object columns.
    events = draft_events(ex, places).iloc[0:0].astype(object)
    meta = DraftMeta("No events", "Our summary.", PUBLISHED, "Test wire")
    story_id, files, _ = story_from_draft(meta, places, events)
    assert story_id == "no-events" and "events.csv" in files
    assert unrewritten(events) == 0
