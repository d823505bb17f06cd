"""Precision and recall of the article extractor against hand-made answer keys.

``python bench/extract_quality.py [--cache-dir DIR]`` runs ``geo.extract`` on every
``tests/fixtures/articles/*.key.json`` article and prints a Markdown table:

- places: a found place is right when it lies within 10 km of a key place, or within the key's
  radius for a region; each key place is matched at most once (closest pairs first);
- dates: distinct (first day, last day) values found, compared with the key's;
- figures: recall of the key's (value, what) pairs.

It also times ``extract`` on a 1,000-word text and, when ``../shared/reference/article.txt``
exists beside the repository, lists what it finds there with the bundled story's places.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geo.extract import Extraction, extract, load_story_places  # noqa: E402
from geo.geocoders.gazetteer import Gazetteer  # noqa: E402
from geo.geometry import distance_km  # noqa: E402
from geo.names import normalize  # noqa: E402

ARTICLES = ROOT / "tests" / "fixtures" / "articles"
FIXTURE_PLACES = [ROOT / "tests" / "fixtures" / "places.csv",
                  ROOT / "tests" / "fixtures" / "extract_places.csv"]  # fmt: skip
REFERENCE = ROOT.parent / "shared" / "reference" / "article.txt"
STORY = ROOT / "data" / "stories" / "qalamoun-2017"
POINT_KM = 10.0


@dataclass
class Score:
    """Counts for one article."""

    name: str
    place_found: int = 0
    place_right: int = 0
    place_key: int = 0
    place_hit: int = 0
    date_found: int = 0
    date_right: int = 0
    date_key: int = 0
    figure_key: int = 0
    figure_hit: int = 0
    traps: int = 0
    ms: float = 0.0
    misses: str = ""


def ratio(a: int, b: int) -> str:
    """a/b to two decimals, or a dash when b is 0."""
    return f"{a / b:.2f}" if b else "–"


def fixture_gazetteer(cache_dir: Path | None) -> Gazetteer:
    """GeoNames plus the test fixtures' story places (never the bundled story)."""
    frames = [pd.read_csv(p, dtype=str, keep_default_na=False) for p in FIXTURE_PLACES]
    return Gazetteer.load(pd.concat(frames, ignore_index=True), cache_dir=cache_dir)


def article_path(key_path: Path) -> Path:
    """The article beside an answer key (.txt, .md or .html)."""
    stem = key_path.name.removesuffix(".key.json")
    for suffix in (".txt", ".md", ".html"):
        candidate = key_path.with_name(stem + suffix)
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"no article for {key_path}")


def _same_name(place, key_name: str) -> bool:
    """Whether the found place and the key place share a word of their names."""
    found = set(normalize(f"{place.name} {place.text}").split())
    return bool(found & set(normalize(key_name).split()))


def match_places(result: Extraction, key: dict) -> tuple[int, int, int, int, list[str]]:
    """(found, right, key places, key places hit, names of missed key places)."""
    found = list({p.place_id: p for p in result.places}.values())
    wanted = key["places"]
    pairs = []
    for i, p in enumerate(found):
        for j, k in enumerate(wanted):
            km = distance_km((p.lat, p.lon), (k["lat"], k["lon"]))
            limit = max(POINT_KM, k.get("radius_m", 0) / 1000)
            if km <= limit:
                # Same name first, so a big region's circle does not swallow another's place.
                pairs.append((not _same_name(p, k["name"]), km / limit, i, j))
    used_found: set[int] = set()
    used_key: set[int] = set()
    for _, _, i, j in sorted(pairs):
        if i not in used_found and j not in used_key:
            used_found.add(i)
            used_key.add(j)
    missed = [k["name"] for j, k in enumerate(wanted) if j not in used_key]
    extra = [p.name for i, p in enumerate(found) if i not in used_found]
    notes = [f"missed {m}" for m in missed] + [f"extra {e}" for e in extra]
    return len(found), len(used_found), len(wanted), len(used_key), notes


def match_dates(result: Extraction, key: dict) -> tuple[int, int, int, list[str]]:
    """(distinct found, right, key dates, notes) on (first, last) day values."""
    found = {(d.date, d.end_date) for d in result.dates}
    wanted = {}
    for d in key["dates"]:
        first = date.fromisoformat(d["date"])
        wanted[(first, date.fromisoformat(d.get("end_date", d["date"])))] = d["text"]
    right = found & set(wanted)
    notes = [f"missed date '{t}'" for v, t in wanted.items() if v not in found]
    notes += [f"extra date {a}..{b}" for a, b in sorted(found - set(wanted))]
    return len(found), len(right), len(wanted), notes


def match_figures(result: Extraction, key: dict) -> tuple[int, int]:
    """(key figures, key figures found with the same value and what)."""
    wanted = key.get("figures", [])
    hit = 0
    for k in wanted:
        for f in result.figures:
            same = f.value == k["value"] and f.what == k["what"]
            flags = all(getattr(f, flag) == k[flag] for flag in ("killed", "wounded") if flag in k)
            if same and flags:
                hit += 1
                break
    return len(wanted), hit


def count_traps(result: Extraction, key: dict) -> int:
    """Found places whose text is one of the key's not_places."""
    traps = {normalize(t) for t in key.get("not_places", [])}
    return sum(1 for p in result.places if normalize(p.text) in traps)


def score_article(key_path: Path, gazetteer: Gazetteer) -> Score:
    """Run the extractor on one fixture article and compare with its key."""
    key = json.loads(key_path.read_text("utf-8"))
    text = article_path(key_path).read_text("utf-8")
    published = date.fromisoformat(key["published"])
    start = time.perf_counter()
    result = extract(text, published, gazetteer=gazetteer, fmt=key.get("format"))
    ms = (time.perf_counter() - start) * 1000
    s = Score(key_path.name.removesuffix(".key.json"), ms=ms)
    s.place_found, s.place_right, s.place_key, s.place_hit, pnotes = match_places(result, key)
    s.date_found, s.date_right, s.date_key, dnotes = match_dates(result, key)
    s.figure_key, s.figure_hit = match_figures(result, key)
    s.traps = count_traps(result, key)
    s.misses = "; ".join(pnotes + dnotes)
    return s


def table(scores: list[Score]) -> str:
    """Markdown table: per article and overall (micro-averaged)."""
    total = Score("**overall**")
    for s in scores:
        for attr in ("place_found", "place_right", "place_key", "place_hit", "date_found",
                     "date_right", "date_key", "figure_key", "figure_hit", "traps"):  # fmt: skip
            setattr(total, attr, getattr(total, attr) + getattr(s, attr))
        total.ms += s.ms
    lines = [
        "| article | places P | places R | dates P | dates R | figures R | traps hit | ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in [*scores, total]:
        lines.append(
            f"| {s.name} | {ratio(s.place_right, s.place_found)} "
            f"({s.place_right}/{s.place_found}) | {ratio(s.place_hit, s.place_key)} "
            f"({s.place_hit}/{s.place_key}) | {ratio(s.date_right, s.date_found)} "
            f"({s.date_right}/{s.date_found}) | {ratio(s.date_right, s.date_key)} "
            f"({s.date_right}/{s.date_key}) | {ratio(s.figure_hit, s.figure_key)} "
            f"({s.figure_hit}/{s.figure_key}) | {s.traps} | {s.ms:.0f} |"
        )
    return "\n".join(lines)


def thousand_words(paths: list[Path]) -> str:
    """A 1,000-word text made of the fixture articles' plain text, repeated as needed."""
    from geo.extract.textclean import to_plain_text

    words: list[str] = []
    while len(words) < 1000:
        for p in paths:
            words.extend(to_plain_text(p.read_text("utf-8")).split(" "))
    return " ".join(words[:1000])


def time_thousand(paths: list[Path], gazetteer: Gazetteer, runs: int = 7) -> float:
    """Median seconds of ``extract`` on a 1,000-word article, index already built."""
    text = thousand_words(paths)
    extract(text, date(2017, 8, 28), gazetteer=gazetteer)  # warm: lazy tables, regexes
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        extract(text, date(2017, 8, 28), gazetteer=gazetteer)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def reference_report(cache_dir: Path | None) -> str:
    """What the extractor finds in the reference article (names only, never its sentences)."""
    gazetteer = Gazetteer.load(load_story_places(STORY), cache_dir=cache_dir)
    result = extract(REFERENCE.read_text("utf-8"), date(2017, 8, 28), gazetteer=gazetteer)
    places = sorted({f"{p.name} ({p.via})" for p in result.places})
    dates = sorted({f"{d.text} = {d.date}" + (f"..{d.end_date}" if d.end_date != d.date else "")
                    for d in result.dates})  # fmt: skip
    figures = [f"{f.value:g} {f.what}" + (" killed" if f.killed else "") for f in result.figures]
    events = [f"{e.date} {e.category} @ {e.place.name}" for e in result.events]
    return "\n".join([
        "Reference article (bundled story's places):",
        f"- places: {', '.join(places)}",
        f"- dates: {'; '.join(dates)}",
        f"- figures: {', '.join(figures)}",
        f"- draft events: {'; '.join(events)}",
    ])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Print the quality table, the timing and (when present) the reference article's findings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", type=Path, help="GeoNames index folder")
    parser.add_argument("--verbose", action="store_true", help="list misses per article")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    gazetteer = fixture_gazetteer(args.cache_dir)
    load_s = time.perf_counter() - start
    keys = sorted(ARTICLES.glob("*.key.json"))
    scores = [score_article(k, gazetteer) for k in keys]
    print(table(scores))
    print()
    seconds = time_thousand([article_path(k) for k in keys], gazetteer)
    print(f"Gazetteer load: {load_s:.2f} s; extract on 1,000 words: {seconds * 1000:.0f} ms "
          "(median of 7, index built)")  # fmt: skip
    if args.verbose:
        print()
        for s in scores:
            print(f"- {s.name}: {s.misses or 'all found'}")
    if REFERENCE.exists():
        print()
        print(reference_report(args.cache_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
