"""Synthetic stories for the benchmark: N dated events over the Levant in 2017, fixed seed.

``python bench/generate.py`` writes 1k, 10k, 100k and 1M event stories under ``bench/data/``
(git-ignored); ``generate_story`` is what the benchmark and the browser test call.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import shapely

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_bytes, atomic_write_text  # noqa: E402
from geo.story.checks import load_outlines  # noqa: E402
from geo.story.load import CONFIDENCE, EVENT_COLUMNS  # noqa: E402
from geo.vocabulary import CATEGORY  # noqa: E402

# A synthetic war: the conflict and movement categories, no earthquakes or elections.
CATEGORIES = tuple(c.name for c in CATEGORY.values() if c.family in ("conflict", "movement"))

DATA = ROOT / "bench" / "data"
SEED = 6
SIZES = {
    "1k": 1_000,
    "10k": 10_000,
    "100k": 100_000,
    "1m": 1_000_000,
    # Only on request (python bench/generate.py 3m 10m): minutes to write, GBs to check.
    "3m": 3_000_000,
    "10m": 10_000_000,
}
DEFAULT_SIZES = ("1k", "10k", "100k", "1m")
# From this many events on, events go to Parquet: a 1M-row CSV takes longer to parse than to use.
PARQUET_FROM = 100_000
SPAN = (pd.Timestamp("2017-01-01"), pd.Timestamp("2017-12-31"))
# (name, country, lat, lon, weight): towns cluster around these, hot spots get more places.
ANCHORS = (
    ("Damascus", "SY", 33.51, 36.29, 8),
    ("Aleppo", "SY", 36.20, 37.16, 8),
    ("Homs", "SY", 34.73, 36.72, 5),
    ("Hama", "SY", 35.13, 36.75, 4),
    ("Idlib", "SY", 35.93, 36.63, 6),
    ("Raqqa", "SY", 35.95, 39.01, 5),
    ("Deir ez-Zor", "SY", 35.34, 40.14, 5),
    ("Palmyra", "SY", 34.56, 38.28, 2),
    ("Abu Kamal", "SY", 34.45, 40.92, 2),
    ("Qamishli", "SY", 37.05, 41.22, 2),
    ("Latakia", "SY", 35.52, 35.79, 2),
    ("Daraa", "SY", 32.62, 36.10, 4),
    ("Beirut", "LB", 33.89, 35.50, 3),
    ("Tripoli", "LB", 34.44, 35.83, 2),
    ("Baalbek", "LB", 34.01, 36.21, 2),
    ("Amman", "JO", 31.95, 35.93, 2),
    ("Irbid", "JO", 32.56, 35.85, 1),
    ("Jerusalem", "IL", 31.78, 35.22, 1),
)
# ACLED-like sub-event types, given in turn (no random draw: a seed gives the story it gave
# before these existed, plus this column); "" is an event without one.
SUB_TYPES = ("Armed clash", "Shelling/artillery/missile attack", "Air/drone strike", "")
ACTORS = (
    "Syrian Army",
    "Hezbollah",
    "ISIS",
    "Hayat Tahrir al-Sham",
    "SDF",
    "US-led coalition",
    "Russian Air Force",
    "Free Syrian Army",
    "Lebanese Army",
    "Civilians",
)


def n_places_for(n_events: int) -> int:
    """How many distinct places a story of ``n_events`` uses (about 20 events per place)."""
    return int(min(max(n_events // 20, 50), 20_000))


def _places(rng: np.random.Generator, n: int) -> pd.DataFrame:
    weights = np.array([a[4] for a in ANCHORS], dtype=float)
    anchor = rng.choice(len(ANCHORS), size=n, p=weights / weights.sum())
    home_lat = np.array([a[2] for a in ANCHORS])[anchor]
    home_lon = np.array([a[3] for a in ANCHORS])[anchor]
    lat = np.clip(home_lat + rng.normal(0, 0.25, n), 29.6, 37.3)
    lon = np.clip(home_lon + rng.normal(0, 0.25, n), 34.3, 42.3)
    names = np.array([a[0] for a in ANCHORS])[anchor]
    countries = np.array([a[1] for a in ANCHORS])[anchor]
    lat, lon, countries = _on_land(lat, lon, home_lat, home_lon, countries)
    ids = pd.Series(np.arange(1, n + 1)).map("p{:05d}".format)
    return pd.DataFrame(
        {
            "id": ids,
            "name": pd.Series(names) + " area " + pd.Series(np.arange(1, n + 1)).astype(str),
            "aliases": "",
            "kind": np.where(rng.random(n) < 0.3, "town", "village"),
            "country": countries,
            # The anchor town's governorate (a name, not checked against the basemap).
            "admin1": pd.Series(names) + " Governorate",
            "lat": lat,
            "lon": lon,
            # Town-level precision, as in conflict datasets: under the map's 2 km circle threshold.
            "radius_m": rng.integers(2, 19, n) * 100,
            "geonames_id": "",
            "coord_source": "synthetic (bench/generate.py)",
        }
    )


def _on_land(lat, lon, home_lat, home_lon, countries):
    """Rounded points labelled with the basemap country they fall in, as the validator checks.

    A point at sea (or in no country) is pulled halfway towards its anchor town until it lands;
    the random draws are untouched, so a seed still gives the same story.
    """
    outlines = load_outlines()
    lat, lon, countries = lat.copy(), lon.copy(), countries.astype(object)
    for _ in range(12):
        lat, lon = np.round(lat, 4), np.round(lon, 4)
        found = np.full(len(lat), "", dtype=object)
        for code, geom in (outlines.shapes if outlines else {}).items():
            inside = shapely.contains_xy(geom, lon, lat) & (found == "")
            found[inside] = code
        at_sea = found == ""
        countries = np.where(at_sea, countries, found)
        if not at_sea.any() or outlines is None:
            break
        lat = np.where(at_sea, (lat + home_lat) / 2, lat)
        lon = np.where(at_sea, (lon + home_lon) / 2, lon)
    return lat, lon, countries


def _events(rng: np.random.Generator, n: int, place_ids: pd.Series) -> pd.DataFrame:
    # Zipf-like: a few places see most of the fighting.
    weights = 1.0 / np.arange(1, len(place_ids) + 1) ** 0.8
    place = rng.choice(len(place_ids), size=n, p=weights / weights.sum())
    days = (SPAN[1] - SPAN[0]).days
    offset = np.sort(rng.integers(0, days + 1, n))
    start = SPAN[0].to_datetime64() + offset.astype("timedelta64[D]")
    spans = np.where(rng.random(n) < 0.05, rng.integers(1, 7, n), 0)
    stop = np.minimum(offset + spans, days)
    end = SPAN[0].to_datetime64() + stop.astype("timedelta64[D]")
    cat = np.array(CATEGORIES)[rng.integers(0, len(CATEGORIES), n)]
    a1 = np.array(ACTORS)[rng.integers(0, len(ACTORS), n)]
    a2 = np.array(ACTORS)[rng.integers(0, len(ACTORS), n)]
    actors = np.where(a1 == a2, a1, pd.Series(a1) + "|" + pd.Series(a2))
    killed = rng.integers(1, 40, n)
    pids = place_ids.to_numpy()[place]
    ids = pd.Series(np.arange(1, n + 1)).map("e{:07d}".format)
    start_s = np.datetime_as_string(start, unit="D")
    events = pd.DataFrame(
        {
            "id": ids,
            "date": start_s,
            "end_date": np.where(spans > 0, np.datetime_as_string(end, unit="D"), ""),
            "place_id": pids,
            "category": cat,
            "sub_type": np.array(SUB_TYPES)[np.arange(n) % len(SUB_TYPES)],
            "actors": actors,
            "summary": pd.Series(cat) + " reported near " + pd.Series(pids) + ".",
            "killed": np.where(rng.random(n) < 0.3, killed.astype(str), ""),
            "source": "synthetic",
            "confidence": np.array(CONFIDENCE)[rng.integers(0, len(CONFIDENCE), n)],
        }
    )
    for col in EVENT_COLUMNS:
        if col not in events:
            events[col] = ""
    return events[list(EVENT_COLUMNS)]


def _toml(story_id: str, n_events: int, first_place: str) -> str:
    return f"""id = "{story_id}"
title = "Synthetic benchmark: {n_events:,} events across the Levant in 2017"
summary = "Made by bench/generate.py (seed {SEED}) to measure the dashboard at scale. Not news."
span = {{ start = {SPAN[0]:%Y-%m-%d}, end = {SPAN[1]:%Y-%m-%d} }}
dateline = {{ place = "{first_place}", date = {SPAN[0]:%Y-%m-%d} }}

[[sources]]
id = "synthetic"
publication = "Synthetic data (bench/generate.py)"
"""


def generate_story(
    dest: Path, n_events: int, *, seed: int = SEED, story_id: str | None = None
) -> Path:
    """Write a story of ``n_events`` events into ``dest/<story_id>`` and return that folder."""
    story_id = story_id or f"synthetic-{n_events}"
    folder = Path(dest) / story_id
    rng = np.random.default_rng(seed)
    places = _places(rng, n_places_for(n_events))
    events = _events(rng, n_events, places["id"])
    atomic_write_text(folder / "places.csv", places.to_csv(index=False))
    if n_events >= PARQUET_FROM:
        buf = io.BytesIO()
        pq.write_table(pa.Table.from_pandas(events, preserve_index=False), buf)
        atomic_write_bytes(folder / "events.parquet", buf.getvalue())
        (folder / "events.csv").unlink(missing_ok=True)
    else:
        atomic_write_text(folder / "events.csv", events.to_csv(index=False))
        (folder / "events.parquet").unlink(missing_ok=True)
    # story.toml last: a folder is only picked up as a story once it is complete.
    atomic_write_text(folder / "story.toml", _toml(story_id, n_events, places["id"].iloc[0]))
    return folder


def ensure_story(n_events: int, dest: Path = DATA) -> Path:
    """The generated story of ``n_events`` under ``dest``, generating it if it is not there."""
    folder = Path(dest) / f"synthetic-{n_events}"
    if not (folder / "story.toml").exists():
        generate_story(dest, n_events)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", default=list(DEFAULT_SIZES), help=", ".join(SIZES))
    parser.add_argument("--dest", type=Path, default=DATA)
    args = parser.parse_args()
    for label in args.sizes:
        t0 = time.perf_counter()
        folder = generate_story(args.dest, SIZES[label])
        print(f"{folder}  ({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
