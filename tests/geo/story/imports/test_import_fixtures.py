"""The fixture exports are what make_fixtures.py writes: a changed row is regenerated, not
edited by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"


def test_fixtures_are_up_to_date():
    spec = importlib.util.spec_from_file_location("make_fixtures", DATASETS / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, data in module.all_files().items():
        assert (DATASETS / name).read_bytes() == data, f"{name}: run make_fixtures.py"
