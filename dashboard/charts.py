"""The timeline under the map: events per period and the held area over the whole story."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json

import pandas as pd
import streamlit as st

from dashboard.stories import Filters, Shown, load
from geo.map.style import SIDE_STYLE, families_of, family
from geo.names import literal, upper_first
from geo.paths import default_cache_dir
from geo.story.charts import CHART_VERSION, events_chart, held_chart
from geo.story.events_store import Narrow, narrowed_per_period
from geo.story.load import story_words
from geo.story.pictures import PictureError, cached_svg, warm
from geo.story.timeline import chart_period, held_area_long


def _chart_specs(
    path: str,
    fingerprint: tuple,
    cats: tuple[str, ...] | None,
    acts: tuple[str, ...],
    narrow: tuple | None,
) -> list[dict | None]:
    """The two timeline charts of the whole story as Vega-Lite specs.

    They do not follow the slider: an unchanged chart is not sent again on a move (the page
    keeps it by its hash), and the whole story around the window is what a timeline is for.
    They follow the filters, the Killed, Countries and text ones (``narrow``, a Narrow's
    fields) too: a big story's counts then come from its store's SQL.
    """
    s = load(path, fingerprint)
    span = (s.start, s.end)
    # A long story is counted by week or month (timeline.DAY_BARS): few bars, a small picture.
    period = chart_period(s.start, s.end)
    through = None if narrow is None else Narrow(*narrow)
    per_period = narrowed_per_period(s, s.start, s.end, period, cats, acts, through)
    # By family, in the map's colours: thirty-nine categories would need as many colours.
    fams = families_of(per_period.columns)
    members = {f: [c for c in per_period.columns if family(c) == f] for f in fams}
    by_family = pd.DataFrame({f.label: per_period[cs].sum(axis=1) for f, cs in members.items()})
    colours = {f.label: f.colour for f in fams}
    filtered = cats is not None or bool(acts) or narrow is not None
    bars = events_chart(by_family, colours, s.chapters, span, period, filtered=filtered)
    sides = {k: (v["label"], v["color"]) for k, v in SIDE_STYLE.items()}
    held = upper_first(story_words(s.meta)["held"])
    area = held_area_long(s.fronts, s.start, s.end)
    return [bars, held_chart(area, sides, s.chapters, span, held)]


@st.cache_data(max_entries=16, show_spinner=False)
def _chart_pictures(
    path: str,
    fingerprint: tuple,
    cats: tuple[str, ...] | None,
    acts: tuple[str, ...],
    narrow: tuple | None,
) -> tuple[str | None, str | None]:
    """The two timeline charts drawn as SVG on the server, once per story and filter.

    A picture, not a Vega chart in the page: Vega's 775 KB of JavaScript, parsed and run while
    the map's frame loads, held the first map back by a second. Data is drawn as SVG text
    (escaped), and an SVG shown as an image runs no script. Drawn in a child process
    (geo/story/pictures.py): Vega's engine stays out of the server's memory.
    """
    # Kept on disk beside the big stories' event stores: a new server's first page would
    # otherwise spend a second starting Vega before its map is done. The key holds what draws
    # them: the specs' version and Vega's.
    vega = importlib.metadata.version("vl-convert-python")
    key = json.dumps([path, fingerprint, cats, acts, narrow, CHART_VERSION, vega], default=str)
    # A PictureError is not cached: the next run tries again.
    bars, line = cached_svg(
        key,
        default_cache_dir() / "charts",
        lambda: _chart_specs(path, fingerprint, cats, acts, narrow),
        2,
    )
    return bars, line


def timeline(shown: Shown, filters: Filters) -> None:
    """Events per day and the held area over the whole story, with the chapters marked."""
    cats = filters.categories_or_all(shown)
    narrow = filters.narrow(shown)
    try:
        bars, line = _chart_pictures(
            *shown.key,
            None if cats is None else tuple(cats),
            tuple(filters.actors_or_all(shown)),
            # Its fields as a plain tuple: the caches' keys (memory and disk) hold the filter.
            None if narrow is None else dataclasses.astuple(narrow),
        )
    except PictureError:
        st.caption("The timeline's charts could not be drawn this time; they are tried again.")
        return
    # Kept pictures need no drawing: the child is started now for the next filter's charts.
    warm()
    # The headings are the charts' own titles: an unchanged chart is sent as a short reference.
    chart_a, chart_b = st.columns(2)
    with chart_a:
        if bars is None:
            st.caption("Events per day: no events match the filters.")
        else:
            st.image(bars, width="stretch", alt="Events per day over the whole story")
    with chart_b:
        if shown.story.fronts.empty:
            st.caption(f"This story has no {literal(shown.words['enclave'])}.")
        elif line is None:
            st.caption("No area reported.")
        else:
            st.image(line, width="stretch", alt="Area held over the whole story")
