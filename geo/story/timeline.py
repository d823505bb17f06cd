"""Date-window filtering of events, the convoy's position on a day, fronts valid on a day."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import numpy as np
import pandas as pd

from geo.geometry import route_km


def _ts(day: date | pd.Timestamp) -> pd.Timestamp:
    return pd.Timestamp(day).normalize()


def longest_span(events: pd.DataFrame) -> pd.Timedelta:
    """How long the longest of ``events`` lasts (end_date − date; zero when none has an end)."""
    first = events["date"].to_numpy()
    last = events["end_date"].to_numpy()
    # NaT is the smallest int64, so max() skips events without an end.
    longest = int((last - first).view("i8").max(initial=0))
    return pd.Timedelta(max(longest, 0), unit=np.datetime_data(first.dtype)[0])


def in_window(
    events: pd.DataFrame, start: date, end: date, longest: pd.Timedelta | None = None
) -> pd.DataFrame:
    """Events that overlap [start, end]; ``events`` must be sorted by date (as loaded).
    ``longest`` is ``longest_span(events)`` or more, when the caller keeps it."""
    lo, hi = _ts(start), _ts(end)
    if events.empty:
        return events
    dates = events["date"]
    last = events["end_date"].to_numpy()
    # Sorted by date: everything starting after the window is one slice off the end, and, as no
    # event lasts longer than the longest span, everything starting that long before the window
    # is one slice off the front.
    reach = longest_span(events) if longest is None else longest
    begin = dates.searchsorted(lo - reach, side="left")
    inside = dates.searchsorted(lo, side="left")
    stop = dates.searchsorted(hi, side="right")
    # Rows from ``inside`` on start in the window; before it, only those still running overlap.
    running = np.flatnonzero(last[begin:inside] >= lo.to_datetime64())
    if len(running) == inside - begin:
        return events.iloc[begin:stop]
    if len(running) == 0:
        return events.iloc[inside:stop]
    # Rows are picked from the narrowest slice: Arrow string columns pay for every row of the
    # array they are taken from, so taking from the whole table costs milliseconds per column.
    head = events.iloc[begin + running[0] : stop]
    rows = np.concatenate([running - running[0], np.arange(inside - begin - running[0], len(head))])
    return head.iloc[rows]


def filter_events(
    events: pd.DataFrame,
    start: date,
    end: date,
    categories: Iterable[str] | None = None,
    actors: Iterable[str] | None = None,
    longest: pd.Timedelta | None = None,
) -> pd.DataFrame:
    """Events in the window whose category is in ``categories`` and that involve any of ``actors``.

    ``None`` means no filter; an empty list matches nothing for categories and, for actors,
    keeps every event (no actor chosen = all actors). ``longest`` as for ``in_window``.
    """
    out = in_window(events, start, end, longest)
    if categories is not None:
        out = out[out["category"].isin(list(categories))]
    if actors:
        wanted = set(actors)
        # astype(bool): on an empty frame map() gives an object Series, which pandas would
        # take for a list of column names.
        out = out[out["actors"].map(lambda a: not wanted.isdisjoint(a)).astype(bool)]
    return out


def filter_killed(events: pd.DataFrame, killed: tuple[int, int] | None) -> pd.DataFrame:
    """Events whose reported ``killed`` figure lies in ``killed`` (lowest, highest); None means
    no filter. An event with no figure is not known to lie in the range: a filter leaves it out
    (js/story.js ``windowEvents`` does the same)."""
    if killed is None:
        return events
    lo, hi = killed
    figure = events["killed"]
    return events[(figure.notna() & (figure >= lo) & (figure <= hi)).fillna(False).astype(bool)]


# A text search is at most this long, here and in the stores' SQL (an ILIKE over a million
# summaries costs ~100 ms).
TEXT_MAX = 200
# The event columns a text search looks in (the store's SQL searches the same three).
TEXT_COLUMNS = ("summary", "source_detail", "confidence_note")


def place_countries(cell: object) -> list[str]:
    """The country codes of a places.csv ``country`` cell (``LB|SY`` is two), upper-case."""
    if not isinstance(cell, str):
        return []
    return [c.strip().upper() for c in cell.split("|") if c.strip()]


def code_counts(codes: np.ndarray, n: int) -> np.ndarray:
    """How many of each code 0 … n-1 ``codes`` holds; code -1 (no value) is not counted."""
    codes = np.asarray(codes)
    codes = codes if codes.min(initial=0) >= 0 else codes[codes >= 0]  # no copy if all set
    return np.bincount(codes, minlength=n)[:n]


def used_values(column: pd.Series) -> list[str]:
    """The distinct values of a text ``column`` (place ids, categories), as strings."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        # By code: ten million ids made into Python strings took over a second.
        names = column.cat.categories
        seen = code_counts(column.cat.codes.to_numpy(), len(names)) > 0
        return [str(v) for v in names[seen]]
    return [str(v) for v in column.dropna().unique()]


def story_countries(places: pd.DataFrame, place_ids: Iterable[str] | None = None) -> list[str]:
    """Every country code of ``places`` (of those in ``place_ids`` when given), sorted."""
    rows = places if place_ids is None else places[places["id"].isin(list(place_ids))]
    # Each distinct cell once: a cell at a time over 20,000 places took 80 ms.
    return sorted({c for cell in rows["country"].dropna().unique() for c in place_countries(cell)})


def country_cells(places: pd.DataFrame, countries: Iterable[str]) -> tuple[str, ...]:
    """The ``country`` cells of ``places`` that name any of ``countries`` (``LB`` picks both
    ``LB`` and ``LB|SY``): what the store's SQL compares its country column with."""
    wanted = {str(c).upper() for c in countries}
    cells = {c for c in places["country"] if isinstance(c, str)}
    return tuple(sorted(c for c in cells if wanted.intersection(place_countries(c))))


def clean_text(text: object) -> str | None:
    """A text search as typed: control characters dropped, spaces collapsed, cut to TEXT_MAX
    characters; None when blank."""
    if not isinstance(text, str):
        return None
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())[:TEXT_MAX]
    return text or None


def narrow_mask(events: pd.DataFrame, places: pd.DataFrame, narrow) -> np.ndarray:
    """Which ``events`` pass ``narrow`` (a ``Narrow``: a ``killed`` range, the places'
    ``countries`` cells (see ``country_cells``), a ``text`` found case-blind, as plain text, in
    summaries, source details or confidence notes, the places' ``admin1`` names, the events'
    ``sub_types``); None fields are no filter. The same rules
    as the store's SQL: an event with no figure is left out by a killed range."""
    keep = np.ones(len(events), dtype=bool)
    if narrow is None:
        return keep
    if narrow.killed is not None:
        lo, hi = narrow.killed
        figure = events["killed"]
        # A big story keeps float32 figures: compared as they are, not copied to float64 (80 MB
        # at ten million). NaN fails every comparison, so no figure fails the range.
        if isinstance(figure.dtype, np.dtype) and figure.dtype.kind == "f":
            figure = figure.to_numpy()
        else:
            figure = pd.to_numeric(figure, errors="coerce").to_numpy(float, na_value=np.nan)
        with np.errstate(invalid="ignore"):
            keep &= ~np.isnan(figure) if lo is None else figure >= lo
            if hi is not None:
                keep &= figure <= hi
    if narrow.countries is not None:
        ids = set(places.loc[places["country"].isin(set(narrow.countries)), "id"])
        keep &= is_in(events["place_id"], ids)
    if narrow.admin1 is not None:
        names = places["admin1"] if "admin1" in places else pd.Series("", index=places.index)
        ids = set(places.loc[names.isin(set(narrow.admin1)), "id"])
        keep &= is_in(events["place_id"], ids)
    if narrow.sub_types is not None:
        kinds = events["sub_type"] if "sub_type" in events else pd.Series("", index=events.index)
        keep &= is_in(kinds, set(narrow.sub_types))
    text = clean_text(narrow.text)
    if text:
        found = np.zeros(len(events), dtype=bool)
        for col in TEXT_COLUMNS:
            if col in events:
                cells = events[col].astype(object).fillna("").astype(str)
                found |= cells.str.contains(text, case=False, regex=False).to_numpy(bool)
        keep &= found
    return keep


def is_in(column: pd.Series, values: set) -> np.ndarray:
    """Which cells of a text ``column`` are among ``values``."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        # By code: a big story's ten million place ids made into Python strings took seconds.
        hit = np.append(column.cat.categories.isin(list(values)), False)
        return hit[column.cat.codes.to_numpy()]  # code -1 (no value) takes the False at the end
    return column.astype(object).isin(values).to_numpy(bool)


def narrow_events(events: pd.DataFrame, places: pd.DataFrame, narrow) -> pd.DataFrame:
    """The ``events`` that pass ``narrow`` (see ``narrow_mask``); all of them for None."""
    if narrow is None:
        return events
    return events[narrow_mask(events, places, narrow)]


def killed_range(events: pd.DataFrame) -> int | None:
    """The highest ``killed`` figure of the story's events, or None when none has one."""
    if "killed" not in events or not events["killed"].notna().any():
        return None
    return int(events["killed"].max())


def all_actors(events: pd.DataFrame) -> list[str]:
    """Every actor named in the events, sorted."""
    return sorted({a for actors in events["actors"] for a in actors})


def events_per_day(
    events: pd.DataFrame, start: date, end: date, rows: np.ndarray | None = None
) -> pd.DataFrame:
    """Count of events per day and category over [start, end] (days without events are 0);
    only the rows at the positions ``rows``, when given (a filter's: no copy of the events)."""
    days = pd.date_range(_ts(start), _ts(end), freq="D")
    if events.empty or (rows is not None and not len(rows)):
        return pd.DataFrame(index=days)
    cells, names = day_cells(events, start, end, rows)
    return per_day_table(np.bincount(cells, minlength=len(days) * len(names)), days, names)


def day_cells(
    events: pd.DataFrame, start: date, end: date, rows: np.ndarray | None = None
) -> tuple[np.ndarray, list[str]]:
    """Each event's (of those at ``rows``) cell of a per-day table over [start, end], day *
    categories + category, for one bincount; events outside it or without a category are left
    out. Also the categories, in code order."""
    # A big window has a million rows (and only the map's columns); events that started
    # before the window are not counted.
    first = events["date"].to_numpy()
    cats = events["category"]
    if not isinstance(cats.dtype, pd.CategoricalDtype):  # a big story's is (astype: 8 ms at 10M)
        cats = cats.astype("category")
    names = list(cats.cat.categories)
    code = cats.cat.codes.to_numpy()
    if rows is not None:
        # Taken by position: a boolean index over ten million rows cost 65-70 ms an array.
        first, code = first.take(rows), code.take(rows)
    n_days = (_ts(end) - _ts(start)).days + 1
    day = (first - _ts(start).to_datetime64()) // np.timedelta64(1, "D")
    cell = day * len(names) + code
    inside = (day >= 0) & (day < n_days) & (code >= 0)
    # Most windows have every row inside: no boolean index (tens of ms at millions of rows).
    return (cell if inside.all() else cell[inside]), names


def per_day_table(flat: np.ndarray, days: pd.DatetimeIndex, names: list[str]) -> pd.DataFrame:
    """``day_cells``' counts (their bincount) as events_per_day's table: a row per day, a
    column per category that has events, in name order."""
    table = pd.DataFrame(flat.reshape(len(days), len(names)), index=days, columns=names)
    table = table.loc[:, table.sum() > 0]
    table = table[sorted(table.columns)]
    table.columns.name = "category"
    return table.astype(int)


# A timeline chart shows at most this many rows per family (20 years of months: 240).
MAX_BARS = 400
# Bars by day up to this many days, then by week up to this many weeks, then by month. A year
# of days for eight families was a 520 KB picture, sent on every filter change and a bar under
# 2 px wide; by week it is ~80 KB, and a bar is ~10 px.
DAY_BARS = 120
PERIODS = (("day", "D"), ("week", "W-MON"), ("month", "MS"))


def chart_period(start: date, end: date) -> str:
    """The period a whole-story chart counts by: "day", "week" or "month"."""
    days = (_ts(end) - _ts(start)).days + 1
    if days <= DAY_BARS:
        return "day"
    return "week" if days <= 7 * DAY_BARS else "month"


def day_table(rows: Iterable[tuple[date, str, int]], start: date, end: date) -> pd.DataFrame:
    """``events_per_day``'s table from (start day, category, events) rows, as a store's
    GROUP BY gives them; days outside [start, end] are dropped."""
    days = pd.date_range(_ts(start), _ts(end), freq="D")
    got = pd.DataFrame(list(rows), columns=["day", "category", "n"])
    if got.empty or days.empty:
        return pd.DataFrame(index=days)
    # Whole arrays, not a Timestamp per row: a long story's GROUP BY has ~15,000 rows.
    day = (pd.to_datetime(got["day"]).to_numpy() - days[0].to_datetime64()) // np.timedelta64(
        1, "D"
    )
    got = got.assign(day=day)[(day >= 0) & (day < len(days))]
    if got.empty:
        return pd.DataFrame(index=days)
    table = got.pivot_table(index="day", columns="category", values="n", aggfunc="sum")
    table = table.reindex(range(len(days)), fill_value=0).fillna(0).astype(int)
    table.index = days
    table = table[sorted(table.columns)]
    table.columns.name = "category"
    return table


def events_per_period(events: pd.DataFrame, start: date, end: date, period: str) -> pd.DataFrame:
    """``events_per_day`` summed by ``period`` ("day", "week" from Mondays, "month"); each row
    is labelled by the period's first day."""
    return per_period(events_per_day(events, start, end), period)


def per_period(table: pd.DataFrame, period: str) -> pd.DataFrame:
    """A per-day table (``events_per_day``'s) summed by ``period``."""
    if period == "day" or table.empty:
        return table
    freq = dict(PERIODS)[period]
    # Weeks are labelled by the Monday that starts them (closed and labelled on the left).
    out = table.resample(freq, closed="left", label="left").sum()
    out.columns.name = table.columns.name
    return out


def convoy_until(convoy: pd.DataFrame, day: date) -> pd.DataFrame:
    """The convoy's positions up to and including ``day``."""
    return convoy[convoy["date"] <= _ts(day)]


def convoy_paths(convoy: pd.DataFrame, day: date) -> dict[str, list[tuple[float, float]]]:
    """Path per group up to ``day``; after a split each branch starts where the whole convoy was."""
    seen = convoy_until(convoy, day)
    trunk = [(r.lat, r.lon) for r in seen[seen["group"] == "all"].itertuples()]
    paths: dict[str, list[tuple[float, float]]] = {}
    if trunk:
        paths["all"] = trunk
    for group in sorted(set(seen["group"]) - {"all"}):
        rows = seen[seen["group"] == group]
        paths[group] = trunk[-1:] + [(r.lat, r.lon) for r in rows.itertuples()]
    return paths


def convoy_current(convoy: pd.DataFrame, day: date) -> pd.DataFrame:
    """The latest position of each group on ``day`` (the trunk only while it is not split)."""
    seen = convoy_until(convoy, day)
    if seen.empty:
        return seen
    latest = seen.groupby("group", sort=False).tail(1)
    if len(latest) > 1 and (latest["group"] != "all").any():
        latest = latest[latest["group"] != "all"]
    return latest


def convoy_distance_km(convoy: pd.DataFrame, day: date, distance=None) -> dict[str, float]:
    """Geodesic distance travelled per group up to ``day``; a branch counts the trunk too.
    ``distance`` measures one leg (see ``route_km``)."""
    paths = convoy_paths(convoy, day)
    trunk = route_km(paths.get("all", []), distance)
    return {g: route_km(p, distance) + (0.0 if g == "all" else trunk) for g, p in paths.items()}


def fronts_on(fronts: pd.DataFrame, day: date) -> pd.DataFrame:
    """Front polygons valid on ``day``."""
    d = _ts(day)
    return fronts[(fronts["valid_from"] <= d) & (fronts["valid_to"] >= d)]


def held_area_series(fronts: pd.DataFrame, start: date, end: date) -> pd.DataFrame:
    """Reported ISIS-held km² per side and day over [start, end]; NaN where nothing is reported."""
    days = pd.date_range(_ts(start), _ts(end), freq="D")
    out = pd.DataFrame(index=days)
    for side, rows in fronts.groupby("side"):
        series = pd.Series(float("nan"), index=days)
        for r in rows.itertuples():
            km2 = r.reported_km2
            series[(days >= r.valid_from) & (days <= r.valid_to)] = (
                float("nan") if km2 is None else float(km2)
            )
        # The day after the last polygon the enclave is gone: show 0, not a gap.
        gone = rows["valid_to"].max() + pd.Timedelta(days=1)
        series[days == gone] = 0.0
        out[side] = series
    return out


def held_area_long(fronts: pd.DataFrame, start: date, end: date) -> pd.DataFrame:
    """The held area per side and day over [start, end], for a chart without gaps.

    Columns ``day``, ``side``, ``km2``, ``carried``: a day with no published figure carries the
    last one forward (``carried`` True, so the chart can say so); from the day after the last
    polygon the area is 0. Days before a side's first polygon are left out.
    """
    rows = []
    if fronts.empty:
        return pd.DataFrame(columns=["day", "side", "km2", "carried"])
    first = min(fronts["valid_from"].min(), _ts(start))
    full = held_area_series(fronts, first.date(), max(_ts(end), _ts(start)).date())
    for side in full.columns:
        sides = fronts[fronts["side"] == side]
        series = full[side]
        begin, last = sides["valid_from"].min(), sides["valid_to"].max()
        carried = series.isna() & (series.index >= begin) & (series.index <= last)
        filled = series.ffill()
        filled[series.index > last] = 0.0
        keep = (series.index >= max(begin, _ts(start))) & (series.index <= _ts(end))
        keep &= filled.notna()
        for day in series.index[keep]:
            rows.append((day, side, float(filled[day]), bool(carried[day])))
    out = pd.DataFrame(rows, columns=["day", "side", "km2", "carried"])
    if len(out) > MAX_BARS:
        # A long story: only the days a side's figure changes, and its last day (the chart steps
        # from one to the next), so the rows grow with the fronts, not with the days.
        keep = _changes(out)
        out = out[keep].reset_index(drop=True)
    return out


def _changes(rows: pd.DataFrame) -> pd.Series:
    """Rows whose (km2, carried) differs from the same side's row before, and each side's last."""
    side = rows["side"]
    new_side = side.ne(side.shift())
    changed = rows["km2"].ne(rows["km2"].shift()) | rows["carried"].ne(rows["carried"].shift())
    last = side.ne(side.shift(-1))
    return new_side | changed | last
