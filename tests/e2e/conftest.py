"""Browser tests: the real app under ``streamlit run``, driven by Playwright in system Chromium.

Every request the page makes is recorded; anything not addressed to the local server is
blocked and fails the test, so the suite proves the dashboard needs no internet.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import (
    APP_READY,  # noqa: F401 (the tests take it from here)
    CHROMIUM_ARGS,
    MAP_FRAME,
    ChromiumMissing,
    Server,
    chromium_path,
    start_server,
    stop_server,
    wait_whole_page,
)

ROOT = Path(__file__).resolve().parents[2]


def new_context(browser, **options):
    """A browser context whose pages ask the map's scripts to keep what the tests read
    (``window.Dateline.test``: each draw's origin, the convoy's track); a reader's page keeps
    none of it."""
    context = browser.new_context(**options)
    context.add_init_script("window.DatelineTesting = true;")
    return context


@pytest.fixture(scope="session")
def server(tmp_path_factory, gazetteer_cache) -> Iterator[Server]:
    # A short Tour step: a browser test waits for the second chapter, not eight seconds.
    env = {"DATELINE_CACHE_DIR": str(gazetteer_cache), "DATELINE_TOUR_STEP": "1.5"}
    srv = start_server(tmp_path_factory.mktemp("app"), env)
    yield srv
    stop_server(srv)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        try:
            exe = chromium_path()
        except ChromiumMissing as exc:
            pytest.fail(str(exc), pytrace=False)
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@dataclass
class Traffic:
    """What one page asked for: requests it made, the ones blocked, console errors."""

    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)


OUTPUT = ROOT / "test-results"


@pytest.fixture
def page_for(browser, request):
    """Open a page on a server with non-local requests blocked; check traffic afterwards."""
    opened = []

    def _open(srv: Server, query: str = "", viewport=(1400, 1000), scale: float = 1):
        context = new_context(
            browser,
            viewport={"width": viewport[0], "height": viewport[1]},
            device_scale_factor=scale,
        )
        traffic = Traffic()
        host = urlparse(srv.url).netloc

        def route(r):
            url = r.request.url
            traffic.requests.append(url)
            parsed = urlparse(url)
            if parsed.scheme in ("data", "blob") or parsed.netloc == host:
                r.continue_()
            else:
                traffic.blocked.append(url)
                r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on(
            "console",
            lambda msg: traffic.console_errors.append(msg.text) if msg.type == "error" else None,
        )
        page.on("pageerror", lambda exc: traffic.console_errors.append(str(exc)))
        page.goto(f"{srv.url}/{query}")
        wait_whole_page(page)
        opened.append((context, page, traffic))
        return page, traffic

    yield _open
    for context, page, traffic in opened:
        OUTPUT.mkdir(exist_ok=True)
        name = request.node.name.replace("/", "_").replace("[", "_").replace("]", "")
        page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True)
        context.close()
        assert not traffic.blocked, f"the page tried to reach the internet: {traffic.blocked}"


@dataclass
class FilePage:
    """A file opened from disk: its page, every address it asked for, its page errors (and,
    when asked, console errors and warnings)."""

    page: object
    asked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def file_page(browser):
    """Open a file from disk in a context that lets only file: through and records the rest."""
    opened = []

    def _open(path: Path, viewport=(1280, 720), scale: float = 1, console: bool = False):
        context = new_context(
            browser,
            viewport={"width": viewport[0], "height": viewport[1]},
            device_scale_factor=scale,
        )
        opened.append(context)
        page = context.new_page()
        found = FilePage(page)

        def route(r):
            found.asked.append(r.request.url)
            if r.request.url.startswith("file:"):
                r.continue_()
            else:
                r.abort()

        context.route("**/*", route)
        page.on("pageerror", lambda e: found.errors.append(str(e)))
        if console:
            page.on(
                "console",
                lambda m: found.errors.append(m.text) if m.type in ("error", "warning") else None,
            )
        page.goto(Path(path).as_uri())
        return found

    yield _open
    for context in opened:
        context.close()


def map_frame(page):
    return page.frame_locator(MAP_FRAME)


def map_js(page, script: str):
    """Evaluate ``script`` inside the map's frame."""
    frame = next(f for f in page.frames if "streamlit_folium" in f.url)
    return frame.evaluate(script)


def ready_map(page):
    """The map's frame, once the map's own script has run (the date box has its text)."""
    frame = map_frame(page)
    expect(frame.get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    return frame
