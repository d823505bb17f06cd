"""The locks match the direct requirements and hash every file; pyproject.toml ships what the
library reads."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import dev

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("req", sorted(dev.LOCKS))
def test_the_lock_pins_every_direct_requirement(req):
    assert dev.stale_lock(ROOT / req) == [], f"run python3 dev.py lock ({req} changed)"


@pytest.mark.parametrize("lock", sorted(dev.LOCKS.values()))
def test_every_locked_package_has_hashes(lock):
    text = (ROOT / lock).read_text()
    blocks = [b for b in text.split("\n") if b and not b[0].isspace() and not b.startswith("#")]
    assert blocks, lock
    for line in blocks:
        assert line.endswith("\\"), f"{line!r} has no --hash lines"
    assert text.count("--hash=sha256:") >= len(blocks)


def test_stale_lock_names_a_changed_pin(tmp_path, monkeypatch):
    (tmp_path / "requirements.txt").write_text("folium==0.20.0\npsycopg[binary]==3.3.9\n")
    (tmp_path / "requirements.lock").write_text("folium==0.20.0 \\\n    --hash=sha256:00\n")
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    assert dev.stale_lock(tmp_path / "requirements.txt") == ["psycopg==3.3.9"]


def test_the_package_data_holds_every_file_geo_reads():
    # Every file under geo/ that is not Python must be named by a package-data pattern, or an
    # installed geo lacks it (the map's scripts, the extractor's word lists, the areas).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["geo"]
    geo = ROOT / "geo"
    data = [
        p.relative_to(geo).as_posix()
        for p in geo.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert "map/js/story.js" in data
    missing = [f for f in data if not any(fnmatch(f, pat) for pat in patterns)]
    assert missing == []
    assert config["project"]["dynamic"] == ["dependencies"]
    assert config["tool"]["setuptools"]["dynamic"]["dependencies"]["file"] == ["requirements.txt"]
