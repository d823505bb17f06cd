"""A hostile or broken online geocoder: a warning and an offline answer, never a traceback."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from geopy.geocoders import Nominatim
from geopy.location import Location

from geo.__main__ import main
from geo.geocoders.chain import GeocoderChain
from tests.geo.geocoders.test_chain import UNKNOWN, FakeOnline, make_chain, offline  # noqa: F401


class _Handler(BaseHTTPRequestHandler):
    body: bytes = b"[]"
    drip: float = 0.0

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        for i in range(len(self.body)):
            if self.drip:
                time.sleep(self.drip)  # the fault under test: a server that drips
            try:
                self.wfile.write(self.body[i : i + 1])
                self.wfile.flush()
            except OSError:
                return

    def log_message(self, *_args):
        pass


@pytest.fixture
def server():
    """A local HTTP 'Nominatim' whose answer each test sets."""
    handler = type("H", (_Handler,), {})
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield handler, f"127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def http_chain(offline, tmp_path, domain: str) -> GeocoderChain:  # noqa: F811
    env = {
        "DATELINE_ONLINE_GEOCODER": "nominatim",
        "DATELINE_GEOCODER_DOMAIN": domain,
        "DATELINE_GEOCODER_SCHEME": "http",
    }
    return GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path, min_delay_seconds=0)


GOOD = [{"lat": "34.12", "lon": "36.6", "display_name": "Jusiyah, Syria", "address": {}}]


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        pytest.param(GOOD, True, id="good"),
        pytest.param([{"foo": 1}], False, id="no-coordinates"),
        pytest.param([{"lat": "95", "lon": "36.6", "display_name": "x"}], False, id="lat-95"),
        pytest.param([{"lat": "nan", "lon": "1", "display_name": "x"}], False, id="lat-nan"),
        pytest.param({"a": [1, 2]}, False, id="object"),
        pytest.param("not json", False, id="not-json"),
    ],
)
def test_odd_answers_are_warnings(offline, tmp_path, server, answer, found):  # noqa: F811
    handler, domain = server
    handler.body = (json.dumps(answer) if not isinstance(answer, str) else answer).encode()
    chain = http_chain(offline, tmp_path, domain)
    assert chain.online.scheme == "http"
    result = chain.geocode(UNKNOWN)
    assert result.found is found
    if not found:
        assert result.warnings and "failed" in result.warnings[-1], result.warnings


def test_a_dripping_server_is_given_up_on_in_bounded_time(offline, tmp_path, server):  # noqa: F811
    handler, domain = server
    handler.body = json.dumps(GOOD).encode()
    handler.drip = 0.5  # 60+ bytes: half a minute in all, each read well inside its timeout
    chain = http_chain(offline, tmp_path, domain)
    chain.total_timeout = 1.5
    started = time.monotonic()
    result = chain.geocode(UNKNOWN)
    assert time.monotonic() - started < 5
    assert not result.found and "no answer within 1.5 s" in result.warnings[-1]


@pytest.mark.parametrize("behaviour", [KeyError("lat"), TypeError("x"), RuntimeError("boom")])
def test_any_exception_from_the_service_is_a_warning(offline, tmp_path, behaviour):  # noqa: F811
    result = make_chain(offline, FakeOnline(behaviour), tmp_path).geocode(UNKNOWN)
    assert not result.found and result.warnings


class _Odd(Location):
    """A Location whose coordinates a buggy geocoder class passed through unchecked."""

    def __init__(self, lat, lon):
        super().__init__("odd", (0.0, 0.0), {})
        self._odd = (lat, lon)

    latitude = property(lambda self: self._odd[0])
    longitude = property(lambda self: self._odd[1])


@pytest.mark.parametrize(
    "answer",
    [_Odd(95.0, 1.0), _Odd(1.0, 200.0), _Odd(float("inf"), 1.0), _Odd("34", 1.0), [], "x"],
)
def test_out_of_range_answers_are_refused(offline, tmp_path, answer):  # noqa: F811
    online = FakeOnline(None)
    online.behaviour = answer
    result = make_chain(offline, online, tmp_path).geocode(UNKNOWN)
    assert not result.found and result.warnings


def test_scheme_from_env(offline, tmp_path):  # noqa: F811
    env = {"DATELINE_ONLINE_GEOCODER": "nominatim"}
    chain = GeocoderChain.from_env(offline, env=env, cache_dir=tmp_path)
    assert isinstance(chain.online, Nominatim) and chain.online.scheme == "https"
    bad = GeocoderChain.from_env(
        offline, env={**env, "DATELINE_GEOCODER_SCHEME": "ftp"}, cache_dir=tmp_path
    )
    assert not bad.online_enabled and "must be https or http" in bad.setup_warnings[0]


def test_cli_prints_a_warning_not_a_traceback(
    tmp_path, server, monkeypatch, capsys, gazetteer_cache
):
    handler, domain = server
    handler.body = b'[{"foo": 1}]'
    monkeypatch.setenv("DATELINE_ONLINE_GEOCODER", "nominatim")
    monkeypatch.setenv("DATELINE_GEOCODER_DOMAIN", domain)
    monkeypatch.setenv("DATELINE_GEOCODER_SCHEME", "http")
    code = main(["geocode", "--online", "--cache-dir", str(gazetteer_cache), "Xqzvillewock"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["found"] is False and "failed" in out["warnings"][-1]
