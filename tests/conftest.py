"""Fixtures shared by every test tier."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def gazetteer_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GeoNames index per test session (the user's own when DATELINE_CACHE_DIR is set).

    The same folder the gazetteer and extraction unit tests use, so the index is built once.
    """
    env = os.environ.get("DATELINE_CACHE_DIR")
    path = Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"
    path.mkdir(parents=True, exist_ok=True)
    return path
