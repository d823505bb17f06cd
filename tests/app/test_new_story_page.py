"""AppTest of the New story page: paste an article, see places, save, reject bad input."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
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


def find_button(at: AppTest):
    """The form's submit button, by its label (the page has other buttons)."""
    return next(b for b in at.button if b.label == "Find places, dates and figures")


def extract(at: AppTest, text: str) -> AppTest:
    at.text_area(key="article_text").set_value(text)
    at.date_input(key="published").set_value(date(2017, 8, 28))
    find_button(at).click().run()
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


def test_another_draft_never_overwrites_a_saved_story(stories):
    at = extract(run_page(), ARTICLE)
    at.text_input(key="story_title").set_value("Twice").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    before = (stories / "twice" / "events.csv").read_bytes()
    extract(at, ARTICLE)  # a new draft of the same title
    assert not at.success, "the last draft's Saved notice stays with that draft"
    at.text_input(key="story_title").set_value("Twice").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    assert any("already exists" in e.value for e in at.error)
    assert (stories / "twice" / "events.csv").read_bytes() == before


def test_the_same_draft_saved_again_replaces_its_story(stories):
    at = extract(run_page(), ARTICLE)
    at.text_input(key="story_title").set_value("Again").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    at.text_area(key="story_summary").set_value("A second version.").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    assert not at.error, [e.value for e in at.error]
    assert "A second version." in (stories / "again" / "story.toml").read_text()


def test_empty_input_is_refused(stories):
    at = run_page()
    find_button(at).click().run()
    assert any("Paste an article" in e.value for e in at.error)
    assert not stories.exists() or not any(stories.iterdir())


def test_publication_date_defaults_to_the_texts_latest_full_date(stories):
    at = run_page()
    at.text_area(key="article_text").set_value(
        "BEIRUT - On August 28, 2017 a convoy left Arsal. On Monday it reached Qara."
    )
    find_button(at).click().run()
    assert not at.exception, at.exception
    assert any("28 August 2017" in i.value for i in at.info)
    assert at.session_state.published_on == date(2017, 8, 28)


def search(at: AppTest, name: str) -> AppTest:
    at.text_input(key="search_name").set_value(name)
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception, at.exception
    return at


def test_add_a_missed_place_offline(stories):
    at = extract(run_page(), ARTICLE)
    before = len(at.session_state.places)
    search(at, "Palmyra")
    assert at.session_state.search, "no candidates"
    next(b for b in at.button if b.label == "Use this").click().run()
    assert not at.exception, at.exception
    places = at.session_state.places
    assert len(places) == before + 1
    row = places[places["name"] == "Palmyra"].iloc[0]
    assert abs(row["lat"] - 34.56) < 0.05 and abs(row["lon"] - 38.28) < 0.05


def test_unknown_place_says_so_and_waits_to_be_pinned(stories):
    at = extract(run_page(), ARTICLE)
    search(at, "Xqzvillewock")
    assert any("Nothing called" in c.value and "Xqzvillewock" in c.value for c in at.caption)
    next(b for b in at.button if b.label.startswith("Add Xqzvillewock")).click().run()
    assert not at.exception, at.exception
    places = at.session_state.places
    row = places[places["name"] == "Xqzvillewock"].iloc[0]
    assert pd.isna(row["lat"]) and not row["keep"]
    assert at.session_state.pin_target == places.index[places["name"] == "Xqzvillewock"][0]
    assert any("Click the map where Xqzvillewock is" in i.value for i in at.info)


def test_change_an_events_category(stories):
    at = extract(run_page(), ARTICLE)
    row = at.selectbox(key=f"edit_row_{at.session_state.editor_version}").value
    version = at.session_state.editor_version
    at.selectbox(key=f"edit_cat_{version}_{row}").set_value("airstrike")
    next(b for b in at.button if b.label == "Apply to this event").click().run()
    assert not at.exception, at.exception
    assert at.session_state.events.at[row, "category"] == "airstrike"


def test_a_reload_brings_the_draft_back(stories):
    at = extract(run_page(), ARTICLE)
    draft = at.query_params["draft"]
    draft = draft[0] if isinstance(draft, list) else draft
    at.text_input(key="story_title").set_value("Kept title").run()
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    again.switch_page(str(PAGE.relative_to(ROOT)))
    again.query_params["draft"] = draft
    again.run()
    assert not again.exception, again.exception
    assert list(again.session_state.places["name"]) == list(at.session_state.places["name"])
    assert again.text_input(key="story_title").value == "Kept title"


def test_a_second_report_is_merged_citing_both(stories):
    first = (ROOT / "tests" / "fixtures" / "articles" / "combine_shelling_first.txt").read_text()
    second = (ROOT / "tests" / "fixtures" / "articles" / "combine_shelling_second.txt").read_text()
    at = extract(run_page(), first)
    at.text_area(key="text2").set_value(second)
    at.text_input(key="publication2").set_value("Valley Courier")
    next(b for b in at.button if b.label == "Add this report").click().run()
    assert not at.exception, at.exception
    events = at.session_state.events
    merged = events[events["source"].str.contains("|", regex=False)]
    assert len(merged) == 1 and merged.iloc[0]["confidence"] == "disputed"
    at.text_input(key="story_title").set_value("Two reports").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    assert (stories / "two-reports" / "events.csv").exists()


def test_continue_a_saved_story_and_add_a_report(stories):
    first = (ROOT / "tests" / "fixtures" / "articles" / "combine_shelling_first.txt").read_text()
    second = (ROOT / "tests" / "fixtures" / "articles" / "combine_shelling_second.txt").read_text()
    at = extract(run_page(), first)
    at.text_input(key="story_title").set_value("Saved first").run()
    next(b for b in at.button if b.label == "Save story").click().run()
    later = run_page()  # another session: the story is on disk, not in this session
    later.selectbox(key="continue_pick").set_value("saved-first")
    next(b for b in later.button if b.label == "Continue this story").click().run()
    assert not later.exception, later.exception
    assert later.text_input(key="story_title").value == "Saved first"
    later.text_area(key="text2").set_value(second)
    later.date_input(key="published2").set_value(date(2017, 8, 28))
    later.text_input(key="publication2").set_value("Valley Courier")
    next(b for b in later.button if b.label == "Add this report").click().run()
    next(b for b in later.button if b.label == "Save story").click().run()
    assert not later.exception, later.exception
    assert any("Saved `saved-first`" in s.value for s in later.success)
    events = (stories / "saved-first" / "events.csv").read_text()
    assert "article|valley-courier" in events and "disputed" in events
