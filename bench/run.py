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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import browser_figures  # noqa: E402
from bench.generate import DATA, DEFAULT_SIZES, SIZES, ensure_story  # noqa: E402
from bench.measure import LIMIT_S, QUICK_REPEATS, REPEATS  # noqa: E402
from bench.pipeline import worker_naive, worker_ours  # noqa: E402
from bench.report import machine, report  # noqa: E402
from bench.results import put_part  # noqa: E402
from bench.whole_app import worker_apptest  # noqa: E402
from geo.atomic import atomic_write_text  # noqa: E402

LAST_RUN = DATA / "last-run.json"
BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
BROWSER_MAX_EVENTS = 100_000
LABELS = ("bundled", *DEFAULT_SIZES)


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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
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
    parser.add_argument(
        "--issue28",
        action="store_true",
        help="only issue 28's targets: the 1M and 10M stories and the ACLED import, one run",
    )
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def worker(kind: str, rest: list[str]) -> None:
    """Measure one figure set in this (child) process, print it as JSON and end the process."""
    if kind == "ours":
        result = worker_ours(Path(rest[0]), int(rest[1]))
    elif kind == "naive":
        result = worker_naive(Path(rest[0]), int(rest[1]), rest[2] if len(rest) > 2 else "")
    else:
        result = worker_apptest(rest[0], int(rest[1]))
    print(json.dumps(result), flush=True)
    # AppTest leaves a timed-out script thread running: do not wait for it.
    os._exit(0)


def story_rows(label: str, repeats: int, page: Path, with_app: bool) -> dict:
    """One story's pipeline figures, Dateline's and the naive approach's (and the whole app's)."""
    path = BUNDLED if label == "bundled" else ensure_story(SIZES[label])
    print(f"{label}: Dateline …", file=sys.stderr, flush=True)
    ours = run_worker(["ours", str(path), str(repeats)], timeout=20 * LIMIT_S)
    print(f"{label}: naive …", file=sys.stderr, flush=True)
    naive = run_worker(["naive", str(path), str(repeats), str(page)], timeout=6 * LIMIT_S)
    row = {"ours": ours, "naive": naive}
    if with_app:
        print(f"{label}: whole app under AppTest …", file=sys.stderr, flush=True)
        story_id = "qalamoun-2017" if label == "bundled" else f"synthetic-{SIZES[label]}"
        row["apptest"] = run_worker(
            ["apptest", story_id, str(max(2, repeats // 2))], timeout=5 * LIMIT_S
        )
    return row


def pipeline_rows(labels: list[str], repeats: int, with_app: bool, browser: bool) -> dict:
    """The pipeline tables' figures per story, the browser's up to BROWSER_MAX_EVENTS."""
    rows: dict[str, dict] = {}
    naive_pages: dict[str, tuple[Path, int]] = {}
    with tempfile.TemporaryDirectory() as pages_dir:
        for label in labels:
            page = Path(pages_dir) / f"{label}.html"
            rows[label] = story_rows(label, repeats, page, with_app)
            if page.exists():
                naive_pages[label] = (page, rows[label]["naive"]["events_all"])
        if browser:
            small = [lb for lb in labels if lb == "bundled" or SIZES[lb] <= BROWSER_MAX_EVENTS]
            print("browser …", file=sys.stderr, flush=True)
            for label, fig in browser_figures(small, repeats, naive_pages).items():
                rows[label]["browser"] = fig
    return rows


def issue28(argv: list[str] | None) -> int:
    """Issue 28's targets from one run: the big stories beside the floor app, then an ACLED
    export of 100k rows imported and opened. Each script's own part is written too."""
    from bench import acled_import, big_stories

    sizes = ["1m", "10m"]
    when = time.strftime("%Y-%m-%d %H:%M")
    figs = big_stories.measure(sizes, 3)
    put_part("bench/big_stories.py", big_stories.report(figs, sizes))
    acled = acled_import.measure()
    put_part("bench/acled_import.py", acled_import.report(acled))
    command = "python bench/run.py" + "".join(f" {a}" for a in (argv or sys.argv[1:]))
    text = "\n".join(
        [
            f"## Issue 28 targets (`{command}`, {when})",
            "",
            f"Machine: {machine()}; one run, every figure from it (tables below: "
            "bench/big_stories.py and bench/acled_import.py parts).",
            "",
            big_stories.targets_table(figs, acled),
        ]
    )
    print(text)
    put_part("bench/run.py --issue28", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report_only:
        if not LAST_RUN.exists():
            print(f"no figures at {LAST_RUN}: run bench/run.py first", file=sys.stderr)
            return 2
        last = json.loads(LAST_RUN.read_text())
        text = report(last["rows"], last["meta"], last.get("targets"))
        put_part("bench/run.py", text, first=True)
        return 0
    if args.worker:
        worker(args.worker[0], args.worker[1:])

    if args.issue28:
        return issue28(argv)
    repeats = QUICK_REPEATS if args.quick else REPEATS
    labels = [s.strip() for s in args.sizes.split(",") if s.strip()]
    rows: dict[str, dict] = {}
    if args.pipeline:
        rows = pipeline_rows(labels, repeats, not args.no_app, not args.no_browser)
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
    put_part("bench/run.py", text, first=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
