"""``python -m geo extract FILE --date YYYY-MM-DD``: what an article holds, as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

import pandas as pd

from geo.extract import extract, load_story_places
from geo.geocoders.gazetteer import Gazetteer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo extract``."""
    parser.add_argument("file", help="article as .txt, .md or .html; '-' reads standard input")
    parser.add_argument("--date", required=True, help="publication date, YYYY-MM-DD")
    parser.add_argument("--story", help="story folder (or its places.csv) to match places against")
    parser.add_argument("--dateline", help="place the report was filed from, if not in the text")
    parser.add_argument("--format", choices=["text", "markdown", "html"], help="default: guessed")
    parser.add_argument("--cache-dir", help="folder for the GeoNames index (default: user cache)")
    parser.add_argument("--no-text", action="store_true", help="leave the plain text out")


def run(args: argparse.Namespace) -> int:
    """Entry point: JSON on standard output; 2 on a bad date or unreadable input."""
    try:
        published = date.fromisoformat(args.date)
    except ValueError:
        print(f"error: --date must be YYYY-MM-DD, got {args.date!r}", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        story = load_story_places(args.story) if args.story else None
    except (OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    fmt = args.format
    if fmt is None and args.file != "-":
        suffix = Path(args.file).suffix.lower()
        fmt = {".html": "html", ".htm": "html", ".md": "markdown", ".txt": "text"}.get(suffix)
    cache_dir = Path(args.cache_dir) if args.cache_dir else None
    gazetteer = Gazetteer.load(story, cache_dir=cache_dir)
    result = extract(text, published, dateline=args.dateline, gazetteer=gazetteer, fmt=fmt)
    record = result.to_dict(include_text=not args.no_text, include_passed_over=True)
    json.dump(record, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
