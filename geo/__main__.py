"""Command line: ``python -m geo validate|geocode|extract|publish|prepare ...``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    commands = {
        "validate": ("geo.story.load", "run_validate"),
        "geocode": ("geo.geocoders.cli", "run_geocode"),
        "extract": ("geo.extract", "run_extract"),
        "publish": ("geo.map.publish", "run_publish"),
        "prepare": ("geo.geocoders.gazetteer", "run_prepare"),
    }
    if not args or args[0] not in commands:
        usage = "usage: python -m geo {validate,geocode,extract,publish,prepare} ..."
        print(usage, file=sys.stderr)
        return 2
    module_name, func_name = commands[args[0]]
    # Import lazily: validate should not pay for the gazetteer, nor geocode for dateparser.
    module = __import__(module_name, fromlist=[func_name])
    return getattr(module, func_name)(args[1:])


if __name__ == "__main__":
    sys.exit(main())
