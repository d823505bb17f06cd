"""Place mentions in news text, found and resolved per document (see ``find_places``)."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from geo.extract.actors import ActorMention
from geo.extract.places.borders import _anaphors, _border_matches
from geo.extract.places.judge import _disqualify, _in_capitalised_run
from geo.extract.places.match import MAX_CANDIDATES, _Match
from geo.extract.places.passed_over import _actor_kinds, _passed_over, _reject_known
from geo.extract.places.people import _big_place, _person_tokens
from geo.extract.places.rank import _ranked
from geo.extract.places.recognise import _blocked_spans, _Finder, _qualifier_boost, _written_matches
from geo.extract.places.records import PassedOver, PlaceMention
from geo.extract.places.resolve import (
    _local_stranger,
    _mention,
    _near_focus,
    _resolve,
    resolve_dateline,
)
from geo.extract.places.roles import _MODIFIER_AFTER, _PRODUCT_AFTER, _roles
from geo.extract.places.settle import _on_the_stretch, _settle_in_areas
from geo.extract.places.tokens import tokenize
from geo.extract.places.unknown import _unknown_places
from geo.extract.places.votes import ANCHOR_RADIUS_M, _Votes
from geo.extract.places.words import WordLists, load_word_lists
from geo.extract.regions import CountryTable, load_countries
from geo.extract.sentences import Sentence
from geo.geocoders.gazetteer import Gazetteer
from geo.names import normalize

# How a mention was found, by pass-one kind (plain names: "name").
_VIA = {"border": "border", "one-side-border": "border", "anaphor": "anaphor",
        "demonym": "demonym", "qualifier": "qualifier"}  # fmt: skip


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
