"""Tests for geo.story.storage: atomic saves, no overwrite, invalid stories never saved, zips."""

from __future__ import annotations

import zipfile

import pytest

from geo.story.load import load_story
from geo.story.storage import (
    StoryError,
    StoryExistsError,
    ZipError,
    files_from_zip,
    save_story,
    story_files,
    story_zip,
)
from tests.helpers import MINI


def mini_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in MINI.iterdir()}


def test_save_then_load(tmp_path):
    story = save_story(tmp_path, "copy", mini_files())
    assert story.path == tmp_path / "copy"
    assert len(story.events) == 6
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]  # no temporary folder left


def test_never_overwrites(tmp_path):
    save_story(tmp_path, "copy", mini_files())
    before = (tmp_path / "copy" / "events.csv").read_bytes()
    with pytest.raises(StoryExistsError):
        save_story(tmp_path, "copy", mini_files())
    assert (tmp_path / "copy" / "events.csv").read_bytes() == before


def test_replace_swaps_in_the_new_version(tmp_path):
    save_story(tmp_path, "copy", mini_files())
    files = mini_files()
    files["story.toml"] = files["story.toml"].replace(b'title = "', b'title = "Again: ', 1)
    story = save_story(tmp_path, "copy", files, replace=True)
    assert story.title.startswith("Again: ")
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]  # the old one is gone


def test_replace_keeps_the_old_version_when_the_new_one_is_bad(tmp_path):
    save_story(tmp_path, "copy", mini_files())
    before = (tmp_path / "copy" / "events.csv").read_bytes()
    files = mini_files()
    files["events.csv"] = files["events.csv"].replace(b"e1,2017-08-02", b"e1,2017-13-02")
    with pytest.raises(StoryError):
        save_story(tmp_path, "copy", files, replace=True)
    assert (tmp_path / "copy" / "events.csv").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]


def test_invalid_story_is_not_saved(tmp_path):
    files = mini_files()
    files["events.csv"] = files["events.csv"].replace(b"e1,2017-08-02", b"e1,2017-13-02")
    with pytest.raises(StoryError) as info:
        save_story(tmp_path, "broken", files)
    assert any("events.csv:line 2" in str(p) for p in info.value.problems)
    assert list(tmp_path.iterdir()) == []


def test_round_trip_through_the_writers(tmp_path):
    story = load_story(MINI)
    files = story_files(
        dict(story.meta),
        story.places,
        story.events,
        story.convoy,
        (MINI / "fronts.geojson").read_text(),
    )
    again = save_story(tmp_path, "again", files)
    assert list(again.events["id"]) == list(story.events["id"])
    assert again.events["militants"].sum() == story.events["militants"].sum()
    assert list(again.places["aliases"]) == list(story.places["aliases"])
    assert list(again.convoy["lat"]) == list(story.convoy["lat"])


def test_zip_round_trip(tmp_path):
    data = story_zip(MINI)
    files = files_from_zip(data)
    assert set(files) == {"story.toml", "places.csv", "events.csv", "convoy.csv", "fronts.geojson"}
    assert len(save_story(tmp_path, "zipped", files).events) == 6


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"not a zip", "not a zip file"), (b"PK\x05\x06" + b"\0" * 18, "no story.toml")],
)
def test_bad_zips(data, message):
    with pytest.raises(ZipError, match=message):
        files_from_zip(data)


def test_zip_with_a_folder_inside(tmp_path):
    path = tmp_path / "s.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for p in MINI.iterdir():
            zf.write(p, f"mini/{p.name}")
        zf.writestr("../evil.txt", "ignored")
    files = files_from_zip(path.read_bytes())
    assert "story.toml" in files and "evil.txt" not in files
