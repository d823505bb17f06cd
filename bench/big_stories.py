"""Big stories on DuckDB (issue 28): the targets' own browser method on generated stories.

``python bench/big_stories.py 1m 3m`` generates what is missing (``bench/generate.py``), checks
and caches each story in a child (timed, its peak memory read), then measures with
``bench/targets.measure`` beside the floor app in one run: cold open (cache built), warm open,
slider → page idle (and its ratio to the floor's in the same run), the server's RSS. The figures
go to bench/results.md, in this script's own part.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generate import SIZES  # noqa: E402
from bench.report import machine  # noqa: E402
from bench.results import put_part  # noqa: E402
from bench.targets import _mb, _ms, _ratio, build_caches, measure  # noqa: E402


def report(figs: dict, labels: list[str]) -> str:
    """The run's figures as a table (only what was measured)."""
    pages, floor = figs["pages"], figs["pages"].get("floor", {})
    lines = [
        "## Big stories on DuckDB (bench/big_stories.py" + ("" if floor else " --build-only") + ")",
        "",
        f"Machine: {machine()}; one run, every figure from it.",
        "",
        "| story | check + cache (child) | child peak RSS | cold open | warm open "
        "| slider → idle | vs floor | fatalities ≥ 10 → idle | server RSS (peak) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label in labels:
        fig = pages.get(label, {})
        r = _ratio(fig.get("idle"), floor.get("idle"))
        mem = fig.get("memory", {})
        rss = f"{_mb(mem.get('rss_mb'))} ({_mb(mem.get('peak_mb'))})" if mem else "not measured"
        lines.append(
            f"| {label} ({SIZES[label]:,} events) | {_ms(figs['cache_build_s'].get(label))} "
            f"| {_mb(figs['cache_build_peak_mb'].get(label))} | {_ms(fig.get('cold_open'))} "
            f"| {_ms(fig.get('open_median'))} | {_ms(fig.get('idle'))} "
            f"| {f'{r:.2f}×' if r else 'not measured'} "
            f"| {_ms(fig.get('filter'))} | {rss} |"
        )
    if not floor:
        return "\n".join(lines)
    lines.append(
        f"\nFloor app in the same run: slider → idle {_ms(floor.get('idle'))}, cold open "
        f"{_ms(floor.get('cold_open'))}, warm open {_ms(floor.get('open_median'))}, "
        f"server RSS {_mb(floor.get('memory', {}).get('rss_mb'))}."
    )
    return "\n".join(lines)


def _row(what: str, value: float | None, limit: float, shown: str) -> str:
    verdict = "not measured" if value is None else ("met" if value <= limit else "**missed**")
    return f"| {what} | {shown} | {verdict} |"


def _memory_row(label: str, page: dict, limit_mb: float, limit: str) -> str:
    """The server's memory against ``limit_mb``, judged on its peak (stricter than now)."""
    mem = page.get("memory", {})
    shown = f"{_mb(mem.get('rss_mb'))} (peak {_mb(mem.get('peak_mb'))})"
    return _row(f"{label}: server RSS ≤ {limit}", mem.get("peak_mb"), limit_mb, shown)


def targets_table(figs: dict, acled: dict | None) -> str:
    """Issue 28's targets against this run's figures, met or missed."""
    one, ten = (figs["pages"].get(k, {}) for k in ("1m", "10m"))
    build, peak = figs["cache_build_s"].get("10m"), figs["cache_build_peak_mb"].get("10m")
    idle, cold, filt = ten.get("idle"), ten.get("cold_open"), ten.get("filter")
    lines = [
        "| target | this run | |",
        "|---|---|---|",
        _row("1M: slider → page idle ≤ 300 ms", one.get("idle"), 0.3, _ms(one.get("idle"))),
        _memory_row("1M", one, 400, "400 MB"),
        _row("10M: slider → page idle ≤ 500 ms", idle, 0.5, _ms(idle)),
        _memory_row("10M", ten, 1024, "1 GB"),
        _row("10M: cold open (cached) ≤ 3 s", cold, 3, _ms(cold)),
        _row("10M: first import and check ≤ 3 min", build, 180, _ms(build)),
        _row("10M: its peak memory ≤ 4 GB", peak, 4096, _mb(peak)),
        _row("fatalities ≥ 10 at 10M → page idle ≤ 500 ms", filt, 0.5, _ms(filt)),
    ]
    if acled is not None:
        total = acled["total"]
        lines.append(
            _row("ACLED export of 100k rows → story opened ≤ 60 s", total, 60, f"{total:.1f} s")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="+", choices=[s for s in SIZES if SIZES[s] >= 100_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--build-only", action="store_true", help="only the check-and-cache child (no browser)"
    )
    args = parser.parse_args(argv)
    owner = "bench/big_stories.py"
    if args.build_only:
        figs = {"pages": {}, "cache_build_peak_mb": {}}
        with tempfile.TemporaryDirectory() as tmp:
            builds = build_caches(Path(tmp), list(args.sizes), figs["cache_build_peak_mb"])
        figs["cache_build_s"] = builds
        owner += " --build-only"
    else:
        figs = measure(list(args.sizes), args.repeats)
    text = report(figs, list(args.sizes))
    print(text)
    put_part(owner, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
