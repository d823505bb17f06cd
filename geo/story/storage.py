"""Save a story folder atomically, and move stories in and out of zip files."""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import tomllib
import zipfile
from pathlib import Path

import pandas as pd
import tomli_w

from geo.names import slugify
from geo.story.export import events_csv
from geo.story.load import CONVOY_COLUMNS, PLACE_COLUMNS, Story, StoryError, load_story

STORY_FILES = (
    "story.toml",
    "places.csv",
    "events.csv",
    "events.parquet",
    "convoy.csv",
    "fronts.geojson",
)
MAX_ZIP_BYTES = 20 * 1024 * 1024
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class StoryExistsError(FileExistsError):
    """Raised when saving would replace a story that is already there."""


def _list_cell(value) -> str:
    return "|".join(value) if isinstance(value, list | tuple) else ("" if pd.isna(value) else value)


def places_csv(places: pd.DataFrame) -> str:
    """Places in the columns and formats of places.csv."""
    out = places.reindex(columns=list(PLACE_COLUMNS)).copy()
    out["aliases"] = out["aliases"].map(_list_cell)
    return out.to_csv(index=False)


def convoy_csv(convoy: pd.DataFrame) -> str:
    """Convoy rows in the columns and formats of convoy.csv."""
    out = convoy.reindex(columns=list(CONVOY_COLUMNS)).copy()
    if len(out):
        out["date"] = pd.to_datetime(out["date"]).dt.strftime("%Y-%m-%d")
    return out.to_csv(index=False)


def story_files(
    meta: dict,
    places: pd.DataFrame,
    events: pd.DataFrame,
    convoy: pd.DataFrame | None = None,
    fronts_geojson: str | None = None,
) -> dict[str, bytes]:
    """The bytes of every file of a story folder."""
    files = {
        "story.toml": tomli_w.dumps(meta).encode("utf-8"),
        "places.csv": places_csv(places).encode("utf-8"),
        "events.csv": events_csv(events).encode("utf-8"),
    }
    if convoy is not None and len(convoy):
        files["convoy.csv"] = convoy_csv(convoy).encode("utf-8")
    if fronts_geojson:
        files["fronts.geojson"] = fronts_geojson.encode("utf-8")
    return files


def save_story(root: Path, story_id: str, files: dict[str, bytes]) -> Story:
    """Write ``files`` as ``root/story_id`` and return it loaded.

    The folder is written and validated under a temporary name, then renamed into place, so a
    crash never leaves half a story. Raises StoryError (nothing saved) when the story does not
    validate, and StoryExistsError when ``root/story_id`` already exists.
    """
    root.mkdir(parents=True, exist_ok=True)
    target = root / story_id
    if target.exists():
        raise StoryExistsError(f"a story named {story_id!r} already exists in {root}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{story_id}.", dir=root))
    try:
        for name, data in files.items():
            if name not in STORY_FILES:
                raise ValueError(f"unexpected story file {name!r}")
            with open(tmp / name, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        load_story(tmp)  # raises StoryError: the bad story never reaches its final name
        os.chmod(tmp, 0o755)
        # rename() of a directory onto an existing non-empty one fails: no silent overwrite.
        try:
            os.rename(tmp, target)
        except OSError as exc:
            raise StoryExistsError(f"a story named {story_id!r} already exists in {root}") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return load_story(target)


def story_zip(path: Path) -> bytes:
    """A story folder as zip bytes (files at the top level)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in STORY_FILES:
            if (path / name).exists():
                zf.write(path / name, name)
    return buf.getvalue()


def files_from_zip(data: bytes) -> dict[str, bytes]:
    """The story files inside a zip made by ``story_zip`` (or by hand, with or without a folder).

    Raises ValueError for anything that is not a small zip of story files.
    """
    if len(data) > MAX_ZIP_BYTES:
        raise ValueError("the zip is larger than 20 MB")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ValueError("not a zip file") from exc
    files: dict[str, bytes] = {}
    total = 0
    for info in zf.infolist():
        name = Path(info.filename).name
        if info.is_dir() or name not in STORY_FILES:
            continue
        total += info.file_size
        if total > 5 * MAX_ZIP_BYTES:
            raise ValueError("the zip unpacks to more than 100 MB")
        files[name] = zf.read(info)
    if "story.toml" not in files:
        raise ValueError("the zip has no story.toml")
    return files


def zip_story_id(files: dict[str, bytes], filename: str) -> str:
    """The folder name for an uploaded story: its story.toml id, else the zip's name."""
    try:
        sid = tomllib.loads(files["story.toml"].decode("utf-8")).get("id", "")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        sid = ""
    return sid if isinstance(sid, str) and _SLUG.match(sid) else slugify(Path(filename).stem)


__all__ = [
    "StoryError",
    "StoryExistsError",
    "files_from_zip",
    "save_story",
    "story_files",
    "story_zip",
    "zip_story_id",
]
