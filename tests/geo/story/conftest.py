"""Fixtures of the story wing's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from geo.story.library import BUNDLED as STORIES


@pytest.fixture
def bundled(tmp_path: Path) -> Path:
    """A private copy of the bundled story that a test may break."""
    dest = tmp_path / "qalamoun-2017"
    shutil.copytree(STORIES / "qalamoun-2017", dest)
    return dest
