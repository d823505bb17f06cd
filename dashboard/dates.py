"""The date window: its slider with the chapters marked, Play / Pause and Reset."""

from __future__ import annotations

from datetime import date, timedelta

import streamlit as st

from dashboard.chapters import chapter_marks_html
from dashboard.state import Key, ViewState
from dashboard.stories import Shown
from geo.map.text import fmt_day

# The date slider's label: the map finds the slider by it and follows its thumbs.
DATES_LABEL = "Dates"
DATES_KEY = "dl_dates"  # the page's style finds the date controls by it (after the map on a phone)


def play(state: ViewState, last_day: date, on: bool) -> None:
    """Start Play (from the window's first day again once it has reached ``last_day``), or
    pause it."""
    state.playing = on
    state.set_flag(Key.PLAY_DUE, on)
    if on:
        state.touring = False
        start, end = state.window
        if end >= last_day:  # from the window's first day again
            state.window = (start, start)


def play_step(state: ViewState, last_day: date) -> None:
    """Play's next frame when one is due: the window's end a day later, until ``last_day``."""
    # A step is due after a whole pause (or the press of Play), not on any rerun: a rerun for
    # another reason (the map's first report, a click) would skip a day.
    if state.take(Key.PLAY_DUE) and state.playing:
        lo, hi = state.window
        if hi >= last_day:
            state.playing = False
        else:
            state.window = (lo, hi + timedelta(days=1))


def reset(state: ViewState, shown: Shown) -> None:
    """The whole story, every category and actor, nothing playing."""
    state.window = (shown.story.start, shown.story.end)
    state.categories = shown.categories
    state.actors = []
    state.playing = False
    state.touring = False
    # The sidebar's filters changed too: the whole page must rerun, not only the panel.
    state.set_flag(Key.WHOLE_PAGE)


def date_controls(shown: Shown, state: ViewState) -> tuple[date, date]:
    """The date slider with Play / Pause and Reset; returns the window."""
    story = shown.story
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
            key=Key.WINDOW,
            help="Drag either end; the map shows what happened inside the window and the convoy "
            "and front lines as they stood on its last day.",
        )
        if story.chapters:
            st.html(chapter_marks_html(story))
    # One row even on a phone, where columns stack.
    with buttons_col, st.container(horizontal=True):
        # One key for both labels: the button is replaced in place, not left behind greyed.
        playing = state.playing
        st.button(
            "Pause" if playing else "Play",
            width="stretch",
            key="play",
            on_click=play,
            args=(state, story.end, not playing),
            help=None if playing else "Step the end date day by day",
        )
        st.button("Reset", width="stretch", on_click=reset, args=(state, shown))
    return start, end
