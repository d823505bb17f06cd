"""OfflineGazetteerGeocoder: geopy's geocoder contract over a small and over the real gazetteer."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
import pytest
from geopy.geocoders.base import Geocoder
from geopy.location import Location
from geopy.point import Point

from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, story_places_from_frame
from geo.geocoders.offline import OfflineGazetteerGeocoder, QueryError, parse_coordinates
from tests.helpers import (
    FIXTURES,
    city,
)

RAW_KEYS = {
    "id",
    "admin1",
    "name",
    "lat",
    "lon",
    "kind",
    "country",
    "radius_m",
    "population",
    "geonames_id",
    "source",
}


SMALL_WORLD = [
    city(169577, "Homs", 34.72405, 36.72559, "SY", 775404, "Hims"),
    city(2219905, "Al Khums", 32.64861, 14.26191, "LY", 201943, "Homs"),
    city(266826, "Tripoli", 34.43352, 35.84415, "LB", 229398),
    city(2210247, "Tripoli", 32.88743, 13.18733, "LY", 1302947),
    city(277130, "Baalbek", 34.00583, 36.21806, "LB", 30916, "Ba`labakk"),
]


@pytest.fixture(scope="module")
def story_frame() -> pd.DataFrame:
    return pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)


class GeocoderContract:
    """Behaviour every offline geocoder must show, whichever gazetteer is behind it."""

    @pytest.fixture
    def geocoder(self) -> OfflineGazetteerGeocoder:
        raise NotImplementedError

    def test_is_a_geopy_geocoder(self, geocoder) -> None:
        assert isinstance(geocoder, Geocoder)
        assert "User-Agent" in geocoder.headers  # Geocoder.__init__ ran

    @pytest.mark.parametrize(
        ("query", "place_id"),
        [("Ras Baalbek", "ras-baalbek"), ("El Qaa", "al-qaa"), ("  ersal ", "arsal")],
    )
    def test_geocode_story_place(self, geocoder, query: str, place_id: str) -> None:
        location = geocoder.geocode(query)
        assert isinstance(location, Location)
        assert set(location.raw) == RAW_KEYS
        assert location.raw["id"] == place_id and location.raw["source"] == "story"
        assert (location.latitude, location.longitude) == (location.raw["lat"], location.raw["lon"])
        assert location.address.startswith(location.raw["name"] + ", LB")

    def test_geocode_geonames_place(self, geocoder) -> None:
        location = geocoder.geocode("Hims")
        assert location.raw["source"] == "geonames" and location.raw["country"] == "SY"
        assert location.raw["id"] == f"gn:{location.raw['geonames_id']}"

    def test_all_candidates_best_first(self, geocoder) -> None:
        locations = geocoder.geocode("Tripoli", exactly_one=False)
        assert isinstance(locations, list) and len(locations) >= 2
        countries = [loc.raw["country"] for loc in locations]
        assert countries[0] == "LB" and "LY" in countries[1:]
        assert geocoder.geocode("Tripoli", exactly_one=False, limit=1) == locations[:1]

    @pytest.mark.parametrize("exactly_one", [True, False])
    def test_nothing_found_is_none(self, geocoder, exactly_one: bool) -> None:
        assert geocoder.geocode("Xyzzyville Qqq", exactly_one=exactly_one) is None

    def test_timeout_accepted_and_ignored(self, geocoder) -> None:
        # geopy's callers pass a timeout; offline there is nothing to wait for: same answers.
        arsal = geocoder.geocode("Arsal", timeout=0.001)
        assert arsal == geocoder.geocode("Arsal")
        assert arsal.raw["name"] == "Arsal" and arsal.raw["country"] == "LB"
        tripolis = geocoder.geocode("Tripoli", exactly_one=False, timeout=0.001)
        assert tripolis == geocoder.geocode("Tripoli", exactly_one=False)

    @pytest.mark.parametrize("query", ["", "   ", "-- '", None, 42, b"Arsal", ["Arsal"]])
    def test_bad_query_raises(self, geocoder, query) -> None:
        with pytest.raises(QueryError):
            geocoder.geocode(query)

    @pytest.mark.parametrize(
        "query",
        [(34.2595, 36.4235), [34.2595, 36.4235], "34.2595, 36.4235", " 34.2595 36.4235 "],
    )
    def test_reverse(self, geocoder, query) -> None:
        location = geocoder.reverse(query)
        assert location is not None and location.raw["id"] == "ras-baalbek"

    def test_reverse_point_and_list(self, geocoder) -> None:
        [location] = geocoder.reverse(Point(34.7, 36.7), exactly_one=False)
        assert location.raw["name"] == "Homs"

    @pytest.mark.parametrize(
        "query",
        [
            (91, 0),
            (0, 181),
            (-90.5, 0),
            "abc",
            "1, 2, 3",
            "34.2",
            "",
            (True, 1),
            (math.nan, 0),
            (0, math.inf),
            None,
            34.2,
        ],
    )
    def test_reverse_bad_query_raises(self, geocoder, query) -> None:
        with pytest.raises(QueryError):
            geocoder.reverse(query)


class TestSmallWorld(GeocoderContract):
    @pytest.fixture
    def geocoder(self, story_frame) -> OfflineGazetteerGeocoder:
        index = build_geonames_index(SMALL_WORLD)
        return OfflineGazetteerGeocoder(Gazetteer(index, story_places_from_frame(story_frame)))


@pytest.fixture(scope="module")
def real_geocoder(story_frame, tmp_path_factory) -> OfflineGazetteerGeocoder:
    env = os.environ.get("DATELINE_CACHE_DIR")
    cache = Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"
    # Loaded lazily on the first query, from the same index the gazetteer tests use.
    return OfflineGazetteerGeocoder(story_places=story_frame, cache_dir=cache)


class TestRealWorld(GeocoderContract):
    @pytest.fixture
    def geocoder(self, real_geocoder) -> OfflineGazetteerGeocoder:
        return real_geocoder


@pytest.mark.parametrize(
    ("query", "expected"),
    [((1, 2), (1.0, 2.0)), ("-33.5,151", (-33.5, 151.0)), (Point(10, 20), (10.0, 20.0))],
)
def test_parse_coordinates(query, expected) -> None:
    assert parse_coordinates(query) == expected
