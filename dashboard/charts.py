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


def _drawn(args: tuple) -> tuple[str | None, str | None]:
    """The two charts' pictures for ``_chart_pictures``' arguments (story and filters), kept
    on disk or drawn (PictureError)."""
    path, fingerprint, cats, acts, narrow = args
    # Kept on disk beside the big stories' event stores: a new server's first page would
    # otherwise spend a second starting Vega before its map is done. The key holds what draws
    # them: the specs' version and Vega's.
    vega = importlib.metadata.version("vl-convert-python")
    key = json.dumps([path, fingerprint, cats, acts, narrow, CHART_VERSION, vega], default=str)
    bars, line = cached_svg(
        key,
        default_cache_dir() / "charts",
        lambda: _chart_specs(path, fingerprint, cats, acts, narrow),
        2,
    )
    return bars, line


# Pictures begun at the top of a whole run (``begin``), by their arguments: they are counted and
# drawn (in the drawing child, on the other core) while the map is built, not after it. At ten
# million events that was 0.2-0.3 s of a filter change. A few at most: each run takes its own.
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
) -> tuple[str | None, str | None]:
    """The two timeline charts drawn as SVG on the server, once per story and filter.

    A picture, not a Vega chart in the page: Vega's 775 KB of JavaScript, parsed and run while
    the map's frame loads, held the first map back by a second. Data is drawn as SVG text
    (escaped), and an SVG shown as an image runs no script. Drawn in a child process
    (geo/story/pictures.py): Vega's engine stays out of the server's memory.
    """
    args = (path, fingerprint, cats, acts, narrow)
    with _EARLY_LOCK:
        early = _EARLY.pop(args, None)
    # A PictureError is not cached: the next run tries again.
    return _drawn(args) if early is None else early.result()


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
    """Start this run's timeline pictures in a thread; ``timeline`` takes them (or, kept in
    memory, ignores them). Only for a big story: a small one's charts cost a few ms."""
    if shown.story.store is None:
        return
    args = _args(shown, filters)
    with _EARLY_LOCK:
        if args not in _EARLY:
            for old in list(_EARLY)[: max(0, len(_EARLY) - 3)]:
                _EARLY.pop(old)
            _EARLY[args] = _POOL.submit(_drawn, args)


def timeline(shown: Shown, filters: Filters) -> None:
    """Events per day and the held area over the whole story, with the chapters marked."""
    args = _args(shown, filters)
    try:
        bars, line = _chart_pictures(*args)
    except PictureError:
        st.caption("The timeline's charts could not be drawn this time; they are tried again.")
        return
    finally:
        with _EARLY_LOCK:
            _EARLY.pop(args, None)  # begun, then found kept in memory (or failed)
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
