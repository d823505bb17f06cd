"""The pipeline table's browser columns: the app and the naive page opened in headless Chromium.

Opens and slider moves are timed from this process (the issue-13 targets, timed in the page
against a floor app, are bench/targets.py).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.generate import DATA, SIZES
from bench.measure import LIMIT_S, wait_idle
from bench.targets import ARM, DRAWN, PAINTED


def _block_internet(context, host: str) -> None:
    from urllib.parse import urlparse

    def route(r):
        parsed = urlparse(r.request.url)
        if parsed.scheme in ("data", "blob") or parsed.netloc == host:
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)


def _open_app(browser, url: str) -> tuple[float, object, object]:
    """Seconds from navigation to the map's layers painted; the page and its map frame."""
    from urllib.parse import urlparse

    from tests.e2e.appserver import MAP_FRAME

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    _block_internet(context, urlparse(url).netloc)
    page = context.new_page()
    t0 = time.perf_counter()
    page.goto(url)
    frame = page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000).content_frame()
    frame.wait_for_function(DRAWN, timeout=LIMIT_S * 1000)
    frame.evaluate(PAINTED)
    return time.perf_counter() - t0, page, frame


def _settle(page) -> None:
    """Wait until the app is idle, after the rerun a big story's first view report causes."""
    from tests.e2e.appserver import APP_READY

    page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)
    page.wait_for_timeout(800)  # st_folium reports the view 250 ms after the map settles
    page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)


def _slider_move(page, frame) -> tuple[float | None, object]:
    """Seconds from moving the window's end one day back to the map's drawing changed and
    painted, or None when the rerun ended with the map unchanged (no event on that day); and
    the map frame. On a small story the map's own script follows the slider: either counts."""
    from tests.e2e.appserver import APP_READY, MAP_FRAME

    _settle(page)
    frame.evaluate(ARM)
    url = page.url
    thumb = page.get_by_test_id("stSlider").filter(has_text="Dates").get_by_role("slider").nth(1)
    thumb.focus()
    t0 = time.perf_counter()
    thumb.press("ArrowLeft")
    ended_at = None
    while time.perf_counter() - t0 < LIMIT_S:
        try:
            if frame.evaluate("window.benchPainted") is not None:
                return time.perf_counter() - t0, frame
        except Exception as exc:  # the component remounted: the new frame's first drawing counts
            if "detached" not in str(exc):
                raise
            frame = page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000).content_frame()
            frame.wait_for_function(DRAWN, timeout=LIMIT_S * 1000)
            frame.evaluate(PAINTED)
            return time.perf_counter() - t0, frame
        # The rerun has ended (the URL carries the new window) without a new map.
        if page.url != url and page.locator(APP_READY).count():
            ended_at = ended_at or time.perf_counter()
            if time.perf_counter() - ended_at > 0.5:
                return None, frame
        page.wait_for_timeout(10)  # polling interval
    raise TimeoutError("the map did not change")


def _open_naive(browser, server_url: str, html_path: Path, markers: int) -> float:
    from urllib.parse import urlparse

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    _block_internet(context, urlparse(server_url).netloc)
    body = html_path.read_bytes()
    context.route(
        f"{server_url}/naive.html",
        lambda r: r.fulfill(body=body, content_type="text/html; charset=utf-8"),
    )
    page = context.new_page()
    t0 = time.perf_counter()
    page.goto(f"{server_url}/naive.html", timeout=LIMIT_S * 1000)
    page.wait_for_function(
        f"document.querySelectorAll('.leaflet-marker-icon').length >= {markers}",
        timeout=LIMIT_S * 1000,
    )
    page.evaluate(PAINTED)
    took = time.perf_counter() - t0
    context.close()
    return took


def _median_or_dnf(fn: Callable[[], float], repeats: int) -> float | None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    times = []
    for _ in range(repeats):
        try:
            times.append(fn())
        except PlaywrightTimeout:
            return None
    return statistics.median(times)


def _story_in_browser(browser, server, label: str, repeats: int, naive) -> dict:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    query = "" if label == "bundled" else f"?story=synthetic-{SIZES[label]}"
    fig: dict = {}
    last = []

    def opened():
        for page, _ in last:
            page.context.close()
        last.clear()
        wait_idle(server.proc.pid)
        took, page, frame = _open_app(browser, f"{server.url}/{query}")
        last.append((page, frame))
        return took

    # The first open is a warm-up: the server loads and caches the story.
    fig["open"] = _median_or_dnf(opened, 1) and _median_or_dnf(opened, repeats)
    if last:
        page, frame = last[0]
        samples: list[float] = []
        # A one-day move that removes no event leaves the map as it was: that one does not count.
        for _ in range(4 * repeats):
            wait_idle(server.proc.pid)
            try:
                took, frame = _slider_move(page, frame)
            except (TimeoutError, PlaywrightTimeout):
                samples = []
                break
            if took is not None:
                samples.append(took)
            if len(samples) == repeats:
                break
        fig["slider"] = statistics.median(samples) if samples else None
        page.context.close()
    if naive and naive[0].exists():
        wait_idle(server.proc.pid)
        fig["naive_open"] = _median_or_dnf(
            lambda: _open_naive(browser, server.url, *naive), max(1, repeats // 2)
        )
    return fig


def browser_figures(labels: list[str], repeats: int, naive_pages: dict) -> dict[str, dict]:
    """Open the app (and the naive page) in headless Chromium for each story up to 100k."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.appserver import CHROMIUM_ARGS, chromium_path, start_server, stop_server

    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp), {"DATELINE_STORIES_DIR": str(DATA)})
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
                )
                for label in labels:
                    out[label] = _story_in_browser(
                        browser, server, label, repeats, naive_pages.get(label)
                    )
                browser.close()
        finally:
            stop_server(server)
    return out
