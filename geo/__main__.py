"""Command line: ``python -m geo {validate,geocode,extract,publish,prepare,static} ...``."""

from __future__ import annotations

import argparse
import sys

# Each command's module, entry point and one-line help. The module is imported only for the
# command that runs: validate should not pay for the gazetteer, nor geocode for dateparser.
# Each entry point takes the arguments after the command and parses them with its own argparse
# parser (``python -m geo COMMAND --help`` lists them).
COMMANDS = {
    "validate": (
        "geo.story.load.cli",
        "run_validate",
        "check a story folder: its summary, or every problem with file and line",
    ),
    "geocode": (
        "geo.geocoders.cli",
        "run_geocode",
        "place one name offline (story places, then GeoNames); print one JSON object",
    ),
    "extract": (
        "geo.extract",
        "run_extract",
        "print the places, dates, figures, actors and draft events of an article as JSON",
    ),
    "publish": (
        "geo.map.publish",
        "run_publish",
        "write a story as one self-contained HTML page",
    ),
    "prepare": (
        "geo.geocoders.cli",
        "run_prepare",
        "build the GeoNames place index into the cache folder (set-up)",
    ),
    "static": (
        "geo.map.assets",
        "run_static",
        "build the map's static files (scripts, bundle, basemap) into a folder (set-up)",
    ),
}


def parser() -> argparse.ArgumentParser:
    """The top level: a command and, left to that command's own parser, its arguments."""
    out = argparse.ArgumentParser(
        prog="python -m geo",
        description="Dateline's library from the command line.",
        epilog="python -m geo COMMAND --help lists a command's arguments.",
    )
    commands = out.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, _, help_text) in COMMANDS.items():
        # No arguments and no -h here: everything after the command goes to its own parser.
        commands.add_parser(name, help=help_text, add_help=False)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (2 for a bad command line)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        command = parser().parse_args(args[:1]).command
        module_name, func_name, _ = COMMANDS[command]
        module = __import__(module_name, fromlist=[func_name])
        return getattr(module, func_name)(args[1:])
    except SystemExit as exc:  # argparse has printed its message (or the help)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


if __name__ == "__main__":
    sys.exit(main())
