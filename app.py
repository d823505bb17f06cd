"""Dateline: a news story as places and dates on a map. Layout, widgets, caching and state only."""

from __future__ import annotations

import os
import time
from datetime import date, timedelta
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from streamlit_folium import st_folium

from geo.map.assets import install_static
from geo.map.layers import (
    CATEGORY_COLOURS,
    base_map,
    figures_text,
    fmt_day,
    fmt_span,
    parse_key,
    reported_text,
    story_layers,
)
from geo.map.scale import DETAIL_LIMIT, Viewport, needs_viewport, place_codes
from geo.story.details import convoy_details, front_details, place_details
from geo.story.events_store import TABLE_COLUMNS, open_story, story_window
from geo.story.export import events_csv_parts, events_geojson_parts
from geo.story.library import DEFAULT_STORY, find_stories
from geo.story.load import FIGURES, Story, StoryError
from geo.story.storage import story_zip
from geo.story.timeline import all_actors, events_per_day, held_area_series
from geo.story.urlstate import LAYERS, View, parse_view, to_params

ROOT = Path(__file__).resolve().parent
ONLINE_TILES = os.environ.get("DATELINE_ONLINE_TILES", "").lower() in ("1", "true", "yes")
# Seconds between frames of Play; tests set 0 to play a whole story in one run.
DETAIL_ROWS = 50  # events listed for one clicked place
TABLE_ROWS = 1000  # a bigger table costs megabytes per rerun; downloads carry everything
PLAY_STEP_SECONDS = float(os.environ.get("DATELINE_PLAY_STEP", "0.8"))
NEW_STORY_PAGE = "pages/1_New_story_from_an_article.py"

st.set_page_config(page_title="Dateline", layout="wide")
# Streamlit's default top padding pushes the map below the fold on a laptop screen.
# The map's frame follows the window's height (js/basemap.js fills the frame), so the whole map
# fits a laptop screen: a frame reaching below the fold scrolls the page on the first click.
st.markdown(
    "<style>.block-container{padding-top:1.2rem;padding-bottom:1rem}"
    ".block-container h4{padding-top:0}"
    "iframe[title='streamlit_folium.st_folium']{height:clamp(300px,calc(100vh - 250px),640px)"
    " !important}</style>",
    unsafe_allow_html=True,
)


@st.cache_resource
def _static_ready() -> Path:
    return install_static(ROOT / "static", ROOT / "data" / "basemap")


@st.cache_resource(max_entries=4)
def _load(path: str, fingerprint: tuple) -> Story:
    # fingerprint (file names and mtimes) is hashed with the path: an edited story reloads.
    # cache_resource, not cache_data: a big story is shared read-only instead of copied per rerun.
    # A big story's events stay on disk (geo/story/events_store.py), checked once and cached.
    return open_story(path)


def _fingerprint(path: Path) -> tuple:
    return tuple(sorted((f.name, f.stat().st_mtime_ns) for f in path.iterdir() if f.is_file()))


@st.cache_resource(max_entries=4)
def _facets(path: str, fingerprint: tuple) -> tuple[list[str], list[str], dict[str, str]]:
    # Once per story: scanning a million events' actors on every rerun would cost seconds.
    story = _load(path, fingerprint)
    order = list(CATEGORY_COLOURS)
    cats = sorted(story.events["category"].unique(), key=lambda c: (order.index(c), c))
    names = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    return cats, story.store.actors if story.store else all_actors(story.events), names


def get_story(story_id: str) -> tuple[Story, tuple[list[str], list[str], dict[str, str]]]:
    """The story and its facets (categories, actors, source names), both cached per version."""
    path = stories[story_id].path
    fingerprint = _fingerprint(path)
    return _load(str(path), fingerprint), _facets(str(path), fingerprint)


_static_ready()
stories = find_stories()
if not stories:
    st.error("No stories found: data/stories is empty.")
    st.stop()
default_story = DEFAULT_STORY if DEFAULT_STORY in stories else next(iter(stories))


def _describe(story_id: str):
    try:
        s, (cats, acts, _) = get_story(story_id)
    except StoryError:
        return (date.min, date.max), [], []
    return (s.start, s.end), cats, acts


# --- state from the URL, once per session ------------------------------------------------------
if "view" not in st.session_state:
    view, notices = parse_view(
        st.query_params.to_dict(),
        stories=list(stories),
        default_story=default_story,
        span_of=lambda s: _describe(s)[0],
        categories_of=lambda s: _describe(s)[1],
        actors_of=lambda s: _describe(s)[2],
    )
    st.session_state.view = view
    st.session_state.notices = notices
    st.session_state.story_pick = view.story
    st.session_state.window = (view.start, view.end)
    st.session_state.selected = view.selected
    st.session_state.playing = False
    st.session_state.cats_for = None
    if view.categories is not None:
        st.session_state.categories = list(view.categories)
        st.session_state.cats_for = view.story
    st.session_state.actors = list(view.actors)
    for layer in LAYERS:
        st.session_state[f"layer_{layer}"] = layer in view.layers

# --- sidebar: story, dates, filters, layers -----------------------------------------------------
with st.sidebar:
    st.markdown("### Dateline")
    st.page_link("app.py", label="Map of the story")
    st.page_link(NEW_STORY_PAGE, label="New story from an article")
    story_id = st.selectbox(
        "Story",
        list(stories),
        format_func=lambda s: stories[s].title + ("" if stories[s].bundled else " (yours)"),
        key="story_pick",
    )

try:
    story, (categories, actors, source_names) = get_story(story_id)
except StoryError as exc:
    st.error(f"This story cannot be shown: {len(exc.problems)} problem(s) in its files.")
    st.code("\n".join(str(p) for p in exc.problems), language=None)
    st.stop()

# A story switch resets the window and filters to the new story's own.
if st.session_state.get("window_for") != story_id:
    if st.session_state.get("window_for") is not None:
        st.session_state.window = (story.start, story.end)
        st.session_state.selected = None
        st.session_state.actors = []
    st.session_state.window_for = story_id
if st.session_state.cats_for != story_id:
    st.session_state.categories = categories
    st.session_state.cats_for = story_id

# Play: each rerun moves the window's end one day until the story's last day.
if st.session_state.playing:
    lo, hi = st.session_state.window
    if hi >= story.end:
        st.session_state.playing = False
    else:
        st.session_state.window = (lo, hi + timedelta(days=1))

# --- header: title, then the timeline right above the map ----------------------------------------
st.markdown(f"#### {escape(story.title)}")
if story.meta.get("draft"):
    st.warning(
        "Draft: some event summaries still quote the source article word for word. Rewrite "
        "them in events.csv before publishing."
    )
for notice in st.session_state.notices:
    st.info(notice)
st.session_state.notices = []

# The slider sits above the map, not in the sidebar: on a phone the sidebar covers the map.
slider_col, play_col, reset_col = st.columns([10, 1.3, 1.3], vertical_alignment="bottom")
with slider_col:
    start, end = st.slider(
        "Dates",
        min_value=story.start,
        max_value=story.end,
        step=timedelta(days=1),
        format="D MMM YYYY",
        key="window",
        help="Drag either end; the map shows what happened inside the window and the convoy "
        "and front lines as they stood on its last day.",
    )
if st.session_state.playing:
    if play_col.button("Pause", width="stretch"):
        st.session_state.playing = False
        st.rerun()
elif play_col.button("Play", width="stretch", help="Step the end date day by day"):
    if end >= story.end:
        st.session_state.window = (start, start)
    st.session_state.playing = True
    st.rerun()


def _reset():
    st.session_state.window = (story.start, story.end)
    st.session_state.categories = categories
    st.session_state.actors = []
    st.session_state.playing = False


reset_col.button("Reset", width="stretch", on_click=_reset)

with st.sidebar:
    chosen_categories = st.multiselect("Categories", categories, key="categories")
    chosen_actors = st.multiselect(
        "Actors",
        actors,
        key="actors",
        placeholder="All actors",
        help="Events involving any of these",
    )
    st.caption("Layers")
    layer_cols = st.columns(2)
    layers = {
        layer
        for n, layer in enumerate(LAYERS)
        if layer_cols[n % 2].toggle(layer.capitalize(), key=f"layer_{layer}")
    }
    st.download_button(
        "Download this story (zip)",
        lambda: story_zip(story.path),
        f"{story_id}.zip",
        "application/zip",
        width="stretch",
        help="The story's files; upload the zip on the New story page to add it back.",
        on_click="ignore",
    )
    with st.expander("About this story"):
        st.write(story.summary)

# A big story's window has only the map's columns unless it is small enough to list;
# window_rows() and window_parts() read every column of (the first rows of) the window.
events = story_window(story, start, end, chosen_categories, chosen_actors, full_upto=DETAIL_LIMIT)


def window_parts():
    # A big window is written a row group at a time, so a download never holds it whole.
    if story.store is None or "summary" in events:
        return [events]
    return story.store.frames(start, end, chosen_categories, chosen_actors)


def window_rows(limit: int | None = None, columns=None) -> pd.DataFrame:
    if story.store is None or "summary" in events:
        return events if limit is None else events.head(limit)
    return story.store.window(
        start, end, chosen_categories, chosen_actors, columns=columns, limit=limit
    )


# --- URL reflects the current view --------------------------------------------------------------
view = View(
    story_id,
    start,
    end,
    None if chosen_categories == categories else tuple(chosen_categories),
    tuple(chosen_actors),
    frozenset(layers),
    st.session_state.selected,
)
params = to_params(view, default_story=default_story, span=(story.start, story.end))
if params != st.query_params.to_dict():
    st.query_params.from_dict(params)


@st.cache_resource(max_entries=4)
def _place_codes(path: str, fingerprint: tuple) -> np.ndarray:
    # Each event's row in places.csv, once per story: a big window is then counted, not searched.
    s = _load(path, fingerprint)
    return place_codes(s.events, s.places)


map_col, detail_col = st.columns([7, 3], gap="medium")
with map_col:
    window_text = fmt_span(pd.Timestamp(start), pd.Timestamp(end))
    st.caption(f"{len(events):,} events · {window_text} · convoy and fronts as of {fmt_day(end)}")
    fmap = base_map(story, online_tiles=ONLINE_TILES)
    map_key = f"map-{story_id}"
    # A big story is drawn for the reader's view only, so zooming and panning rerun the script
    # (st_folium leaves its last zoom and bounds in session state); a small one never reruns.
    big = needs_viewport(len(story.events), len(story.places))
    scaled = {}
    if big:
        story_path = stories[story_id].path
        scaled = {
            "viewport": Viewport.from_state(st.session_state.get(map_key)),
            "codes": _place_codes(str(story_path), _fingerprint(story_path)),
        }
    # The story's own opening view for the whole story; a narrower window or a selection (from a
    # link, say) is framed at once.
    fit_first = (start, end) != (story.start, story.end) or bool(st.session_state.selected)
    groups = story_layers(
        story,
        events,
        end,
        layers,
        selected=st.session_state.selected,
        fit_first=fit_first,
        **scaled,
    )
    clicked = st_folium(
        fmap,
        key=map_key,
        feature_group_to_add=groups,
        returned_objects=["last_object_clicked_tooltip", *(["zoom", "bounds"] if big else [])],
        use_container_width=True,
        height=620,
    )
    if ONLINE_TILES:
        st.caption("Online tiles are enabled: switch them on in the map's layer menu.")

tip = (clicked or {}).get("last_object_clicked_tooltip")
if tip and tip != st.session_state.get("last_tip"):
    st.session_state.last_tip = tip
    key = parse_key(tip)
    if key:
        st.session_state.selected = f"{key[0]}:{key[1]}"
        st.rerun()


def _source_name(source_id: str) -> str:
    return source_names.get(source_id, source_id)


def _event_lines(evs: pd.DataFrame) -> None:
    if len(evs) > DETAIL_ROWS:
        st.caption(f"The latest {DETAIL_ROWS} of {len(evs):,}; narrow the dates to see others.")
        evs = evs.tail(DETAIL_ROWS)
    for _, ev in evs.iterrows():
        colour = CATEGORY_COLOURS.get(ev["category"], "#666")
        when = fmt_span(ev["date"], ev["end_date"] if pd.notna(ev["end_date"]) else ev["date"])
        figs = figures_text(ev)
        src = _source_name(ev["source"]) + (
            f", {ev['source_detail']}" if ev["source_detail"] else ""
        )
        conf = ev["confidence"] + (f": {ev['confidence_note']}" if ev["confidence_note"] else "")
        st.markdown(
            f'<div class="dl-detail"><span style="background:{colour};color:#fff;'
            f'border-radius:3px;padding:0 4px;font-size:.8em">{escape(ev["category"])}</span> '
            f"<b>{escape(when)}</b><br>{escape(ev['summary'])}"
            + (f"<br><i>{escape(figs)}</i>" if figs else "")
            + f'<br><small style="color:#555">Source: {escape(src)} · {escape(conf)}</small></div>',
            unsafe_allow_html=True,
        )


with detail_col:
    st.markdown("#### Details")
    sel = st.session_state.selected
    kind, _, sel_id = (sel or "").partition(":")
    if kind == "place" and (d := place_details(story, sel_id, start, end)):
        st.markdown(f"**{escape(d['name'])}** · {escape(d['kind'])}, {escape(d['country'])}")
        if d["aliases"]:
            st.caption("Also spelled: " + ", ".join(d["aliases"]))
        radius = d["radius_m"]
        st.caption(
            f"{d['lat']:.4f}, {d['lon']:.4f} ± "
            + (f"{radius / 1000:g} km" if radius >= 1000 else f"{radius} m")
            + f" · {d['coord_source']}"
        )
        if d["distances_km"]:
            st.caption(
                " · ".join(f"{km:,.0f} km from {name}" for name, km in d["distances_km"].items())
            )
        if d["events"].empty:
            st.write("No events here inside the date window.")
        else:
            st.markdown(f"{len(d['events'])} event(s) in the window:")
            _event_lines(d["events"])
    elif kind == "convoy" and (d := convoy_details(story, sel_id)):
        where = d["place_name"] or f"{d['lat']:.2f}, {d['lon']:.2f}"
        st.markdown(f"**Convoy · {fmt_day(d['date'])}** ({escape(d['group'])})")
        st.write(f"{d['status'].capitalize()} near {where} (± {d['radius_m'] / 1000:g} km)")
        st.write(d["note"])
        st.caption(
            f"Travelled {d['travelled_km']:,.0f} km (geodesic) by then · "
            f"Source: {_source_name(d['source'])}"
        )
    elif kind == "front" and (d := front_details(story, sel_id)):
        side = "Lebanese" if d["side"] == "LB" else "Syrian"
        st.markdown(f"**ISIS-held enclave, {side} side**")
        st.write(
            f"{fmt_span(d['valid_from'], d['valid_to'])}: reported "
            f"{reported_text(d['reported_km2'])}, "
            f"drawn outline {d['drawn_km2']:g} km²."
        )
        if d.get("note"):
            st.write(d["note"])
        st.caption(
            "Approximate outline: no public map exists; the shape is sized to the reported "
            f"area. Source: {_source_name(d['source'])}"
        )
    else:
        st.write("Click a marker, the convoy or the enclave on the map to see what happened there.")

# --- timeline charts ------------------------------------------------------------------------------
chart_a, chart_b = st.columns(2)
with chart_a:
    st.markdown("##### Events per day")
    per_day = events_per_day(events, start, end)
    if per_day.empty or per_day.to_numpy().sum() == 0:
        st.caption("No events in the window.")
    else:
        cols = list(per_day.columns)
        st.bar_chart(
            per_day, color=[CATEGORY_COLOURS.get(c, "#666") for c in cols], height=220, stack=True
        )
with chart_b:
    st.markdown("##### ISIS-held area (reported km²)")
    area = held_area_series(story.fronts, story.start, story.end)
    if area.empty or area.dropna(how="all").empty:
        st.caption("This story has no front lines.")
    else:
        area = area.rename(columns={"LB": "Lebanese side", "SY": "Syrian side"}).dropna(how="all")
        st.line_chart(area, height=220, color=["#b3261e", "#6b2c91"][: len(area.columns)])

# --- the filtered events, with downloads ---------------------------------------------------------
st.markdown("##### Events in the window")
shown = window_rows(TABLE_ROWS, TABLE_COLUMNS)
if len(events) > TABLE_ROWS:
    st.caption(
        f"Showing the first {TABLE_ROWS:,} of {len(events):,} events; the downloads hold them all."
    )
table = pd.DataFrame(
    {
        "date": shown["date"].dt.date,
        "place": shown["place_name"],
        "category": shown["category"],
        "summary": shown["summary"],
        # Records, not iterrows(): a Series per row costs ~0.3 ms, 1,000 rows a third of a second.
        "figures": [figures_text(r) for r in shown[list(FIGURES)].to_dict("records")],
        "source": shown["source"].map(_source_name),
        "confidence": shown["confidence"],
    }
)
st.dataframe(table, hide_index=True, width="stretch", key="events_table")
dl_a, dl_b, _ = st.columns([1, 1, 4])
stem = f"{story_id}_{start}_{end}"
# Callables: the files are made only when a reader clicks, not on every rerun.
dl_a.download_button(
    "Download CSV",
    lambda: events_csv_parts(window_parts()),
    f"{stem}.csv",
    "text/csv",
    on_click="ignore",
)
dl_b.download_button(
    "Download GeoJSON",
    lambda: events_geojson_parts(window_parts()),
    f"{stem}.geojson",
    "application/geo+json",
    on_click="ignore",
)

if st.session_state.playing:
    # The pause between frames is the animation itself, not a wait for something to finish.
    time.sleep(PLAY_STEP_SECONDS)
    st.rerun()
