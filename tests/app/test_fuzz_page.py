"""Fuzz, AppTest: a broken story in the stories folder and any link draw a page or a message,
never an exception escaping to Streamlit, within a time bound."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.fuzz import SECONDS, query_strings, scaled, story_files, write_story
from tests.helpers import app_run


@pytest.fixture
def cache(tmp_path_factory, monkeypatch) -> None:
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


@pytest.mark.slow
@settings(max_examples=scaled(8))
@given(files=story_files(), params=query_strings)
def test_any_story_folder_and_link_draw_a_page(cache, files, params):
    with tempfile.TemporaryDirectory() as tmp:
        write_story(Path(tmp) / "fuzzed", files)
        os.environ["DATELINE_STORIES_DIR"] = tmp
        try:
            started = time.perf_counter()
            at = app_run(**{"story": "fuzzed", **params})  # asserts no exception
            elapsed = time.perf_counter() - started
        finally:
            del os.environ["DATELINE_STORIES_DIR"]
    assert at.subheader or at.error, "a heading, or a message saying why there is none"
    # A page run is bounded like a story (a first AppTest run also imports the app's modules).
    assert elapsed < 3 * SECONDS, f"took {elapsed:.1f} s"
