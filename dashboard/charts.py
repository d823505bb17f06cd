"""The timeline under the map: events per period and the held area over the whole story."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd
import streamlit as st

from dashboard.stories import Filters, Shown, load
from geo.map.style import SIDE_STYLE, families_of, family
from geo.names import literal, upper_first
from geo.paths import default_cache_dir
from geo.story.bars import events_svg
from geo.story.charts import CHART_VERSION, held_chart
from geo.story.events_store import Narrow, narrowed_per_period
from geo.story.load import story_words
from geo.story.pictures import PictureError, cached_svg
from geo.story.timeline import chart_period, held_area_long


def _bars(
    path: str,
    fingerprint: tuple,
    cats: tuple[str, ...] | None,
    acts: tuple[str, ...],
    narrow: tuple | None,
) -> str | None:
    """The events chart of the whole story, through the filters, as an SVG picture.

    It does not follow the slider: an unchanged chart is not sent again on a move (the page
    keeps it by its hash), and the whole story around the window is what a timeline is for.
    It follows the filters, the Killed, Countries and text ones (``narrow``, a Narrow's
    fields) too: a big story's counts then come from its store.
    """
    s = load(path, fingerprint)
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
    return events_svg(by_family, colours, s.chapters, (s.start, s.end), period, filtered=filtered)


@st.cache_data(max_entries=8, show_spinner=False)
def _held_picture(path: str, fingerprint: tuple) -> str | None:
    """The held area over the whole story as an SVG picture drawn by Vega, once per story
    version (no filter changes it), kept on disk; a PictureError is not cached, so the next
    run tries again.

    Kept beside the big stories' event stores: a new server's first page would otherwise
    spend a second starting Vega before its map is done. The key holds what draws it: the
    spec's version and Vega's.
    """
    vega = importlib.metadata.version("vl-convert-python")
    key = json.dumps([path, fingerprint, "held", CHART_VERSION, vega], default=str)

    def spec() -> list[dict | None]:
        s = load(path, fingerprint)
        sides = {k: (v["label"], v["color"]) for k, v in SIDE_STYLE.items()}
        held = upper_first(story_words(s.meta)["held"])
        area = held_area_long(s.fronts, s.start, s.end)
        return [held_chart(area, sides, s.chapters, (s.start, s.end), held)]

    return cached_svg(key, default_cache_dir() / "charts", spec, 1)[0]


# Events charts begun at the top of a whole run (``begin``), by their arguments: they are counted
# and drawn while the map is built, not after it (at ten million events, 0.2-0.3 s of a filter
# change when Vega drew them). A few at most: each run takes its own.
_EARLY: dict[tuple, Future] = {}
_EARLY_LOCK = threading.Lock()
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dateline-charts")


@st.cache_data(max_entries=16, show_spinner=False)
def _chart_pictures(
    path: str,
    fingerprint: tuple,
    cats: tuple[str, ...] | None,
    acts: tuple[str, ...],
    narrow: tuple | None,
) -> str | None:
    """The events chart's picture, once per story and filter.

    A picture, not a Vega chart in the page: Vega's 775 KB of JavaScript, parsed and run while
    the map's frame loads, held the first map back by a second. Data is drawn as SVG text
    (escaped), and an SVG shown as an image runs no script.
    """
    args = (path, fingerprint, cats, acts, narrow)
    with _EARLY_LOCK:
        early = _EARLY.pop(args, None)
    return _bars(*args) if early is None else early.result()


def _args(shown: Shown, filters: Filters) -> tuple:
    cats = filters.categories_or_all(shown)
    narrow = filters.narrow(shown)
    return (
        *shown.key,
        None if cats is None else tuple(cats),
        tuple(filters.actors_or_all(shown)),
        # Its fields as a plain tuple: the caches' keys (memory and disk) hold the filter.
        None if narrow is None else dataclasses.astuple(narrow),
    )


def begin(shown: Shown, filters: Filters) -> None:
    """Start this run's events chart in a thread; ``timeline`` takes it (or, kept in memory,
    ignores it). Only for a big story: a small one's chart costs a few ms."""
    if shown.story.store is None:
        return
    args = _args(shown, filters)
    with _EARLY_LOCK:
        if args not in _EARLY:
            for old in list(_EARLY)[: max(0, len(_EARLY) - 3)]:
                _EARLY.pop(old)
            _EARLY[args] = _POOL.submit(_bars, *args)


def timeline(shown: Shown, filters: Filters) -> None:
    """Events per day and the held area over the whole story, with the chapters marked."""
    args = _args(shown, filters)
    try:
        bars = _chart_pictures(*args)
    finally:
        with _EARLY_LOCK:
            _EARLY.pop(args, None)  # begun, then found kept in memory (or failed)
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
            return
        try:
            line = _held_picture(*shown.key)
        except PictureError:
            st.caption("The held area's chart could not be drawn this time; it is tried again.")
            return
        if line is None:
            st.caption("No area reported.")
        else:
            st.image(line, width="stretch", alt="Area held over the whole story")
