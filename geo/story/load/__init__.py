"""Load a story folder into validated pandas tables, or report every problem with file and line.

The package's modules, lowest first: ``schema`` (what a folder may hold and every bound),
``problems`` (Problems, StoryError, the per-file Checker), ``columns`` (the column checks every
table shares), ``meta`` (story.toml), ``tables`` (places, events, convoy), ``fronts``
(fronts.geojson), ``loaders`` (load_story and the checks across files) and ``cli``
(``python -m geo validate``). The Story itself is in geo.story.model.
"""

from geo.story.checks import BASEMAP
from geo.story.load.loaders import load_story
from geo.story.load.meta import read_meta
from geo.story.load.problems import Problems, StoryError, problem_text, unreadable
from geo.story.load.schema import (
    CATEGORIES,
    CONFIDENCE,
    CONVOY_COLUMNS,
    CONVOY_STATUS,
    EVENT_COLUMNS,
    FIGURES,
    FRONT_PROPERTIES,
    MAX_CONVOY_ROWS,
    MAX_FRONTS,
    MAX_FRONTS_AT_ONCE,
    MAX_POLYGON_VERTICES,
    MAX_SPAN_DAYS,
    MAX_TOML_BYTES,
    PLACE_COLUMNS,
    PLACE_KINDS,
    PROBLEMS_PER_FILE,
    ROWS_PER_CHECK,
    UPLOAD_LIMITS,
    Limits,
)
from geo.story.model import Problem, Story, source_names, story_words

__all__ = [
    "BASEMAP",
    "CATEGORIES",
    "CONFIDENCE",
    "CONVOY_COLUMNS",
    "CONVOY_STATUS",
    "EVENT_COLUMNS",
    "FIGURES",
    "FRONT_PROPERTIES",
    "MAX_CONVOY_ROWS",
    "MAX_FRONTS",
    "MAX_FRONTS_AT_ONCE",
    "MAX_POLYGON_VERTICES",
    "MAX_SPAN_DAYS",
    "MAX_TOML_BYTES",
    "PLACE_COLUMNS",
    "PLACE_KINDS",
    "PROBLEMS_PER_FILE",
    "ROWS_PER_CHECK",
    "UPLOAD_LIMITS",
    "Limits",
    "Problem",
    "Problems",
    "Story",
    "StoryError",
    "load_story",
    "problem_text",
    "read_meta",
    "source_names",
    "story_words",
    "unreadable",
]
