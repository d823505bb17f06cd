"""Issue 25's speed goal: a 300-word report drafts in ≤ 5 s on a fresh server and ≤ 1 s warm.

Cold: in a new Python process, what the New story page's first "Find" does (import the
extractor, load the gazetteer from the place index ``python -m geo prepare`` built at set-up,
read the report, make the two tables and check the draft through the story loader), timed after
what ``serve.py`` loads while a new server starts ("fresh server") and from nothing ("fresh
process"), interleaved with a floor process that imports pandas and Streamlit.
Warm: the same work again in one process, interleaved with a floor that writes and re-reads a
300-row table through pandas. Medians, with the ratio to the floor, because this machine is
shared and noisy.

    python bench/draft_speed.py [ARTICLE] [--rounds N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ARTICLE = ROOT / "tests" / "fixtures" / "articles" / "walk2_goma_lava.txt"
PUBLISHED = "2021-05-23"
DRAFT = """
import sys
import time
from datetime import date
if sys.argv[3] == "server":  # what serve.py loads while a new server starts
    import serve
    serve.preload()
start = time.perf_counter()
from pathlib import Path
from geo.extract import extract
from geo.extract.draft import DraftMeta, draft_events, draft_places, preview, story_from_draft
from geo.geocoders.gazetteer import Gazetteer
from geo.story.load import load_story
from geo.story.library import BUNDLED, DEFAULT_STORY
gaz = Gazetteer.load(load_story(BUNDLED / DEFAULT_STORY).places)  # as the page does
text = Path(sys.argv[1]).read_text()
day = date.fromisoformat(sys.argv[2])
ex = extract(text, day, gazetteer=gaz)
places = draft_places(ex, gaz)
events = draft_events(ex, places)
_, files, _ = story_from_draft(DraftMeta("Bench", "", day, "Wire"), places, events)
preview(files)
print(time.perf_counter() - start)
"""
FLOOR = """
import time
start = time.perf_counter()
import pandas, streamlit
print(time.perf_counter() - start)
"""


def _run(code: str, *args: str) -> float:
    """Seconds the process reports for its timed part."""
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, cwd=ROOT, capture_output=True, text=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def cold(article: Path, rounds: int, how: str) -> tuple[list[float], list[float]]:
    """Seconds of the first draft in a new process (``how``: "process", from nothing, or
    "server", after what a new server loads while it starts), and of the floor, interleaved."""
    drafts, floors = [], []
    for _ in range(rounds):
        drafts.append(_run(DRAFT, str(article), PUBLISHED, how))
        floors.append(_run(FLOOR))
    return drafts, floors


def warm(article: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Seconds of a draft in a process that has drafted before, and of the warm floor."""
    from datetime import date

    import pandas as pd

    from geo.extract import extract
    from geo.extract.draft import (
        DraftMeta,
        draft_events,
        draft_places,
        preview,
        story_from_draft,
    )
    from geo.geocoders.gazetteer import Gazetteer

    gaz = Gazetteer.load()
    text = article.read_text()
    day = date.fromisoformat(PUBLISHED)
    table = pd.DataFrame({"id": [f"p{i}" for i in range(300)], "lat": 1.5, "lon": 2.5})

    def draft() -> None:
        ex = extract(text, day, gazetteer=gaz)
        places = draft_places(ex, gaz)
        events = draft_events(ex, places)
        _, files, _ = story_from_draft(DraftMeta("Bench", "", day, "Wire"), places, events)
        preview(files)

    def floor() -> None:
        pd.read_csv(io.StringIO(table.to_csv(index=False)))

    draft()  # the first one is the cold case above
    drafts, floors = [], []
    for _ in range(rounds):
        for fn, out in ((draft, drafts), (floor, floors)):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return drafts, floors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("article", nargs="?", type=Path, default=ARTICLE)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    words = len(args.article.read_text().split())
    print(f"{args.article.name}: {words} words, {args.rounds} cold rounds")
    for how in ("server", "process"):
        c_draft, c_floor = cold(args.article, args.rounds, how)
        cd, cf = statistics.median(c_draft), statistics.median(c_floor)
        print(
            f"first draft on a fresh {how}: {cd:.2f} s (floor: importing pandas and streamlit "
            f"{cf:.2f} s, ratio {cd / cf:.1f}) · target ≤ 5 s"
        )
    w_draft, w_floor = warm(args.article, args.rounds * 4)
    wd, wf = statistics.median(w_draft), statistics.median(w_floor)
    print(f"warm draft {wd * 1000:.0f} ms (floor {wf * 1000:.1f} ms, ratio {wd / wf:.0f}) · ≤ 1 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
