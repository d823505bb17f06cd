"""Names no gazetteer knows that the text uses as places ("captured Baghuz")."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from geo.extract.places.cues import (
    LEAD_FEATURES,
    NAMED_FEATURES,
    NUMBER_WORDS,
    PLACE_AFTER,
    at_in,
    feature_kind,
    landmark_spans,
    structure_cue,
)
from geo.extract.places.recognise import _AFTER_COMMA, _POINT_KINDS, _Finder
from geo.extract.places.records import PlaceMention
from geo.extract.places.resolve import _ADMIN_RADIUS_M
from geo.extract.places.tokens import _Token
from geo.extract.places.votes import ANCHOR_RADIUS_M, _Votes
from geo.extract.places.words import _ENGLISH_ARTICLES, WordLists
from geo.extract.regions import CountryTable
from geo.extract.sentences import Spans
from geo.geocoders.gazetteer import GazetteerPlace
from geo.names import ARTICLES, normalize

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


def _unknown_places(
    text: str,
    tokens: list[_Token],
    runs: list[tuple[int, int, bool]],
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
    "captured" ("captured Baghuz"), a name before a feature word ("the al-Omar oilfield"), or
    cued by the words of ``cues`` ("the Suchite River"), an unknown dateline place; then every
    other mention of the same name; and landmarks ("Khartoum's presidential palace"). Each is
    left unplaced (no point), ``within`` the area the text puts it in (see _country_for): for
    the editor to pin down, never drawn on that area's middle.

    ``runs`` are ``_unknown_runs``'s. ``rejected``, when given, gets (first token, last token,
    reason) of the names let go,
    ``actor_kind(start, end)`` naming the actor that holds one.
    """
    busy = Spans((p.start, p.end) for p in found if p.start is not None and p.end is not None)
    placed_at = {p.start: p for p in found if p.placed and p.role == "place"}
    cues = _cues(text, tokens, runs, finder, countries, dateline_key, person_keys, placed_at)
    cued, people, where, kinds = cues
    # The places found, by sentence (a scan of them all for each unknown name was quadratic).
    by_sentence: dict[int, list[PlaceMention]] = {}
    for p in found:
        by_sentence.setdefault(p.sentence, []).append(p)
    out = []
    for first, last, feature in runs:
        name_last = last - 1 if feature else last
        key = normalize(" ".join(t.text for t in tokens[first : name_last + 1]))
        start, end = tokens[first].start, tokens[last].end
        if rejected is None and (key not in cued or key in people):
            continue  # the common case, decided without the checks a reason needs
        if busy.overlaps(start, end):
            continue  # a place, or part of one
        why = _why_not((first, last, feature), key, tokens, finder, dateline_key, people, cued)
        if why == _ACTOR:
            why = actor_kind(start, end) if actor_kind else ""
        country: GazetteerPlace | None = None
        kind = kinds.get(key) or ("area" if feature else "village")
        if why is None:
            if key not in where:
                where[key] = _country_for(
                    _sentence_text(text, tokens, first), tokens[first].sentence, by_sentence,
                    votes, countries, wide=kind in _WIDE_KINDS, before=found, start=start,
                )  # fmt: skip
            country, why = where[key], "no country"
        if country is None:
            if rejected is not None and why:
                rejected.append((first, name_last, why))
            continue
        out.append(_unplaced(text, tokens, first, last, feature, country, kind))
    return out + _landmarks(text, tokens, found, busy, countries)


def _landmarks(
    text: str,
    tokens: list[_Token],
    found: list[PlaceMention],
    busy: Spans,
    countries: CountryTable,
) -> list[PlaceMention]:
    """The landmarks news names by what they are ("the presidential palace in Brasilia",
    "Khartoum's presidential palace"), within the town that ties one of their mentions; none
    when no mention is tied to a placed town or area (never a country's middle)."""
    spans = landmark_spans(text) if "palace" in text or "residence" in text else []
    if not spans:
        return []
    starts = {p.start: p for p in found if p.placed and p.kind != "country"}
    ends = {p.end: p for p in found if p.placed and p.kind != "country"}
    within: dict[str, GazetteerPlace] = {}
    for start, end, town_start, town_end in spans:
        town = starts.get(town_start) if town_start is not None else ends.get(town_end)
        key = normalize(text[start:end])
        if town is not None and key not in within:
            within[key] = _around(town)
    out = []
    index = {t.start: k for k, t in enumerate(tokens)}
    for start, end, _, _ in spans:
        key = normalize(text[start:end])
        if key not in within or busy.overlaps(start, end) or start not in index:
            continue
        sentence = tokens[index[start]].sentence
        out.append(_unplaced_span(text, start, end, sentence, within[key], "building"))
    return out


# Kinds of place too long or wide to lie near the one town of a sentence: a river is put in
# that town's country unless the text says where.
_WIDE_KINDS = frozenset({"river", "lake", "mountains", "hills", "valley", "forest", "bay"})


def _unknown_runs(
    tokens: list[_Token], words: WordLists, countries: CountryTable
) -> list[tuple[int, int, bool]]:
    """The names that may be unknown places: first and last token, and whether a feature word
    ends the run ("the al-Omar oilfield")."""
    runs: list[tuple[int, int, bool]] = []
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
    return runs


def _cues(
    text: str,
    tokens: list[_Token],
    runs: list[tuple[int, int, bool]],
    finder: _Finder,
    countries: CountryTable,
    dateline_key: str | None,
    person_keys: set[str],
    placed_at: dict[int | None, PlaceMention] | None = None,
) -> tuple[set[str], set[str], dict[str, GazetteerPlace | None], dict[str, str]]:
    """What the words around the runs say of their names: the names some mention is cued as a
    place, the names of people (``person_keys``, the article's surnames, and more), the area
    written after a mention (", Syria", ", in Malappuram"; ``placed_at`` holds the placed
    mentions by start), one per name from its first, and the kind of place a cue names."""
    words = finder.words
    placed_at = placed_at or {}
    cued: set[str] = set()
    people: set[str] = set(person_keys)
    where: dict[str, GazetteerPlace | None] = {}
    kinds: dict[str, str] = {}
    prev_cued: tuple[int, int] | None = None  # tokens of the last cued name
    for first, last, feature in runs:
        key = normalize(" ".join(t.text for t in tokens[first : last + 1 - feature]))
        named = None if feature else feature_kind(tokens, first, last)
        # A first name is a person unless a feature word follows ("the Omar oilfield"); a name
        # the gazetteer knows was judged by the rules above, and is no unknown.
        if not (feature or named) and any(
            t.key in words.given_names for t in tokens[first : last + 1]
        ):
            continue
        if not feature and finder.gaz is not None and finder.gaz.contains(key):
            continue
        nxt = tokens[last + 1] if last + 1 < len(tokens) else None
        possessive = text[tokens[last].end : tokens[last].end + 2] in ("'s", "’s")
        # "Lucy said" is a person; "who lives in Avantas, said" is not (the comma).
        speaks = nxt is not None and nxt.key in words.speech_verbs and tokens[last].joins_next
        if not feature and (possessive or speaks):
            people.add(key)  # "Trump's plan", "Lucy said": a person, in every mention
            continue
        listed = _listed_after(tokens, prev_cued, first)
        after = _place_after(text, tokens[last].end, placed_at, countries)
        kind = named or _kind_cue(text, tokens, first, last, after)
        if kind is not None and key not in kinds:
            kinds[key] = kind
        if feature or kind or _after_cue(tokens, first) or listed or key == dateline_key:
            cued.add(key)
            prev_cued = (first, last)
        named_area = _country_after(text, tokens[last].end, countries)
        if named_area is not None and key not in where:
            where[key] = named_area.as_place()
        elif after is not None and key not in where:
            where[key] = after
    return cued, people, where, kinds


def _listed_after(tokens: list[_Token], prev_cued: tuple[int, int] | None, first: int) -> bool:
    """ "swallowed Chooralmala and Mundakkai": a name listed after a cued one is cued too."""
    return (
        prev_cued is not None
        and prev_cued[1] + 2 == first
        and tokens[prev_cued[1] + 1].key in ("and", "or")
        and tokens[first].sentence == tokens[prev_cued[1]].sentence
    )


def _kind_cue(
    text: str, tokens: list[_Token], first: int, last: int, after: GazetteerPlace | None
) -> str | None:
    """The kind of place the structure around a name says it is (see cues.structure_cue), or
    "at X in Y" with Y a place smaller than a country."""
    kind = structure_cue(text, tokens, first, last)
    if kind is None and after is not None and after.kind != "country":
        return "village" if at_in(text, tokens, first, last) else None
    return kind


def _place_after(
    text: str, end: int, placed_at: dict[int | None, PlaceMention], countries: CountryTable
) -> GazetteerPlace | None:
    """The area a phrase right after a name puts it in (", in Malappuram", ", on the edge of
    Athens", " in Somalia's southern ..."): a placed mention the phrase leads to."""
    m = PLACE_AFTER.match(text, end, end + 40)
    place = placed_at.get(m.end()) if m else None
    if place is None:
        return None
    if place.kind == "country" and place.country in countries.by_iso:
        return countries.by_iso[place.country].as_place()
    return _around(place)


def _around(town: PlaceMention) -> GazetteerPlace:
    """The area around a placed mention: its point, with a radius that holds a district."""
    return GazetteerPlace(
        id="", name=town.name, lat=town.lat, lon=town.lon, kind="area", country=town.country,
        radius_m=max(town.radius_m, _ADMIN_RADIUS_M), population=None, geonames_id=None,
        source="unplaced",
    )  # fmt: skip


def _after_cue(tokens: list[_Token], first: int) -> bool:
    """Whether a word before the name in its sentence makes it a place ("in", "captured")."""
    before = tokens[first - 1] if first > 0 else None
    return (
        before is not None
        and before.sentence == tokens[first].sentence
        and (not before.cap or before.first_in_sentence)  # "In Mathare, a Nairobi slum"
        and (before.key in _UNKNOWN_LOCATIVE or before.key in _TAKE_VERBS)
    )


# _why_not's answer for a name inside an actor: the actor's kind is the reason.
_ACTOR = "actor"


def _why_not(
    run: tuple[int, int, bool],
    key: str,
    tokens: list[_Token],
    finder: _Finder,
    dateline_key: str | None,
    people: set[str],
    cued: set[str],
) -> str | None:
    """Why a run is no unknown place: "person", _ACTOR, "unknown", or "" (a name the
    gazetteer knows, which the rules of pass one judged); None when it is one."""
    first, last, feature = run
    name_last = last - 1 if feature else last
    start, end = tokens[first].start, tokens[last].end
    given_names = finder.words.given_names
    # The same tests as ever, in an order that gives the most telling reason first.
    if (
        key in people
        or (not feature and any(t.key in given_names for t in tokens[first : last + 1]))
        or any(k in finder.person for k in range(first, name_last + 1))
    ):
        return "person"
    if not feature and (finder._is_blocked(start, end) and key != dateline_key):
        return _ACTOR
    if not feature and finder.gaz is not None and finder.gaz.contains(key):
        return ""
    return "unknown" if key not in cued else None


def _unplaced(
    text: str,
    tokens: list[_Token],
    first: int,
    last: int,
    feature: bool,
    country: GazetteerPlace,
    kind: str | None = None,
) -> PlaceMention:
    """An unknown place: no point, ``within`` the area the text puts it in. "the Hamidai
    area" is "Hamidai": "area" names no kind of place."""
    if feature and tokens[last].key in _BARE_WORDS:
        last -= 1
    start, end = tokens[first].start, tokens[last].end
    kind = kind or ("area" if feature else "village")
    return _unplaced_span(text, start, end, tokens[first].sentence, country, kind)


def _unplaced_span(
    text: str, start: int, end: int, sentence: int, within: GazetteerPlace, kind: str
) -> PlaceMention:
    """An unplaced mention of text[start:end], ``within`` that area."""
    written = " ".join(text[start:end].split())
    if written.isupper() and len(written) > 3:
        written = written.title()  # "BAGHUZ" in a dateline
    return PlaceMention(
        name=written, text=text[start:end], start=start, end=end, sentence=sentence,
        lat=None, lon=None, radius_m=within.radius_m, country=within.country, kind=kind,
        place_id="unplaced:" + normalize(text[start:end]).replace(" ", "-"),
        source="unplaced", via="context", within=within,
    )  # fmt: skip


# Words after a name that say it is a place but add nothing to its name.
_BARE_WORDS = frozenset({"area"})


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
    if feature_kind(tokens, i, last) is not None:
        # "the Suchite River", "Three Powers Square": the feature word and a number word are
        # part of the name, not the stopwords they are alone.
        names = [t for t in names[:-1] if t.key not in NUMBER_WORDS] + names[-1:]
        names = [t for t in names if t.key not in NAMED_FEATURES and t.key not in LEAD_FEATURES]
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
    sentence_text: str,
    sentence: int,
    found: dict[int, list[PlaceMention]],
    votes: _Votes,
    countries: CountryTable,
    *,
    wide: bool = False,
    before: list[PlaceMention] = (),  # type: ignore[assignment]
    start: int = 0,
) -> GazetteerPlace | None:
    """Where an unknown place lies when nothing names its country: near the most precise
    town of its sentence ("Hertford Road" beside Edmonton), with a radius that holds a
    district, or the last town before when the sentence says "the city" of none; else in that
    town's or the article's best-supported country. ``found`` holds the places found, by
    sentence; ``before`` in text order. A ``wide`` place (a river) is put in the country."""
    here = [p for p in found.get(sentence, ())
            if p.country in countries.by_iso and p.role == "place" and p.placed]  # fmt: skip
    # Not the dateline's town: where the report was filed from, not where its places lie.
    towns = [p for p in here if p.kind in _POINT_KINDS and p.radius_m <= ANCHOR_RADIUS_M
             and p.via != "dateline"]  # fmt: skip
    if not towns and not here and _THE_CITY.search(sentence_text):
        # "blasts in the city's north, in the Hamidai area": the city last named.
        towns = [p for p in before if p.sentence < sentence and p.placed and p.role == "place"
                 and p.kind in _POINT_KINDS and p.country in countries.by_iso][-1:]  # fmt: skip
    if towns and not wide:
        return _around(min(towns, key=lambda p: p.radius_m))
    if wide and here:
        # "Kalam in the Swat Valley, north-west Pakistan" after "U.S. helicopters": the
        # country of the place named nearest.
        near = min(here, key=lambda p: abs((p.start or 0) - start))
        return countries.by_iso[near.country].as_place()
    if towns or here:
        return countries.by_iso[(towns or here)[0].country].as_place()
    best = votes.best()
    return countries.by_iso[best].as_place() if best in countries.by_iso else None


_THE_CITY = re.compile(r"\bthe (?:city|town)(?:['’]s)?\b", re.IGNORECASE)


def _sentence_text(text: str, tokens: list[_Token], i: int) -> str:
    """The text of token ``i``'s sentence, from its first token to its last."""
    first = last = i
    while first > 0 and tokens[first - 1].sentence == tokens[i].sentence:
        first -= 1
    while last + 1 < len(tokens) and tokens[last + 1].sentence == tokens[i].sentence:
        last += 1
    return text[tokens[first].start : tokens[last].end]
