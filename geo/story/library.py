"""Where stories live: the bundled ones in the checkout and the user's own stories folder."""

from __future__ import annotations

import os
import re
import shutil
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from geo.bounded import InputError
from geo.errors import READ_FAILURES, failure_text
from geo.names import is_slug, one_line
from geo.story.load.meta import read_meta

BUNDLED = Path(__file__).resolve().parents[2] / "data" / "stories"
DEFAULT_STORY = "qalamoun-2017"
# A story being saved is written under this dot-prefixed name first; the library never lists
# dot-folders, so a save killed half-way is never offered as a story.
TEMP_PREFIX = ".saving-"
# What tempfile.mkdtemp(prefix=".<id>.") left behind before TEMP_PREFIX existed.
_LEGACY_TEMP = re.compile(r"\.[a-z0-9][a-z0-9-]*\.[a-z0-9_]{8}")
STALE_SECONDS = 3600


def user_stories_dir() -> Path:
    """The folder new stories are saved to: $DATELINE_STORIES_DIR or ~/.local/share/dateline."""
    env = os.environ.get("DATELINE_STORIES_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dateline" / "stories"


@dataclass(frozen=True)
class StoryEntry:
    """A story folder found on disk, before it is loaded.

    ``problem`` says why its story.toml cannot be read (the picker lists it as "cannot be
    shown"); None when it can, which does not yet mean the story's other files are right.
    """

    id: str
    title: str
    path: Path
    bundled: bool
    problem: str | None = None


# The picker reads every folder's title on every page run: a title is read once per version of
# its story.toml (inode, size, mtime), so a big or broken file costs one read, not one a run.
_TITLES: dict[tuple, tuple[str, str | None]] = {}
_TITLES_KEPT = 1_000


def _title(path: Path) -> tuple[str, str | None]:
    """(title, None) of a story folder, or (folder name, why story.toml cannot be read)."""
    file = path / "story.toml"
    try:
        st = file.stat()
    except OSError as exc:
        return path.name, failure_text(exc)
    key = (str(file), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _TITLES:
        if len(_TITLES) >= _TITLES_KEPT:
            _TITLES.clear()
        _TITLES[key] = _read_title(path)
    return _TITLES[key]


def _read_title(path: Path) -> tuple[str, str | None]:
    try:
        _, meta = read_meta(path / "story.toml")
    except InputError as exc:
        return path.name, f"story.toml {exc}"
    except UnicodeDecodeError:
        return path.name, "story.toml is not UTF-8 text"
    except tomllib.TOMLDecodeError:
        return path.name, "story.toml is not valid TOML"
    except READ_FAILURES as exc:
        return path.name, f"story.toml cannot be read ({failure_text(exc)})"
    title = meta.get("title")
    if not isinstance(title, str) or not one_line(title):
        return path.name, None
    return one_line(title), None


def clean_stale(folder: Path, older_than: float = STALE_SECONDS) -> list[str]:
    """Remove temporary folders of saves that died (older than ``older_than`` seconds)."""
    removed = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    now = time.time()
    for path in entries:
        temp = path.name.startswith(TEMP_PREFIX) or _LEGACY_TEMP.fullmatch(path.name)
        try:
            stale = temp and path.is_dir() and now - path.stat().st_mtime > older_than
        except OSError:
            continue
        if stale:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path.name)
    return removed


def find_stories(*folders: Path) -> dict[str, StoryEntry]:
    """Story folders (those with a story.toml) by id; a bundled id wins over a user's copy.

    Only folders named as ids are stories: dot-folders (saves in progress) never are.
    """
    found: dict[str, StoryEntry] = {}
    for n, folder in enumerate(folders or (BUNDLED, user_stories_dir())):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if not is_slug(path.name) or path.name in found:
                continue
            if (path / "story.toml").is_file():
                title, problem = _title(path)
                found[path.name] = StoryEntry(path.name, title, path, n == 0, problem)
    return found
