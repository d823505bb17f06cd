"""How the page reruns: the whole page or the story panel alone, and the pace of Play and Tour."""

from __future__ import annotations

import os
import time

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard.state import ViewState


# Read on every run, not once per server: a test sets them before the run it speeds up.
def play_step_seconds() -> float:
    """Seconds between frames of Play; tests set 0 to play a whole story in one run."""
    return float(os.environ.get("DATELINE_PLAY_STEP", "0.8"))


def tour_step_seconds() -> float:
    """Seconds each chapter stays on screen during the Tour (tests set it short)."""
    return float(os.environ.get("DATELINE_TOUR_STEP", "8"))


# The whole page is drawn this long after the first run if the map never says it has painted.
REST_FALLBACK_SECONDS = 4.0


def whole_page(state: ViewState) -> None:
    """Draw the whole page from now on, starting with a rerun."""
    state.map_first = False
    st.rerun()


def rerun_panel() -> None:
    """Rerun only the story panel when it is the part running, else the whole page."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:  # a full run (the first, or a sidebar change)
        st.rerun()


@st.fragment(run_every=REST_FALLBACK_SECONDS)
def rest_fallback(state: ViewState) -> None:
    """The whole page, drawn a while after a map-first run whatever the map says."""
    # A map that never paints (its scripts blocked, say) must not leave the page half drawn.
    due = state.rest_due(time.monotonic() + REST_FALLBACK_SECONDS)
    if time.monotonic() >= due:
        whole_page(state)
