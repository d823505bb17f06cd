"""The chunked check of a big story's events: the whole-file loader's problems, bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.story import events_store
from geo.story.events_store import BUILD_DUCKDB, open_store
from geo.story.load import StoryError, load_story
from geo.story.load import chunked as chunked_mod
from geo.story.load.chunked import ChunkedEvents
from geo.story.load.schema import FIGURES, PROBLEMS_PER_FILE

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

CHUNK = 7  # rows a chunk: a file of a few hundred rows is checked in dozens of chunks


def _problems(folder: Path, **kwargs) -> list[tuple[str, str, str]]:
    """The story's problems (none when it loads)."""
    try:
        load_story(folder, **kwargs)
    except StoryError as err:
        return [(p.file, p.where, p.message) for p in err.problems]
    return []


def _chunked(folder: Path, tmp: Path, workers: int = 1) -> list[tuple[str, str, str]]:
    config = {**BUILD_DUCKDB, "temp_directory": str(tmp / "spill")}
    staged = tmp / f"staged-{workers}"
    check = ChunkedEvents(staged, config, chunk_rows=CHUNK, workers=workers)
    return _problems(folder, events_loader=check)


def _story(tmp: Path, n: int = 400) -> tuple[Path, pd.DataFrame]:
    folder = generate_story(tmp / "stories", n, seed=8)
    return folder, pd.read_csv(folder / "events.csv", dtype=str, keep_default_na=False)


def _broken(events: pd.DataFrame) -> pd.DataFrame:
    """Problems of every kind, across chunks: one check hit more than ROWS_PER_CHECK times."""
    df = events.copy()
    df.loc[1, "date"] = "17-01-05"
    df.loc[2, "date"] = "2031-01-01"  # outside the span
    df.loc[range(30, 30 + 25 * CHUNK, CHUNK), "category"] = "picnic"
    df.loc[[11, 300], "id"] = df.loc[10, "id"]  # used twice: in its chunk and chunks later
    df.loc[301, "id"] = df.loc[299, "id"]
    df.loc[12, "id"] = "Not A Slug"
    df.loc[40, "place_id"] = "nowhere"
    df.loc[41, "end_date"], df.loc[41, "date"] = "2017-01-01", "2017-02-01"
    df.loc[50, "killed"], df.loc[51, "killed"], df.loc[52, "wounded"] = "-3", "abc", "1.5"
    df.loc[53, "source"] = "synthetic|nobody"
    df.loc[54, "summary"] = ""
    df.loc[55, "sub_type"], df.loc[56, "sub_type"] = "x" * 201, "Armed\tclash"
    df.loc[[60, 61], ["confidence", "killed", "confidence_note"]] = ["reported", "3", "7 killed"]
    return df


@pytest.mark.parametrize("workers", [1, 2])
def test_a_broken_file_gets_the_whole_file_loaders_problems(tmp_path, workers):
    folder, events = _story(tmp_path)
    _broken(events).to_csv(folder / "events.csv", index=False)
    whole = _problems(folder)
    assert _chunked(folder, tmp_path, workers) == whole
    wheres = {w for f, w, _ in whole if f == "events.csv"}
    assert {"line 3", "line 4", "line 13", "line 14", "line 302", "line 303"} <= wheres
    # The duplicate found across chunks and the capped check are there with their lines.
    assert ("events.csv", "line 302", f"id {events.loc[10, 'id']!r} is used twice") in whole
    assert any(m.startswith("5 more lines like: category 'picnic'") for _, _, m in whole)


def test_a_broken_parquet_file_gets_the_same_problems(tmp_path):
    folder, events = _story(tmp_path)
    df = _broken(events)
    df.loc[[50, 51], "killed"] = None  # a typed file: figures are numbers or nothing
    df.loc[52, "wounded"] = None
    df[list(FIGURES)] = df[list(FIGURES)].replace("", None).astype("Int64")
    df.loc[55, "killed"] = -4
    df.to_parquet(folder / "events.parquet", index=False)
    (folder / "events.csv").unlink()
    whole = _problems(folder)
    assert ("events.parquet", "line 57", "killed -4 is below 0") in whole
    assert _chunked(folder, tmp_path) == whole


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace("id,date,", "id,when,", 1),  # a required column missing
        lambda text: text.replace(",confidence_note\n", ",confidence_note,extra\n", 1),
        lambda text: text + "e9,2017-01-01,too,many,fields" + ",x" * 30 + "\n",
        lambda text: text.splitlines(keepends=True)[0],  # a header and no rows
        lambda text: "",
    ],
)
def test_files_that_cannot_be_read_whole_are_reported_alike(tmp_path, damage):
    folder, _ = _story(tmp_path, 60)
    csv = folder / "events.csv"
    csv.write_text(damage(csv.read_text(encoding="utf-8")), encoding="utf-8")
    whole = _problems(folder)
    assert _chunked(folder, tmp_path) == whole
    assert whole or csv.read_text(encoding="utf-8").count("\n") == 1  # only a header: no events


def test_past_the_files_cap_the_rest_is_counted_alike(tmp_path):
    folder, events = _story(tmp_path, 600)
    many = range(0, PROBLEMS_PER_FILE + 50)
    events.loc[many, ["confidence", "killed", "confidence_note"]] = ["reported", "3", "7 dead"]
    events.to_csv(folder / "events.csv", index=False)
    whole = _problems(folder)
    assert whole[-1] == ("events.csv", "", "... and 50 more problems")
    assert _chunked(folder, tmp_path) == whole


def test_the_store_built_in_chunks_holds_what_load_story_gives(tmp_path, monkeypatch):
    monkeypatch.setattr(chunked_mod, "CHUNK_ROWS", CHUNK)
    monkeypatch.setattr(events_store, "ROW_GROUP", 50)
    folder, _ = _story(tmp_path)
    store = open_store(folder, tmp_path / "cache", in_process=True)
    want = load_story(folder).events
    got = store.window(date(2017, 1, 1), date(2017, 12, 31))
    assert got.index.tolist() == want.index.tolist() == list(range(len(want)))
    assert got["id"].tolist() == want["id"].tolist()
    for col in ("date", "end_date", "lat", "lon", "radius_m", *FIGURES):
        pd.testing.assert_series_equal(got[col], want[col], check_names=False)
    for col in (
        "category",
        "place_id",
        "summary",
        "source",
        "place_name",
        "confidence_note",
        "sub_type",
    ):
        assert got[col].astype(str).tolist() == want[col].astype(str).tolist()
    assert got["actors"].map(list).tolist() == want["actors"].map(list).tolist()
    assert store.actors == sorted({a for acts in want["actors"] for a in acts})
    assert store.sub_types == sorted(set(want["sub_type"]) - {""})
    # The places' admin1 is in the store too: its filter keeps the events at those places.
    places = load_story(folder).places
    region = places.at[0, "admin1"]
    at = set(places.loc[places["admin1"] == region, "id"])
    narrowed = store.window(
        date(2017, 1, 1), date(2017, 12, 31), narrow=events_store.Narrow(admin1=(region,))
    )
    assert narrowed["id"].tolist() == want.loc[want["place_id"].isin(at), "id"].tolist() != []
    # Only the entry is left: no staged copy, no spill folder, no temporary folder.
    assert sorted(p.name for p in store.folder.iterdir()) == sorted(
        [
            "events.parquet",
            "places.parquet",
            "light",
            "events.duckdb",
            "summary.json",
            "by-place",
        ]
    )
    assert [p.suffix for p in (tmp_path / "cache").iterdir() if p != store.folder] == [".key"]


def test_a_broken_story_built_in_chunks_reports_as_load_story(tmp_path, monkeypatch):
    monkeypatch.setattr(chunked_mod, "CHUNK_ROWS", CHUNK)
    folder, events = _story(tmp_path)
    _broken(events).to_csv(folder / "events.csv", index=False)
    with pytest.raises(StoryError) as err:
        open_store(folder, tmp_path / "cache", in_process=True)
    assert [(p.file, p.where, p.message) for p in err.value.problems] == _problems(folder)
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".key"]


_PEAK = """
import json, resource, sys
from geo.story import events_store
from geo.story.load import chunked
chunked.CHUNK_ROWS = 2_000
events_store.BUILD_DUCKDB = {**events_store.BUILD_DUCKDB, "memory_limit": "64MB"}
events_store.open_store(sys.argv[1], sys.argv[2], in_process=True)
# The build's peak and its biggest worker's (the chunks are checked in worker processes).
who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
peaks = [resource.getrusage(w).ru_maxrss for w in who]
print(json.dumps(sum(peaks) / 1024))
"""


def _build_peak_mb(folder: Path, cache: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(folder), str(cache)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_peak_memory_does_not_grow_with_the_story(tmp_path):
    """Ten times the events, small chunks and a 64 MB DuckDB: the build's peak stays put (the
    whole-file loader held ~1 KB an event: ~90 MB more for the bigger story)."""
    small = generate_story(tmp_path / "small", 10_000, seed=3)
    big = generate_story(tmp_path / "big", 99_000, seed=3)
    small_mb = _build_peak_mb(small, tmp_path / "cache")
    big_mb = _build_peak_mb(big, tmp_path / "cache")
    # Allowance: the light arrays (~20 bytes an event) and allocator noise.
    assert big_mb - small_mb < 40, (small_mb, big_mb)
    assert (
        json.loads(next((tmp_path / "cache").glob("synthetic-99000-*/summary.json")).read_text())[
            "events"
        ]
        == 99_000
    )
