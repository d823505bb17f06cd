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


def _reference(towns: list[tuple[str, float, float]]):
    """A Reference over made-up GeoNames towns (code, lat, lon), admin-1 "01" each."""
    import numpy as np

    ref = object.__new__(build_districts.Reference)
    ref.towns = {}
    for cc in {t[0] for t in towns}:
        mine = [t for t in towns if t[0] == cc]
        ref.towns[cc] = (np.array([t[1] for t in mine]), np.array([t[2] for t in mine]),
                         ["01"] * len(mine))  # fmt: skip
    ref.every = (np.array([t[1] for t in towns]), np.array([t[2] for t in towns]),
                 [t[0] for t in towns])  # fmt: skip
    return ref


# GeoNames towns: Miami (US), a Puerto Rican town, a Canadian one just over Maine's border.
_TOWNS = [("US", 25.77, -80.19), ("PR", 18.47, -66.94), ("CA", 45.19, -67.28),
          ("US", 45.18, -67.25)]  # fmt: skip


@pytest.mark.parametrize(
    ("filed", "point", "radius_km", "country"),
    [
        # geoBoundaries files Puerto Rico's barrios under the US, 1,500 km from its nearest
        # town: they are Puerto Rico's, the code of the towns they lie by.
        ("US", (18.39, -66.91), 3, "PR"),
        # A unit by its own country's towns stays, even by a neighbour's town.
        ("US", (45.19, -67.27), 3, "US"),
        # Far from every town of its own and of any other code: kept as filed.
        ("US", (5.0, -40.0), 3, "US"),
        # Far from its own, and the other code's town lies beyond its reach.
        ("US", (18.9, -66.94), 3, "US"),
        ("US", (18.9, -66.94), 60, "PR"),
    ],
)
def test_country_of_a_unit(filed: str, point, radius_km: float, country: str) -> None:
    assert _reference(_TOWNS).country(filed, *point, radius_km) == country
