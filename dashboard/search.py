"""Find a place: a search box by the map over the story's places and the offline gazetteer."""

from __future__ import annotations

import numpy as np
import streamlit as st

from dashboard.state import Key, ViewState
from dashboard.stories import Shown, load
from geo.geocoders.gazetteer import Gazetteer
from geo.names import clip, literal, normalize

# What a reader may type: longer text is cut before it is looked up or shown.
MAX_QUERY_CHARS = 80
# The box lists at most this many of the story's places (those with the most events): 20,000
# options cost every rerun ~30 ms to send. Any other place is found by its name and Enter.
LISTED_PLACES = 2_000


@st.cache_resource(max_entries=4, show_spinner="Opening the gazetteer …")
def _gazetteer(path: str, fingerprint: tuple) -> Gazetteer:
    # Once per story version (a few seconds): the story's places first, then GeoNames and the
    # areas, offline.
    return Gazetteer.load(load(path, fingerprint).places)


def _labels(shown: Shown) -> dict[str, str]:
    """Each story place's id and what the box lists for it: name, kind and country."""
    return _story_labels(*shown.key)


@st.cache_resource(max_entries=4)
def _story_labels(path: str, fingerprint: tuple) -> dict[str, str]:
    # Once per story version: 20,000 places took 200 ms of every slider move.
    story = load(path, fingerprint)
    places = story.places
    if len(places) > LISTED_PLACES:
        counts = story.events["place_id"].value_counts(sort=False)
        busy = places["id"].map(counts).fillna(0).to_numpy()
        # Stable: equally busy places keep the story's order.
        places = places.iloc[np.argsort(-busy, kind="stable")[:LISTED_PLACES]]
    return {
        p.id: f"{p.name} · {p.kind}, {p.country}" for p in places.sort_values("name").itertuples()
    }


def story_place(shown: Shown, text: str) -> str | None:
    """The id of the story place called ``text`` (its name or an alias), else of the first
    whose name or alias starts with it ("Baal" finds Baalbek), or None."""
    key = normalize(text)
    if not key:
        return None
    names = [
        (p.id, [normalize(n) for n in (p.name, *p.aliases)])
        for p in shown.story.places.sort_values("name").itertuples()
    ]
    exact = next((pid for pid, ns in names if key in ns), None)
    return exact or next((pid for pid, ns in names if any(n.startswith(key) for n in ns)), None)


def _picked(shown: Shown, state: ViewState) -> None:
    """The box's choice: a story place is selected; another name is looked up offline."""
    value = state.session.get(Key.PLACE_SEARCH)
    # Cleared for the next search: the choice lives on as the selection or the hit.
    state.session[Key.PLACE_SEARCH] = None
    if not value:
        return
    text = " ".join(str(value).split())[:MAX_QUERY_CHARS]
    place_id = text if text in _labels(shown) else story_place(shown, text)
    if place_id:
        state.selected, state.found = f"place:{place_id}", None
        return
    # lookup(), not search(): search() also reads every division's qualified names (seconds).
    hits = _gazetteer(*shown.key).lookup(text)[:1] if text else []
    if not hits:
        state.found = {"miss": text}
        return
    hit = hits[0]
    where = ", ".join(x for x in (hit.kind, hit.country) if x)
    # The map goes to the hit: a selection elsewhere would hold it back.
    state.selected = None
    state.found = {"name": hit.name, "lat": hit.lat, "lon": hit.lon, "note": where}


def place_search(shown: Shown, state: ViewState) -> None:
    """The search box: type a name, pick one of the story's places or press Enter to look the
    name up in the gazetteer."""
    labels = _labels(shown)
    st.selectbox(
        "Find a place",
        list(labels),
        index=None,
        format_func=lambda v: labels.get(v, clip(str(v), MAX_QUERY_CHARS)),
        placeholder="Find a place…",
        accept_new_options=True,
        key=Key.PLACE_SEARCH,
        on_change=_picked,
        args=(shown, state),
        label_visibility="collapsed",
        help=(
            "The story's places; another name is looked up in the offline gazetteer."
            if len(labels) == len(shown.story.places)
            else f"The story's {LISTED_PLACES:,} places with the most events; type another "
            "place's name and press Enter to find it, or any name to look it up in the offline "
            "gazetteer."
        ),
    )
    found = state.found
    if found and "miss" in found:
        st.caption(f"No place called {literal(clip(found['miss']))} in the gazetteer.")
    elif found:
        st.caption(
            f"Gazetteer: {literal(found['name'])} · {literal(found['note'])}, "
            "not a place of this story."
        )


def found_on_map(state: ViewState) -> dict | None:
    """The gazetteer's hit as the map draws it (name, lat, lon), or None."""
    found = state.found
    if not found or "miss" in found:
        return None
    return {"name": found["name"], "lat": found["lat"], "lon": found["lon"]}
