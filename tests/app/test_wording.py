"""AppTest of the issue-27 slips: every actor picked is no filter, the categories box says what
is on, the uploaders' limits agree with the page, and the events list selects a place."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.sidebar import categories_summary
from tests.app.test_app import _user_stories, rows, run_app  # noqa: F401 (an autouse fixture)

ROOT = Path(__file__).resolve().parents[2]


def test_every_actor_picked_is_no_filter_and_leaves_the_url():
    at = run_app(story="mini")
    everyone = list(at.multiselect(key="actors").options)
    assert len(everyone) > 1
    at.multiselect(key="actors").set_value(everyone).run()
    assert not at.exception
    assert "actor" not in at.query_params
    assert at.multiselect(key="actors").value == []
    assert rows(at) == 6  # events with no named actor are shown too: all is all


def test_some_actors_stay_in_the_url():
    at = run_app(story="mini")
    at.multiselect(key="actors").set_value(["Hezbollah"]).run()
    assert at.query_params["actor"] == "Hezbollah"


@pytest.mark.parametrize(
    ("chosen", "offered", "title"),
    [
        (["a", "b", "c"], ["a", "b", "c"], "Categories: all 3"),
        (["c", "a", "b"], ["a", "b", "c"], "Categories: all 3"),
        (["a"], ["a", "b", "c"], "Categories: 1 of 3"),
        ([], ["a", "b", "c"], "Categories: none (no events shown)"),
    ],
)
def test_categories_summary(chosen, offered, title):
    assert categories_summary(chosen, offered) == title


def test_the_categories_box_is_titled_with_what_is_on_and_all_brings_them_back():
    at = run_app(story="mini")
    offered = list(at.pills(key="categories").options)
    assert at.sidebar.expander[0].label == f"Categories: all {len(offered)}"
    at.pills(key="categories").set_value(["speech", "celebration"]).run()
    assert at.sidebar.expander[0].label == f"Categories: 2 of {len(offered)}"
    assert at.query_params["cat"] == "speech,celebration"
    at.button(key="cats_all").click().run()
    assert set(at.pills(key="categories").value) == set(offered)
    assert "cat" not in at.query_params


def test_the_events_list_selects_an_events_place():
    at = run_app(story="mini")
    at.session_state["event_list"] = True  # the list's box opened
    at.run()
    buttons = [b for b in at.button if b.key and b.key.startswith("evl_")]
    assert len(buttons) == 6
    assert "Events in the window, as a list (6 events)" in [e.label for e in at.expander]
    target = next(b for b in buttons if "Baalbek" in b.label)
    target.click().run()
    assert at.query_params["sel"] == "place:baalbek"
    assert any(m.value.startswith("**Baalbek**") for m in at.markdown)


def test_the_uploaders_limits_are_the_pages_own():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page("pages/1_New_story_from_an_article.py")
    at.run()
    assert not at.exception, at.exception
    limits = {u.proto.label: u.proto.max_upload_size_mb for u in at.get("file_uploader")}
    assert limits == {
        "…or upload a file (.txt, .md or .html)": 1,
        "A zip made by Dateline's download": 20,
        "The export file": 20,
    }
