"""Unfinished drafts of the New story page, kept on disk so a reload or a restart loses nothing.

A draft is one JSON file ``<root>/<id>.json`` written atomically. Its id comes back in a URL
parameter, so it is read as hostile: a strict pattern before any path is built, a size bound
before any byte is parsed, and a bad file is simply no draft (``None``), never an error.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import stat
import time
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from geo.atomic import atomic_write_bytes
from geo.bounded import MAX_DEPTH, json_loads, read_text, value_depth
from geo.errors import READ_FAILURES, DatelineError

MAX_DRAFT_BYTES = 5_000_000
# Exactly what new_draft_id makes: nothing else is ever turned into a path.
_ID = re.compile(r"[0-9a-f]{16}")
_ID_CHARS = 16
_SUFFIX = ".json"
# atomic_write_bytes' temporary names: ".<target name>.<random>.tmp".
_TEMP = re.compile(r"\.[0-9a-f]{16}\.json\..+\.tmp")
# A temporary file older than this was left by a crash: no write takes an hour.
_STALE_TEMP_SECONDS = 3600
_FORMAT = 1
# The dtypes a table column may be rebuilt as; anything else in a file comes back as object.
_DTYPES = frozenset(
    {"bool", "boolean", "int64", "Int64", "float64", "Float64", "str", "string", "object"}
)


class DraftStoreError(DatelineError):
    """A draft that cannot be kept (too big, not JSON, bad id, disk fault) or tables that
    cannot be rebuilt. (An edit a draft cannot take is geo.extract.draft.DraftError.)"""


def new_draft_id() -> str:
    """A fresh random draft id: 16 lowercase hex characters, safe in a URL and a file name."""
    return secrets.token_hex(_ID_CHARS // 2)


def valid_draft_id(s: object) -> bool:
    """Whether ``s`` (a URL parameter, so anything) is a draft id new_draft_id could have made."""
    # The length test first: a megabyte parameter costs nothing.
    return isinstance(s, str) and len(s) == _ID_CHARS and _ID.fullmatch(s) is not None


def _path(root: Path, draft_id: str) -> Path:
    return Path(root) / f"{draft_id}{_SUFFIX}"


def save_draft(root: Path, draft_id: str, draft: dict) -> None:
    """Write ``draft`` as ``<root>/<draft_id>.json``, atomically (the old version stays whole
    until the new one is complete). Raises DraftStoreError for a bad id, a draft that is not a dict
    of plain JSON, one over MAX_DRAFT_BYTES or nested too deeply to load, and disk faults."""
    if not valid_draft_id(draft_id):
        raise DraftStoreError("The draft id is not one this app makes.")
    if not isinstance(draft, dict):
        raise DraftStoreError(f"A draft is a dict, not {type(draft).__name__}.")
    try:
        # allow_nan=False: NaN is not JSON and the bounded reader would refuse the file.
        text = json.dumps(draft, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise DraftStoreError(f"The draft cannot be saved: {exc}.") from exc
    data = text.encode("utf-8")
    if len(data) > MAX_DRAFT_BYTES:
        raise DraftStoreError(
            f"The draft is {len(data) / 1e6:.1f} MB; drafts are kept up to"
            f" {MAX_DRAFT_BYTES / 1e6:g} MB. Shorten the article or the tables."
        )
    # A draft load_draft would refuse is not worth writing: say so now, not after a reload.
    if value_depth(draft, MAX_DEPTH) > MAX_DEPTH:
        raise DraftStoreError(f"The draft is nested more than {MAX_DEPTH} levels deep.")
    try:
        atomic_write_bytes(_path(root, draft_id), data)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise DraftStoreError(f"The draft could not be saved: {reason.lower()}.") from exc


def load_draft(root: Path, draft_id: object) -> dict | None:
    """The draft saved under ``draft_id``, or None when the id is not valid, the file is missing,
    too big, not JSON, not a dict, or its ``tables`` entry cannot be rebuilt."""
    if not valid_draft_id(draft_id):
        return None
    path = _path(root, draft_id)  # type: ignore[arg-type]  # valid_draft_id: a str
    try:
        # A FIFO or device named like a draft would block or stream forever: files only.
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        draft = json_loads(read_text(path, MAX_DRAFT_BYTES))
        if not isinstance(draft, dict):
            return None
        if "tables" in draft:
            tables_from_json(draft["tables"])
    except (*READ_FAILURES, DatelineError):
        return None
    return draft


def list_drafts(root: Path) -> list[str]:
    """Ids of the drafts in ``root``, last saved first; temporary files are never drafts."""
    found = []
    try:
        entries = list(Path(root).iterdir())
    except OSError:  # no folder yet: no drafts
        return []
    for path in entries:
        draft_id = path.name.removesuffix(_SUFFIX)
        if path.name.endswith(_SUFFIX) and valid_draft_id(draft_id):
            try:
                st = path.lstat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found.append((st.st_mtime, draft_id))
    return [draft_id for _, draft_id in sorted(found, reverse=True)]


def prune_drafts(root: Path, keep_days: float = 30, *, now: float | None = None) -> int:
    """Delete drafts not saved for ``keep_days`` days, and temporary files a crash left behind;
    returns how many files went. Nothing else in ``root`` is touched."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(Path(root).iterdir())
    except OSError:  # no folder yet: nothing to prune
        return 0
    for path in entries:
        name = path.name
        if name.endswith(_SUFFIX) and valid_draft_id(name.removesuffix(_SUFFIX)):
            limit = keep_days * 86_400
        elif _TEMP.fullmatch(name):
            limit = _STALE_TEMP_SECONDS
        else:
            continue
        try:
            st = path.lstat()
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > limit:
                path.unlink()
                removed += 1
        except OSError:  # gone meanwhile, or not ours to delete: the next prune tries again
            continue
    return removed


# --- the two editable tables as JSON -------------------------------------------------------------


def _missing(v: Any) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    return isinstance(v, float) and math.isnan(v)


def _cell(v: Any) -> Any:
    """One cell as a JSON value: numpy scalars as Python ones, dates as ISO text."""
    if _missing(v):
        return None
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, datetime):  # pd.Timestamp too; before date, which it also is
        return v.isoformat()
    if isinstance(v, date):
        return v.isoformat()
    return str(v)


def _kind(series: pd.Series) -> str:
    """ "date" for a column of dates (the events' date and end_date), else ""."""
    present = [v for v in series if not _missing(v)]
    dates = [isinstance(v, date) and not isinstance(v, datetime) for v in present]
    return "date" if present and all(dates) else ""


def _column_json(series: pd.Series) -> dict:
    out: dict[str, Any] = {"dtype": str(series.dtype), "values": [_cell(v) for v in series]}
    if out["dtype"] == "object" and _kind(series) == "date":
        out["kind"] = "date"
    elif out["dtype"].startswith("datetime64"):
        out["kind"] = "datetime"
    return out


def _frame_json(df: pd.DataFrame) -> dict:
    index = df.index
    return {
        "index": {
            "name": index.name,
            # A RangeIndex comes back as one, not as a list of numbers.
            "range": isinstance(index, pd.RangeIndex),
            **_column_json(index.to_series()),
        },
        "columns": [{"name": str(c), **_column_json(df[c])} for c in df.columns],
    }


def tables_to_json(places: pd.DataFrame, events: pd.DataFrame) -> dict:
    """The places and events tables as a JSON-ready dict tables_from_json turns back into
    equal tables: index, column order, dtypes, dates and missing values kept."""
    return {"format": _FORMAT, "places": _frame_json(places), "events": _frame_json(events)}


def _day(v: Any) -> date | None:
    if v is None:
        return None
    if not isinstance(v, str):
        raise DraftStoreError("A date cell is not text.")
    return date.fromisoformat(v)


def _series(spec: Any, n: int | None) -> tuple[pd.Series, str | None]:
    if not isinstance(spec, Mapping):
        raise DraftStoreError("A table column is not an object.")
    values = spec.get("values")
    if not isinstance(values, list) or (n is not None and len(values) != n):
        raise DraftStoreError("A table column has no values or the wrong number of them.")
    if any(isinstance(v, list | dict) for v in values):
        raise DraftStoreError("A table cell holds a list or an object.")
    dtype = spec.get("dtype")
    kind = spec.get("kind")
    name = spec.get("name")
    if name is not None and not isinstance(name, str):
        raise DraftStoreError("A table column's name is not text.")
    if kind == "date":
        return pd.Series([_day(v) for v in values], dtype=object), name
    if kind == "datetime" and isinstance(dtype, str) and re.fullmatch(r"datetime64\[\w+\]", dtype):
        return pd.Series(pd.to_datetime(values), dtype=dtype), name
    if dtype not in _DTYPES:
        dtype = "object"
    if dtype in ("int64", "bool") and any(v is None for v in values):
        raise DraftStoreError(f"A {dtype} column has an empty cell.")
    return pd.Series(values, dtype=dtype), name


def _frame_from_json(spec: Any) -> pd.DataFrame:
    if not isinstance(spec, Mapping) or not isinstance(spec.get("columns"), list):
        raise DraftStoreError("A table is not an object with columns.")
    index_spec = spec.get("index")
    index_values, index_name = _series(index_spec, None)
    n = len(index_values)
    data = {}
    for col in spec["columns"]:
        series, name = _series(col, n)
        if name is None or name in data:
            raise DraftStoreError("A table column has no name or a repeated one.")
        data[name] = series
    if index_spec.get("range") is True:
        index: pd.Index = pd.RangeIndex(n, name=index_name)
        if list(index_values) != list(range(n)):
            raise DraftStoreError("A table's row numbers are not 0, 1, 2, ...")
    else:
        index = pd.Index(index_values, name=index_name)
    # Built on 0..n-1 (each column's own index), then given the saved one: no realignment.
    return pd.DataFrame(data, index=pd.RangeIndex(n), columns=list(data)).set_axis(index)


def tables_from_json(d: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(places, events) from tables_to_json's dict; raises DraftStoreError for anything else."""
    if not isinstance(d, Mapping) or d.get("format") != _FORMAT:
        raise DraftStoreError("The saved tables are not in a format this app reads.")
    try:
        return _frame_from_json(d.get("places")), _frame_from_json(d.get("events"))
    except DraftStoreError:
        raise
    except READ_FAILURES as exc:  # a hand-edited file: a bad date, a number in a bool column
        raise DraftStoreError(f"The saved tables cannot be rebuilt: {exc}") from exc


# --- sources: dates as ISO text ------------------------------------------------------------------


def sources_to_json(sources: list[dict]) -> list[dict]:
    """The report sources with their ``date`` as ISO text, ready for a draft."""
    return [{k: _cell(v) if k == "date" else v for k, v in s.items()} for s in sources]


def sources_from_json(items: Any) -> list[dict]:
    """Sources saved by sources_to_json, dates back as datetime.date; malformed ones dropped."""
    out = []
    for s in items if isinstance(items, list) else []:
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            continue
        try:
            day = _day(s.get("date"))
        except (DraftStoreError, ValueError):
            continue
        out.append({**s, "date": day})
    return out
