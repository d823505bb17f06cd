"""geoBoundaries' districts named without a type word ("protesters in Rampura"), where the
article's own places vouch for them."""

from __future__ import annotations

import numpy as np

from geo.extract.places.match import _country_of
from geo.extract.places.recognise import _Finder
from geo.extract.places.records import PlaceMention
from geo.extract.places.resolve import mention_at
from geo.extract.places.tokens import _Token
from geo.extract.places.unknown import _BARE_WORDS
from geo.extract.places.votes import ANCHOR_RADIUS_M, _Votes
from geo.extract.sentences import Spans
from geo.geocoders.gazetteer import GazetteerPlace, _haversine_km
from geo.names import normalize

# A bare district name counts only this close to a town or district the article placed: the
# sub-districts, wards and barrios of districts.csv.gz repeat their names from country to
# country and from province to province, as villages do; beside the story's own towns, in the
# country the story is about, the name is the one there (a thana of Dhaka in a Dhaka report).
DISTRICT_NEAR_KM = 120.0


def _bare_districts(
    text: str,
    tokens: list[_Token],
    runs: list[tuple[int, int, bool]],
    found: list[PlaceMention],
    finder: _Finder,
    votes: _Votes,
    person_keys: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[PlaceMention]:
    """Capitalised names (of ``runs``, ``_unknown_runs``'s) the finder left unplaced or let go,
    written without a type word, that name one of geoBoundaries' districts
    (``Gazetteer.districts``) in the article's best-supported country within DISTRICT_NEAR_KM of
    a town or district of that country the article placed: every mention of such a name, placed
    at the nearest such district.

    Left alone: a name in a sentence that places something in another country, one the text
    also writes in lowercase ("the valley"), or capitalises only
    at a sentence's start (a common word), a person's or an actor's name, a name of a
    division of ``areas.csv`` or of a town of that country (the finder judged those), and a
    name before a feature word ("the Guajataca Dam" is no barrio, the dam is)."""
    gaz = finder.gaz
    best = votes.best()
    if gaz is None or best is None:
        return []
    anchors = [
        (p.lat, p.lon) for p in found
        if p.placed and p.role == "place" and p.country == best and p.kind != "country"
        and p.radius_m <= ANCHOR_RADIUS_M
    ]  # fmt: skip
    if not anchors:
        return []
    placed = Spans((p.start, p.end) for p in found if p.placed and p.start is not None)
    names: dict[str, list[tuple[int, int]]] = {}
    for first, last, feature in runs:
        # "the Guajataca Dam" is the dam, which the finder leaves unplaced even by a town
        # ("the Mosul Dam"): no feature lies at the middle of the place it is named after.
        # "the Nyiragongo area" is Nyiragongo ("area" names no kind of place).
        if feature and tokens[last].key in _BARE_WORDS:
            feature, last = False, last - 1
        if not feature:
            key = normalize(" ".join(t.text for t in tokens[first : last + 1]))
            names.setdefault(key, []).append((first, last))
    # Words the text writes in lowercase somewhere: a name all of whose words are among them is
    # a common word capitalised ("Bazar" beside "the bazar"). A set, not a search per name:
    # an article of 100,000 names stays linear.
    lowercase = {t.key for t in tokens if t.text[:1].islower()}
    points = np.unique(np.round(np.array(anchors), 2), axis=0)
    # Sentences that name another country than the story's: a name there may lie in it.
    elsewhere: dict[int, bool] = {}
    for p in found:
        if p.placed and p.country and p.country != best:
            elsewhere[p.sentence] = True
    out = []
    for key, spans in names.items():
        if any(placed.overlaps(tokens[f].start, tokens[la].end) for f, la in spans):
            continue  # the finder placed the name: a town, a division, a story place
        # The table first: most names are no district of that country, and that is a lookup.
        mine = [p for p in gaz.districts(key) if p.country == best]
        if not mine or all(w in lowercase for w in key.split()):
            continue
        if not _bare_name(key, spans, tokens, finder, person_keys):
            continue
        if any(elsewhere.get(tokens[f].sentence) for f, _ in spans):
            continue  # "from the border town of Rubavu", beside Rwanda's minister
        if any(_country_of(p) == [best] and normalize(p.name) == key for p in gaz.lookup(key)):
            continue  # a town of that name in that country, which the finder let go
        place = _nearest_district(mine, points)
        if place is None:
            continue
        for first, last in spans:
            start, end = tokens[first].start, tokens[last].end
            sentence = tokens[first].sentence
            out.append(mention_at(text, start, end, place, sentence, "context", (place,)))
    return out


def _bare_name(
    key: str,
    spans: list[tuple[int, int]],
    tokens: list[_Token],
    finder: _Finder,
    person_keys: set[str],
) -> bool:
    """Whether a capitalised name may be a district's written bare: a proper name (some
    mention inside a sentence) of no person, actor or division."""
    gaz = finder.gaz
    if gaz is None or key in person_keys or gaz.is_division(key):
        return False
    if all(tokens[first].first_in_sentence for first, _ in spans):
        return False
    given = finder.words.given_names
    for first, last in spans:
        start, end = tokens[first].start, tokens[last].end
        if finder._is_blocked(start, end) or any(
            k in finder.person for k in range(first, last + 1)
        ):
            return False
        if any(t.key in given for t in tokens[first : last + 1]):
            return False
    return True


def _nearest_district(places: list[GazetteerPlace], anchors: np.ndarray) -> GazetteerPlace | None:
    """The district nearest an anchor ((lat, lon) rows), if within DISTRICT_NEAR_KM."""
    best: tuple[float, GazetteerPlace] | None = None
    for place in places:
        km = float(_haversine_km(place.lat, place.lon, anchors[:, 0], anchors[:, 1]).min())
        if km <= DISTRICT_NEAR_KM and (best is None or km < best[0]):
            best = (km, place)
    return best[1] if best else None
