"""Dateline: a news story as places and dates on a map. Layout, widgets, caching and state only."""

from __future__ import annotations

import gc
import importlib.metadata
import inspect
import json
import os
import time
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit_folium import st_folium

from geo.atomic import atomic_write_text
from geo.geocoders.gazetteer import default_cache_dir
from geo.map.assets import install_static
from geo.map.layers import ONLINE_TILES, base_map, browser_layers, paint_report
from geo.map.payload import payload_json
from geo.map.publish import publish_html
from geo.map.scale import DETAIL_LIMIT, Viewport, place_codes
from geo.map.style import CATEGORY_COLOURS, SIDE_STYLE, families_of, family
from geo.map.text import figures_text, fmt_day, fmt_span, parse_key, reported_text
from geo.map.window import needs_window, window_payload
from geo.names import literal, upper_first
from geo.story.chapters import chapter_bounds, chapter_for_url, chapter_marks
from geo.story.details import convoy_details, front_details, place_details
from geo.story.events_store import TABLE_COLUMNS, open_story, story_window
from geo.story.export import events_geojson_parts, events_spreadsheet_parts
from geo.story.library import DEFAULT_STORY, clean_stale, find_stories, user_stories_dir
from geo.story.load import (
    FIGURES,
    Problem,
    Story,
    StoryError,
    problem_text,
    story_words,
    unreadable,
)
from geo.story.load import source_names as cited_names
from geo.story.pictures import PictureError, cached_svg
from geo.story.storage import story_zip
from geo.story.timeline import all_actors, chart_period, events_per_period, held_area_long
from geo.story.urlstate import (
    LAYERS,
    TILES,
    View,
    parse_map_view,
    parse_tiles,
    parse_view,
    to_params,
)

# Every value from a story file or the URL is shown through literal(): markdown that displays
# exactly its text (no bold, link or image from data); literal(..., html=True) inside HTML.

if TYPE_CHECKING:
    import altair as alt

ROOT = Path(__file__).resolve().parent
# DATELINE_ONLINE_TILES sets the default base layer: 1/true for OpenStreetMap, or a TILES name.
_TILES_ENV = os.environ.get("DATELINE_ONLINE_TILES", "").lower()
DEFAULT_TILES = "osm" if _TILES_ENV in ("1", "true", "yes") else parse_tiles(_TILES_ENV)
TILE_NAMES = {"offline": "Offline map", **{k: v[0] for k, v in ONLINE_TILES.items()}}
# Seconds between frames of Play; tests set 0 to play a whole story in one run.
DETAIL_ROWS = 50  # events listed for one clicked place
TABLE_ROWS = 1000  # a bigger table costs megabytes per rerun; downloads carry everything
PLAY_STEP_SECONDS = float(os.environ.get("DATELINE_PLAY_STEP", "0.8"))
# Seconds each chapter stays on screen during the Tour (tests set it short).
TOUR_STEP_SECONDS = float(os.environ.get("DATELINE_TOUR_STEP", "8"))
NEW_STORY_PAGE = "pages/1_New_story_from_an_article.py"
# Shown in the sidebar until the map has painted and the whole page is drawn (tests wait on it).
LOADING_TEXT = "Filters and layers appear once the map is drawn …"
# The chapter bar's height (a row of buttons in a bordered box), held for it by the first run.
CHAPTER_BAR_PX = 72
# The whole page is drawn this long after the first run if the map never says it has painted.
REST_FALLBACK_SECONDS = 4.0
# The date slider's label: the map finds the slider by it and follows its thumbs.
DATES_LABEL = "Dates"
# The timeline charts are drawn this wide and scaled to their column: 1.3x on a laptop, 0.8x on a
# phone, where the columns stack.
CHART_WIDTH = 380

st.set_page_config(page_title="Dateline", layout="wide")
# Streamlit's default top padding pushes the map below the fold on a laptop screen.
# The map's frame follows the window's height (js/basemap.js fills the frame), so the whole map
# fits a laptop screen: a frame reaching below the fold scrolls the page on the first click.
# st.html, not markdown with HTML: that loads a 190 KB script before the map (0.1-0.2 s).
st.html(
    "<style>.block-container{padding-top:1.2rem;padding-bottom:1rem}"
    ".block-container h3{padding-top:0;font-size:1.25rem;line-height:1.3}"
    ".dl-marks{position:relative;height:14px;margin:-22px 0 0}"
    ".dl-marks span{position:absolute;transform:translateX(-50%);font-size:10px;line-height:14px;"
    "color:#666;cursor:default;border-top:2px solid #999;padding:0 2px}"
    ".st-key-chapter_bar{min-height:" + str(CHAPTER_BAR_PX) + "px}"
    "iframe[title='streamlit_folium.st_folium']{height:clamp(300px,calc(100vh - 250px),640px)"
    " !important}"
    # On a phone Streamlit's header row (the sidebar button) covers the top of the page.
    "@media (max-width: 640px){.block-container{padding-top:3.2rem}}</style>"
)


@st.cache_resource
def _static_ready() -> Path:
    # Once per server start: the temporary folders of saves that were killed half-way go.
    clean_stale(user_stories_dir())
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
    """The story and its facets (categories, actors, source names), both cached per version.

    Raises StoryError, and nothing else, for a story that cannot be shown.
    """
    entry = stories[story_id]
    if entry.problem:
        raise StoryError(entry.path, [Problem("story.toml", "", entry.problem)])
    try:
        fingerprint = _fingerprint(entry.path)
    except OSError as exc:  # the folder went away since it was listed
        raise unreadable(entry.path, exc) from exc
    return _load(str(entry.path), fingerprint), _facets(str(entry.path), fingerprint)


def _story_label(story_id: str) -> str:
    entry = stories[story_id]
    if entry.problem:
        return f"{entry.id} — cannot be shown ({entry.problem})"
    return entry.title + ("" if entry.bundled else " (yours)")


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
    st.session_state.touring = False
    st.session_state.cats_for = None
    if view.categories is not None:
        st.session_state.categories = list(view.categories)
        st.session_state.cats_for = view.story
    st.session_state.actors = list(view.actors)
    qp = st.query_params
    st.session_state.pinned = parse_map_view(qp.get("zoom"), qp.get("center"))
    st.session_state.tiles = parse_tiles(qp.get("tiles"), DEFAULT_TILES)
    st.session_state.chapter_asked = qp.get("chapter")
    st.session_state.chapter = None
    for layer in LAYERS:
        st.session_state[f"layer_{layer}"] = layer in view.layers

# --- the view, kept while another page is open ------------------------------------------------
# A run of the New story page drops this page's widget state (Streamlit keeps only what a run
# draws): a plain copy of each value brings the reader back to the same view. The window is also
# copied by the panel, as a slider move reruns only that.
VIEW_KEYS = (
    "story_pick",
    "window",
    "categories",
    "actors",
    "tiles",
    "show_table",
    *(f"layer_{layer}" for layer in LAYERS),
)
for _key in VIEW_KEYS:
    if _key in st.session_state:
        st.session_state[f"kept_{_key}"] = st.session_state[_key]
    elif f"kept_{_key}" in st.session_state:
        st.session_state[_key] = st.session_state[f"kept_{_key}"]

# --- the map first -----------------------------------------------------------------------------
# A session's first run in a browser draws the title, chapters, dates and map only; once the map
# has painted its story it asks for the rest (js/basemap.js), so the sidebar's controls, the
# details, the table and the timeline do not hold up the map with their JavaScript. AppTest has
# no browser (no User-Agent) and no map to ask: its first run is the whole page.
if "map_first" not in st.session_state:
    st.session_state.map_first = bool(st.context.headers.get("User-Agent"))
WHOLE = not st.session_state.map_first


def _whole_page() -> None:
    st.session_state.map_first = False
    st.rerun()


# --- sidebar: story, dates, filters, layers -----------------------------------------------------
with st.sidebar:
    st.markdown("### Dateline")
    if WHOLE:
        st.page_link("app.py", label="Map of the story")
        st.page_link(NEW_STORY_PAGE, label="New story from an article")
        story_id = st.selectbox(
            "Story",
            list(stories),
            format_func=_story_label,
            key="story_pick",
        )
    else:
        # The sidebar is there from the start, so the map does not shift when it fills.
        st.caption(LOADING_TEXT)
        story_id = st.session_state.get("story_pick")
        story_id = story_id if story_id in stories else default_story

try:
    story, (categories, actors, source_names) = get_story(story_id)
except StoryError as exc:
    if not WHOLE:  # the map will not paint: the picker must be there to choose another story
        _whole_page()
    st.error(f"This story cannot be shown: {len(exc.problems)} problem(s) in its files.")
    st.code(problem_text(exc), language=None)
    st.stop()

# A story switch resets the window and filters to the new story's own.
if st.session_state.get("window_for") != story_id:
    if st.session_state.get("window_for") is not None:
        st.session_state.window = (story.start, story.end)
        st.session_state.selected = None
        st.session_state.actors = []
    st.session_state.window_for = story_id
# A window from elsewhere (a link that named a story that could not be shown, then another
# story picked) is never handed to the slider outside this story's span.
_lo, _hi = st.session_state.window
if not story.start <= _lo <= _hi <= story.end:
    st.session_state.window = (story.start, story.end)
if st.session_state.cats_for != story_id:
    st.session_state.categories = categories
    st.session_state.cats_for = story_id

# --- header: title, then the timeline right above the map ----------------------------------------
# No anchor: its link would be built from the title.
st.subheader(literal(story.title), anchor=False)
if story.meta.get("draft"):
    st.warning(
        "Draft: some event summaries still quote the source article word for word. Rewrite "
        "them in events.csv before publishing."
    )
if st.session_state.notices:
    # One line for every ignored link value: four full-width boxes pushed the map down 280 px.
    st.info(" · ".join(literal(n) for n in st.session_state.notices), icon="🔗")
if WHOLE:  # shown again by the whole page's run
    st.session_state.notices = []


if not WHOLE:
    # The sidebar's filters as the session holds them (from the link, or the defaults).
    chosen_categories = st.session_state.categories
    chosen_actors = st.session_state.actors
    layers = {layer for layer in LAYERS if st.session_state[f"layer_{layer}"]}
    tiles = st.session_state.tiles
else:
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
            "Publish as HTML",
            lambda: publish_html(story, st.session_state.get("chapter")),
            f"{story_id}.html",
            "text/html",
            width="stretch",
            help="One file with the map, the chapters and the sources that opens in any browser "
            "with no internet: for an article, an e-mail or a slide.",
            on_click="ignore",
        )
        st.download_button(
            "Download this story (zip)",
            lambda: story_zip(story.path),
            f"{story_id}.zip",
            "application/zip",
            width="stretch",
            help="The story's files; upload the zip on the New story page to add it back.",
            on_click="ignore",
        )
        tiles = st.selectbox(
            "Base map",
            TILES,
            format_func=TILE_NAMES.get,
            key="tiles",
            help="Online maps need the internet; the offline map stays underneath.",
        )
        with st.expander("About this story"):
            st.markdown(literal(story.summary))


# --- chapters: the story's turning points, each a window, a selection and a frame ---------------
def _chapter(number: int | None):
    """The story's chapter ``number``, or None."""
    return next((c for c in story.chapters if c.number == number), None)


def _open_chapter(number: int | None) -> None:
    chapter = _chapter(number)
    st.session_state.chapter = chapter.number if chapter else None
    if chapter is not None:
        st.session_state.window = (chapter.start, chapter.end)
        st.session_state.selected = chapter.select
        st.session_state.playing = False
        st.session_state.chapter_opened = st.session_state.get("chapter_opened", 0) + 1


def _play(on: bool) -> None:
    st.session_state.playing = on
    st.session_state.play_due = on
    if on:
        st.session_state.touring = False
        start, end = st.session_state.window
        if end >= story.end:  # from the window's first day again
            st.session_state.window = (start, start)


def _tour(on: bool) -> None:
    st.session_state.touring = on
    if on:
        current = st.session_state.get("chapter") or 0
        _open_chapter(current + 1 if 0 < current < len(story.chapters) else 1)


def _reset():
    st.session_state.window = (story.start, story.end)
    st.session_state.categories = categories
    st.session_state.actors = []
    st.session_state.playing = False
    st.session_state.touring = False
    # The sidebar's filters changed too: the whole page must rerun, not only the panel.
    st.session_state.whole_page = True


def _rerun_panel() -> None:
    """Rerun only the story panel when it is the part running, else the whole page."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:  # a full run (the first, or a sidebar change)
        st.rerun()


@st.cache_resource(max_entries=4)
def _place_codes(path: str, fingerprint: tuple) -> np.ndarray:
    # Each event's row in places.csv, once per story: a big window is then counted, not searched.
    s = _load(path, fingerprint)
    return place_codes(s.events, s.places)


@st.cache_resource(max_entries=8)
def _payload_url(path: str, fingerprint: tuple) -> str:
    # Once per story version: the file's name carries its content hash, so browsers cache it.
    loaded = _load(path, fingerprint)
    text, digest = payload_json(loaded)
    name = f"{loaded.id}-{digest}.json"
    target = ROOT / "static" / "story-data" / name
    if not target.exists():
        atomic_write_text(target, text)
    return f"/app/static/story-data/{name}"


@st.cache_resource(max_entries=32)
def _chapter_frame(path: str, fingerprint: tuple, number: int) -> list | None:
    s = _load(path, fingerprint)
    chapter = next((c for c in s.chapters if c.number == number), None)
    return chapter_bounds(s, chapter) if chapter else None


@st.cache_resource(max_entries=8)
def _chapter_labels(path: str, fingerprint: tuple) -> dict[int, str]:
    # The picker's labels, once per story: 9 date spans formatted on every move cost 5-40 ms.
    return {
        c.number: f"{c.number}. {c.title} · {fmt_span(*map(pd.Timestamp, (c.start, c.end)))}"
        for c in _load(path, fingerprint).chapters
    }


def _chapter_view() -> dict:
    chapter = _chapter(st.session_state.get("chapter"))
    if chapter is None:
        return {}
    token = f"{chapter.number}-{st.session_state.get('chapter_opened', 0)}"
    path = stories[story_id].path
    return {
        "view": _chapter_frame(str(path), _fingerprint(path), chapter.number),
        "view_token": token,
    }


def _source_name(source_id: str) -> str:
    return cited_names(source_id, source_names)


def _h(value) -> str:
    return literal(value, html=True)


def _open_now():
    """The open chapter, or None: a window moved away from the chapter's own leaves it."""
    current = _chapter(st.session_state.get("chapter"))
    if current is not None and st.session_state.window != (current.start, current.end):
        st.session_state.chapter, current = None, None
        st.session_state.touring = False
    return current


def chapter_bar() -> None:
    """Prev / picker / Next / Tour."""
    asked = st.session_state.pop("chapter_asked", None)
    if asked is not None:
        found = chapter_for_url(asked, story.chapters)
        if found is None:
            st.caption("The link's chapter does not exist in this story; showing the whole story.")
        _open_chapter(found.number if found else None)
    current = _open_now()
    # Keyed for the page's style: never shorter than the room the first run kept for it.
    with st.container(border=True, key="chapter_bar"):
        number = current.number if current else 0
        path = stories[story_id].path
        labels = _chapter_labels(str(path), _fingerprint(path))
        st.session_state.chapter_pick = number or None
        # One row even on a phone, where columns stack (three rows pushed the map down 180 px).
        with st.container(horizontal=True, vertical_alignment="center", wrap=False):
            st.button(
                "‹ Prev",
                on_click=_open_chapter,
                args=(max(1, number - 1),),
                disabled=number <= 1,
                key="chapter_prev",
            )
            st.selectbox(
                "Chapter",
                list(labels),
                format_func=labels.get,
                key="chapter_pick",
                placeholder=f"The story in {len(story.chapters)} chapters: press Next to begin",
                label_visibility="collapsed",
                on_change=lambda: _open_chapter(st.session_state.chapter_pick),
                width="stretch",
            )
            st.button(
                "Next ›",
                on_click=_open_chapter,
                args=(min(len(story.chapters), number + 1),),
                disabled=number >= len(story.chapters),
                key="chapter_next",
            )
            if st.session_state.touring:
                st.button("Stop tour", on_click=_tour, args=(False,), key="tour")
            else:
                st.button(
                    "Tour",
                    on_click=_tour,
                    args=(True,),
                    key="tour",
                    help="Play the chapters one after another",
                )


def chapter_text(chapter) -> None:
    """The open chapter's text and sources, beside the map like a story map's slide."""
    with st.container(border=True):
        st.markdown(f"**{literal(chapter.title)}**")
        # Data, shown as text: never markdown.
        st.text(chapter.text)
        st.caption(
            "Sources: " + literal(", ".join(source_names.get(s, s) for s in chapter.sources))
        )


def _chapter_marks_html() -> str:
    """Each chapter's number on the slider's track at its first day; the title on hover."""
    days = max((story.end - story.start).days, 1)
    spans = []
    for chapter in story.chapters:
        f = (chapter.start - story.start).days / days
        # The track runs between the thumbs' centres, 6 px in from each side of the column.
        spans.append(
            f'<span style="left:calc(6px + (100% - 12px) * {f:.4f})" '
            f'title="{_h(chapter.title)}">{chapter.number}</span>'
        )
    return f'<div class="dl-marks" data-testid="dl-chapter-marks">{"".join(spans)}</div>'


def date_controls() -> tuple[date, date]:
    """The date slider with Play / Pause and Reset; returns the window."""
    if story.start == story.end:
        # A one-day story (a report's happenings of one day): a slider needs two ends.
        st.caption(f"{DATES_LABEL}: {fmt_day(story.start)}, the story's one day")
        return story.start, story.end
    slider_col, buttons_col = st.columns([10, 2.6], vertical_alignment="bottom")
    with slider_col:
        start, end = st.slider(
            DATES_LABEL,
            min_value=story.start,
            max_value=story.end,
            step=timedelta(days=1),
            format="D MMM YYYY",
            key="window",
            help="Drag either end; the map shows what happened inside the window and the convoy "
            "and front lines as they stood on its last day.",
        )
        if story.chapters:
            st.html(_chapter_marks_html())
    # One row even on a phone, where columns stack.
    with buttons_col, st.container(horizontal=True):
        # One key for both labels: the button is replaced in place, not left behind greyed.
        playing = st.session_state.playing
        st.button(
            "Pause" if playing else "Play",
            width="stretch",
            key="play",
            on_click=_play,
            args=(not playing,),
            help=None if playing else "Step the end date day by day",
        )
        st.button("Reset", width="stretch", on_click=_reset)
    return start, end


def write_url(start: date, end: date) -> None:
    """The address follows the view, so a copied link opens the same map."""
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
    if st.session_state.get("chapter"):
        params["chapter"] = str(st.session_state.chapter)
    if tiles != "offline":
        params["tiles"] = tiles
    # The map's script writes the reader's zoom and centre into the address itself (no rerun):
    # keep them when the URL is rewritten, if they are sane.
    if parse_map_view(st.query_params.get("zoom"), st.query_params.get("center")):
        params["zoom"], params["center"] = st.query_params["zoom"], st.query_params["center"]
    if params != st.query_params.to_dict():
        st.query_params.from_dict(params)


def story_map(start: date, end: date, events: pd.DataFrame) -> None:
    """The folium map of the window; a click on an object selects it."""
    window_text = fmt_span(pd.Timestamp(start), pd.Timestamp(end))
    parts = ((literal(words["convoy"]), story.convoy), (literal(words["enclave"]), story.fronts))
    as_of = [w for w, df in parts if not df.empty]
    st.caption(
        f"{len(events):,} events · {window_text}"
        + (f" · {' and '.join(as_of)} as of {fmt_day(end)}" if as_of else "")
    )
    pinned = (
        st.session_state.pinned
        if st.session_state.get("pinned_for", story_id) == story_id
        else None
    )
    st.session_state.pinned_for = story_id
    # Built anew on each run: st_folium renames the map while rendering it, so a kept map
    # would render its header twice.
    fmap = base_map(story, tiles=tiles, pinned=pinned)
    map_key = f"map-{story_id}"
    # Every story is drawn by the map's script. A small one arrives whole and the browser applies
    # the window, so a move never reruns; a big one arrives as its window for the reader's view,
    # so zooming and panning rerun the script (st_folium leaves its zoom and bounds in session
    # state).
    big = needs_window(len(story.events), len(story.places))
    story_path = stories[story_id].path
    if big:
        data = window_payload(
            story,
            events,
            end,
            viewport=Viewport.from_state(st.session_state.get(map_key)),
            codes=_place_codes(str(story_path), _fingerprint(story_path)),
            selected=st.session_state.selected,
        )
    else:
        data = _payload_url(str(story_path), _fingerprint(story_path))
    # The story's own opening view for the whole story; a narrower window or a selection (from a
    # link, say) is framed at once.
    fit_first = pinned is None and (
        (start, end) != (story.start, story.end) or bool(st.session_state.selected)
    )
    groups = browser_layers(
        data,
        start,
        end,
        None if chosen_categories == categories else chosen_categories,
        chosen_actors,
        layers,
        st.session_state.selected,
        fit_first=fit_first,
        animate=st.session_state.playing,
        # The convoy arrives a little before the next day is sent.
        step_ms=int(PLAY_STEP_SECONDS * 850),
        follow=DATES_LABEL,
        **_chapter_view(),
    )
    if not WHOLE:
        groups.append(paint_report())
    clicked = st_folium(
        fmap,
        key=map_key,
        feature_group_to_add=groups,
        returned_objects=["last_object_clicked_tooltip", *(["zoom", "bounds"] if big else [])],
        use_container_width=True,
        height=620,
    )
    if tiles != "offline":
        st.caption(
            f"{TILE_NAMES[tiles]} needs the internet; where its tiles do not load, the offline "
            "map shows through."
        )
    if not WHOLE and (clicked or {}).get("dl_painted"):
        _whole_page()
    tip = (clicked or {}).get("last_object_clicked_tooltip")
    if tip and tip != st.session_state.get("last_tip"):
        st.session_state.last_tip = tip
        key = parse_key(tip)
        if key:
            st.session_state.selected = f"{key[0]}:{key[1]}"
            _rerun_panel()


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
            f'border-radius:3px;padding:0 4px;font-size:.8em">{_h(ev["category"])}</span> '
            f"<b>{_h(when)}</b><br>{_h(ev['summary'])}"
            + (f"<br><i>{_h(figs)}</i>" if figs else "")
            + f'<br><small style="color:#555">Source: {_h(src)} · {_h(conf)}</small></div>',
            unsafe_allow_html=True,
        )


def details(start: date, end: date) -> None:
    """What the reader clicked (or a chapter selected), with its sources."""
    sel = st.session_state.selected
    kind, _, sel_id = (sel or "").partition(":")
    if kind == "place" and (d := place_details(story, sel_id, start, end)):
        st.markdown("#### Details")
        st.markdown(f"**{literal(d['name'])}** · {literal(d['kind'])}, {literal(d['country'])}")
        if d["aliases"]:
            st.caption("Also spelled: " + literal(", ".join(d["aliases"])))
        radius = d["radius_m"]
        st.caption(
            f"{d['lat']:.4f}, {d['lon']:.4f} ± "
            + (f"{radius / 1000:g} km" if radius >= 1000 else f"{radius} m")
            + f" · {literal(d['coord_source'])}"
        )
        if d["distances_km"]:
            st.caption(
                " · ".join(
                    f"{km:,.0f} km from {literal(name)}" for name, km in d["distances_km"].items()
                )
            )
        if d["events"].empty:
            st.write("No events here inside the date window.")
        else:
            st.markdown(f"{len(d['events'])} event(s) in the window:")
            _event_lines(d["events"])
    elif kind == "convoy" and (d := convoy_details(story, sel_id)):
        st.markdown("#### Details")
        where = d["place_name"] or f"{d['lat']:.2f}, {d['lon']:.2f}"
        st.markdown(
            f"**{literal(upper_first(words['convoy']))} · {fmt_day(d['date'])}** "
            f"({literal(d['group'])})"
        )
        st.markdown(
            literal(f"{d['status'].capitalize()} near {where} (± {d['radius_m'] / 1000:g} km)")
        )
        st.markdown(literal(d["note"]))
        st.caption(
            f"Travelled {d['travelled_km']:,.0f} km (geodesic) by then · "
            f"Source: {literal(_source_name(d['source']))}"
        )
    elif kind == "front" and (d := front_details(story, sel_id)):
        st.markdown("#### Details")
        side = "Lebanese" if d["side"] == "LB" else "Syrian"
        st.markdown(f"**{literal(upper_first(words['enclave']))}, {side} side**")
        st.write(
            f"{fmt_span(d['valid_from'], d['valid_to'])}: reported "
            f"{reported_text(d['reported_km2'])}, "
            f"drawn outline {d['drawn_km2']:g} km²."
        )
        if d.get("note"):
            st.markdown(literal(d["note"]))
        st.caption(
            "Approximate outline: no public map exists; the shape is sized to the reported "
            f"area. Source: {literal(_source_name(d['source']))}"
        )
    else:
        things = ["a marker"]
        if not story.convoy.empty:
            things.append(f"the {literal(words['convoy'])}")
        if not story.fronts.empty:
            things.append(f"the {literal(words['enclave'])}")
        listed = ", ".join(things[:-1]) + " or " + things[-1] if len(things) > 1 else things[0]
        # One element, heading and prompt: it is then sent as a short reference on a move.
        st.markdown(f"#### Details\n\nClick {listed} on the map to see what happened there.")


def _chapter_rules(chapters) -> alt.Chart:
    """Where the story turns: a rule and a short label at each chapter's first day."""
    marks = pd.DataFrame(
        [{"day": pd.Timestamp(d), "label": label} for d, label in chapter_marks(chapters)],
        columns=["day", "label"],
    )
    import altair as alt

    base = alt.Chart(marks)
    rules = base.mark_rule(color="#888", strokeDash=[3, 3]).encode(x="day:T")
    # Written down each rule: the chapters of one week would overlap side by side.
    text = base.mark_text(
        angle=90, align="left", baseline="bottom", dx=3, y=2, fontSize=11, color="#666"
    ).encode(x="day:T", text="label:N")
    return rules + text


def _picture(chart: alt.TopLevelMixin) -> dict:
    import altair as alt

    # Drawn as a picture that is scaled to its column (about 0.8x): type a little larger.
    # The rows are bounded already (MAX_BARS per family; the held area's changes only), so
    # Altair's 5,000-row guard would only turn a long story into a traceback.
    with alt.data_transformers.disable_max_rows():
        return (
            chart.configure_axis(labelFontSize=12, titleFontSize=12)
            .configure_legend(labelFontSize=12, symbolSize=90)
            .to_dict()
        )


def _chart_title(text: str) -> alt.Title:
    import altair as alt

    # Drawn by Vega as text, never as HTML or markdown.
    return alt.Title(text, anchor="start", fontSize=15, fontWeight=600, offset=8)


def _chart_specs(
    path: str, fingerprint: tuple, cats: tuple[str, ...] | None, acts: tuple[str, ...]
) -> tuple[dict | None, dict | None]:
    """The two timeline charts of the whole story as Vega-Lite specs, once per story and filter.

    They do not follow the slider: an unchanged chart is not sent again on a move (the page
    keeps it by its hash), and the whole story around the window is what a timeline is for.
    """
    import altair as alt  # on a cache miss only: 0.9 s of imports at a server's first page

    s = _load(path, fingerprint)
    rules = _chapter_rules(s.chapters)
    evs = story_window(s, s.start, s.end, cats, acts)
    # A long story is counted by week or month: at most MAX_BARS bars whatever its span.
    period = chart_period(s.start, s.end)
    per_day = events_per_period(evs, s.start, s.end, period)
    domain = alt.Scale(domain=[str(s.start), str(s.end)])
    bars = None
    if not per_day.empty and per_day.to_numpy().sum() > 0:
        # By family, in the map's colours: thirty-nine categories would need as many colours.
        fams = families_of(per_day.columns)
        by_family = pd.DataFrame(
            {
                f.label: per_day[[c for c in per_day.columns if family(c) == f]].sum(axis=1)
                for f in fams
            }
        )
        long = by_family.rename_axis("day").reset_index().melt("day", var_name="family")
        bars = (
            alt.Chart(long[long["value"] > 0])
            .mark_bar()
            .encode(
                x=alt.X("day:T", title=None, scale=domain),
                y=alt.Y("sum(value):Q", title="events"),
                color=alt.Color(
                    "family:N",
                    scale=alt.Scale(domain=[f.label for f in fams], range=[f.colour for f in fams]),
                    legend=alt.Legend(orient="bottom", title=None, columns=2, labelLimit=260),
                ),
                tooltip=["day:T", "family:N", "value:Q"],
            )
            .properties(height=220, width=CHART_WIDTH)
        )
        bars = bars + rules
        title = _chart_title(f"Events per {period}, whole story")
        bars = _picture(bars.properties(title=title))
    area = held_area_long(s.fronts, s.start, s.end)
    line = None
    if not area.empty:
        sides = {k: v["label"] for k, v in SIDE_STYLE.items()}
        area = area.assign(
            side=area["side"].map(sides).fillna(area["side"]),
            figure=area["carried"].map({True: "carried over", False: "reported"}),
        )
        line = (
            alt.Chart(area)
            .mark_line(point=True, interpolate="step-after")
            .encode(
                x=alt.X("day:T", title=None, scale=domain),
                y=alt.Y("km2:Q", title="km²"),
                color=alt.Color(
                    "side:N",
                    scale=alt.Scale(
                        domain=[v["label"] for v in SIDE_STYLE.values()],
                        range=[v["color"] for v in SIDE_STYLE.values()],
                    ),
                    legend=alt.Legend(orient="bottom", title=None, columns=2, labelLimit=260),
                ),
                shape=alt.Shape(
                    "figure:N",
                    legend=alt.Legend(orient="bottom", title=None, columns=2, labelLimit=260),
                ),
                tooltip=["day:T", "side:N", "km2:Q", "figure:N"],
            )
            .properties(height=220, width=CHART_WIDTH)
        )
        held = upper_first(story_words(s.meta)["held"])
        line = _picture(
            (line + rules).properties(title=_chart_title(f"{held} area (reported km²)"))
        )
    return bars, line


@st.cache_data(max_entries=16, show_spinner=False)
def _chart_pictures(
    path: str, fingerprint: tuple, cats: tuple[str, ...] | None, acts: tuple[str, ...]
) -> tuple[str | None, str | None]:
    """The two timeline charts drawn as SVG on the server, once per story and filter.

    A picture, not a Vega chart in the page: Vega's 775 KB of JavaScript, parsed and run while
    the map's frame loads, held the first map back by a second. Data is drawn as SVG text
    (escaped), and an SVG shown as an image runs no script. Drawn in a child process
    (geo/story/pictures.py): Vega's engine stays out of the server's memory.
    """
    # Kept on disk beside the big stories' event stores: a new server's first page would
    # otherwise spend a second importing Altair and starting Vega before its map is done. The
    # key holds what draws them: an edit of these functions, their width or a new Vega.
    code = "".join(
        inspect.getsource(f) for f in (_chapter_rules, _picture, _chart_title, _chart_specs)
    )
    vega = importlib.metadata.version("vl-convert-python")
    key = json.dumps([path, fingerprint, cats, acts, code, CHART_WIDTH, vega], default=str)
    # A PictureError is not cached: the next run tries again.
    bars, line = cached_svg(
        key,
        default_cache_dir() / "charts",
        lambda: list(_chart_specs(path, fingerprint, cats, acts)),
        2,
    )
    return bars, line


def timeline() -> None:
    """Events per day and the held area over the whole story, with the chapters marked."""
    path = stories[story_id].path
    cats = None if chosen_categories == categories else tuple(chosen_categories)
    try:
        bars, line = _chart_pictures(str(path), _fingerprint(path), cats, tuple(chosen_actors))
    except PictureError:
        st.caption("The timeline's charts could not be drawn this time; they are tried again.")
        return
    # The headings are the charts' own titles: an unchanged chart is sent as a short reference.
    chart_a, chart_b = st.columns(2)
    with chart_a:
        if bars is None:
            st.caption("Events per day: no events match the filters.")
        else:
            st.image(bars, width="stretch", alt="Events per day over the whole story")
    with chart_b:
        if story.fronts.empty:
            st.caption(f"This story has no {literal(words['enclave'])}.")
        elif line is None:
            st.caption("No area reported.")
        else:
            st.image(line, width="stretch", alt="Area held over the whole story")


def events_table(start: date, end: date, events: pd.DataFrame) -> None:
    """The window's events as a table, with CSV and GeoJSON downloads of all of them."""

    def window_parts():
        # A big window is written a row group at a time, so a download never holds it whole.
        if story.store is None or "summary" in events:
            return [events]
        return story.store.frames(start, end, chosen_categories, chosen_actors)

    # A big story's window has only the map's columns unless it is small enough to list.
    if story.store is None or "summary" in events:
        shown = events.head(TABLE_ROWS)
    else:
        shown = story.store.window(
            start, end, chosen_categories, chosen_actors, columns=TABLE_COLUMNS, limit=TABLE_ROWS
        )
    if len(events) > TABLE_ROWS:
        st.caption(
            f"Showing the first {TABLE_ROWS:,} of {len(events):,} events; the downloads hold "
            "them all."
        )
    table = pd.DataFrame(
        {
            "date": shown["date"].dt.date,
            "place": shown["place_name"],
            "category": shown["category"],
            "summary": shown["summary"],
            # Records, not iterrows(): a Series per row costs ~0.3 ms, 1,000 rows a third of a s.
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
        lambda: events_spreadsheet_parts(window_parts(), source_names),
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


def tour_step() -> None:
    """The Tour's next chapter, or the end of the tour after the last (on a whole-page run)."""
    if st.session_state.pop("tour_next", False) and st.session_state.touring:
        number = st.session_state.get("chapter") or 0
        if number >= len(story.chapters):
            st.session_state.touring = False
        else:
            _open_chapter(number + 1)


@st.fragment(run_every=REST_FALLBACK_SECONDS)
def _rest_fallback() -> None:
    # A map that never paints (its scripts blocked, say) must not leave the page half drawn.
    due = st.session_state.setdefault("rest_due", time.monotonic() + REST_FALLBACK_SECONDS)
    if time.monotonic() >= due:
        _whole_page()


# --- the part a slider move reruns ---------------------------------------------------------------
@st.fragment
def story_panel() -> None:
    """Dates, map, details and table: a move reruns only this (the chapter bar stays out)."""
    if st.session_state.pop("whole_page", False):
        st.rerun()
    # Play: each step moves the window's end one day until the story's last day. A step is due
    # after a whole pause (or the press of Play), not on any rerun: a rerun for another reason
    # (the map's first report, a click) would skip a day.
    if st.session_state.pop("play_due", False) and st.session_state.playing:
        lo, hi = st.session_state.window
        if hi >= story.end:
            st.session_state.playing = False
        else:
            st.session_state.window = (lo, hi + timedelta(days=1))
    was_open = _chapter(st.session_state.get("chapter")) is not None
    current = _open_now()
    if was_open and current is None:
        # The move left the chapter; the chapter bar is outside this panel, so the whole page
        # reruns once to say so.
        st.rerun()
    start, end = date_controls()
    st.session_state.kept_window = (start, end)
    # A big story's window has only the map's columns unless it is small enough to list.
    events = story_window(
        story, start, end, chosen_categories, chosen_actors, full_upto=DETAIL_LIMIT
    )
    write_url(start, end)
    map_col, detail_col = st.columns([7, 3], gap="medium")
    # The map is sent last though drawn first: the page holds a component's new arguments
    # until the messages after it have come, ~50 ms a move when details and toggle followed.
    if WHOLE:
        with detail_col:
            if current is not None:
                chapter_text(current)
            details(start, end)
        # The table follows the window, so it is built on every move, but only when asked for
        # (it is 20 KB a move); the timeline below does not follow it and stays out of this panel.
        if st.toggle("Events in the window, as a table", key="show_table"):
            events_table(start, end, events)
    with map_col:
        story_map(start, end, events)
    if st.session_state.playing:
        # The pause between frames is the animation itself, not a wait for something to finish.
        time.sleep(PLAY_STEP_SECONDS)
        st.session_state.play_due = True
        _rerun_panel()
    if st.session_state.touring:
        # Reading time for the chapter on screen; the next opens at the top of the next run
        # (the slider's window cannot change once the slider is drawn), a whole-page run, as
        # the chapter bar is outside this panel.
        time.sleep(TOUR_STEP_SECONDS)
        st.session_state.tour_next = True
        st.rerun()


words = story_words(story.meta)
# The chapter bar is outside the panel: a slider move does not resend its seven elements. Its
# buttons rerun the whole page, as does a move that leaves the open chapter.
if story.chapters and WHOLE:
    tour_step()
    chapter_bar()
elif story.chapters:
    # The bar's room, kept for it so the map does not move down when it comes.
    st.container(border=True, height=CHAPTER_BAR_PX).caption(
        f"The story in {len(story.chapters)} chapters …"
    )
story_panel()
if WHOLE:
    # Per story and filter, not per window: built on a full run only, untouched by a slider move.
    timeline()
else:
    _rest_fallback()


@st.cache_resource
def _long_lived_frozen() -> bool:
    # Once per server, after the first run: the modules and caches loaded so far live as long as
    # the server, so they leave the garbage collector's care. Streamlit's collection after every
    # run then scans only what the run made (0.2 ms instead of 80 ms, which held every move).
    # Only the young generations are collected first: a full collection found 56-233 garbage
    # objects here but held the server for 60-100 ms while the new page fetched the map's files.
    gc.collect(1)
    gc.freeze()
    return True


_long_lived_frozen()
