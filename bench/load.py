"""Load: k readers at once, against one app server and against two behind nginx
(deploy/nginx.conf). Each reader (a page in one headless Chromium) opens the dashboard, waits for
the map, then moves the date slider m times, each time waiting until the rerun has ended.

``python bench/load.py --readers 10 --moves 5`` prints a Markdown table and writes it to
bench/results.md (its own part). Per setup: page-open and move→idle times (median, p90),
errors, the servers' CPU-seconds per page open and per rerun (utime+stime from /proc/<pid>/stat
of the streamlit processes) and memory per session (their RSS growth over the open pages /
sessions, after one warm-up page per server). The servers share one throw-away PostgreSQL
(tests/pg.py) as deployed; Chromium runs on the same machine as the servers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results import put_part  # noqa: E402
from tests.e2e.appserver import (  # noqa: E402
    APP_READY,
    CHROMIUM_ARGS,
    FIRST_RUN_TEXT,
    MAP_FRAME,
    chromium_path,
    start_server,
    stop_server,
)
from tests.e2e.nginx import start_nginx, stop_nginx  # noqa: E402

LIMIT_MS = 300_000
PORTS = (8641, 8642)  # the app servers; nginx on 8649
TICK = os.sysconf("SC_CLK_TCK")
START = "?from=2017-08-01&to=2017-09-10"  # each move takes the window's end a day back


def family(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def usage(pids: list[int]) -> tuple[float, float]:
    """(CPU-seconds, RSS in MB) of the processes ``pids`` and their descendants."""
    cpu = rss = 0.0
    for p in (q for pid in pids for q in family(pid)):
        try:
            stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        cpu += (int(stat[11]) + int(stat[12])) / TICK
        kb = next((ln.split()[1] for ln in status.splitlines() if ln.startswith("VmRSS")), "0")
        rss += int(kb) / 1024
    return cpu, rss


async def open_page(browser, url: str):
    """A reader's page, once the whole page and the map are drawn: (seconds, page, errors)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 720})
    host = urlparse(url).netloc

    async def route(r):
        if urlparse(r.request.url).netloc == host or r.request.url.startswith(("data:", "blob:")):
            await r.continue_()
        else:
            await r.abort()

    await context.route("**/*", route)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    t0 = time.perf_counter()
    await page.goto(url, timeout=LIMIT_MS)
    await page.wait_for_selector(APP_READY, timeout=LIMIT_MS)
    await page.get_by_text(FIRST_RUN_TEXT).wait_for(state="detached", timeout=LIMIT_MS)
    date_box = page.frame_locator(MAP_FRAME).get_by_test_id("map-date")
    await date_box.wait_for(timeout=LIMIT_MS)
    await page.wait_for_selector(APP_READY, timeout=LIMIT_MS)
    return time.perf_counter() - t0, page, errors


async def move(page) -> float:
    """Seconds from one ArrowLeft on the window's end to the rerun ended (the URL carries the
    new window and the script is not running)."""
    before = page.url
    dates = page.get_by_test_id("stSlider").filter(has_text="Dates")
    thumb = dates.get_by_role("slider").nth(1)
    await thumb.focus()
    t0 = time.perf_counter()
    await thumb.press("ArrowLeft")
    await page.wait_for_function(
        "([u, sel]) => new URL(location.href).searchParams.get('to')"
        " !== new URL(u).searchParams.get('to') && document.querySelector(sel) !== null",
        arg=[before, APP_READY],
        timeout=LIMIT_MS,
        polling=20,
    )
    return time.perf_counter() - t0


async def reader(browser, url: str, moves: int, opened: asyncio.Event, go: asyncio.Event, out):
    """One reader: open, tell ``opened``, wait for ``go``, then move ``moves`` times."""
    try:
        took, page, errors = await open_page(browser, url)
        out["open"].append(took)
    except Exception as exc:  # a reader that fails counts as an error, the others go on
        out["errors"].append(f"open: {type(exc).__name__}")
        opened.set()
        return
    opened.set()
    await go.wait()
    for _ in range(moves):
        try:
            out["move"].append(await move(page))
        except Exception as exc:
            out["errors"].append(f"move: {type(exc).__name__}")
            break
    out["errors"].extend(f"page: {e[:80]}" for e in errors)
    out["pages"].append(page)


async def load(urls: list[str], pids: list[int], warm: list[str], readers: int, moves: int):
    """The figures of ``readers`` readers spread over ``urls`` (one URL: each reader opens it)."""
    from playwright.async_api import async_playwright

    out: dict = {"open": [], "move": [], "errors": [], "pages": []}
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
        )
        for url in warm:  # each server's first page loads the story: not a session's cost
            _, page, _ = await open_page(browser, url)
            await page.context.close()
        cpu0, rss0 = usage(pids)
        events = [(asyncio.Event(), asyncio.Event()) for _ in range(readers)]
        tasks = [
            asyncio.create_task(reader(browser, urls[i % len(urls)], moves, *events[i], out))
            for i in range(readers)
        ]
        for opened, _ in events:
            await opened.wait()
        cpu1, rss1 = usage(pids)
        for _, go in events:
            go.set()
        await asyncio.gather(*tasks)
        cpu2, _ = usage(pids)
        await browser.close()
    sessions = max(len(out["open"]), 1)
    return {
        "open": out["open"],
        "move": out["move"],
        "errors": out["errors"],
        "cpu_open": (cpu1 - cpu0) / sessions,
        "cpu_move": (cpu2 - cpu1) / max(len(out["move"]), 1),
        "mb_session": (rss1 - rss0) / sessions,
    }


def quantiles(values: list[float]) -> str:
    if not values:
        return "–"
    med = statistics.median(values)
    p90 = sorted(values)[min(len(values) - 1, int(0.9 * len(values)))]
    return f"{med:.1f} / {p90:.1f}"


def run_setup(n_servers: int, readers: int, moves: int, tmp: Path, db_url: str | None) -> dict:
    """Start ``n_servers`` app servers (behind nginx when more than one) and load them."""
    env = {"DATELINE_DATABASE_URL": db_url} if db_url else {}
    with ExitStack() as stack:
        servers = []
        for i in range(n_servers):
            srv = start_server(tmp / f"app{n_servers}-{i}", env, port=PORTS[i])
            stack.callback(stop_server, srv)
            servers.append(srv)
        urls = [s.url for s in servers]
        front = None
        if n_servers > 1:
            front = start_nginx(tmp / f"nginx{n_servers}", urls, tmp, port=8649)
            stack.callback(stop_nginx, front)
        entry = [f"{u}/{START}" for u in ([front.url] if front else urls)]
        warm = [f"{u}/{START}" for u in urls]
        figures = asyncio.run(load(entry, [s.proc.pid for s in servers], warm, readers, moves))
    figures["setup"] = f"{n_servers} server" + ("s behind nginx" if front else "")
    return figures


def table(rows: list[dict], readers: int, moves: int) -> str:
    lines = [
        f"{readers} readers at once, each: open the dashboard (bundled story), wait for the map,"
        f" then {moves} date-slider moves (each waited to its rerun's end). Seconds as"
        " median / p90; CPU and memory are the app servers' (streamlit processes, /proc).",
        "",
        "| setup | readers | page open (s) | move→idle (s) | moves | errors |"
        " server CPU-s per open | server CPU-s per rerun | MB per session |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['setup']} | {readers} | {quantiles(r['open'])} | {quantiles(r['move'])} |"
            f" {len(r['move'])} | {len(r['errors'])} | {r['cpu_open']:.2f} |"
            f" {r['cpu_move']:.2f} | {r['mb_session']:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--readers", type=int, default=10)
    ap.add_argument("--moves", type=int, default=5)
    ap.add_argument("--servers", default="1,2", help="setups, e.g. 1,2 (2: behind nginx)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args()
    from tests import pg

    with tempfile.TemporaryDirectory(prefix="dateline-load-") as tmp, ExitStack() as stack:
        db_url = None if pg.missing() else stack.enter_context(pg.cluster())
        rows = []
        for n in (int(x) for x in args.servers.split(",")):
            rows.append(run_setup(n, args.readers, args.moves, Path(tmp), db_url))
            for r in rows[-1]["errors"]:
                print("error:", r, file=sys.stderr)
    body = "## Load: readers against one and two servers (bench/load.py)\n\n"
    body += table(rows, args.readers, args.moves)
    body += f"\n\nMachine: {os.cpu_count()} cores shared by the servers, nginx, PostgreSQL and"
    body += " Chromium (all the readers' pages); " + time.strftime("%Y-%m-%d", time.gmtime()) + "."
    print(body)
    if not args.no_write:
        put_part("bench/load.py", body)


if __name__ == "__main__":
    main()
