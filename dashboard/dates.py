"""The date window: its slider with the chapters marked, Play / Pause and Reset."""

from __future__ import annotations

import math
from datetime import date, timedelta

import streamlit as st

from dashboard.chapters import chapter_marks_html
from dashboard.state import Key, ViewState
from dashboard.stories import Shown
from geo.map.text import fmt_day
from geo.story.urlstate import SPEEDS

# The date slider's label: the map finds the slider by it and follows its thumbs.
DATES_LABEL = "Dates"
DATES_KEY = "dl_dates"  # the page's style finds the date controls by it (after the map on a phone)


def play_pace(speed: str | None, base: float) -> tuple[float, int]:
    """(seconds between Play's frames, days each frame steps) at ``speed`` times ``base``.

    Up to 2x a frame steps one day and comes sooner; beyond, frames keep 2x's pace and step
    more days: a rerun takes ~0.2 s, so a quarter of the pause would not make 4x faster.
    """
    times = float(speed or "1")
    days = max(1, math.ceil(times / 2))
    return base * days / times, days


def play(state: ViewState, last_day: date, on: bool) -> None:
    """Start Play from the window's start, resume it where it was paused, or pause it."""
    state.playing = on
    state.set_flag(Key.PLAY_DUE, on)
    if not on:
        return
    state.touring = False
    lo, hi = state.window
    span = state.play_span
    # Paused half-way and the window's start untouched since: go on from where it stopped.
    if span is not None and lo == span[0] and span[0] <= hi < span[1]:
        return
    # Afresh: from the left thumb to the right one (to the story's end for a one-day window).
    state.play_span = (lo, hi if hi > lo else last_day)
    state.window = (lo, lo)
    # The first frame shows the start day itself; the next step comes after a whole pause.
    state.set_flag(Key.PLAY_DUE, False)


def play_step(state: ViewState, last_day: date, days: int = 1) -> None:
    """Play's next frame when one is due: the window's end ``days`` later, until the end of
    Play's span; then back to its start (Loop) or stop."""
    # A step is due after a whole pause (or the press of Play), not on any rerun: a rerun for
    # another reason (the map's first report, a click) would skip a day.
    if not (state.take(Key.PLAY_DUE) and state.playing):
        return
    lo, hi = state.window
    first, last = state.play_span or (lo, last_day)
    if hi >= last:
        if state.loop:
            state.window = (first, first)
        else:
            state.playing = False
    else:
        state.window = (lo, min(hi + timedelta(days=days), last))


def reset(state: ViewState, shown: Shown) -> None:
    """The whole story, every category and actor, nothing playing."""
    state.window = (shown.story.start, shown.story.end)
    state.categories = shown.categories
    state.actors = []
    state.clear_narrow(shown.killed_top)
    state.found = None
    state.playing = False
    state.play_span = None
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
    # Room for Play, Reset, the speeds and Loop in one row beside the slider on a laptop.
    slider_col, buttons_col = st.columns([13, 11], vertical_alignment="bottom")
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
    with buttons_col, st.container(horizontal=True, vertical_alignment="center", gap="small"):
        _play_buttons(shown, state)
    return start, end


def _play_buttons(shown: Shown, state: ViewState) -> None:
    """Play / Pause, Reset, the speed and the Loop switch: real buttons, reached by Tab."""
    # One key for both labels: the button is replaced in place, not left behind greyed.
    playing = state.playing
    st.button(
        "Pause" if playing else "Play",
        key="play",
        on_click=play,
        args=(state, shown.story.end, not playing),
        help=None if playing else "Step the end date day by day from the window's start",
    )
    st.button("Reset", on_click=reset, args=(state, shown))
    # Set before it is drawn: a segmented control lets the reader unpick its one choice, and
    # Play needs a speed.
    state.speed = state.speed if state.speed in SPEEDS else "1"
    st.segmented_control(
        "Speed",
        SPEEDS,
        format_func=lambda v: f"{v}×",
        key=Key.SPEED,
        label_visibility="collapsed",
        help="Play's speed",
    )
    # No help icon: its room would push Loop onto a second row on a laptop (README says it).
    st.toggle("Loop", key=Key.LOOP)
