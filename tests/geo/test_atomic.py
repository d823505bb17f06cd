"""Tests for geo.atomic: a write either fully replaces the file or leaves the old one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from geo import atomic
from geo.atomic import atomic_write_bytes, atomic_write_text


def test_writes_a_new_file(tmp_path: Path):
    target = tmp_path / "story.toml"
    atomic_write_text(target, 'title = "Ünïcode ¶4 — ok"\n')
    assert target.read_text(encoding="utf-8") == 'title = "Ünïcode ¶4 — ok"\n'


def test_text_is_utf8(tmp_path: Path):
    target = tmp_path / "a.txt"
    atomic_write_text(target, "¶")
    assert target.read_bytes() == b"\xc2\xb6"


def test_bytes_are_written_unchanged(tmp_path: Path):
    data = bytes(range(256)) * 3
    atomic_write_bytes(tmp_path / "blob.bin", data)
    assert (tmp_path / "blob.bin").read_bytes() == data


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("a much longer old content\n" * 10, "short\n", id="shorter"),
        pytest.param("x", "longer new content\n" * 10, id="longer"),
        pytest.param("something", "", id="empty"),
    ],
)
def test_replaces_the_whole_content(tmp_path: Path, old: str, new: str):
    target = tmp_path / "events.csv"
    target.write_text(old, encoding="utf-8")
    atomic_write_text(target, new)
    assert target.read_text(encoding="utf-8") == new


def test_leaves_no_temporary_file(tmp_path: Path):
    target = tmp_path / "events.csv"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.csv"]


def test_creates_missing_parent_folders(tmp_path: Path):
    target = tmp_path / "stories" / "new-story" / "story.toml"
    atomic_write_text(target, "id = 'new-story'\n")
    assert target.read_text(encoding="utf-8") == "id = 'new-story'\n"


def test_accepts_a_str_path(tmp_path: Path):
    atomic_write_text(str(tmp_path / "s.txt"), "ok")
    assert (tmp_path / "s.txt").read_text(encoding="utf-8") == "ok"


def _raise(exc: BaseException):
    def boom(*_args, **_kwargs):
        raise exc

    return boom


@pytest.mark.parametrize(
    ("function", "exc"),
    [
        pytest.param("replace", OSError("disk gone"), id="replace-oserror"),
        pytest.param("replace", KeyboardInterrupt(), id="replace-interrupted"),
        pytest.param("fsync", OSError("no space left"), id="fsync-oserror"),
    ],
)
def test_failed_write_keeps_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str, exc: BaseException
):
    target = tmp_path / "places.csv"
    target.write_text("old content\n", encoding="utf-8")
    monkeypatch.setattr(atomic.os, function, _raise(exc))
    with pytest.raises(type(exc)):
        atomic_write_text(target, "new content\n")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["places.csv"]


def test_failed_first_write_creates_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(atomic.os, "replace", _raise(OSError("nope")))
    with pytest.raises(OSError):
        atomic_write_text(tmp_path / "new.csv", "data")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "umask", [0o022, 0o077, 0o002], ids=["umask-022", "umask-077", "umask-002"]
)
def test_file_mode_is_0644_whatever_the_umask(tmp_path: Path, umask: int):
    target = tmp_path / "fronts.geojson"
    old = os.umask(umask)
    try:
        atomic_write_text(target, "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_replacing_a_private_file_makes_it_0644(tmp_path: Path):
    target = tmp_path / "convoy.csv"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    atomic_write_text(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
