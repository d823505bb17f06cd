"""A geopy geocoder that answers from the offline gazetteer, with no network at all."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd
from geopy.exc import GeocoderQueryError
from geopy.geocoders.base import DEFAULT_SENTINEL, Geocoder
from geopy.location import Location
from geopy.point import Point

from geo.errors import DatelineError
from geo.geocoders.gazetteer import Gazetteer, GazetteerPlace
from geo.names import normalize

__all__ = (
    "OfflineGazetteerGeocoder",
    "QueryError",
    "check_query",
    "parse_coordinates",
    "place_to_location",
)


def place_to_location(place: GazetteerPlace) -> Location:
    """geopy Location of a gazetteer place; ``raw`` holds every field of the place."""
    address = f"{place.name}, {place.country}" if place.country else place.name
    return Location(address, (place.lat, place.lon), asdict(place))


class QueryError(DatelineError, GeocoderQueryError):
    """A query no geocoder can take (no name in it, coordinates off the globe).

    Also geopy's GeocoderQueryError: the offline geocoder keeps geopy's contract.
    """


def parse_coordinates(query: object) -> tuple[float, float]:
    """(lat, lon) from a Point, a (lat, lon) pair or a ``"lat, lon"`` string.

    :raises QueryError: if the query is not two finite numbers within
        [-90, 90] and [-180, 180].
    """
    if isinstance(query, Point):
        values: Sequence[object] = (query.latitude, query.longitude)
    elif isinstance(query, str):
        values = query.replace(",", " ").split()
    elif isinstance(query, Sequence):
        values = query
    else:
        raise QueryError(f"Expected (lat, lon), 'lat, lon' or a Point, got {query!r}")
    if len(values) != 2 or any(isinstance(v, bool) for v in values):
        raise QueryError(f"Expected exactly two coordinates, got {query!r}")
    try:
        lat, lon = (float(v) for v in values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise QueryError(f"Coordinates are not numbers: {query!r}") from exc
    if not (math.isfinite(lat) and math.isfinite(lon)):
        raise QueryError(f"Coordinates are not finite: {query!r}")
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise QueryError(f"Coordinates out of range (lat ±90, lon ±180): {query!r}")
    return lat, lon


def check_query(query: object) -> str:
    """The query stripped of surrounding space.

    :raises QueryError: if it is not a string, or holds nothing to match.
    """
    if not isinstance(query, str):
        raise QueryError(f"Query must be a string, got {type(query).__name__}")
    text = query.strip()
    if not text or not normalize(text):
        raise QueryError(f"Query {query!r} has no name in it")
    return text


class OfflineGazetteerGeocoder(Geocoder):
    """Geocoder over :class:`geo.geocoders.gazetteer.Gazetteer`: story places, then GeoNames.

    Synchronous only: it never touches the network, so it takes no adapter. Ambiguous names
    come back ranked by closeness to the story's area, then by population.
    """

    def __init__(
        self,
        gazetteer: Gazetteer | None = None,
        *,
        story_places: pd.DataFrame | None = None,
        focus: tuple[float, float] | None = None,
        cache_dir: Path | None = None,
    ):
        """
        :param gazetteer: A loaded gazetteer. When omitted, one is loaded on first use from
            ``story_places``, ``focus`` and ``cache_dir`` (see :meth:`Gazetteer.load`).
        """
        super().__init__()
        self._gazetteer = gazetteer
        self._load_args = {"story_places": story_places, "focus": focus, "cache_dir": cache_dir}
        self._lock = threading.Lock()

    @property
    def gazetteer(self) -> Gazetteer:
        """The gazetteer, loaded on first use."""
        with self._lock:
            if self._gazetteer is None:
                args = self._load_args
                self._gazetteer = Gazetteer.load(
                    args["story_places"], cache_dir=args["cache_dir"], focus=args["focus"]
                )
            return self._gazetteer

    def geocode(
        self,
        query: str,
        *,
        exactly_one: bool = True,
        timeout: Any = DEFAULT_SENTINEL,
        limit: int | None = None,
    ) -> Location | list[Location] | None:
        """Return the best place called ``query``, or all of them best first.

        :param query: A place name in any common spelling ("Aarsal", "Dayr az-Zawr").
        :param exactly_one: Return one result or a list of results.
        :param timeout: Accepted for geopy compatibility; ignored (nothing to wait for).
        :param limit: With ``exactly_one=False``, at most this many results.
        :rtype: ``None``, :class:`geopy.location.Location` or a list of them.
        :raises QueryError: if ``query`` is not a string or holds no name.
        """
        places = self.gazetteer.lookup(check_query(query))
        if not places:
            return None
        if exactly_one:
            return place_to_location(places[0])
        if limit is not None:
            places = places[: max(int(limit), 1)]
        return [place_to_location(p) for p in places]

    def reverse(
        self,
        query: Point | tuple[float, float] | str,
        *,
        exactly_one: bool = True,
        timeout: Any = DEFAULT_SENTINEL,
    ) -> Location | list[Location] | None:
        """Return the known place nearest to a coordinate.

        :param query: A :class:`geopy.point.Point`, a ``(lat, lon)`` pair or ``"lat, lon"``.
        :param exactly_one: Return one result or a one-item list.
        :param timeout: Accepted for geopy compatibility; ignored.
        :rtype: ``None``, :class:`geopy.location.Location` or a list of them.
        :raises QueryError: if the coordinates cannot be read or are out of range.
        """
        lat, lon = parse_coordinates(query)
        place = self.gazetteer.nearest(lat, lon)
        if place is None:
            return None
        location = place_to_location(place)
        return location if exactly_one else [location]
