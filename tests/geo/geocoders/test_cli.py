"""``python -m geo geocode``: one JSON object out, exit 0 / 1 / 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from geopy.exc import GeocoderUnavailable
from geopy.extra.rate_limiter import RateLimiter
from geopy.geocoders.base import DEFAULT_SENTINEL, Geocoder
from geopy.location import Location

from geo.__main__ import main
from geo.geocoders import chain as chain_module
from tests.helpers import FIXTURES

FIELDS = {"query", "found", "name", "lat", "lon", "radius_m", "source", "id", "country", "kind"}


@pytest.fixture
def cache_args(tmp_path_factory, monkeypatch) -> list[str]:
    """Share the session's GeoNames index; keep the environment from turning the network on."""
    for name in ("DATELINE_ONLINE_GEOCODER", "DATELINE_GEOCODER_DOMAIN", "DATELINE_USER_AGENT"):
        monkeypatch.delenv(name, raising=False)
    env = os.environ.get("DATELINE_CACHE_DIR")
    cache = Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"
    return ["--cache-dir", str(cache)]


def run(capsys, argv: list[str]) -> tuple[int, dict | None, str]:
    code = main(["geocode", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_story_place(capsys, cache_args) -> None:
    code, out, _ = run(capsys, ["Ras Baalbek", "--story", str(FIXTURES), *cache_args])
    assert code == 0
    assert FIELDS | {"candidates"} <= set(out)
    assert (out["id"], out["source"], out["kind"], out["country"]) == (
        "ras-baalbek",
        "story",
        "village",
        "LB",
    )
    assert (out["lat"], out["lon"], out["radius_m"]) == (34.25972, 36.42361, 2000)


def test_candidates_passed_over(capsys, cache_args) -> None:
    argv = ["Tripoli", "--no-story", "--focus", "34.2, 36.5", "--candidates", "2", *cache_args]
    code, out, _ = run(capsys, argv)
    assert code == 0 and out["country"] == "LB" and out["source"] == "geonames"
    assert out["id"].startswith("gn:")
    assert len(out["candidates"]) == 2
    assert set(out["candidates"][0]) == {"name", "lat", "lon", "country", "population"}
    assert "LY" in {c["country"] for c in out["candidates"]}


def test_not_found(capsys, cache_args) -> None:
    code, out, _ = run(capsys, ["Xyzzyville Qqq", "--story", str(FIXTURES), *cache_args])
    assert code == 1 and out == {"query": "Xyzzyville Qqq", "found": False}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["   "], "no name"),
        (["Arsal", "--story", "/no/such/story"], "places.csv"),
        (["Arsal", "--focus", "north"], "two coordinates"),
        (["Arsal", "--focus", "95, 10"], "out of range"),
        ([], "usage"),
    ],
)
def test_bad_input_exits_2(capsys, cache_args, argv, message: str) -> None:
    code, out, err = run(capsys, [*argv, *cache_args])
    assert code == 2 and out is None and message in err


def test_module_dispatch(capsys, cache_args) -> None:
    assert main(["geocode", "Bukamal", "--story", str(FIXTURES), *cache_args]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "albu-kamal"


class FakeService(Geocoder):
    calls: list[str] = []  # noqa: RUF012 - shared on purpose: the chain builds its own instance
    answer: object = None

    def __init__(self, **kwargs):
        super().__init__()

    def geocode(self, query, *, exactly_one=True, timeout=DEFAULT_SENTINEL):
        FakeService.calls.append(query)
        if isinstance(FakeService.answer, Exception):
            raise FakeService.answer
        return FakeService.answer


@pytest.fixture
def fake_service(monkeypatch, tmp_path) -> type[FakeService]:
    """The online service replaced, no waiting between calls, answers cached in tmp_path."""
    FakeService.calls = []
    monkeypatch.setattr(chain_module, "get_geocoder_for_service", lambda name: FakeService)

    def no_wait(func, **kwargs):
        return RateLimiter(func, **{**kwargs, "min_delay_seconds": 0})

    monkeypatch.setattr(chain_module, "RateLimiter", no_wait)
    # An absolute name wins over the shared cache folder the GeoNames index lives in.
    monkeypatch.setattr(chain_module, "CACHE_FILE", str(tmp_path / "online.json"))
    return FakeService


@pytest.mark.parametrize("online", [False, True])
def test_online_only_with_flag(capsys, cache_args, tmp_path, fake_service, online) -> None:
    fake_service.answer = Location("Jurud Qara, Syria", (34.12, 36.6), {"address": {}})
    flags = ["--online"] if online else []
    argv = ["Jurud Qara", "--story", str(FIXTURES), *flags, *cache_args]
    code, out, _ = run(capsys, argv)
    assert (code, out["found"]) == ((0, True) if online else (1, False))
    assert fake_service.calls == (["Jurud Qara"] if online else [])
    if online:
        assert out["source"] == "online:nominatim" and out["radius_m"] == 5000
        assert (tmp_path / "online.json").exists()


def test_online_failure_is_a_warning(capsys, cache_args, tmp_path, fake_service) -> None:
    fake_service.answer = GeocoderUnavailable("down")
    argv = ["Jurud Qara", "--online", "--story", str(FIXTURES), *cache_args]
    code, out, _ = run(capsys, argv)
    assert code == 1 and out["found"] is False and "GeocoderUnavailable" in out["warnings"][0]
