"""``python -m geo validate PATH``: a story's summary, or every problem with file and line."""

from __future__ import annotations

import argparse
import sys

from geo.names import plural
from geo.story.load.loaders import load_story
from geo.story.load.problems import StoryError
from geo.story.model import Problem, Story


def describe(story: Story) -> str:
    """A one-screen summary of a loaded story."""
    p, e = story.places, story.events
    cats = e["category"].value_counts()
    lines = [
        f"{story.title}  [{story.id}]",
        f"span        {story.start} .. {story.end}",
        f"events      {len(e)} ({e['date'].min():%Y-%m-%d} .. {e['date'].max():%Y-%m-%d})",
        "categories  " + ", ".join(f"{c} {n}" for c, n in cats.items()),
        f"places      {len(p)} ({(p['radius_m'] >= 5000).sum()} approximate, radius ≥ 5 km)",
        f"convoy      {len(story.convoy)} positions",
        f"fronts      {len(story.fronts)} polygons",
        f"sources     {len(story.sources)}",
        *([f"chapters    {len(story.chapters)}"] if story.chapters else []),
        f"bbox        lat {p['lat'].min():.4f} .. {p['lat'].max():.4f}, "
        f"lon {p['lon'].min():.4f} .. {p['lon'].max():.4f}",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo validate``."""
    parser.description = (
        "Check a story folder: its summary and exit 0, or every problem and exit 1."
    )
    parser.add_argument("path", metavar="PATH", help="the story folder")


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 valid (warnings printed), 1 problems."""
    try:
        story = load_story(args.path)
    except StoryError as exc:
        print(exc, file=sys.stderr)
        _print_warnings(exc.warnings)
        return 1
    print(describe(story))
    _print_warnings(story.warnings)
    print(f"OK ({plural(len(story.warnings), 'warning')})" if story.warnings else "OK")
    return 0


def _print_warnings(warnings: list[Problem] | tuple[Problem, ...]) -> None:
    """Warnings go to stderr, one a line, and never change the exit status."""
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
