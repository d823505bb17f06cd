"""Do the timeline's charts still pay for drawing them as SVG on the server (vl-convert)?

``python bench/chart_cost.py [--rounds N] [--no-write]`` opens the bundled story in headless
Chromium (offline) on two builds of the dashboard, round after round, interleaved:

- *svg*: app.py as it is: the held-area chart is a Vega-Lite spec drawn as an SVG picture in
  a child process (``vl-convert-python``, Vega in V8) and kept on disk; the events chart is
  SVG written by Python (``geo/story/bars.py``, since 3 Dec 2026); the page shows both as
  images.
- *vega*: the same app.py, run by a small wrapper that shows the held-area spec with
  ``st.vega_lite_chart`` (the element ``st.altair_chart`` makes): Streamlit's own Vega
  JavaScript draws it in the page. app.py itself is not changed. (Before 3 Dec 2026 both
  charts were specs; the figures in ``bench/results.md`` are from then.)

Each round times, in the page's clock from the start of its navigation, when the map has its
layers and when both charts are shown (the two pictures loaded, or both Vega views drawn), and
counts what the page received (HTTP bodies as sent, websocket frames): on a new server with an
empty cache, on a new server whose cache an earlier server left, and on a second page of a warm
server. It prints a Markdown section and puts it in ``bench/results.md`` in place of its last.
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import LIMIT_S, wait_idle  # noqa: E402
from bench.results import put_part  # noqa: E402
from bench.targets import DRAWN_STAMP, OFFLINE_ARGS  # noqa: E402

HEADING = "## Timeline charts: SVG drawn on the server (vl-convert) or Vega in the page"
SCENARIOS = ("new server, empty cache", "new server, cache kept", "second page, warm server")
# Run by Streamlit on every run instead of app.py; the patch is made once per server process.
WRAPPER = '''"""bench/chart_cost.py's {variant} build: app.py unchanged, run from here."""

import json
import runpy
import sys

sys.path.insert(0, {root!r})

import streamlit as st

import geo.story.pictures as pictures

if {vega!r} and not hasattr(pictures, "bench_image"):
    # The charts' specs instead of their pictures, and a spec shown as Streamlit's Vega chart.
    def specs_as_text(key, cache_dir, specs, count):
        return [None if s is None else "vega:" + json.dumps(s) for s in specs()]

    def image(data, *args, **kwargs):
        if isinstance(data, str) and data.startswith("vega:"):
            return st.vega_lite_chart(spec=json.loads(data[5:]), width="stretch")
        return pictures.bench_image(data, *args, **kwargs)

    pictures.bench_image = st.image
    pictures.cached_svg = specs_as_text
    st.image = image

runpy.run_path({app!r}, run_name="__main__")
'''
# In the page before its scripts: the animation frame after the one in which both charts are
# shown, in epoch ms (as DRAWN_STAMP does for the map).
CHARTS_STAMP = """(() => {
    if (window !== window.top) { return; }
    const shown = () => {
        const pictures = [...document.querySelectorAll("[data-testid='stImage'] img")].filter(
            (i) => (i.alt || '').includes('whole story') && i.complete && i.naturalWidth > 0);
        // A Vega view is drawn once its SVG has the chart's marks (bars, or the area's line).
        const views = [...document.querySelectorAll("[data-testid='stVegaLiteChart']")].filter(
            (c) => c.querySelector('svg.marks g.mark-rect path, svg.marks g.mark-line path'));
        return pictures.length + views.length >= 2;
    };
    const tick = () => {
        if (!shown()) { requestAnimationFrame(tick); return; }
        requestAnimationFrame(() => {
            window.benchChartsAt = performance.timeOrigin + performance.now();
        });
    };
    requestAnimationFrame(tick);
})()"""


def write_build(builds: Path, variant: str) -> Path:
    """The wrapper of ``variant`` as ``app.py`` (the pages link to it by that name) in a folder
    of its own, beside links to static/ and pages/."""
    folder = builds / variant
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("static", "pages"):
        link = folder / name
        if not link.exists():
            link.symlink_to(ROOT / name, target_is_directory=True)
    script = folder / "app.py"
    text = WRAPPER.format(
        variant=variant, root=str(ROOT), vega=variant == "vega", app=str(ROOT / "app.py")
    )
    script.write_text(text, encoding="utf-8")
    return script


class Traffic:
    """Bytes a page receives: HTTP bodies as sent (encoded) and websocket frames."""

    def __init__(self, context, page):
        self.http = 0
        self.ws = 0
        self.urls: dict[str, int] = {}
        self._requests: dict[str, str] = {}
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _request(self, event: dict) -> None:
        self._requests[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict) -> None:
        size = int(event.get("encodedDataLength") or 0)
        self.http += size
        url = self._requests.get(event["requestId"], "?").split("?")[0]
        self.urls[url] = self.urls.get(url, 0) + size

    def _frame(self, event: dict) -> None:
        frame = event.get("response") or {}
        data = frame.get("payloadData") or ""
        self.ws += len(base64.b64decode(data)) if frame.get("opcode") == 2 else len(data)


def open_page(browser, server) -> dict:
    """One new page of the bundled story: seconds to map and charts, bytes received."""
    from tests.e2e.appserver import wait_whole_page

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(DRAWN_STAMP)
    page.add_init_script(CHARTS_STAMP)
    traffic = Traffic(context, page)
    page.goto(f"{server.url}/", timeout=LIMIT_S * 1000)
    charts_at = page.wait_for_function("window.benchChartsAt", timeout=LIMIT_S * 1000)
    wait_whole_page(page, int(LIMIT_S * 1000))
    origin = page.evaluate("performance.timeOrigin")
    map_at = page.evaluate("window.benchDrawnAt")
    out = {
        "map": (map_at - origin) / 1000 if map_at else None,
        "charts": (charts_at.json_value() - origin) / 1000,
        "http": traffic.http,
        "ws": traffic.ws,
        "urls": dict(traffic.urls),
    }
    context.close()
    return out


def one_round(browser, tmp: Path, builds: dict[str, Path], n: int) -> dict[str, list[dict]]:
    """Each build's three scenarios, a new cache and new servers each round."""
    from tests.e2e.appserver import start_server, stop_server

    out: dict[str, list[dict]] = {}
    for variant, script in builds.items():
        cache = tmp / f"{variant}-{n}"
        figures = []
        for _ in range(2):  # the second server finds the cache the first one left
            server = start_server(cache, {"DATELINE_CACHE_DIR": str(cache)}, script=script)
            try:
                figures.append(open_page(browser, server))
                wait_idle(server.proc.pid)
                if len(figures) == 2:
                    figures.append(open_page(browser, server))
            finally:
                stop_server(server)
        out[variant] = figures
        print(f"chart_cost: round {n + 1}, {variant} done", file=sys.stderr, flush=True)
    return out


def measure(rounds: int) -> dict[str, list[list[dict]]]:
    """Per build, per scenario, the figures of every round."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.appserver import CHROMIUM_ARGS, chromium_path

    runs: dict[str, list[list[dict]]] = {"svg": [[], [], []], "vega": [[], [], []]}
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as p:
        tmp = Path(tmp_name)
        builds = {v: write_build(tmp / "builds", v) for v in ("svg", "vega")}
        browser = p.chromium.launch(
            executable_path=chromium_path(), args=[*CHROMIUM_ARGS, *OFFLINE_ARGS], headless=True
        )
        for n in range(rounds):
            # Alternate which build goes first, so neither always meets a fresher machine.
            order = dict(sorted(builds.items(), reverse=n % 2 == 1))
            for variant, figures in one_round(browser, tmp, order, n).items():
                for i, fig in enumerate(figures):
                    runs[variant][i].append(fig)
        browser.close()
    return runs


def _median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def vega_js(runs: dict[str, list[list[dict]]]) -> int:
    """Bytes of the files only the vega build's page loads (Streamlit's Vega chunks)."""
    svg_urls = {u.rsplit("/", 1)[-1] for fig in runs["svg"][0] for u in fig["urls"]}
    first = runs["vega"][0][0]["urls"]
    return sum(b for u, b in first.items() if u.rsplit("/", 1)[-1] not in svg_urls)


def package_mb(name: str) -> float:
    """Installed size of a package's files, in MB."""
    import importlib.metadata

    files = importlib.metadata.files(name) or []
    return sum(f.locate().stat().st_size for f in files if f.locate().exists()) / 1e6


def section(runs: dict[str, list[list[dict]]], rounds: int) -> list[str]:
    """The Markdown section: per scenario and build, medians over the rounds."""
    intro = (
        f"`python bench/chart_cost.py --rounds {rounds}`: the bundled story in headless "
        f"Chromium, offline; medians of {rounds} interleaved rounds, in the page's clock from "
        "the start of navigation. *svg* is app.py as it is; *vega* shows the same Vega-Lite "
        "specs with `st.vega_lite_chart` (what `st.altair_chart` makes), app.py unchanged."
    )
    lines = [
        HEADING,
        "",
        textwrap.fill(intro, 100, break_on_hyphens=False),
        "",
        "| Page | Build | Map drawn | Charts shown | Received: HTTP | Received: websocket |",
        "|---|---|---|---|---|---|",
    ]
    for i, scenario in enumerate(SCENARIOS):
        for variant in ("svg", "vega"):
            figs = runs[variant][i]
            lines.append(
                f"| {scenario} | {variant} | {_median(f['map'] for f in figs):.2f} s "
                f"| {_median(f['charts'] for f in figs):.2f} s "
                f"| {_median(f['http'] for f in figs) / 1000:,.0f} KB "
                f"| {_median(f['ws'] for f in figs) / 1000:,.0f} KB |"
            )
    sizes = (
        f"Streamlit's Vega JavaScript, fetched only by the *vega* page: {vega_js(runs) / 1000:,.0f}"
        f" KB (as sent). Installed: `vl-convert-python` {package_mb('vl-convert-python'):.0f} MB."
        " The machine's two cores are shared with other work: compare the two builds within a "
        "page (their rounds were interleaved), not these times with other tables'."
    )
    return [*lines, "", textwrap.fill(sizes, 100, break_on_hyphens=False)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--raw", type=Path, help="also write the raw figures here (JSON)")
    parser.add_argument("--from-raw", type=Path, help="no measuring: the section of a raw file")
    args = parser.parse_args(argv)
    if args.from_raw:
        runs = json.loads(args.from_raw.read_text(encoding="utf-8"))
        args.rounds = len(runs["svg"][0])
    else:
        runs = measure(args.rounds)
    if args.raw:
        args.raw.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    lines = section(runs, args.rounds)
    print("\n".join(lines))
    if not args.no_write:
        put_part("bench/chart_cost.py", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
