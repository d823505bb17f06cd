"""Score draft extraction on the development set of real reports in ``bench/articles/``.

``python bench/articles.py [--split tune|holdout|all] [--misses] [--cache-dir DIR]`` runs
``geo.extract`` on every ``bench/articles/ID.txt`` with its key's publication date, the same call
as ``python -m geo extract ID.txt --date D``, and prints issue 24's table for the tuned part, the
held-aside part and both. The rules (``bench/articles/README.md`` describes the keys):

- a found place is *placed* when it has a point; places left unplaced for the editor are counted
  apart and are neither right nor wrong;
- a placed place *matches* a key place when it lies within the key's tolerance and their names
  share a word (type words such as "province" or "river" aside);
- place recall: required key places matched; place precision: distinct placed names that match
  some key place, over those that match one or are not keyed as actors;
- wrong spot: a placed name that is a key place's name but lies beyond its tolerance;
- event recall: required key events matched by a draft event whose dates touch the key's window
  (one day of slack either side), whose place lies within the key place's tolerance and whose
  category is the key's or one of its ``also``; the same without the category in brackets;
- event precision: draft events that are the first to match a key event (so one happening told
  twice costs one), over the draft events not matched only to an optional key event;
- figures: key figures (kind and value) found among the article's figures with that kind.

It also times warm extraction per 1,000 words over the whole set.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import tomllib
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geo.extract import extract  # noqa: E402
from geo.geocoders.gazetteer import Gazetteer  # noqa: E402
from geo.geometry import sphere_km  # noqa: E402
from geo.names import normalize  # noqa: E402

ARTICLES = ROOT / "bench" / "articles"
SLACK = timedelta(days=1)
# Words that name a kind of place, not the place: left out when names are compared.
_TYPE_WORDS = frozenset({
    "the", "of", "province", "governorate", "state", "region", "district", "county", "city",
    "town", "village", "river", "lake", "camp", "border", "area", "prefecture", "township",
    "municipality", "oblast", "valley", "mountains", "mountain", "desert", "island", "islands",
    "north", "south", "east", "west", "northern", "southern", "eastern", "western", "central",
    "northeastern", "northwestern", "southeastern", "southwestern",
})  # fmt: skip
TARGETS = {
    "place recall": ">= .90",
    "place precision": ">= .90",
    "places in the wrong spot": "<= 2",
    "event recall": ">= .80",
    "event precision": ">= .70",
    "figures found with their kind": ">= .80",
}


def words(name: str) -> frozenset[str]:
    """The words of a name that say which place it is."""
    return frozenset(w for w in normalize(name).split() if w not in _TYPE_WORDS)


def same_name(a: str, b: str) -> bool:
    """Two names that share a word, or that are the same once normalised (spaces aside:
    "Nay Pyi Taw" is "Naypyitaw")."""
    wa, wb = words(a), words(b)
    squeeze = normalize(a).replace(" ", "") == normalize(b).replace(" ", "")
    return squeeze or bool(wa & wb)


def found_names(p: dict) -> list[str]:
    """The names a found place goes by: the gazetteer's and the text's own spelling."""
    return [p["name"], *([p["text"]] if p.get("text") else [])]


@dataclass
class Tally:
    """Counts summed over articles."""

    articles: int = 0
    key_places: int = 0
    places_found: int = 0
    places_right: int = 0
    places_wrong: int = 0
    wrong_spot: int = 0
    unplaced: int = 0
    key_events: int = 0
    events_hit: int = 0
    events_hit_any_kind: int = 0
    events_drafted: int = 0
    events_right: int = 0
    events_neutral: int = 0
    # Drafted events at an unplaced name: never a match (no point), counted in event
    # precision as drafted, shown apart as what the editor is left to pin.
    events_unplaced: int = 0
    key_figures: int = 0
    figures_hit: int = 0
    words: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)

    def rows(self) -> dict[str, str]:
        """The issue's table for these counts."""

        def share(a: int, b: int) -> str:
            return f"{a / b:.2f} ({a}/{b})" if b else "-"

        return {
            "place recall": share(self.places_right_required, self.key_places),
            "place precision": share(self.places_right, self.places_right + self.places_wrong),
            "places in the wrong spot": str(self.wrong_spot),
            "event recall": share(self.events_hit, self.key_events)
            + f" [{share(self.events_hit_any_kind, self.key_events)} any kind]",
            "event precision": share(self.events_right, self.events_drafted - self.events_neutral),
            "figures found with their kind": share(self.figures_hit, self.key_figures),
            "unplaced names left for the editor": str(self.unplaced),
            "events at unplaced names (in event precision)": str(self.events_unplaced),
        }

    places_right_required: int = 0


def _key_dates(ev: dict) -> tuple[date, date]:
    first = date.fromisoformat(str(ev["date"]))
    last = date.fromisoformat(str(ev.get("date_to") or ev["date"]))
    return first, last


def _figure_kind(f: dict) -> str:
    kind = f.get("kind")
    if kind is not None:
        return str(kind)
    return "killed" if f.get("killed") else "injured" if f.get("wounded") else ""


def _close(lat: float | None, lon: float | None, kp: dict) -> bool:
    if lat is None or lon is None:
        return False
    return sphere_km((lat, lon), (kp["lat"], kp["lon"])) <= float(kp.get("tolerance_km", 10))


def _score_places(t: Tally, name: str, out: dict, kplaces: list[dict], by_name: dict) -> None:
    """Place recall and precision, wrong spots and unplaced names, for one report."""
    # Places: distinct names, the first placed mention of each.
    seen: dict[str, dict] = {}
    for p in out["places"]:
        if p.get("lat") is None:
            continue
        seen.setdefault(normalize(p["name"]), p)
    unplaced = {normalize(p["name"]) for p in out["places"] if p.get("lat") is None}
    t.unplaced = len(unplaced - set(seen))
    matched_keys: set[str] = set()
    for n, p in seen.items():
        hits = [kp for kp in kplaces if _close(p["lat"], p["lon"], kp)
                and any(same_name(n, kp["name"]) for n in found_names(p))]  # fmt: skip
        if hits:
            t.places_right += 1
            matched_keys.update(normalize(kp["name"]) for kp in hits)
            continue
        kp = next((by_name[normalize(x)] for x in found_names(p) if normalize(x) in by_name),
                  None)  # fmt: skip
        if kp is not None and kp.get("actor"):
            continue  # an actor named as a place: neither right nor wrong
        t.places_wrong += 1
        if kp is not None:
            t.wrong_spot += 1
            d = sphere_km((p["lat"], p["lon"]), (kp["lat"], kp["lon"]))
            t.misses.append(f"{name}: wrong spot {p['name']!r} {d:.0f} km off")
        else:
            t.misses.append(f"{name}: not a key place {p['name']!r} ({p.get('country')})")
    for kp in kplaces:
        if not kp.get("required", True):
            continue
        t.key_places += 1
        if normalize(kp["name"]) in matched_keys:
            t.places_right_required += 1
        else:
            why = "unplaced" if normalize(kp["name"]) in unplaced else "missed"
            t.misses.append(f"{name}: place {why} {kp['name']!r}")


def _fits(ev: dict, kev: dict, by_name: dict, kind: bool) -> bool:
    """Whether a draft event matches a key event: place, dates and (when ``kind``) category."""
    kp = by_name.get(normalize(kev["place"]))
    place = ev["place"]
    if kp is None or not _close(place.get("lat"), place.get("lon"), kp):
        return False
    first, last = _key_dates(kev)
    if date.fromisoformat(ev["end_date"]) < first - SLACK:
        return False
    if date.fromisoformat(ev["date"]) > last + SLACK:
        return False
    kinds = {kev["category"], *kev.get("also", [])}
    return not kind or ev["category"] in kinds


def _score_events(t: Tally, name: str, drafted: list[dict], kevents: list[dict], by_name) -> None:
    """Event recall and precision for one report."""
    t.events_drafted = len(drafted)
    t.events_unplaced = sum(ev["place"].get("lat") is None for ev in drafted)
    taken: set[int] = set()

    def fits(ev: dict, kev: dict, kind: bool) -> bool:
        return _fits(ev, kev, by_name, kind)

    for kev in kevents:
        req = kev.get("required", True)
        if req:
            t.key_events += 1
            if any(fits(ev, kev, False) for ev in drafted):
                t.events_hit_any_kind += 1
        hit = next((j for j, ev in enumerate(drafted) if j not in taken and fits(ev, kev, True)),
                   None)  # fmt: skip
        if hit is not None:
            taken.add(hit)
            if req:
                t.events_hit += 1
                t.events_right += 1
            else:
                t.events_neutral += 1
        elif req:
            other = next((ev for ev in drafted if fits(ev, kev, False)), None)
            why = f" - drafted as {other['category']}" if other else ""
            t.misses.append(f"{name}: event missed {kev['what']!r} ({kev['category']}){why}")
    for j, ev in enumerate(drafted):
        if j in taken:
            continue
        if any(fits(ev, kev, True) for kev in kevents if not kev.get("required", True)):
            t.events_neutral += 1
            continue
        t.misses.append(
            f"{name}: extra event {ev['date']} {ev['category']} at {ev['place']['name']!r}: "
            f"{ev['summary'][:70]!r}"
        )


def _score_figures(t: Tally, name: str, figures: list[dict], kevents: list[dict]) -> None:
    """Key figures found with their kind, for one report."""
    found = {(_figure_kind(f), float(v)) for f in figures
             for v in [f["value"], *f.get("disputed", [])]}  # fmt: skip
    for kev in kevents:
        for kind, values in (kev.get("figures") or {}).items():
            vals = values if isinstance(values, list) else [values]
            t.key_figures += 1
            if any((kind, float(v)) in found for v in vals):
                t.figures_hit += 1
            else:
                t.misses.append(f"{name}: figure missed {kind}={values}")


def score(stem: Path, gazetteer: Gazetteer) -> Tally:
    """Counts for one report."""
    key = tomllib.loads(stem.with_suffix(".toml").read_text("utf-8"))
    text = stem.with_suffix(".txt").read_text("utf-8")
    published = date.fromisoformat(str(key["published"]))
    start = time.perf_counter()
    out = extract(text, published, gazetteer=gazetteer).to_dict(include_text=False)
    t = Tally(articles=1, words=len(text.split()), seconds=time.perf_counter() - start)
    kplaces = key.get("places", [])
    by_name = {normalize(p["name"]): p for p in kplaces}
    kevents = key.get("events", [])
    _score_places(t, stem.name, out, kplaces, by_name)
    _score_events(t, stem.name, out["events"], kevents, by_name)
    _score_figures(t, stem.name, out["figures"], kevents)
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=["tune", "holdout", "all"], default="all")
    parser.add_argument("--misses", action="store_true", help="list what each report misses")
    parser.add_argument("--only", help="regular expression on report IDs")
    parser.add_argument("--cache-dir", type=Path)
    args = parser.parse_args(argv)
    gazetteer = Gazetteer.load(cache_dir=args.cache_dir)
    # Warm: the first call of each lazy table (word lists, actors, capitals, the qualified-only
    # division names).
    extract("Warm-up in Paris on Monday, two days ago, in Nineveh province.", date(2020, 1, 1),
            gazetteer=gazetteer)  # fmt: skip
    tallies: dict[str, Tally] = {"tune": Tally(), "holdout": Tally()}
    for key_path in sorted(ARTICLES.glob("*.toml")):
        split = tomllib.loads(key_path.read_text("utf-8")).get("split", "tune")
        if args.split != "all" and split != args.split:
            continue
        if args.only and not re.search(args.only, key_path.stem):
            continue
        t = score(key_path.with_suffix(""), gazetteer)
        tallies.setdefault(split, Tally()).add(t)
        if args.misses:
            print("\n".join(t.misses))
    both = Tally()
    for t in tallies.values():
        both.add(t)
    columns = [(s, t) for s, t in tallies.items() if t.articles] + [("all", both)]
    print()
    print("| | " + " | ".join(f"{s} ({t.articles} reports)" for s, t in columns)
          + " | target |")  # fmt: skip
    print("|---" * (len(columns) + 2) + "|")
    rows = [t.rows() for _, t in columns]
    for label in rows[0]:
        print(f"| {label} | " + " | ".join(r[label] for r in rows)
              + f" | {TARGETS.get(label, '')} |")  # fmt: skip
    ms = 1000 * both.seconds / max(both.words, 1) * 1000
    print(f"\nWarm extraction: {ms:.0f} ms per 1,000 words ({both.words} words).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
