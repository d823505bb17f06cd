"""The timeline's held-area chart as a Vega-Lite spec: a plain dict, drawn as SVG by
``pictures`` (the events chart is drawn by ``bars``).

Plain dicts, not Altair: building them costs no import (Altair's took 0.9 s at a server's first
page), and ``CHART_VERSION`` names what they draw, so pictures kept on disk are keyed by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pandas as pd

from geo.story.chapters import Chapter, chapter_marks

# Part of the kept pictures' key: raise it whenever a spec below draws differently.
CHART_VERSION = 4  # 2: filtered title; 3: no ARIA per mark; 4: held chart alone
# Drawn this wide and scaled to their column: 1.3x on a laptop, 0.8x on a phone (stacked).
WIDTH = 380
HEIGHT = 220
LEGEND = {"columns": 2, "labelLimit": 260, "orient": "bottom", "title": None}
# Drawn as a picture that is scaled to its column (about 0.8x): type a little larger.
CONFIG = {
    # The chart reaches the page as a picture (an <img> with its own alt text), where a label on
    # every bar is read by no one: without them the SVG is half the size (72 -> 36 KB).
    "aria": False,
    "axis": {"labelFontSize": 12, "titleFontSize": 12},
    "legend": {"labelFontSize": 12, "symbolSize": 90},
}


def held_chart(
    area: pd.DataFrame,
    sides: dict[str, tuple[str, str]],
    chapters: Sequence[Chapter],
    span: tuple[date, date],
    held: str,
) -> dict | None:
    """The ``held`` area per side as a stepped line, or None when no area is reported.

    ``area`` is ``timeline.held_area_long``'s; ``sides`` gives each side's label and colour.
    """
    if area.empty:
        return None
    area = area.assign(
        side=area["side"].map({k: label for k, (label, _) in sides.items()}).fillna(area["side"]),
        figure=area["carried"].map({True: "carried over", False: "reported"}),
    )
    line = {
        "data": {"values": _values(area)},
        "mark": {"type": "line", "interpolate": "step-after", "point": True},
        "encoding": {
            "color": _colour("side", dict(sides.values())),
            "shape": {"field": "figure", "legend": LEGEND, "type": "nominal"},
            "tooltip": _tooltip(
                day="temporal", side="nominal", km2="quantitative", figure="nominal"
            ),
            "x": _days(span),
            "y": {"field": "km2", "title": "km²", "type": "quantitative"},
        },
    }
    return _chart(line, chapters, f"{held} area (reported km²)")


def _chart(layer: dict, chapters: Sequence[Chapter], title: str) -> dict:
    return {
        "config": CONFIG,
        "layer": [layer, _chapter_rules(chapters)],
        "height": HEIGHT,
        "width": WIDTH,
        # Drawn by Vega as text, never as HTML or markdown.
        "title": {"text": title, "anchor": "start", "fontSize": 15, "fontWeight": 600, "offset": 8},
    }


def _chapter_rules(chapters: Sequence[Chapter]) -> dict:
    """Where the story turns: a rule and a short label at each chapter's first day."""
    marks = pd.DataFrame(
        [{"day": pd.Timestamp(d), "label": label} for d, label in chapter_marks(chapters)],
        columns=["day", "label"],
    )
    day = {"field": "day", "type": "temporal"}
    rule = {"type": "rule", "color": "#888", "strokeDash": [3, 3]}
    # Written down each rule: the chapters of one week would overlap side by side.
    text = {"type": "text", "align": "left", "angle": 90, "baseline": "bottom", "color": "#666"}
    return {
        "data": {"values": _values(marks)},
        "layer": [
            {"mark": rule, "encoding": {"x": day}},
            {
                "mark": {**text, "dx": 3, "fontSize": 11, "y": 2},
                "encoding": {"text": {"field": "label", "type": "nominal"}, "x": day},
            },
        ],
    }


def _days(span: tuple[date, date]) -> dict:
    # The whole story's span, whatever the data: both charts share one time axis.
    domain = [str(span[0]), str(span[1])]
    return {"field": "day", "scale": {"domain": domain}, "title": None, "type": "temporal"}


def _colour(field: str, colours: dict[str, str]) -> dict:
    scale = {"domain": list(colours), "range": list(colours.values())}
    return {"field": field, "legend": LEGEND, "scale": scale, "type": "nominal"}


def _tooltip(**fields: str) -> list[dict]:
    return [{"field": name, "type": kind} for name, kind in fields.items()]


def _values(frame: pd.DataFrame) -> list[dict]:
    """The rows of ``frame`` as JSON values; a day as an ISO date-time, which Vega reads as a
    local time (a bare date would be read as UTC and drawn a day off in the west)."""
    out = frame.copy()
    for name in out.columns:
        if pd.api.types.is_datetime64_any_dtype(out[name]):
            out[name] = [None if pd.isna(t) else t.isoformat() for t in out[name]]
    # A missing number is null, as JSON has no NaN.
    return out.astype(object).where(out.notna(), None).to_dict("records")
