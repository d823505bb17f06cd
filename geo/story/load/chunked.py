"""A big story's events checked a chunk at a time: memory follows the chunk, not the file.

``ChunkedEvents`` stands in for ``load_events`` (``load_story(events_loader=...)``): it reads
events.csv or events.parquet ``chunk_rows`` rows at a time, runs the loader's own checks on each
chunk (``conform`` and ``check_events``, in worker processes when asked) with a
``ChunkedChecker`` per chunk, merges their hits in file order, and writes each checked chunk to
a staged Parquet file. Duplicate ids, the one check across rows, are asked of DuckDB over those
files at the end. The problems are the ones the whole-file loader reports: same lines, same
order, same caps.

Workers are spawned (not forked), so a script that builds in-process with workers needs the
usual ``if __name__ == "__main__":`` guard (the build child, ``python -m
geo.story.events_store``, has it). A Parquet file is read a row group at a time by Arrow: the
source's row-group size, not the story's size, bounds that part of the memory.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from geo.errors import DatelineError
from geo.names import plural
from geo.story.load.columns import (
    CSV_FAILURES,
    CSV_TEXT,
    _parquet_too_big,
    conform,
    parquet_text,
    used_twice,
)
from geo.story.load.problems import Checker, Problems
from geo.story.load.schema import EVENT_COLUMNS, PROBLEMS_PER_FILE, ROWS_PER_CHECK, Limits
from geo.story.load.tables import EVENT_REQUIRED, check_events, empty_events, events_file

# A chunk of events as text and parsed costs ~1 KB an event while it is checked: ~250 MB.
# Each chunk has a fixed cost too (the checks' set-ups): fewer, bigger chunks are faster.
CHUNK_ROWS = 250_000
LINE = "_line"  # the staged rows' 0-based row in the file (line = row + 2)


class StagingError(DatelineError):
    """Writing the staged copy failed (``error``, an OSError): not one of READ_FAILURES, so it
    is not reported as the story's problem; the build raises ``error`` itself."""

    @property
    def error(self) -> OSError:
        return self.args[0]


@dataclass
class _Slot:
    """One check's hits over every chunk: the first few kept, all counted."""

    rows: bool  # a Checker.rows check (capped with a "more lines like" line), or loose adds
    kept: list[tuple[str, str]] = field(default_factory=list)
    count: int = 0


class ChunkedChecker(Checker):
    """A Checker fed one chunk at a time; ``flush`` writes what Checker would have, in order.

    Each chunk runs the same checks in the same order, so the n-th ``rows`` call of every chunk
    is the same check: its hits go to slot (n, 1); a problem added before it goes to (n, 0).
    """

    def __init__(self, file: str, problems: list, first_line: int = 2):
        super().__init__(file, problems, first_line)
        self.slots: dict[tuple[int, int], _Slot] = {}
        self.calls = 0
        self.duplicates: tuple[int, int] | None = None

    def start_chunk(self) -> None:
        self.calls = 0

    def add(self, where: str, message: str) -> None:
        slot = self.slots.setdefault((self.calls, 0), _Slot(rows=False))
        slot.count += 1
        if len(slot.kept) < PROBLEMS_PER_FILE:  # the file keeps no more
            slot.kept.append((where, message))

    def duplicated(self, values: pd.Series) -> pd.Series:
        # Asked of every chunk at the end (duplicate_ids): the next rows() call is that check.
        self.duplicates = (self.calls, 1)
        return pd.Series(False, index=values.index)

    def rows(self, mask: pd.Series, message) -> None:
        slot = self.slots.setdefault((self.calls, 1), _Slot(rows=True))
        self.calls += 1
        hits = mask[mask.fillna(False).astype(bool)].index
        for idx in hits[: max(0, ROWS_PER_CHECK - len(slot.kept))]:
            slot.kept.append((f"line {int(idx) + self.first_line}", message(idx)))
        slot.count += len(hits)

    def merge(self, slots: dict, duplicates: tuple[int, int] | None) -> None:
        """Add one chunk's slots (checked apart, maybe in another process), in file order."""
        for key, part in slots.items():
            slot = self.slots.setdefault(key, _Slot(rows=part.rows))
            room = (ROWS_PER_CHECK if slot.rows else PROBLEMS_PER_FILE) - len(slot.kept)
            slot.kept.extend(part.kept[: max(0, room)])
            slot.count += part.count
        self.duplicates = duplicates or self.duplicates

    def flush(self) -> None:
        """Report every slot's problems as Checker would have, in the checks' order."""
        for key in sorted(self.slots):
            slot = self.slots[key]
            for where, message in slot.kept:
                super().add(where, message)
            more = slot.count - len(slot.kept)
            if slot.rows and more > 0:
                first = slot.kept[0][1]
                super().add("", f"{plural(more, 'more line')} like: {first[:120]}")
                self.count += more - 1
            elif more > 0:  # loose problems past the file's cap: counted as Problems does
                self.count += more
                if isinstance(self.problems, Problems):
                    dropped = self.problems.dropped
                    dropped[self.file] = dropped.get(self.file, 0) + more
        self.slots.clear()


class ChunkedEvents:
    """``load_events`` for a big story: checks chunk by chunk (in ``workers`` processes when
    more than one), stages each chunk's checked rows as a Parquet file under ``staged`` (a
    folder; rows in file order, with their ``_line``) and returns an empty events table when
    all is well. ``duckdb_config`` bounds the duplicate-id query."""

    def __init__(
        self, staged: Path, duckdb_config: dict, chunk_rows: int = CHUNK_ROWS, workers: int = 1
    ):
        self.staged = Path(staged)
        self.config = duckdb_config
        self.chunk_rows = max(1, int(chunk_rows))
        self.workers = max(1, int(workers))

    @property
    def parts(self) -> str:
        """The staged files, as a glob DuckDB reads."""
        return str(self.staged / "part-*.parquet")

    def __call__(self, path: Path, problems, span, place_ids, source_ids, limits: Limits):
        file = events_file(path)
        chk = ChunkedChecker(file.name, problems)
        try:
            ok = self._check(file, chk, (span, place_ids, source_ids), limits)
        except FileNotFoundError:
            ok = _unread(chk, "file is missing")
        except (*CSV_FAILURES, pa.ArrowException) as exc:
            ok = _unread(chk, f"cannot be read: {exc}")
        if ok and chk.duplicates is not None:
            self._duplicate_ids(chk)
        chk.flush()
        return empty_events() if ok else None

    def _check(self, file: Path, chk: ChunkedChecker, refs, limits: Limits) -> bool:
        """Check every chunk; False when the file cannot be read (its one problem reported)."""
        self.staged.mkdir(parents=True, exist_ok=True)
        chunks = _chunks(file, self.chunk_rows, limits, chk)
        tasks = (
            (i, raw, chk.file, refs, self.staged / f"part-{i:06d}.parquet")
            for i, raw in enumerate(chunks)
        )
        with contextlib.ExitStack() as stack:
            run = map
            if self.workers > 1:
                spawn = multiprocessing.get_context("spawn")  # no fork of Arrow's threads
                pool = stack.enter_context(ProcessPoolExecutor(self.workers, mp_context=spawn))
                run = functools.partial(_in_order, pool, ahead=self.workers + 1)
            for result in run(_check_chunk, tasks):
                if result is None:  # the reader refused the file: that is its one problem
                    chk.slots.clear()
                    chk.duplicates = None
                    return False
                slots, duplicates, ok = result
                chk.merge(slots, duplicates)
                if not ok:  # a required column is missing: the header's problems only
                    return False
        return True

    def _duplicate_ids(self, chk: ChunkedChecker) -> None:
        """Fill the duplicate-id check's slot from the whole staged file (DuckDB may spill)."""
        if not any(self.staged.glob("part-*.parquet")):
            return
        sql = f"""WITH firsts AS (
            SELECT id, min({LINE}) AS first, count(*) - 1 AS more FROM read_parquet(?)
            WHERE id <> '' GROUP BY id HAVING count(*) > 1)
        SELECT s.{LINE}, s.id, (SELECT sum(more) FROM firsts) FROM read_parquet(?) s
        JOIN firsts f ON s.id = f.id AND s.{LINE} > f.first ORDER BY s.{LINE} LIMIT ?"""
        with duckdb.connect(config=self.config) as con:
            found = con.execute(sql, [self.parts] * 2 + [ROWS_PER_CHECK]).fetchall()
        slot = chk.slots.setdefault(chk.duplicates, _Slot(rows=True))
        slot.kept = [(f"line {int(n) + chk.first_line}", used_twice(v)) for n, v, _ in found]
        slot.count = int(found[0][2]) if found else 0


def _in_order(pool: ProcessPoolExecutor, fn, tasks, ahead: int):
    """``map(fn, tasks)`` on the pool, in order, with at most ``ahead`` chunks in flight (each
    holds a chunk in memory)."""
    pending: deque = deque()
    for task in tasks:
        if task[1] is None:  # the reader's own refusal: no more chunks
            yield from (f.result() for f in pending)
            yield None
            return
        pending.append(pool.submit(fn, task))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _check_chunk(task) -> tuple[dict, tuple[int, int] | None, bool] | None:
    """Check one chunk (in a worker process, or in this one) and stage its rows: the chunk's
    slots, its duplicate check's key and whether the header was usable; None when the reader
    refused the file."""
    index, raw, file_name, refs, part = task
    if raw is None:
        return None
    start, data = raw
    df = data if isinstance(data, pd.DataFrame) else parquet_text(data.to_pandas(), EVENT_COLUMNS)
    df.index = pd.RangeIndex(start, start + len(df))
    chk = ChunkedChecker(file_name, [])
    head = chk if index == 0 else Checker(file_name, [])  # the header's problems once
    df = conform(df, EVENT_COLUMNS, EVENT_REQUIRED, head)
    if df is None:
        return chk.slots, None, False
    out = check_events(df, chk, *refs)
    out[LINE] = out.index.to_numpy()
    out["actors"] = out["actors"].astype(object)  # lists, even of no rows
    table = pa.Table.from_pandas(out, _staged_schema(out), preserve_index=False)
    try:
        pq.write_table(table, part)
    except OSError as exc:  # a full disk is the cache's failure, not a problem of the story
        raise StagingError(exc) from exc
    return chk.slots, chk.duplicates, True


def _unread(chk: ChunkedChecker, message: str) -> bool:
    """A file that cannot be read has that one problem, as in the whole-file loader."""
    chk.slots.clear()
    chk.duplicates = None
    Checker.add(chk, "", message)
    return False


def _staged_schema(first: pd.DataFrame) -> pa.Schema:
    """The first chunk's schema, with actors as lists of text and dates in microseconds even
    when that chunk has none (pandas makes a column of no dates one of seconds)."""
    schema = pa.Schema.from_pandas(first, preserve_index=False)
    for name, kind in (
        ("actors", pa.list_(pa.string())),
        ("date", pa.timestamp("us")),
        ("end_date", pa.timestamp("us")),
    ):
        schema = schema.set(schema.get_field_index(name), pa.field(name, kind))
    return schema


def _chunks(file: Path, rows: int, limits: Limits, chk: Checker) -> Iterator[tuple | None]:
    """The file's rows, ``rows`` at a time, each with its first row's number: a frame of text
    (CSV) or an Arrow table (Parquet, made text where it is checked); a None after reporting a
    file that is too big (the whole-file loader's words)."""
    start = 0
    if file.suffix == ".parquet":
        if reason := _parquet_too_big(file, limits):
            _unread(chk, reason)
            yield None
            return
        pf = pq.ParquetFile(file)
        for batch in pf.iter_batches(batch_size=rows):
            yield start, pa.Table.from_batches([batch], pf.schema_arrow)
            start += batch.num_rows
        if start == 0:  # no rows: the header is checked all the same
            yield 0, pf.schema_arrow.empty_table()
        return
    with pd.read_csv(file, **CSV_TEXT, chunksize=rows) as reader:
        for df in reader:
            if start + len(df) > limits.max_rows:
                _unread(chk, f"has more than {limits.max_rows:,} rows")
                yield None
                return
            yield start, df
            start += len(df)
