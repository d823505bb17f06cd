"""One storage contract for saved stories: a local folder (the default) or PostgreSQL + PostGIS.

``story_store()`` picks the backend from the environment: with ``DATELINE_DATABASE_URL`` set to a
``postgresql://`` URL every app server that shares it sees the same stories (geo/story/pg.py);
without it stories are folders under ``user_stories_dir()`` as they always were. Both backends
validate a story exactly as ``save_story`` does before it is stored, refuse an id that exists
("already exists"), and list only whole stories: a save killed half-way leaves nothing listed.

The app reads a story through a local folder either way (``folder(entry)``): the PostgreSQL
backend writes a story's files once per version into the cache folder, so the loader, the
exports and the zip download work on files as before.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Protocol

from geo.story.library import (
    BUNDLED,
    TEMP_PREFIX,
    StoryEntry,
    clean_stale,
    find_stories,
    user_stories_dir,
)
from geo.story.load.schema import Limits
from geo.story.model import Story
from geo.story.storage import folder_files, save_story, story_zip

DATABASE_ENV = "DATELINE_DATABASE_URL"


class StoryStore(Protocol):
    """Where the stories people save live (the bundled ones always stay in the checkout)."""

    def where(self) -> str:
        """Where stories are saved, for the reader ("~/.local/share/…", "PostgreSQL at …")."""

    def entries(self) -> dict[str, StoryEntry]:
        """The saved stories by id (never one being saved)."""

    def save(
        self,
        story_id: str,
        files: dict[str, bytes],
        *,
        limits: Limits | None = None,
        replace: bool = False,
    ) -> Story:
        """Validate and store ``files`` as ``story_id``; raise what ``save_story`` raises."""

    def folder(self, entry: StoryEntry) -> Path:
        """A local folder holding ``entry``'s files (the loader reads stories from folders)."""

    def files(self, story_id: str) -> dict[str, bytes]:
        """A saved story's files by name; KeyError when there is no such story."""

    def zip(self, story_id: str) -> bytes:
        """A saved story as zip bytes, as ``story_zip`` makes them."""

    def delete(self, story_id: str) -> bool:
        """Remove a saved story; False when there was none."""

    def tidy(self) -> None:
        """Remove what saves that died left behind (at server start)."""

    def events(self, story_id: str):
        """A saved story's events with the event store's queries (window, count, frames)."""


class FolderStore:
    """Stories as folders under ``root`` (``user_stories_dir()`` by default): today's behaviour."""

    def __init__(
        self, root: Path | None = None, bundled: Path = BUNDLED, cache: Path | None = None
    ) -> None:
        self.root = Path(root) if root is not None else user_stories_dir()
        self.bundled = bundled
        self.cache = cache  # the event stores' folder (None: the default cache folder)

    def where(self) -> str:
        return str(self.root)

    def entries(self) -> dict[str, StoryEntry]:
        found = find_stories(self.root)
        return {k: StoryEntry(e.id, e.title, e.path, False, e.problem) for k, e in found.items()}

    def save(self, story_id, files, *, limits=None, replace=False) -> Story:
        return save_story(
            self.root, story_id, files, limits=limits, bundled=self.bundled, replace=replace
        )

    def folder(self, entry: StoryEntry) -> Path:
        return entry.path

    def files(self, story_id: str) -> dict[str, bytes]:
        entry = self.entries()[story_id]
        return folder_files(entry.path)

    def zip(self, story_id: str) -> bytes:
        return story_zip(self.entries()[story_id].path)

    def delete(self, story_id: str) -> bool:
        entry = self.entries().get(story_id)
        if entry is None:
            return False
        # Out of the listing in one rename, then removed: never half a story on the picker.
        gone = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=self.root))
        os.rename(entry.path, gone / "story")
        shutil.rmtree(gone, ignore_errors=True)
        return True

    def tidy(self) -> None:
        clean_stale(self.root)

    def events(self, story_id: str, *, in_process: bool = False):
        from geo.story.events_store import open_store

        return open_store(self.entries()[story_id].path, self.cache, in_process=in_process)


def story_store(environ=None) -> StoryStore:
    """The store ``DATELINE_DATABASE_URL`` names, else the stories folder."""
    url = (os.environ if environ is None else environ).get(DATABASE_ENV, "").strip()
    if not url:
        return FolderStore()
    from geo.story.pg import PostgresStore  # psycopg is imported only when it is used

    return PostgresStore.for_url(url)


def all_stories(store: StoryStore | None = None) -> dict[str, StoryEntry]:
    """The bundled stories, then the saved ones (a bundled id wins, as in ``find_stories``)."""
    found = find_stories(BUNDLED)
    for sid, entry in (store or story_store()).entries().items():
        found.setdefault(sid, entry)
    return found


def story_folder(entry: StoryEntry, store: StoryStore | None = None) -> Path:
    """A local folder with ``entry``'s files: the bundled or saved folder, or the database's
    copy of it written under the cache folder."""
    if entry.bundled:
        return entry.path
    return (store or story_store()).folder(entry)


def open_listed(path: str | Path, store: StoryStore | None = None) -> Story:
    """``open_story`` for a folder the picker lists: a database story's big events are queried
    in the database, every other story is opened as before. Raises StoryError only."""
    from geo.story.events_store import open_story

    store = store or story_store()
    entry_for = getattr(store, "entry_for", None)
    entry = entry_for(Path(path)) if entry_for else None
    if entry is None:
        return open_story(path)
    from geo.story.pg import open_saved_story

    return open_saved_story(store, entry)
