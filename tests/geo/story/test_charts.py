"""Tests for geo.story.charts: the held-area chart's Vega-Lite spec as a plain dict."""

from __future__ import annotations

import json
from datetime import date

import pandas as pd
import pytest

from geo.story.charts import held_chart
from geo.story.load import load_story
from geo.story.timeline import held_area_long
from tests.helpers import FIXTURES

SPAN = (date(2017, 8, 1), date(2017, 8, 31))
SIDES = {"LB": ("Lebanese side", "#b3261e"), "SY": ("Syrian side", "#6b2c91")}


@pytest.fixture(scope="module")
def chapters():
    return load_story(FIXTURES / "stories" / "mini-chapters").chapters


def test_the_held_area_steps_per_side_and_says_which_figures_were_carried(chapters):
    area = pd.DataFrame(
        {
            "day": pd.to_datetime(["2017-08-19", "2017-08-20", "2017-08-20"]),
            "side": ["LB", "LB", "XX"],
            "km2": [120.0, 120.0, float("nan")],
            "carried": [False, True, False],
        }
    )
    spec = held_chart(area, SIDES, chapters, SPAN, "Held")
    line = spec["layer"][0]
    assert spec["title"]["text"] == "Held area (reported km²)"
    assert line["mark"]["interpolate"] == "step-after"
    assert line["encoding"]["color"]["scale"]["range"] == ["#b3261e", "#6b2c91"]
    rows = line["data"]["values"]
    assert [(r["side"], r["figure"]) for r in rows] == [
        ("Lebanese side", "reported"),
        ("Lebanese side", "carried over"),
        ("XX", "reported"),  # a side this version has no label for keeps its code
    ]
    assert rows[2]["km2"] is None  # JSON has no NaN: a missing figure is null
    json.dumps(spec, allow_nan=False)


def test_no_line_without_fronts(chapters):
    empty = held_area_long(pd.DataFrame(), *SPAN)
    assert held_chart(empty, SIDES, chapters, SPAN, "Held") is None
