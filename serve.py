"""``streamlit run`` with the dashboard's libraries loaded while the server starts.

``python serve.py [SCRIPT] [streamlit run options]`` (SCRIPT defaults to ``app.py``); ``dev.py
run``, the browser tests and the benchmark start the dashboard this way. A new server's first page
otherwise waits for the script's own imports: pandas, pyarrow, folium and the geo library, about
0.4 s of a 1M-event story's cold open (3.39 s → 2.99 s, medians of 4 interleaved cold opens).
They are imported in a thread while Streamlit starts; a script that imports them meanwhile waits
for that import, as Python's import lock makes it. streamlit_folium is left to the script:
importing it declares its component, which must happen in the running server, or its frame is
never shown.
"""

from __future__ import annotations

import sys
import threading

PRELOAD = (
    "numpy",
    "pandas",
    "pyarrow.parquet",
    "branca",
    "folium",
    "folium.plugins",
    "geo.map.layers",
    "geo.map.publish",
    "geo.story.events_store",
    "geo.story.export",
    "geo.story.pictures",
    "geo.story.timeline",
)


def preload(names: tuple[str, ...] = PRELOAD) -> list[str]:
    """Import ``names``; the ones that failed are returned (the script then reports them)."""
    import importlib

    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # the script's own import shows the real error to the reader
            failed.append(name)
    try:
        # The place index (built by dev.py at set-up) is read into this process's memory now,
        # not on the New story page's first extraction.
        from geo.geocoders.gazetteer import load_geonames_index

        load_geonames_index(build=False)  # never a 12 s build at start
    except Exception:
        failed.append("geo.geocoders.gazetteer")
    return failed


def main(argv: list[str]) -> int:
    from streamlit.web import cli

    script, rest = "app.py", argv
    if argv and not argv[0].startswith("-"):
        script, rest = argv[0], argv[1:]
    threading.Thread(target=preload, name="dateline-preload", daemon=True).start()
    try:
        cli.main(["run", script, *rest], prog_name="streamlit")
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
