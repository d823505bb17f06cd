"""Fixtures shared by every test tier."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The normal run: Hypothesis' 100 examples a test (tests/fuzz.py scales its costly ones down),
# no per-example deadline (a CPU hog would make a 200 ms one flaky; the fuzz suite bounds time
# itself). ``--hypothesis-profile=long`` is the long fuzz run: a hundred times the examples.
_COMMON = {
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}
settings.register_profile("default", max_examples=100, **_COMMON)
settings.register_profile("long", max_examples=10_000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def gazetteer_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GeoNames index per test session (the user's own when DATELINE_CACHE_DIR is set).

    The same folder the gazetteer and extraction unit tests use, so the index is built once.
    """
    env = os.environ.get("DATELINE_CACHE_DIR")
    path = Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL + PostGIS for the session (tests/pg.py); under CI it must exist."""
    from tests import pg

    why = pg.missing()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs PostgreSQL with PostGIS: {why}")
        pytest.skip(why)
    with pg.cluster() as url:
        yield url
