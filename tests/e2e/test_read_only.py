"""The app runs from a read-only copy of the checkout: what it makes while it runs (the story's
data for the map, the chart pictures, the place index) goes to the cache folder, and the map's
static files were built at set-up."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import APP_READY, start_server, stop_server
from tests.e2e.conftest import ROOT, map_frame, ready_map

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# Not copied: git, the virtualenv and node_modules (the tests' own Python runs the copy), what
# earlier runs built, and static/, which the copy's set-up builds.
SKIPPED = {".git", ".venv", "node_modules", "static", "test-results", ".pytest_cache"}
SKIPPED |= {".ruff_cache", ".hypothesis", "__pycache__"}


def _ignore(folder: str, names: list[str]) -> list[str]:
    if Path(folder) == ROOT / "bench":
        return [n for n in names if n in SKIPPED or n == "data"]
    return [n for n in names if n in SKIPPED]


def listing(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each file and folder under ``folder``: its mtime, size and mode (symlinks not followed)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            out[str(path.relative_to(folder))] = (st.st_mtime_ns, st.st_size, st.st_mode)
    return out


def _chmod_tree(folder: Path, writable: bool) -> None:
    paths = [folder, *folder.rglob("*")]
    for path in paths:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        path.chmod(mode | stat.S_IWUSR if writable else mode & ~bits)


@pytest.fixture(scope="module")
def read_only(tmp_path_factory):
    base = tmp_path_factory.mktemp("read-only")
    code = base / "dateline"
    shutil.copytree(ROOT, code, ignore=_ignore, symlinks=True)
    # The set-up a deployment runs while its image is built (python3 dev.py setup): the map's
    # static files, and the bytecode, which Python would otherwise try to write beside the code.
    setup = [
        [sys.executable, "-m", "geo", "static", "static", "--basemap", "data/basemap"],
        [sys.executable, "-m", "compileall", "-q", "."],
    ]
    for cmd in setup:
        subprocess.run(cmd, cwd=code, check=True, capture_output=True)
    _chmod_tree(code, writable=False)
    before = listing(code)
    cache = base / "cache"
    cache.mkdir()
    srv = start_server(base, {"DATELINE_CACHE_DIR": str(cache)}, root=code)
    yield code, cache, srv, before
    stop_server(srv)
    _chmod_tree(code, writable=True)  # so that pytest can remove it


def changed(code: Path, before: dict) -> list[str]:
    after = listing(code)
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def test_the_bundled_story_opens_from_a_read_only_checkout(read_only, page_for):
    code, cache, srv, before = read_only
    # The chmod binds a reader who is not root; as root it does not, so the listing proves it.
    page, traffic = page_for(srv)
    frame = ready_map(page)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(frame.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    assert changed(code, before) == [], "the app wrote into its checkout"
    # The map's scripts from static/ (built at set-up), the story's data from the cache folder.
    assert any("/app/static/dateline/map-bundle.js?v=" in u for u in traffic.requests)
    served = [u for u in traffic.requests if "/component/dashboard.map_panel.story_data/" in u]
    assert len(served) == 1, traffic.requests
    name = served[0].rsplit("/", 1)[1]
    assert name.startswith("qalamoun-2017-")
    assert (cache / "story-data" / name).is_file()
    assert list((cache / "charts").glob("*.json")), "the timeline's pictures go to the cache"
    assert not traffic.console_errors, traffic.console_errors


def test_a_draft_is_made_from_a_read_only_checkout(read_only, page_for):
    # The New story page: the place index is built into the cache folder (the copy's set-up left
    # it out, as a cache folder given to a new server lacks it), the draft is kept there.
    code, cache, srv, before = read_only
    article = (ROOT / "tests" / "fixtures" / "articles" / "combine_shelling_first.txt").read_text()
    page, _ = page_for(srv, "New_story_from_an_article", viewport=(1280, 720))
    page.get_by_label("Article text").fill(article)
    page.get_by_role("button", name="Find places, dates and figures").click()
    expect(page.get_by_text("Draft events")).to_be_visible(timeout=120_000)
    page.wait_for_selector(APP_READY, timeout=90_000)
    handle = map_frame(page).locator(".dl-handle[data-place='arsal']")
    expect(handle).to_be_attached(timeout=60_000)
    assert list(cache.glob("geonames-*.pickle"))
    assert list((cache / "drafts").iterdir())
    assert changed(code, before) == [], "the app wrote into its checkout"
