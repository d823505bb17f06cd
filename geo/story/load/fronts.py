"""fronts.geojson: one Polygon per side and period, checked against its country and its area."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
from shapely.geometry import shape

from geo.bounded import InputError, json_loads, read_text
from geo.geometry import polygon_area_km2
from geo.names import is_slug, noun
from geo.story import checks
from geo.story.checks import Outlines
from geo.story.load.columns import is_number
from geo.story.load.problems import Checker
from geo.story.load.schema import (
    AREA_TOLERANCE,
    FRONT_PROPERTIES,
    MAX_AREA_KM2,
    MAX_FRONTS,
    MAX_FRONTS_AT_ONCE,
    MAX_FRONTS_BYTES,
    MAX_POLYGON_VERTICES,
)
from geo.story.model import Problem

COLUMNS = [*FRONT_PROPERTIES, "reported_km2", "note", "geometry", "computed_km2"]
_TEXT_KEYS = ("side", "holder", "source", "valid_from", "valid_to", "note")


def load_fronts(
    path: Path, problems: list[Problem], span, source_ids, outlines: Outlines | None = None
) -> pd.DataFrame | None:
    """fronts.geojson as a table (an empty one when there is no file); None when unreadable."""
    chk = Checker("fronts.geojson", problems)
    file = path / "fronts.geojson"
    if not file.exists():
        return pd.DataFrame({c: pd.Series(dtype="object") for c in COLUMNS})
    features = _features(file, chk)
    if features is None:
        return None
    rows = []
    for n, feat in enumerate(features, 1):
        row = _front(n, feat, span, source_ids, outlines, chk)
        if row is not None:
            rows.append(row)
    _fronts_at_once(rows, chk)
    return pd.DataFrame(rows, columns=COLUMNS)


def _features(file: Path, chk: Checker) -> list | None:
    """The file's features, within MAX_FRONTS_BYTES and MAX_FRONTS; None (reported) if not."""
    try:
        doc = json_loads(read_text(file, MAX_FRONTS_BYTES))
    except InputError as exc:
        chk.add(f"line {exc.line}" if exc.line else "", str(exc))
        return None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        where = f"line {exc.lineno}" if hasattr(exc, "lineno") else ""
        chk.add(where, f"is not valid JSON: {exc}")
        return None
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        chk.add("", "must be a GeoJSON FeatureCollection")
        return None
    features = doc.get("features")
    if not isinstance(features, list):
        chk.add("", "features must be a list of GeoJSON Features")
        return None
    if len(features) > MAX_FRONTS:
        chk.add("", f"has {len(features):,} features; at most {MAX_FRONTS:,}")
        return None
    return features


def _front(n: int, feat: Any, span, source_ids, outlines, chk: Checker) -> dict | None:
    """Feature ``n`` as a row of the fronts table, or None when it has a problem."""
    if not isinstance(feat, dict) or not isinstance(feat.get("properties") or {}, dict):
        chk.add(f"feature {n}", "must be a GeoJSON Feature with a properties object")
        return None
    props = feat.get("properties") or {}
    where = f"feature {n}" + (f" ({props['id']})" if is_slug(props.get("id")) else "")
    n_before = chk.count
    if not _properties(props, source_ids, chk, where):
        return None
    dates = _valid_dates(props, span, chk, where)
    geom = feat.get("geometry") or {}
    computed = _polygon_km2(geom, props.get("side"), outlines, chk, where)
    _areas(props, computed, chk, where)
    if chk.count != n_before:
        return None
    return {
        **{k: props.get(k) for k in FRONT_PROPERTIES},
        # None where no source gives a figure for that day: the chart shows a gap.
        "reported_km2": props.get("reported_km2"),
        "note": props.get("note", ""),
        "valid_from": pd.Timestamp(dates["valid_from"]),
        "valid_to": pd.Timestamp(dates["valid_to"]),
        "geometry": geom,
        "computed_km2": round(computed, 1),
    }


def _properties(props: dict, source_ids, chk: Checker, where: str) -> bool:
    """Check the properties; False when a text property is not text (nothing more is checked)."""
    for key in FRONT_PROPERTIES:
        if props.get(key) in (None, ""):
            chk.add(where, f"property {key!r} is missing")
    if props.get("id") not in (None, "") and not is_slug(props["id"]):
        chk.add(where, "id must be lowercase letters, digits and '-'")
    wrong = [k for k in _TEXT_KEYS if props.get(k) is not None and not isinstance(props[k], str)]
    if wrong:
        props_word = noun(len(wrong), "property", "properties")
        chk.add(where, f"{props_word} {', '.join(wrong)} must be text")
        return False
    if props.get("side") not in (None, "") and props["side"] not in ("LB", "SY"):
        chk.add(where, f"side {props['side']!r} must be LB or SY")
    if props.get("source") and props["source"] not in source_ids:
        chk.add(where, f"source {props['source']!r} is not a known source")
    return True


def _valid_dates(props: dict, span, chk: Checker, where: str) -> dict[str, date]:
    """valid_from and valid_to as dates (those that are), within the span and in order."""
    lo, hi = span if span else (None, None)
    dates = {}
    for key in ("valid_from", "valid_to"):
        try:
            dates[key] = date.fromisoformat(str(props.get(key)))
        except ValueError:
            if props.get(key) not in (None, ""):
                chk.add(where, f"{key} {props.get(key)!r} is not a date (YYYY-MM-DD)")
            continue
        if lo and not lo <= dates[key] <= hi:
            chk.add(where, f"{key} {dates[key]} is outside the story's span {lo}..{hi}")
    if len(dates) == 2 and dates["valid_from"] > dates["valid_to"]:
        chk.add(where, f"valid_from {dates['valid_from']} is after valid_to {dates['valid_to']}")
    return dates


def _polygon_km2(geom: Any, side, outlines, chk: Checker, where: str) -> float | None:
    """The area of a valid Polygon in its side's country (checked); None when it is not one."""
    if not isinstance(geom, dict) or geom.get("type") != "Polygon":
        chk.add(where, "geometry must be a Polygon")
        return None
    if _vertices(geom) > MAX_POLYGON_VERTICES:
        chk.add(
            where,
            f"polygon has {_vertices(geom):,} vertices; at most {MAX_POLYGON_VERTICES:,}"
            " (simplify it)",
        )
        return None
    computed = None
    try:
        poly = shape(geom)
        if not poly.is_valid or poly.is_empty:
            chk.add(where, "polygon is not valid (self-intersecting or empty)")
        else:
            computed = polygon_area_km2(geom["coordinates"])
            _front_in_its_country(poly, side, outlines, chk, where)
    except (ValueError, TypeError, IndexError, AttributeError) as exc:
        chk.add(where, f"polygon cannot be read: {exc}")
    return computed


def _areas(props: dict, computed: float | None, chk: Checker, where: str) -> None:
    """reported_km2 and drawn_km2 are areas; drawn_km2 matches the polygon's own area."""
    for key in ("reported_km2", "drawn_km2"):
        val = props.get(key)
        if val not in (None, "") and not _area(val):
            most = f"{MAX_AREA_KM2:,}"
            chk.add(where, f"{key} {str(val)[:40]!r} must be a number from 0 to {most}")
    drawn = props.get("drawn_km2")
    measured = computed is not None and _area(drawn) and drawn > 0
    if measured and abs(drawn - computed) > max(0.1, AREA_TOLERANCE * computed):
        chk.add(
            where,
            f"drawn_km2 {drawn} does not match the polygon's area {computed:.1f} km²"
            " (run data/scripts/fronts_areas.py)",
        )


def _fronts_at_once(rows: list[dict], chk: Checker) -> None:
    """At most MAX_FRONTS_AT_ONCE polygons may be valid on one day (a sweep over their dates)."""
    changes: dict[pd.Timestamp, int] = {}
    for r in rows:
        changes[r["valid_from"]] = changes.get(r["valid_from"], 0) + 1
        after = r["valid_to"] + pd.Timedelta(days=1)
        changes[after] = changes.get(after, 0) - 1
    valid = 0
    for day in sorted(changes):
        valid += changes[day]
        if valid > MAX_FRONTS_AT_ONCE:
            chk.add("", f"{valid:,} polygons are valid on {day:%Y-%m-%d}; at most"
                        f" {MAX_FRONTS_AT_ONCE} on one day")  # fmt: skip
            return


def _area(value: object) -> bool:
    """A finite number of km² from 0 to the Earth's surface (NaN fails every comparison)."""
    return is_number(value) and 0 <= value <= MAX_AREA_KM2


def _front_in_its_country(poly, side, outlines: Outlines | None, chk: Checker, where: str):
    """At least MIN_FRONT_SHARE of a side's polygon must lie in that country on the basemap."""
    if outlines is None or side not in ("LB", "SY"):
        return
    share = checks.share_in_country(outlines, side, poly)
    if share is not None and share < checks.MIN_FRONT_SHARE:
        chk.add(
            where,
            f"only {share:.1%} of the polygon lies in {side} on the basemap"
            f" (side {side} needs at least {checks.MIN_FRONT_SHARE:.0%})",
        )


def _vertices(geom: dict) -> int:
    """How many positions a Polygon's rings hold, without reading them (0 if malformed)."""
    rings = geom.get("coordinates")
    if not isinstance(rings, list):
        return 0
    return sum(len(r) for r in rings if isinstance(r, list))
