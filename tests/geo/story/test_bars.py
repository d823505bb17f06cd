"""Tests for geo.story.bars: the events chart written as SVG by Python."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date

import pandas as pd
import pytest

from geo.story.bars import events_svg, nice_top, time_ticks
from geo.story.charts import HEIGHT
from geo.story.load import load_story
from tests.helpers import FIXTURES

SPAN = (date(2017, 8, 1), date(2017, 8, 31))
COLOURS = {"fighting": "#D55E00", "strikes": "#E69F00"}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def chapters():
    return load_story(FIXTURES / "stories" / "mini-chapters").chapters


def counts(**columns: list[int]) -> pd.DataFrame:
    days = pd.date_range("2017-08-01", periods=len(next(iter(columns.values()))), freq="D")
    return pd.DataFrame(columns, index=days)


def texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def bar_heights(svg: str, colour: str) -> list[float]:
    """The heights of the bar parts filled with ``colour``, left to right."""
    (path,) = [p for p in ET.fromstring(svg).iter(f"{SVG}path") if p.get("fill") == colour]
    return [float(h) for h in re.findall(r"v(-?[\d.]+)h-", path.get("d"))]


def test_the_bars_count_each_group_in_its_colour_and_stack_the_first_on_top(chapters):
    svg = events_svg(counts(fighting=[2, 0, 1], strikes=[2, 1, 0]), COLOURS, chapters, SPAN, "day")
    top, _ = nice_top(4)
    assert bar_heights(svg, "#D55E00") == pytest.approx([2 / top * HEIGHT, 1 / top * HEIGHT], 0.01)
    assert bar_heights(svg, "#E69F00") == pytest.approx([2 / top * HEIGHT, 1 / top * HEIGHT], 0.01)

    # The first group sits on the second: its part of the first day's bar starts higher up.
    def first_top(colour):
        path = next(p for p in ET.fromstring(svg).iter(f"{SVG}path") if p.get("fill") == colour)
        return float(re.match(r"M[\d.-]+,([\d.-]+)", path.get("d")).group(1))

    assert first_top("#D55E00") < first_top("#E69F00")
    shown = texts(svg)
    assert "Events per day, whole story" in shown
    assert {"fighting", "strikes"} <= set(shown)
    assert sum(t.startswith("1. ") for t in shown) == 1  # the first chapter's label


@pytest.mark.parametrize("table", [pd.DataFrame(), counts(fighting=[0, 0])])
def test_no_picture_when_nothing_is_counted(table, chapters):
    assert events_svg(table, {"fighting": "#D55E00"}, chapters, SPAN, "day") is None


def test_a_filtered_chart_says_so_in_its_title():
    table = counts(fighting=[1])
    assert "Events per week, whole story, filtered" in texts(
        events_svg(table, COLOURS, [], SPAN, "week", filtered=True)
    )
    assert "Events per week, whole story" in texts(events_svg(table, COLOURS, [], SPAN, "week"))


def test_text_is_data_never_markup():
    hostile = {"<script>alert(1)</script>": "#D55E00", 'x" onload="y': '"#fff" onload="z"'}
    table = pd.DataFrame(
        {name: [1] for name in hostile}, index=pd.date_range("2017-08-01", periods=1)
    )
    svg = events_svg(table, hostile, [], SPAN, "day")
    root = ET.fromstring(svg)  # well-formed
    assert "<script>alert(1)</script>" in texts(svg)  # as text
    assert not list(root.iter(f"{SVG}script"))
    assert all("onload" not in key for el in root.iter() for key in el.attrib)


def test_chapters_too_close_to_label_keep_their_rule_but_not_an_overlapping_label(chapters):
    svg = events_svg(counts(fighting=[1] * 31), COLOURS, chapters, SPAN, "day")
    rules = [p for p in ET.fromstring(svg).iter(f"{SVG}path") if p.get("stroke-dasharray")]
    labels = [t for t in texts(svg) if re.match(r"\d+\. ", t or "")]
    assert len(rules) == len(chapters)
    assert 1 <= len(labels) <= len(chapters)


@pytest.mark.parametrize(
    ("peak", "top", "step"),
    [(1, 1, 1), (4, 4, 1), (7, 8, 2), (14, 15, 5), (43_000, 50_000, 10_000), (0.5, 1, 1)],
)
def test_the_y_axis_ends_on_a_round_tick(peak, top, step):
    assert nice_top(peak) == (top, step)


@pytest.mark.parametrize(
    ("start", "end", "first", "labels_include"),
    [
        # A month by day: weekly ticks on Sundays, as "Aug 06".
        (date(2017, 7, 22), date(2017, 9, 13), date(2017, 7, 23), "Aug 06"),
        # A year: months by name, the new year by its number.
        (date(2016, 12, 26), date(2018, 1, 1), date(2017, 1, 1), "2018"),
        # Decades: years only.
        (date(1990, 1, 1), date(2020, 1, 1), date(1990, 1, 1), "2000"),
    ],
)
def test_time_ticks_fit_side_by_side(start, end, first, labels_include):
    ticks = time_ticks(start, end)
    assert ticks[0][0] == first
    assert labels_include in [label for _, label in ticks]
    assert all(start <= d <= end for d, _ in ticks)
    assert 3 <= len(ticks) <= 12
