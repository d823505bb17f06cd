"""AppTest of *Import a dataset export* on the New story page: an ACLED export becomes a story,
a malformed one is refused with its lines as text and nothing is saved.

AppTest cannot upload a file, so ``st.file_uploader`` answers the import's uploader with the
fixture's bytes; everything after it (the dataset choice, the button, the import, the messages)
runs as on the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "pages" / "1_New_story_from_an_article.py"
DATASETS = ROOT / "tests" / "fixtures" / "datasets"


class Upload:
    """What st.file_uploader returns: a name and the bytes."""

    def __init__(self, path: Path):
        self.name = path.name
        self._data = path.read_bytes()

    def getvalue(self) -> bytes:
        return self._data


@pytest.fixture
def stories(monkeypatch, tmp_path, gazetteer_cache) -> Path:
    folder = tmp_path / "stories"
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(gazetteer_cache))
    return folder


def page_with_upload(monkeypatch, fixture: str) -> AppTest:
    real = st.file_uploader

    def uploader(label, *args, key=None, **kwargs):
        if key == "import_up":
            return Upload(DATASETS / fixture)
        return real(label, *args, key=key, **kwargs)

    monkeypatch.setattr(st, "file_uploader", uploader)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(str(PAGE.relative_to(ROOT)))
    at.run()
    assert not at.exception, at.exception
    return at


def import_button(at: AppTest):
    return next(b for b in at.button if b.label == "Import as a new story")


def test_an_acled_export_becomes_a_story(stories, monkeypatch):
    at = page_with_upload(monkeypatch, "acled.csv")
    assert any("Up to 20 MB and 100,000 rows" in c.value for c in at.caption)
    at.text_input(key="import_title").set_value("Invented March 2023")
    import_button(at).click().run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == [
        "Imported `acled-acled`: 12 events at 10 places. Open it from the story picker."
    ]
    assert (stories / "acled-acled" / "events.csv").exists()
    assert 'title = "Invented March 2023"' in (stories / "acled-acled" / "story.toml").read_text()


def test_a_malformed_export_is_refused_with_its_lines(stories, monkeypatch):
    at = page_with_upload(monkeypatch, "ucdp_bad_rows.csv")
    at.radio(key="import_dataset").set_value("ucdp").run()
    import_button(at).click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        "Not imported: the export has problems. Nothing was saved."
    ]
    listed = at.code[-1].value
    assert "ucdp_bad_rows.csv:line 3: date_end 2017-08-01 is before date_start" in listed
    assert "ucdp_bad_rows.csv:line 5: where_prec 9 is not between 1 and 7" in listed
    assert not stories.exists() or not any(stories.iterdir())


def test_the_wrong_dataset_is_refused_at_line_1(stories, monkeypatch):
    at = page_with_upload(monkeypatch, "acled.csv")
    at.radio(key="import_dataset").set_value("gdelt").run()
    import_button(at).click().run()
    assert not at.exception, at.exception
    assert "acled.csv:line 1: has 1 field; expected 61" in at.code[-1].value
