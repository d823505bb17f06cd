"""Recompute drawn_km2 for every front polygon; rewrite fronts.geojson only when it changed.

Usage, from the repo root: ``python data/scripts/fronts_areas.py [PATH]`` (default: the bundled
story's fronts.geojson). Prints one line per feature: id, side, dates, reported, drawn, diff %.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402
from geo.geometry import polygon_area_km2  # noqa: E402

DEFAULT_PATH = ROOT / "data" / "stories" / "qalamoun-2017" / "fronts.geojson"
COORD_DIGITS = 4
# json.dumps(indent=...) puts each number of a [lon, lat] pair on its own line; a journalist
# reading the file is better served by one pair per line.
_NUMBER = r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
_PAIR = re.compile(rf"\[\s*{_NUMBER},\s*{_NUMBER}\s*\]")


def round_coordinates(coordinates: Any, ndigits: int = COORD_DIGITS) -> Any:
    """Round every number in nested GeoJSON coordinates to ``ndigits`` decimals."""
    if isinstance(coordinates, int | float):
        return round(float(coordinates), ndigits)
    return [round_coordinates(c, ndigits) for c in coordinates]


def update_feature(feature: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a Polygon feature with rounded coordinates and a fresh drawn_km2."""
    out = json.loads(json.dumps(feature))
    geom = out.get("geometry") or {}
    if geom.get("type") == "Polygon":
        geom["coordinates"] = round_coordinates(geom["coordinates"])
        props = out.setdefault("properties", {})
        props["drawn_km2"] = round(polygon_area_km2(geom["coordinates"]), 1)
    return out


def update_collection(doc: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a FeatureCollection with every feature updated."""
    return {**doc, "features": [update_feature(f) for f in doc.get("features") or []]}


def format_geojson(doc: dict[str, Any]) -> str:
    """Indented JSON with each coordinate pair kept on one line."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return _PAIR.sub(r"[\1, \2]", text) + "\n"


def diff_percent(reported: Any, drawn: Any) -> str:
    """Drawn relative to reported, as a signed percentage (blank when not computable)."""
    if not isinstance(reported, int | float) or not isinstance(drawn, int | float) or not reported:
        return ""
    return f"{(drawn - reported) / reported * 100:+.1f}%"


def table(doc: dict[str, Any]) -> str:
    """A plain-text table of the features' areas."""
    head = ("id", "side", "valid_from", "valid_to", "reported", "drawn", "diff")
    rows: list[Sequence[str]] = [head]
    for f in doc.get("features") or []:
        p = f.get("properties") or {}
        rows.append(
            (
                str(p.get("id", "")),
                str(p.get("side", "")),
                str(p.get("valid_from", "")),
                str(p.get("valid_to", "")),
                str(p.get("reported_km2", "")),
                str(p.get("drawn_km2", "")),
                diff_percent(p.get("reported_km2"), p.get("drawn_km2")),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str] | None = None) -> int:
    """Update the file's drawn_km2 values and print the table; exit 0, or 2 on bad input."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1:
        print("usage: python data/scripts/fronts_areas.py [PATH]", file=sys.stderr)
        return 2
    path = Path(args[0]) if args else DEFAULT_PATH
    try:
        old_text = path.read_text(encoding="utf-8")
        doc = json.loads(old_text)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        print(f"{path}: not a GeoJSON FeatureCollection", file=sys.stderr)
        return 2
    new_doc = update_collection(doc)
    new_text = format_geojson(new_doc)
    print(table(new_doc))
    if new_text != old_text:
        atomic_write_text(path, new_text)
        print(f"updated {path}")
    else:
        print(f"unchanged {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
