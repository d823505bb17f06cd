"""The map's words: dates, figures and tooltips as escaped HTML, and the keys tooltips carry.

A tooltip ends with a hidden key such as ``[place:baalbek]`` (st_folium reports the clicked
object's tooltip text), so a click is traced back to what was clicked even when several things
share a point; the same key is the object's ``data-key`` attribute in the page.
"""

from __future__ import annotations

import re
from datetime import date

import pandas as pd

# Every value that reaches map HTML goes through this one escape (None, numbers and text alike).
from geo.names import html_text as escape
from geo.names import noun, plural  # noqa: F401 (counts are written with these: geo/names.py)
from geo.story.load import FIGURES

_KEY = re.compile(r"\[(place|convoy|front):([a-z0-9-]+)\]")


def parse_key(text: str | None) -> tuple[str, str] | None:
    """The (kind, id) named by a clicked object's tooltip, or None."""
    if not text:
        return None
    found = _KEY.findall(text)
    return found[-1] if found else None


def fmt_day(day: pd.Timestamp | date) -> str:
    return pd.Timestamp(day).strftime("%-d %b %Y")


def fmt_span(first: pd.Timestamp, last: pd.Timestamp) -> str:
    if first == last:
        return fmt_day(first)
    if first.year == last.year:
        return f"{first:%-d %b} – {fmt_day(last)}"
    return f"{fmt_day(first)} – {fmt_day(last)}"


def figures_text(row) -> str:
    """'308 militants, 331 civilians' from an event's figure columns."""
    parts = []
    for col in FIGURES:
        val = row.get(col) if hasattr(row, "get") else getattr(row, col, None)
        if val is not None and not pd.isna(val):
            label = "km²" if col == "area_km2" else col
            parts.append(f"{int(val):,} {label}")
    return ", ".join(parts)


def reported_text(km2) -> str:
    """'20 km²', or a plain statement that no source gives a figure."""
    return "no published figure" if km2 is None or pd.isna(km2) else f"{km2:g} km²"


def keyed_tip(html: str, key: str) -> str:
    """A tooltip's HTML with the object's key appended, hidden from the reader."""
    return f'{html}<span class="dl-key" hidden>[{escape(key)}]</span>'


def place_tip(p) -> str:
    """A place dot's tooltip: its name, kind and how uncertain its position is."""
    radius = f"± {p.radius_m / 1000:g} km" if p.radius_m >= 1000 else f"± {p.radius_m} m"
    return keyed_tip(
        f"{escape(p.name)} <small>({escape(p.kind)}, {radius})</small>", f"place:{p.id}"
    )
