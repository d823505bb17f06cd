"""The sidebar: the story picker, the filters, the layers, the downloads and the base map."""

from __future__ import annotations

import os

import streamlit as st

from dashboard.state import Key, ViewState, layer_key
from dashboard.stories import Filters, Shown, story_labels
from geo.map.layers import ONLINE_TILES
from geo.map.publish import embed_code, publish_html
from geo.story.export import country_name
from geo.story.library import StoryEntry
from geo.story.storage import story_zip
from geo.story.timeline import TEXT_MAX, clean_text
from geo.story.urlstate import LAYERS, TILES, parse_tiles

TILE_NAMES = {"offline": "Offline map", **{k: v[0] for k, v in ONLINE_TILES.items()}}
NEW_STORY_PAGE = "pages/1_New_story_from_an_article.py"
# Shown in the sidebar until the map has painted and the whole page is drawn (tests wait on it).
LOADING_TEXT = "Filters and layers appear once the map is drawn …"


def default_tiles() -> str:
    """The base layer DATELINE_ONLINE_TILES sets: 1/true for OpenStreetMap, or a TILES name."""
    env = os.environ.get("DATELINE_ONLINE_TILES", "").lower()
    return "osm" if env in ("1", "true", "yes") else parse_tiles(env)


def story_picker(
    stories: dict[str, StoryEntry], default_story: str, state: ViewState, whole: bool
) -> str:
    """The pages' links and the story picker (a loading note on a map-first run); the story."""
    with st.sidebar:
        st.markdown("### Dateline")
        if whole:
            st.page_link("app.py", label="Map of the story")
            st.page_link(NEW_STORY_PAGE, label="New story from an article")
            labels = story_labels(stories)
            return st.selectbox(
                "Story",
                list(stories),
                format_func=labels.get,
                key=Key.STORY_PICK,
            )
        # The sidebar is there from the start, so the map does not shift when it fills.
        st.caption(LOADING_TEXT)
        story_id = state.story_pick
        return story_id if story_id in stories else default_story


def embed_box(title: str, file_name: str) -> None:
    """*Copy embed code*: the published file's <iframe> snippet, as text in a code box."""
    with st.expander("Copy embed code"):
        st.caption(
            f"Put the published file ({file_name}) beside your article, or write its full "
            "address in src, and paste this into the page's HTML (the box's copy button)."
        )
        # st.code shows it as text: the title inside is escaped for the attribute, not rendered.
        st.code(embed_code(title, file_name), language="html", wrap_lines=True)


def categories_summary(chosen: list[str], offered: list[str]) -> str:
    """The categories box's title: 'Categories: all 15', '3 of 15', or none."""
    if set(offered) <= set(chosen):
        return f"Categories: all {len(offered)}"
    if not chosen:
        return "Categories: none (no events shown)"
    return f"Categories: {len(chosen)} of {len(offered)}"


def _categories(shown: Shown, state: ViewState) -> list[str]:
    """The category filter, folded under a title that says how many are on. A multiselect
    showed all 15 as red tags in a small scrolling box; here each is a toggle (one Tab stop
    each, Enter or Space to switch), seen only when the reader opens the box."""
    # Keyed, so the box stays open while its title changes with the choice.
    with st.expander(categories_summary(state.categories, shown.categories), key="cats_box"):
        chosen = st.pills(
            "Which categories to show",
            shown.categories,
            selection_mode="multi",
            key=Key.CATEGORIES,
            label_visibility="collapsed",
        )
        st.button(
            "All categories",
            on_click=_all_categories,
            args=(state, shown.categories),
            disabled=set(shown.categories) <= set(chosen),
            key="cats_all",
        )
    return chosen


def _all_categories(state: ViewState, offered: list[str]) -> None:
    state.categories = list(offered)


def _all_actors_is_none(state: ViewState, offered: list[str]) -> None:
    # Every actor picked is no filter: the box shows "All actors" and the URL carries none.
    if offered and set(offered) <= set(state.actors):
        state.actors = []


def filters(shown: Shown, state: ViewState, whole: bool) -> Filters:
    """The sidebar's filters, layers, downloads and base map; on a map-first run, the filters
    as the session holds them (from the link, or the defaults)."""
    if not whole:
        return Filters(
            state.categories,
            state.actors,
            state.layers,
            state.tiles,
            state.killed,
            tuple(state.countries),
            clean_text(state.text),
            tuple(state.admin1),
            tuple(state.sub_types),
        )
    story = shown.story
    with st.sidebar:
        categories = _categories(shown, state)
        actors = st.multiselect(
            "Actors",
            shown.actors,
            key=Key.ACTORS,
            placeholder="All actors",
            help="Events involving any of these",
            on_change=_all_actors_is_none,
            args=(state, shown.actors),
        )
        killed = _killed_filter(shown, state)
        countries = _country_filter(shown, state)
        admin1 = _region_filter(shown, state, countries)
        sub_types = _sub_type_filter(shown, state)
        text = st.text_input(
            "Search the events' text",
            key=Key.TEXT,
            max_chars=TEXT_MAX,
            placeholder="Words in summaries and notes",
            help="Events whose summary, source detail or confidence note holds this text "
            "(any case, taken as typed: no wildcards).",
        )
        st.caption("Layers")
        layer_cols = st.columns(2)
        layers = {
            layer
            for n, layer in enumerate(LAYERS)
            if layer_cols[n % 2].toggle(layer.capitalize(), key=layer_key(layer))
        }
        # Decided per export (issue 28): the published file is the whole story on purpose. It
        # is the article's map, with its own slider, chapters and legend for the reader; an
        # analyst's working filters (a toll range, a text search) would silently drop events
        # from a published piece. The help says so. The zip is the story's files, whole, to
        # add it back; the table's downloads and the map's PNG follow the filters.
        st.download_button(
            "Publish as HTML",
            lambda: publish_html(story, state.chapter),
            f"{shown.id}.html",
            "text/html",
            width="stretch",
            help="One file with the map, the chapters and the sources that opens in any browser "
            "with no internet: for an article, an e-mail or a slide. It holds the whole story: "
            "the filters above do not apply to it (its readers have their own legend).",
            on_click="ignore",
        )
        embed_box(story.title, f"{shown.id}.html")
        st.download_button(
            "Download this story (zip)",
            lambda: story_zip(story.path),
            f"{shown.id}.zip",
            "application/zip",
            width="stretch",
            help="The story's files, whole (the filters above do not apply); upload the zip on "
            "the New story page to add it back.",
            on_click="ignore",
        )
        tiles = st.selectbox(
            "Base map",
            TILES,
            format_func=TILE_NAMES.get,
            key=Key.TILES,
            help="Online maps need the internet; the offline map stays underneath.",
        )
    return Filters(
        categories, actors, layers, tiles, killed, countries, clean_text(text), admin1, sub_types
    )


def _killed_filter(shown: Shown, state: ViewState) -> tuple[int, int] | None:
    """The fatalities range (events' reported ``killed``); None when it is the whole range or
    the story has no figure to filter on."""
    top = shown.killed_top
    if not top:
        state.killed = None
        return None
    # A range from another story, or past this one's figures, starts over.
    kept = state.session.get(Key.KILLED)
    if not (isinstance(kept, tuple | list) and len(kept) == 2 and 0 <= kept[0] <= kept[1] <= top):
        state.session[Key.KILLED] = (0, top)
    lo, hi = st.slider(
        "Killed (reported)",
        min_value=0,
        max_value=top,
        key=Key.KILLED,
        help="Events whose reported death toll lies in this range. While the range is "
        "narrowed, events with no reported figure are left out.",
    )
    state.killed = None if (lo, hi) == (0, top) else (lo, hi)
    return state.killed


def _country_filter(shown: Shown, state: ViewState) -> tuple[str, ...]:
    """The places' countries to show (none chosen: every one); only for a story in more than
    one country."""
    if len(shown.countries) < 2:
        state.countries = []
        return ()
    # Codes from another story, or from a link, that this one has not.
    kept = state.countries
    if not isinstance(kept, list) or not set(kept) <= set(shown.countries):
        state.countries = [c for c in kept or [] if c in shown.countries]
    chosen = st.multiselect(
        "Countries",
        shown.countries,
        key=Key.COUNTRIES,
        format_func=_country_label,
        placeholder="All countries",
        help="Events at places in any of these countries (a border place counts for both).",
    )
    return tuple(chosen)


def _region_filter(shown: Shown, state: ViewState, countries: tuple[str, ...]) -> tuple[str, ...]:
    """The places' admin1 names to show (none chosen: every place), offered within the chosen
    countries; only when there are two or more to choose from."""
    offered = shown.regions_in(countries)
    if len(offered) < 2:
        state.admin1 = []
        return ()
    # Names of another story, a link's, or outside the countries chosen since.
    kept = state.admin1
    if not isinstance(kept, list) or not set(kept) <= set(offered):
        state.admin1 = [a for a in kept or [] if a in offered]
    chosen = st.multiselect(
        "Regions (admin1)",
        offered,
        key=Key.ADMIN1,
        placeholder="All regions",
        help="Events at places in any of these first-level divisions (provinces, governorates, "
        "states), as the story's places name them. A place without one is left out while "
        "regions are chosen.",
    )
    return tuple(chosen)


def _sub_type_filter(shown: Shown, state: ViewState) -> tuple[str, ...]:
    """The events' own finer types to show (none chosen: every event); only when the story's
    events have two or more."""
    if len(shown.sub_types) < 2:
        state.sub_types = []
        return ()
    kept = state.sub_types
    if not isinstance(kept, list) or not set(kept) <= set(shown.sub_types):
        state.sub_types = [t for t in kept or [] if t in shown.sub_types]
    chosen = st.multiselect(
        "Sub-event types",
        shown.sub_types,
        key=Key.SUB_TYPES,
        placeholder="All sub-event types",
        help="Events the dataset coded with any of these types (ACLED's sub-event type, UCDP's "
        "type of violence, GDELT's CAMEO root): finer than the categories.",
    )
    return tuple(chosen)


def _country_label(code: str) -> str:
    name = country_name(code)
    return f"{name} ({code})" if name and name != code else code
