"""The country vote over the whole article, and the places that anchor the second pass."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from geo.extract.places.match import (
    MAX_CANDIDATES,
    _closeness,
    _country_of,
    _Match,
    _Pool,
    _population,
)
from geo.extract.places.tokens import _Token
from geo.extract.regions import CountryTable, us_state_names
from geo.geocoders.gazetteer import GazetteerPlace
from geo.geometry import sphere_km

# A single-word GeoNames place in a country the article does not otherwise name needs this
# many people; in a named country any populated place will do.
MIN_POP_UNVOTED = 15_000
MIN_POP_UNVOTED_MULTIWORD = 5_000
MIN_POP_ALTERNATE_UNVOTED = 100_000
# Other places of the article within this distance of a candidate support it (see rank).
NEIGHBOUR_KM = 150.0
# Places this precise anchor the second pass; countries and provinces are too wide to.
ANCHOR_RADIUS_M = 100_000


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
            self._count(m, areas_of)
        self._count_words(countries)

    def _count(
        self, m: _Match, areas_of: Callable[[list[GazetteerPlace]], list[GazetteerPlace]] | None
    ) -> None:
        """One name's votes, and the first-level division it names or is written with."""
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
                    sentence = self.tokens[m.first].sentence if m.first >= 0 else 0
                    by_sentence = self.division_sentences.setdefault(p.country, {})
                    by_sentence.setdefault(sentence, set()).add(m.key)
        if m.boost_division:
            self.divisions.setdefault(m.boost_division, set()).add("")

    def _count_words(self, countries: CountryTable) -> None:
        """A vote for each capitalised demonym ("Syrian") for its country, and for each US
        state's name for the US."""
        states = us_state_names()
        for tok in self.tokens:
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
