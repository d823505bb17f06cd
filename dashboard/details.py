"""Details beside the map: what the reader clicked (or a chapter selected), with its sources."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pandas as pd
import streamlit as st

from dashboard.stories import Shown
from geo.map.style import CATEGORY_COLOURS
from geo.map.text import figures_text, fmt_day, fmt_span, plural, reported_text
from geo.names import literal, upper_first
from geo.story.details import convoy_details, front_details, place_details
from geo.story.events_store import Narrow
from geo.story.timeline import narrow_events

DETAIL_ROWS = 50  # events listed for one clicked place
# The panel's key: the map's cue (js/basemap.js) scrolls to it when it is below the map.
DETAILS_KEY = "dl_details"


def about(story) -> None:
    """The story's summary, folded, at the top of the panel beside (on a phone: under) the map."""
    with st.expander("About this story"):
        # Data, shown as text.
        st.markdown(literal(story.summary))


def _h(value) -> str:
    return literal(value, html=True)


def _event_lines(evs: pd.DataFrame, source_name: Callable[[str], str]) -> None:
    if len(evs) > DETAIL_ROWS:
        st.caption(f"The latest {DETAIL_ROWS} of {len(evs):,}; narrow the dates to see others.")
        evs = evs.tail(DETAIL_ROWS)
    for _, ev in evs.iterrows():
        colour = CATEGORY_COLOURS.get(ev["category"], "#666")
        when = fmt_span(ev["date"], ev["end_date"] if pd.notna(ev["end_date"]) else ev["date"])
        figs = figures_text(ev)
        src = source_name(ev["source"]) + (
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


def details(
    shown: Shown,
    selected: str | None,
    start: date,
    end: date,
    narrow: Narrow | None = None,
) -> None:
    """What the reader clicked (or a chapter selected), with its sources; a place's events
    through the fatalities, country and text filters ``narrow``."""
    story = shown.story
    kind, _, sel_id = (selected or "").partition(":")
    if kind == "place" and (d := place_details(story, sel_id, start, end)):
        d["events"] = narrow_events(d["events"], story.places, narrow)
        _place(d, shown.source_name)
    elif kind == "convoy" and (d := convoy_details(story, sel_id)):
        _convoy(d, shown.words["convoy"], shown.source_name)
    elif kind == "front" and (d := front_details(story, sel_id)):
        _front(d, shown.words["enclave"], shown.source_name)
    else:
        things = ["a marker"]
        if not story.convoy.empty:
            things.append(f"the {literal(shown.words['convoy'])}")
        if not story.fronts.empty:
            things.append(f"the {literal(shown.words['enclave'])}")
        listed = ", ".join(things[:-1]) + " or " + things[-1] if len(things) > 1 else things[0]
        # One element, heading and prompt: it is then sent as a short reference on a move.
        st.markdown(f"#### Details\n\nClick {listed} on the map to see what happened there.")


def _place(d: dict, source_name: Callable[[str], str]) -> None:
    st.markdown("#### Details")
    where = ", ".join(x for x in (d.get("admin1", ""), d["country"]) if x)
    st.markdown(f"**{literal(d['name'])}** · {literal(d['kind'])}, {literal(where)}")
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
        st.markdown(f"{plural(len(d['events']), 'event')} in the window:")
        _event_lines(d["events"], source_name)


def _convoy(d: dict, convoy: str, source_name: Callable[[str], str]) -> None:
    st.markdown("#### Details")
    where = d["place_name"] or f"{d['lat']:.2f}, {d['lon']:.2f}"
    st.markdown(
        f"**{literal(upper_first(convoy))} · {fmt_day(d['date'])}** ({literal(d['group'])})"
    )
    st.markdown(literal(f"{d['status'].capitalize()} near {where} (± {d['radius_m'] / 1000:g} km)"))
    st.markdown(literal(d["note"]))
    st.caption(
        f"Travelled {d['travelled_km']:,.0f} km (geodesic) by then · "
        f"Source: {literal(source_name(d['source']))}"
    )


def _front(d: dict, enclave: str, source_name: Callable[[str], str]) -> None:
    st.markdown("#### Details")
    side = "Lebanese" if d["side"] == "LB" else "Syrian"
    st.markdown(f"**{literal(upper_first(enclave))}, {side} side**")
    st.write(
        f"{fmt_span(d['valid_from'], d['valid_to'])}: reported "
        f"{reported_text(d['reported_km2'])}, "
        f"drawn outline {d['drawn_km2']:g} km²."
    )
    if d.get("note"):
        st.markdown(literal(d["note"]))
    st.caption(
        "Approximate outline: no public map exists; the shape is sized to the reported "
        f"area. Source: {literal(source_name(d['source']))}"
    )
