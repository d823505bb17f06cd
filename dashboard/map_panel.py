"""The map panel: the window's events, convoy and fronts on the map; a click selects."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
import streamlit.components.v1 as components
from streamlit_folium import st_folium

from dashboard.chapters import chapter_view
from dashboard.dates import DATES_LABEL, play_pace
from dashboard.reruns import play_step_seconds, rerun_panel, whole_page
from dashboard.search import found_on_map, place_search
from dashboard.sidebar import TILE_NAMES
from dashboard.state import ViewState
from dashboard.stories import Filters, Shown, load, place_index
from dashboard.stories import fingerprint as _fingerprint
from geo.atomic import atomic_write_text
from geo.map.layers import base_map, browser_layers, paint_report
from geo.map.payload import payload_json
from geo.map.scale import Viewport
from geo.map.text import fmt_day, fmt_span, parse_key, plural
from geo.map.window import needs_window, window_payload
from geo.names import literal
from geo.paths import default_cache_dir, prune_oldest
from geo.story.events_store import Narrow
from geo.story.timeline import narrow_mask

# A story's data for the map's script goes to the cache folder, one file per story version, and
# the newest PAYLOADS_KEPT are kept (a cache shared by several servers holds their stories).
PAYLOADS_KEPT = 32

MAP_KEY = "dl_map"  # the map's column, found by the page's style


@st.cache_resource
def _served(folder: str) -> str:
    """The URL the payloads' folder is served at."""
    # Streamlit serves files from ./static beside app.py only, and the checkout may be read-only
    # (several servers, a container): so the payloads are written to the cache folder and served
    # by a custom component declared on it (Streamlit serves a component's folder at
    # /component/<name>/, with Cache-Control: public). The component is never drawn; only its
    # files are fetched, by the map's script (js/story.js), from the same server.
    Path(folder).mkdir(parents=True, exist_ok=True)
    served = components.declare_component("story_data", path=folder)
    return f"/component/{served.name}"


@st.cache_resource(max_entries=8)
def _payload(path: str, fingerprint: tuple) -> tuple[str, str]:
    # Once per story version: the file's name carries its content hash, so browsers cache it.
    loaded = load(path, fingerprint)
    text, digest = payload_json(loaded)
    return f"{loaded.id}-{digest}.json", text


def _payload_url(path: str, fingerprint: tuple) -> str:
    """The URL of the story's payload, written to the cache folder unless it is there."""
    name, text = _payload(path, fingerprint)
    folder = default_cache_dir() / "story-data"
    url = _served(str(folder))
    target = folder / name
    # Checked on each run (a stat): another server on the same cache may have pruned it.
    if not target.exists():
        atomic_write_text(target, text)
        prune_oldest(folder, PAYLOADS_KEPT, "*.json", spare=target)
    return f"{url}/{name}"


def map_head(shown: Shown, state: ViewState, events: pd.DataFrame, start: date, end: date) -> None:
    """The window's events count and the place search, at the top of the panel beside the map
    (on a phone: under it): above the map they took a row of a laptop's first screen."""
    story, words = shown.story, shown.words
    window_text = fmt_span(pd.Timestamp(start), pd.Timestamp(end))
    parts = ((literal(words["convoy"]), story.convoy), (literal(words["enclave"]), story.fronts))
    as_of = [w for w, df in parts if not df.empty]
    # The map's date box says "As of …"; which layers are drawn as of the last day is on hover.
    st.caption(
        f"{plural(len(events), 'event')} · {window_text}",
        help=f"{' and '.join(as_of).capitalize()} as of {fmt_day(end)}" if as_of else None,
    )
    place_search(shown, state)


def story_map(
    start: date,
    end: date,
    events: pd.DataFrame,
    shown: Shown,
    chosen: Filters,
    state: ViewState,
    whole: bool,
) -> None:
    """The folium map of the window; a click on an object selects it."""
    # Its inputs, under the names it read as app.py's globals.
    story, story_id = shown.story, shown.id
    chosen_categories = chosen.categories_or_all(shown)
    chosen_actors = chosen.actors_or_all(shown)
    layers, tiles = chosen.layers, chosen.tiles
    pinned = state.pinned if state.pinned_for in (None, story_id) else None
    state.pinned_for = story_id
    # Built anew on each run: st_folium renames the map while rendering it, so a kept map
    # would render its header twice.
    fmap = base_map(story, tiles=tiles, pinned=pinned)
    map_key = f"map-{story_id}"
    # Every story is drawn by the map's script. A small one arrives whole and the browser applies
    # the window, so a move never reruns; a big one arrives as its window for the reader's view,
    # so zooming and panning rerun the script (st_folium leaves its zoom and bounds in session
    # state).
    big = needs_window(len(story.events), len(story.places))
    data = _map_data(shown, state, events, end, map_key, big)
    # The story's own opening view for the whole story; a narrower window or a selection (from a
    # link, say) is framed at once.
    fit_first = pinned is None and (
        (start, end) != (story.start, story.end) or bool(state.selected)
    )
    groups = browser_layers(
        data,
        start,
        end,
        chosen_categories,
        chosen_actors,
        layers,
        state.selected,
        fit_first=fit_first,
        animate=state.playing,
        # The convoy arrives a little before the next day is sent.
        step_ms=int(play_pace(state.speed, play_step_seconds())[0] * 850),
        follow=DATES_LABEL,
        killed=chosen.killed,
        only=None if big else _kept_rows(shown, chosen),
        found=found_on_map(state),
        **chapter_view(shown, state),
    )
    if not whole:
        groups.append(paint_report())
    clicked = st_folium(
        fmap,
        key=map_key,
        feature_group_to_add=groups,
        returned_objects=["last_object_clicked_tooltip", *(["zoom", "bounds"] if big else [])],
        use_container_width=True,
        height=620,
        # st_folium renders the map itself as well: its whole page rendered first changes
        # nothing that is sent (the same arguments, checked) and took half of its time.
        render=False,
    )
    _map_notes(data if big else None, tiles)
    if not whole and (clicked or {}).get("dl_painted"):
        whole_page(state)
    _take_click(state, (clicked or {}).get("last_object_clicked_tooltip"))


def _kept_rows(shown: Shown, chosen: Filters) -> list[int] | None:
    """The positions of the events that pass the country, text, admin1 and sub-type filters (the
    payload the browser filters has none of those columns); None when none is on."""
    narrow = chosen.narrow(shown)
    if narrow is None or replace(narrow, killed=None) == Narrow():
        return None
    story = shown.story
    return np.flatnonzero(
        narrow_mask(story.events, story.places, replace(narrow, killed=None))
    ).tolist()


def _map_data(
    shown: Shown, state: ViewState, events: pd.DataFrame, end: date, map_key: str, big: bool
) -> dict | str:
    """What the map's script draws: a big story's window for the reader's view, else the URL of
    the small story's whole payload (the browser applies the window)."""
    story_path = shown.path
    if not big:
        return _payload_url(str(story_path), _fingerprint(story_path))
    return window_payload(
        shown.story,
        events,
        end,
        viewport=Viewport.from_state(state.map_report(map_key)),
        index=place_index(str(story_path), _fingerprint(story_path)),
        selected=state.selected,
    )


def _map_notes(window: dict | None, tiles: str) -> None:
    """The lines under the map: a big window's grid, online tiles that need the internet."""
    if window and window["clusters"]:
        # The aggregated view (geo/map/window.py): said in words, as the discs alone read as
        # markers.
        st.caption(
            f"Zoomed out over many places: events counted in a grid ({len(window['clusters'])} "
            "cells, each disc's number is its events); click one or zoom in to see places."
        )
    if tiles != "offline":
        st.caption(
            f"{TILE_NAMES[tiles]} needs the internet; where its tiles do not load, the offline "
            "map shows through."
        )


def _take_click(state: ViewState, tip: str | None) -> None:
    """A click on an object (its tooltip carries its key) selects it, once per click."""
    if tip and tip != state.last_tip:
        state.last_tip = tip
        key = parse_key(tip)
        if key:
            state.selected = f"{key[0]}:{key[1]}"
            rerun_panel()
