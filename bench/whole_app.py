"""The whole app.py under Streamlit's AppTest (no browser), timed in a child process.

``bench/run.py --worker apptest ...`` runs it: first run, rerun and a slider move, and when the
map was done within each.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

from bench.generate import DATA
from bench.measure import LIMIT_S, peak_mb

ROOT = Path(__file__).resolve().parents[1]


def worker_apptest(story_id: str, repeats: int) -> dict:
    """The whole app.py under AppTest: first run, rerun, one-day slider move, and when the map
    was done within each (the rest of the script is not the map's)."""
    import streamlit_folium
    from streamlit.testing.v1 import AppTest

    os.environ["DATELINE_STORIES_DIR"] = str(DATA)
    real_st_folium = streamlit_folium.st_folium
    map_done: list[float] = []

    def st_folium(*args, **kwargs):
        result = real_st_folium(*args, **kwargs)
        map_done.append(time.perf_counter())
        return result

    # app.py imports st_folium from the module on every run, so it picks this one up.
    streamlit_folium.st_folium = st_folium
    out: dict = {"rerun": [], "slider": [], "rerun_map": [], "slider_map": []}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=10 * LIMIT_S)
    if story_id != "qalamoun-2017":
        at.query_params["story"] = story_id

    def give_up() -> None:
        # AppTest runs the script in this thread's stead and catches every exception, so a run
        # past the limit is stopped from outside: report what there is and end the process.
        print(json.dumps({"dnf": f"a run passed {LIMIT_S:.0f} s", "peak_mb": peak_mb()}))
        sys.stdout.flush()
        os._exit(0)

    def run(kind: str, action) -> float:
        map_done.clear()
        watchdog = threading.Timer(LIMIT_S, give_up)
        watchdog.start()
        t0 = time.perf_counter()
        action()
        took = time.perf_counter() - t0
        watchdog.cancel()
        if kind != "first":
            out[kind].append(took)
            out[f"{kind}_map"].append(map_done[-1] - t0 if map_done else None)
        return took

    out["first"] = run("first", at.run)
    lo, hi = at.slider(key="window").value
    # A slow script gets one rerun and one move, so the whole benchmark stays a few minutes.
    for n in range(repeats if out["first"] < 10 else 1):
        run("rerun", at.run)
        move = (lo, hi - timedelta(days=1 + n % 2))
        run("slider", lambda move=move: at.slider(key="window").set_value(move).run())
    out["exception"] = [str(e.value) for e in at.exception]
    for key in ("rerun", "slider", "rerun_map", "slider_map"):
        values = [v for v in out[key] if v is not None]
        out[key] = statistics.median(values) if values else None
    out["peak_mb"] = peak_mb()
    return out
