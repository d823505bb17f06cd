"""Hostile zips, killed saves, hidden copies and file system faults: a message, no half-save."""

from __future__ import annotations

import errno
import io
import os
import struct
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from geo.story import storage
from geo.story.library import TEMP_PREFIX, clean_stale, find_stories
from geo.story.storage import (
    MAX_UNZIPPED_BYTES,
    DiskError,
    StoryExistsError,
    ZipError,
    files_from_zip,
    save_story,
    story_zip,
)
from tests.helpers import MINI, lying_zip


def mini_files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in MINI.iterdir()}


def test_a_zip_that_lies_about_its_size_is_refused_without_the_memory():
    data = lying_zip(MAX_UNZIPPED_BYTES + (4 << 20), declared=1024)
    assert len(data) < 1_000_000
    tracemalloc.start()
    try:
        with pytest.raises(ZipError, match=r"damaged|unpacks to more than"):
            files_from_zip(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MAX_UNZIPPED_BYTES * 1.5


def test_a_zip_declaring_too_much_is_refused_before_inflating(monkeypatch):
    monkeypatch.setattr(storage, "MAX_UNZIPPED_BYTES", 3 << 20)
    with pytest.raises(ZipError, match="unpacks to more than"):
        files_from_zip(lying_zip(8 << 20, declared=8 << 20))


def test_inflating_stops_at_the_running_budget():
    data = lying_zip(8 << 20, declared=8 << 20)
    zf = zipfile.ZipFile(io.BytesIO(data))
    info = zf.getinfo("events.csv")
    with pytest.raises(ZipError, match="unpacks to more than"):
        storage._inflate(zf, info, 1 << 20, "the zip unpacks to more than 1 MB")


def _entry_flags(flag_or_method: str) -> bytes:
    data = bytearray(story_zip(MINI))
    offsets = [data.find(b"PK\x01\x02")]
    while (nxt := data.find(b"PK\x01\x02", offsets[-1] + 4)) != -1:
        offsets.append(nxt)
    for off in offsets:
        if flag_or_method == "encrypted":
            struct.pack_into("<H", data, off + 8, struct.unpack_from("<H", data, off + 8)[0] | 1)
        else:
            struct.pack_into("<H", data, off + 10, 99)  # AES / unknown
    return bytes(data)


def _bad_crc() -> bytes:
    data = bytearray(story_zip(MINI))
    off = data.find(b"PK\x01\x02")
    struct.pack_into("<I", data, off + 16, 0xDEADBEEF)
    return bytes(data)


def _duplicate() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a/story.toml", "x")
        zf.writestr("b/story.toml", "y")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda: _entry_flags("encrypted"), "encrypted", id="encrypted"),
        pytest.param(lambda: _entry_flags("method"), "compression method", id="unknown-method"),
        pytest.param(_bad_crc, "damaged", id="bad-crc"),
        pytest.param(_duplicate, "twice", id="duplicate-names"),
        pytest.param(lambda: story_zip(MINI)[:-30], "not a zip", id="truncated"),
    ],
)
def test_broken_zips_are_refused_with_a_message(make, message):
    with pytest.raises(ZipError, match=message):
        files_from_zip(make())


def test_a_killed_save_leaves_nothing_the_picker_lists(tmp_path: Path):
    user = tmp_path / "user"
    # What a save killed before its rename leaves: a full story under a temporary name, in
    # today's form and in the old one.
    for name in (f"{TEMP_PREFIX}abc123", ".kill-test.ab12cd34"):
        (user / name).mkdir(parents=True)
        for f, data in mini_files().items():
            (user / name / f).write_bytes(data)
    found = find_stories(tmp_path / "none", user)
    assert found == {}
    old = time.time() - 7200
    for p in user.iterdir():
        os.utime(p, (old, old))
    (user / f"{TEMP_PREFIX}fresh").mkdir()  # a save in progress right now: kept
    assert sorted(clean_stale(user)) == sorted([f"{TEMP_PREFIX}abc123", ".kill-test.ab12cd34"])
    assert [p.name for p in user.iterdir()] == [f"{TEMP_PREFIX}fresh"]


def test_a_save_writes_under_a_dot_folder(tmp_path: Path, monkeypatch):
    seen = []
    real = storage._write

    def spy(path: Path, data: bytes) -> None:
        seen.append(path.parent.name)
        real(path, data)

    monkeypatch.setattr(storage, "_write", spy)
    save_story(tmp_path, "copy", mini_files(), bundled=tmp_path / "none")
    assert seen and all(n.startswith(TEMP_PREFIX) for n in seen)
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]


def test_the_bundled_story_cannot_be_added_again(tmp_path: Path):
    bundled = tmp_path / "bundled"
    (bundled / "mini").mkdir(parents=True)
    with pytest.raises(StoryExistsError, match="bundled"):
        save_story(tmp_path / "user", "mini", mini_files(), bundled=bundled)
    assert not (tmp_path / "user" / "mini").exists()


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (errno.EROFS, "read-only"),
        (errno.ENOSPC, "disk is full"),
        (errno.EFBIG, "larger than this system allows"),
    ],
)
def test_file_system_faults_say_nothing_was_saved(tmp_path: Path, monkeypatch, code, reason):
    def fail(path: Path, data: bytes) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(storage, "_write", fail)
    with pytest.raises(DiskError, match=reason) as info:
        save_story(tmp_path, "copy", mini_files(), bundled=tmp_path / "none")
    assert "Nothing was written" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_stories_folder(tmp_path: Path, monkeypatch):
    def fail(*_a, **_k):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(storage.tempfile, "mkdtemp", fail)
    with pytest.raises(DiskError, match="read-only"):
        save_story(tmp_path / "ro", "copy", mini_files(), bundled=tmp_path / "none")
