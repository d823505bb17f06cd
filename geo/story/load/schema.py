"""What a story folder may hold: its columns, vocabularies and every size and range bound."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from geo.vocabulary import CATEGORIES as VOCABULARY_CATEGORIES

# Every category of the event vocabulary (docs/event-vocabulary.md); the war categories of the
# first story format are all in it, so every old story stays valid.
CATEGORIES = VOCABULARY_CATEGORIES
CONFIDENCE = ("reported", "claimed", "disputed")
PLACE_KINDS = (
    "city",
    "town",
    "village",
    "region",
    "valley",
    "hill",
    "crossing",
    "station",
    "country",
    "border",
    "area",
)
CONVOY_STATUS = ("assembling", "moving", "halted", "split", "arrived", "returned")
FIGURES = (
    "people",
    "militants",
    "civilians",
    "killed",
    "wounded",
    "missing",
    "displaced",
    "arrested",
    "evacuated",
    "captives",
    "remains",
    "buses",
    "vehicles",
    "area_km2",
)
PLACE_COLUMNS = (
    "id",
    "name",
    "aliases",
    "kind",
    "country",
    "admin1",  # optional: the first-level division's name (a province, governorate, state)
    "lat",
    "lon",
    "radius_m",
    "geonames_id",
    "coord_source",
)
EVENT_COLUMNS = (
    "id",
    "date",
    "end_date",
    "place_id",
    "category",
    "sub_type",  # optional: the dataset's own finer type (ACLED sub_event_type, ...)
    "actors",
    "summary",
    *FIGURES,
    "source",
    "source_detail",
    "confidence",
    "confidence_note",
)
CONVOY_COLUMNS = (
    "id",
    "date",
    "group",
    "place_id",
    "lat",
    "lon",
    "radius_m",
    "status",
    "note",
    "source",
)
FRONT_PROPERTIES = (
    "id",
    "side",
    "holder",
    "valid_from",
    "valid_to",
    "drawn_km2",
    "approximate",
    "source",
)
# A bad file must cost seconds and a screenful, not minutes and gigabytes: the first
# ROWS_PER_CHECK rows of each check and PROBLEMS_PER_FILE problems of each file are kept, the
# rest only counted.
ROWS_PER_CHECK = 20
PROBLEMS_PER_FILE = 200
# A problem quotes values from the file: at most this many characters of it are kept.
MAX_MESSAGE = 300
# Far beyond any hand-drawn outline (the bundled ones have 13); a million vertices made every
# slider step take 8 s.
MAX_POLYGON_VERTICES = 5_000
MAX_FRONTS_BYTES = 20_000_000
# Polygons are one per side and period: the bundled story has 11. Each is checked against the
# basemap (milliseconds), so a file of 100,000 tiny ones would cost minutes.
MAX_FRONTS = 2_000
# A side's outline is one polygon per period (the bundled story never has more than two on a
# day). The map's payload lists the polygons of each day they change, so this bounds its size.
MAX_FRONTS_AT_ONCE = 20
# story.toml is read by the story picker too: the bundled one is 14 KB; 30 chapters of 600
# characters and 500 sources fit in a quarter of this. A bigger one is refused unread.
MAX_TOML_BYTES = 512_000
MAX_SOURCES = 500
SOURCE_KEYS = ("id", "publication", "date", "url")
# Text lengths: a title is a line (the bundled one has 99 characters), a summary a paragraph
# (1,203), a source's publication or address a line (227).
MAX_TITLE = 300
MAX_SUMMARY = 5_000
MAX_FIELD = 2_000
# A place's admin1 and an event's sub_type are names, offered in the sidebar's lists: a line.
MAX_NAME = 200
# A convoy is a few dozen positions (the bundled story has 21). The map's payload repeats the
# route so far on each day the convoy moves, so it grows with the square of this: 300 positions
# on 300 days are at most about a megabyte.
MAX_CONVOY_ROWS = 300
# What story.toml may hold at its top level (docs/story-format.md); anything else is a typo or
# a payload, and is refused with its line.
META_KEYS = (
    "id",
    "title",
    "summary",
    "span",
    "dateline",
    "landmarks",
    "words",
    "map",
    "draft",
    "sources",
    "chapters",
)
# A story covers at most 20 years (7,305 days): the date slider, Play and the charts are made for
# days to years, and a span of centuries would cost every page run. Dates lie in 1800-2200.
MAX_SPAN_DAYS = 7_305
FIRST_DAY, LAST_DAY = date(1800, 1, 1), date(2200, 12, 31)
# Figures are counts of people and things: a billion is beyond any event. Areas are in km²; the
# Earth's surface is 510 million.
MAX_FIGURE = 1_000_000_000
MAX_AREA_KM2 = 510_000_000


@dataclass(frozen=True)
class Limits:
    """How big a story's tables may be, checked from file sizes and Parquet metadata first."""

    max_rows: int = 5_000_000
    max_parquet_bytes: int = 4_000_000_000  # uncompressed, as the Parquet footer declares


# Stories shared as a zip are checked harder than the reader's own folders.
FOLDER_LIMITS = Limits()
UPLOAD_LIMITS = Limits(max_rows=1_000_000, max_parquet_bytes=400_000_000)
# drawn_km2 is stored rounded; allow for that and for a journalist's hand edit of the file.
AREA_TOLERANCE = 0.02
