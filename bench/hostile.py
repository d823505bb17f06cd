"""Hostile input, measured: zip and Parquet bombs, a million bad rows, 100 KB vs 1 MB articles.

``python bench/hostile.py`` runs each case in a child process and prints seconds and the child's
peak memory (VmHWM, imports included) as a Markdown table. The bombs are built in a temporary
folder first (the zip holds 1.1 GB of zeros in about a megabyte; the Parquet file 30 M rows in
kilobytes).
"""

from __future__ import annotations

import contextlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ARTICLE = ROOT / "tests" / "fixtures" / "articles" / "wire_arsal.txt"


def _reset_peak() -> None:
    # Linux keeps the parent's high-water mark across fork and exec; "5" clears it (4.0+).
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def case_zip(path: str) -> dict:
    from geo.story.storage import files_from_zip

    data = Path(path).read_bytes()
    started = time.perf_counter()
    try:
        files_from_zip(data)
        outcome = "accepted"
    except ValueError as exc:
        outcome = f"refused: {exc}"
    return {"seconds": time.perf_counter() - started, "outcome": outcome}


def case_parquet(path: str) -> dict:
    from geo.story.load import UPLOAD_LIMITS, StoryError
    from geo.story.storage import files_from_zip, save_story

    data = Path(path).read_bytes()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            save_story(Path(tmp), "bomb", files_from_zip(data), limits=UPLOAD_LIMITS)
            outcome = "accepted"
        except StoryError as exc:
            outcome = "refused: " + "; ".join(p.message for p in exc.problems)[:120]
    return {"seconds": time.perf_counter() - started, "outcome": outcome}


def case_rows(path: str) -> dict:
    from geo.story.load import StoryError, load_story

    started = time.perf_counter()
    try:
        load_story(path)
        return {"seconds": time.perf_counter() - started, "outcome": "loaded"}
    except StoryError as exc:
        seconds = time.perf_counter() - started
        return {
            "seconds": seconds,
            "outcome": f"{len(exc.problems)} problems kept, message {len(str(exc)):,} chars",
        }


def case_article(size: str) -> dict:
    from geo.extract import extract
    from geo.geocoders.gazetteer import Gazetteer
    from geo.story.load import load_story

    gazetteer = Gazetteer.load(load_story(ROOT / "data" / "stories" / "qalamoun-2017").places)
    base = ARTICLE.read_text(encoding="utf-8") + "\n\n"
    text = (base * (int(size) // len(base) + 1))[: int(size)]
    started = time.perf_counter()
    ex = extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "outcome": f"{len(ex.places)} places, {len(ex.events)} events"}


CASES = {"zip": case_zip, "parquet": case_parquet, "rows": case_rows, "article": case_article}


def _build(tmp: Path) -> list[tuple[str, str, str]]:
    from tests.helpers import copy_mini, lying_zip, parquet_bomb_zip

    (tmp / "zip-bomb.zip").write_bytes(lying_zip(1100 << 20, declared=1024))
    (tmp / "parquet-bomb.zip").write_bytes(parquet_bomb_zip(30_000_000))
    story = copy_mini(tmp)
    header = (story / "events.csv").read_text(encoding="utf-8").splitlines()[0]
    with open(story / "events.csv", "w", encoding="utf-8") as fh:
        bad = "BAD,notadate,,nowhere,dance,,,x,,,,,,,,,,nosource,,sure,\n"
        fh.write(header + "\n" + bad * 10**6)
    return [
        ("zip bomb (1.1 GB inside, declares 1 KB)", "zip", str(tmp / "zip-bomb.zip")),
        ("Parquet bomb (30 M rows) uploaded as a zip", "parquet", str(tmp / "parquet-bomb.zip")),
        ("events.csv with 1,000,000 bad rows", "rows", str(story)),
        ("article, 100 KB", "article", "100000"),
        ("article, 1 MB", "article", "1000000"),
    ]


def main() -> int:
    if len(sys.argv) == 3:  # child: one case, JSON on stdout
        _reset_peak()
        result = CASES[sys.argv[1]](sys.argv[2])
        result["peak_mb"] = _peak_mb()
        print(json.dumps(result))
        return 0
    rows = ["| case | seconds | peak memory | outcome |", "|---|---:|---:|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for label, case, arg in _build(Path(tmp)):
            out = subprocess.run(
                [sys.executable, __file__, case, arg], capture_output=True, text=True, check=True
            )
            r = json.loads(out.stdout.strip().splitlines()[-1])
            peak = f"{r['peak_mb']:.0f} MB"
            rows.append(f"| {label} | {r['seconds']:.2f} | {peak} | {r['outcome']} |")
            print(rows[-1], flush=True)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
