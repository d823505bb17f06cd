"""The stories on disk, the one on screen with its facets, and the caches that keep them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import duckdb
import numpy as np
import streamlit as st

from geo.map.assets import ensure_static
from geo.map.style import CATEGORY_COLOURS
from geo.names import distinct_labels
from geo.story.events_store import Narrow
from geo.story.library import StoryEntry
from geo.story.load import Problem, Story, StoryError, story_words, unreadable
from geo.story.load import source_names as cited_names
from geo.story.place_index import PlaceIndex
from geo.story.storage import StorageError
from geo.story.store import open_listed, story_folder, story_store
from geo.story.timeline import (
    all_actors,
    clean_text,
    country_cells,
    killed_range,
    place_countries,
    story_countries,
    used_values,
)
from geo.story.urlstate import View

ROOT = Path(__file__).resolve().parents[1]


STATIC_DIR = ROOT / "static"
BASEMAP_DIR = ROOT / "data" / "basemap"


@st.cache_resource
def _static_checked() -> bool:
    # The temporary folders of saves that were killed half-way go too.
    story_store().tidy()
    problem = ensure_static(STATIC_DIR, BASEMAP_DIR)
    if problem:
        raise OSError(problem)  # not cached: the next run checks again
    return True


def static_ready() -> str | None:
    """None once the map's static files are in place (checked once per server start), else what
    keeps the map from being drawn."""
    # Streamlit serves only ./static beside app.py, so the map's scripts and the basemap live
    # there, built at set-up (``python3 dev.py setup``, which ``dev.py run`` includes): the app
    # only checks them, and writes them only where they are missing or stale (a developer's
    # checkout after editing geo/map/js). Everything it makes while it runs goes to the cache
    # folder (geo/paths.py), never into the checkout.
    try:
        _static_checked()
    except OSError as exc:
        return str(exc)
    return None


@st.cache_resource(max_entries=4)
def load(path: str, fingerprint: tuple) -> Story:
    """The story at ``path``, once per version (``fingerprint``)."""
    # fingerprint (file names and mtimes) is hashed with the path: an edited story reloads.
    # cache_resource, not cache_data: a big story is shared read-only instead of copied per rerun.
    # A big story's events stay on disk (geo/story/events_store.py), checked once and cached,
    # or in the database when the stories are kept there (geo/story/pg.py).
    return open_listed(path)


def fingerprint(path: Path) -> tuple:
    """The names and mtimes of a story folder's files: its version, for the caches' keys."""
    return tuple(sorted((f.name, f.stat().st_mtime_ns) for f in path.iterdir() if f.is_file()))


@st.cache_resource(max_entries=4)
def _facets(path: str, fingerprint: tuple) -> tuple[list[str], list[str], dict[str, str]]:
    # Once per story: scanning a million events' actors on every rerun would cost seconds.
    story = load(path, fingerprint)
    order = list(CATEGORY_COLOURS)
    # A big story's categories are in its store's summary: no pass over its events.
    found = story.store.categories if story.store else story.events["category"].unique()
    cats = sorted(found, key=lambda c: (order.index(c), c))
    names = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    return cats, story.store.actors if story.store else all_actors(story.events), names


@st.cache_resource(max_entries=4)
def _narrow_facets(path: str, fingerprint: tuple) -> tuple:
    # Once per story: the countries of the places its events name, and its highest toll; the
    # admin1 names of those places (with their countries) and its events' sub-types.
    story = load(path, fingerprint)
    used = _used_places(story, path, fingerprint)
    countries = story_countries(used)
    regions = _regions(used)
    if story.store is None:
        subs = sorted({t for t in story.events["sub_type"] if isinstance(t, str) and t})
        return countries, killed_range(story.events), regions, subs
    subs = list(getattr(story.store, "sub_types", []))
    # One max() in the big story's store, DuckDB's or the database's: the slider is offered
    # for both (the Parquet statistics read before had no database counterpart).
    try:
        top = story.store.max_killed()
    except (OSError, StorageError, duckdb.Error):
        top = None  # no slider rather than no story: the other filters still work
    return countries, top, regions, subs


@st.cache_resource(max_entries=4)
def place_index(path: str, fingerprint: tuple) -> PlaceIndex:
    """The story's events by place, once per story: a big window is then counted, not
    searched. A big story's cache entry has it already (mapped from disk); any other story
    builds it here."""
    s = load(path, fingerprint)
    stored = getattr(s.store, "place_index", None)
    return (stored and stored()) or PlaceIndex.of(s.events, s.places)


def _used_places(story: Story, path: str, fingerprint: tuple):
    """The rows of ``story.places`` that its events name."""
    places = story.places
    if story.store is not None:
        # A big story's events by place (the map's own index): a binary search per place,
        # not a pass over ten million events (0.1-0.2 s of a first page).
        index = place_index(path, fingerprint)
        lo, hi = index.groups((0, len(index.codes)), len(places))
        return places.iloc[np.flatnonzero(hi > lo)]
    return places[places["id"].isin(used_values(story.events["place_id"]))]


def _regions(used) -> dict[str, tuple[str, ...]]:
    """Each admin1 name of the places ``used`` and the countries its places lie in."""
    if "admin1" not in used:
        return {}
    out: dict[str, set[str]] = {}
    # Each distinct pair once: a place at a time over 20,000 places took 90 ms.
    pairs = used[["admin1", "country"]].drop_duplicates()
    for name, cell in zip(pairs["admin1"].tolist(), pairs["country"].tolist(), strict=True):
        if isinstance(name, str) and name:
            out.setdefault(name, set()).update(place_countries(cell))
    return {name: tuple(sorted(out[name])) for name in sorted(out)}


@dataclass(frozen=True)
class Shown:
    """The story on screen, its facets and the version its caches are keyed by."""

    id: str
    story: Story
    path: Path
    fingerprint: tuple
    categories: list[str]  # every category of its events, in the legend's order
    actors: list[str]
    source_names: dict[str, str]  # publication by source id
    countries: list[str] = field(default_factory=list)  # country codes of its events' places
    killed_top: int | None = None  # its events' highest reported killed figure
    # The admin1 names of its events' places, each with the countries it lies in.
    regions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sub_types: list[str] = field(default_factory=list)  # its events' own finer types

    def regions_in(self, countries) -> list[str]:
        """The admin1 names offered: those in any of ``countries``, all when none is given."""
        wanted = set(countries)
        return [r for r, cs in self.regions.items() if not wanted or wanted.intersection(cs)]

    @property
    def key(self) -> tuple[str, tuple]:
        """The arguments of the caches that hold this story and what is made from it."""
        return str(self.path), self.fingerprint

    @property
    def words(self) -> dict[str, str]:
        """The story's own words for its convoy, enclave and held area."""
        return story_words(self.story.meta)

    def source_name(self, source_id: str) -> str:
        """How a source is cited."""
        return cited_names(source_id, self.source_names)


def open_shown(stories: dict[str, StoryEntry], story_id: str) -> Shown:
    """The story ``story_id`` and its facets, both cached per version.

    Raises StoryError, and nothing else, for a story that cannot be shown.
    """
    entry = stories[story_id]
    if entry.problem:
        raise StoryError(entry.path, [Problem("story.toml", "", entry.problem)])
    try:
        # The folder itself, or the database's copy of the story written under the cache.
        path = story_folder(entry)
        version = fingerprint(path)
    except OSError as exc:  # the folder went away since it was listed
        raise unreadable(entry.path, exc) from exc
    except StorageError as exc:  # the database cannot be reached
        raise StoryError(entry.path, [Problem("database", "", str(exc))]) from exc
    story = load(str(path), version)
    cats, acts, names = _facets(str(path), version)
    countries, top, regions, subs = _narrow_facets(str(path), version)
    return Shown(story_id, story, path, version, cats, acts, names, countries, top, regions, subs)


def describe(stories: dict[str, StoryEntry], story_id: str) -> tuple:
    """A story's span, categories, actors, countries, admin1 names and sub-types, for reading
    a link (empty when it cannot be shown)."""
    try:
        s = open_shown(stories, story_id)
    except StoryError:
        return (date.min, date.max), [], [], [], [], []
    span = (s.story.start, s.story.end)
    return span, s.categories, s.actors, s.countries, list(s.regions), s.sub_types


def story_labels(stories: dict[str, StoryEntry]) -> dict[str, str]:
    """The stories' names in the picker, by id; a folder's name follows a title two share."""
    labels = {}
    for entry in stories.values():
        if entry.problem:
            labels[entry.id] = f"{entry.id} — cannot be shown ({entry.problem})"
        else:
            labels[entry.id] = entry.title + ("" if entry.bundled else " (yours)")
    # A picker holds its choice by label: of two stories with one title, the second could not
    # be chosen, and a link to it turned to the first on the next run.
    return distinct_labels(labels)


@dataclass(frozen=True)
class Filters:
    """What the sidebar shows of the story: categories, actors, layers and the base map."""

    categories: list[str]
    actors: list[str]
    layers: set[str]
    tiles: str
    killed: tuple[int, int] | None = None  # the fatalities range; None: no filter
    countries: tuple[str, ...] = ()  # the places' country codes; empty: every country
    text: str | None = None  # searched in summaries and notes; None: no search
    admin1: tuple[str, ...] = ()  # the places' admin1 names; empty: every place
    sub_types: tuple[str, ...] = ()  # the events' sub-types; empty: every event

    def narrow(self, shown: Shown) -> Narrow | None:
        """The filters beyond categories and actors, as the store takes them (countries as the
        places' cells: ``LB`` picks ``LB`` and ``LB|SY``); None when there are none."""
        chosen = self.countries_or_all(shown)
        countries = country_cells(shown.story.places, chosen) if chosen else None
        text = clean_text(self.text)
        admin1 = self.admin1_chosen(shown) or None
        subs = tuple(t for t in self.sub_types if t in shown.sub_types) or None
        if (self.killed, countries, text, admin1, subs) == (None,) * 5:
            return None
        return Narrow(self.killed, countries, text, admin1, subs)

    def admin1_chosen(self, shown: Shown) -> tuple[str, ...]:
        """The chosen admin1 names the story has (within the chosen countries, if any)."""
        offered = set(shown.regions_in(self.countries_or_all(shown)))
        return tuple(a for a in self.admin1 if a in offered)

    def categories_or_all(self, shown: Shown) -> list[str] | None:
        """The chosen categories, or None when they are all of the story's (no filter)."""
        # As sets: switching one off and on again changes the order, not the filter.
        return None if set(shown.categories) <= set(self.categories) else self.categories

    def actors_or_all(self, shown: Shown) -> list[str]:
        """The chosen actors, or none when they are all of the story's: all is the default, so
        a link with every actor picked carries none."""
        return [] if shown.actors and set(shown.actors) <= set(self.actors) else self.actors

    def countries_or_all(self, shown: Shown) -> list[str]:
        """The chosen countries of the story's, or none when they are all of them."""
        chosen = [c for c in self.countries if c in shown.countries]
        return [] if set(shown.countries) <= set(chosen) else chosen

    def view(self, shown: Shown, start: date, end: date, selected: str | None) -> View:
        """The view a link keeps: ``shown`` in the window [start, end] through these filters."""
        cats = self.categories_or_all(shown)
        return View(
            shown.id,
            start,
            end,
            None if cats is None else tuple(cats),
            tuple(self.actors_or_all(shown)),
            frozenset(self.layers),
            selected,
            self.killed,
            tuple(self.countries_or_all(shown)),
            clean_text(self.text),
            self.admin1_chosen(shown),
            tuple(t for t in self.sub_types if t in shown.sub_types),
        )
