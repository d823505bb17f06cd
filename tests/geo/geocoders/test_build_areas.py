"""The area table's build rules (data/scripts/build_areas.py), on small made-up countries."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "build_areas", ROOT / "data" / "scripts" / "build_areas.py"
)
build_areas = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_areas)


def _grid(lat0: float, lat1: float, lon0: float, lon1: float, step: float = 0.25):
    lats = np.arange(lat0 + step / 2, lat1, step)
    lons = np.arange(lon0 + step / 2, lon1, step)
    glon, glat = np.meshgrid(lons, lats)
    return glat.ravel(), glon.ravel()


@pytest.mark.parametrize(
    ("cities", "key", "lat_range", "lon_range"),
    [
        # All the towns along the southern edge: the point is the land's middle, not theirs.
        ({("XX", "North"): [(40.1, 0.0), (40.2, 2.0)]}, ("XX", "North"), (44.0, 46.0), (4.0, 6.0)),
        # Two divisions split the land between their towns (west and east halves).
        (
            {("XX", "West"): [(45.0, 0.5)], ("XX", "East"): [(45.0, 9.5)]},
            ("XX", "East"),
            (44.0, 46.0),
            (7.0, 8.0),
        ),
    ],
)
def test_cell_areas_point_is_the_middle_of_the_land(cities, key, lat_range, lon_range):
    cells = {"XX": _grid(40.0, 50.0, 0.0, 10.0)}
    lat, lon, radius = build_areas.cell_areas(cities, cells)[key]
    assert lat_range[0] <= lat <= lat_range[1]
    assert lon_range[0] <= lon <= lon_range[1]
    assert radius >= 400_000  # reaches the far corners of its land


def test_cell_areas_crescent_point_stays_on_its_own_land():
    # An L-shaped land: its area-weighted centre falls in the missing corner.
    lats_a, lons_a = _grid(40.0, 41.0, 0.0, 10.0)
    lats_b, lons_b = _grid(41.0, 50.0, 0.0, 1.0)
    cells = {"XX": (np.concatenate([lats_a, lats_b]), np.concatenate([lons_a, lons_b]))}
    lat, lon, _ = build_areas.cell_areas({("XX", "L"): [(40.5, 0.5)]}, cells)[("XX", "L")]
    on_land = (40.0 <= lat <= 41.0) or (0.0 <= lon <= 1.0)
    assert on_land


def test_cell_areas_leaves_out_a_country_without_cells():
    cities = {("YY", "Tiny"): [(1.0, 1.0)]}
    assert build_areas.cell_areas(cities, {"XX": _grid(40.0, 41.0, 0.0, 1.0)}) == {}
