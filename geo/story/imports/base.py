"""Reading a dataset export within bounds, and the rows' problems located by file and line.

An export comes from anyone (an upload, a shared drive), so it is bounded before the CSV parser
sees it: its size from the file's status and again while reading, its text as UTF-8 (a bad byte
is reported with its line), each field's length (``csv.field_size_limit``), the number of rows
and the time spent. Every problem goes into a capped :class:`Problems` list as the story loader
keeps them; any problem refuses the whole export (nothing is written).
"""

from __future__ import annotations

import csv
import functools
import io
import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from geo.names import clip, plural
from geo.story.load.problems import Problems, StoryError
from geo.story.load.schema import MAX_FIGURE
from geo.story.model import Problem


@dataclass(frozen=True)
class Bounds:
    """How much of an export is read: bytes, data rows, characters a field, seconds."""

    # ACLED's whole Middle East since 2016 is about 300 MB; a story covers one conflict or
    # region, and 100,000 ACLED rows are about 60 MB.
    max_bytes: int = 200_000_000
    # The story loader takes at most 5,000,000 rows from a folder; an import is one pass of
    # Python per row (about 20 µs), so a million rows is under a minute.
    max_rows: int = 1_000_000
    # ACLED's longest notes and UCDP's source_article run to a few thousand characters; a field
    # of megabytes is a payload, not a note.
    max_field: int = 20_000
    max_seconds: float = 300.0


CLI_BOUNDS = Bounds()
# The page's upload: Streamlit holds it in memory, and a reader waits for the answer.
UPLOAD_BOUNDS = Bounds(max_bytes=20 * 2**20, max_rows=100_000, max_seconds=60.0)
# Problems kept for the export file (the rest counted), as the loader keeps them per file.
PROBLEMS_KEPT = 200
# csv.field_size_limit is process-wide: readers in the server's threads take turns.
_FIELD_LIMIT_LOCK = threading.Lock()


class ExportError(StoryError):
    """An export refused: ``problems`` says where (file and line); nothing was written."""

    def __init__(self, path: Path | str, problems: list[Problem]):
        super().__init__(path, problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        self.args = (
            f"{plural(len(self.problems), 'problem')} in export {self.path}; "
            f"nothing imported:\n{lines}",
        )

    def __str__(self) -> str:
        return self.args[0]


class Rows:
    """One export's problems and the line each row started on."""

    def __init__(self, name: str):
        self.name = name
        self.problems = Problems(per_file=PROBLEMS_KEPT)
        self.line = 0
        self.count = 0  # every problem found, kept or not

    def add(self, message: str, line: int | None = None) -> None:
        """A problem at ``line`` (default: the row being read; 0 for the whole file)."""
        at = self.line if line is None else line
        self.count += 1
        self.problems.append(Problem(self.name, f"line {at}" if at else "", message))

    def refuse(self, path: Path | str) -> None:
        """Raise ExportError when any problem was found."""
        if self.problems:
            raise ExportError(path, self.problems)


@contextmanager
def _field_limit(limit: int):
    with _FIELD_LIMIT_LOCK:
        old = csv.field_size_limit(limit)
        try:
            yield
        finally:
            csv.field_size_limit(old)


def read_bytes(source: Path | bytes, bounds: Bounds, rows: Rows) -> bytes | None:
    """The export's bytes, refused (None, with a problem) above ``bounds.max_bytes``."""
    most = bounds.max_bytes
    too_big = f"is larger than {most / 1e6:g} MB; split the export (by date or country)"
    if isinstance(source, bytes):
        data = source
    else:
        try:
            if os.stat(source).st_size > most:
                rows.add(too_big, 0)
                return None
            with open(source, "rb") as fh:
                data = fh.read(most + 1)  # the file may have grown since stat()
        except OSError as exc:
            rows.add(f"cannot be read: {exc.strerror or exc}", 0)
            return None
    if len(data) > most:
        rows.add(too_big, 0)
        return None
    return data


def decode(data: bytes, rows: Rows) -> str | None:
    """UTF-8 text (a leading byte-order mark dropped); a bad byte is reported with its line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1].hex()
        rows.add(
            f"is not UTF-8 text: byte 0x{byte} cannot be read (save the export as UTF-8)", line
        )
        return None
    # Python's csv reads NUL as a character; in an export it means a binary file.
    if (nul := text.find("\x00")) >= 0:
        rows.add("holds a NUL byte: a binary file, not a CSV export", text.count("\n", 0, nul) + 1)
        return None
    return text


def records(
    text: str, rows: Rows, bounds: Bounds, *, delimiter: str = ",", quoted: bool = True
) -> Iterator[list[str]]:
    """The export's records, ``rows.line`` set to each one's first line; stops (with a
    problem) at a field beyond ``bounds.max_field``, a NUL byte, more than ``bounds.max_rows``
    data rows or ``bounds.max_seconds``."""
    deadline = time.monotonic() + bounds.max_seconds
    quoting = csv.QUOTE_MINIMAL if quoted else csv.QUOTE_NONE
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quoting=quoting)
    with _field_limit(bounds.max_field):
        n = 0
        while True:
            rows.line = reader.line_num + 1
            try:
                record = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                rows.add(f"cannot be read as CSV: {_csv_reason(exc, bounds)}")
                return
            n += 1
            if n > bounds.max_rows + 1:  # the header (or the first row) is not counted
                rows.add(f"has more than {bounds.max_rows:,} rows; split the export", 0)
                return
            if n % 1000 == 0 and time.monotonic() > deadline:
                rows.add(f"took more than {bounds.max_seconds:g} s to read; split the export")
                return
            if record:  # a blank line
                yield record


def _csv_reason(exc: csv.Error, bounds: Bounds) -> str:
    text = str(exc)
    if "field larger than field limit" in text:
        return f"a field is longer than {bounds.max_field:,} characters"
    return clip(text, 120)


# --- cell parsers: a value, or None with the row's problem reported -------------------------


def whole(rows: Rows, column: str, value: str, lo: int = 0, hi: int = MAX_FIGURE) -> int | None:
    """A whole number from ``lo`` to ``hi``; ``value`` "" is reported as missing."""
    text = value.strip()
    if not text:
        rows.add(f"{column} is empty")
        return None
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 12:
        rows.add(f"{column} {clip(text)!r} is not a whole number")
        return None
    number = int(text)
    if not lo <= number <= hi:
        rows.add(f"{column} {number} is not between {lo} and {hi:,}")
        return None
    return number


def degrees(rows: Rows, column: str, value: str, most: float) -> float | None:
    """A latitude (``most`` 90) or longitude (180) in decimal degrees."""
    text = value.strip()
    try:
        number = float(text) if text.isascii() and len(text) <= 30 else math.nan
    except ValueError:
        number = math.nan
    if not text:
        rows.add(f"{column} is empty")
        return None
    if not math.isfinite(number):
        rows.add(f"{column} {clip(text)!r} is not a number")
        return None
    if not -most <= number <= most:
        rows.add(f"{column} {number:g} is outside -{most:g}..{most:g}")
        return None
    return number


def day(rows: Rows, column: str, value: str, formats: tuple[str, ...]) -> date | None:
    """A date in one of ``formats`` (strptime), between 1800 and 2200 as a story's span."""
    text = value.strip()
    parsed = _parsed_day(text[:40], formats)
    if parsed is None:
        shown = " or ".join(_shown(f) for f in formats)
        rows.add(f"{column} {clip(text)!r} is not a date ({shown})")
    elif not 1800 <= parsed.year <= 2200:
        rows.add(f"{column} {text} is not between 1800 and 2200")
        return None
    return parsed


@functools.lru_cache(maxsize=20_000)
def _parsed_day(text: str, formats: tuple[str, ...]) -> date | None:
    """strptime costs 60 µs; an export repeats its days thousands of times."""
    for fmt in formats:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _shown(fmt: str) -> str:
    for code, shown in (("%Y", "YYYY"), ("%m", "MM"), ("%d", "DD"), ("%B", "Month")):
        fmt = fmt.replace(code, shown)
    return fmt.replace("%H", "hh").replace("%M", "mm").replace("%S", "ss").replace("%f", "fff")


def header(rows: Rows, found: list[str], expected: tuple[str, ...], dataset: str) -> bool:
    """Whether the first line names exactly ``expected`` in order; else a problem at line 1."""
    names = [c.strip() for c in found]
    if names == list(expected):
        return True
    missing = [c for c in expected if c not in names]
    unknown = [c for c in names if c not in expected]
    said = []
    if missing:
        said.append("missing " + ", ".join(clip(c) for c in missing[:8]))
    if unknown:
        said.append("unexpected " + ", ".join(clip(c) for c in unknown[:8]))
    if not said:
        said.append("the columns are in another order")
    rows.add(
        f"is not {dataset}'s layout ({'; '.join(said)}); expected the {len(expected)} columns "
        f"{', '.join(expected[:4])}, …",
        1,
    )
    return False


def width(rows: Rows, record: list[str], expected: int) -> bool:
    """Whether a row has ``expected`` fields; else a problem at its line."""
    if len(record) == expected:
        return True
    rows.add(f"has {len(record)} field{'' if len(record) == 1 else 's'}; expected {expected}")
    return False
