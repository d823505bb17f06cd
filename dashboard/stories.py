"""The stories on disk, the one on screen with its facets, and the caches that keep them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import streamlit as st

from geo.map.assets import ensure_static
from geo.map.style import CATEGORY_COLOURS
from geo.story.library import StoryEntry
from geo.story.load import Problem, Story, StoryError, story_words, unreadable
from geo.story.load import source_names as cited_names
from geo.story.storage import StorageError
from geo.story.store import open_listed, story_folder, story_store
from geo.story.timeline import all_actors
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
    cats = sorted(story.events["category"].unique(), key=lambda c: (order.index(c), c))
    names = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    return cats, story.store.actors if story.store else all_actors(story.events), names


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
    return Shown(story_id, story, path, version, cats, acts, names)


def describe(
    stories: dict[str, StoryEntry], story_id: str
) -> tuple[tuple[date, date], list[str], list[str]]:
    """A story's span, categories and actors, for reading a link (empty when it cannot be shown)."""
    try:
        s = open_shown(stories, story_id)
    except StoryError:
        return (date.min, date.max), [], []
    return (s.story.start, s.story.end), s.categories, s.actors


def story_label(stories: dict[str, StoryEntry], story_id: str) -> str:
    """A story's name in the picker."""
    entry = stories[story_id]
    if entry.problem:
        return f"{entry.id} — cannot be shown ({entry.problem})"
    return entry.title + ("" if entry.bundled else " (yours)")


@dataclass(frozen=True)
class Filters:
    """What the sidebar shows of the story: categories, actors, layers and the base map."""

    categories: list[str]
    actors: list[str]
    layers: set[str]
    tiles: str
    killed: tuple[int, int] | None = None  # the fatalities range; None: no filter

    def categories_or_all(self, shown: Shown) -> list[str] | None:
        """The chosen categories, or None when they are all of the story's (no filter)."""
        # As sets: switching one off and on again changes the order, not the filter.
        return None if set(shown.categories) <= set(self.categories) else self.categories

    def actors_or_all(self, shown: Shown) -> list[str]:
        """The chosen actors, or none when they are all of the story's: all is the default, so
        a link with every actor picked carries none."""
        return [] if shown.actors and set(shown.actors) <= set(self.actors) else self.actors

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
        )
