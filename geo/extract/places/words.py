"""The word lists of ``not_places.toml`` and the little words names are read by."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from geo.names import normalize

WORDS_FILE = Path(__file__).parents[1] / "data" / "not_places.toml"
# Little words inside place names, between capitalised ones ("Port-au-Prince", "Rio Grande do
# Sul", "Santiago del Estero").
_CONNECTORS = frozenset(
    {"of", "de", "du", "des", "la", "le", "les", "del", "upon", "on", "sur", "do", "da", "dos",
     "das", "di", "au", "aux", "en", "sous", "am", "im", "el", "al", "van", "von", "y"}
)  # fmt: skip
_LOCATIVE = frozenset(
    [
        "in", "into", "to", "from", "across", "inside", "near", "towards", "toward",
        "through", "within", "outside", "around", "at", "throughout",
    ]
)  # fmt: skip
# Arabic articles that are English words too: lowercase and before a space ("as Google",
# "at St. Paul"), they are the English words; hyphenated ("as-Sukhnah"), the article.
_ENGLISH_ARTICLES = frozenset({"as", "at", "an"})


@dataclass(frozen=True)
class WordLists:
    """Matching keys of the stoplist, person cues and place words from ``not_places.toml``."""

    stopwords: frozenset[str]
    titles: frozenset[str]
    given_names: frozenset[str]
    speech_verbs: frozenset[str]
    place_words: frozenset[str]
    not_before: frozenset[str] = frozenset()
    authorities: frozenset[str] = frozenset()


@lru_cache(maxsize=4)
def load_word_lists(path: str | None = None) -> WordLists:
    """The word lists (the bundled file by default)."""
    with open(path or WORDS_FILE, "rb") as fh:
        data = tomllib.load(fh)

    def keys(name: str) -> frozenset[str]:
        return frozenset(normalize(w) for w in data.get(name, []))

    return WordLists(
        keys("stopwords"), keys("titles"), keys("given_names"), keys("speech_verbs"),
        keys("place_words"), keys("not_before"), keys("authorities"),
    )  # fmt: skip
