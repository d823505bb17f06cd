"""Hostile input, measured: zip and Parquet bombs, a million bad rows, 100 KB vs 1 MB articles.

``python bench/hostile.py`` runs each case in a child process and prints seconds and the child's
peak memory (VmHWM, imports included) as a Markdown table. The bombs are built in a temporary
folder first (the zip holds 1.1 GB of zeros in about a megabyte; the Parquet file 30 M rows in
kilobytes). ``stories``, ``articles`` or ``extract`` (the article rows alone) runs one part.
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


# Article texts by kind, repeated to the size asked: the wire story of the fixtures, place names
# in a list and in sentences, the same names in one sentence with no full stop, and names that
# hundreds of GeoNames places bear.
PLACE_NAMES = (
    "Baalbek, Arsal, Damascus, Beirut, Homs, Raqqa, Deir ez-Zor, Mosul, Aleppo, Idlib. "
    "Fighters moved from Arsal to Baalbek on Monday. Shelling hit Homs and Aleppo, near Idlib. "
    "The convoy left Damascus for Deir ez-Zor, Syria. Officials in Beirut said Raqqa was quiet. "
)
ARTICLE_UNITS = {
    "wire": lambda: ARTICLE.read_text(encoding="utf-8") + "\n\n",
    "places": lambda: PLACE_NAMES,
    "sentence": lambda: PLACE_NAMES.replace(". ", " "),
    "ambiguous": lambda: (
        "Santa Maria, Santa Cruz, San Pedro, San Antonio, San Juan, San Miguel, "
        "Santiago, San Jose, San Francisco, Santa Rosa, San Isidro, Buenavista, Saint Martin. "
    ),
}


def case_article(arg: str) -> dict:
    """``KIND:SIZE``: extraction with the New story page's gazetteer (GeoNames and the bundled
    story's places), then the page's draft tables."""
    from geo.extract import extract
    from geo.extract.draft import draft_events, draft_places
    from geo.geocoders.gazetteer import Gazetteer
    from geo.story.library import BUNDLED, DEFAULT_STORY
    from geo.story.load import load_story

    kind, size = arg.split(":")
    gazetteer = Gazetteer.load(load_story(BUNDLED / DEFAULT_STORY).places)
    unit = ARTICLE_UNITS[kind]()
    text = (unit * (int(size) // len(unit) + 1))[: int(size)]
    started = time.perf_counter()
    ex = extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    seconds = time.perf_counter() - started
    drafted = time.perf_counter()
    draft_events(ex, draft_places(ex))
    drafted = time.perf_counter() - drafted
    return {
        "seconds": seconds,
        "outcome": f"{len(ex.places):,} places, {len(ex.events):,} events; "
        f"draft tables {drafted:.2f} s more",
    }


def case_folder(path: str) -> dict:
    """A bad folder beside the bundled story: the picker's listing, the bad story's load and the
    bundled story's, as a page run would."""
    from geo.story.library import BUNDLED, find_stories
    from geo.story.load import StoryError, load_story

    started = time.perf_counter()
    found = find_stories(BUNDLED, Path(path).parent)
    entry = found[Path(path).name]
    try:
        load_story(entry.path)
        outcome = "loaded"
    except StoryError as exc:
        outcome = "refused: " + str(exc.problems[0])[:90]
    bundled = load_story(found["qalamoun-2017"].path)
    listed = f"listed as cannot be shown ({entry.problem})" if entry.problem else "listed"
    return {
        "seconds": time.perf_counter() - started,
        "outcome": f"{listed}; {outcome}; bundled story loads ({len(bundled.events)} events)",
    }


def case_story_zip(path: str) -> dict:
    from geo.story.load import UPLOAD_LIMITS, StoryError
    from geo.story.storage import files_from_zip, save_story, zip_story_id

    data = Path(path).read_bytes()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            files = files_from_zip(data)
            save_story(Path(tmp), zip_story_id(files, "x.zip"), files, limits=UPLOAD_LIMITS)
            outcome = "saved"
        except StoryError as exc:
            outcome = "refused: " + str(exc.problems[0])[:90]
        except ValueError as exc:
            outcome = f"refused: {exc}"
    return {"seconds": time.perf_counter() - started, "outcome": outcome}


def case_drawn(path: str) -> dict:
    """What a page run makes of a long story: the map's payload and the charts' tables."""
    from geo.map.payload import payload_json
    from geo.story.load import load_story
    from geo.story.timeline import chart_period, events_per_period, held_area_long

    started = time.perf_counter()
    story = load_story(path)
    text, _ = payload_json(story)
    period = chart_period(story.start, story.end)
    bars = events_per_period(story.events, story.start, story.end, period)
    area = held_area_long(story.fronts, story.start, story.end)
    return {
        "seconds": time.perf_counter() - started,
        "outcome": f"{len(story.events):,} events over {(story.end - story.start).days + 1:,} days:"
        f" payload {len(text) / 1e6:.2f} MB, {bars.size:,} bar cells by {period},"
        f" {len(area)} area rows",
    }


def case_link(query: str) -> dict:
    from urllib.parse import parse_qs

    from geo.story.urlstate import parse_map_view

    started = time.perf_counter()
    params = {k: v[0] for k, v in parse_qs(query).items()}
    view = parse_map_view(params.get("zoom"), params.get("center"))
    return {"seconds": time.perf_counter() - started, "outcome": f"map view {view}: default kept"}


CASES = {
    "zip": case_zip,
    "parquet": case_parquet,
    "rows": case_rows,
    "article": case_article,
    "folder": case_folder,
    "story-zip": case_story_zip,
    "drawn": case_drawn,
    "link": case_link,
}


def _story_cases(tmp: Path) -> list[tuple[str, str, str]]:
    """Issue 23's six ways one story broke every page, and the bounds that answer them."""
    from tests import helpers as h

    stories = tmp / "stories"
    stories.mkdir()
    zips = {
        "huge.zip": h.story_zip_with_toml(h.huge_array_toml(30_000_000), "huge"),
        "junk.zip": h.story_zip_with_toml('junk = "' + "x" * 400_000 + '"', "junk"),
        "deep.zip": h.story_zip_with_toml("n = " + "[" * 5000 + "]" * 5000, "deep"),
    }
    for name, data in zips.items():
        (tmp / name).write_bytes(data)
    kb = {name: len(data) // 1000 for name, data in zips.items()}
    return [
        ("1. story.toml nested 5,000 deep, in the stories folder", "folder",
         str(h.deep_toml_story(stories))),
        ("1. fronts.geojson nested 100,000 deep, in the stories folder", "folder",
         str(h.deep_fronts_story(stories))),
        (f"1. zip ({kb['deep.zip']} KB) of a story.toml nested 5,000 deep", "story-zip",
         str(tmp / "deep.zip")),
        (f"2. zip ({kb['huge.zip']} KB) of a story.toml with a 30-million-item array",
         "story-zip", str(tmp / "huge.zip")),
        (f"2. zip ({kb['junk.zip']} KB) of a story.toml with a 400 KB unknown key", "story-zip",
         str(tmp / "junk.zip")),
        ("3. span 1900-01-01 … 2099-12-31, in the stories folder", "folder",
         str(h.spanned_story(stories, "1900-01-01", "2099-12-31", "century"))),
        ("3. span 0001-01-01 … 9999-12-31, in the stories folder", "folder",
         str(h.spanned_story(stories, "0001-01-01", "9999-12-31", "forever"))),
        ("3. span of 20 years (the most allowed)", "drawn",
         str(h.spanned_story(stories, "1998-01-01", "2017-12-31", "twenty"))),
        ("4. 12,000 events over 20 years (was altair's MaxRowsError)", "drawn",
         str(h.many_days_story(stories))),
        ("3-4. a story at every bound (2,000 polygons, 300 convoy days, 4,000 events)", "drawn",
         str(h.story_at_its_bounds(stories))),
        ("5. link ?zoom=%C2%B2&center=34,36", "link", "zoom=%C2%B2&center=34,36"),
    ]  # fmt: skip


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
        *_article_rows(),
    ]


def _article_rows() -> list[tuple[str, str, str]]:
    return [
        ("article, 100 KB", "article", "wire:100000"),
        ("article, 1 MB", "article", "wire:1000000"),
        ("100 KB of repeated place names", "article", "places:100000"),
        ("1 MB of repeated place names", "article", "places:1000000"),
        ("1 MB of place names in one sentence", "article", "sentence:1000000"),
        ("1 MB of names hundreds of places bear", "article", "ambiguous:1000000"),
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
        only = sys.argv[1] if len(sys.argv) == 2 else ""  # "stories" or "articles": a part
        if only == "extract":  # the article rows alone
            cases = _article_rows()
        else:
            cases = [] if only == "stories" else _build(Path(tmp))
            cases += [] if only == "articles" else _story_cases(Path(tmp))
        for label, case, arg in cases:
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
