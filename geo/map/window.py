"""A big story's window as one JSON document for the map's own script (``js/story.js``).

A story of more than ``payload.BROWSER_LIMIT`` events is too big to send whole: the server
filters the window and, per rerun, sends what the reader's view needs, in the whole payload's
shape (``geo.map.payload``) so the same script draws both. Events arrive counted per place
(``summary``), or merged into grid clusters where the view holds too many places
(``geo.map.scale``); places, convoy and enclave are only those of the view and the day.
"""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from geo.map import scale
from geo.map.payload import (
    BROWSER_LIMIT,
    convoy_day,
    convoy_rows,
    front_rows,
    place_rows,
    records,
    story_frame,
)
from geo.map.text import keyed_tip, plural
from geo.story.load import Story
from geo.story.timeline import convoy_until, fronts_on, used_values


def needs_window(n_events: int, n_places: int, limit: int | None = None) -> bool:
    """True when a story is too big to send whole: more than ``limit`` (``BROWSER_LIMIT``)
    events, or more places than the map draws one by one. Its map then depends on the reader's
    zoom and bounds."""
    return n_events > (BROWSER_LIMIT if limit is None else limit) or n_places > scale.POINT_LIMIT


def _days(values: pd.Series) -> list[str]:
    """ISO days, all at once (a Timestamp each is ~40 µs: 2,000 places took 80 ms)."""
    return np.datetime_as_string(values.to_numpy(dtype="datetime64[D]"), unit="D").tolist()


def _counted(story: Story, window: pd.DataFrame, index: scale.PlaceIndex | None, span):
    """The window's events per place row, and a function of wanted place rows giving their
    ``scale.place_summary``; ``span`` is ``index.span(window)``."""
    n = len(story.places)
    if span is not None:
        groups = index.groups(span, n)
        return groups[1] - groups[0], lambda wanted: index.summary(window, span, groups, wanted)
    codes = scale.window_codes(window, story.places, None if index is None else index.codes)
    counts = scale.place_counts(codes, n)
    return counts, lambda wanted: scale.place_summary(window, codes, wanted, counts)


def _rows(story: Story, window: pd.DataFrame, counts, viewport: scale.Viewport | None):
    """(place rows drawn singly, grid clusters, whether the events were cut to the view)."""
    if len(window) <= scale.DETAIL_LIMIT:
        # A few events are all drawn, wherever they are: the map can frame them.
        return np.flatnonzero(counts), [], False
    lat = story.places["lat"].to_numpy(dtype=float, na_value=np.nan)
    lon = story.places["lon"].to_numpy(dtype=float, na_value=np.nan)
    plan = scale.plan_layer(lat, lon, counts, viewport or scale.default_viewport(story.places))
    return plan.places, _clusters(plan), True


def _clusters(plan: scale.Plan) -> list[dict]:
    """The plan's grid clusters: count, label, where, and the bounds a click zooms to."""
    zoom_to = min(plan.zoom + 3, scale.MAX_ZOOM)
    out = []
    for c in records(plan.clusters, index=False):
        n, key = int(c.events), f"cluster:{c.key}"
        tip = f"{plural(n, 'event')} at {plural(c.points, 'place')} · click to zoom in"
        out.append(
            {
                "key": key,
                "n": n,
                "label": scale.short_count(n),
                "tip": keyed_tip(tip, key),
                "lat": round(float(c.lat), 5),
                "lon": round(float(c.lon), 5),
                "bounds": [[c.south, c.west], [c.north, c.east]],
                "zoom_to": zoom_to,
            }
        )
    return out


def _selected_rows(frame: pd.DataFrame, selected: str | None, kind: str) -> pd.DataFrame:
    """The row of ``frame`` the selection names, if it is of ``kind``."""
    sel_kind, _, sel_id = (selected or "").partition(":")
    return frame[frame["id"] == sel_id] if sel_kind == kind else frame.iloc[:0]


def _places(story: Story, singles, viewport, selected: str | None) -> pd.DataFrame:
    """The places the window draws: those in view (none when too many), the ones with events
    drawn singly and the selected one, in story order."""
    places = story.places
    lat = places["lat"].to_numpy(dtype=float, na_value=np.nan)
    lon = places["lon"].to_numpy(dtype=float, na_value=np.nan)
    view = (viewport or scale.default_viewport(places)).area().contains(lat, lon)
    rows = view if view.sum() <= scale.POINT_LIMIT else np.zeros(len(places), dtype=bool)
    rows[np.asarray(singles, dtype=np.int64)] = True
    rows |= places["id"].isin(_selected_rows(places, selected, "place")["id"]).to_numpy()
    return places[rows]


def _summary(summarise, singles, place_index: dict[int, int], cats) -> list:
    """Per place drawn singly: [place index, events, first day, last day, latest category], in
    the order the places first appear in the window (as the map's script counts a whole story).
    """
    summary = summarise(np.asarray(singles, dtype=np.int64))
    # In the order the places first appear in the window, as the map's script counts.
    summary = summary.sort_values("order", kind="stable")
    cat_index = {c: n for n, c in enumerate(cats)}
    first, last = (_days(summary[col]) for col in ("first", "last"))
    return [
        [place_index[row], int(n), a, b, cat_index[c]]
        for row, n, a, b, c in zip(
            summary.index, summary["events"], first, last, summary["category"], strict=True
        )
    ]


def _convoy_and_fronts(story: Story, end: date, selected: str | None) -> dict:
    """The convoy as far as ``end`` and the enclave drawn on it, keyed by ``end`` (what the
    whole payload keys by the day of each change), plus the selected one of either."""
    convoy = story.convoy
    seen = convoy_until(convoy, end) if len(convoy) else convoy
    chosen = _selected_rows(convoy, selected, "convoy")
    rows = pd.concat([seen, chosen[~chosen["id"].isin(seen["id"])]])
    positions = convoy_rows(story, rows)
    out: dict = {"convoy": positions, "days": {}, "fronts": [], "front_days": {}}
    drawn = len(seen) and convoy_day(story, end, {c["id"]: n for n, c in enumerate(positions)})
    if drawn:
        out["days"][end.isoformat()] = drawn
    if len(story.fronts):
        on = fronts_on(story.fronts, end)
        picked = _selected_rows(story.fronts, selected, "front")
        fronts = front_rows(story, pd.concat([on, picked[~picked["id"].isin(on["id"])]]))
        out["fronts"] = fronts
        out["front_days"][end.isoformat()] = list(range(len(on)))
    return out


def window_payload(
    story: Story,
    window: pd.DataFrame,
    end: date,
    *,
    viewport: scale.Viewport | None = None,
    index: scale.PlaceIndex | None = None,
    selected: str | None = None,
) -> dict:
    """What the map's script draws for ``window`` (a filtered slice of story.events) ending on
    ``end``, in ``viewport`` (st_folium's zoom and bounds; None: the opening view).

    ``index`` is the ``scale.PlaceIndex`` of story.events, cached by the caller. ``scope`` says
    whether the events are those of the whole window or only of the view: a map is framed on
    the former, never on the latter (a view framed on itself would chase its own reruns).
    """
    # Whether the window is a run of the story's rows: then the index answers without a pass.
    span = None if index is None else index.span(window)
    counts, summarise = _counted(story, window, index, span)
    singles, clusters, cut = _rows(story, window, counts, viewport)
    places = _places(story, singles, viewport, selected)
    place_index = {int(r): n for n, r in enumerate(story.places.index.get_indexer(places.index))}
    cats = (span and index.categories_in(span)) or sorted(used_values(window["category"]))
    return {
        **story_frame(story, cats),
        "kind": "window",
        "scope": "view" if cut else "window",
        "places": place_rows(places),
        "summary": _summary(summarise, singles, place_index, cats),
        "clusters": clusters,
        **_convoy_and_fronts(story, end, selected),
    }
