"""The window's events as a list of buttons: the map's markers reached without a mouse.

A marker on the map is a small target in a frame; this list is the same places by keyboard
(Tab, Enter) or screen reader. A button selects its event's place exactly as a click on its
marker does (ViewState.selected, so the map rings it, the details fill and the URL's ``sel``
follows).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.state import ViewState
from dashboard.stories import Shown
from geo.map.text import fmt_span, plural
from geo.names import literal

LIST_ROWS = 50  # the latest events listed; a narrower window lists the others
LIST_KEY = "event_list"  # the expander's key: its open state, and its CSS class
# The details' heading: Streamlit gives a heading an id from its text ("#### Details").
BESIDE_ID = "details"
SKIP_TEXT = "Skip the map: to the panel beside it"  # not "details": tests find that column by it


def skip_map() -> None:
    """A link before the map that only the keyboard sees: the map holds a Tab stop per marker
    (30 and more), so without it the details and the events list are far down the Tab order."""
    # An in-page anchor to the details' heading: following it moves the keyboard's starting
    # point there, so the next Tab is in the panel beside the map. st.html keeps href and runs
    # no script. No keyed box around it, and no target of its own: each element costs ~200
    # bytes on every slider move (a move's budget is 10 KB).
    st.html(f'<a class="dl-skip" href="#{BESIDE_ID}">{SKIP_TEXT}</a>')


def _pick(state: ViewState, place_id: str) -> None:
    state.selected = f"place:{place_id}"


def _label(ev, names: dict[str, str]) -> str:
    end = ev.end_date if pd.notna(ev.end_date) else ev.date
    where = names.get(ev.place_id, ev.place_id)
    # Markdown that shows exactly its text: a place name from a story file is data.
    return literal(f"{fmt_span(ev.date, end)} · {where} · {ev.category}")


def event_list(shown: Shown, state: ViewState, events: pd.DataFrame) -> None:
    """An expander listing the window's latest events, each a button that selects its place.
    Its buttons are built only while it is open (a slider move does not resend them)."""
    label = f"Events in the window, as a list ({plural(len(events), 'event')})"
    box = st.expander(label, key=LIST_KEY, on_change="rerun")
    if not box.open:
        return
    with box:
        if events.empty:
            st.caption("No events in the window.")
            return
        if len(events) > LIST_ROWS:
            st.caption(f"The latest {LIST_ROWS} of {len(events):,}; narrow the dates for others.")
        names = dict(zip(shown.story.places["id"], shown.story.places["name"], strict=False))
        rows = events.tail(LIST_ROWS).iloc[::-1]
        for n, ev in enumerate(rows.itertuples(index=False)):
            st.button(
                _label(ev, names),
                key=f"evl_{n}_{ev.place_id}_{ev.date:%Y%m%d}",
                on_click=_pick,
                args=(state, str(ev.place_id)),
                type="tertiary",
                width="stretch",
            )
