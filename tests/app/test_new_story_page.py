"""AppTest of the New story page: paste an article, see places, save, reject bad input."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "pages" / "1_New_story_from_an_article.py"
ARTICLE = (ROOT / "tests" / "fixtures" / "articles" / "wire_arsal.txt").read_text()


@pytest.fixture
def stories(monkeypatch, tmp_path, gazetteer_cache) -> Path:
    folder = tmp_path / "stories"
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(gazetteer_cache))
    return folder


def run_page() -> AppTest:
    # Started from the entrypoint, as in the browser, so the page's links resolve.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(str(PAGE.relative_to(ROOT)))
    at.run()
    assert not at.exception, at.exception
    return at


def extract(at: AppTest, text: str) -> AppTest:
    at.text_area(key="article_text").set_value(text)
    at.date_input(key="published").set_value(date(2017, 8, 28))
    at.button[0].click().run()  # the form's submit button
    assert not at.exception, at.exception
    return at


def test_paste_see_places_and_save(stories):
    at = extract(run_page(), ARTICLE)
    places = at.session_state.places
    assert "Arsal" in set(places["name"]), list(places["name"])
    assert not {"Nasrallah", "Hezbollah"} & set(places["name"])
    page_text = " ".join(m.value for m in at.markdown)
    assert "<mark" in page_text and "Arsal" in page_text
    at.text_input(key="story_title").set_value("Arsal test story").run()
    save = next(b for b in at.button if b.label == "Save story")
    save.click().run()
    assert not at.exception, at.exception
    assert any("Saved `arsal-test-story`" in s.value for s in at.success)
    assert (stories / "arsal-test-story" / "story.toml").exists()


def test_saving_twice_does_not_overwrite(stories):
    at = extract(run_page(), ARTICLE)
    at.text_input(key="story_title").set_value("Twice").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    before = (stories / "twice" / "events.csv").read_bytes()
    next(b for b in at.button if b.label == "Save story").click().run()
    assert any("already exists" in e.value for e in at.error)
    assert (stories / "twice" / "events.csv").read_bytes() == before


def test_empty_input_is_refused(stories):
    at = run_page()
    at.button[0].click().run()
    assert any("Paste an article" in e.value for e in at.error)
    assert not stories.exists() or not any(stories.iterdir())


def test_publication_date_defaults_to_the_texts_latest_full_date(stories):
    at = run_page()
    at.text_area(key="article_text").set_value(
        "BEIRUT - On August 28, 2017 a convoy left Arsal. On Monday it reached Qara."
    )
    at.button[0].click().run()
    assert not at.exception, at.exception
    assert any("28 August 2017" in i.value for i in at.info)
    assert at.session_state.published_on == date(2017, 8, 28)


def test_add_a_missed_place_offline(stories):
    at = extract(run_page(), ARTICLE)
    before = len(at.session_state.places)
    at.text_input(key="add_place_name").set_value("Palmyra")
    next(b for b in at.button if b.label == "Look it up").click().run()
    assert not at.exception, at.exception
    places = at.session_state.places
    assert len(places) == before + 1
    row = places[places["name"] == "Palmyra"].iloc[0]
    assert abs(row["lat"] - 34.56) < 0.05 and abs(row["lon"] - 38.28) < 0.05


def test_unknown_place_says_so(stories):
    at = extract(run_page(), ARTICLE)
    at.text_input(key="add_place_name").set_value("Xqzvillewock")
    next(b for b in at.button if b.label == "Look it up").click().run()
    assert any("is not in the offline gazetteer" in e.value for e in at.error)
