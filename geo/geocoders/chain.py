"""Offline first, then (only when enabled) one online geopy geocoder, rate-limited and cached."""

from __future__ import annotations

import json
import math
import os
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from geopy.exc import GeopyError
from geopy.extra.rate_limiter import RateLimiter
from geopy.geocoders import get_geocoder_for_service
from geopy.geocoders.base import Geocoder
from geopy.location import Location

from geo.atomic import atomic_write_text
from geo.errors import DatelineError
from geo.geocoders.offline import OfflineGazetteerGeocoder, check_query
from geo.geometry import distance_km
from geo.paths import default_cache_dir

__all__ = ("ChainResult", "GeocoderChain", "online_radius_m")

DEFAULT_USER_AGENT = "Dateline/0.1 (news map dashboard; offline-first, cached, 1 request/s)"
# An online answer without a bounding box: as unsure as a GeoNames town of unknown size.
DEFAULT_ONLINE_RADIUS_M = 5_000
# A bounding box that is a single point still gets this much room.
MIN_ONLINE_RADIUS_M = 100
CACHE_FILE = "online-geocodes.json"
_OFF = {"", "0", "off", "none", "false", "no"}
# geopy's timeout is per socket read: a server dripping a byte every 0.5 s held a lookup for a
# minute. This bounds the whole request, waiting included.
TOTAL_TIMEOUT_SECONDS = 10.0
SCHEMES = ("https", "http")  # http only for a self-hosted service on a trusted network


class _BadAnswer(DatelineError, ValueError):
    """The service answered, but not with a usable place."""


@dataclass(frozen=True)
class ChainResult:
    """What the chain found for one query, where from, what it passed over and what went wrong."""

    query: str
    location: Location | None
    source: str | None  # "story", "geonames", "online:<service>"; None when not found
    candidates: tuple[Location, ...] = ()
    warnings: tuple[str, ...] = ()
    cached: bool = False  # the online answer came from the on-disk cache

    @property
    def found(self) -> bool:
        """Whether the query was placed."""
        return self.location is not None


@dataclass
class _OnlineSetup:
    """The online geocoder behind its rate limiter, and the key its answers are cached under."""

    name: str
    call: Callable[..., Any]
    cache_prefix: str


@dataclass
class GeocoderChain:
    """Offline gazetteer first; the online geocoder only for names the gazetteer does not know.

    Online answers (including "nothing found") are cached on disk so no query is sent twice.
    Service failures never raise: the result says what it has and carries a warning.
    """

    offline: OfflineGazetteerGeocoder
    online: Geocoder | None = None
    service: str = "online"
    domain: str | None = None
    cache_path: Path | None = None
    min_delay_seconds: float = 1.0
    max_retries: int = 0
    setup_warnings: list[str] = field(default_factory=list)
    total_timeout: float = TOTAL_TIMEOUT_SECONDS

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._setup: _OnlineSetup | None = None
        self._cache: dict[str, Any] | None = None
        if self.online is not None:
            limiter = RateLimiter(
                self.online.geocode,
                min_delay_seconds=self.min_delay_seconds,
                max_retries=self.max_retries,
                swallow_exceptions=False,
            )
            prefix = f"{self.service}|{self.domain or ''}|"
            self._setup = _OnlineSetup(self.service, limiter, prefix)
            if self.cache_path is None:
                self.cache_path = default_cache_dir() / CACHE_FILE

    @classmethod
    def from_env(
        cls,
        offline: OfflineGazetteerGeocoder,
        *,
        enable_online: bool | None = None,
        env: Mapping[str, str] | None = None,
        cache_dir: Path | None = None,
        min_delay_seconds: float = 1.0,
    ) -> GeocoderChain:
        """Chain set up from ``DATELINE_ONLINE_GEOCODER``, ``_GEOCODER_DOMAIN``,
        ``_GEOCODER_SCHEME`` (https, or http for a self-hosted service) and ``_USER_AGENT``.

        ``enable_online``: None lets ``DATELINE_ONLINE_GEOCODER`` decide (a geopy service name
        turns the online part on); True turns it on (Nominatim unless the variable names
        another); False keeps the chain offline. A service that cannot be set up leaves the
        chain offline with a warning on every result.
        """
        env = os.environ if env is None else env
        service = (env.get("DATELINE_ONLINE_GEOCODER") or "").strip().lower()
        if service in _OFF:
            service = "nominatim" if enable_online else ""
        if not service or enable_online is False:
            return cls(offline)
        domain = (env.get("DATELINE_GEOCODER_DOMAIN") or "").strip() or None
        scheme = (env.get("DATELINE_GEOCODER_SCHEME") or "https").strip().lower()
        if scheme not in SCHEMES:
            note = (
                f"DATELINE_GEOCODER_SCHEME must be https or http, not {scheme[:20]!r}; "
                "answering offline only"
            )
            return cls(offline, setup_warnings=[note])
        user_agent = (env.get("DATELINE_USER_AGENT") or "").strip() or DEFAULT_USER_AGENT
        cache_path = (cache_dir or default_cache_dir()) / CACHE_FILE
        try:
            geocoder_cls = get_geocoder_for_service(service)
            kwargs: dict[str, Any] = {"user_agent": user_agent, "scheme": scheme}
            if domain:
                kwargs["domain"] = domain
            online = geocoder_cls(**kwargs)
        except (GeopyError, TypeError, ValueError) as exc:
            note = f"online geocoder {service!r} is not available ({exc}); answering offline only"
            return cls(offline, setup_warnings=[note])
        return cls(
            offline,
            online,
            service=service,
            domain=domain,
            cache_path=cache_path,
            min_delay_seconds=min_delay_seconds,
        )

    @property
    def online_enabled(self) -> bool:
        """Whether names the gazetteer misses go to an online service."""
        return self._setup is not None

    def geocode(self, query: str) -> ChainResult:
        """Place ``query``: offline first, online (cached) only when offline finds nothing.

        :raises QueryError: if the query is not a string or holds no name.
        """
        text = check_query(query)
        warnings = list(self.setup_warnings)
        found = self.offline.geocode(text, exactly_one=False) or []
        assert isinstance(found, list)
        if found:
            best = found[0]
            return ChainResult(text, best, best.raw["source"], tuple(found[1:]), tuple(warnings))
        if self._setup is None:
            return ChainResult(text, None, None, (), tuple(warnings))
        return self._geocode_online(text, warnings)

    def _geocode_online(self, text: str, warnings: list[str]) -> ChainResult:
        assert self._setup is not None
        source = f"online:{self._setup.name}"
        key = self._setup.cache_prefix + " ".join(text.casefold().split())
        cache = self._load_cache(warnings)
        if key in cache:
            try:
                location = _location_from_json(cache[key]["answer"])
            except (KeyError, TypeError, ValueError, _BadAnswer):
                warnings.append("a damaged online cache entry was ignored")
            else:
                return ChainResult(
                    text, location, source if location else None, (), tuple(warnings), cached=True
                )
        try:
            answer = self._call_bounded(text)
            location = _normalise_online(answer, source) if answer is not None else None
        except Exception as exc:  # whatever a service sends, the reader gets a warning
            # Not cached: the service may answer properly next time.
            warnings.append(f"online geocoder {self._setup.name} failed: {_describe(exc)}")
            return ChainResult(text, None, None, (), tuple(warnings))
        self._store(key, text, location, warnings)
        return ChainResult(text, location, source if location else None, (), tuple(warnings))

    def _call_bounded(self, text: str) -> Any:
        """The online call, given up after ``total_timeout`` seconds in all."""
        assert self._setup is not None
        done: queue.Queue = queue.Queue(maxsize=1)
        call = self._setup.call

        def run() -> None:
            try:
                done.put((True, call(text, exactly_one=True)))
            except BaseException as exc:  # handed to the caller
                done.put((False, exc))

        # A daemon thread: a stalled server keeps only that thread, never the page.
        threading.Thread(target=run, name="dateline-geocode", daemon=True).start()
        try:
            ok, value = done.get(timeout=self.total_timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer within {self.total_timeout:g} s") from None
        if not ok:
            raise value
        return value

    # -- on-disk cache -------------------------------------------------------------------------

    def _load_cache(self, warnings: list[str]) -> dict[str, Any]:
        with self._lock:
            if self._cache is None:
                self._cache = {}
                assert self.cache_path is not None
                try:
                    data = json.loads(self.cache_path.read_text(encoding="utf-8"))
                    self._cache = dict(data.get("entries", {}))
                except FileNotFoundError:
                    pass
                except (OSError, ValueError, AttributeError) as exc:
                    note = f"online cache {self.cache_path} unreadable, starting anew: {exc}"
                    warnings.append(note)
            return self._cache

    def _store(self, key: str, query: str, location: Location | None, warnings: list[str]) -> None:
        entry = {
            "query": query,
            "service": self.service,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "answer": _location_to_json(location),
        }
        with self._lock:
            assert self._cache is not None and self.cache_path is not None
            self._cache[key] = entry
            text = json.dumps(
                {"version": 1, "entries": self._cache}, ensure_ascii=False, indent=1, default=str
            )
            try:
                atomic_write_text(self.cache_path, text + "\n")
            except OSError as exc:
                warnings.append(f"online cache {self.cache_path} not written: {exc}")


def _describe(exc: BaseException) -> str:
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def online_radius_m(raw: Mapping[str, Any], lat: float, lon: float) -> int:
    """Radius covering the answer's bounding box from its point, or the default without one.

    Reads Nominatim's ``boundingbox`` [south, north, west, east] and GeoJSON's
    ``bbox`` [west, south, east, north] (Pelias).
    """
    corners = None
    try:
        if "boundingbox" in raw:
            s, n, w, e = (float(v) for v in raw["boundingbox"])
            corners = [(s, w), (s, e), (n, w), (n, e)]
        elif "bbox" in raw:
            w, s, e, n = (float(v) for v in raw["bbox"])
            corners = [(s, w), (s, e), (n, w), (n, e)]
    except (TypeError, ValueError):
        corners = None
    if corners is None:
        return DEFAULT_ONLINE_RADIUS_M
    far = max(distance_km((lat, lon), c) for c in corners) * 1000
    return max(MIN_ONLINE_RADIUS_M, round(far))


def _coordinate(value: Any, limit: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _BadAnswer(f"the answer's coordinate {str(value)[:30]!r} is not a number")
    if not -limit <= value <= limit:
        raise _BadAnswer(f"the answer's coordinate {value} is outside ±{limit:g}")
    return float(value)


def _normalise_online(answer: Any, source: str) -> Location:
    """An online Location with ``raw`` in the offline shape; the service's own raw kept.

    :raises _BadAnswer: when the answer is not a place with valid coordinates.
    """
    location = (answer[0] if answer else None) if isinstance(answer, list) else answer
    if not isinstance(location, Location):
        raise _BadAnswer(f"the answer is not a place ({type(location).__name__})")
    raw = location.raw if isinstance(location.raw, Mapping) else {}
    address = raw.get("address") if isinstance(raw.get("address"), Mapping) else {}
    country = str(address.get("country_code") or "").upper()[:2]
    lat = _coordinate(location.latitude, 90)
    lon = _coordinate(location.longitude, 180)
    ours = {
        "id": None,
        "name": str(location.address).split(",")[0].strip()[:200],
        "lat": lat,
        "lon": lon,
        "kind": str(raw.get("addresstype") or raw.get("type") or ""),
        "country": country,
        "radius_m": online_radius_m(raw, lat, lon),
        "population": None,
        "geonames_id": None,
        "source": source,
        "online_raw": dict(raw),
    }
    return Location(location.address, (lat, lon), ours)


def _location_to_json(location: Location | None) -> dict[str, Any] | None:
    if location is None:
        return None
    return {
        "address": location.address,
        "lat": location.latitude,
        "lon": location.longitude,
        "raw": location.raw,
    }


def _location_from_json(data: Mapping[str, Any] | None) -> Location | None:
    if not data:
        return None
    lat, lon = _coordinate(data["lat"], 90), _coordinate(data["lon"], 180)
    return Location(str(data["address"]), (lat, lon), dict(data["raw"]))
