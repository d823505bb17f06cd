"""``python -m geo prepare``: build the GeoNames place index at set-up."""

from __future__ import annotations

import argparse
import time

from geo.geocoders.gazetteer import load_geonames_index
from geo.paths import default_cache_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m geo prepare`` takes no arguments."""
    parser.description = (
        "Build the GeoNames place index into the cache folder now (at set-up), so"
        " that no reader's first extraction waits for it."
    )


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 when the index is ready."""
    start = time.perf_counter()
    load_geonames_index()
    took = time.perf_counter() - start
    print(f"Place index ready in {default_cache_dir()} ({took:.1f} s).")
    return 0
