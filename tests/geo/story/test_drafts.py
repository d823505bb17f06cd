"""Tests for geo.story.drafts: unfinished drafts survive a reload, a restart and a crash."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo import atomic
from geo.errors import DatelineError
from geo.extract import extract
from geo.extract.draft import draft_events, draft_places
from geo.geocoders.gazetteer import Gazetteer
from geo.story import drafts
from geo.story.drafts import (
    MAX_DRAFT_BYTES,
    DraftStoreError,
    list_drafts,
    load_draft,
    new_draft_id,
    prune_drafts,
    save_draft,
    sources_from_json,
    sources_to_json,
    tables_from_json,
    tables_to_json,
    valid_draft_id,
)
from tests.helpers import FIXTURES

ARTICLE = (FIXTURES / "articles" / "wire_arsal.txt").read_text()
PUBLISHED = date(2017, 7, 31)
ID = "0123456789abcdef"
DAY = 86_400


@pytest.fixture(scope="module")
def tables(gazetteer_cache):
    """The wire_arsal draft tables, with the cells an editor's work adds: an unplaced name,
    an unticked row, a date range, a blank figure and the new source columns."""
    story_places = pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)
    gazetteer = Gazetteer.load(story_places, cache_dir=gazetteer_cache)
    ex = extract(ARTICLE, PUBLISHED, gazetteer=gazetteer)
    places = draft_places(ex)
    events = draft_events(ex, places)
    unplaced = {**places.iloc[0].to_dict(), "id": "jurud", "name": "Jurud", "keep": False}
    unplaced.update(lat=None, lon=None, mentions=1)
    places = pd.concat([places, pd.DataFrame([unplaced], index=pd.Index(["Jurud"], name="_key"))])
    for col in ("source", "confidence_note"):
        if col not in events.columns:  # draft.py gains them separately
            events[col] = "article" if col == "source" else ""
    events.loc[0, "end_date"] = date(2017, 8, 2)
    events.loc[1, "keep"] = False
    events.loc[1, "confidence_note"] = 'Ünïcode ¶4 — "quoted"\nsecond line'
    return places, events


def _draft(places: pd.DataFrame, events: pd.DataFrame) -> dict:
    return {
        "article": ARTICLE,
        "published": "2017-07-31",
        "publication": "Wire",
        "sources": sources_to_json([{"id": "article", "publication": "Wire", "date": PUBLISHED}]),
        "tables": tables_to_json(places, events),
        "title": "Arsal",
    }


def test_new_ids_are_valid_and_differ():
    ids = {new_draft_id() for _ in range(50)}
    assert len(ids) == 50 and all(valid_draft_id(i) for i in ids)


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        pytest.param(ID, True, id="hex16"),
        pytest.param("", False, id="empty"),
        pytest.param("../x", False, id="parent"),
        pytest.param("../" + ID, False, id="parent-of-valid"),
        pytest.param("a" * 500, False, id="long"),
        pytest.param(ID[:-1], False, id="short"),
        pytest.param(ID + "0", False, id="one-more"),
        pytest.param(ID.upper(), False, id="upper"),
        pytest.param(ID + "\n", False, id="newline"),
        pytest.param(ID[:-1] + "/", False, id="slash"),
        pytest.param("０123456789abcdef", False, id="fullwidth-digit"),
        pytest.param(None, False, id="none"),
        pytest.param(123, False, id="int"),
        pytest.param([ID], False, id="list"),
    ],
)
def test_valid_draft_id(value, valid):
    assert valid_draft_id(value) is valid


def test_tables_round_trip_through_disk(tmp_path: Path, tables):
    places, events = tables
    save_draft(tmp_path, ID, _draft(places, events))
    loaded = load_draft(tmp_path, ID)
    assert loaded is not None and loaded["article"] == ARTICLE
    places2, events2 = tables_from_json(loaded["tables"])
    pd.testing.assert_frame_equal(places2, places, check_exact=True, check_index_type=True)
    pd.testing.assert_frame_equal(events2, events, check_exact=True, check_index_type=True)
    # What assert_frame_equal lets pass as equal: None for NaN, text for a date.
    assert all(type(d) is date for d in events2["date"])
    assert events2.loc[0, "end_date"] == date(2017, 8, 2) and events2.loc[2, "end_date"] is None
    assert pd.isna(places2.loc["Jurud", "lat"]) and places2.loc["arsal", "lat"] == 34.17944
    assert events2["keep"].tolist() == events["keep"].tolist()
    assert sources_from_json(loaded["sources"])[0]["date"] == PUBLISHED


@pytest.mark.parametrize(
    ("places", "events"),
    [
        pytest.param(
            pd.DataFrame({"id": pd.Series(dtype="str")}, index=pd.Index([], name="_key")),
            pd.DataFrame({"date": pd.Series(dtype=object), "killed": pd.Series(dtype="Int64")}),
            id="empty",
        ),
        pytest.param(
            pd.DataFrame({"lat": [None, None]}, index=pd.Index(["a", "b"], name="_key")),
            pd.DataFrame({"date": [None, date(2020, 2, 29)], "end_date": [None, None]}),
            id="all-unplaced-object-column",
        ),
        pytest.param(
            pd.DataFrame({"lat": [1.5, float("nan")]}, index=pd.Index(["a", "b"], name="_key")),
            pd.DataFrame({"keep": [False], "killed": pd.array([pd.NA], dtype="Int64")}),
            id="float-nan-and-na-figure",
        ),
        pytest.param(
            pd.DataFrame({"keep": [True]}, index=pd.Index(["x"], name="_key")),
            pd.DataFrame({"date": pd.to_datetime(["2020-01-01"]), "n": [1]}, index=[5]),
            id="timestamps-and-own-index",
        ),
    ],
)
def test_tables_round_trip_edge_cases(places, events):
    back = tables_from_json(json.loads(json.dumps(tables_to_json(places, events))))
    pd.testing.assert_frame_equal(back[0], places, check_exact=True, check_index_type=True)
    pd.testing.assert_frame_equal(back[1], events, check_exact=True, check_index_type=True)


def _tables(**change) -> dict:
    good = tables_to_json(
        pd.DataFrame({"keep": [True]}, index=pd.Index(["x"], name="_key")),
        pd.DataFrame({"date": [date(2020, 1, 1)]}),
    )
    return {**good, **change}


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(None, id="none"),
        pytest.param([], id="list"),
        pytest.param(_tables(format=2), id="other-format"),
        pytest.param(_tables(places=3), id="places-not-object"),
        pytest.param(_tables(events={"columns": []}), id="no-index"),
        pytest.param(
            _tables(events={**_tables()["events"], "columns": [{"name": "date", "values": []}]}),
            id="short-column",
        ),
        pytest.param(
            _tables(
                events={
                    **_tables()["events"],
                    "columns": [{"name": "date", "kind": "date", "values": ["2020-13-01"]}],
                }
            ),
            id="bad-date",
        ),
        pytest.param(
            _tables(
                places={
                    **_tables()["places"],
                    "columns": [{"name": "keep", "dtype": "bool", "values": [None]}],
                }
            ),
            id="blank-bool",
        ),
        pytest.param(
            _tables(
                places={
                    **_tables()["places"],
                    "columns": [{"name": "keep", "dtype": "Int64", "values": ["many"]}],
                }
            ),
            id="text-in-numbers",
        ),
        pytest.param(
            _tables(
                places={
                    **_tables()["places"],
                    "columns": [{"name": "k", "values": [[1]]}, {"name": "k", "values": [1]}],
                }
            ),
            id="list-cell",
        ),
    ],
)
def test_tables_from_json_refuses_bad_input(value):
    with pytest.raises(DraftStoreError):
        tables_from_json(value)


@pytest.mark.parametrize("draft_id", ["../x", "a" * 500, "", "../" + ID, f".{ID}.json.abc.tmp"])
def test_hostile_ids_load_nothing(tmp_path: Path, draft_id):
    root = tmp_path / "drafts"
    # A valid draft just outside the folder and under the temp name: neither may be reached.
    save_draft(tmp_path, ID, {"secret": True})
    (tmp_path / "x.json").write_text('{"secret": true}')
    root.mkdir()
    (root / f".{ID}.json.abc.tmp").write_text('{"secret": true}')
    assert load_draft(root, draft_id) is None
    assert load_draft(tmp_path, draft_id) is None


@pytest.mark.parametrize("draft_id", ["../x", "a" * 500, "", None])
def test_hostile_ids_save_nothing(tmp_path: Path, draft_id):
    with pytest.raises(DraftStoreError):
        save_draft(tmp_path / "drafts", draft_id, {})
    assert not (tmp_path / "drafts").exists() and not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b'{"title": "cut off', id="truncated"),
        pytest.param(b"[1, 2]", id="list"),
        pytest.param(b"null", id="null"),
        pytest.param(b"\xff\xfe{}", id="not-utf8"),
        pytest.param(b'{"a": NaN}', id="nan"),
        pytest.param(b'{"a": 1e400}', id="infinite"),
        pytest.param(b'{"a": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", id="deep"),
        pytest.param(b'{"tables": {"format": 1, "places": 3}}', id="bad-tables"),
        pytest.param(
            b'{"a": "' + b"x" * MAX_DRAFT_BYTES + b'"}',
            id="oversized",
        ),
    ],
)
def test_bad_files_are_no_draft(tmp_path: Path, content):
    (tmp_path / f"{ID}.json").write_bytes(content)
    assert load_draft(tmp_path, ID) is None


def test_missing_draft_and_folder(tmp_path: Path):
    assert load_draft(tmp_path, ID) is None
    assert load_draft(tmp_path / "none", ID) is None
    assert list_drafts(tmp_path / "none") == []


def test_a_folder_named_like_a_draft_is_no_draft(tmp_path: Path):
    (tmp_path / f"{ID}.json").mkdir()
    assert load_draft(tmp_path, ID) is None


@pytest.mark.parametrize(
    "draft",
    [
        pytest.param({"article": "x" * MAX_DRAFT_BYTES}, id="oversized"),
        pytest.param({"day": date(2020, 1, 1)}, id="date-object"),
        pytest.param({"n": float("nan")}, id="nan"),
        pytest.param({"s": {1, 2}}, id="set"),
        pytest.param(["not", "a", "dict"], id="list"),
        pytest.param({"a": [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}, id="too-deep"),
    ],
)
def test_unsavable_drafts_are_refused_and_the_old_one_stays(tmp_path: Path, draft):
    save_draft(tmp_path, ID, {"title": "before"})
    with pytest.raises(DraftStoreError) as err:
        save_draft(tmp_path, ID, draft)
    assert isinstance(err.value, DatelineError)
    assert load_draft(tmp_path, ID) == {"title": "before"}


def test_a_disk_fault_is_a_draft_error(tmp_path: Path):
    (tmp_path / "file").write_text("")
    with pytest.raises(DraftStoreError):
        save_draft(tmp_path / "file", ID, {"title": "x"})


def test_a_crash_before_the_rename_keeps_the_previous_version(tmp_path: Path, monkeypatch):
    save_draft(tmp_path, ID, {"title": "before"})

    def crash(src, dst):
        # What a killed server leaves: the new bytes in the temporary file, never renamed.
        raise SystemExit("killed")

    monkeypatch.setattr(atomic.os, "replace", crash)
    with pytest.raises(SystemExit):
        save_draft(tmp_path, ID, {"title": "after"})
    monkeypatch.undo()
    # A hard kill skips atomic's clean-up, so a half-written temporary file may remain.
    (tmp_path / f".{ID}.json.k1ll3d_x.tmp").write_text('{"title": "aft')
    assert load_draft(tmp_path, ID) == {"title": "before"}
    assert list_drafts(tmp_path) == [ID]
    save_draft(tmp_path, ID, {"title": "after"})
    assert load_draft(tmp_path, ID) == {"title": "after"}


def test_list_drafts_newest_first(tmp_path: Path):
    older, newer = "a" * 16, "b" * 16
    for i, draft_id in enumerate((newer, older)):
        save_draft(tmp_path, draft_id, {})
        os.utime(tmp_path / f"{draft_id}.json", (1_000_000 - i * DAY, 1_000_000 - i * DAY))
    (tmp_path / "notes.json").write_text("{}")
    (tmp_path / f".{older}.json.x.tmp").write_text("{}")
    assert list_drafts(tmp_path) == [newer, older]


@pytest.mark.parametrize(
    ("name", "age_seconds", "removed"),
    [
        pytest.param(f"{ID}.json", 31 * DAY, True, id="old-draft"),
        pytest.param(f"{ID}.json", 29 * DAY, False, id="recent-draft"),
        pytest.param(f".{ID}.json.x1y2z3.tmp", 2 * 3600, True, id="stale-temp"),
        pytest.param(f".{ID}.json.x1y2z3.tmp", 600, False, id="temp-being-written"),
        pytest.param("notes.txt", 400 * DAY, False, id="not-ours"),
        pytest.param("ABCDEF0123456789.json", 400 * DAY, False, id="not-an-id"),
        pytest.param(f"{ID}.json.bak", 400 * DAY, False, id="other-suffix"),
    ],
)
def test_prune_drafts(tmp_path: Path, name, age_seconds, removed):
    now = 2_000_000_000
    path = tmp_path / name
    path.write_text("{}")
    os.utime(path, (now - age_seconds, now - age_seconds))
    assert prune_drafts(tmp_path, keep_days=30, now=now) == int(removed)
    assert path.exists() is not removed


def test_prune_a_missing_folder(tmp_path: Path):
    assert prune_drafts(tmp_path / "none") == 0


def test_sources_round_trip():
    sources = [
        {"id": "article", "publication": "Wire", "date": date(2017, 7, 31), "url": ""},
        {"id": "b", "publication": "B", "date": None, "url": "https://example.org/b"},
    ]
    assert sources_from_json(json.loads(json.dumps(sources_to_json(sources)))) == sources
    assert sources_from_json([{"id": "x", "date": "not a date"}, 3, {"date": "2020-01-01"}]) == []


def test_the_size_bound_is_read_when_loading(tmp_path: Path, monkeypatch):
    save_draft(tmp_path, ID, {"title": "x" * 100})
    monkeypatch.setattr(drafts, "MAX_DRAFT_BYTES", 50)
    assert load_draft(tmp_path, ID) is None
