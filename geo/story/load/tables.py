"""places.csv, events (CSV or Parquet) and convoy.csv: each read and its columns checked."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from geo.story import checks
from geo.story.load.columns import (
    one_of,
    parse_dates,
    parse_numbers,
    read_csv,
    required_cells,
    row_checks,
    short_names,
    slug_ids,
    split_list,
)
from geo.story.load.problems import Checker
from geo.story.load.schema import (
    CATEGORIES,
    CONFIDENCE,
    CONVOY_COLUMNS,
    CONVOY_STATUS,
    EVENT_COLUMNS,
    FIGURES,
    FOLDER_LIMITS,
    MAX_AREA_KM2,
    MAX_CONVOY_ROWS,
    MAX_FIGURE,
    MAX_NAME,
    PLACE_COLUMNS,
    PLACE_KINDS,
    Limits,
)
from geo.story.model import Problem

EVENT_REQUIRED = frozenset(
    {"id", "date", "place_id", "category", "summary", "source", "confidence"}
)


def load_places(path: Path, problems: list[Problem]) -> pd.DataFrame | None:
    """places.csv with numbers parsed and aliases split; None when it cannot be read."""
    chk = Checker("places.csv", problems)
    required = {"id", "name", "kind", "country", "lat", "lon", "radius_m", "coord_source"}
    df = read_csv(path / "places.csv", PLACE_COLUMNS, required, chk)
    if df is None:
        return None
    required_cells(df, sorted(required), chk)
    slug_ids(df, chk)
    one_of(df, "kind", PLACE_KINDS, chk)
    bad_cc = (df["country"] != "") & ~df["country"].str.fullmatch(r"[A-Z]{2}(\|[A-Z]{2})*")
    chk.rows(
        bad_cc, lambda i: f"country {df.at[i, 'country']!r} is not ISO alpha-2 (LB, SY, LB|SY)"
    )
    short_names(df, "admin1", MAX_NAME, chk)
    out = df.copy()
    out["lat"] = parse_numbers(df, "lat", chk, -90, 90)
    out["lon"] = parse_numbers(df, "lon", chk, -180, 180)
    out["radius_m"] = parse_numbers(df, "radius_m", chk, 0, 20_000_000, integer=True)
    # GeoNames ids are below 20 million today; ten billion leaves room and fits any integer type.
    out["geonames_id"] = parse_numbers(df, "geonames_id", chk, 1, 10_000_000_000, integer=True)
    out["aliases"] = split_list(df["aliases"])
    return out


def load_events(
    path: Path, problems, span, place_ids, source_ids, limits: Limits = FOLDER_LIMITS
) -> pd.DataFrame | None:
    """events.parquet, else events.csv, with dates and figures parsed; None when unreadable."""
    file = events_file(path)
    chk = Checker(file.name, problems)
    df = read_csv(file, EVENT_COLUMNS, EVENT_REQUIRED, chk, limits)
    if df is None:
        return None
    return check_events(df, chk, span, place_ids, source_ids)


def events_file(path: Path) -> Path:
    """The story's events: events.parquet, else events.csv."""
    file = path / "events.parquet"
    return file if file.exists() else path / "events.csv"


def check_events(df: pd.DataFrame, chk: Checker, span, place_ids, source_ids) -> pd.DataFrame:
    """Events read as text (``read_csv``), checked row by row: dates and figures parsed.

    The chunked check (geo.story.load.chunked) calls it on each chunk of a big file."""
    row_checks(df, EVENT_REQUIRED, place_ids, source_ids, chk)
    one_of(df, "category", CATEGORIES, chk)
    one_of(df, "confidence", CONFIDENCE, chk)
    short_names(df, "sub_type", MAX_NAME, chk)
    out = df.copy()
    out["date"] = parse_dates(df, "date", chk, span)
    out["end_date"] = parse_dates(df, "end_date", chk, span)
    before = out["end_date"].notna() & out["date"].notna() & (out["end_date"] < out["date"])
    chk.rows(before, lambda i: f"end_date {df.at[i, 'end_date']} is before date {df.at[i, 'date']}")
    for col in FIGURES:
        most = MAX_AREA_KM2 if col == "area_km2" else MAX_FIGURE
        out[col] = parse_numbers(df, col, chk, 0, most, integer=True)
    out["actors"] = split_list(df["actors"])
    _reported_with_other_figures(df, out, chk)
    return out


def empty_events() -> pd.DataFrame:
    """An events table with no rows, in the dtypes ``load_events`` gives."""
    out = pd.DataFrame({c: pd.Series(dtype="str") for c in EVENT_COLUMNS})
    for col in ("date", "end_date"):
        out[col] = pd.Series(dtype="datetime64[us]")
    for col in FIGURES:
        out[col] = pd.Series(dtype="Int64")
    out["actors"] = pd.Series(dtype=object)
    return out


def _reported_with_other_figures(df: pd.DataFrame, out: pd.DataFrame, chk: Checker) -> None:
    """A 'reported' event whose note gives a figure of its own: the sources disagree."""
    noted = (df["confidence"] == "reported") & df["confidence_note"].str.contains(r"\d")
    for idx in noted[noted].index:
        own = [int(v) for v in out.loc[idx, list(FIGURES)] if pd.notna(v)]
        other = checks.other_figures(df.at[idx, "confidence_note"], own)
        if other:
            chk.add(
                f"line {int(idx) + chk.first_line}",
                f"confidence is 'reported' but the note gives other figures"
                f" ({', '.join(f'{n:,}' for n in other)}): make it 'disputed'",
            )


def load_convoy(path: Path, problems, span, place_ids, source_ids) -> pd.DataFrame | None:
    """convoy.csv (an empty table when there is none); None when it cannot be read."""
    chk = Checker("convoy.csv", problems)
    file = path / "convoy.csv"
    if not file.exists():
        return pd.DataFrame({c: pd.Series(dtype="object") for c in CONVOY_COLUMNS})
    required = {"id", "date", "group", "radius_m", "status", "note", "source"}
    df = read_csv(file, CONVOY_COLUMNS, required, chk, Limits(max_rows=MAX_CONVOY_ROWS))
    if df is None:
        return None
    row_checks(df, required, place_ids, source_ids, chk)
    one_of(df, "status", CONVOY_STATUS, chk)
    out = df.copy()
    out["date"] = parse_dates(df, "date", chk, span)
    out["lat"] = parse_numbers(df, "lat", chk, -90, 90)
    out["lon"] = parse_numbers(df, "lon", chk, -180, 180)
    out["radius_m"] = parse_numbers(df, "radius_m", chk, 0, 20_000_000, integer=True)
    nowhere = (df["place_id"] == "") & ((df["lat"] == "") | (df["lon"] == ""))
    chk.rows(nowhere, lambda _i: "needs a place_id or both lat and lon")
    return out
