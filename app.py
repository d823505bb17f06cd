"""Dateline: a news story as places and dates on a map. The page's layout and wiring only: its
parts are in dashboard/, its view state in dashboard/state.py."""

from __future__ import annotations

import gc
import time

import streamlit as st

from dashboard.chapters import (
    CHAPTER_BAR_KEY,
    CHAPTER_BAR_PHONE_PX,
    CHAPTER_BAR_PX,
    CHAPTER_ROOM_KEY,
    chapter_bar,
    chapter_of,
    chapter_room,
    chapter_text,
    open_asked,
    open_now,
    tour_step,
)
from dashboard.charts import begin, timeline
from dashboard.dates import DATES_KEY, date_controls, play_pace, play_step
from dashboard.details import DETAILS_KEY, about, details
from dashboard.event_list import LIST_KEY, event_list, skip_map
from dashboard.map_panel import MAP_KEY, map_head, story_map
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
from geo.names import literal, plural
from geo.story.events_store import narrowed_window
from geo.story.library import BUNDLED, DEFAULT_STORY, find_stories
from geo.story.load import StoryError, problem_text
from geo.story.storage import StorageError
from geo.story.store import all_stories

# Every value from a story file or the URL is shown through literal(): markdown that displays
# exactly its text (no bold, link or image from data); literal(..., html=True) inside HTML.

st.set_page_config(page_title="Dateline", layout="wide")
# On a phone (Streamlit stacks columns under 640 px) the map comes first: under the title and a
# one-row chapter bar, it fills most of the first screen; the dates and Play follow the map's
# column and the details' column, which follows the map. Streamlit's top bar (60 px, the
# sidebar's button) covered the title's first line. The elements are found by their keys.
PHONE_CSS = (
    "@media (max-width: 640px){"
    ".block-container{padding-top:3.9rem}"
    # The map's cue scrolls the details here: their top clear of Streamlit's top bar.
    f".st-key-{DETAILS_KEY}{{scroll-margin-top:4rem}}"
    ".block-container h3{font-size:1.05rem;line-height:1.3;padding-bottom:0}"
    "[data-testid=stHeading] > *{margin-bottom:0}"
    "[data-testid=stMainBlockContainer] [data-testid=stVerticalBlock]{gap:.5rem}"
    f".st-key-{CHAPTER_BAR_KEY},.st-key-{CHAPTER_ROOM_KEY}{{padding:0;border:none}}"
    f".st-key-{CHAPTER_BAR_KEY},.st-key-{CHAPTER_ROOM_KEY}{{min-height:{CHAPTER_BAR_PHONE_PX}px}}"
    # Tour is for a reader who sits back; on a phone the bar keeps Prev, the chapter, Next.
    ".st-key-tour{display:none}"
    f"[data-testid=stLayoutWrapper]:has(> .st-key-{DATES_KEY}){{order:1}}"
    f"[data-testid=stElementContainer].st-key-{Key.SHOW_TABLE}{{order:2}}"
    "iframe[title='streamlit_folium.st_folium']{height:max(300px,calc(100svh - 240px))"
    " !important}}"
)
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
    f".st-key-{CHAPTER_BAR_KEY},.st-key-{CHAPTER_ROOM_KEY}{{min-height:{CHAPTER_BAR_PX}px}}"
    # The picker shows as much of the chapter's title as fits, then an ellipsis.
    f".st-key-{Key.CHAPTER_PICK} input{{text-overflow:ellipsis}}"
    "iframe[title='streamlit_folium.st_folium']{height:clamp(300px,calc(100vh - 300px),640px)"
    " !important}"
    # Streamlit fades captions (opacity .6): 3.7:1 on white, WCAG AA wants 4.5:1 (6.4:1 here).
    "[data-testid='stCaptionContainer']{opacity:1 !important;color:#5b5d66 !important}"
    # A ring on whatever the keyboard is on (Streamlit's own focus marks are faint or none).
    "button:focus-visible,a:focus-visible,summary:focus-visible,[role=slider]:focus-visible,"
    "[tabindex]:focus-visible,input:focus-visible{outline:3px solid #0b57d0 !important;"
    "outline-offset:2px}"
    # The events list: one compact line per event, read from the left.
    f".st-key-{LIST_KEY} button{{justify-content:flex-start;text-align:left;min-height:0;"
    f"padding:2px 4px}}.st-key-{LIST_KEY} button *{{justify-content:flex-start;"
    "text-align:left;font-size:.85rem}"
    # Play's speeds, compact: with Play, Reset and Loop they fit one row beside the slider.
    f".st-key-{Key.SPEED} button{{padding:0 .5rem;min-height:2.25rem}}"
    # The skip link takes no room (no gap in the column's flow); the link waits
    # off the page and shows over the map's top-left corner while it has the keyboard's focus.
    "[data-testid=stElementContainer]:has(.dl-skip){position:absolute;width:0;height:0;"
    "z-index:1000}"
    ".dl-skip{position:absolute;left:-10000px;white-space:nowrap;background:#fff;"
    "color:#0b57d0;padding:6px 10px;border:2px solid #0b57d0;border-radius:4px;font-weight:600}"
    ".dl-skip:focus{left:0;top:0}"
    f"{PHONE_CSS}</style>"
)

static_problem = static_ready()
if static_problem:
    st.error(static_problem)
    st.stop()
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
    st.error(f"This story cannot be shown: {plural(len(exc.problems), 'problem')} in its files.")
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
# Always drawn, if empty: the notices go on the next whole run, and the elements after them,
# the map among them, must keep their places (a map that moves up one is drawn anew: 2 s).
notice_room = st.container()
if state.notices:
    # One line for every ignored link value: four full-width boxes pushed the map down 280 px.
    notice_room.info(" · ".join(literal(n) for n in state.notices), icon="🔗")
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
    pause, days = play_pace(state.speed, play_step_seconds())
    play_step(state, story.end, days)
    was_open = chapter_of(story.chapters, state.chapter) is not None
    current = open_now(state, story.chapters)
    if was_open and current is None:
        # The move left the chapter; the chapter bar is outside this panel, so the whole page
        # reruns once to say so.
        st.rerun()
    with st.container(key=DATES_KEY):
        start, end = date_controls(shown, state)
    state.keep_window((start, end))
    # A big story's window has only the map's columns unless it is small enough to list.
    # The fatalities, country and text filters: pandas for a small story, SQL for a big one.
    events = narrowed_window(
        story,
        start,
        end,
        chosen.categories,
        chosen.actors_or_all(shown),
        chosen.narrow(shown),
        full_upto=DETAIL_LIMIT,
    )
    link = chosen.view(shown, start, end, state.selected)
    write_link(
        link,
        chosen.tiles,
        state.chapter,
        default_story,
        (story.start, story.end),
        (state.speed, state.loop),
    )
    map_col, detail_col = st.columns([7, 3], gap="medium")
    # The map is sent last though drawn first: the page holds a component's new arguments
    # until the messages after it have come, ~50 ms a move when details and toggle followed.
    if whole:
        # Keyed: on a phone the map's cue scrolls to it (js/basemap.js: DetailsCue).
        with detail_col, st.container(key=DETAILS_KEY):
            map_head(shown, state, events, start, end)
            about(story)
            if current is not None:
                chapter_text(current, shown.source_names)
            details(shown, state.selected, start, end, chosen.narrow(shown))
            event_list(shown, state, events)
        # The table follows the window, so it is built on every move, but only when asked for
        # (it is 20 KB a move); the timeline below does not follow it and stays out of this panel.
        if st.toggle("Events in the window, as a table", key=Key.SHOW_TABLE):
            events_table(shown, chosen, start, end, events)
    with map_col, st.container(key=MAP_KEY):
        skip_map()
        story_map(start, end, events, shown, chosen, state, whole)
    next_frame(state, pause)


def next_frame(state: ViewState, pause: float) -> None:
    """Play's next day, or the Tour's next chapter, after its pause."""
    if state.playing:
        # The pause between frames is the animation itself, not a wait for something to finish.
        time.sleep(pause)
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
if story.chapters:
    open_asked(state, story.chapters)
if story.chapters and WHOLE:
    tour_step(state, story.chapters)
    chapter_bar(shown, state)
elif story.chapters:
    chapter_room(story.chapters)
if WHOLE:
    begin(shown, chosen)  # counted and drawn while the map is built
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
