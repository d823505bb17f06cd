"""A name found in pass one, before the vote, and what its candidates say."""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from geo.geocoders.gazetteer import GazetteerPlace
from geo.names import normalize

# Candidates a mention keeps, and the most a name's own-name tests look at.
MAX_CANDIDATES = 5
# Spelling similarity above which an alternate name counts as the place's own ("Slovyansk").
NEAR_SPELLING = 0.85
# "Baghdad says": a city this large before a speech verb is a government, not a person.
BIG_CITY = 1_000_000


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


def _country_of(p: GazetteerPlace) -> list[str]:
    return [c for c in p.country.split("|") if c]


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


@dataclass(frozen=True)
class _Pool:
    """What _score_parts finds of a name's candidates before the mention matters."""

    places: list[GazetteerPlace]  # the candidates that may be chosen
    namesakes: set[str]
    dwarfed: set[str]
    respelt: set[str]
    # Countries of the first-level divisions among them (no namesake country among them).
    divisions: tuple[str, ...]
    # The highest prior of a first-level division named after a big town in it, by id.
    capped: dict[str, float] = field(default_factory=dict)
