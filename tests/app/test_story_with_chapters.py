"""AppTest: a story with [[chapters]] opens on the page as a story without them does."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stories"


@pytest.fixture(autouse=True)
def _user_stories(monkeypatch, tmp_path):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(FIXTURES))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def test_story_with_chapters_opens_like_its_chapterless_twin():
    pages = {}
    for story in ("mini", "mini-chapters"):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.query_params["story"] = story
        at.session_state["show_table"] = True
        at.run()
        assert not at.exception, at.exception
        assert not at.error
        assert at.selectbox(key="story_pick").value == story
        pages[story] = len(at.dataframe[0].value)
    # The same files apart from story.toml: the same events in the table.
    assert pages["mini"] == pages["mini-chapters"] == 6
