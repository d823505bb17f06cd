"""The place a pass-one match stands for, once the vote is counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from geo.extract.places.match import MAX_CANDIDATES, _closeness, _country_of, _Match, _population
from geo.extract.places.rank import _ranked
from geo.extract.places.records import PlaceMention
from geo.extract.places.tokens import _Token
from geo.extract.places.votes import (
    MIN_POP_ALTERNATE_UNVOTED,
    MIN_POP_UNVOTED,
    MIN_POP_UNVOTED_MULTIWORD,
    _Votes,
)
from geo.extract.regions import CountryTable, border_place, directional_place
from geo.geocoders.gazetteer import FAR_KM, Gazetteer, GazetteerPlace
from geo.geometry import sphere_km
from geo.names import normalize

# An area around a town named after it is at least this wide.
_ADMIN_RADIUS_M = 50_000


# Words after a name that make it a part of a town: its own town is the story's.
_LOCAL_WORDS = frozenset({"neighbourhood", "neighborhood", "quarter", "suburb", "district",
                          "area", "camp", "square", "street", "market"})  # fmt: skip


# Words for a part of a town that an apposition gives a name: "Rampura, a residential
# neighbourhood".
_PART_WORDS = frozenset({"neighbourhood", "neighborhood", "suburb", "quarter", "slum"})


def _called_a_part(m: _Match, tokens: list[_Token]) -> bool:
    """ "Rampura, a residential neighbourhood": the text calls the name a part of a town."""
    nxt = m.last + 1
    if nxt >= len(tokens) or tokens[m.last].joins_next or tokens[nxt].key not in ("a", "an"):
        return False
    after = tokens[nxt + 1 : nxt + 4]
    return any(t.key in _PART_WORDS and t.sentence == tokens[nxt].sentence for t in after)


def _local_stranger(m: _Match, place: GazetteerPlace, tokens: list[_Token], votes: _Votes) -> bool:
    """A name followed by a word for part of a town ("the Karama neighbourhood") resolved to a
    town in a country the article gives no other support; or one the text calls a part of a
    town ("Rampura, a residential neighbourhood") resolved to a city (Rangpur, of which
    "Rampura" is an alternate name)."""
    if place.source == "geonames" and place.kind == "city" and _called_a_part(m, tokens):
        return True
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


# geoBoundaries' sub-districts, wards and communes (data/scripts/build_districts.py): small
# units whose names repeat from country to country, as villages' do.
SMALL_UNIT = "adm3:gb-"


def _small_unit_ok(m: _Match, place: GazetteerPlace, votes: _Votes) -> bool:
    """A small unit counts in the article's best-supported country, or beside other places of
    the article: "the Karama District" in a report on Mosul is no Syrian sub-district."""
    if votes.best() == place.country:
        return True
    return votes.neighbours(place, m.key, 1) >= 1


def _mention(
    text: str,
    m: _Match,
    place: GazetteerPlace,
    sentence: int,
    via: str,
    ranked: list[GazetteerPlace] | None = None,
) -> PlaceMention:
    candidates = tuple((ranked or m.candidates)[:MAX_CANDIDATES])
    return mention_at(text, m.start, m.end, place, sentence, via, candidates)


def mention_at(
    text: str,
    start: int,
    end: int,
    place: GazetteerPlace,
    sentence: int,
    via: str,
    candidates: tuple[GazetteerPlace, ...],
) -> PlaceMention:
    """The mention of ``place`` written at ``text[start:end]``, found ``via`` a rule."""
    return PlaceMention(
        name=place.name,
        text=text[start:end],
        start=start,
        end=end,
        sentence=sentence,
        lat=place.lat,
        lon=place.lon,
        radius_m=place.radius_m,
        country=place.country,
        kind=place.kind,
        place_id=place.id,
        source=place.source,
        via=via,
        candidates=candidates,
    )


def _stranger_mention(
    text: str,
    m: _Match,
    place: GazetteerPlace,
    sentence: int,
    ranked: list[GazetteerPlace],
    votes: _Votes,
    countries: CountryTable,
) -> PlaceMention:
    """ "the Karama neighbourhood" in a report on Mosul is no town of the Emirates: a part of a
    town named in a country the article never names (see _local_stranger) is left unplaced,
    within the article's best-supported country."""
    within = countries.by_iso.get(votes.best() or "")
    return replace(
        _mention(text, m, place, sentence, "context", ranked),
        name=text[m.start : m.end], lat=None, lon=None, kind="area",
        place_id="unplaced:" + normalize(text[m.start : m.end]).replace(" ", "-"),
        source="unplaced", within=within.as_place() if within else None,
        country=within.iso2 if within else "",
    )  # fmt: skip


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


def _near_focus(gaz: Gazetteer | None) -> Callable[[GazetteerPlace], bool] | None:
    """Whether a GeoNames place lies in the story's area (None when there is no story area)."""
    if gaz is None or gaz.focus is None:
        return None
    focus = gaz.focus

    def near(p: GazetteerPlace) -> bool:
        return p.source == "geonames" and sphere_km(focus, p.point) <= FAR_KM

    return near


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
    if place.id.startswith(SMALL_UNIT) and not _small_unit_ok(base, place, votes):
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
