"""Tests for geo.story.library: finding story folders, bundled and the user's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from geo.story.library import BUNDLED, DEFAULT_STORY, StoryEntry, find_stories, user_stories_dir
from geo.story.load import load_story
from tests.helpers import MINI


def make_story(folder: Path, name: str, title: str | None = None) -> Path:
    """A copy of the mini story at ``folder/name``, titled ``title`` when given."""
    dest = folder / name
    shutil.copytree(MINI, dest)
    if title is not None:
        toml = dest / "story.toml"
        text = toml.read_text(encoding="utf-8")
        assert 'title = "Mini story for tests"' in text, "fixture changed"
        toml.write_text(text.replace("Mini story for tests", title, 1), encoding="utf-8")
    return dest


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """A 'bundled' and a 'user' folder: both hold 'mini'; each holds one story of its own."""
    bundled, user = tmp_path / "bundled", tmp_path / "user"
    make_story(bundled, "mini", "Bundled mini")
    make_story(bundled, "alpha", "Alpha")
    make_story(user, "mini", "User's mini")
    make_story(user, "zeta", "Zeta")
    (user / "notes").mkdir()  # no story.toml
    (user / "notes" / "events.csv").write_text("id\n", encoding="utf-8")
    (user / "story.toml").write_text('title = "stray file"\n', encoding="utf-8")
    (user / "loose.txt").write_text("not a story", encoding="utf-8")
    return bundled, user


def test_finds_folders_with_story_toml(folders: tuple[Path, Path]):
    found = find_stories(*folders)
    assert list(found) == ["alpha", "mini", "zeta"]


def test_bundled_id_wins_over_a_users_copy(folders: tuple[Path, Path]):
    bundled, _user = folders
    entry = find_stories(*folders)["mini"]
    assert entry == StoryEntry("mini", "Bundled mini", bundled / "mini", bundled=True)


@pytest.mark.parametrize(
    ("story", "title", "bundled"),
    [
        pytest.param("alpha", "Alpha", True, id="bundled-only"),
        pytest.param("zeta", "Zeta", False, id="user-only"),
    ],
)
def test_entries(folders: tuple[Path, Path], story: str, title: str, bundled: bool):
    entry = find_stories(*folders)[story]
    assert (entry.id, entry.title, entry.bundled) == (story, title, bundled)
    assert entry.path == folders[0 if bundled else 1] / story


def test_a_missing_folder_is_skipped(tmp_path: Path):
    bundled = tmp_path / "bundled"
    make_story(bundled, "mini")
    found = find_stories(bundled, tmp_path / "does-not-exist")
    assert list(found) == ["mini"]
    assert found["mini"].title == "Mini story for tests"


def test_no_folders_with_stories(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    assert find_stories(tmp_path / "empty", tmp_path / "missing") == {}


@pytest.mark.parametrize(
    "toml",
    [
        pytest.param("title = ", id="broken-toml"),
        pytest.param('id = "x"\n', id="no-title"),
        pytest.param(b"title = '\xff'\n", id="not-utf8"),
    ],
)
def test_unreadable_title_falls_back_to_the_folder_name(tmp_path: Path, toml: str | bytes):
    story = tmp_path / "user" / "broken-one"
    story.mkdir(parents=True)
    data = toml if isinstance(toml, bytes) else toml.encode("utf-8")
    (story / "story.toml").write_bytes(data)
    found = find_stories(tmp_path / "nothing", tmp_path / "user")
    assert found["broken-one"].title == "broken-one"
    assert found["broken-one"].bundled is False


def test_user_stories_dir_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(tmp_path / "mine"))
    assert user_stories_dir() == tmp_path / "mine"


def test_user_stories_dir_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DATELINE_STORIES_DIR", "~/my-stories")
    assert user_stories_dir() == tmp_path / "my-stories"


@pytest.mark.parametrize("dateline", [None, ""], ids=["unset", "empty"])
def test_user_stories_dir_uses_xdg_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dateline: str | None
):
    if dateline is None:
        monkeypatch.delenv("DATELINE_STORIES_DIR", raising=False)
    else:
        monkeypatch.setenv("DATELINE_STORIES_DIR", dateline)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert user_stories_dir() == tmp_path / "xdg" / "dateline" / "stories"


def test_user_stories_dir_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("DATELINE_STORIES_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_stories_dir() == tmp_path / ".local" / "share" / "dateline" / "stories"


def test_default_folders_are_bundled_then_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    user = tmp_path / "user"
    make_story(user, "zz-user-story", "Mine")
    make_story(user, DEFAULT_STORY, "A user's copy of the bundled story")
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(user))
    found = find_stories()
    assert found[DEFAULT_STORY].bundled is True
    assert found[DEFAULT_STORY].path == BUNDLED / DEFAULT_STORY
    assert found["zz-user-story"] == StoryEntry(
        "zz-user-story", "Mine", user / "zz-user-story", bundled=False
    )


def test_bundled_story_loads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    # Smoke check only: the bundled story's content may be edited.
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(tmp_path))
    entry = find_stories()[DEFAULT_STORY]
    story = load_story(entry.path)
    assert story.id == DEFAULT_STORY == entry.id
    assert "Baalbek" in set(story.places["name"])
    assert len(story.events) > 0
