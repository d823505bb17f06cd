"""Fuzz: story folders and zips built from almost-right files end in a located refusal or a story
that draws, within a time and memory bound, and never raise anything else."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geo.map.payload import payload_json
from geo.story.library import find_stories
from geo.story.load import UPLOAD_LIMITS, StoryError, load_story
from geo.story.storage import (
    STORY_FILES,
    StorageError,
    files_from_zip,
    save_story,
    story_zip,
    zip_story_id,
)
from geo.story.timeline import chart_period, events_per_period, held_area_long
from tests.fuzz import bounded, scaled, story_files, write_story
from tests.helpers import copy_mini

# numpy's "invalid value encountered in cast" meant a number too big for its column slipped by.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def check_folder(path: Path) -> str:
    """Load a folder as the page does: a StoryError whose problems name a story file, or a story
    whose map payload and chart tables can be made."""
    try:
        story = load_story(path)
    except StoryError as exc:
        assert exc.problems
        for p in exc.problems:
            assert p.file in (*STORY_FILES, "events", path.name), p
            assert len(str(p)) < 1_000
        return "refused"
    payload_json(story)
    period = chart_period(story.start, story.end)
    assert len(events_per_period(story.events, story.start, story.end, period)) <= 400
    held_area_long(story.fronts, story.start, story.end)
    return "loaded"


@pytest.mark.slow
@settings(max_examples=scaled(60))
@given(story_files())
def test_any_story_folder_is_a_located_refusal_or_a_story(files):
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_story(Path(tmp) / "fuzzed", files)
        with bounded():
            check_folder(folder)
            # The picker lists it, with or without a reason, next to a good story.
            copy_mini(Path(tmp))
            found = find_stories(Path(tmp))
        # A folder without a story.toml is no story.
        assert set(found) == {"mini"} | ({"fuzzed"} if files["story.toml"] is not None else set())
        assert found["mini"].problem is None


@pytest.mark.slow
@settings(max_examples=scaled(30))
@given(story_files(), st.sampled_from(["x.zip", "../../evil.zip", "Ünïcode story.zip"]))
def test_any_story_zip_is_refused_with_a_message_or_saved(files, name):
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_story(Path(tmp) / "fuzzed", files)
        data = story_zip(folder)
        root = Path(tmp) / "stories"
        with bounded():
            try:
                zfiles = files_from_zip(data)
                sid = zip_story_id(zfiles, name)
                saved = save_story(root, sid, zfiles, limits=UPLOAD_LIMITS)
            except (StoryError, StorageError):
                outcome = "refused"
            else:
                outcome = "saved"
        listed = sorted(p.name for p in root.iterdir()) if root.exists() else []
        if outcome == "saved":
            assert listed == [saved.id]
        else:
            # Nothing half-written is left where the picker looks.
            assert not [n for n in listed if not n.startswith(".")]
