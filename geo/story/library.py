"""Where stories live: the bundled ones in the checkout and the user's own stories folder."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

BUNDLED = Path(__file__).resolve().parents[2] / "data" / "stories"
DEFAULT_STORY = "qalamoun-2017"


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
        return str(tomllib.loads((path / "story.toml").read_text(encoding="utf-8"))["title"])
    except (OSError, tomllib.TOMLDecodeError, KeyError, UnicodeDecodeError):
        return path.name


def find_stories(*folders: Path) -> dict[str, StoryEntry]:
    """Story folders (those with a story.toml) by id; a bundled id wins over a user's copy."""
    found: dict[str, StoryEntry] = {}
    for n, folder in enumerate(folders or (BUNDLED, user_stories_dir())):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if (path / "story.toml").is_file() and path.name not in found:
                found[path.name] = StoryEntry(path.name, _title(path), path, bundled=n == 0)
    return found
