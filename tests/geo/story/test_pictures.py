"""Tests for geo.story.pictures: Vega-Lite drawn as SVG in a child process, bounded in time."""

from __future__ import annotations

import pytest

from geo.story.pictures import PictureError, cached_svg, draw_svg

BARS = {
    "data": {"values": [{"day": "2017-08-01", "n": 2}, {"day": "2017-08-02", "n": 5}]},
    "mark": "bar",
    "encoding": {
        "x": {"field": "day", "type": "temporal"},
        "y": {"field": "n", "type": "quantitative"},
    },
    "title": "Events <b>per</b> day",
}


def test_each_spec_becomes_an_svg_picture_and_none_stays_none():
    bars, none = draw_svg([BARS, None])
    assert bars.startswith("<svg") and none is None
    # The title is SVG text, escaped: no element can come from data.
    assert "&lt;b&gt;per&lt;/b&gt;" in bars and "<b>" not in bars


def test_no_child_is_started_when_there_is_nothing_to_draw(monkeypatch):
    import subprocess

    def no_child(*args, **kwargs):
        raise AssertionError("a child process was started")

    monkeypatch.setattr(subprocess, "Popen", no_child)
    assert draw_svg([None, None]) == [None, None]


def test_the_drawing_child_is_kept_and_replaced_when_it_fails():
    from geo.story import pictures

    draw_svg([BARS])
    child = pictures._DRAWER.child
    assert child is not None and child.poll() is None
    with pytest.raises(PictureError, match="not drawn"):
        draw_svg([{"mark": "no-such-mark"}])
    draw_svg([BARS])
    assert pictures._DRAWER.child is child  # one bad chart does not cost a new child
    with pytest.raises(PictureError, match="not drawn in"):
        draw_svg([BARS], timeout=0.001)
    assert child.poll() is not None  # a late child is stopped …
    assert draw_svg([BARS])[0].startswith("<svg")  # … and the next charts start a new one
    assert pictures._DRAWER.child is not child


@pytest.mark.parametrize(
    ("specs", "timeout", "message"),
    [
        ([{"mark": "no-such-mark"}], 60.0, "not drawn"),
        ([BARS], 0.001, "not drawn in"),
    ],
)
def test_a_child_that_fails_or_runs_too_long_raises(specs, timeout, message):
    with pytest.raises(PictureError, match=message):
        draw_svg(specs, timeout=timeout)


def test_kept_pictures_are_read_back_without_drawing(tmp_path, monkeypatch):
    from geo.story import pictures

    drawn = cached_svg("k", tmp_path, lambda: [BARS, None], 2)
    assert drawn[0].startswith("<svg") and drawn[1] is None

    def no_specs():
        raise AssertionError("specs built although the pictures are kept")

    assert cached_svg("k", tmp_path, no_specs, 2) == drawn
    # A kept file of the wrong shape is drawn again.
    monkeypatch.setattr(pictures, "draw_svg", lambda specs: ["<svg/>"] * len(specs))
    assert cached_svg("k", tmp_path, lambda: [BARS, BARS, BARS], 3) == ["<svg/>"] * 3
    assert not list(tmp_path.glob("*.tmp*"))


def test_the_kept_pictures_are_bounded(tmp_path, monkeypatch):
    from geo.story import pictures

    monkeypatch.setattr(pictures, "draw_svg", lambda specs: ["<svg/>"] * len(specs))
    monkeypatch.setattr(pictures, "KEPT_FILES", 3)
    for n in range(5):
        cached_svg(f"key-{n}", tmp_path, lambda: [BARS], 1)
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_a_timeline_picture_carries_no_label_per_point():
    # The chart is shown as an <img> with its own alt text: per-mark ARIA would double its size.
    from datetime import date

    import pandas as pd

    from geo.story.charts import held_chart

    area = pd.DataFrame(
        {
            "day": pd.date_range("2017-08-01", periods=20, freq="D"),
            "side": "LB",
            "km2": [float(300 - 10 * n) for n in range(20)],
            "carried": False,
        }
    )
    sides = {"LB": ("Lebanese side", "#b3261e")}
    spec = held_chart(area, sides, [], (date(2017, 8, 1), date(2017, 8, 20)), "Held")
    (svg,) = draw_svg([spec])
    assert svg.count("<path") >= 20  # the points are drawn
    # One role per mark group at most, none per point.
    assert svg.count("aria-label") <= 1 and svg.count("role=") < 10
