"""The column checks every table shares: reading a CSV or Parquet, ids, dates, numbers, refs."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from geo.names import SLUG, clip, noun
from geo.story.load.problems import Checker
from geo.story.load.schema import FOLDER_LIMITS, Limits

# What reading a table can raise for a broken file (its problem, not a crash).
CSV_FAILURES = (UnicodeDecodeError, pd.errors.ParserError, ValueError, OSError)
# Every cell as the text in the file (a BOM dropped): the checks parse it themselves.
CSV_TEXT = {"dtype": str, "keep_default_na": False, "encoding": "utf-8-sig"}


def _parquet_too_big(path: Path, limits: Limits) -> str | None:
    """Why a Parquet file must not be read, from its footer alone; None when it may be."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    if meta.num_rows > limits.max_rows:
        return f"has {meta.num_rows:,} rows; at most {limits.max_rows:,} can be loaded"
    if size > limits.max_parquet_bytes:
        return f"unpacks to {size / 1e6:,.0f} MB; at most {limits.max_parquet_bytes / 1e6:,.0f} MB"
    return None


def read_csv(
    path: Path,
    columns: tuple[str, ...],
    required: set[str],
    chk: Checker,
    limits: Limits = FOLDER_LIMITS,
):
    """Read a CSV (or Parquet) as strings; report missing and unknown columns."""
    try:
        if path.suffix == ".parquet":
            if reason := _parquet_too_big(path, limits):
                chk.add("", reason)
                return None
            df = parquet_text(pd.read_parquet(path), columns)
        else:
            df = pd.read_csv(path, **CSV_TEXT, nrows=limits.max_rows + 1)
            if len(df) > limits.max_rows:
                chk.add("", f"has more than {limits.max_rows:,} rows")
                return None
    except FileNotFoundError:
        chk.add("", "file is missing")
        return None
    except CSV_FAILURES as exc:
        chk.add("", f"cannot be read: {exc}")
        return None
    return conform(df, columns, required, chk)


def conform(df: pd.DataFrame, columns: tuple[str, ...], required: set[str], chk: Checker):
    """``df`` (text cells) with its header checked: missing and unknown columns reported, the
    known ones in order and stripped; None when a required column is missing.

    The chunked check (geo.story.load.chunked) runs it on each chunk of a big file."""
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in columns if c in required and c not in df.columns]
    unknown = [c for c in df.columns if c not in columns]
    if missing:
        chk.add("line 1", f"missing required {noun(len(missing), 'column')}: {', '.join(missing)}")
    if unknown:
        listed = ", ".join(clip(c) for c in unknown[:5]) + (" …" if len(unknown) > 5 else "")
        cols = noun(len(unknown), "column")
        chk.add("line 1", f"unknown {cols}: {listed} (expected {', '.join(columns)})")
    if missing:
        return None
    for c in columns:
        if c not in df.columns:
            df[c] = ""
    df = df[list(columns)].copy()
    for c in columns:
        df[c] = df[c].astype(str).str.strip()
    return df


def parquet_text(df: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """A frame read from Parquet as the text a CSV would give (the known columns)."""
    df = df.astype({c: "string" for c in df.columns if c in columns})
    return df.fillna("")


def required_cells(df: pd.DataFrame, cols: list[str], chk: Checker) -> None:
    """Every cell of ``cols`` must be filled."""
    for c in cols:
        chk.rows(df[c] == "", lambda _i, c=c: f"{c} is empty")


def slug_ids(df: pd.DataFrame, chk: Checker) -> None:
    """Ids are slugs, each used once."""
    bad = (df["id"] != "") & ~df["id"].str.fullmatch(SLUG)
    chk.rows(bad, lambda i: f"id {df.at[i, 'id']!r} must be lowercase letters, digits and '-'")
    # The checker finds them: a chunked check sees one chunk, and asks all of them at the end.
    dup = (df["id"] != "") & chk.duplicated(df["id"])
    chk.rows(dup, lambda i: used_twice(df.at[i, "id"]))


def used_twice(value: str) -> str:
    """The problem of an id that an earlier row has already."""
    return f"id {value!r} is used twice"


def parse_dates(df: pd.DataFrame, col: str, chk: Checker, span: tuple[date, date] | None):
    """Column ``col`` as datetimes (NaT where empty or bad), checked against ``span``."""
    raw = df[col]
    parsed = pd.to_datetime(raw, format="%Y-%m-%d", errors="coerce")
    bad = (raw != "") & parsed.isna()
    chk.rows(bad, lambda i: f"{col} {raw[i]!r} is not a date (YYYY-MM-DD)")
    if span is not None:
        lo, hi = pd.Timestamp(span[0]), pd.Timestamp(span[1])
        out = parsed.notna() & ((parsed < lo) | (parsed > hi))
        chk.rows(out, lambda i: f"{col} {raw[i]} is outside the story's span {span[0]}..{span[1]}")
    return parsed


def parse_numbers(df: pd.DataFrame, col: str, chk: Checker, lo=None, hi=None, integer=False):
    """Column ``col`` as finite numbers from ``lo`` to ``hi`` (Int64 or Float64; NA if bad)."""
    raw = df[col]
    num = pd.to_numeric(raw.str.replace(",", "", regex=False), errors="coerce")
    # "inf", "nan" and "1e999" parse as floats that are no figure: refused like any other text.
    num = num.where(np.isfinite(num.astype("float64")))
    bad = (raw != "") & num.isna()
    chk.rows(bad, lambda i: f"{col} {raw[i]!r} is not a number")
    if integer:
        frac = num.notna() & (num.round() != num)
        chk.rows(frac, lambda i: f"{col} {raw[i]!r} is not a whole number")
    if lo is not None:
        chk.rows(num < lo, lambda i: f"{col} {raw[i]} is below {lo}")
    if hi is not None:
        chk.rows(num > hi, lambda i: f"{col} {raw[i]} is above {hi}")
    if integer:
        # Beyond 2**53 a float is no exact whole number, and past int64 the cast is garbage.
        exact = (num.round() == num) & (num.abs() <= 2**53)
        return num.where(exact).astype("Int64")
    return num.astype("Float64")


def one_of(df: pd.DataFrame, col: str, allowed: tuple[str, ...], chk: Checker) -> None:
    """Each filled cell of ``col`` is one of ``allowed``."""
    bad = (df[col] != "") & ~df[col].isin(allowed)
    chk.rows(bad, lambda i: f"{col} {df.at[i, col]!r} is not one of {', '.join(allowed)}")


def short_names(df: pd.DataFrame, col: str, most: int, chk: Checker) -> None:
    """Each cell of ``col`` is a name of at most ``most`` characters on one line (no control
    characters) without ``|``: the sidebar lists them, and a link separates them with ``|``."""
    cells = df[col].astype(object)
    long = cells.str.len() > most
    chk.rows(long, lambda i: f"{col} has {len(cells[i]):,} characters; at most {most:,}")
    control = ~long & cells.str.contains(r"[\x00-\x1f\x7f]", regex=True)
    chk.rows(control, lambda _i: f"{col} holds a control character (a tab, a line break)")
    bar = ~long & ~control & cells.str.contains("|", regex=False)
    chk.rows(bar, lambda _i: f"{col} holds a '|' (links separate names with it): use '/'")


def refs(df, col: str, known: set[str], what: str, chk: Checker, many: bool = False) -> None:
    """Each filled cell of ``col`` names a ``known`` id (with ``many``, each of its ids)."""
    if many:  # "reuters|ap": every id must be known
        bad = df[col].map(lambda v: bool(v) and not set(v.split("|")) <= known)
    else:
        # As Python strings: Arrow-backed isin() converts each known id to an Arrow scalar on
        # every call (20,000 place ids: 0.3 s per 200,000 rows, against 0.08 s).
        bad = (df[col] != "") & ~df[col].astype(object).isin(known)
    chk.rows(bad, lambda i: f"{col} {df.at[i, col]!r} is not a known {what}")


def row_checks(df, required: set[str], place_ids: set[str], source_ids: set[str], chk) -> None:
    """What events and convoy rows share: required cells, ids, place and source references."""
    required_cells(df, sorted(required), chk)
    slug_ids(df, chk)
    refs(df, "place_id", place_ids, "place (places.csv id)", chk)
    # A happening two reports give cites both.
    refs(df, "source", source_ids, "source (story.toml [[sources]] id)", chk, many=True)


def split_list(s: pd.Series) -> pd.Series:
    """ "a|b" cells as lists of their stripped parts (an empty cell: an empty list)."""
    return s.map(lambda v: [x.strip() for x in v.split("|") if x.strip()] if v else [])


def is_number(value: object) -> bool:
    """A finite int or float, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
