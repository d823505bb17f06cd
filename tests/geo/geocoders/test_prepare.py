"""The place index is built at set-up (``python -m geo prepare``), never at a reader's click."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from geo.geocoders.gazetteer import load_geonames_index

ROOT = Path(__file__).resolve().parents[3]


def test_without_build_a_missing_index_is_not_built(tmp_path):
    assert load_geonames_index(tmp_path / "empty", build=False) == {}
    assert not (tmp_path / "empty").exists()


def test_prepare_writes_the_index_that_is_then_read(gazetteer_cache, tmp_path):
    # A copy of the suite's built index: the command finds it and reports it ready.
    env = {**os.environ, "DATELINE_CACHE_DIR": str(gazetteer_cache)}
    out = subprocess.run(
        [sys.executable, "-m", "geo", "prepare"], cwd=ROOT, env=env, capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    assert "Place index ready" in out.stdout
    assert load_geonames_index(gazetteer_cache, build=False)["meta"]["format"]


def test_prepare_takes_no_arguments():
    out = subprocess.run(
        [sys.executable, "-m", "geo", "prepare", "extra"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 2
