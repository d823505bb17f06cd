"""Issue 13's targets, measured in Chromium and interleaved with a floor app that bench writes.

The floor is the least any Streamlit page with a date slider and a map can cost: a range slider
and an ``st_folium`` map whose one marker is updated in place on every move. Each Dateline page
is measured in the same browser, move for move, alternating with the floor, so a busy machine
slows both alike and the ratios hold.

Per page: first open → the map's layers painted (in the page's clock); a slider move (the
window's end one day back, a key press on the thumb) → the map's layers repainted, and → the
page idle (Streamlit's ``data-test-script-state`` back to ``notRunning`` with no new run within
a quiet period); websocket bytes sent and received per move, from the DevTools protocol; the
server's memory.
A big story's cold open is its first open on a new server whose disk cache is already built.
"""

from __future__ import annotations

import base64
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generate import DATA, SIZES, ensure_story  # noqa: E402
from bench.measure import LIMIT_S, wait_idle  # noqa: E402

QUIET_S = 1.0  # a move's page is idle once no new script run starts for this long
FLOOR_APP = '''"""The floor (written by bench): a range slider and a one-marker st_folium."""

import sys
from datetime import date, timedelta

sys.path.insert(0, {root!r})

import folium
import streamlit as st
from streamlit_folium import st_folium

from geo.map.assets import localize

start, end = st.slider(
    "Dates",
    min_value=date(2017, 8, 1),
    max_value=date(2017, 8, 31),
    value=(date(2017, 8, 1), date(2017, 8, 31)),
    step=timedelta(days=1),
    key="window",
)
m = folium.Map(location=[34.2, 36.5], zoom_start=8, tiles=None)
marker = folium.FeatureGroup(name="marker")
folium.CircleMarker([34.0 + end.day / 100, 36.5], radius=6, tooltip=str(end)).add_to(marker)
st_folium(
    localize(m),
    key="map",
    feature_group_to_add=localize(marker),
    returned_objects=[],
    use_container_width=True,
    height=620,
)
'''
# Logged in the page: key presses and each change of Streamlit's script state, in page time.
_RECORDER = """() => {
    if (window.benchLog) { window.benchLog = []; return; }
    window.benchLog = [];
    const app = document.querySelector("[data-testid='stApp']");
    new MutationObserver(() => {
        window.benchLog.push([app.dataset.testScriptState, performance.now()]);
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
    document.addEventListener('keydown', () => { window.benchPress = performance.now(); },
                              {capture: true});
}"""
# Before the page's own scripts: every websocket message received is counted, and the time the
# page has painted after the latest one (two animation frames) kept. A quick run's "running" and
# "notRunning" can land in one React render, so the script-state attribute never changes: the
# page is then idle once it has painted the run's last message.
_WS_HOOK = """(() => {
    const Socket = window.WebSocket;
    window.benchMsgs = 0;
    window.benchMsgPainted = 0;
    window.WebSocket = class extends Socket {
        constructor(...args) {
            super(...args);
            this.addEventListener('message', () => {
                window.benchMsgs++;
                requestAnimationFrame(() => requestAnimationFrame(() => {
                    window.benchMsgPainted = performance.now();
                }));
            });
        }
    };
})()"""
# Whether a map frame's window ``w`` has drawn the story's layers.
_DRAWN_IN = """(w) => {
    const groups = w.feature_group || [];
    let n = 0;
    const walk = (layer) => {
        if (layer.getLayers) { layer.getLayers().forEach(walk); } else { n++; }
    };
    groups.forEach((g) => { if (g._map) { walk(g); } });
    // A small story is drawn by the map's own script (js/story.js) into a group of its own.
    return n > 0 || Boolean(w.Dateline && w.Dateline.last);
}"""
DRAWN = "() => (" + _DRAWN_IN + ")(window)"
# In the map's frame: the first change to the map's drawing (markers, paths, labels) after it is
# armed, and then two animation frames, in page time. Whether the change came from the server's
# new layers or from the map's own script does not matter: it is what the reader sees.
ARM = """() => {
    window.benchPainted = null;
    if (window.benchObserver) { window.benchObserver.disconnect(); }
    let seen = false;
    window.benchObserver = new MutationObserver(() => {
        if (seen) { return; }
        seen = true;
        requestAnimationFrame(() => requestAnimationFrame(() => {
            window.benchPainted = performance.timeOrigin + performance.now();
        }));
    });
    window.benchObserver.observe(document.querySelector('.leaflet-map-pane'),
                                 {childList: true, subtree: true, attributes: true});
}"""
PAINTED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# In the page before its own scripts: the animation frame after the one in which the map's frame
# first has its layers (that one painted them), in epoch ms. The frame is the page's own origin
# and is drawn in the same animation frames, so the page can watch it from its first document
# on. The open is then the paint the reader sees, taken in the page: a poll from this process
# would also count the time the page is busy afterwards (drawing the rest of itself, say).
DRAWN_STAMP = (
    "(() => {\n"
    "    const drawn = " + _DRAWN_IN + ";\n"
    """    const tick = () => {
        const frame = document.querySelector("iframe[title='streamlit_folium.st_folium']");
        let w = null;
        try { w = frame && frame.contentWindow; } catch (e) { w = null; }
        if (!w || !drawn(w)) { requestAnimationFrame(tick); return; }
        requestAnimationFrame(() => {
            window.benchDrawnAt = performance.timeOrigin + performance.now();
        });
    };
    if (window === window.top) { requestAnimationFrame(tick); }
})()"""
)
# Offline without intercepting requests: everything but loopback goes through a proxy that is
# not there (Chromium never sends loopback through a proxy), so it fails at once.
OFFLINE_ARGS = ["--proxy-server=http://127.0.0.1:9"]


def write_floor(folder: Path) -> Path:
    """The floor app in ``folder``, beside a link to the checkout's static files."""
    folder.mkdir(parents=True, exist_ok=True)
    static = folder / "static"
    if not static.exists():
        static.symlink_to(ROOT / "static", target_is_directory=True)
    app = folder / "floor_app.py"
    app.write_text(FLOOR_APP.format(root=str(ROOT)), encoding="utf-8")
    return app


def build_caches(cache: Path, labels: list[str], peaks: dict | None = None) -> dict[str, float]:
    """Check and cache each big story once (a child process each), timed: the first open ever.

    ``peaks`` gets each build's peak resident memory (the checking child's VmHWM), in MB."""
    out = {}
    for label in labels:
        path = ensure_story(SIZES[label])
        code = (
            "import resource; from geo.story.events_store import open_store; "
            f"open_store({str(path)!r}, {str(cache / 'event-store')!r}); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        )
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
        )
        out[label] = time.perf_counter() - t0
        if peaks is not None:
            peaks[label] = int(done.stdout.split()[-1]) / 1024
    return out


def server_memory(pid: int) -> dict[str, float]:
    """The server's resident memory now and at its peak (VmRSS, VmHWM), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return {"rss_mb": fields.get("VmRSS"), "peak_mb": fields.get("VmHWM")}


class Page:
    """One open page of an app, with its websocket traffic counted."""

    def __init__(self, browser, server, query: str = ""):
        from tests.e2e.appserver import MAP_FRAME

        self.server = server
        self.query = query
        # No request interception (every request would wait on this process): the browser is
        # launched with OFFLINE_ARGS, so only the local servers can answer.
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.page.add_init_script(_WS_HOOK)
        self.page.add_init_script(DRAWN_STAMP)
        self.bytes = 0
        self.page.goto(f"{server.url}/{query}", timeout=LIMIT_S * 1000)
        handle = self.page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000)
        self.frame = handle.content_frame()
        drawn_at = self.page.wait_for_function(
            "window.benchDrawnAt", timeout=LIMIT_S * 1000
        ).json_value()
        # From the start of the navigation, in the page's own clock.
        self.opened = (drawn_at - self.page.evaluate("performance.timeOrigin")) / 1000
        # Frames are counted for the moves only (the bytes are a move's figure): the open is
        # measured without DevTools copying every frame out to this process.
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketFrameReceived", self._count)
        cdp.on("Network.webSocketFrameSent", self._count)

    def _count(self, event: dict) -> None:
        frame = event.get("response") or {}
        data = frame.get("payloadData") or ""
        # Binary frames (opcode 2, Streamlit's protobuf messages) arrive base64-encoded.
        self.bytes += len(base64.b64decode(data)) if frame.get("opcode") == 2 else len(data)

    def settle(self) -> None:
        """Idle: no script running, and none started for QUIET_S (a big map reports its view)."""
        from tests.e2e.appserver import APP_READY

        self.page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)
        self.page.evaluate(_RECORDER)
        deadline = time.perf_counter() + LIMIT_S
        while time.perf_counter() < deadline:
            msgs = self.page.evaluate("window.benchMsgs")
            self.page.wait_for_timeout(QUIET_S * 1000)  # the quiet period itself
            # Still not running now, too: a run of over QUIET_S that sends nothing meanwhile (a
            # whole page waiting on its charts) left no trace once the log was cleared, and the
            # next move was pressed into its tail (a filter change at 10M: 0.7 s, not 0.35 s).
            quiet = "[window.benchLog.length, window.benchMsgs, !!document.querySelector(%r)]"
            if self.page.evaluate(quiet % APP_READY) == [0, msgs, True]:
                return
            self.page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)
            self.page.evaluate("() => { window.benchLog = []; }")

    def _repainted(self, t0: float) -> float | None:
        """Page time at which the map repainted after a move (its drawing changed, then two
        animation frames), or None when the run ended and the map did not change."""
        from tests.e2e.appserver import APP_READY, MAP_FRAME

        origin = self.page.evaluate("performance.timeOrigin")
        while time.perf_counter() - t0 < LIMIT_S:
            try:
                painted = self.frame.evaluate("window.benchPainted")
                if painted is not None:
                    return painted - origin
            except Exception as exc:  # the component remounted: its new frame's drawing counts
                if "detached" not in str(exc):
                    raise
                handle = self.page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000)
                self.frame = handle.content_frame()
                self.frame.wait_for_function(DRAWN, timeout=LIMIT_S * 1000)
                self.frame.evaluate(PAINTED)
                return self.page.evaluate("performance.now()")
            # The run ended long ago and the map did not change (no event that day). Asked of
            # the page itself: a quick run may never have shown in the log (see _WS_HOOK).
            if time.perf_counter() - t0 > 2 and self.page.query_selector(APP_READY):
                return None
            self.page.wait_for_timeout(5)  # polling interval
        return None

    def _live_frame(self):
        """The map's frame, found again if the component was mounted anew since last asked."""
        from tests.e2e.appserver import MAP_FRAME

        if self.frame.is_detached():
            handle = self.page.wait_for_selector(MAP_FRAME, timeout=LIMIT_S * 1000)
            self.frame = handle.content_frame()
            self.frame.wait_for_function(DRAWN, timeout=LIMIT_S * 1000)
        return self.frame

    def slider(self, label: str, thumb: int):
        """The ``thumb`` (0: the lower) of the page's slider labelled ``label``."""
        found = self.page.get_by_test_id("stSlider").filter(has_text=label)
        return found.get_by_role("slider").nth(thumb)

    def move(self, label: str = "Dates", thumb: int = 1, key: str = "ArrowLeft") -> dict:
        """One step of a slider (by default one day off the window's end): seconds to the map
        repainted and to the page idle (both from the key press, in page time), and the
        websocket bytes of the move."""
        from tests.e2e.appserver import APP_READY

        wait_idle(getattr(self, "every", None) or self.server.proc.pid)
        self.settle()
        self._live_frame().evaluate(ARM)
        self.bytes = 0
        # The date slider's end thumb (the sidebar has a slider of its own: Killed).
        handle = self.slider(label, thumb)
        handle.focus()
        handle.press(key)
        t0 = time.perf_counter()
        repaint = self._repainted(t0)
        # Idle: the last run's end once no new run has started and no message come for QUIET_S.
        # A page that never settles is reported (its runs listed) instead of hanging the bench.
        count = "[window.benchLog.length, window.benchMsgs]"
        while True:
            self.page.wait_for_selector(APP_READY, timeout=LIMIT_S * 1000)
            n = self.page.evaluate(count)
            self.page.wait_for_timeout(QUIET_S * 1000)  # the quiet period itself
            log = self.page.evaluate("window.benchLog")
            if self.page.evaluate(count) == n and (not log or log[-1][0] == "notRunning"):
                break
            if time.perf_counter() - t0 > LIMIT_S:
                states = [state for state, _ in log[-12:]]
                print(f"targets: page never idle after a move: {states}", file=sys.stderr)
                return {"repaint": None, "idle": None, "bytes": self.bytes}
        press = self.page.evaluate("window.benchPress")
        # The later of the last run's end and the paint after the last message of the move.
        ends = [t for state, t in log[-1:] if state == "notRunning"]
        painted = self.page.evaluate("window.benchMsgPainted")
        ends += [painted] if painted > press else []
        idle = (max(ends) - press) / 1000 if ends else None
        return {
            "repaint": None if repaint is None else (repaint - press) / 1000,
            "idle": idle,
            "bytes": self.bytes,
        }

    def close(self) -> None:
        self.context.close()


def _median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _prime(browser, tmp: Path, env: dict, queries: dict[str, str], big: list[str]) -> None:
    """The disk cache as a server leaves it: one page of each big story opened on a server of its
    own (it draws the timeline's pictures into the cache), then stopped, so the cold opens are a
    returning server's first page."""
    from tests.e2e.appserver import start_server, stop_server

    priming = start_server(tmp / "prime", env)
    try:
        for label in big:
            print(f"targets: priming {label} …", file=sys.stderr, flush=True)
            primer = Page(browser, priming, queries[label])
            primer.settle()
            wait_idle(priming.proc.pid)
            primer.close()
    finally:
        stop_server(priming)


def _cold_opens(browser, servers: dict, queries: dict[str, str], out: dict) -> None:
    """Each page's first open on its own new server (the disk cache is built).

    Each with no other page open, as the floor's (the first) is: every page left open made the
    next one's open slower (1M: 3.15-3.51 s with two open, 2.95-3.02 s with none). The page
    settles and closes before the next cold open.
    """
    for label, query in queries.items():
        print(f"targets: opening {label} …", file=sys.stderr, flush=True)
        wait_idle([srv.proc.pid for srv in servers.values()])
        page = Page(browser, servers[label], query)
        out["pages"][label] = {"cold_open": page.opened, "open": [], "moves": []}
        page.settle()
        page.close()
        for server in servers.values():
            wait_idle(server.proc.pid)


def _warm_figures(browser, servers: dict, queries: dict[str, str], out: dict, repeats: int):
    """Warm opens (a new page each time on the same server) and slider moves, interleaved with
    the floor's; then each server's memory."""
    # The pages the moves are measured on (warm opens, not counted), each settled: a big
    # story's whole-page run, begun once its map has painted, must not fall into the next
    # page's open (every server and its children idle before each figure).
    every = [srv.proc.pid for srv in servers.values()]
    pages = {}
    for label, query in queries.items():
        pages[label] = Page(browser, servers[label], query)
        pages[label].settle()
        wait_idle(every)
    for page in pages.values():
        page.every = every
    for _ in range(repeats):
        for label, query in queries.items():
            wait_idle(every)
            again = Page(browser, servers[label], query)
            out["pages"][label]["open"].append(again.opened)
            again.close()
    for n in range(repeats * 2):
        for label, page in pages.items():
            print(f"targets: move {n + 1} on {label} …", file=sys.stderr, flush=True)
            out["pages"][label]["moves"].append(page.move())
    for label, page in pages.items():
        out["pages"][label]["memory"] = server_memory(servers[label].proc.pid)
        if label not in ("floor", "bundled"):
            out["pages"][label]["filters"] = _filter_changes(browser, servers[label], page, repeats)
        page.close()


def _filter_changes(browser, server, page: Page, repeats: int) -> list[dict]:
    """The fatalities filter raised to ≥ 10, ``repeats`` times: each on a new page opened at
    ≥ 9 (from its link), its Killed slider's lower thumb one step up, its top a new one."""
    killed = page.page.get_by_test_id("stSlider").filter(has_text="Killed")
    top = int(killed.get_by_test_id("stSliderThumbValue").nth(1).inner_text())
    out = []
    for n in range(repeats):
        print(f"targets: fatalities filter {n + 1} …", file=sys.stderr, flush=True)
        wait_idle(page.every)
        # A new range each time (the top one lower): charts are kept per filter, and a filter
        # an analyst tries is mostly one not tried before.
        at_nine = Page(browser, server, f"{page.query}&killed=9-{top - n}")
        at_nine.every = page.every
        out.append(at_nine.move("Killed", 0, "ArrowRight"))
        at_nine.close()
    return out


def _summarise(out: dict) -> dict:
    for fig in out["pages"].values():
        moves = fig["moves"]
        fig["repaint"] = _median(m["repaint"] for m in moves)
        fig["idle"] = _median(m["idle"] for m in moves)
        fig["bytes"] = _median(m["bytes"] for m in moves if m["idle"] is not None)
        fig["open_median"] = _median(fig["open"])
        fig["filter"] = _median(m["idle"] for m in fig.get("filters", []))
    return out


def measure(labels: list[str], repeats: int) -> dict:
    """Every figure of the targets table, for ``labels`` (``bundled`` and synthetic sizes)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.appserver import CHROMIUM_ARGS, chromium_path, start_server, stop_server

    big = [lb for lb in labels if lb != "bundled"]
    out: dict = {"pages": {}, "cache_build_s": {}, "cache_build_peak_mb": {}}
    queries = {
        label: "" if label in ("floor", "bundled") else f"?story=synthetic-{SIZES[label]}"
        for label in ["floor", *labels]
    }
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cache = tmp / "cache"
        print("targets: checking and caching the big stories …", file=sys.stderr, flush=True)
        out["cache_build_s"] = build_caches(cache, big, out["cache_build_peak_mb"])
        env = {"DATELINE_STORIES_DIR": str(DATA), "DATELINE_CACHE_DIR": str(cache)}
        floor_app = write_floor(DATA / "floor")
        servers = {}
        try:
            servers["floor"] = start_server(tmp / "floor", {}, script=floor_app)
            for label in labels:
                servers[label] = start_server(tmp / label, env)
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=chromium_path(),
                    args=[*CHROMIUM_ARGS, *OFFLINE_ARGS],
                    headless=True,
                )
                _prime(browser, tmp, env, queries, big)
                _cold_opens(browser, servers, queries, out)
                _warm_figures(browser, servers, queries, out, repeats)
                browser.close()
        finally:
            for server in servers.values():
                stop_server(server)
    return _summarise(out)


# --- the report --------------------------------------------------------------------------------


def _ms(x: float | None) -> str:
    if x is None:
        return "not measured"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def _kb(x: float | None) -> str:
    return "not measured" if x is None else f"{x / 1000:.1f} KB"


def _mb(x: float | None) -> str:
    return "not measured" if x is None else f"{x:,.0f} MB"


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b


def _verdict(value: float | None, limit: float, text: str) -> str:
    if value is None:
        return "not measured"
    return f"met ({text})" if value <= limit else f"**missed** ({text})"


def report(figs: dict) -> list[str]:
    """The issue's targets table and the raw figures per page."""
    pages = figs.get("pages", {})
    floor = pages.get("floor", {})
    lines = ["| Target | Measured | Result |", "|---|---|---|"]

    def ratio_row(what: str, key: str, limit: float) -> None:
        mine, base = pages.get("bundled", {}).get(key), floor.get(key)
        r = _ratio(mine, base)
        text = f"{r:.2f}× ({_ms(mine)} vs floor {_ms(base)})" if r else "not measured"
        verdict = _verdict(r, limit, f"≤ {limit}×")
        lines.append(f"| bundled: {what}, vs the floor app | {text} | {verdict} |")

    ratio_row("slider → map repainted", "repaint", 1.2)
    ratio_row("slider → page idle", "idle", 1.3)
    b = pages.get("bundled", {}).get("bytes")
    lines.append(
        f"| bundled: websocket bytes per move | {_kb(b)} (floor {_kb(floor.get('bytes'))}) "
        f"| {_verdict(b, 10_000, '≤ 10 KB')} |"
    )
    ratio_row("first open → map drawn", "open_median", 1.3)
    if "100k" in pages:
        v = pages["100k"].get("idle")
        verdict = _verdict(v, 0.3, "≤ 300 ms")
        lines.append(f"| 100k events: slider → page idle | {_ms(v)} | {verdict} |")
    if "1m" in pages:
        p = pages["1m"]
        mem = p.get("memory", {})
        verdict = _verdict(p.get("idle"), 0.4, "≤ 400 ms")
        lines.append(f"| 1M events: slider → page idle | {_ms(p.get('idle'))} | {verdict} |")
        lines.append(
            f"| 1M events: server memory (RSS after the moves; peak) | {_mb(mem.get('rss_mb'))}; "
            f"peak {_mb(mem.get('peak_mb'))} "
            f"| {_verdict(mem.get('peak_mb'), 500, '≤ 500 MB, peak')} |"
        )
        lines.append(
            f"| 1M events: cold open (cached) → map drawn | {_ms(p.get('cold_open'))} "
            f"| {_verdict(p.get('cold_open'), 3.0, '≤ 3 s')} |"
        )
    lines += [
        "",
        "| Page | Cold open | Open (median) | Slider → repainted | Slider → idle "
        "| WS bytes / move | Server RSS | Server peak | Moves |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, p in pages.items():
        mem = p.get("memory", {})
        lines.append(
            f"| {label} | {_ms(p.get('cold_open'))} | {_ms(p.get('open_median'))} "
            f"| {_ms(p.get('repaint'))} | {_ms(p.get('idle'))} | {_kb(p.get('bytes'))} "
            f"| {_mb(mem.get('rss_mb'))} | {_mb(mem.get('peak_mb'))} | {len(p.get('moves', []))} |"
        )
    builds = figs.get("cache_build_s") or {}
    if builds:
        lines += [
            "",
            "First open ever of a big story (checks every row and writes the disk cache, in a "
            "child process): " + ", ".join(f"{k} {_ms(v)}" for k, v in builds.items()) + ".",
        ]
    return lines
