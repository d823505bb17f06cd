"""Hostile and careless story files: every one is a located problem, bounded in time and size."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from geo.story.load import (
    MAX_POLYGON_VERTICES,
    PROBLEMS_PER_FILE,
    ROWS_PER_CHECK,
    UPLOAD_LIMITS,
    Limits,
    Problem,
    Problems,
    StoryError,
    load_story,
    problem_text,
)
from tests.helpers import copy_mini, replace


@pytest.fixture
def story_dir(tmp_path: Path) -> Path:
    return copy_mini(tmp_path)


def problems_of(path: Path, limits: Limits | None = None) -> list[str]:
    with pytest.raises(StoryError) as info:
        load_story(path, limits or Limits())
    return [str(p) for p in info.value.problems]


def edit_front(story: Path, edit) -> None:
    file = story / "fronts.geojson"
    doc = json.loads(file.read_text(encoding="utf-8"))
    edit(doc)
    file.write_text(json.dumps(doc), encoding="utf-8")


def _set_prop(key, value):
    def edit(doc):
        doc["features"][0]["properties"][key] = value

    return edit


def _set(key, value):
    def edit(doc):
        doc[key] = value

    return edit


def _ring(n: int):
    def edit(doc):
        import math

        ring = [
            [
                36.5 + 0.05 * math.cos(2 * math.pi * k / n),
                34.25 + 0.05 * math.sin(2 * math.pi * k / n),
            ]
            for k in range(n)
        ]
        doc["features"][0]["geometry"]["coordinates"] = [[*ring, ring[0]]]

    return edit


FRONT_CASES = [
    pytest.param(
        _set_prop("id", "<img src=x onerror=alert(1)>"), "id must be lowercase", id="id-html"
    ),
    pytest.param(_set_prop("note", 5), "must be text", id="note-number"),
    pytest.param(_set_prop("note", {"a": 1}), "must be text", id="note-object"),
    pytest.param(_set_prop("source", ["test"]), "must be text", id="source-list"),
    pytest.param(
        _set("features", [1, "x"]), "feature 1: must be a GeoJSON Feature", id="features-junk"
    ),
    pytest.param(_set("features", {"a": 1}), "features must be a list", id="features-object"),
    pytest.param(_ring(MAX_POLYGON_VERTICES + 10), "vertices; at most", id="huge-polygon"),
]


@pytest.mark.parametrize(("edit", "expected"), FRONT_CASES)
def test_bad_fronts_are_located_problems(story_dir: Path, edit, expected: str):
    edit_front(story_dir, edit)
    found = problems_of(story_dir)
    assert any(expected in p and p.startswith("fronts.geojson") for p in found), found


TOML_CASES = [
    pytest.param("zoom = 9\n", "[map]\ncenter = 5\n", "map must be", id="center-number"),
    pytest.param("", '[map]\ncenter = ["a", "b"]\n', "map must be", id="center-strings"),
    pytest.param("", "[map]\ncenter = [1, 2, 3]\nzoom = 8\n", "map must be", id="center-three"),
    pytest.param("", "[map]\nzoom = true\n", "map must be", id="zoom-bool"),
]


@pytest.mark.parametrize(("_unused", "extra", "expected"), TOML_CASES)
def test_bad_map_view_is_a_problem(story_dir: Path, _unused, extra: str, expected: str):
    toml = story_dir / "story.toml"
    # [map] must come before the [[sources]] tables.
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[[sources]]", extra + "\n[[sources]]", 1), encoding="utf-8")
    assert any(expected in p for p in problems_of(story_dir))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        pytest.param(
            "span = { start = 2017-08-01, end = 2017-08-31 }",
            "span = { start = 2017-08-01T10:00:00, end = 2017-08-31 }",
            "span must be",
            id="datetime-span",
        ),
        pytest.param('id = "test"', "id = [1]", "source 1", id="source-id-list"),
        pytest.param(
            'publication = "Test fixture"', "publication = 5", "source 1", id="pub-number"
        ),
        pytest.param(
            'place = "beirut"', 'place = "<b>x</b>"', "dateline must be", id="dateline-html"
        ),
    ],
)
def test_bad_story_toml_values_are_problems(story_dir: Path, old: str, new: str, expected: str):
    replace(story_dir / "story.toml", old, new)
    assert any(expected in p for p in problems_of(story_dir))


@pytest.mark.parametrize("name", ["story.toml", "places.csv", "events.csv", "fronts.geojson"])
def test_a_byte_order_mark_is_accepted(story_dir: Path, name: str):
    file = story_dir / name
    file.write_bytes(b"\xef\xbb\xbf" + file.read_bytes())
    assert load_story(story_dir).id == "mini"


@pytest.mark.slow
def test_a_million_bad_rows_cost_seconds_and_a_capped_list(story_dir: Path):
    header = (story_dir / "events.csv").read_text(encoding="utf-8").splitlines()[0]
    bad = "BAD,notadate,,nowhere,dance,,,x,,,,,,,,,,nosource,,sure,\n"
    with open(story_dir / "events.csv", "w", encoding="utf-8") as fh:
        fh.write(header + "\n")
        fh.write(bad * 1_000_000)
    started = time.perf_counter()
    with pytest.raises(StoryError) as info:
        load_story(story_dir)
    seconds = time.perf_counter() - started
    kept = info.value.problems
    assert len(kept) <= PROBLEMS_PER_FILE + 5
    assert any("more lines like" in str(p) for p in kept)
    assert len(str(info.value)) < 100_000
    # Not a speed assertion (bench/ measures): a guard that the cap is what stops the work.
    assert seconds < 120, seconds
    assert sum(str(p).startswith("events.csv:line 2:") for p in kept) <= 10
    screen = problem_text(info.value)
    assert len(screen.splitlines()) == 31


def test_rows_per_check_are_capped(story_dir: Path):
    lines = (story_dir / "events.csv").read_text(encoding="utf-8").splitlines()
    row = lines[1].split(",", 1)[1].replace(",reported,", ",sure,")
    rows = [lines[0]] + [f"x{n},{row}" for n in range(ROWS_PER_CHECK + 7)]
    (story_dir / "events.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    found = problems_of(story_dir)
    assert not any("is used twice" in p for p in found)  # unique ids: only the next check
    assert any("7 more lines like" in p for p in found), found


def test_problems_are_capped_per_file():
    kept = Problems(per_file=3)
    for n in range(10):
        kept.append(Problem("a.csv", f"line {n}", "bad"))
    kept.append(Problem("b.csv", "", "bad"))
    closed = [str(p) for p in kept.closed()]
    assert closed == [
        "a.csv:line 0: bad",
        "a.csv:line 1: bad",
        "a.csv:line 2: bad",
        "b.csv: bad",
        "a.csv: ... and 7 more problems",
    ]


def _parquet(path: Path, rows: int) -> None:
    # One tiny dictionary-encoded column: a few KB on disk whatever the row count.
    col = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int8()), pa.array(["e"]))
    pq.write_table(pa.table({"id": col}), path)


def test_a_parquet_bomb_is_refused_from_its_footer(story_dir: Path):
    (story_dir / "events.csv").unlink()
    _parquet(story_dir / "events.parquet", UPLOAD_LIMITS.max_rows + 1)
    assert (story_dir / "events.parquet").stat().st_size < 100_000
    found = problems_of(story_dir, UPLOAD_LIMITS)
    assert any("rows; at most 1,000,000" in p for p in found), found


def test_parquet_uncompressed_size_is_checked(story_dir: Path):
    (story_dir / "events.csv").unlink()
    _parquet(story_dir / "events.parquet", 1000)
    found = problems_of(story_dir, Limits(max_parquet_bytes=10))
    assert any("unpacks to" in p for p in found), found
