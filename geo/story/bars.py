"""The timeline's events chart drawn as an SVG document by Python, in Vega's look.

Vega (``pictures``) took 60-150 ms to draw this chart whatever its size, in a child process,
and a filter change waited for it: at ten million events it was the longest part of the run.
Written here it takes a few ms. The held-area chart, drawn once per story, stays with Vega.

Every text (title, groups, chapters) is escaped: the picture holds data as text, never markup.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, timedelta
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pandas as pd

from geo.story.chapters import Chapter, chapter_marks
from geo.story.charts import HEIGHT, WIDTH  # the plot's size, as the held-area chart's

FONT = 'font-family="sans-serif"'
GRID, AXIS, RULE, RULE_TEXT = "#ddd", "#888", "#888", "#666"
LABEL_PX = 12  # axis and legend labels
CHAR_PX = 6.7  # a 12 px sans-serif character's mean width, to keep labels apart
BAR_PX = 5.0  # Vega's bar on a time axis: 5 px wide, centred on its period's first day
CHAPTER_GAP_PX = 12  # a chapter's label is left out nearer than this to the last one shown
LEGEND_COLUMNS = 2
LEGEND_ROW_PX = 17
# Month and year steps of the time axis, in months; smaller steps are in days.
_DAY_STEPS = (1, 2, 7, 14)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60, 120, 240, 600)


def events_svg(
    counts: pd.DataFrame,
    colours: dict[str, str],
    chapters: Sequence[Chapter],
    span: tuple[date, date],
    period: str,
    *,
    filtered: bool = False,
) -> str | None:
    """Stacked bars of events per ``period``, or None when nothing is counted.

    ``counts`` has a row per period (its first day is the index) and a column per group;
    ``colours`` gives each group's colour, in legend order (the first on top of each bar).
    ``filtered``: the counts are of the events that pass the sidebar's filters, and the title
    says so (a narrowed chart read as the whole story's would mislead).
    """
    groups = [g for g in colours if g in counts.columns]
    if counts.empty or not groups:
        return None
    values = counts[groups].to_numpy(dtype=float)
    values = np.where(np.isfinite(values) & (values > 0), values, 0.0)
    totals = values.sum(axis=1)
    if totals.sum() <= 0:
        return None
    x = _TimeScale(span)
    top, step = nice_top(float(totals.max()))
    y_ticks = [step * k for k in range(round(top / step) + 1)]
    y_labels = [f"{v:,.0f}" for v in y_ticks]
    left = 30 + max(len(s) for s in y_labels) * CHAR_PX
    title = f"Events per {period}, whole story" + (", filtered" if filtered else "")
    x_ticks = time_ticks(span[0], span[1])
    legend_rows = math.ceil(len(groups) / LEGEND_COLUMNS)
    width = math.ceil(left + max(WIDTH + 10, LEGEND_COLUMNS * _legend_column_px(groups)))
    height = math.ceil(28 + HEIGHT + 40 + legend_rows * LEGEND_ROW_PX + 6)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<g transform="translate({left:.0f},28)">',
        f'<path d="M0.5,0.5h{WIDTH}v{HEIGHT}h-{WIDTH}Z" fill="none" stroke="{GRID}"/>',
    ]
    out += _grid(x, x_ticks, y_ticks, top)
    out += _bars(x, counts.index, values, [colours[g] for g in groups], top)
    out += _axes(x, x_ticks, y_ticks, y_labels, top, left)
    out += _chapter_rules(x, chapters)
    out.append(
        f'<text x="{5 - left:.0f}" y="-10" {FONT} font-size="15px" font-weight="600">'
        f"{escape(title)}</text>"
    )
    out += _legend(groups, colours)
    out.append("</g></svg>")
    return "".join(out)


class _TimeScale:
    """Days to x pixels over the story's span (its first day at 0, its last at ``width``)."""

    def __init__(self, span: tuple[date, date], width: float = WIDTH) -> None:
        self.start = pd.Timestamp(span[0])
        days = (pd.Timestamp(span[1]) - self.start).days
        self.px_per_day = width / max(days, 1)

    def __call__(self, day) -> float:
        return (pd.Timestamp(day) - self.start).days * self.px_per_day

    def many(self, days: pd.Index) -> np.ndarray:
        offsets = (pd.DatetimeIndex(days) - self.start) // pd.Timedelta(days=1)
        return np.asarray(offsets, dtype=float) * self.px_per_day


def nice_top(peak: float, ticks: int = 5) -> tuple[float, float]:
    """The y axis's top and tick step: a step of 1, 2 or 5 times a power of ten giving about
    ``ticks`` ticks, and the first multiple of it at or above ``peak``."""
    if peak <= 0:
        return 1.0, 1.0
    raw = peak / ticks
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(step, 1.0)  # events are whole: no tick between two counts
    return math.ceil(peak / step) * step, step


def time_ticks(start: date, end: date, width: float = WIDTH) -> list[tuple[date, str]]:
    """The time axis's ticks and labels: the smallest calendar step whose labels fit side by
    side in ``width`` px (a year's first day labelled by its year, a month's by its name,
    any other day as "Aug 06")."""
    x = _TimeScale((start, end), width)
    steps = [("day", n) for n in _DAY_STEPS] + [("month", n) for n in _MONTH_STEPS]
    ticks: list[tuple[date, str]] = []
    for kind, n in steps:
        ticks = _ticks_every(start, end, kind, n)
        xs = [x(d) for d, _ in ticks]
        wide = [len(label) * CHAR_PX for _, label in ticks]
        if all(xs[i + 1] - xs[i] >= (wide[i] + wide[i + 1]) / 2 + 8 for i in range(len(ticks) - 1)):
            return ticks
    return ticks[:1]


def _ticks_every(start: date, end: date, kind: str, n: int) -> list[tuple[date, str]]:
    out = []
    if kind == "day":
        # Weekly ticks on Sundays, as Vega's; others on every n-th day from the first.
        day = start + timedelta(days=(6 - start.weekday()) % 7) if n >= 7 else start
        while day <= end:
            out.append((day, _label(day)))
            day += timedelta(days=n)
        return out
    months = start.year * 12 + start.month - 1
    months += -months % n  # steps of n months fall on multiples of n (Jan, Apr, Jul, Oct)
    day = date(months // 12, months % 12 + 1, 1)
    if day < start:
        months += n
        day = date(months // 12, months % 12 + 1, 1)
    while day <= end:
        out.append((day, _label(day)))
        months += n
        day = date(months // 12, months % 12 + 1, 1)
    return out


def _label(day: date) -> str:
    if day.month == 1 and day.day == 1:
        return str(day.year)
    if day.day == 1:
        return day.strftime("%B")
    return day.strftime("%b %d")


def _y(value: float, top: float) -> float:
    return HEIGHT - value / top * HEIGHT


def _grid(x: _TimeScale, x_ticks, y_ticks, top: float) -> list[str]:
    lines = [f"M{x(d) + 0.5:.1f},0.5v{HEIGHT}" for d, _ in x_ticks]
    lines += [f"M0.5,{_y(v, top) + 0.5:.1f}h{WIDTH}" for v in y_ticks]
    return [f'<path d="{"".join(lines)}" stroke="{GRID}" fill="none"/>']


def _bars(x: _TimeScale, days, values: np.ndarray, fills: list[str], top: float) -> list[str]:
    """One path per group: its part of every period's bar, the last group at the bottom."""
    centres = x.many(days)
    step = float(np.diff(centres).min()) if len(centres) > 1 else BAR_PX * 2
    width = max(min(BAR_PX, step * 0.8), 1.0)
    below = np.zeros(len(values))
    out = []
    for col in range(values.shape[1] - 1, -1, -1):
        parts = []
        for cx, base, v in zip(centres, below, values[:, col], strict=True):
            if v > 0:
                y0, y1 = _y(base, top), _y(base + v, top)
                h = y0 - y1
                parts.append(f"M{cx - width / 2:.1f},{y1:.1f}h{width:.1f}v{h:.1f}h{-width:.1f}Z")
        below += values[:, col]
        if parts:
            out.append(f'<path d="{"".join(parts)}" fill={quoteattr(fills[col])}/>')
    return out


def _axes(x: _TimeScale, x_ticks, y_ticks, y_labels, top: float, left: float) -> list[str]:
    out = [
        f'<path d="M0.5,{HEIGHT + 0.5}h{WIDTH}M0.5,0.5v{HEIGHT}" stroke="{AXIS}" fill="none"/>',
        f'<path d="{"".join(f"M{x(d) + 0.5:.1f},{HEIGHT + 0.5}v5" for d, _ in x_ticks)}'
        f'{"".join(f"M0.5,{_y(v, top) + 0.5:.1f}h-5" for v in y_ticks)}" stroke="{AXIS}"/>',
        f'<g {FONT} font-size="{LABEL_PX}px" fill="#000">',
    ]
    out += [
        f'<text x="{x(d):.1f}" y="{HEIGHT + 16}" text-anchor="middle">{escape(label)}</text>'
        for d, label in x_ticks
    ]
    out += [
        f'<text x="-7" y="{_y(v, top) + 4:.1f}" text-anchor="end">{escape(label)}</text>'
        for v, label in zip(y_ticks, y_labels, strict=True)
    ]
    out.append(
        f'<text transform="translate({16 - left:.0f},{HEIGHT / 2:.0f}) rotate(-90)" '
        'text-anchor="middle" font-weight="bold">events</text></g>'
    )
    return out


def _chapter_rules(x: _TimeScale, chapters: Sequence[Chapter]) -> list[str]:
    """Where the story turns: a dashed rule at each chapter's first day, its label written
    down the rule; a label that would overlap the one before is left out (its rule stays)."""
    out, shown_at = [], -math.inf
    for day, label in chapter_marks(chapters):
        cx = x(day)
        if not 0 <= cx <= WIDTH:
            continue
        out.append(f'<path d="M{cx + 0.5:.1f},0v{HEIGHT}" stroke="{RULE}" stroke-dasharray="3,3"/>')
        if cx - shown_at >= CHAPTER_GAP_PX:
            shown_at = cx
            out.append(
                f'<text transform="translate({cx + 2:.1f},3) rotate(90)" {FONT} '
                f'font-size="11px" fill="{RULE_TEXT}">{escape(label)}</text>'
            )
    return out


def _legend_column_px(groups: list[str]) -> float:
    return max(len(g) for g in groups) * CHAR_PX + 40


def _legend(groups: list[str], colours: dict[str, str]) -> list[str]:
    """The groups under the axis, in ``LEGEND_COLUMNS`` columns, row by row."""
    col_px = _legend_column_px(groups)
    out = [f'<g {FONT} font-size="{LABEL_PX}px" fill="#000">']
    for n, group in enumerate(groups):
        gx = (n % LEGEND_COLUMNS) * col_px
        gy = HEIGHT + 40 + (n // LEGEND_COLUMNS) * LEGEND_ROW_PX
        out.append(
            f'<rect x="{gx:.0f}" y="{gy:.0f}" width="9.5" height="9.5" '
            f"fill={quoteattr(colours[group])}/>"
            f'<text x="{gx + 16:.0f}" y="{gy + 9:.0f}">{escape(group)}</text>'
        )
    out.append("</g>")
    return out
