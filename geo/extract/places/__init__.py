"""Place mentions in news text, matched against the gazetteer and resolved per document.

Two passes: the first finds every name the gazetteer or the country table knows, with the
context that can disqualify it (a person's name, a sentence-initial common word, a word inside
a longer capitalised title); the second counts a country vote over the whole article and keeps,
for each name, the candidate in the best-supported country.
"""

from geo.extract.places.find import find_places
from geo.extract.places.rank import capitals
from geo.extract.places.records import PASSED_OVER_REASONS, PassedOver, PlaceMention
from geo.extract.places.resolve import resolve_dateline
from geo.extract.places.tokens import tokenize
from geo.extract.places.words import WordLists, load_word_lists

__all__ = [
    "PASSED_OVER_REASONS",
    "PassedOver",
    "PlaceMention",
    "WordLists",
    "capitals",
    "find_places",
    "load_word_lists",
    "resolve_dateline",
    "tokenize",
]
