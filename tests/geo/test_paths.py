"""Tests for geo.paths: the cache folder and the bound on what it keeps."""

from __future__ import annotations

import os
from pathlib import Path

from geo.paths import default_cache_dir, prune_oldest


def test_the_cache_folder_comes_from_the_environment(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("DATELINE_CACHE_DIR")
    assert default_cache_dir() == Path.home() / ".cache" / "dateline"


def _files(folder: Path, count: int) -> list[Path]:
    out = []
    for n in range(count):
        f = folder / f"s-{n}.json"
        f.write_text("{}")
        os.utime(f, ns=(n * 10**9, n * 10**9))  # s-0 the oldest
        out.append(f)
    return out


def test_prune_keeps_the_newest(tmp_path: Path):
    files = _files(tmp_path, 5)
    (tmp_path / "notes.txt").write_text("not a payload")
    assert prune_oldest(tmp_path, 2, "*.json") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "s-3.json", "s-4.json"]
    assert not files[0].exists()


def test_prune_spares_the_file_just_served(tmp_path: Path):
    files = _files(tmp_path, 4)
    assert prune_oldest(tmp_path, 1, "*.json", spare=files[0]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s-0.json", "s-3.json"]


def test_prune_of_a_bounded_folder_deletes_nothing(tmp_path: Path):
    _files(tmp_path, 3)
    assert prune_oldest(tmp_path, 3, "*.json") == 0
    assert len(list(tmp_path.iterdir())) == 3
