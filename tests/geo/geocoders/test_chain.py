"""GeocoderChain: offline first, the online service only when enabled, cached, never raising."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from geopy.exc import (
    GeocoderQueryError,
    GeocoderRateLimited,
    GeocoderServiceError,
    GeocoderTimedOut,
    GeocoderUnavailable,
)
from geopy.geocoders import Nominatim
from geopy.geocoders.base import DEFAULT_SENTINEL, Geocoder
from geopy.location import Location

from geo.geocoders import chain as chain_module
from geo.geocoders.chain import (
    DEFAULT_ONLINE_RADIUS_M,
    MIN_ONLINE_RADIUS_M,
    GeocoderChain,
    online_radius_m,
)
from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, story_places_from_frame
from geo.geocoders.offline import OfflineGazetteerGeocoder
from tests.helpers import FIXTURES

UNKNOWN = "Jurud Qara"  # in neither the story nor the small GeoNames below

# What Nominatim sends back for a village: its point and bounding box (~1.4 km across).
NOMINATIM_RAW = {
    "place_id": 1,
    "lat": "34.1200",
    "lon": "36.6000",
    "display_name": "Jurud Qara, Rif Dimashq, Syria",
    "boundingbox": ["34.1150", "34.1250", "36.5940", "36.6060"],
    "addresstype": "village",
    "address": {"country_code": "sy"},
}
ANSWER = Location(NOMINATIM_RAW["display_name"], (34.12, 36.6), NOMINATIM_RAW)


class FakeOnline(Geocoder):
    """Stands in for an online service: answers, finds nothing, or fails; counts its calls."""

    def __init__(self, behaviour: Location | Exception | None):
        super().__init__()
        self.behaviour = behaviour
        self.calls: list[str] = []

    def geocode(self, query, *, exactly_one=True, timeout=DEFAULT_SENTINEL):
        self.calls.append(query)
        if isinstance(self.behaviour, Exception):
            raise self.behaviour
        return self.behaviour


@pytest.fixture(scope="module")
def offline() -> OfflineGazetteerGeocoder:
    frame = pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)
    cities = [
        {
            "geonameid": 169577,
            "name": "Homs",
            "latitude": 34.72405,
            "longitude": 36.72559,
            "countrycode": "SY",
            "population": 775404,
            "alternatenames": ["Hims"],
        }
    ]
    gazetteer = Gazetteer(build_geonames_index(cities), story_places_from_frame(frame))
    return OfflineGazetteerGeocoder(gazetteer)


def make_chain(offline, online, tmp_path: Path) -> GeocoderChain:
    return GeocoderChain(
        offline,
        online,
        service="fake",
        cache_path=tmp_path / "online.json",
        min_delay_seconds=0,  # the real chain waits 1 s between requests; tests never sleep
    )


def test_online_disabled_by_default(offline, tmp_path) -> None:
    chain = GeocoderChain.from_env(offline, env={}, cache_dir=tmp_path)
    assert not chain.online_enabled
    result = chain.geocode(UNKNOWN)
    assert not result.found and result.source is None and result.warnings == ()
    assert list(tmp_path.iterdir()) == []


def test_offline_first(offline, tmp_path) -> None:
    online = FakeOnline(ANSWER)
    result = make_chain(offline, online, tmp_path).geocode("Aarsal")
    assert result.found and result.source == "story" and result.location.raw["id"] == "arsal"
    assert online.calls == []


def test_online_answer_and_cache(offline, tmp_path) -> None:
    online = FakeOnline(ANSWER)
    chain = make_chain(offline, online, tmp_path)
    first = chain.geocode(UNKNOWN)
    assert first.found and first.source == "online:fake" and not first.cached
    raw = first.location.raw
    assert (raw["country"], raw["kind"], raw["source"]) == ("SY", "village", "online:fake")
    assert 500 < raw["radius_m"] < 1000  # half the box's diagonal
    assert raw["online_raw"]["place_id"] == 1

    second = chain.geocode(f"  {UNKNOWN.upper()} ")
    assert second.cached and second.location.point == first.location.point
    assert second.location.raw == raw
    # A new process reads the file: still no second request.
    again = make_chain(offline, online, tmp_path).geocode(UNKNOWN)
    assert again.cached and again.found
    assert online.calls == [UNKNOWN]
    entries = json.loads((tmp_path / "online.json").read_text(encoding="utf-8"))["entries"]
    assert [e["query"] for e in entries.values()] == [UNKNOWN]
    assert [p.name for p in tmp_path.iterdir()] == ["online.json"]  # no temporary file left


def test_nothing_found_online_is_cached_too(offline, tmp_path) -> None:
    online = FakeOnline(None)
    chain = make_chain(offline, online, tmp_path)
    assert not chain.geocode(UNKNOWN).found
    result = chain.geocode(UNKNOWN)
    assert not result.found and result.cached and result.warnings == ()
    assert online.calls == [UNKNOWN]


@pytest.mark.parametrize(
    "failure",
    [
        GeocoderTimedOut("Service timed out"),
        GeocoderUnavailable("Service not available"),
        GeocoderServiceError("HTTP 500"),
        GeocoderRateLimited("Too many requests", retry_after=60),
        ConnectionResetError("connection reset"),
    ],
)
def test_service_failure_is_reported_not_raised(offline, tmp_path, failure) -> None:
    online = FakeOnline(failure)
    chain = make_chain(offline, online, tmp_path)
    result = chain.geocode(UNKNOWN)
    assert not result.found and not result.cached
    [warning] = result.warnings
    assert "fake" in warning and type(failure).__name__ in warning
    # Failures are not cached: the next call asks again.
    chain.geocode(UNKNOWN)
    assert online.calls == [UNKNOWN, UNKNOWN]


def test_failure_does_not_hide_offline_answer(offline, tmp_path) -> None:
    online = FakeOnline(GeocoderUnavailable("down"))
    result = make_chain(offline, online, tmp_path).geocode("Hims")
    assert result.found and result.source == "geonames" and online.calls == []


@pytest.mark.parametrize("query", ["", "  ", None, 3])
def test_bad_query_still_raises(offline, tmp_path, query) -> None:
    online = FakeOnline(ANSWER)
    with pytest.raises(GeocoderQueryError):
        make_chain(offline, online, tmp_path).geocode(query)
    assert online.calls == []


def test_unreadable_cache_is_replaced(offline, tmp_path) -> None:
    (tmp_path / "online.json").write_text("{not json", encoding="utf-8")
    online = FakeOnline(ANSWER)
    result = make_chain(offline, online, tmp_path).geocode(UNKNOWN)
    assert result.found and any("unreadable" in w for w in result.warnings)
    assert json.loads((tmp_path / "online.json").read_text(encoding="utf-8"))["entries"]


# -- configuration ----------------------------------------------------------------------------


def test_env_enables_nominatim(offline, tmp_path) -> None:
    env = {"DATELINE_ONLINE_GEOCODER": "nominatim", "DATELINE_GEOCODER_DOMAIN": "geo.example.org"}
    chain = GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path)
    assert chain.online_enabled and isinstance(chain.online, Nominatim)
    assert chain.online.domain == "geo.example.org"
    assert "Dateline" in chain.online.headers["User-Agent"]
    assert chain.cache_path == tmp_path / "online-geocodes.json"


@pytest.mark.parametrize(
    ("env", "enable", "expected"),
    [
        ({}, None, None),
        ({}, False, None),
        ({}, True, "nominatim"),
        ({"DATELINE_ONLINE_GEOCODER": "off"}, None, None),
        ({"DATELINE_ONLINE_GEOCODER": "Photon"}, None, "photon"),
        ({"DATELINE_ONLINE_GEOCODER": "photon"}, True, "photon"),
        ({"DATELINE_ONLINE_GEOCODER": "photon"}, False, None),
    ],
)
def test_which_service(offline, tmp_path, env, enable, expected) -> None:
    chain = GeocoderChain.from_env(offline, env=env, enable_online=enable, cache_dir=tmp_path)
    assert (chain.service if chain.online_enabled else None) == expected


def test_user_agent_from_env(offline, tmp_path) -> None:
    env = {"DATELINE_ONLINE_GEOCODER": "nominatim", "DATELINE_USER_AGENT": "newsroom-map/2"}
    chain = GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path)
    assert chain.online.headers["User-Agent"] == "newsroom-map/2"


@pytest.mark.parametrize("service", ["no-such-geocoder", "googlev3"])  # unknown; needs a key
def test_unusable_service_leaves_chain_offline(offline, tmp_path, service) -> None:
    env = {"DATELINE_ONLINE_GEOCODER": service}
    chain = GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path)
    assert not chain.online_enabled
    result = chain.geocode("Arsal")
    assert result.found and service in result.warnings[0]


def test_rate_limiter_wraps_the_service(offline, tmp_path, monkeypatch) -> None:
    seen = {}

    class SpyLimiter:
        def __init__(self, func, **kwargs):
            seen.update(kwargs)
            self.func = func

        def __call__(self, *args, **kwargs):
            return self.func(*args, **kwargs)

    monkeypatch.setattr(chain_module, "RateLimiter", SpyLimiter)
    env = {"DATELINE_ONLINE_GEOCODER": "nominatim"}
    GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path)
    assert seen == {"min_delay_seconds": 1.0, "max_retries": 0, "swallow_exceptions": False}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"boundingbox": ["34.0", "34.2", "36.0", "36.2"]}, (14_000, 15_500)),
        ({"bbox": [36.0, 34.0, 36.2, 34.2]}, (14_000, 15_500)),  # GeoJSON order (Pelias)
        ({"boundingbox": ["34.1", "34.1", "36.1", "36.1"]}, (MIN_ONLINE_RADIUS_M,) * 2),
        ({}, (DEFAULT_ONLINE_RADIUS_M,) * 2),
        ({"boundingbox": ["x", "y"]}, (DEFAULT_ONLINE_RADIUS_M,) * 2),
    ],
)
def test_online_radius(raw, expected) -> None:
    low, high = expected
    assert low <= online_radius_m(raw, 34.1, 36.1) <= high
