"""Hypothesis strategies for the fuzz suite: story folders, zips, links and articles that look
almost right, with the hostile values of issue 23 mixed in.

Examples per test come from the profile (tests/conftest.py): a few in the normal run,
``--hypothesis-profile=long`` for the long one. ``scaled(n)`` gives n examples at the normal
profile's size and as many more, in proportion, in the long one.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import time
from contextlib import contextmanager
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st

from tests.helpers import MINI

# Each example must end within these, on a busy two-core machine (issue 23: 10 s, 1 GB).
SECONDS = 10.0
PEAK_BYTES = 300_000_000


def scaled(n: int) -> int:
    """``n`` examples in the normal run; proportionally more under a bigger profile."""
    return max(1, n * settings().max_examples // 100)


def _status_bytes(field: str) -> int | None:
    """A memory figure of this process from /proc/self/status ("VmHWM", "VmRSS"), or None."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


@contextmanager
def bounded(seconds: float = SECONDS, peak: int = PEAK_BYTES):
    """Assert that the block ends within ``seconds`` and grows the process's resident memory by
    at most ``peak`` bytes.

    Memory is the kernel's high-water mark, reset before the block ("5" to clear_refs, Linux
    4.0+): tracemalloc would slow the block eightfold and make the time bound meaningless.
    """
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    before = _status_bytes("VmRSS")
    started = time.perf_counter()
    yield
    elapsed = time.perf_counter() - started
    after = _status_bytes("VmHWM")
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    if before is not None and after is not None:
        assert after - before < peak, f"grew by {(after - before) / 1e6:.0f} MB"


# --- values -------------------------------------------------------------------------------------

BIDI_AND_BREAKS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029\x85"
NUMBERS = ["0", "-1", "1e308", "1e999", "inf", "-inf", "nan", "NaN", "Infinity", "²", "٣", "１"]
DATES = ["2017-08-19", "0001-01-01", "9999-12-31", "1799-12-31", "2200-12-31", "2017-02-30"]
HOSTILE = [
    "",
    " ",
    '"',
    "|",
    ",",
    "=cmd|' /C calc'!A0",
    "<script>alert(1)</script>",
    "**b** [l](http://evil.example)",
    *NUMBERS,
    *DATES,
    *BIDI_AND_BREAKS,
    "place:baalbek",
    "x" * 5_000,
]
cells = st.sampled_from(HOSTILE) | st.text(max_size=30)


def nested(depth: int, opener: str = "[", closer: str = "]") -> str:
    return opener * depth + closer * depth


depths = st.sampled_from([0, 1, 15, 16, 17, 100, 5_000, 100_000])


# --- story.toml ---------------------------------------------------------------------------------

TOML_KEYS = ["id", "title", "summary", "span", "dateline", "landmarks", "words", "map", "draft",
             "sources", "chapters", "junk", "nested", "Title"]  # fmt: skip
toml_values = st.one_of(
    st.sampled_from(HOSTILE).map(json.dumps),
    st.sampled_from([*NUMBERS[:4], "nan", "inf", "true", "1979-05-27T07:32:00Z"]),
    st.sampled_from(DATES).map(lambda d: d if d != "2017-02-30" else f'"{d}"'),
    depths.map(nested),
    st.builds(
        lambda a, b: f"{{ start = {a}, end = {b} }}",
        st.sampled_from(DATES[:5]),
        st.sampled_from(DATES[:5]),
    ),
    st.integers(0, 600_000).map(lambda n: json.dumps("x" * n)),
    st.integers(0, 200_000).map(lambda n: "[" + "0," * n + "]"),
)
toml_lines = st.builds(lambda k, v: f"{k} = {v}", st.sampled_from(TOML_KEYS), toml_values) | (
    st.integers(1, 60).map(lambda n: "a" + ".b" * n + " = 1")
)


@st.composite
def story_toml(draw) -> str:
    """The mini story.toml with lines replaced, added before its tables, or after them."""
    lines = (MINI / "story.toml").read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(toml_lines))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] = draw(toml_lines)
    return "\n".join(lines) + "\n"


# --- CSV files ----------------------------------------------------------------------------------


@st.composite
def csv_file(draw, name: str) -> str:
    """One of the mini story's CSV files with a few cells replaced (header cells too)."""
    rows = list(csv.reader(io.StringIO((MINI / name).read_text(encoding="utf-8"))))
    for _ in range(draw(st.integers(1, 6))):
        r = draw(st.integers(0, len(rows) - 1))
        c = draw(st.integers(0, len(rows[r]) - 1))
        rows[r][c] = draw(cells)
    if draw(st.integers(0, 9)) == 0:  # many rows at once
        rows += [rows[-1]] * draw(st.sampled_from([10, 400, 20_000]))
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


# --- fronts.geojson -----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | cells,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(cells, inner, max_size=4),
    max_leaves=12,
)


@st.composite
def fronts_geojson(draw) -> str:
    """The mini fronts with properties or geometry replaced, or deep or non-finite JSON."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return '{"type": "FeatureCollection", "features": ' + nested(draw(depths)) + "}"
    if kind == 1:
        return json.dumps(draw(json_values))
    doc = json.loads((MINI / "fronts.geojson").read_text(encoding="utf-8"))
    feature = doc["features"][draw(st.integers(0, len(doc["features"]) - 1))]
    if kind == 2:
        key = draw(st.sampled_from([*feature["properties"], "junk"]))
        feature["properties"][key] = draw(json_values)
        return json.dumps(doc)
    if kind == 3:
        feature["geometry"] = draw(json_values)
        return json.dumps(doc)
    text = json.dumps(doc)
    number = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "1e308"]))
    return text.replace('"reported_km2": 120', f'"reported_km2": {number}', 1)


# --- a whole folder -----------------------------------------------------------------------------

FILES = ("story.toml", "places.csv", "events.csv", "convoy.csv", "fronts.geojson")


@st.composite
def story_files(draw) -> dict[str, bytes | None]:
    """The mini story's files, one to three of them broken (None: the file is left out)."""
    files: dict[str, bytes | None] = {f: (MINI / f).read_bytes() for f in FILES}
    for name in draw(st.lists(st.sampled_from(FILES), min_size=1, max_size=3, unique=True)):
        how = draw(st.integers(0, 9))
        if how == 0:
            files[name] = None
        elif how == 1:
            files[name] = draw(st.binary(max_size=200))
        elif name == "story.toml":
            files[name] = draw(story_toml()).encode("utf-8")
        elif name == "fronts.geojson":
            files[name] = draw(fronts_geojson()).encode("utf-8")
        else:
            files[name] = draw(csv_file(name)).encode("utf-8")
    return files


def write_story(folder: Path, files: dict[str, bytes | None]) -> Path:
    folder.mkdir(parents=True)
    for name, data in files.items():
        if data is not None:
            (folder / name).write_bytes(data)
    return folder


# --- links and articles -------------------------------------------------------------------------

PARAMS = ("story", "from", "to", "cat", "actor", "layers", "sel", "zoom", "center", "tiles",
          "chapter")  # fmt: skip
link_values = cells | st.sampled_from(["9", "34.1,36.5", "offline", "events,convoy", "3"])
query_strings = st.dictionaries(st.sampled_from(PARAMS), link_values, max_size=6)

ARTICLE_WORDS = ["Baalbek", "Arsal", "Damascus", "Beirut", "Homs", "Mosul", "Deir ez-Zor",
                 "on Monday", "12 killed", "3 wounded", "on 5 August", ".", ",", "\n\n",
                 "the village of", "province", "said", "Hezbollah", "ISIS", "2017",
                 "<p>", "**", "\u202e", "since 2014", "in 10 years"]  # fmt: skip
articles = st.lists(st.sampled_from(ARTICLE_WORDS) | st.text(max_size=12), max_size=400).map(
    " ".join
) | st.builds(lambda w, n: (w + " ") * n, st.sampled_from(ARTICLE_WORDS), st.integers(1, 3_000))
