"""Big stories: events kept in a validated, date-sorted Parquet file and queried with DuckDB.

A story with more than ``BIG_EVENTS`` events is validated once (``load_story``, in a child
process so the server never holds the whole table), then written under the cache folder as
``events.parquet`` (date order, row groups of ``ROW_GROUP`` events, each event's point as WKB in
a ``geometry`` column described by GeoParquet ``geo`` metadata), ``places.parquet`` (the checked
places, so an open does not check ``places.csv`` again), ``light/`` (the map's columns of
every event, one ``.npy`` each, memory-mapped: the map slices them on every rerun),
``by-place/`` (geo.story.place_index), ``events.duckdb`` (an empty
database the store's read-only connection opens) and ``summary.json`` (facets), keyed by the
story files' names, sizes, mtimes and contents. A window, viewport, count or per-place count is
one parameterised SQL query over the Parquet file: DuckDB reads only the row groups whose
statistics can match and only the columns asked for, so memory follows the window.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from geo.atomic import atomic_write_text
from geo.errors import READ_FAILURES, DatelineError
from geo.names import noun
from geo.paths import default_cache_dir
from geo.story import place_index
from geo.story.checks import BASEMAP
from geo.story.load import chunked
from geo.story.load.chunked import LINE, ChunkedEvents, StagingError
from geo.story.load.loaders import _join_places, load_story
from geo.story.load.problems import StoryError, unreadable
from geo.story.load.schema import EVENT_COLUMNS, FIGURES, FOLDER_LIMITS
from geo.story.model import Problem, Story
from geo.story.place_index import PlaceIndex
from geo.story.timeline import (
    TEXT_MAX,
    day_cells,
    day_table,
    events_per_day,
    events_per_period,
    filter_events,
    longest_span,
    narrow_events,
    narrow_mask,
    per_day_table,
    per_period,
)

# From this many events on a story's events stay on disk; below it, the pandas path.
BIG_EVENTS = 50_000
# A CSV this big holds about BIG_EVENTS events (the synthetic stories: ~140 bytes a row).
BIG_CSV_BYTES = 7_000_000
ROW_GROUP = 16_384
# 6: DuckDB (geometry and country columns, events.duckdb); 7: sub_type and admin1; 8: the events
# by place, and the killed figures among the light columns; 9: the light columns memory-mapped.
CACHE_VERSION = 9
# Each store's DuckDB connection: 1 GB at most (DuckDB spills or fails a query past it, the
# server keeps running) and 2 threads (the machine's cores; a window never needs more).
DUCKDB_CONFIG = {"memory_limit": "1GB", "threads": 2}
_CONNECTING = threading.Lock()
# The build validates the whole story in a child process: bounded in time and memory.
# Ten million events took 158 s here, and 331 s beside a full test run (bench/results.md).
BUILD_TIMEOUT_S = 1200
BUILD_MEMORY_BYTES = 6 * 2**30
# The build's DuckDB (the sort, the duplicate-id query): past this it spills to the entry's
# temporary folder. Chunks, Arrow buffers and Python come on top (see bench/results.md).
BUILD_DUCKDB = {"memory_limit": "1GB", "threads": 2, "preserve_insertion_order": False}
# The chunked check holds a chunk at a time: a folder's big story may have more rows than the
# whole-file loader takes (FOLDER_LIMITS); this bounds the disk and the time it costs.
STREAM_LIMITS = replace(FOLDER_LIMITS, max_rows=20_000_000)
# Processes that check chunks at once (the machine's 2 cores; each holds a chunk or two).
BUILD_WORKERS = 2
# Columns the map needs of a big window (scaled layers, counts, events per day).
MAP_COLUMNS = ("date", "end_date", "category", "place_id")
# A big story's columns kept in memory: the map's, and the killed figures, so the fatalities
# filter (and the countries, by place) narrows a window without a query.
LIGHT_COLUMNS = (*MAP_COLUMNS, "killed")
ALL_COLUMNS = (*EVENT_COLUMNS, "place_name", "lat", "lon", "radius_m")
# What the events table below the map shows (no actors: a list column is slow to convert).
TABLE_COLUMNS = ("date", "place_name", "category", "sub_type", "summary", *FIGURES, "source")
TABLE_COLUMNS += ("confidence",)
# Read as Arrow dictionaries (pandas categoricals): a few distinct values repeated per event.
_DICTIONARY = ("category", "place_id", "place_name", "source", "confidence")
_SOURCE_SUFFIXES = (".toml", ".csv", ".parquet", ".geojson")
# An entry's files and the summary field that holds each one's size: a file of another size was
# not written whole, and the entry is not used.
_SIZED = {
    "events.parquet": "parquet_bytes",
    "places.parquet": "places_bytes",
    "light": "light_bytes",
    "events.duckdb": "duckdb_bytes",
}


def cache_root(cache_dir: str | Path | None = None) -> Path:
    """Where event stores live: ``<cache dir>/event-store`` (never a stories folder)."""
    return Path(cache_dir) if cache_dir is not None else default_cache_dir() / "event-store"


def is_big(path: str | Path) -> bool:
    """True when the story at ``path`` has more than BIG_EVENTS events (or a CSV that size)."""
    path = Path(path)
    try:
        if (path / "events.parquet").is_file():
            return pq.read_metadata(path / "events.parquet").num_rows > BIG_EVENTS
        csv = path / "events.csv"
        if csv.stat().st_size > BIG_CSV_BYTES:
            return True
        with csv.open("rb") as fh:  # under BIG_CSV_BYTES: count its lines
            return fh.read().count(b"\n") - 1 > BIG_EVENTS
    except (OSError, pa.ArrowException):
        return False  # load_story reports the broken file with its name


def _source_files(path: Path, basemap: str | Path | None) -> list[Path]:
    files = sorted(f for f in path.iterdir() if f.is_file() and f.suffix in _SOURCE_SUFFIXES)
    if basemap is not None and Path(basemap).is_file():
        files.append(Path(basemap))
    return files


def source_key(path: str | Path, basemap: str | Path | None = BASEMAP) -> str:
    """A hash of the story's files (name, size, mtime, content) and of the basemap checked."""
    digest = hashlib.blake2b(f"v{CACHE_VERSION}".encode(), digest_size=16)
    for f in _source_files(Path(path), basemap):
        st = f.stat()
        digest.update(f"{f.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        with f.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def _stat_line(path: Path, basemap: str | Path | None) -> str:
    # The change time moves on every write and on every utime(), and no tool sets it back: while
    # it, the inode, the size and the mtime of every file stay put, so does the content.
    parts = []
    for f in _source_files(path, basemap):
        st = f.stat()
        parts.append(
            f"{f.resolve()}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
        )
    return "\n".join([f"v{CACHE_VERSION}", *parts])


def known_source_key(path: Path, root: Path, basemap: str | Path | None = BASEMAP) -> str:
    """``source_key``, remembered under ``root`` with the files' status: while that is unchanged
    the files are not read again (hashing the million-event story's 17 MB took 40 ms an open)."""
    memo = root / f"{_prefix(path)}.key"
    line = _stat_line(path, basemap)
    try:
        with memo.open("rb") as fh:
            seen, key = fh.read(1 << 20).decode("utf-8").rsplit("\n", 1)
        if seen == line and len(key) == 32 and all(c in "0123456789abcdef" for c in key):
            return key
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    key = source_key(path, basemap)
    with contextlib.suppress(OSError):  # a read-only cache: the files are hashed again next time
        atomic_write_text(memo, f"{line}\n{key}")
    return key


def _prefix(path: Path) -> str:
    """Entries are named by folder name and a hash of its full path: two copies of a story
    (a test's and the benchmark's) do not prune each other."""
    where = hashlib.blake2b(str(path.resolve()).encode(), digest_size=4).hexdigest()
    return f"{path.name}-{where}"


def _entry(root: Path, path: Path, key: str) -> Path:
    return root / f"{_prefix(path)}-{key}"


# --- building the cache ------------------------------------------------------------------------


def build(path: str | Path, root: str | Path, key: str, basemap=BASEMAP) -> Path:
    """Validate the story and write its event store under ``root``; raise StoryError.

    The events are checked a chunk at a time (geo.story.load.chunked) into a staging file, then
    sorted by DuckDB (which spills to the entry's folder past BUILD_DUCKDB's memory limit) and
    written a row group at a time: memory does not grow with the story. Everything is written
    into a temporary folder that is renamed into place last, so a reader sees a complete entry
    or none.
    """
    path, root = Path(path), Path(root)
    root.mkdir(parents=True, exist_ok=True)
    _drop_stale_builds(root, path)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}-", suffix=".tmp", dir=root))
    try:
        config = {**BUILD_DUCKDB, "temp_directory": str(tmp / "spill")}
        check = ChunkedEvents(tmp / "staged", config, chunked.CHUNK_ROWS, _workers(path))
        try:
            story = load_story(path, STREAM_LIMITS, basemap=basemap, events_loader=check)
        except StagingError as exc:
            raise exc.error from None
        summary = {"version": CACHE_VERSION, "key": key, "story": path.name}
        summary.update(_write_events(tmp, check.parts, story.places, config))
        shutil.rmtree(tmp / "staged")
        shutil.rmtree(tmp / "spill", ignore_errors=True)
        duckdb.connect(str(tmp / "events.duckdb")).close()  # opened read-only by the store
        places = pa.Table.from_pandas(story.places, preserve_index=False)
        pq.write_table(places, tmp / "places.parquet")
        # Read back from the Parquet, so the arrays hold exactly what the slow path would give.
        light = _light_from_parquet(tmp / "events.parquet")
        _write_light(tmp / "light", light)
        figures = light["killed"].to_numpy()
        has = ~np.isnan(figures)
        summary["killed_top"] = int(figures[has].max()) if has.any() else None
        # The longest event bounds every window's search (in_window): two passes over ten
        # million dates on a first page otherwise.
        summary["longest_us"] = int(longest_span(light) / pd.Timedelta(microseconds=1))
        # The events by place for the map's windows: 1-2 s at ten million events, paid here
        # rather than on a server's first page.
        PlaceIndex.of(light, story.places).save(tmp / place_index.FOLDER)
        del light
        for name, size in _SIZED.items():
            summary[size] = _size(tmp / name)
        (tmp / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
        return _put_in_place(tmp, root, path, key)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _put_in_place(tmp: Path, root: Path, path: Path, key: str) -> Path:
    """Rename the written folder to the entry's name (once: another builder's copy stays)."""
    final = _entry(root, path, key)
    if final.exists() and not _complete(final):
        shutil.rmtree(final, ignore_errors=True)  # a damaged entry: replaced, never read
    try:
        os.rename(tmp, final)
    except OSError:
        # Another process built the same entry first: keep theirs.
        if not _complete(final):
            raise
    else:
        _prune(root, path, keep=final)
    return final


def _drop_stale_builds(root: Path, path: Path) -> None:
    """Remove this story's temporary folders older than a build may take: a child killed on its
    timeout (or by the kernel) leaves its staged copy behind, gigabytes for a big story."""
    now = time.time()
    for old in root.glob(f".{path.name}-*.tmp"):
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > 2 * BUILD_TIMEOUT_S:
                shutil.rmtree(old, ignore_errors=True)


# The sorted events: the staged rows (file order) joined to their places, in the story's order
# (date, then id: load_story's order; ids are unique in a checked story).
_SORTED = f"""
SELECT s.* EXCLUDE ({LINE}), coalesce(p.name, '') AS place_name, p.lat, p.lon, p.radius_m,
    coalesce(s.end_date, s.date) AS "last", coalesce(p.place_row, -1) AS place_row, p.country,
    p.admin1
FROM read_parquet(?) s LEFT JOIN places p ON s.place_id = p.id
ORDER BY s.date, s.id
"""


def _workers(path: Path) -> int:
    """BUILD_WORKERS processes check a story of more than one chunk; one checks a smaller one."""
    try:
        file = path / "events.parquet"
        if file.is_file():
            rows = pq.read_metadata(file).num_rows
        else:  # ~140 bytes a row in the generated stories; a guess is enough here
            rows = (path / "events.csv").stat().st_size // 140
    except (OSError, pa.ArrowException):
        return 1
    return BUILD_WORKERS if rows > chunked.CHUNK_ROWS else 1


def _write_events(tmp: Path, staged: str, places: pd.DataFrame, config: dict) -> dict:
    """Write ``events.parquet`` from the staged rows, ROW_GROUP events at a time; return the
    summary's counts and facets."""
    cols = ["id", "name", "lat", "lon", "radius_m", "country", "admin1"]
    lookup = pa.Table.from_pandas(places[cols], preserve_index=False)
    lookup = lookup.append_column("place_row", pa.array(np.arange(len(places), dtype=np.int32)))
    with duckdb.connect(config=config) as con:
        con.register("places", lookup)
        src = [staged]
        n = con.execute("SELECT count(*) FROM read_parquet(?)", src).fetchone()[0]
        cats = con.execute("SELECT DISTINCT category FROM read_parquet(?)", src).fetchall()
        acts = con.execute("SELECT DISTINCT unnest(actors) FROM read_parquet(?)", src).fetchall()
        subs = con.execute("SELECT DISTINCT sub_type FROM read_parquet(?)", src).fetchall()
        box = con.execute(
            "SELECT min(lon), min(lat), max(lon), max(lat) FROM places WHERE isfinite(lon)"
            " AND isfinite(lat) AND id IN (SELECT place_id FROM read_parquet(?))",
            src,
        ).fetchone()
        schema = _events_schema(staged, places, None if box[0] is None else list(box))
        reader = con.execute(_SORTED, src).to_arrow_reader(ROW_GROUP)
        with pq.ParquetWriter(tmp / "events.parquet", schema) as writer:
            first = 0
            for table in _exactly(reader, ROW_GROUP):
                writer.write_table(_stored(table, schema, first), row_group_size=ROW_GROUP)
                first += table.num_rows
                _release()
    return {
        "events": int(n),
        "row_group": ROW_GROUP,
        "categories": sorted(c for (c,) in cats),
        "actors": sorted(a for (a,) in acts if a is not None),
        "sub_types": sorted(t for (t,) in subs if t),
    }


def _exactly(reader, size: int) -> Iterator[pa.Table]:
    """The reader's rows as tables of exactly ``size`` rows (the last one fewer): one row group
    each, whatever batch sizes DuckDB hands out."""
    pending: list[pa.RecordBatch] = []
    held = 0
    for batch in reader:
        pending.append(batch)
        held += batch.num_rows
        while held >= size:
            table = pa.Table.from_batches(pending)
            yield table.slice(0, size)
            rest = table.slice(size)
            pending, held = rest.to_batches(), rest.num_rows
    if held:
        yield pa.Table.from_batches(pending)


def _events_schema(staged: str, places: pd.DataFrame, bbox: list[float] | None) -> pa.Schema:
    """The stored file's schema: ALL_COLUMNS typed as the loader's frame (its pandas metadata,
    from one staged row joined as load_story joins), then the store's own columns."""
    pf = pq.ParquetFile(min(glob.glob(staged)))
    first = next(pf.iter_batches(batch_size=1), None)
    sample = pf.schema_arrow.empty_table()
    if first is not None:
        sample = pa.Table.from_batches([first], pf.schema_arrow)
    joined = _join_places(sample.to_pandas().drop(columns=[LINE]), places)[list(ALL_COLUMNS)]
    schema = pa.Schema.from_pandas(joined, preserve_index=False)
    schema = schema.set(schema.get_field_index("actors"), pa.field("actors", pa.list_(pa.string())))
    for name, kind in (
        ("last", pa.timestamp("us")),
        ("place_row", pa.int32()),
        ("row", pa.int64()),
        ("country", pa.string()),
        ("admin1", pa.string()),
        ("geometry", pa.binary()),
    ):
        schema = schema.append(pa.field(name, kind))
    column: dict = {"encoding": "WKB", "geometry_types": ["Point"]}
    if bbox is not None:
        column["bbox"] = bbox
    geo = {"version": "1.1.0", "primary_column": "geometry", "columns": {"geometry": column}}
    return schema.with_metadata({**(schema.metadata or {}), b"geo": json.dumps(geo).encode()})


def _stored(table: pa.Table, schema: pa.Schema, first: int) -> pa.Table:
    """One row group of sorted rows in the stored schema: its rows numbered from ``first`` and
    each event's point as WKB."""
    n = table.num_rows
    arrays = []
    for field_ in schema:
        if field_.name == "row":
            arrays.append(pa.array(np.arange(first, first + n, dtype=np.int64)))
        elif field_.name == "geometry":
            lon = table["lon"].to_numpy().astype(float)
            lat = table["lat"].to_numpy().astype(float)
            arrays.append(_points(lon, lat))
        else:
            arrays.append(table[field_.name].cast(field_.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _points(lon: np.ndarray, lat: np.ndarray) -> pa.Array:
    """Each event's point as little-endian WKB (21 bytes); null where it has no point."""
    n = len(lon)
    wkb = np.zeros(n, dtype=[("order", "u1"), ("kind", "<u4"), ("x", "<f8"), ("y", "<f8")])
    wkb["order"], wkb["kind"], wkb["x"], wkb["y"] = 1, 1, lon, lat
    offsets = np.arange(0, 21 * (n + 1), 21, dtype=np.int32)
    geom = pa.Array.from_buffers(
        pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(wkb.tobytes())]
    )
    placed = np.isfinite(lon) & np.isfinite(lat)
    if not placed.all():
        geom = pc.if_else(pa.array(placed), geom, pa.scalar(None, pa.binary()))
    return geom


def _prune(root: Path, path: Path, keep: Path) -> None:
    """Remove this story's older entries (best effort: another process may be doing the same)."""
    for old in root.glob(f"{_prefix(path)}-*"):
        if old != keep and old.is_dir() and not old.name.endswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)


def _size(path: Path) -> int:
    """A file's size, or a folder's files' sizes added up."""
    if path.is_dir():
        return sum(f.stat().st_size for f in path.iterdir())
    return path.stat().st_size


def _complete(entry: Path) -> bool:
    """An entry is used only when its summary is readable and its Parquet has the right size."""
    try:
        summary = json.loads((entry / "summary.json").read_text(encoding="utf-8"))
        return summary.get("version") == CACHE_VERSION and all(
            _size(entry / name) == summary[size] for name, size in _SIZED.items()
        )
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _build_in_child(path: Path, root: Path, key: str, basemap) -> None:
    """Run ``build`` in a child process; its problems come back as a StoryError."""
    cmd = [sys.executable, "-m", "geo.story.events_store", str(path), str(root), key]
    cmd.append("" if basemap is None else str(basemap))
    try:
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            cwd=Path(__file__).resolve().parents[2],
        )
    except subprocess.TimeoutExpired:
        raise StoryError(
            path, [Problem("events", "", f"checking took over {BUILD_TIMEOUT_S} s")]
        ) from None
    lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
    if not lines:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no answer"]
        raise StoryError(path, [Problem("events", "", f"cannot be checked: {tail[0]}")])
    answer = json.loads(lines[-1])
    if answer.get("problems"):
        as_problems = lambda items: [Problem(*p) for p in items]  # noqa: E731
        raise StoryError(path, as_problems(answer["problems"]), as_problems(answer["warnings"]))


def _child_main(argv: list[str]) -> int:
    path, root, key, basemap = argv
    # Set here, not with preexec_fn, which is unsafe in a threaded parent such as Streamlit.
    resource.setrlimit(resource.RLIMIT_AS, (BUILD_MEMORY_BYTES, BUILD_MEMORY_BYTES))
    try:
        build(path, root, key, basemap or None)
    except StoryError as exc:
        rows = lambda items: [[p.file, p.where, p.message] for p in items]  # noqa: E731
        print(json.dumps({"problems": rows(exc.problems), "warnings": rows(exc.warnings)}))
        return 0
    print(json.dumps({"ok": key}))
    return 0


# --- reading -----------------------------------------------------------------------------------


def _ts(day: date | pd.Timestamp) -> pd.Timestamp:
    return pd.Timestamp(day).normalize()


class WindowError(DatelineError, ValueError):
    """Arguments a window cannot take: a bbox that is no box, an unknown column.

    Also a ValueError, as the store raised before.
    """


def _bbox(bbox) -> tuple[float, float, float, float] | None:
    if bbox is None:
        return None
    try:
        south, west, north, east = (float(v) for v in bbox)
    except (TypeError, ValueError):
        raise WindowError(f"bbox must be (south, west, north, east), not {bbox!r}") from None
    if not all(np.isfinite([south, west, north, east])):
        raise WindowError(f"bbox must be finite, not {bbox!r}")
    return south, west, north, east


def _release() -> None:
    """Hand Arrow's freed decoding buffers back to the system: mimalloc keeps them otherwise
    (reading a million events' map columns left ~100 MB resident for an 18 MB frame; ~60 MB)."""
    pa.default_memory_pool().release_unused()


def _frame(table: pa.Table, schema: pa.Schema | None = None) -> pd.DataFrame:
    """A table read from the store as the loader's DataFrame: labelled by row, actors lists,
    the few-valued text columns as categoricals (as pyarrow's dictionary reads gave them).

    DuckDB's answer lacks the file's pandas metadata (nullable figures): ``schema`` gives it."""
    if schema is not None:
        table = pa.Table.from_arrays(
            [table[c].cast(schema.field(c).type) for c in table.column_names],
            names=table.column_names,
        ).replace_schema_metadata({b"pandas": schema.metadata[b"pandas"]})
    for name in _DICTIONARY:
        if name in table.column_names:
            at = table.column_names.index(name)
            table = table.set_column(at, name, pc.dictionary_encode(table[name]))
    df = table.to_pandas()
    df.index = pd.Index(df.pop("row").to_numpy(), name=None)
    if "actors" in df:
        df["actors"] = pd.Series(table["actors"].to_pylist(), index=df.index, dtype=object)
    return df


def _like(text: str) -> str:
    """``text`` as an ILIKE pattern matching it anywhere, its own wildcards taken literally."""
    if not isinstance(text, str) or len(text) > TEXT_MAX:
        raise WindowError(f"a text search is a string of at most {TEXT_MAX} characters")
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _killed(killed) -> tuple[float | None, float | None]:
    try:
        lo, hi = (None if v is None else float(v) for v in killed)
    except (TypeError, ValueError):
        raise WindowError(f"killed must be (low, high), not {killed!r}") from None
    if not all(v is None or np.isfinite(v) for v in (lo, hi)):
        raise WindowError(f"killed must be finite, not {killed!r}")
    return lo, hi


def place_counts(pairs, n_places: int | None) -> np.ndarray:
    """(place row, events) pairs from a GROUP BY as an array by row, ``n_places`` long (or up
    to the highest row); rows outside it are dropped."""
    size = n_places if n_places is not None else max((p for p, _ in pairs), default=-1) + 1
    out = np.zeros(size, dtype=np.int64)
    for place, n in pairs:
        if 0 <= place < size:
            out[place] = n
    return out


@dataclass(frozen=True)
class Narrow:
    """Filters beyond the timeline's: a ``killed`` range (either end None for open), the places'
    countries, a text searched in summaries and notes (case-blind, at most TEXT_MAX), the
    places' ``admin1`` names and the events' ``sub_types``. None is no filter; an empty tuple
    matches nothing."""

    killed: tuple[float | None, float | None] | None = None
    countries: tuple[str, ...] | None = None
    text: str | None = None
    admin1: tuple[str, ...] | None = None
    sub_types: tuple[str, ...] | None = None


class _Where:
    """A window's WHERE clause built from fixed SQL fragments, its values as parameters only."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.args: list = []

    def add(self, fragment: str, *args) -> None:
        self.parts.append(fragment)
        self.args.extend(args)

    @property
    def sql(self) -> str:
        return " AND ".join(self.parts) or "TRUE"


@dataclass(frozen=True)
class EventStore:
    """A big story's events on disk: window queries, counts and facets, in DuckDB SQL.

    One DuckDB connection per store, opened read-only on the entry's (empty) database file with
    ``DUCKDB_CONFIG``; each query runs on its own cursor, so Streamlit's threads can share it.
    DuckDB skips the row groups whose date statistics cannot overlap a window by itself.
    """

    folder: Path
    summary: dict

    @property
    def events_path(self) -> Path:
        return self.folder / "events.parquet"

    @property
    def n_events(self) -> int:
        return int(self.summary["events"])

    @property
    def categories(self) -> list[str]:
        return list(self.summary["categories"])

    @property
    def actors(self) -> list[str]:
        return list(self.summary["actors"])

    @property
    def sub_types(self) -> list[str]:
        return list(self.summary.get("sub_types", []))

    @functools.cached_property
    def _schema(self) -> pa.Schema:
        return pq.read_schema(self.events_path)

    @functools.cached_property
    def _connection(self) -> duckdb.DuckDBPyConnection:
        return duckdb.connect(
            str(self.folder / "events.duckdb"), read_only=True, config=DUCKDB_CONFIG
        )

    def _query(self, select: str, where: _Where, tail: str = "", tail_args=()):
        """Run ``SELECT {select} FROM the events WHERE ... {tail}`` on a cursor of its own."""
        with _CONNECTING:
            con = self._connection
        cur = con.cursor()
        sql = f"SELECT {select} FROM read_parquet(?) WHERE {where.sql} {tail}"
        return cur.execute(sql, [str(self.events_path), *where.args, *tail_args])

    def _where(self, start, end, categories, actors, bbox, place_ids, narrow) -> _Where | None:
        """The window's conditions; None when it holds nothing by design."""
        box = _bbox(bbox)
        if _ts(start) > _ts(end):
            return None
        w = _Where()
        w.add('"date" <= ? AND "last" >= ?', _ts(end).to_pydatetime(), _ts(start).to_pydatetime())
        if categories is not None:
            cats = sorted(set(categories))
            if not cats:
                return None
            if not set(self.categories) <= set(cats):  # every category chosen: no filter
                w.add("list_contains(?::VARCHAR[], category)", cats)
        if actors:
            w.add("list_has_any(actors, ?::VARCHAR[])", sorted(set(actors)))
        if place_ids is not None:
            ids = list(place_ids)
            if not ids:
                return None
            w.add("list_contains(?::VARCHAR[], place_id)", ids)
        if box is not None:
            south, west, north, east = box
            w.add("lat BETWEEN ? AND ? AND lon BETWEEN ? AND ?", south, north, west, east)
        return _narrowed(w, narrow or Narrow())

    def batches(
        self,
        start: date,
        end: date,
        categories: Iterable[str] | None = None,
        actors: Iterable[str] | None = None,
        bbox=None,
        columns: Iterable[str] | None = None,
        place_ids: Iterable[str] | None = None,
        *,
        narrow: Narrow | None = None,
        limit: int | None = None,
        size: int = ROW_GROUP,
    ) -> Iterator[pa.Table]:
        """The window's events in date order, ``size`` at a time, with ``row`` appended."""
        cols = _checked_columns(columns)
        where = self._where(start, end, categories, actors, bbox, place_ids, narrow)
        if where is None:
            return
        select = ", ".join(f'"{c}"' for c in (*cols, "row"))
        tail, tail_args = ("ORDER BY row", ())
        if limit is not None:
            tail, tail_args = ("ORDER BY row LIMIT ?", (max(0, int(limit)),))
        reader = self._query(select, where, tail, tail_args).to_arrow_reader(max(1, int(size)))
        for batch in reader:
            if batch.num_rows:
                yield pa.Table.from_batches([batch])

    def window(
        self,
        start: date,
        end: date,
        categories: Iterable[str] | None = None,
        actors: Iterable[str] | None = None,
        bbox=None,
        columns: Iterable[str] | None = None,
        *,
        place_ids: Iterable[str] | None = None,
        limit: int | None = None,
        narrow: Narrow | None = None,
    ) -> pd.DataFrame:
        """The events ``filter_events`` would give (plus a ``bbox``, ``place_ids`` and
        ``narrow`` filter), in date order, labelled by their row in the story, with only
        ``columns``; at most ``limit`` rows (the first ones) when given."""
        cols = _checked_columns(columns)
        parts = list(
            self.batches(
                start, end, categories, actors, bbox, cols, place_ids, narrow=narrow, limit=limit
            )
        )
        if not parts:
            return self._empty(cols)
        out = _frame(pa.concat_tables(parts), self._schema)
        _release()
        return out

    def frames(
        self, start, end, categories=None, actors=None, size: int = ROW_GROUP, *, narrow=None
    ) -> Iterator[pd.DataFrame]:
        """The window's events with every column, ``size`` rows at a time (for downloads)."""
        cats = None if categories is None else list(categories)
        acts = list(actors) if actors else None
        for t in self.batches(start, end, cats, acts, narrow=narrow, size=size):
            yield _frame(t, self._schema)

    def _empty(self, cols: list[str]) -> pd.DataFrame:
        return _frame(self._schema.empty_table().select([*cols, "row"]))

    def count(self, start, end, categories=None, actors=None, bbox=None, *, narrow=None) -> int:
        """How many events the window holds (one COUNT query)."""
        where = self._where(start, end, categories, actors, bbox, None, narrow)
        if where is None:
            return 0
        return int(self._query("count(*)", where).fetchone()[0])

    def counts_per_place(
        self, start, end, categories=None, actors=None, n_places: int | None = None, *, narrow=None
    ) -> np.ndarray:
        """Events per row of ``story.places`` in the window (a GROUP BY in DuckDB)."""
        where = self._where(start, end, categories, actors, None, None, narrow)
        pairs = []
        if where is not None:
            pairs = self._query("place_row, count(*)", where, "GROUP BY place_row").fetchall()
        return place_counts(pairs, n_places)

    def counts_per_day(
        self, start, end, categories=None, actors=None, *, narrow=None
    ) -> pd.DataFrame:
        """``events_per_day`` of the window through ``narrow``: one GROUP BY by start day and
        category, so a timeline chart never loads the events (counted by the day they start,
        as events_per_day counts them)."""
        where = self._where(start, end, categories, actors, None, None, narrow)
        rows = []
        if where is not None:
            where.add('"date" >= ?', _ts(start).to_pydatetime())
            select = 'CAST("date" AS DATE), category, count(*)'
            rows = self._query(select, where, "GROUP BY ALL").fetchall()
        return day_table(rows, start, end)

    def max_killed(self) -> int | None:
        """The highest reported ``killed`` figure of the story, None when none has one."""
        if "killed_top" in self.summary:  # kept by the build: no query on a first page
            top = self.summary["killed_top"]
            return None if top is None else int(top)
        with _CONNECTING:
            con = self._connection
        top = (
            con.cursor()
            .execute("SELECT max(killed) FROM read_parquet(?)", [str(self.events_path)])
            .fetchone()[0]
        )
        return None if top is None else int(top)

    def facets(self) -> tuple[list[str], list[str]]:
        """Every category and every actor in the story."""
        return self.categories, self.actors

    def places(self) -> pd.DataFrame:
        """``places.csv`` as ``load_story`` loaded and checked it when the store was built."""
        table = pq.read_table(self.folder / "places.parquet")
        at = table.column_names.index("aliases")
        out = table.drop_columns(["aliases"]).to_pandas()
        # Lists straight from Arrow: pandas would make numpy arrays, each then made a list.
        out.insert(at, "aliases", pd.Series(table["aliases"].to_pylist(), dtype=object))
        return out

    def place_index(self) -> PlaceIndex | None:
        """The events by place written with the entry, memory-mapped; None for an entry written
        before it was (the caller builds one)."""
        return PlaceIndex.load(self.folder / place_index.FOLDER, self.n_events)

    def light_events(self) -> pd.DataFrame:
        """Every event's LIGHT_COLUMNS, in order: dates, two categoricals and the killed figure,
        about 23 bytes an event (23 MB for a million), so a window for the map is a slice, not
        a read."""
        try:
            return _read_light(self.folder / "light")
        except (OSError, ValueError, KeyError):
            return _light_from_parquet(self.events_path)  # a damaged copy: the slow way


def _checked_columns(columns) -> list[str]:
    cols = list(ALL_COLUMNS if columns is None else columns)
    unknown = [c for c in cols if c not in (*ALL_COLUMNS, "place_row")]
    if unknown:
        raise WindowError(f"unknown {noun(len(unknown), 'column')}: {', '.join(unknown)}")
    return cols


def _narrowed(w: _Where, narrow: Narrow) -> _Where | None:
    """``w`` with the Narrow filters added (each a fixed fragment with parameters)."""
    if narrow.killed is not None:
        lo, hi = _killed(narrow.killed)
        if lo is not None:
            w.add("killed >= ?", lo)
        if hi is not None:
            w.add("killed <= ?", hi)
    # The column names are these fixed ones; the chosen names are a parameter.
    for chosen, column in (
        (narrow.countries, "country"),
        (narrow.admin1, "admin1"),
        (narrow.sub_types, "sub_type"),
    ):
        if chosen is not None:
            names = sorted({str(c) for c in chosen})
            if not names:
                return None  # none chosen: nothing passes
            w.add(f"list_contains(?::VARCHAR[], {column})", names)
    if narrow.text:
        pattern = _like(narrow.text)
        w.add(
            "(summary ILIKE ? ESCAPE '\\' OR source_detail ILIKE ? ESCAPE '\\'"
            " OR confidence_note ILIKE ? ESCAPE '\\')",
            pattern,
            pattern,
            pattern,
        )
    return w


def _light_from_parquet(events_path: Path) -> pd.DataFrame:
    pf = pq.ParquetFile(events_path, read_dictionary=["category", "place_id"])
    out = pf.read(columns=list(LIGHT_COLUMNS)).to_pandas()
    _release()
    # As float32 with NaN for no figure: 4 bytes an event, compared as the store's SQL does.
    out["killed"] = out["killed"].to_numpy(np.float32, na_value=np.nan)
    return out


def _write_light(folder: Path, light: pd.DataFrame) -> None:
    """The light frame as plain arrays, one ``.npy`` each: dates as microseconds, categoricals
    as codes and names (fixed-width text, so reading needs no pickle)."""
    arrays = {}
    for col in ("date", "end_date"):
        arrays[col] = light[col].to_numpy().astype("datetime64[us]").view(np.int64)
    for col in ("category", "place_id"):
        arrays[f"{col}_codes"] = light[col].cat.codes.to_numpy()
        arrays[f"{col}_names"] = np.array(list(light[col].cat.categories), dtype=str)
    arrays["killed"] = light["killed"].to_numpy(np.float32)
    folder.mkdir(parents=True, exist_ok=True)
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)


def _read_light(folder: Path) -> pd.DataFrame:
    """The light frame over the entry's arrays, memory-mapped: an open reads no event (copying
    ten million events' columns out of one file took 0.2-0.8 s of a server's first page); the
    pages a window touches are read when it does."""
    arrays = {
        name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
        for name in (*_LIGHT_ARRAYS, "category_names", "place_id_names")
    }
    columns = {col: arrays[col].view("datetime64[us]") for col in ("date", "end_date")}
    n = len(columns["date"])
    for col in ("category", "place_id"):
        codes, names = arrays[f"{col}_codes"], arrays[f"{col}_names"]
        if len(codes) != n:
            raise ValueError(f"{folder.name}: {col} has {len(codes)} rows, not {n}")
        # from_codes refuses a code outside the names (a ValueError as well).
        columns[col] = pd.Categorical.from_codes(codes, categories=pd.Index(names.tolist()))
    columns["killed"] = arrays["killed"]
    if len(columns["killed"]) != n or columns["killed"].dtype != np.float32:
        raise ValueError(f"{folder.name}: killed is not {n} float32 figures")
    if len(columns["end_date"]) != n:
        raise ValueError(f"{folder.name}: end_date has {len(columns['end_date'])} rows, not {n}")
    # copy=False: the columns stay the mapped arrays.
    return pd.DataFrame(columns, columns=list(LIGHT_COLUMNS), copy=False)


_LIGHT_ARRAYS = ("date", "end_date", "category_codes", "place_id_codes", "killed")


def open_store(
    path: str | Path,
    cache_dir: str | Path | None = None,
    *,
    basemap=BASEMAP,
    in_process: bool = False,
) -> EventStore:
    """The event store of the story at ``path``, built (and validated) first if needed."""
    path, root = Path(path), cache_root(cache_dir)
    key = known_source_key(path, root, basemap)
    entry = _entry(root, path, key)
    if not _complete(entry):
        if in_process:
            entry = build(path, root, key, basemap)
        else:
            _build_in_child(path, root, key, basemap)
        if not _complete(entry):
            raise StoryError(path, [Problem("events", "", "the checked copy was not written")])
    summary = json.loads((entry / "summary.json").read_text(encoding="utf-8"))
    return EventStore(entry, summary)


def open_story(
    path: str | Path, cache_dir: str | Path | None = None, *, basemap=BASEMAP, **kwargs
) -> Story:
    """``load_story`` for a small story; for a big one, a Story whose events stay on disk.

    Like ``load_story``, it raises StoryError and nothing else for whatever a folder holds.
    """
    try:
        return _open_story(path, cache_dir, basemap, kwargs)
    except StoryError:
        raise
    except (*READ_FAILURES, pa.ArrowException) as exc:
        raise unreadable(path, exc) from exc


def _open_story(path: str | Path, cache_dir, basemap, kwargs) -> Story:
    if not is_big(path):
        return load_story(path, basemap=basemap)
    store = open_store(path, cache_dir, basemap=basemap, **kwargs)
    try:
        checked = store.places()
    except (OSError, pa.ArrowException, KeyError):
        checked = None  # a damaged copy: places.csv is read and checked again
    story = load_story(path, basemap=basemap, with_events=False, checked_places=checked)
    # Python strings, not Arrow ones: pandas' Arrow isin() converts each of the values it is
    # given one by one (20,000 place ids: 150-350 ms per call on the map's every rerun).
    places = story.places.astype({"id": object})
    return replace(story, places=places, events=store.light_events(), store=store)


# What is worked out once per big story's map columns' frame (which is never changed), by what
# it is; an entry goes with its frame. Kept: the longest event (two passes over ten million
# dates took ~40 ms of every move) and the events through the last in-memory filter.
_KEPT: dict[int, tuple[weakref.ref, dict]] = {}
# One lock per kept value: the charts' thread counts the filter's rows while the map's thread
# is still taking its frame (under one lock, the charts waited for the whole take: ~0.1 s at
# ten million). Taking the frame asks for the rows, so "through" is locked before "rows".
_NARROWING = {"rows": threading.Lock(), "through": threading.Lock()}


def _kept(story: Story, what: str, make):
    """``make()``, kept as ``what`` for the frame ``story.events`` (one value per ``what``)."""
    events = story.events
    entry = _KEPT.get(id(events))
    if entry is None or entry[0]() is not events:
        key = id(events)
        entry = (weakref.ref(events, lambda _ref: _KEPT.pop(key, None)), {})
        _KEPT[key] = entry
    kept = entry[1]
    if what not in kept:
        kept[what] = make()
    return kept[what]


def _take(frame: pd.DataFrame, rows: np.ndarray, columns=None) -> pd.DataFrame:
    """``frame.take(rows)`` (of ``columns``, by default all), each column taken by NumPy (the
    light columns: dates, categoricals, floats): pandas' own take cost half as much again at
    ten million."""
    out = {}
    for name in frame.columns if columns is None else columns:
        col = frame[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            codes = col.cat.codes.to_numpy().take(rows)
            out[name] = pd.Categorical.from_codes(codes, dtype=col.dtype)
        elif isinstance(col.dtype, np.dtype):
            out[name] = col.to_numpy().take(rows)
        else:
            # An extension column: pandas knows how.
            return (frame if columns is None else frame[list(columns)]).take(rows)
    whole = frame.index.equals(pd.RangeIndex(len(frame)))  # labels are rows: no third take
    index = pd.Index(rows) if whole else frame.index.take(rows)
    return pd.DataFrame(out, index=index, copy=False)


def _longest(story: Story) -> pd.Timedelta:
    kept = getattr(story.store, "summary", {}).get("longest_us")
    if isinstance(kept, int) and kept >= 0:  # written with the cache entry
        return pd.Timedelta(microseconds=kept)
    return _kept(story, "longest", lambda: longest_span(story.events))


def _through_rows(story: Story, narrow: Narrow) -> np.ndarray:
    """The rows of the big story's events that pass ``narrow`` (killed and countries, in
    memory), kept for the last ``narrow``: the charts count them, the map takes them."""

    def rows() -> np.ndarray:
        return np.flatnonzero(narrow_mask(story.events, story.places, narrow))

    return _kept_for(story, "rows", narrow, rows)


def _through(story: Story, narrow: Narrow) -> pd.DataFrame:
    """The big story's events that pass ``narrow``, kept for the last ``narrow``: a filter's
    map and slider moves then slice it. Taking 2.3M of ten million rows costs ~60 ms, paid
    once a filter, not on every move."""

    def taken() -> pd.DataFrame:
        # Only the map's columns: the killed figures have done their part (a fifth of the copy).
        return _take(story.events, _through_rows(story, narrow), MAP_COLUMNS)

    return _kept_for(story, "through", narrow, taken)


def _kept_for(story: Story, what: str, narrow: Narrow, make):
    """``make()`` kept as ``what`` for the last ``narrow`` only, as one (narrow, value) pair
    replaced whole (sessions are threads): a frame can be hundreds of MB at ten million."""
    last = _kept(story, what, dict)
    got = last.get("pair")
    if got is None or got[0] != narrow:
        # The map and the timeline's thread ask for the same filter at once: worked out once.
        with _NARROWING[what]:
            got = last.get("pair")
            if got is None or got[0] != narrow:
                got = (narrow, make())
                last["pair"] = got
    return got[1]


def _unless_all(store, categories: list[str] | None) -> list[str] | None:
    """``categories``, or None when every category of ``store`` is chosen: the window is then
    a slice, not a copy."""
    if categories is not None and set(store.categories) <= set(categories):
        return None
    return categories


def story_window(
    story: Story,
    start: date,
    end: date,
    categories: Iterable[str] | None = None,
    actors: Iterable[str] | None = None,
    *,
    full_upto: int = 0,
) -> pd.DataFrame:
    """The window's events: all columns for a small story or a window of up to ``full_upto``
    events, else only MAP_COLUMNS (a big window is drawn as counts, never listed whole).

    A big story's map columns are in memory (``story.events``): without an actor filter the
    window is sliced from them; actors are on disk only, so that filter reads the store.
    """
    if story.store is None:
        return filter_events(story.events, start, end, categories, actors)
    store: EventStore = story.store
    cats = None if categories is None else list(categories)
    acts = list(actors) if actors else None
    if acts is None:
        cats = _unless_all(store, cats)
        out = filter_events(story.events, start, end, cats, longest=_longest(story))
    else:
        out = store.window(start, end, cats, acts, columns=MAP_COLUMNS)
    if len(out) <= full_upto:
        out = store.window(start, end, cats, acts)
    return out


def narrowed_window(
    story, start: date, end: date, categories=None, actors=None, narrow=None, *, full_upto=0
) -> pd.DataFrame:
    """``story_window`` through ``narrow``: filtered with pandas for a small story, in the
    store's SQL for a big one (only MAP_COLUMNS unless the window has up to ``full_upto``).

    A big story's killed and countries filters are applied to its columns in memory, as a
    small story's are: a query reading the window's rows back took seconds at ten million.
    """
    if narrow is None:
        return story_window(story, start, end, categories, actors, full_upto=full_upto)
    if story.store is None:
        return narrow_events(
            filter_events(story.events, start, end, categories, actors), story.places, narrow
        )
    cats = None if categories is None else list(categories)
    acts = list(actors) if actors else None
    if acts is None and _in_memory(story, narrow):
        cats = _unless_all(story.store, cats)
        out = filter_events(_through(story, narrow), start, end, cats, longest=_longest(story))
    else:
        out = story.store.window(start, end, cats, acts, columns=MAP_COLUMNS, narrow=narrow)
    if len(out) <= full_upto:
        out = story.store.window(start, end, cats, acts, narrow=narrow)
    return out


def _whole_per_day(story: Story, start: date, end: date, narrow: Narrow) -> pd.DataFrame:
    """``events_per_day`` of the whole big story through ``narrow``: each event's day cell is
    kept per story (int32, 40 MB at ten million), so a filter counts its kept rows' cells
    (~10 ms), not their dates and categories taken and divided again (~50 ms)."""

    def cells() -> tuple[np.ndarray, list[str]] | None:
        found, names = day_cells(story.events, start, end)
        # Only when every event has its cell (the whole story's span: one per event, in order).
        return (found.astype(np.int32), names) if len(found) == len(story.events) else None

    rows = _through_rows(story, narrow)
    kept = _kept(story, f"day cells {start} {end}", cells)
    if kept is None:
        return events_per_day(story.events, start, end, rows)
    days = pd.date_range(_ts(start), _ts(end), freq="D")
    if not len(rows):
        return pd.DataFrame(index=days)
    found, names = kept
    flat = np.bincount(found.take(rows), minlength=len(days) * len(names))
    return per_day_table(flat, days, names)


def _in_memory(story: Story, narrow: Narrow) -> bool:
    """Whether ``narrow`` filters only what a big story keeps in memory (the killed figures,
    and the countries of its places)."""
    rest = replace(narrow, killed=None, countries=None)
    return "killed" in story.events and rest == Narrow()


def narrowed_per_period(
    story, start: date, end: date, period: str, categories=None, actors=None, narrow=None
) -> pd.DataFrame:
    """``events_per_period`` of the window through ``narrow``: with pandas for a small story or
    for a big one filtered only by what it keeps in memory (its map columns, killed figures
    and places' countries), else counted in the store's SQL (a GROUP BY: the filtered events
    are never loaded). The GROUP BY over ten million events took 0.5 s of a filter change."""
    if story.store is not None and not actors and narrow and _in_memory(story, narrow):
        # Counted through the filter's mask: the charts need no copy of the filtered events
        # (the map's copy is taken meanwhile, in the other thread).
        events = story_window(story, start, end, categories)
        if len(events) == len(story.events):  # the whole story: the filter's rows are kept
            return per_period(_whole_per_day(story, start, end, narrow), period)
        rows = np.flatnonzero(narrow_mask(events, story.places, narrow))
        return per_period(events_per_day(events, start, end, rows), period)
    if story.store is None or (not actors and narrow is None):
        events = narrowed_window(story, start, end, categories, actors, narrow)
        return events_per_period(events, start, end, period)
    cats = None if categories is None else list(categories)
    acts = list(actors) if actors else None
    table = story.store.counts_per_day(start, end, cats, acts, narrow=narrow)
    return per_period(table, period)


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
