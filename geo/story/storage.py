"""Save a story folder atomically, and move stories in and out of zip files."""

from __future__ import annotations

import errno
import io
import os
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path

import pandas as pd
import tomli_w

from geo.bounded import toml_loads
from geo.errors import READ_FAILURES, DatelineError
from geo.names import is_slug, slugify
from geo.story.chapters import MAX_CHAPTERS
from geo.story.export import events_csv
from geo.story.images import MAX_IMAGE_BYTES, is_image_name
from geo.story.library import BUNDLED, TEMP_PREFIX
from geo.story.load.loaders import load_story
from geo.story.load.problems import StoryError
from geo.story.load.schema import (
    CONVOY_COLUMNS,
    FOLDER_LIMITS,
    MAX_TOML_BYTES,
    PLACE_COLUMNS,
    Limits,
)
from geo.story.model import Story

STORY_FILES = (
    "story.toml",
    "places.csv",
    "events.csv",
    "events.parquet",
    "convoy.csv",
    "fronts.geojson",
)
MAX_ZIP_BYTES = 20 * 1024 * 1024
# Counted on the bytes actually inflated, never on the sizes the zip declares.
MAX_UNZIPPED_BYTES = 5 * MAX_ZIP_BYTES
MAX_ZIP_ENTRIES = 100
MAX_PICTURES = MAX_CHAPTERS  # one a chapter at most
_CHUNK = 1 << 16
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
_FS_REASONS = {
    errno.EROFS: "the stories folder is read-only",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "a file is larger than this system allows",
    errno.EACCES: "there is no permission to write there",
    errno.EPERM: "there is no permission to write there",
}


class StorageError(DatelineError):
    """A story that cannot be saved, or story files that cannot be taken: nothing was saved.

    The message is a sentence for the reader. A story that does not validate raises StoryError
    instead.
    """


class DiskError(StorageError):
    """The file system refused (read-only, full, a file too big) while saving or checking."""


class StoryExistsError(StorageError):
    """Saving would replace a story that is already there."""


class StoryFilesError(StorageError):
    """What save_story was given is no story folder: an id that is no slug, an unknown file."""


class ZipError(StorageError, ValueError):
    """An upload that is not a small zip of story files (too big, encrypted, damaged, ...).

    Also a ValueError, as files_from_zip raised before: bench/hostile.py catches that.
    """


def fs_reason(exc: OSError) -> str:
    """A plain sentence for a file system fault ("the disk is full")."""
    return _FS_REASONS.get(exc.errno or 0) or (exc.strerror or type(exc).__name__).lower()


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


def _write(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _swap(new: Path, target: Path) -> None:
    """Put the folder ``new`` at ``target``, keeping the old one until the new one is there."""
    old = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=target.parent))
    os.rename(target, old / "story")
    try:
        os.rename(new, target)
    except OSError:
        os.rename(old / "story", target)  # the old story comes back
        old.rmdir()
        raise
    shutil.rmtree(old, ignore_errors=True)


def save_story(
    root: Path,
    story_id: str,
    files: dict[str, bytes],
    *,
    limits: Limits | None = None,
    bundled: Path = BUNDLED,
    replace: bool = False,
) -> Story:
    """Write ``files`` as ``root/story_id`` and return it loaded.

    With ``replace`` an existing ``root/story_id`` (an editor saving their draft again) is
    swapped for the new folder only once the new one has validated; the old one is removed.

    The folder is written and validated under a dot-prefixed temporary name the library never
    lists, then renamed into place, so a crash never leaves half a story on the picker. Raises
    StoryError (nothing saved) when the story does not validate (within ``limits``),
    StoryExistsError when ``root/story_id`` or a bundled story of that id exists, DiskError
    when the file system refuses (read-only, full, file too big) and StoryFilesError for an id
    that is no slug or a file no story folder holds: all StorageErrors, nothing saved.
    """
    target = _target(root, story_id, bundled, replace)
    limits = limits or FOLDER_LIMITS
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=root))
    except OSError as exc:
        raise DiskError(f"Not saved: {fs_reason(exc)} ({root}).") from exc
    try:
        for name, data in files.items():
            if not is_story_file(name):
                raise StoryFilesError(f"unexpected story file {name!r}")
            _write(tmp / name, data)
        load_story(tmp, limits)  # a bad story never reaches its final name
        os.chmod(tmp, 0o755)
        if replace and target.exists():
            _swap(tmp, target)
        else:
            _rename(tmp, target)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise DiskError(f"Not saved: {fs_reason(exc)}. Nothing was written.") from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return load_story(target, limits)


def _target(root: Path, story_id: str, bundled: Path, replace: bool) -> Path:
    """``root/story_id``, once the id is a slug no bundled story (nor, unless ``replace``, a
    saved one) has."""
    if not is_slug(story_id):
        raise StoryFilesError(f"{story_id!r} is not a story id")
    if (bundled / story_id).is_dir():
        raise StoryExistsError(f"a bundled story named {story_id!r} already exists")
    target = root / story_id
    if target.exists() and not replace:
        raise StoryExistsError(f"a story named {story_id!r} already exists in {root}")
    return target


def _rename(tmp: Path, target: Path) -> None:
    """Move the new folder to its name; StoryExistsError if a story got there meanwhile."""
    # rename() of a directory onto an existing non-empty one fails: no silent overwrite.
    try:
        os.rename(tmp, target)
    except OSError as exc:
        if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
            raise StoryExistsError(
                f"a story named {target.name!r} already exists in {target.parent}"
            ) from exc
        raise


def is_story_file(name: str) -> bool:
    """Whether a story folder may hold ``name``: one of STORY_FILES or a chapter's picture."""
    return name in STORY_FILES or is_image_name(name)


def folder_files(path: Path) -> dict[str, bytes]:
    """A story folder's files by name: STORY_FILES and its chapters' pictures (not links, none
    over MAX_IMAGE_BYTES), as a zip or a store carries them."""
    names = [n for n in STORY_FILES if (path / n).is_file()]
    names += sorted(
        p.name
        for p in path.iterdir()
        if is_image_name(p.name)
        and p.is_file()
        and not p.is_symlink()
        and p.stat().st_size <= MAX_IMAGE_BYTES
    )[:MAX_PICTURES]
    return {n: (path / n).read_bytes() for n in names}


def story_zip(path: Path) -> bytes:
    """A story folder as zip bytes (files at the top level), its chapters' pictures too."""
    buf = io.BytesIO()
    pictures = sorted(
        p.name
        for p in path.iterdir()
        # Not a link: the zip would carry what it points to, perhaps outside the folder.
        if is_image_name(p.name) and p.is_file() and not p.is_symlink()
    )[:MAX_PICTURES]
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in STORY_FILES:
            if (path / name).exists():
                zf.write(path / name, name)
        for name in pictures:
            if (path / name).stat().st_size <= MAX_IMAGE_BYTES:
                zf.write(path / name, name)
    return buf.getvalue()


def _inflate(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int, too_big: str) -> bytes:
    """One member's bytes, read in chunks and stopped as soon as ``budget`` is passed."""
    out = io.BytesIO()
    with zf.open(info) as fh:
        while chunk := fh.read(_CHUNK):
            out.write(chunk)
            if out.tell() > budget:
                raise ZipError(too_big)
    return out.getvalue()


def files_from_zip(data: bytes) -> dict[str, bytes]:
    """The story files inside a zip made by ``story_zip`` (or by hand, with or without a folder).

    Raises ZipError, with a message for the reader, for anything that is not a small zip of
    story files: too big (declared or actually inflated), encrypted, an unknown compression
    method, a bad checksum, two files of the same name.
    """
    if len(data) > MAX_ZIP_BYTES:
        raise ZipError("the zip is larger than 20 MB")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as exc:
        raise ZipError("not a zip file (or a damaged one)") from exc
    if len(infos) > MAX_ZIP_ENTRIES:
        raise ZipError(f"the zip holds {len(infos):,} files; a story has at most 6")
    files: dict[str, bytes] = {}
    left = MAX_UNZIPPED_BYTES
    for info in infos:
        name = Path(info.filename).name
        if info.is_dir() or not is_story_file(name):
            continue
        if name in files:
            raise ZipError(f"the zip holds {name} twice")
        if is_image_name(name) and sum(map(is_image_name, files)) >= MAX_PICTURES:
            raise ZipError(f"the zip holds more than {MAX_PICTURES} pictures")
        if info.flag_bits & 0x1:
            raise ZipError(f"{name} is encrypted; upload a zip without a password")
        if info.compress_type not in _METHODS:
            raise ZipError(f"{name} uses a compression method Dateline cannot read")
        # story.toml is refused here, before it is written anywhere, as the loader would.
        budget, too_big = left, f"the zip unpacks to more than {MAX_UNZIPPED_BYTES // 2**20} MB"
        if name == "story.toml" and left > MAX_TOML_BYTES:
            budget, too_big = (
                MAX_TOML_BYTES,
                f"story.toml is larger than {MAX_TOML_BYTES // 1000} KB",
            )
        elif is_image_name(name) and left > MAX_IMAGE_BYTES:
            budget, too_big = MAX_IMAGE_BYTES, f"{name} is larger than {MAX_IMAGE_BYTES:,} bytes"
        if info.file_size > budget:
            raise ZipError(too_big)
        try:
            files[name] = _inflate(zf, info, budget, too_big)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise ZipError(f"{name} in the zip is damaged ({exc})") from exc
        except (RuntimeError, NotImplementedError) as exc:  # zipfile: encrypted, unknown method
            raise ZipError(f"{name} in the zip cannot be read ({exc})") from exc
        left -= len(files[name])
    if "story.toml" not in files:
        raise ZipError("the zip has no story.toml")
    return files


def zip_story_id(files: dict[str, bytes], filename: str) -> str:
    """The folder name for an uploaded story: its story.toml id, else the zip's name."""
    data = files["story.toml"]
    try:
        sid = (
            toml_loads(data.decode("utf-8-sig")).get("id", "")
            if len(data) <= MAX_TOML_BYTES
            else ""
        )
    except READ_FAILURES:  # the loader says what is wrong with it
        sid = ""
    return sid if is_slug(sid) else slugify(Path(filename).stem, "story")


__all__ = [
    "DiskError",
    "StorageError",
    "StoryError",
    "StoryExistsError",
    "StoryFilesError",
    "ZipError",
    "files_from_zip",
    "save_story",
    "story_files",
    "story_zip",
    "zip_story_id",
]
