"""Draw the bundled story's locator map: the enclave on 19 August 2017 on the Lebanon–Syria border.

Usage, from the repo root: ``python data/scripts/locator_map.py [OUT.png]`` (default: the
bundled story's ``enclave-19-august.png``, chapter 2's image). Needs Pillow
(requirements-dev.txt). Drawn from the project's own data only: country outlines from
``data/basemap/countries.geojson`` (Natural Earth, public domain), the enclave's approximate
outlines from the story's ``fronts.geojson`` and town positions from its ``places.csv``
(GeoNames, CC BY 4.0, where its coord_source says so). The font is Pillow's built-in one.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[2]
STORY = ROOT / "data" / "stories" / "qalamoun-2017"
OUT = STORY / "enclave-19-august.png"
WEST, EAST, SOUTH, NORTH = 35.35, 37.05, 33.7, 34.8
WIDTH = 480
SCALE = 2  # drawn twice as big, then shrunk: smooth edges without an anti-aliasing library
DAY = "2017-08-19"
TOWNS = ("beirut", "baalbek", "hermel", "arsal", "ras-baalbek", "al-qaa", "qara", "al-nabk",
         "yabrud", "homs", "al-qusayr")  # fmt: skip
SEA, LAND, OTHER, BORDER = (207, 224, 234), (243, 239, 230), (234, 230, 219), (138, 130, 117)
INK = (29, 29, 31)
# The dashboard's colours for each side of the border (geo/map/style.py SIDE_STYLE).
SIDES = {"LB": ((224, 103, 95, 130), (179, 38, 30)), "SY": ((163, 108, 196, 130), (107, 44, 145))}


def projector(width: int):
    """(lon, lat) -> pixel, equirectangular at the box's middle latitude; and the height."""
    k = math.cos(math.radians((SOUTH + NORTH) / 2))
    px_per_deg = width / ((EAST - WEST) * k)
    height = round((NORTH - SOUTH) * px_per_deg)

    def xy(lon: float, lat: float) -> tuple[float, float]:
        return (lon - WEST) * k * px_per_deg, (NORTH - lat) * px_per_deg

    return xy, height


def rings(geometry: dict) -> list[list[list[float]]]:
    """The outer rings of a Polygon or MultiPolygon."""
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"][0]]
    return [poly[0] for poly in geometry["coordinates"]]


def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size * SCALE)


def draw_map(out: Path) -> None:
    xy, height = projector(WIDTH * SCALE)
    img = Image.new("RGB", (WIDTH * SCALE, height), SEA)
    draw = ImageDraw.Draw(img, "RGBA")
    countries = json.loads((ROOT / "data" / "basemap" / "countries.geojson").read_text())
    for feature in countries["features"]:
        fill = LAND if feature["properties"].get("iso_a2") in ("LB", "SY") else OTHER
        for ring in rings(feature["geometry"]):
            draw.polygon([xy(*p) for p in ring], fill=fill, outline=BORDER, width=2 * SCALE)
    fronts = json.loads((STORY / "fronts.geojson").read_text())
    for feature in fronts["features"]:
        props = feature["properties"]
        if props["valid_from"] <= DAY <= props["valid_to"]:
            fill, edge = SIDES[props["side"]]
            for ring in rings(feature["geometry"]):
                pts = [xy(*p) for p in ring]
                draw.polygon(pts, fill=fill, outline=edge, width=2 * SCALE)
    label_towns(draw, xy)
    for name, lon, lat in (("LEBANON", 35.86, 34.1), ("SYRIA", 36.85, 34.42)):
        draw.text(xy(lon, lat), name, fill=(120, 112, 98), font=font(14), anchor="mm")
    legend(draw, height)
    img.resize((WIDTH, height // SCALE), Image.Resampling.LANCZOS).save(out, optimize=True)
    print(f"wrote {out}: {out.stat().st_size:,} bytes, {WIDTH}x{height // SCALE}")


def label_towns(draw: ImageDraw.ImageDraw, xy) -> None:
    with open(STORY / "places.csv", encoding="utf-8", newline="") as fh:
        places = {row["id"]: row for row in csv.DictReader(fh)}
    for pid in TOWNS:
        row = places[pid]
        x, y = xy(float(row["lon"]), float(row["lat"]))
        r = 4 * SCALE
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(255, 255, 255), outline=INK, width=SCALE)
        draw.text(
            (x + 7 * SCALE, y),
            row["name"],
            fill=INK,
            font=font(13),
            anchor="lm",
            stroke_width=2 * SCALE,
            stroke_fill=(255, 255, 255),
        )


def legend(draw: ImageDraw.ImageDraw, height: int) -> None:
    """A key for the shaded area and the sources, in the bottom-right corner."""
    x, y = (WIDTH - 312) * SCALE, height - 44 * SCALE
    draw.rectangle((x - 4 * SCALE, y - 4 * SCALE, x + 304 * SCALE, height - 6 * SCALE),
                   fill=(255, 255, 255, 215))  # fmt: skip
    for n, (fill, edge) in enumerate(SIDES.values()):
        left = x + n * 9 * SCALE
        draw.rectangle((left, y + 2 * SCALE, left + 8 * SCALE, y + 14 * SCALE), fill=fill,
                       outline=edge, width=SCALE)  # fmt: skip
    draw.text((x + 22 * SCALE, y), "Held by ISIS, 19 Aug: Lebanese / Syrian side", fill=INK,
              font=font(13))  # fmt: skip
    draw.text((x, y + 20 * SCALE), "Approximate outlines. Borders: Natural Earth.",
              fill=(85, 85, 85), font=font(11))  # fmt: skip


if __name__ == "__main__":
    draw_map(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
