"""Map HTML from hostile data: every value is text, whatever the validator let through."""

from __future__ import annotations

import dataclasses
from datetime import date

import folium
import pytest

from geo.map.layers import browser_layers
from geo.map.payload import story_payload
from geo.map.window import window_payload
from geo.story.load import load_story
from tests.helpers import MINI

PAYLOAD = "<img src=x onerror=alert(1)></script><script>alert(2)</script>\"'\n\n**b**"


def rendered(data: dict) -> str:
    """The page that hands the map's script ``data``."""
    m = folium.Map(tiles=None)
    for group in browser_layers(data, date(2017, 8, 1), date(2017, 8, 31), None, [], {"events"}):
        group.add_to(m)
    return m.get_root().render()


def html_texts(value) -> list[str]:
    """Every value the map's script writes as HTML: tooltips, escaped names, cluster labels."""
    if isinstance(value, dict):
        return [
            t
            for k, v in value.items()
            for t in ([v] if k in ("tip", "nh", "label") and isinstance(v, str) else html_texts(v))
        ]
    if isinstance(value, list):
        return [t for v in value for t in html_texts(v)]
    return []


@pytest.fixture(scope="module")
def hostile():
    story = load_story(MINI)
    fronts = story.fronts.copy()
    fronts["id"] = PAYLOAD
    fronts["note"] = [PAYLOAD, 5] * (len(fronts) // 2) + [PAYLOAD] * (len(fronts) % 2)
    fronts["source"] = PAYLOAD
    places = story.places.copy()
    # Ids stay unique, as the validator keeps them: a window counts events by place.
    ids = {old: f"{PAYLOAD}{n}" for n, old in enumerate(places["id"])}
    places["id"] = places["id"].map(ids)
    for col in ("name", "kind"):
        places[col] = PAYLOAD
    convoy = story.convoy.copy()
    for col in ("id", "group", "status", "note", "source", "place_name"):
        convoy[col] = PAYLOAD
    events = story.events.copy()
    events["place_id"] = events["place_id"].map(ids)
    for col in ("place_name", "summary", "source", "source_detail", "confidence"):
        events[col] = PAYLOAD
    events["confidence_note"] = PAYLOAD
    return dataclasses.replace(story, fronts=fronts, places=places, convoy=convoy, events=events)


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(story_payload, id="whole-story"),
        pytest.param(lambda s: window_payload(s, s.events, date(2017, 8, 20)), id="fronts"),
        pytest.param(lambda s: window_payload(s, s.events, date(2017, 8, 31)), id="convoy"),
    ],
)
def test_no_markup_from_data_reaches_the_map(hostile, build):
    data = build(hostile)
    html = "\n".join(html_texts(data))
    assert "<img src=x" not in html
    assert "</script><script>alert(2)" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    # Names the labels set as text stay raw in the data, and the page's JSON hides them.
    page = rendered(data)
    assert "<img src=x" not in page
    assert "</script><script>alert(2)" not in page
