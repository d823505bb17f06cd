"""An analyst's ACLED export becomes a story (issue 28): 100,000 rows, export → story opened.

``python bench/acled_import.py`` writes an invented export in ACLED's 31 columns (fixed seed,
no row of the real dataset) under ``bench/data/``, then times what an analyst does: ``python -m
geo import acled FILE STORY_DIR`` (a child; its peak memory read), then a fresh server's first
page of that story in Chromium until the map has drawn it (the story is checked and cached on
that first open). The figures go to bench/results.md, in this script's own part.
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generate import DATA, _places  # noqa: E402
from bench.report import machine  # noqa: E402
from bench.results import put_part  # noqa: E402
from geo.atomic import atomic_write_text  # noqa: E402
from geo.story.imports import acled  # noqa: E402

SEED = 28
# Invented places: this many locations scattered around the generator's anchor towns.
LOCATIONS = 3_000
_COUNTRIES = {
    "SY": (760, "Syria"),
    "LB": (422, "Lebanon"),
    "IQ": (368, "Iraq"),
    "JO": (400, "Jordan"),
}


def _locations(rng: np.random.Generator) -> list[tuple[str, str, float, float, int]]:
    """(name, country code, lat, lon, geo_precision) of each invented location: the benchmark
    generator's places, on land in the country they are labelled with (the importer checks it)."""
    places = _places(rng, LOCATIONS)
    places = places[places["country"].isin(list(_COUNTRIES))]
    gp = rng.choice([1, 1, 1, 2, 3], size=len(places))
    return [
        (p.name, p.country, float(p.lat), float(p.lon), int(g))
        for p, g in zip(places.itertuples(), gp, strict=True)
    ]


def write_export(path: Path, rows: int, seed: int = SEED) -> Path:
    """An ACLED-shaped CSV of ``rows`` invented events in 2023, written atomically."""
    rng = np.random.default_rng(seed)
    places = _locations(rng)
    types = list(acled.SUB_EVENTS)
    where = rng.integers(0, len(places), rows)
    what = rng.integers(0, len(types), rows)
    days = np.sort(rng.integers(0, 365, rows))
    deaths = np.where(rng.random(rows) < 0.6, 0, rng.geometric(0.2, rows))
    text = _Lines()
    out = csv.writer(text, lineterminator="\n")
    out.writerow(acled.COLUMNS)
    start = np.datetime64("2023-01-01")
    for n in range(rows):
        name, code, lat, lon, gp = places[where[n]]
        etype, sub = types[what[n]]
        iso, country = _COUNTRIES[code]
        day = str(start + days[n])
        cells = {
            "event_id_cnty": f"{code}X{n + 1:07d}",
            "event_date": day,
            "year": day[:4],
            "time_precision": 1 + n % 7 // 5,
            "disorder_type": "Political violence",
            "event_type": etype,
            "sub_event_type": sub,
            "actor1": ("Invented Army", "Invented Militia", "Invented Protesters")[n % 3],
            "assoc_actor_1": "",
            "inter1": "State forces",
            "actor2": "Invented Rebels" if n % 2 else "",
            "assoc_actor_2": "",
            "inter2": "",
            "interaction": "",
            "civilian_targeting": "",
            "iso": iso,
            "region": "Middle East",
            "country": country,
            "admin1": f"{name.split(' area ')[0]} Governorate",
            "admin2": "",
            "admin3": "",
            "location": name,
            "latitude": f"{lat:.4f}",
            "longitude": f"{lon:.4f}",
            "geo_precision": gp,
            "source": "Invented Wire",
            "source_scale": "National",
            "notes": f"Invented: {sub.lower()} reported near {name} (row {n + 1}).",
            "fatalities": int(deaths[n]),
            "tags": "",
            "timestamp": 1700000000,
        }
        out.writerow([cells[c] for c in acled.COLUMNS])
    atomic_write_text(path, "".join(text.parts))
    return path


class _Lines:
    """A csv writer's target that keeps its lines (a StringIO grows by copying)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)


def _import(export: Path, target: Path) -> tuple[float, float]:
    """Seconds and peak MB of ``python -m geo import acled`` into ``target``."""
    code = (
        "import resource, sys; from geo.__main__ import main; "
        f"rc = main(['import', 'acled', {str(export)!r}, {str(target)!r}, "
        "'--title', 'Invented ACLED export (100k)']); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)"
    )
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if done.returncode:
        raise SystemExit(f"import failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return took, int(done.stdout.split()[-1]) / 1024


def _open(stories: Path, story_id: str, tmp: Path) -> tuple[float, float]:
    """(seconds from navigation to the map drawn, in page time; wall seconds of the same) for a
    fresh server's first page of the story."""
    from playwright.sync_api import sync_playwright

    from bench.targets import Page
    from tests.e2e.appserver import CHROMIUM_ARGS, chromium_path, start_server, stop_server

    env = {"DATELINE_STORIES_DIR": str(stories), "DATELINE_CACHE_DIR": str(tmp / "cache")}
    server = start_server(tmp, env)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            t0 = time.perf_counter()
            page = Page(browser, server, f"?story={story_id}")
            wall = time.perf_counter() - t0
            opened = page.opened
            page.close()
            browser.close()
    finally:
        stop_server(server)
    return opened, wall


def measure(rows: int = 100_000) -> dict:
    """The import's and the first page's figures for an invented export of ``rows`` rows."""
    export = DATA / f"acled-{rows}.csv"
    if not export.exists():
        write_export(export, rows)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        story_id = f"acled-{rows}"
        import_s, import_mb = _import(export, tmp / "stories" / story_id)
        opened, wall = _open(tmp / "stories", story_id, tmp)
    return {
        "rows": rows,
        "size_mb": export.stat().st_size / 2**20,
        "import_s": import_s,
        "import_mb": import_mb,
        "opened": opened,
        "wall": wall,
        "total": import_s + wall,
    }


def report(figs: dict) -> str:
    """The run's figures as a table."""
    return "\n".join(
        [
            "## ACLED export → story opened (bench/acled_import.py)",
            "",
            f"Machine: {machine()}; one run. An invented export of {figs['rows']:,} rows in "
            f"ACLED's 31 columns ({figs['size_mb']:.0f} MB).",
            "",
            "| step | time | peak memory |",
            "|---|---|---|",
            f"| `python -m geo import acled` (child) | {figs['import_s']:.1f} s "
            f"| {figs['import_mb']:,.0f} MB |",
            f"| first page of the story on a fresh server, until the map is drawn "
            f"| {figs['wall']:.1f} s (navigation → drawn {figs['opened']:.1f} s) | — |",
            f"| **export → story opened** (target ≤ 60 s) | **{figs['total']:.1f} s** | |",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args(argv)
    text = report(measure(args.rows))
    print(text)
    put_part("bench/acled_import.py", text)
    # The parent's own peak, for the record of what the bench itself held.
    print(f"bench process peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
