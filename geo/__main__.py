"""Command line: ``python -m geo {validate,geocode,extract,publish,prepare,static} ...``."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each command's module and one-line help. The module exposes ``add_arguments(parser)`` and
# ``run(namespace) -> int``, and is imported only for the command that runs: validate should
# not pay for the gazetteer, nor publish for the extractor.
COMMANDS = {
    "validate": (
        "geo.story.load.cli",
        "check a story folder: its summary, or every problem with file and line",
    ),
    "geocode": (
        "geo.geocoders.cli",
        "place one name offline (story places, then GeoNames); print one JSON object",
    ),
    "extract": (
        "geo.extract.cli",
        "print the places, dates, figures, actors and draft events of an article as JSON",
    ),
    "publish": ("geo.map.publish", "write a story as one self-contained HTML page"),
    "import": (
        "geo.story.imports.cli",
        "turn an ACLED, UCDP GED or GDELT 2.0 export into a story folder",
    ),
    "prepare": (
        "geo.geocoders.prepare",
        "build the GeoNames place index into the cache folder (set-up)",
    ),
    "static": (
        "geo.map.assets",
        "build the map's static files (scripts, bundle, basemap) into a folder (set-up)",
    ),
}


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top level, with one subparser a command; ``command``'s gets its arguments and entry.

    Only that one: argparse reads no other subparser, and filling them all would import every
    command's module.
    """
    out = argparse.ArgumentParser(
        prog="python -m geo",
        description="Dateline's library from the command line.",
        epilog="python -m geo COMMAND --help lists a command's arguments.",
    )
    commands = out.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text.capitalize())
        if name == command:
            module = importlib.import_module(module_name)
            module.add_arguments(sub)
            sub.set_defaults(run=module.run, command_parser=sub)
    return out


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (2 for a bad command line)."""
    args = list(sys.argv[1:] if argv is None else argv)
    top = parser(args[0] if args and args[0] in COMMANDS else None)
    try:
        namespace, extra = top.parse_known_args(args)
        if extra:  # said by the command's parser, whose usage line is the one that helps
            parser_of = getattr(namespace, "command_parser", top)
            parser_of.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # argparse has printed its message (or the help)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return namespace.run(namespace)


if __name__ == "__main__":
    sys.exit(main())
