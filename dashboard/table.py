"""The window's events as a table, with CSV, GeoJSON and ACLED CSV downloads of all of them."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from dashboard.stories import Filters, Shown
from geo.map.text import figures_text, plural
from geo.story.events_store import TABLE_COLUMNS
from geo.story.export import events_acled_csv, events_geojson_parts, events_spreadsheet_parts
from geo.story.load import FIGURES

TABLE_ROWS = 1000  # a bigger table costs megabytes per rerun; downloads carry everything


def events_table(
    shown: Shown, filters: Filters, start: date, end: date, events: pd.DataFrame
) -> None:
    """The window's events as a table, with CSV and GeoJSON downloads of all of them."""
    story = shown.story
    # The fatalities, country and text filters go into a big story's SQL; passed only when on
    # (a store is then asked for nothing it may not know).
    narrow = filters.narrow(shown)
    more = {} if narrow is None else {"narrow": narrow}

    def window_parts():
        # A big window is written a row group at a time, so a download never holds it whole.
        if story.store is None or "summary" in events:
            return [events]
        return story.store.frames(start, end, filters.categories, filters.actors, **more)

    # A big story's window has only the map's columns unless it is small enough to list.
    if story.store is None or "summary" in events:
        shown_rows = events.head(TABLE_ROWS)
    else:
        shown_rows = story.store.window(
            start,
            end,
            filters.categories,
            filters.actors,
            columns=TABLE_COLUMNS,
            limit=TABLE_ROWS,
            **more,
        )
    if len(events) > TABLE_ROWS:
        st.caption(
            f"Showing the first {TABLE_ROWS:,} of {plural(len(events), 'event')}; the downloads "
            "hold them all."
        )
    table = pd.DataFrame(
        {
            "date": shown_rows["date"].dt.date,
            "place": shown_rows["place_name"],
            "category": shown_rows["category"],
            "summary": shown_rows["summary"],
            # Records, not iterrows(): a Series per row costs ~0.3 ms, 1,000 rows a third of a s.
            "figures": [figures_text(r) for r in shown_rows[list(FIGURES)].to_dict("records")],
            "source": shown_rows["source"].map(shown.source_name),
            "confidence": shown_rows["confidence"],
        }
    )
    if shown.sub_types:  # the dataset's own finer type, beside our category
        table.insert(3, "sub-type", shown_rows["sub_type"].astype(object).to_numpy())
    st.dataframe(table, hide_index=True, width="stretch", key="events_table")
    # A row that wraps, each button as wide as its label (columns cut "Download GeoJSON").
    row = st.container(horizontal=True, gap="small")
    stem = f"{shown.id}_{start}_{end}"
    # Decided per export (issue 28): the three downloads are what the map shows, the window
    # through every filter (categories, actors, Killed, Countries, text): ``events`` is already
    # narrowed, and a big window's parts are read through the same Narrow.
    every = "The events in the window that pass the filters, all of them"
    # Callables: the files are made only when a reader clicks, not on every rerun.
    row.download_button(
        "Download CSV",
        lambda: events_spreadsheet_parts(window_parts(), shown.source_names),
        f"{stem}.csv",
        "text/csv",
        on_click="ignore",
        help=f"{every}, as a spreadsheet.",
    )
    row.download_button(
        "Download GeoJSON",
        lambda: events_geojson_parts(window_parts()),
        f"{stem}.geojson",
        "application/geo+json",
        on_click="ignore",
        help=f"{every}, as points for GIS tools.",
    )
    row.download_button(
        "Download as ACLED CSV",
        lambda: acled_parts(window_parts(), story.places, shown.source_names),
        f"{stem}_acled.csv",
        "text/csv",
        on_click="ignore",
        help=f"{every}, in ACLED's columns (event_type, sub_event_type, actor1, "
        "fatalities, notes...), for tools that read ACLED exports. Events of a kind ACLED "
        "does not code (statements, casualty reports, convoys) are left out.",
    )


def acled_parts(parts, places: pd.DataFrame, sources: dict[str, str]) -> str:
    """``events_acled_csv`` of the window's parts, one header."""
    out: list[str] = []
    for part in parts:
        text = events_acled_csv(part, places, sources)
        # The header is one line: ACLED's column names hold no quote or line break.
        out.append(text if not out else text.partition("\n")[2])
    return "".join(out) or events_acled_csv(pd.DataFrame(), places, sources)
