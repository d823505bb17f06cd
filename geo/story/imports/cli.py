"""``python -m geo import {acled,ucdp,gdelt} FILE STORY_DIR [--title ...]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from geo.names import plural
from geo.story.imports import DATASETS, ExportError, import_export
from geo.story.load.cli import describe
from geo.story.storage import StorageError


def add_arguments(out: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo import``."""
    out.description = (
        "Turn a dataset export into a story folder: its summary and exit 0, or every problem "
        "with its line and exit 1 (nothing is written)."
    )
    out.add_argument("dataset", choices=sorted(DATASETS), help="the export's dataset")
    out.add_argument("file", type=Path, metavar="FILE", help="the export (CSV; GDELT: TSV)")
    out.add_argument(
        "story_dir",
        type=Path,
        metavar="STORY_DIR",
        help="the story folder to write; its name is the story's id (a-z, 0-9, '-')",
    )
    out.add_argument("--title", help="the story's title (default: the dataset and file name)")
    out.add_argument("--replace", action="store_true", help="replace STORY_DIR if it exists")


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 written, 1 refused (problems on stderr)."""
    try:
        result = import_export(
            args.dataset, args.file, args.story_dir, title=args.title, replace=args.replace
        )
    except ExportError as exc:
        print(exc, file=sys.stderr)
        return 1
    except StorageError as exc:
        print(f"not written: {exc}", file=sys.stderr)
        return 1
    print(describe(result.story))
    for reason, n in result.left_out.items():
        print(f"left out   {plural(n, 'row')}: {reason}")
    print(f"written to {args.story_dir}")
    return 0
