"""Benchmark: Dateline's map against the naive folium approach, from the bundled story to 1M events.

``python bench/run.py`` (``--quick`` for fewer repeats, ``--sizes 1k,10k``, ``--no-browser``)
prints a Markdown table and writes it to ``bench/results.md``. Every figure is the median of
several runs, each in a child process so that peak memory is per approach and a run that passes
60 s can be stopped and reported as "did not finish".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generate import DATA, SIZES, ensure_story  # noqa: E402
from geo.atomic import atomic_write_text  # noqa: E402
from geo.map import scale  # noqa: E402

RESULTS = ROOT / "bench" / "results.md"
LAST_RUN = DATA / "last-run.json"
BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
LIMIT_S = 60.0
# A figure is repeated until this many runs or this much time, whichever comes first.
REPEATS, QUICK_REPEATS, BUDGET_S = 5, 2, 12.0
BROWSER_MAX_EVENTS = 100_000
LABELS = ("bundled", *SIZES)
DNF = "did not finish"


class DidNotFinish(Exception):
    """A single run passed the time limit."""


# --- measuring, in a child process ---------------------------------------------------------------


@contextmanager
def time_limit(seconds: float):
    """Raise DidNotFinish inside the block once ``seconds`` have passed."""

    def _stop(_signum, _frame):
        raise DidNotFinish

    old = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed(fn: Callable[[], object], repeats: int) -> tuple[float | None, object]:
    """Median seconds of ``fn`` over up to ``repeats`` runs (fewer past BUDGET_S), and its result.

    None for the time when a run passes LIMIT_S.
    """
    times: list[float] = []
    result = None
    started = time.perf_counter()
    for _ in range(repeats):
        result = None  # a loaded story is not kept while the next one loads: peak memory
        t0 = time.perf_counter()
        try:
            with time_limit(LIMIT_S):
                result = fn()
        except DidNotFinish:
            return None, None
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - started > BUDGET_S:
            break
    return statistics.median(times), result


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def st_folium_args(fmap, groups, big: bool) -> dict:
    """What st_folium sends the browser for this map, called as app.py calls it."""
    import folium
    import streamlit_folium

    sent: dict = {}
    real = streamlit_folium._component_func
    streamlit_folium._component_func = lambda **kw: sent.update(kw) or {}
    try:
        streamlit_folium.st_folium(
            fmap,
            key="bench",
            feature_group_to_add=groups,
            returned_objects=["last_object_clicked_tooltip", *(["zoom", "bounds"] if big else [])],
            layer_control=folium.LayerControl(collapsed=True),
            use_container_width=True,
            height=620,
        )
    finally:
        streamlit_folium._component_func = real
    sent.pop("on_change", None)
    return sent


def windows(start: date, end: date) -> dict[str, tuple[date, date]]:
    return {"month": (max(start, end - timedelta(days=29)), end), "all": (start, end)}


def worker_ours(path: Path, repeats: int) -> dict:
    """Load, one-month filter, and map build + payload for one month and for the whole span.

    Every story is drawn by the map's script: a small one from its whole payload (built once
    per story version, ``payload``), a big one from a window payload built on each rerun."""
    from geo.map.layers import base_map, browser_layers, load_basemap
    from geo.map.payload import payload_json
    from geo.map.window import needs_window, window_payload
    from geo.story.load import load_story
    from geo.story.timeline import filter_events

    out: dict = {}
    out["load"], story = timed(lambda: load_story(path), max(1, repeats // 2))
    big = needs_window(len(story.events), len(story.places))
    t0 = time.perf_counter()
    codes = scale.place_codes(story.events, story.places) if big else None
    out["index"] = time.perf_counter() - t0
    if not big:
        out["payload"], (text, _digest) = timed(lambda: payload_json(story), repeats)
        out["payload_bytes"] = len(text.encode())
    basemap = load_basemap(ROOT / "data" / "basemap" / "countries.geojson")
    categories = sorted(story.events["category"].unique())
    layers = {"events", "places", "convoy", "fronts"}

    def build(events, a, b):
        fmap = base_map(story, basemap)
        data = window_payload(story, events, b, codes=codes) if big else "/story-data/x.json"
        groups = browser_layers(data, a, b, None, [], layers)
        return st_folium_args(fmap, groups, big)

    # Warm-up: folium and jinja compile templates on first use, as on the app's first run.
    build(story.events.head(300), story.start, story.end)
    for name, (a, b) in windows(story.start, story.end).items():
        out[f"filter_{name}"], events = timed(
            lambda a=a, b=b: filter_events(story.events, a, b, categories, []), repeats * 2
        )
        out[f"events_{name}"] = len(events)
        out[f"map_{name}"], sent = timed(lambda e=events, a=a, b=b: build(e, a, b), repeats)
        out[f"bytes_{name}"] = len(json.dumps(sent))
        out[f"layers_bytes_{name}"] = len(sent["feature_group"] or "")
        out[f"clusters_{name}"] = (sent["feature_group"] or "").count('"key":"cluster:')
    out["peak_mb"] = peak_mb()
    return out


_JQUERY_STUB = """<script>window.$ = function(html) {
    var t = document.createElement('template');
    t.innerHTML = html.trim();
    return [t.content.firstChild];
};</script>"""


def worker_naive(path: Path, repeats: int, page_out: str) -> dict:
    """The same figures for bench/naive.py; the whole-span page is saved for the browser."""
    from bench import naive
    from geo.map.assets import localize
    from geo.story.load import load_story

    span = load_story(path).meta["span"]  # only for the dates: not part of the naive timing
    out: dict = {}
    out["load"], events = timed(lambda: naive.load(path), max(1, repeats // 2))
    naive.render(naive.build_map(events.head(3)))  # warm-up, as for Dateline
    for name, (a, b) in windows(span["start"], span["end"]).items():
        out[f"filter_{name}"], win = timed(lambda a=a, b=b: naive.window(events, a, b), repeats * 2)
        out[f"events_{name}"] = len(win)
        if name == "all" and out.get("map_month") is None:
            out["map_all"] = None  # the month already did not finish: the year will not either
            break
        out[f"map_{name}"], html = timed(
            lambda win=win: naive.render(naive.build_map(win)), repeats
        )
        out[f"bytes_{name}"] = len(html) if html else None
        if name == "all" and html and page_out:
            # The same page with Leaflet from this machine, so the browser can draw it offline;
            # folium's popups call jQuery's $(html)[0], which has no local copy: a small stand-in.
            page = naive.render(localize(naive.build_map(win)))
            atomic_write_text(page_out, page.replace("<head>", "<head>" + _JQUERY_STUB, 1))
    out["peak_mb"] = peak_mb()
    return out


def worker_apptest(story_id: str, repeats: int) -> dict:
    """The whole app.py under AppTest: first run, rerun, one-day slider move, and when the map
    was done within each (the rest of the script is not the map's)."""
    import streamlit_folium
    from streamlit.testing.v1 import AppTest

    os.environ["DATELINE_STORIES_DIR"] = str(DATA)
    real_st_folium = streamlit_folium.st_folium
    map_done: list[float] = []

    def st_folium(*args, **kwargs):
        result = real_st_folium(*args, **kwargs)
        map_done.append(time.perf_counter())
        return result

    # app.py imports st_folium from the module on every run, so it picks this one up.
    streamlit_folium.st_folium = st_folium
    out: dict = {"rerun": [], "slider": [], "rerun_map": [], "slider_map": []}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=10 * LIMIT_S)
    if story_id != "qalamoun-2017":
        at.query_params["story"] = story_id

    def give_up() -> None:
        # AppTest runs the script in this thread's stead and catches every exception, so a run
        # past the limit is stopped from outside: report what there is and end the process.
        print(json.dumps({"dnf": f"a run passed {LIMIT_S:.0f} s", "peak_mb": peak_mb()}))
        sys.stdout.flush()
        os._exit(0)

    def run(kind: str, action) -> float:
        map_done.clear()
        watchdog = threading.Timer(LIMIT_S, give_up)
        watchdog.start()
        t0 = time.perf_counter()
        action()
        took = time.perf_counter() - t0
        watchdog.cancel()
        if kind != "first":
            out[kind].append(took)
            out[f"{kind}_map"].append(map_done[-1] - t0 if map_done else None)
        return took

    out["first"] = run("first", at.run)
    lo, hi = at.slider(key="window").value
    # A slow script gets one rerun and one move, so the whole benchmark stays a few minutes.
    for n in range(repeats if out["first"] < 10 else 1):
        run("rerun", at.run)
        move = (lo, hi - timedelta(days=1 + n % 2))
        run("slider", lambda move=move: at.slider(key="window").set_value(move).run())
    out["exception"] = [str(e.value) for e in at.exception]
    for key in ("rerun", "slider", "rerun_map", "slider_map"):
        values = [v for v in out[key] if v is not None]
        out[key] = statistics.median(values) if values else None
    out["peak_mb"] = peak_mb()
    return out


def run_worker(args: list[str], timeout: float) -> dict:
    """Run ``bench/run.py --worker ...`` and return its JSON, or {"dnf": ...} past ``timeout``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"dnf": f"stopped after {timeout:.0f} s"}
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": (proc.stderr or proc.stdout)[-2000:]}
    return json.loads(lines[-1])


# --- the browser -------------------------------------------------------------------------------

_DRAWN = """() => {
    const groups = window.feature_group || [];
    let n = 0;
    const walk = (layer) => {
        if (layer.getLayers) { layer.getLayers().forEach(walk); } else { n++; }
    };
    groups.forEach((g) => { if (g._map) { walk(g); } });
    return n > 0;
}"""
_PAINTED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


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
    frame.wait_for_function(_DRAWN, timeout=LIMIT_S * 1000)
    frame.evaluate(_PAINTED)
    return time.perf_counter() - t0, page, frame


def _settle(page) -> None:
    """Wait until the app is idle, after the rerun a big story's first view report causes."""
    from tests.e2e.appserver import APP_READY

    page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)
    page.wait_for_timeout(800)  # st_folium reports the view 250 ms after the map settles
    page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)


def _slider_move(page, frame) -> tuple[float | None, object]:
    """Seconds from moving the window's end one day back to the new layers painted, or None
    when the rerun ended with the map unchanged (no event on that day); and the map frame."""
    from tests.e2e.appserver import APP_READY, MAP_FRAME

    _settle(page)
    frame.evaluate("() => { window.benchBefore = window.__GLOBAL_DATA__.last_feature_group; }")
    url = page.url
    thumb = page.get_by_role("slider").nth(1)
    thumb.focus()
    t0 = time.perf_counter()
    thumb.press("ArrowLeft")
    changed = "() => window.__GLOBAL_DATA__.last_feature_group !== window.benchBefore"
    ended_at = None
    while time.perf_counter() - t0 < LIMIT_S:
        try:
            if frame.evaluate(changed):
                break
        except Exception as exc:  # the component remounted: the new frame's first drawing counts
            if "detached" not in str(exc):
                raise
            frame = page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000).content_frame()
            frame.wait_for_function(_DRAWN, timeout=LIMIT_S * 1000)
            break
        # The rerun has ended (the URL carries the new window) without a new map.
        if page.url != url and page.locator(APP_READY).count():
            ended_at = ended_at or time.perf_counter()
            if time.perf_counter() - ended_at > 0.5:
                return None, frame
        page.wait_for_timeout(10)  # polling interval
    else:
        raise TimeoutError("the map did not change")
    frame.evaluate(_PAINTED)
    return time.perf_counter() - t0, frame


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
    page.evaluate(_PAINTED)
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


def _wait_idle(pid: int, timeout: float = LIMIT_S) -> None:
    """Wait until the app server stops using CPU: a closed page's script may still be running."""
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    deadline = time.monotonic() + timeout
    before = cpu()
    while time.monotonic() < deadline:
        time.sleep(0.5)  # a sampling interval, not a wait for a result
        now = cpu()
        if now - before < 0.05:
            return
        before = now


def _story_in_browser(browser, server, label: str, repeats: int, naive) -> dict:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    query = "" if label == "bundled" else f"?story=synthetic-{SIZES[label]}"
    fig: dict = {}
    last = []

    def opened():
        for page, _ in last:
            page.context.close()
        last.clear()
        _wait_idle(server.proc.pid)
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
            _wait_idle(server.proc.pid)
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
        _wait_idle(server.proc.pid)
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


# --- the report ----------------------------------------------------------------------------------


def machine() -> str:
    mem_kb = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem_kb / 1024 / 1024:.1f} GB memory, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def fmt_s(x: float | None) -> str:
    if x is None:
        return DNF
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.1f} s"


def fmt_b(x: int | None) -> str:
    if x is None:
        return "–"
    return f"{x / 1e6:.1f} MB" if x >= 1e6 else f"{x / 1e3:.0f} KB"


def with_ratio(naive: float | None, ours: float | None, text: str) -> str:
    if naive is None or not ours:
        return text
    return f"{text} ({naive / ours:.1f}×)" if naive / ours < 10 else f"{text} ({naive / ours:.0f}×)"


def table(rows: dict[str, dict]) -> list[str]:
    head = (
        "| Story | Events | Approach | Load | Filter, 1 month | Map, 1 month | Payload, 1 month "
        "| Map, whole span | Payload, whole span | Peak memory | Open → map drawn "
        "| Slider → map updated |"
    )
    lines = [head, "|" + "---|" * 12]
    for label, r in rows.items():
        ours, naive, web = r["ours"], r["naive"], r.get("browser", {})
        events = f"{ours.get('events_all', 0):,}"
        if "error" in ours or "dnf" in ours:
            lines.append(f"| {label} | – | Dateline | {ours.get('dnf') or 'error'} |" + " |" * 8)
            continue
        lines.append(
            f"| {label} | {events} | Dateline | {fmt_s(ours['load'])} "
            f"| {fmt_s(ours['filter_month'])} | {fmt_s(ours['map_month'])} "
            f"| {fmt_b(ours['bytes_month'])} | {fmt_s(ours['map_all'])} "
            f"| {fmt_b(ours['bytes_all'])} | {ours['peak_mb']:,.0f} MB "
            f"| {fmt_s(web['open']) if 'open' in web else '–'} "
            f"| {fmt_s(web['slider']) if 'slider' in web else '–'} |"
        )
        if "error" in naive:
            lines.append(f"| | | naive | error: {naive['error'][-200:]!r} |" + " |" * 8)
            continue
        if "dnf" in naive:
            lines.append(f"| | | naive | {DNF} ({naive['dnf']}) |" + " |" * 8)
            continue

        def n(key: str, fmt=fmt_s, naive=naive, ours=ours) -> str:
            if key not in naive:
                return "not run"
            return with_ratio(naive[key], ours.get(key), fmt(naive[key]))

        naive_slider = None
        if naive.get("map_all") is not None and web.get("naive_open") is not None:
            # A naive app redraws the whole page on every change: rebuild, then reload.
            naive_slider = naive["map_all"] + web["naive_open"]
        web_open = web_slider = "–"
        if web:
            naive_open = web.get("naive_open")
            web_open = with_ratio(naive_open, web.get("open"), fmt_s(naive_open))
            web_slider = with_ratio(naive_slider, web.get("slider"), fmt_s(naive_slider))
        lines.append(
            f"| | | naive | {n('load')} | {n('filter_month')} | {n('map_month')} "
            f"| {n('bytes_month', fmt_b)} | {n('map_all')} | {n('bytes_all', fmt_b)} "
            f"| {naive['peak_mb']:,.0f} MB "
            f"| {web_open} | {web_slider} |"
        )
    return lines


def apptest_table(rows: dict[str, dict]) -> list[str]:
    lines = [
        "| Story | Events in window | First run (loads the story) | Rerun: map drawn "
        "| Rerun: whole script | Slider move: map drawn | Slider move: whole script "
        "| Peak memory |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, r in rows.items():
        a = r.get("apptest", {})
        events = f"{r['ours'].get('events_all', 0):,}"
        if "dnf" in a or "error" in a:
            why = a.get("dnf") or a.get("error", "")[-120:]
            lines.append(f"| {label} | {events} | {DNF} ({why}) | – | – | – | – | – |")
        elif a:
            lines.append(
                f"| {label} | {events} | {fmt_s(a['first'])} | {fmt_s(a['rerun_map'])} "
                f"| {fmt_s(a['rerun'])} | {fmt_s(a['slider_map'])} | {fmt_s(a['slider'])} "
                f"| {a['peak_mb']:,.0f} MB |"
            )
    return lines


def _get(rows: dict, label: str, part: str, key: str):
    return rows.get(label, {}).get(part, {}).get(key)


def _verdict(value: float | None, limit: float, fmt=fmt_s) -> str:
    if value is None:
        return "not measured"
    if value <= limit:
        return f"met ({fmt(value)})"
    return f"**missed** by {value / limit:.1f}× ({fmt(value)})"


def targets(rows: dict[str, dict]) -> list[str]:
    """The issue's targets, each with what was measured and whether it is met."""
    lines = ["| Target | Result | How it was measured |", "|---|---|---|"]

    def add(target: str, value, limit: float, how: str, fmt=fmt_s) -> None:
        lines.append(f"| {target} | {_verdict(value, limit, fmt)} | {how} |")

    add(
        "Bundled story: slider move → map updated in the browser < 0.3 s",
        _get(rows, "bundled", "browser", "slider"),
        0.3,
        "Chromium, one day off the window's end until the new layers are painted",
    )
    add(
        "100k events in the window: the map part of the rerun < 1 s",
        _get(rows, "100k", "apptest", "rerun_map"),
        1.0,
        "AppTest, from the rerun's start until st_folium returns",
    )
    add(
        "100k events in the window: the whole script rerun < 1 s",
        _get(rows, "100k", "apptest", "rerun"),
        1.0,
        "AppTest, the whole app.py (see the notes)",
    )
    add(
        "100k events in the window: map payload < 3 MB",
        _get(rows, "100k", "ours", "bytes_all"),
        3e6,
        "JSON of everything st_folium sends for the map",
        fmt_b,
    )
    add(
        "100k events in the window: browser updated < 2 s",
        _get(rows, "100k", "browser", "slider"),
        2.0,
        "Chromium, slider move → new layers painted",
    )
    ours_1m = rows.get("1m", {}).get("ours", {})
    map_1m = None
    if ours_1m.get("map_all") is not None:
        map_1m = ours_1m["filter_all"] + ours_1m["map_all"]
    add(
        "1M events in the story: the map part of the rerun < 2 s",
        _get(rows, "1m", "apptest", "rerun_map") or map_1m,
        2.0,
        "AppTest when it finishes, else filter + map build + st_folium for the whole year",
    )
    add(
        "1M events in the story: the whole script rerun < 2 s",
        _get(rows, "1m", "apptest", "rerun"),
        2.0,
        "AppTest, the whole app.py (see the notes)",
    )
    gb = lambda v: f"{v / 2**30:.2f} GB"  # noqa: E731
    for part, what, how in (
        ("apptest", "whole app", "max RSS of app.py under AppTest: load, first run, reruns"),
        ("ours", "map pipeline", "max RSS of a process that loads the story, builds both maps"),
    ):
        peak = _get(rows, "1m", part, "peak_mb")
        target = f"1M events in the story: peak memory < 2 GB, {what}"
        add(target, peak and peak * 2**20, 2**31, how, gb)
    ours_10k, naive_10k = rows.get("10k", {}).get("ours", {}), rows.get("10k", {}).get("naive", {})
    web = rows.get("10k", {}).get("browser", {})
    naive_slider = None
    if web.get("naive_open") and naive_10k.get("map_all"):
        naive_slider = naive_10k["map_all"] + web["naive_open"]
    for what, naive, ours, how in (
        (
            "map build",
            naive_10k.get("map_all"),
            ours_10k.get("map_all"),
            "build + serialise, whole span (10,000 events in the window)",
        ),
        (
            "slider move",
            naive_slider,
            web.get("slider"),
            "Chromium; naive = rebuild + reload its page",
        ),
    ):
        verdict = "not measured"
        if naive and ours:
            ratio = naive / ours
            verdict = f"met ({ratio:.0f}×)" if ratio >= 10 else f"**missed** ({ratio:.1f}×)"
        lines.append(f"| 10k events: ≥ 10× faster than naive, {what} | {verdict} | {how} |")
    if ours_10k.get("map_month") and naive_10k.get("map_month"):
        ratio = naive_10k["map_month"] / ours_10k["map_month"]
        lines.append(
            f"| (not a target) 10k story, one-month window of {ours_10k['events_month']:,} events "
            f"| {ratio:.1f}× | Dateline's fixed cost per rerun (base map, country outlines, "
            "legend) dominates at this size |"
        )
    return lines


TARGET_NOTES = """
- **Floor**: a Streamlit page that bench writes (`bench/data/floor/floor_app.py`): a range
  slider and an `st_folium` map whose one marker moves on every rerun (`feature_group_to_add`).
  Every Dateline page is measured in the same Chromium, move for move alternating with the
  floor ({repeats} opens and {repeats}×2 moves per page), so ratios are taken within one run.
- **Slider move**: the range slider's end thumb focused and ArrowLeft pressed (one day back).
  *Repainted*: from the key press until the map's drawing (anything in Leaflet's map pane)
  first changes and two animation frames have passed, whether the server's new layers or the
  map's own script (which follows the slider's thumbs on a small story) changed it. *Idle*:
  from the key press until Streamlit's `data-test-script-state` is back to `notRunning` for
  the last time before a quiet second (a big map reports its view and may cause a second run;
  it is counted). Times are taken in the page (`performance.now()`).
- **Websocket bytes**: every frame sent and received on the page's websockets during a move
  (DevTools `Network.webSocketFrameSent` / `Received`; binary frames decoded from base64).
- **Opens** are timed in the page, from the start of its navigation to the animation frame
  after the one in which the map's frame first has its layers (the page watches the frame, its
  own origin, on every frame). Every server, the floor's too, is started by `serve.py`, as
  `dev.py run` starts the dashboard (`streamlit run` with pandas, pyarrow, folium and the geo
  library imported while the server starts).
- **Cold open**: the first page open on a new server process, until the map's layers are
  painted; its disk cache is as an earlier server left it (the big stories' checked event
  stores, and the timeline's pictures drawn by one page of each big story on a server that is
  then stopped). Each cold open has no other page open, as the floor's (the first) has: the
  page before it has settled and closed, and every server is idle. *Open* is a new page on the
  warm server (with the pages the moves are measured on open, for every app alike).
- **Server memory**: VmRSS (now) and VmHWM (peak) of the Streamlit process serving that page;
  the first check of a big story runs in a child process and is not in these figures.
"""


NOTES = """
- **Dateline** is the app's own code path: `load_story` (validates every row), `filter_events`,
  then `base_map` + `story_layers` serialised by `st_folium` exactly as `app.py` calls it. A story
  with more than {detail} events in the window, or more than {points} places, draws only what is in
  the reader's view: each place as a dot on one canvas while at most {points} places with events
  are in view, else grid clusters ({cell} px cells at the current zoom) whose counts add up to the
  events in view. Clicking a cluster zooms into it and the app re-aggregates for the new view.
- **Naive** is `bench/naive.py`: `pd.read_csv`/`read_parquet`, a boolean date mask, one
  `folium.Marker` with a `folium.Popup` per event, `m.get_root().render()`. Its browser figures are
  for that page on its own (Leaflet served locally, a 4-line stand-in for the jQuery its popups
  call), without Streamlit's start-up, which favours it. Its slider move is its rebuild plus a
  reload, as a naive app redraws the whole map on every change.
- Payload: the JSON of everything `st_folium` sends for the map (script, header, layers). About
  85 KB of every Dateline figure is the offline country outlines, sent with every rerun.
- *Did not finish*: stopped at {limit:.0f} s. A naive whole-span run is not started when its
  one-month run did not finish. The browser columns stop at 100k events, as the issue asks.
- *Open → map drawn* is mostly Streamlit's own page start (its JavaScript, the websocket, the
  first script run, the map component's frame and Leaflet): about the same for every size.
- The whole-script rerun is all of `app.py`, including what is below the map (details, charts,
  the events table); the "map drawn" columns show when the map itself is done. Loading a story is
  paid once and cached (`st.cache_resource`). Slider moves that remove no event leave the map
  unchanged and are not counted.
- The machine's two cores are shared with other work: browser figures in particular have varied
  by up to 2-3× between runs, so read them as orders of magnitude.
"""


def why_missed(rows: dict[str, dict]) -> list[str]:
    """A line of explanation for each target this run missed."""
    out = []
    slider = _get(rows, "bundled", "browser", "slider")
    if slider and slider > 0.3:
        to_map = _get(rows, "bundled", "apptest", "slider_map")
        build = _get(rows, "bundled", "ours", "map_all")
        out.append(
            f"**Missed.** The bundled story's slider move takes {fmt_s(slider)} against 0.3 s. "
            f"The script reaches the end of the map after {fmt_s(to_map)} (AppTest), of which "
            f"building the layers (a popup for every event) and serialising them with the base "
            f"map and its country outlines is about {fmt_s(build)}; the rest is Streamlit's round "
            "trip and the browser re-evaluating the map's layers and re-drawing the page's "
            "charts. Under 0.3 s would need the date window applied in the browser for small "
            "stories (the whole story sent once, layers filtered in JavaScript) instead of a "
            "Streamlit rerun per move."
        )
    return out


def report(rows: dict[str, dict], meta: dict, figures: dict | None = None) -> str:
    """bench/results.md from the figures of one run."""
    from bench import targets as browser_targets

    head = [
        "# Benchmark results",
        "",
        f"Machine: {meta['machine']}.",
        f"Run: `{meta['command']}`, {meta['when']}.",
        "",
    ]
    if figures:
        head += [
            "## Issue 13 targets (Chromium, interleaved with the floor app)",
            "",
            *browser_targets.report(figures),
            "",
            TARGET_NOTES.strip().format(repeats=meta["repeats"]),
            "",
        ]
    if not rows:
        return "\n".join(head)
    return "\n".join(
        [
            *head,
            f"Pipeline figures: medians of up to {meta['repeats']} runs "
            f"(fewer once a figure has taken {BUDGET_S:.0f} s); a run past {LIMIT_S:.0f} s is "
            f"stopped and shown as *{DNF}*.",
            "",
            "## Map pipeline, Dateline against the naive approach",
            "",
            "Naive rows give the naive figure and, in brackets, how many times Dateline's it is.",
            "",
            *table(rows),
            "",
            "## The whole app.py script (Streamlit AppTest, no browser)",
            "",
            *apptest_table(rows),
            "",
            "## Targets",
            "",
            *targets(rows),
            "",
            *why_missed(rows),
            "",
            "## Notes",
            "",
            NOTES.strip().format(
                detail=scale.DETAIL_LIMIT,
                points=f"{scale.POINT_LIMIT:,}",
                cell=scale.CELL_PX,
                limit=LIMIT_S,
            ),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--sizes", default=",".join(LABELS), help=",".join(LABELS))
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-app", action="store_true", help="skip the AppTest rerun")
    parser.add_argument(
        "--pipeline",
        action="store_true",
        help="also the map pipeline against the naive approach and the AppTest figures (long)",
    )
    parser.add_argument(
        "--target-sizes", default="100k,1m", help="synthetic stories in the targets table"
    )
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite results.md from the last run's figures"
    )
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.report_only:
        last = json.loads(LAST_RUN.read_text())
        text = report(last["rows"], last["meta"], last.get("targets"))
        atomic_write_text(RESULTS, text + "\n")
        return 0
    if args.worker:
        kind, *rest = args.worker
        if kind == "ours":
            result = worker_ours(Path(rest[0]), int(rest[1]))
        elif kind == "naive":
            result = worker_naive(Path(rest[0]), int(rest[1]), rest[2] if len(rest) > 2 else "")
        else:
            result = worker_apptest(rest[0], int(rest[1]))
        print(json.dumps(result), flush=True)
        # AppTest leaves a timed-out script thread running: do not wait for it.
        os._exit(0)

    repeats = QUICK_REPEATS if args.quick else REPEATS
    labels = [s.strip() for s in args.sizes.split(",") if s.strip()]
    rows: dict[str, dict] = {}
    naive_pages: dict[str, tuple[Path, int]] = {}
    with tempfile.TemporaryDirectory() as pages_dir:
        for label in labels if args.pipeline else []:
            path = BUNDLED if label == "bundled" else ensure_story(SIZES[label])
            print(f"{label}: Dateline …", file=sys.stderr, flush=True)
            ours = run_worker(["ours", str(path), str(repeats)], timeout=20 * LIMIT_S)
            print(f"{label}: naive …", file=sys.stderr, flush=True)
            page = Path(pages_dir) / f"{label}.html"
            naive = run_worker(["naive", str(path), str(repeats), str(page)], timeout=6 * LIMIT_S)
            if page.exists():
                naive_pages[label] = (page, naive["events_all"])
            rows[label] = {"ours": ours, "naive": naive}
            if not args.no_app:
                print(f"{label}: whole app under AppTest …", file=sys.stderr, flush=True)
                story_id = "qalamoun-2017" if label == "bundled" else f"synthetic-{SIZES[label]}"
                rows[label]["apptest"] = run_worker(
                    ["apptest", story_id, str(max(2, repeats // 2))], timeout=5 * LIMIT_S
                )
        if args.pipeline and not args.no_browser:
            small = [lb for lb in labels if lb == "bundled" or SIZES[lb] <= BROWSER_MAX_EVENTS]
            print("browser …", file=sys.stderr, flush=True)
            for label, fig in browser_figures(small, repeats, naive_pages).items():
                rows[label]["browser"] = fig

    figures = None
    if not args.no_browser:
        from bench import targets as browser_targets

        sizes = [s.strip() for s in args.target_sizes.split(",") if s.strip()]
        figures = browser_targets.measure(["bundled", *sizes], repeats)
    meta = {
        "machine": machine(),
        "command": "python bench/run.py"
        + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])),
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "repeats": repeats,
    }
    # The raw figures, for a closer look; bench/data is git-ignored.
    raw = {"meta": meta, "rows": rows, "targets": figures}
    atomic_write_text(LAST_RUN, json.dumps(raw, indent=1, default=str))
    text = report(rows, meta, figures)
    print(text)
    atomic_write_text(RESULTS, text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
