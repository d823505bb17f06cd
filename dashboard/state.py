"""The page's view, kept in ``st.session_state``: every key it uses, in this one place, typed.

A view over the session, not a copy of it: widgets, their callbacks and reruns write the session
between (and during) runs, and a copy would go stale the moment one did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, Generic, TypeVar

import streamlit as st

from geo.names import clip
from geo.story.urlstate import (
    LAYERS,
    View,
    parse_map_view,
    parse_speed,
    parse_tiles,
    parse_view,
    to_params,
)

T = TypeVar("T")


class Key:
    """The session's keys that other modules name: widgets' keys and one-shot values."""

    # A widget keeps its value in the session under its key.
    STORY_PICK = "story_pick"
    WINDOW = "window"
    CATEGORIES = "categories"
    ACTORS = "actors"
    TILES = "tiles"
    SHOW_TABLE = "show_table"
    CHAPTER_PICK = "chapter_pick"
    SPEED = "play_speed"  # Play's speed: "0.5", "1", "2" or "4" (times)
    LOOP = "play_loop"  # Play starts again from the window's start at its end
    PLACE_SEARCH = "place_search"
    KILLED = "killed"  # the fatalities filter: (lowest, highest) reported killed
    COUNTRIES = "countries"  # the country filter: the places' country codes
    TEXT = "text_search"  # the text searched in summaries and notes
    ADMIN1 = "admin1"  # the region filter: the places' admin1 names
    SUB_TYPES = "sub_types"  # the sub-event type filter: the events' sub_type values
    # One-shot values, each read once by the run after the one that set it.
    CHAPTER_ASKED = "chapter_asked"  # the link's chapter, opened by the session's first run
    CHAPTER_MISSING = "chapter_missing"  # the link's chapter does not exist: the bar says so
    TOUR_NEXT = "tour_next"  # the Tour's next chapter is due
    PLAY_DUE = "play_due"  # Play's next day is due
    WHOLE_PAGE = "whole_page"  # the panel must rerun the whole page (the sidebar changed too)
    MAP_FIRST = "map_first"


def layer_key(layer: str) -> str:
    """The key of the toggle that shows ``layer``."""
    return f"layer_{layer}"


# A run of the New story page drops this page's widget state (Streamlit keeps only what a run
# draws): a plain copy of each value brings the reader back to the same view. The window is also
# copied by the panel, as a slider move reruns only that.
KEPT = (
    Key.STORY_PICK,
    Key.WINDOW,
    Key.CATEGORIES,
    Key.ACTORS,
    Key.TILES,
    Key.SHOW_TABLE,
    Key.SPEED,
    Key.LOOP,
    Key.KILLED,
    Key.COUNTRIES,
    Key.TEXT,
    Key.ADMIN1,
    Key.SUB_TYPES,
    *map(layer_key, LAYERS),
)


class _Value(Generic[T]):
    """One value of the view, kept in the session under ``key`` (``default`` until set)."""

    def __init__(self, key: str, default: T) -> None:
        self.key, self.default = key, default

    def __get__(self, view: ViewState, owner: type) -> T:
        return view.session.get(self.key, self.default)

    def __set__(self, view: ViewState, value: T) -> None:
        view.session[self.key] = value


class ViewState:
    """What the reader is looking at and what the page is doing, read from the session."""

    link = _Value[View | None]("view", None)  # the view the link asked for, once per session
    notices = _Value[list[str]]("notices", [])  # what the link asked for that was ignored
    story_pick = _Value[str | None](Key.STORY_PICK, None)
    window = _Value[tuple[date, date]](Key.WINDOW, (date.min, date.max))
    window_for = _Value[str | None]("window_for", None)  # the story the window belongs to
    selected = _Value[str | None]("selected", None)  # "kind:id" of what is clicked
    categories = _Value[list[str]](Key.CATEGORIES, [])
    cats_for = _Value[str | None]("cats_for", None)  # the story the categories belong to
    actors = _Value[list[str]](Key.ACTORS, [])
    tiles = _Value[str](Key.TILES, "offline")
    playing = _Value[bool]("playing", False)
    touring = _Value[bool]("touring", False)
    speed = _Value[str | None](Key.SPEED, "1")
    loop = _Value[bool](Key.LOOP, False)
    # The days Play runs over: from the window's start to its end (the story's end for a
    # one-day window), set when Play starts afresh.
    play_span = _Value[tuple[date, date] | None]("play_span", None)
    # The fatalities filter as the panel applies it: None when the slider spans every figure.
    killed = _Value[tuple[int, int] | None]("killed_range", None)
    countries = _Value[list[str]](Key.COUNTRIES, [])  # empty: every country
    text = _Value[str](Key.TEXT, "")
    admin1 = _Value[list[str]](Key.ADMIN1, [])  # empty: every place
    sub_types = _Value[list[str]](Key.SUB_TYPES, [])  # empty: every event
    # The gazetteer's answer to the place search, shown on the map: {name, lat, lon, note}.
    found = _Value[dict | None]("found", None)
    chapter = _Value[int | None]("chapter", None)  # the open chapter's number
    chapter_opened = _Value[int]("chapter_opened", 0)  # chapters opened so far: a new frame each
    chapter_pick = _Value[int | None](Key.CHAPTER_PICK, None)
    pinned = _Value[tuple[int, tuple[float, float]] | None]("pinned", None)  # the link's map view
    pinned_for = _Value[str | None]("pinned_for", None)
    last_tip = _Value[str | None]("last_tip", None)  # the map's last click, handled once
    # This session draws the map first, and the rest once the map has painted.
    map_first = _Value[bool](Key.MAP_FIRST, False)

    def __init__(self) -> None:
        self.session = st.session_state

    def draws_map_first(self, in_browser: bool) -> bool:
        """Whether this run draws the map first: a session's first run does in a browser."""
        return self.session.setdefault(Key.MAP_FIRST, in_browser)

    def fit(self, story_id: str, span: tuple[date, date], categories: list[str]) -> None:
        """The window and filters of story ``story_id``, whose ``span`` and ``categories`` are
        given: a story switch resets them to the new story's own."""
        if self.window_for != story_id:
            if self.window_for is not None:
                self.window = span
                self.selected = None
                self.actors = []
                self.clear_narrow()  # another story's figures, countries and words
            self.window_for = story_id
        # A window from elsewhere (a link that named a story that could not be shown, then
        # another story picked) is never handed to the slider outside this story's span.
        lo, hi = self.window
        if not span[0] <= lo <= hi <= span[1]:
            self.window = span
        if self.cats_for != story_id:
            self.categories = categories
            self.cats_for = story_id

    def clear_narrow(self, top: int | None = None) -> None:
        """No fatalities, country or text filter (a story switch, Reset); ``top`` is the
        story's highest figure, the slider's end."""
        # A slider's key dropped in a callback takes the value the page sent back: set it.
        if top:
            self.session[Key.KILLED] = (0, top)
        else:
            self.session.pop(Key.KILLED, None)
        self.killed = None
        self.countries = []
        self.text = ""
        self.admin1 = []
        self.sub_types = []

    @property
    def layers(self) -> set[str]:
        """The layers the sidebar's toggles show."""
        return {layer for layer in LAYERS if self.session[layer_key(layer)]}

    def take(self, key: str) -> Any:
        """The one-shot value under ``key`` (None when not set), removed as it is read."""
        return self.session.pop(key, None)

    def set_flag(self, key: str, on: bool = True) -> None:
        """Set (or clear) the one-shot flag ``key`` for the next run."""
        self.session[key] = on

    def rest_due(self, at: float) -> float:
        """When the rest of the page is drawn whatever the map says: ``at`` the first time."""
        return self.session.setdefault("rest_due", at)

    def map_report(self, key: str) -> Any:
        """What the map under widget ``key`` reported last (its zoom and bounds), or None."""
        return self.session.get(key)

    def _open_play(self, params: Mapping[str, str]) -> None:
        """Play's speed and loop from the link (``speed=2&loop=1``)."""
        self.play_span = None
        self.found = None
        raw = params.get("speed")
        speed = parse_speed(raw)
        if raw is not None and speed is None:
            self.notices = [*self.notices, f"Ignored speed={clip(raw)!r}: one of 0.5, 1, 2, 4."]
        self.speed = speed or "1"
        self.loop = params.get("loop") == "1"

    def _open_narrow(self, view: View) -> None:
        """The link's fatalities range, countries and text search (the sidebar checks the
        range against the story's figures)."""
        self.clear_narrow()
        if view.killed is not None:
            self.session[Key.KILLED] = view.killed
            self.killed = view.killed
        self.countries = list(view.countries)
        self.text = view.text or ""
        self.admin1 = list(view.admin1)
        self.sub_types = list(view.sub_types)

    def keep(self) -> None:
        """Copy the view's widget values aside, or bring them back after another page's run."""
        for key in KEPT:
            if key in self.session:
                self.session[f"kept_{key}"] = self.session[key]
            elif f"kept_{key}" in self.session:
                self.session[key] = self.session[f"kept_{key}"]

    def keep_window(self, window: tuple[date, date]) -> None:
        """Copy the window aside (a slider move reruns only the panel, not ``keep``)."""
        self.session[f"kept_{Key.WINDOW}"] = window

    def open_link(
        self,
        params: Mapping[str, str],
        stories: list[str],
        default_story: str,
        describe: Callable[[str], tuple],
        default_tiles: str,
    ) -> None:
        """The view the link ``params`` asks for, once per session (the first run's)."""
        if self.link is not None:
            return
        view, notices = parse_view(
            params,
            stories=stories,
            default_story=default_story,
            span_of=lambda s: describe(s)[0],
            categories_of=lambda s: describe(s)[1],
            actors_of=lambda s: describe(s)[2],
            countries_of=lambda s: describe(s)[3],
            regions_of=lambda s: describe(s)[4],
            sub_types_of=lambda s: describe(s)[5],
        )
        self.link = view
        self.notices = notices
        self.story_pick = view.story
        self.window = (view.start, view.end)
        self.selected = view.selected
        self.playing = False
        self.touring = False
        self.cats_for = None
        if view.categories is not None:
            self.categories = list(view.categories)
            self.cats_for = view.story
        self.actors = list(view.actors)
        self._open_narrow(view)
        self.pinned = parse_map_view(params.get("zoom"), params.get("center"))
        self.tiles = parse_tiles(params.get("tiles"), default_tiles)
        self._open_play(params)
        self.session[Key.CHAPTER_ASKED] = params.get("chapter")
        self.chapter = None
        for layer in LAYERS:
            self.session[layer_key(layer)] = layer in view.layers


def write_link(
    view: View,
    tiles: str,
    chapter: int | None,
    default_story: str,
    span: tuple[date, date],
    play: tuple[str | None, bool] = ("1", False),
) -> None:
    """The address follows ``view`` (and Play's ``(speed, loop)``), so a copied link opens the
    same map."""
    params = to_params(view, default_story=default_story, span=span)
    speed, loop = play
    if speed not in (None, "1"):
        params["speed"] = speed
    if loop:
        params["loop"] = "1"
    if chapter:
        params["chapter"] = str(chapter)
    if tiles != "offline":
        params["tiles"] = tiles
    # The map's script writes the reader's zoom and centre into the address itself (no rerun):
    # keep them when the URL is rewritten, if they are sane.
    if parse_map_view(st.query_params.get("zoom"), st.query_params.get("center")):
        params["zoom"], params["center"] = st.query_params["zoom"], st.query_params["center"]
    if params != st.query_params.to_dict():
        st.query_params.from_dict(params)
