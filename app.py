"""Dateline: a news story as places and dates on a map. The page's layout and wiring only: its
parts are in dashboard/, its view state in dashboard/state.py."""

from __future__ import annotations

import gc
import time

import streamlit as st

from dashboard.chapters import (
    CHAPTER_BAR_KEY,
    CHAPTER_BAR_PX,
    chapter_bar,
    chapter_of,
    chapter_room,
    chapter_text,
    open_now,
    tour_step,
)
from dashboard.charts import timeline
from dashboard.dates import date_controls, play_step
from dashboard.details import details
from dashboard.map_panel import story_map
from dashboard.reruns import (
    play_step_seconds,
    rerun_panel,
    rest_fallback,
    tour_step_seconds,
    whole_page,
)
from dashboard.sidebar import default_tiles, filters, story_picker
from dashboard.state import Key, ViewState, write_link
from dashboard.stories import Filters, Shown, describe, open_shown, static_ready
from dashboard.table import events_table
from geo.map.scale import DETAIL_LIMIT
from geo.names import literal
from geo.story.events_store import story_window
from geo.story.library import BUNDLED, DEFAULT_STORY, find_stories
from geo.story.load import StoryError, problem_text
from geo.story.storage import StorageError
from geo.story.store import all_stories

# Every value from a story file or the URL is shown through literal(): markdown that displays
# exactly its text (no bold, link or image from data); literal(..., html=True) inside HTML.

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
    f".st-key-{CHAPTER_BAR_KEY}{{min-height:{CHAPTER_BAR_PX}px}}"
    "iframe[title='streamlit_folium.st_folium']{height:clamp(300px,calc(100vh - 250px),640px)"
    " !important}"
    # On a phone Streamlit's header row (the sidebar button) covers the top of the page.
    "@media (max-width: 640px){.block-container{padding-top:3.2rem}}</style>"
)

static_ready()
try:
    # The bundled stories and the saved ones (a folder, or PostgreSQL: DATELINE_DATABASE_URL).
    stories = all_stories()
except StorageError as exc:  # the database is down: the bundled stories can still be read
    st.warning(literal(f"Only the bundled stories are listed: {exc}."))
    stories = find_stories(BUNDLED)
if not stories:
    st.error("No stories found: data/stories is empty.")
    st.stop()
default_story = DEFAULT_STORY if DEFAULT_STORY in stories else next(iter(stories))
state = ViewState()
# The view from the URL, once per session; then kept while another page is open.
state.open_link(
    st.query_params.to_dict(),
    list(stories),
    default_story,
    lambda story_id: describe(stories, story_id),
    default_tiles(),
)
state.keep()
# A session's first run in a browser draws the title, chapters, dates and map only; once the map
# has painted its story it asks for the rest (js/basemap.js), so the sidebar's controls, the
# details, the table and the timeline do not hold up the map with their JavaScript. AppTest has
# no browser (no User-Agent) and no map to ask: its first run is the whole page.
WHOLE = not state.draws_map_first(bool(st.context.headers.get("User-Agent")))

# --- sidebar: story, dates, filters, layers -----------------------------------------------------
story_id = story_picker(stories, default_story, state, WHOLE)
try:
    shown = open_shown(stories, story_id)
except StoryError as exc:
    if not WHOLE:  # the map will not paint: the picker must be there to choose another story
        whole_page(state)
    st.error(f"This story cannot be shown: {len(exc.problems)} problem(s) in its files.")
    st.code(problem_text(exc), language=None)
    st.stop()
story = shown.story
state.fit(story_id, (story.start, story.end), shown.categories)

# --- header: title, then the timeline right above the map ----------------------------------------
# No anchor: its link would be built from the title.
st.subheader(literal(story.title), anchor=False)
if story.meta.get("draft"):
    st.warning(
        "Draft: some event summaries still quote the source article word for word. Rewrite "
        "them in events.csv before publishing."
    )
if state.notices:
    # One line for every ignored link value: four full-width boxes pushed the map down 280 px.
    st.info(" · ".join(literal(n) for n in state.notices), icon="🔗")
if WHOLE:  # shown again by the whole page's run
    state.notices = []
chosen = filters(shown, state, WHOLE)


# --- the part a slider move reruns ---------------------------------------------------------------
@st.fragment
def story_panel(
    shown: Shown, chosen: Filters, state: ViewState, whole: bool, default_story: str
) -> None:
    """Dates, map, details and table: a move reruns only this (the chapter bar stays out)."""
    story = shown.story
    if state.take(Key.WHOLE_PAGE):
        st.rerun()
    play_step(state, story.end)
    was_open = chapter_of(story.chapters, state.chapter) is not None
    current = open_now(state, story.chapters)
    if was_open and current is None:
        # The move left the chapter; the chapter bar is outside this panel, so the whole page
        # reruns once to say so.
        st.rerun()
    start, end = date_controls(shown, state)
    state.keep_window((start, end))
    # A big story's window has only the map's columns unless it is small enough to list.
    events = story_window(
        story, start, end, chosen.categories, chosen.actors, full_upto=DETAIL_LIMIT
    )
    link = chosen.view(shown, start, end, state.selected)
    write_link(link, chosen.tiles, state.chapter, default_story, (story.start, story.end))
    map_col, detail_col = st.columns([7, 3], gap="medium")
    # The map is sent last though drawn first: the page holds a component's new arguments
    # until the messages after it have come, ~50 ms a move when details and toggle followed.
    if whole:
        with detail_col:
            if current is not None:
                chapter_text(current, shown.source_names)
            details(shown, state.selected, start, end)
        # The table follows the window, so it is built on every move, but only when asked for
        # (it is 20 KB a move); the timeline below does not follow it and stays out of this panel.
        if st.toggle("Events in the window, as a table", key=Key.SHOW_TABLE):
            events_table(shown, chosen, start, end, events)
    with map_col:
        story_map(start, end, events, shown, chosen, state, whole)
    if state.playing:
        # The pause between frames is the animation itself, not a wait for something to finish.
        time.sleep(play_step_seconds())
        state.set_flag(Key.PLAY_DUE)
        rerun_panel()
    if state.touring:
        # Reading time for the chapter on screen; the next opens at the top of the next run
        # (the slider's window cannot change once the slider is drawn), a whole-page run, as
        # the chapter bar is outside this panel.
        time.sleep(tour_step_seconds())
        state.set_flag(Key.TOUR_NEXT)
        st.rerun()


# The chapter bar is outside the panel: a slider move does not resend its seven elements. Its
# buttons rerun the whole page, as does a move that leaves the open chapter.
if story.chapters and WHOLE:
    tour_step(state, story.chapters)
    chapter_bar(shown, state)
elif story.chapters:
    chapter_room(story.chapters)
story_panel(shown, chosen, state, WHOLE, default_story)
if WHOLE:
    # Per story and filter, not per window: built on a full run only, untouched by a slider move.
    timeline(shown, chosen)
else:
    rest_fallback(state)


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
