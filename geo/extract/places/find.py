"""Place mentions in news text, found and resolved per document (see ``find_places``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace

from geo.extract.actors import ActorMention
from geo.extract.places.borders import _anaphors, _border_matches
from geo.extract.places.districts import _bare_districts
from geo.extract.places.judge import _judge_matches
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
    _stranger_mention,
    resolve_dateline,
)
from geo.extract.places.roles import _roles
from geo.extract.places.settle import _on_the_stretch, _settle_in_areas
from geo.extract.places.tokens import _Token, tokenize
from geo.extract.places.unknown import _unknown_places, _unknown_runs
from geo.extract.places.votes import ANCHOR_RADIUS_M, _Votes
from geo.extract.places.words import WordLists, load_word_lists
from geo.extract.regions import CountryTable, load_countries
from geo.extract.sentences import Sentence
from geo.geocoders.gazetteer import Gazetteer, GazetteerPlace
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
    districts: bool = True,
    passed_over: list[PassedOver] | None = None,
) -> list[PlaceMention]:
    """Place mentions in ``text`` resolved by a document-level country vote, in text order.

    ``dateline`` is (place name, start, end) of the report's dateline; its span may be None when
    the caller names the dateline place without it being in the text. ``demonyms`` adds
    "Turkish", "Syrian" as mentions of the country (via ``demonym``); by default they only vote,
    as an adjective names who or what, not where. ``unknown`` adds the names no gazetteer
    knows that the text uses as places (see :func:`_unknown_places`); ``districts`` the
    districts named without a type word that the article's places vouch for (see
    :func:`_bare_districts`). ``passed_over``, when
    given, gets the capitalised names looked at and let go, in text order (see
    :class:`PassedOver`); asking for them changes no mention.
    """
    words = words or load_word_lists()
    countries = countries or load_countries()
    tokens = tokenize(text, sentences)
    blocked = _blocked_spans(text, actors or [])
    dateline_match = _dateline_match(dateline, gazetteer, countries, blocked)
    person, person_keys = _people(text, tokens, words, gazetteer, countries)
    finder = _Finder(text, tokens, gazetteer, countries, words, blocked, person)
    matches = _pass_one(finder, blocked)
    _judge_matches(finder, matches, person_keys, demonyms)
    if dateline_match is not None and dateline_match.end >= 0:
        dateline_match.boost, dateline_match.boost_division = _qualifier_boost(
            text, dateline_match, countries, gazetteer, finder
        )
    _one_sense(matches, dateline_match)
    _countries_in_lists(text, matches)
    votes = _Votes(matches, tokens, countries, dateline_match, finder.areas)
    near = _near_focus(gazetteer)
    _anchor_first_choices(matches, dateline_match, votes, countries, near)
    # Rejected names as (first token, last token, reason), turned into records at the end.
    rejected: list[tuple[int, int, str]] | None = [] if passed_over is not None else None
    out: list[PlaceMention] = []
    if dateline is not None and dateline_match is not None:
        out.append(_dateline_mention(text, dateline_match, dateline[0], votes, near))
    out += _known_mentions(finder, matches, votes, near, rejected)
    # The capitalised runs that may be names no gazetteer places: read by both passes below.
    runs = _unknown_runs(tokens, words, countries) if districts or unknown else []
    if districts:
        bare = _bare_districts(text, tokens, runs, out, finder, votes, person_keys)
        # A name the vote left unplaced ("Rampura", whose only town is Rangpur by an alternate
        # name) is the district where one is vouched for.
        spans = {(p.start, p.end) for p in bare}
        out = [p for p in out if p.placed or (p.start, p.end) not in spans] + bare
    if unknown:
        dateline_key = normalize(dateline[0]) if dateline and not dateline_match else None
        out += _unknown_places(
            text, tokens, runs, out, finder, votes, countries, dateline_key, person_keys,
            rejected=rejected, actor_kind=_actor_kinds(actors or []) if rejected is not None
            else None,
        )  # fmt: skip
        out.sort(key=lambda p: p.start if p.start is not None else -1)
    if passed_over is not None and rejected is not None:
        passed_over += _passed_over(text, tokens, rejected, words)
    return _roles(text, _on_the_stretch(_settle_in_areas(out)))


def _people(
    text: str,
    tokens: list[_Token],
    words: WordLists,
    gazetteer: Gazetteer | None,
    countries: CountryTable,
) -> tuple[set[int], set[str]]:
    """The tokens of people's names, and their surnames (the last word of each name)."""
    person = _person_tokens(
        tokens, words, lambda key: _big_place(gazetteer, countries, key), text,
        longest_place=max(countries.max_tokens, gazetteer.max_name_tokens if gazetteer else 0),
    )  # fmt: skip
    return person, {tokens[k].key for k in person if k + 1 not in person}


def _dateline_match(
    dateline: tuple[str, int | None, int | None] | None,
    gazetteer: Gazetteer | None,
    countries: CountryTable,
    blocked: list[tuple[int, int]],
) -> _Match | None:
    """The dateline place as a match (its span -1 when not in the text), if any gazetteer or
    the country table knows it; its span joins ``blocked``."""
    if dateline is None:
        return None
    name, d_start, d_end = dateline
    if d_start is not None and d_end is not None:
        blocked.append((d_start, d_end))
    candidates = resolve_dateline(name, gazetteer, countries)
    if not candidates:
        return None
    return _Match(-1, -1, -1 if d_start is None else d_start, -1 if d_end is None else d_end,
                  normalize(name), candidates, "dateline")  # fmt: skip


def _pass_one(finder: _Finder, blocked: list[tuple[int, int]]) -> list[_Match]:
    """Every known name in text order: borders and written abbreviations first (no other name
    is read inside them), then the finder's scan, then "the border" after a border."""
    text, tokens, gazetteer, countries = finder.text, finder.tokens, finder.gaz, finder.countries
    borders = _border_matches(text, tokens, finder, countries)
    borders += [
        w for w in _written_matches(text, tokens, gazetteer, countries)
        if not any(w.start < b.end and b.start < w.end for b in borders)
    ]  # fmt: skip
    finder.blocked = blocked + [(b.start, b.end) for b in borders]
    matches = sorted(borders + finder.scan(), key=lambda m: m.start)
    return sorted(matches + _anaphors(text, tokens, matches), key=lambda m: m.start)


def _anchor_first_choices(
    matches: list[_Match],
    dateline: _Match | None,
    votes: _Votes,
    countries: CountryTable,
    near: Callable[[GazetteerPlace], bool] | None,
) -> None:
    """The first of two passes: the places chosen first anchor the second choice ("London"
    near St. Thomas, Ontario is London, Ontario)."""
    for m in [*matches, *([dateline] if dateline else [])]:
        if m.reasons:
            continue
        first, _ = (
            (_ranked(m, votes, near)[0], None) if m.kind == "dateline"
            else _resolve(m, votes, countries, near)
        )  # fmt: skip
        if first is not None and first.radius_m <= ANCHOR_RADIUS_M:
            votes.add_anchor(m.key, first)


def _dateline_mention(
    text: str,
    m: _Match,
    name: str,
    votes: _Votes,
    near: Callable[[GazetteerPlace], bool] | None,
) -> PlaceMention:
    """The dateline place, candidates best first; written ``name`` (as the caller gave it) when
    the text does not hold it."""
    ranked = _ranked(m, votes, near)
    place = ranked[0]
    start = m.start if m.start >= 0 else None
    end = m.end if m.end >= 0 else None
    written = text[start:end] if start is not None and end is not None else name
    return PlaceMention(place.name, written, start, end, 0, place.lat, place.lon,
                        place.radius_m, place.country, place.kind, place.id, place.source,
                        "dateline", tuple(ranked[:MAX_CANDIDATES]))  # fmt: skip


def _known_mentions(
    finder: _Finder,
    matches: list[_Match],
    votes: _Votes,
    near: Callable[[GazetteerPlace], bool] | None,
    rejected: list[tuple[int, int, str]] | None,
) -> list[PlaceMention]:
    """The second pass: each match the verdicts kept, resolved; ``rejected`` (when given)
    notes the others."""
    text, tokens, countries = finder.text, finder.tokens, finder.countries
    out: list[PlaceMention] = []
    for m in matches:
        if m.reasons:
            if rejected is not None:
                _reject_known(m, m.reasons, rejected)
            continue
        place, ranked = _resolve(m, votes, countries, near)
        if place is None:
            if rejected is not None:
                _reject_known(m, ["unsupported"], rejected)
            continue
        sentence = tokens[m.first].sentence
        if _local_stranger(m, place, tokens, votes):
            out.append(_stranger_mention(text, m, place, sentence, ranked, votes, countries))
            continue
        mention = _mention(text, m, place, sentence, _VIA.get(m.kind, "name"), ranked)
        out.append(replace(mention, role="modifier") if m.modifier else mention)
    return out
