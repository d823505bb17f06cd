"""Pass one: every name the gazetteer or the country table knows, longest first."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from geo.extract.actors import ActorMention
from geo.extract.places.match import MAX_CANDIDATES, _Match
from geo.extract.places.tokens import _Token, _token_range, _TokenIndex
from geo.extract.places.words import _CONNECTORS, _ENGLISH_ARTICLES, WordLists
from geo.extract.regions import QUALIFIERS, CountryTable, us_state_names
from geo.extract.sentences import Spans
from geo.geocoders.gazetteer import Gazetteer, GazetteerPlace, division_family
from geo.names import ARTICLES, normalize

# Longest name tried, in words: GeoNames has 26-word alternate names, news never needs them.
MAX_NAME_TOKENS = 6
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
# ", Syria", ", Texas", ", Ky.": a country or division written right after a name.
_AFTER_COMMA = re.compile(r",\s+([A-Z][\w.]*(?:\s[A-Z][\w.]*)?)")


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
