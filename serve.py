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

import contextlib
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
        warm_extractor()
    except Exception:
        failed.append("geo.extract")
    return failed


def warm_labels() -> None:
    """Have Streamlit load its emoji catalogue now: a widget label that is not plain ASCII
    (the speed buttons' "1×") makes it look for a leading emoji, and importing the catalogue
    (its pattern compiled on import) took 0.2-0.4 s of a new server's first page. Called in
    the server only (Streamlit is loaded there already); ``preload`` leaves Streamlit alone."""
    from streamlit.string_util import extract_leading_icon

    extract_leading_icon("1×")


def _warm() -> None:
    preload()
    with contextlib.suppress(Exception):  # only a warm-up: the page compiles it itself
        warm_labels()


def warm_extractor() -> bool:
    """Read the place index (built by ``dev.py`` at set-up; never built here, a 12 s job) and
    draft one sentence, so that the tables and patterns the extractor reads once are in memory
    before the New story page's first "Find" (1.6 s of the 3.9 s it took on a fresh server)."""
    from datetime import date

    from geo.extract import extract
    from geo.geocoders.gazetteer import Gazetteer, load_geonames_index

    if not load_geonames_index(build=False):
        return False
    sentence = "Shelling hit Mosul in Nineveh province on Monday, killing 3 people."
    extract(sentence, date(2020, 1, 6), gazetteer=Gazetteer.load())
    return True


def main(argv: list[str]) -> int:
    from streamlit.web import cli

    script, rest = "app.py", argv
    if argv and not argv[0].startswith("-"):
        script, rest = argv[0], argv[1:]
    threading.Thread(target=_warm, name="dateline-preload", daemon=True).start()
    try:
        cli.main(["run", script, *rest], prog_name="streamlit")
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
