"""Where stories live: the bundled ones in the checkout and the user's own stories folder."""

from __future__ import annotations

import os
import re
import shutil
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from geo.names import is_slug

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
    """A story folder found on disk, before it is loaded."""

    id: str
    title: str
    path: Path
    bundled: bool


def _title(path: Path) -> str:
    try:
        title = tomllib.loads((path / "story.toml").read_text(encoding="utf-8-sig"))["title"]
        return title if isinstance(title, str) and title.strip() else path.name
    except (OSError, tomllib.TOMLDecodeError, KeyError, UnicodeDecodeError):
        return path.name


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
                found[path.name] = StoryEntry(path.name, _title(path), path, bundled=n == 0)
    return found
