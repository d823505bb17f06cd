"""The rules of data/scripts/build_districts.py (geoBoundaries' districts), on made-up tallies."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "build_districts", ROOT / "data" / "scripts" / "build_districts.py"
)
build_districts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_districts)


@pytest.mark.parametrize(
    ("name", "core", "word"),
    [
        ("Jishishan Bonan, Dongxiang and Salar Autonomous County", "Jishishan", "county"),
        ("Linxia County", "Linxia", "county"),
        ("Dadu District", "Dadu", "district"),
        ("Rampura", "Rampura", ""),
    ],
)
def test_core_and_type_word(name: str, core: str, word: str) -> None:
    assert build_districts.core(name) == core
    assert build_districts.type_word(name) == word


@pytest.mark.parametrize(
    ("checks", "unit", "kept"),
    [
        # Most checked names of the division lie by their GeoNames namesakes: kept.
        ({"XX": (100, 80), "XX/North": (20, 15)}, {"cc": "XX", "group": "XX/North"}, True),
        # A division whose names sit away from their namesakes (a misjoined table): out, even in
        # a country that agrees as a whole.
        ({"XX": (100, 80), "XX/North": (20, 2)}, {"cc": "XX", "group": "XX/North"}, False),
        # Too few to check in the division: the country decides.
        ({"XX": (100, 80), "XX/North": (3, 0)}, {"cc": "XX", "group": "XX/North"}, True),
        ({"XX": (100, 5), "XX/North": (3, 3)}, {"cc": "XX", "group": "XX/North"}, False),
        # Nothing to check at all: out.
        ({}, {"cc": "XX", "group": "XX/North"}, False),
    ],
)
def test_kept(checks, unit, kept: bool) -> None:
    assert build_districts.kept(checks, unit) is kept
