"""Tests for geo.story.charts: the timeline's Vega-Lite specs as plain dicts."""

from __future__ import annotations

import json
from datetime import date

import pandas as pd
import pytest

from geo.story.charts import WIDTH, events_chart, held_chart
from geo.story.load import load_story
from geo.story.timeline import held_area_long
from tests.helpers import FIXTURES

SPAN = (date(2017, 8, 1), date(2017, 8, 31))
SIDES = {"LB": ("Lebanese side", "#b3261e"), "SY": ("Syrian side", "#6b2c91")}


@pytest.fixture(scope="module")
def chapters():
    return load_story(FIXTURES / "stories" / "mini-chapters").chapters


def counts(**columns: list[int]) -> pd.DataFrame:
    days = pd.date_range("2017-08-01", periods=len(next(iter(columns.values()))), freq="D")
    return pd.DataFrame(columns, index=days)


def test_the_bars_count_each_group_in_its_colour_over_the_whole_span(chapters):
    colours = {"fighting": "#D55E00", "strikes": "#E69F00"}
    spec = events_chart(counts(fighting=[2, 0], strikes=[0, 1]), colours, chapters, SPAN, "week")
    bars, rules = spec["layer"]
    assert spec["title"]["text"] == "Events per week, whole story"
    assert spec["width"] == WIDTH
    scale = bars["encoding"]["color"]["scale"]
    assert scale == {"domain": ["fighting", "strikes"], "range": ["#D55E00", "#E69F00"]}
    assert bars["encoding"]["x"]["scale"]["domain"] == ["2017-08-01", "2017-08-31"]
    # Only the periods with events, each day a local date-time as Vega reads it.
    assert bars["data"]["values"] == [
        {"day": "2017-08-01T00:00:00", "family": "fighting", "value": 2},
        {"day": "2017-08-02T00:00:00", "family": "strikes", "value": 1},
    ]
    labels = [row["label"] for row in rules["data"]["values"]]
    assert len(labels) == len(chapters) and labels[0].startswith("1. ")


@pytest.mark.parametrize("table", [pd.DataFrame(), counts(fighting=[0, 0])])
def test_no_bars_when_nothing_is_counted(table, chapters):
    assert events_chart(table, {"fighting": "#D55E00"}, chapters, SPAN, "day") is None


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


def test_a_story_without_chapters_has_no_rules():
    spec = events_chart(counts(fighting=[1]), {"fighting": "#D55E00"}, [], SPAN, "day")
    assert spec["layer"][1]["data"]["values"] == []


def test_a_filtered_events_chart_says_so_in_its_title():
    table = counts(fighting=[1])
    whole = events_chart(table, {"fighting": "#D55E00"}, [], SPAN, "day")
    narrowed = events_chart(table, {"fighting": "#D55E00"}, [], SPAN, "day", filtered=True)
    assert whole["title"]["text"] == "Events per day, whole story"
    assert narrowed["title"]["text"] == "Events per day, whole story, filtered"
