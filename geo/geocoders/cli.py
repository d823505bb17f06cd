"""``python -m geo geocode NAME``: one place as a JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd
from geopy.location import Location

from geo.errors import DatelineError
from geo.geocoders.chain import ChainResult, GeocoderChain
from geo.geocoders.gazetteer import Gazetteer
from geo.geocoders.offline import OfflineGazetteerGeocoder, QueryError, parse_coordinates

DEFAULT_STORY = Path(__file__).resolve().parents[2] / "data" / "stories" / "qalamoun-2017"


class _UsageError(DatelineError):
    """Bad command line: message for stderr, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo geocode``."""
    parser.add_argument("query", help='place name, e.g. "Ras Baalbek"')
    parser.add_argument(
        "--story",
        type=Path,
        default=None,
        help=f"story folder whose places.csv comes first (default: {DEFAULT_STORY})",
    )
    parser.add_argument("--no-story", action="store_true", help="GeoNames only")
    parser.add_argument("--focus", help='"lat, lon" to rank ambiguous names by (default: story)')
    parser.add_argument(
        "--online",
        action="store_true",
        help="ask an online geocoder when offline finds nothing "
        "(DATELINE_ONLINE_GEOCODER, default nominatim; answers cached)",
    )
    parser.add_argument("--candidates", type=int, default=5, help="how many passed-over to list")
    parser.add_argument("--cache-dir", type=Path, default=None, help="index and answer cache")


def _story_places(args: argparse.Namespace) -> pd.DataFrame | None:
    """The story's places.csv as strings; None when no story is wanted or the default is absent."""
    if args.no_story:
        return None
    folder = args.story if args.story is not None else DEFAULT_STORY
    path = folder / "places.csv"
    if not path.is_file():
        if args.story is None:
            return None  # The bundled story is optional: GeoNames still answers.
        raise _UsageError(f"no places.csv in {folder}")
    try:
        return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise _UsageError(f"cannot read {path}: {exc}") from exc


def _summary(location: Location) -> dict[str, Any]:
    raw = location.raw
    return {
        "name": raw.get("name"),
        "lat": location.latitude,
        "lon": location.longitude,
        "country": raw.get("country"),
        "population": raw.get("population"),
    }


def result_json(result: ChainResult, max_candidates: int) -> dict[str, Any]:
    """The printed object: the answer's fields, the candidates passed over, any warnings."""
    if result.location is None:
        out: dict[str, Any] = {"query": result.query, "found": False}
    else:
        raw = result.location.raw
        out = {
            "query": result.query,
            "found": True,
            "name": raw.get("name"),
            "lat": result.location.latitude,
            "lon": result.location.longitude,
            "radius_m": raw.get("radius_m"),
            "source": result.source,
            "id": raw.get("id"),
            "country": raw.get("country"),
            "kind": raw.get("kind"),
            "candidates": [_summary(c) for c in result.candidates[: max(max_candidates, 0)]],
        }
    if result.warnings:
        out["warnings"] = list(result.warnings)
    return out


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 found, 1 not found, 2 bad query or story."""
    try:
        focus = parse_coordinates(args.focus) if args.focus else None
        places = _story_places(args)
        gazetteer = Gazetteer.load(places, cache_dir=args.cache_dir, focus=focus)
        chain = GeocoderChain.from_env(
            OfflineGazetteerGeocoder(gazetteer),
            enable_online=args.online,
            cache_dir=args.cache_dir,
        )
        result = chain.geocode(args.query)
    except (QueryError, _UsageError, OSError) as exc:
        print(f"geocode: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result_json(result, args.candidates), ensure_ascii=False))
    return 0 if result.found else 1
