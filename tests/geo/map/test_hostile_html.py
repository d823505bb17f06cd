"""Map HTML from hostile data: every value is text, whatever the validator let through."""

from __future__ import annotations

import dataclasses
from datetime import date

import folium
import pytest

from geo.map.layers import convoy_layer, events_layer, fronts_layer, places_layer
from geo.story.load import load_story
from tests.helpers import MINI

PAYLOAD = "<img src=x onerror=alert(1)></script><script>alert(2)</script>\"'\n\n**b**"


def rendered(group: folium.FeatureGroup) -> str:
    """The page, with the JSON escapes folium writes turned back into what the browser gets."""
    m = folium.Map(tiles=None)
    group.add_to(m)
    html = m.get_root().render()
    for code, char in (("\\u003c", "<"), ("\\u003e", ">"), ("\\u0026", "&")):
        html = html.replace(code, char)
    return html


@pytest.fixture(scope="module")
def hostile():
    story = load_story(MINI)
    fronts = story.fronts.copy()
    fronts["id"] = PAYLOAD
    fronts["note"] = [PAYLOAD, 5] * (len(fronts) // 2) + [PAYLOAD] * (len(fronts) % 2)
    fronts["source"] = PAYLOAD
    places = story.places.copy()
    for col in ("id", "name", "kind"):
        places[col] = PAYLOAD
    convoy = story.convoy.copy()
    for col in ("id", "group", "status", "note", "source", "place_name"):
        convoy[col] = PAYLOAD
    events = story.events.copy()
    for col in ("place_id", "place_name", "summary", "source", "source_detail", "confidence"):
        events[col] = PAYLOAD
    events["confidence_note"] = PAYLOAD
    return dataclasses.replace(story, fronts=fronts, places=places, convoy=convoy, events=events)


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda s: fronts_layer(s.fronts, date(2017, 8, 20), {}), id="fronts"),
        pytest.param(lambda s: places_layer(s.places, set(s.places["id"])), id="places"),
        pytest.param(lambda s: convoy_layer(s.convoy, date(2017, 8, 31), {}), id="convoy"),
        pytest.param(lambda s: events_layer(s.events, {PAYLOAD: PAYLOAD}), id="events"),
    ],
)
def test_no_markup_from_data_reaches_the_map(hostile, build):
    html = rendered(build(hostile))
    assert "<img src=x" not in html
    assert "</script><script>alert(2)" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
