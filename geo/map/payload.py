"""A story as one JSON document for the map's own script (``js/story.js``).

The browser gets the whole story once and applies the date window itself, so a slider move sends
only the window. Everything a tooltip says is escaped here, the map's script only joins the
pieces; what depends on the day (the convoy's route and position, the enclave's outline) is
worked out here for every day of the story. A story too big for that gets a window payload per
rerun instead (``geo.map.window``), built from the same rows.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import namedtuple
from collections.abc import Iterator
from datetime import timedelta

import pandas as pd

from geo.geometry import distance_km
from geo.map.style import CONVOY_COLOUR, FAMILIES, HALTED_COLOUR, OTHER, SIDE_STYLE, family
from geo.map.text import fmt_day, fmt_span, keyed_tip, place_tip, reported_text
from geo.names import html_text as escape
from geo.names import upper_first
from geo.story.load import Story, story_words
from geo.story.timeline import convoy_current, convoy_distance_km, convoy_paths, fronts_on

# Above this many events a story is filtered on the server (geo.map.window), else in the page.
BROWSER_LIMIT = 5000
# Places less certain than this get a translucent circle of their radius.
LARGE_RADIUS_M = 2000
REGION_RADIUS_M = 50_000
AREA_KINDS = ("region", "area", "border", "country", "valley")


def _day(value) -> str | None:
    return None if value is None or pd.isna(value) else pd.Timestamp(value).strftime("%Y-%m-%d")


def records(frame: pd.DataFrame, index: bool = True) -> Iterator[tuple]:
    """``frame.itertuples(index=index)``, the same named tuples, from each column's list.

    ``itertuples`` takes each column by position, and with text column labels (Arrow strings)
    that lookup cost ~0.4 ms a column: 14 ms of a 20 ms map payload for two small frames.
    """
    columns = list(frame.columns)
    names = ["Index", *map(str, columns)] if index else list(map(str, columns))
    row = namedtuple("Row", names, rename=True)
    values = [frame[c].tolist() for c in columns]
    if index:
        values.insert(0, frame.index.tolist())
    if not values:  # no columns and no index: one empty row per row, as itertuples gives
        return (row() for _ in range(len(frame)))
    return map(row._make, zip(*values, strict=True))


def place_rows(places: pd.DataFrame) -> list[dict]:
    """Each of ``places`` as the map's script draws it: dot, circle, label and tooltip."""
    out = []
    for p in records(places):
        area = p.kind in AREA_KINDS or p.radius_m >= REGION_RADIUS_M
        out.append(
            {
                "id": p.id,
                "n": p.name,
                "nh": escape(p.name),
                "lat": round(float(p.lat), 5),
                "lon": round(float(p.lon), 5),
                "r": int(p.radius_m),
                "area": bool(area),
                # Filled circle for a doubt about a point; a region's radius is an extent.
                "fill": bool(p.radius_m < REGION_RADIUS_M and p.kind not in AREA_KINDS),
                "circle": bool(p.radius_m >= LARGE_RADIUS_M),
                "tip": place_tip(p),
            }
        )
    return out


def _events(story: Story, place_index: dict[str, int], cats: list[str]) -> list[list]:
    """Each event as [date, end date, place index, category index, actors, killed (or None)]:
    compact rows."""
    cat_index = {c: n for n, c in enumerate(cats)}
    ev = story.events
    killed = ev["killed"] if "killed" in ev else pd.Series([None] * len(ev), index=ev.index)
    rows = []
    for d, e, p, c, a, k in zip(
        ev["date"],
        ev["end_date"],
        ev["place_id"],
        ev["category"],
        ev["actors"],
        killed,
        strict=True,
    ):
        figure = None if k is None or pd.isna(k) else int(k)
        rows.append([_day(d), _day(e), place_index[p], cat_index[c], list(a), figure])
    return rows


def convoy_rows(story: Story, convoy: pd.DataFrame) -> list[dict]:
    """Each of the ``convoy`` positions (rows of story.convoy) with its tooltip."""
    sources = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    words = story_words(story.meta)
    out = []
    for r in records(convoy):
        where = r.place_name or f"{r.lat:.2f}, {r.lon:.2f}"
        group = "" if r.group == "all" else f" ({escape(r.group)})"
        tip = (
            f"{escape(upper_first(words['convoy']))}{group} · "
            f"{escape(fmt_day(r.date))} · {escape(r.status)} · {escape(where)}"
        )
        out.append(
            {
                "id": r.id,
                "g": r.group,
                "day": r.date.date().isoformat(),
                "lat": round(float(r.lat), 5),
                "lon": round(float(r.lon), 5),
                "r": int(r.radius_m),
                "halted": r.status in ("halted", "split"),
                "tip": keyed_tip(tip, f"convoy:{r.id}"),
                "source": sources.get(r.source, r.source),
            }
        )
    return out


def front_rows(story: Story, fronts: pd.DataFrame) -> list[dict]:
    """Each of the ``fronts`` polygons (rows of story.fronts) with its style and tooltip."""
    words = story_words(story.meta)
    out = []
    for f in records(fronts):
        side = SIDE_STYLE.get(f.side, SIDE_STYLE["LB"])
        span = fmt_span(f.valid_from, f.valid_to)
        tip = (
            f"{escape(upper_first(words['enclave']))}, {side['label']} · "
            f"{escape(span)} · reported {reported_text(f.reported_km2)}, "
            f"drawn {f.drawn_km2:g} km² · approximate outline"
        )
        out.append(
            {
                "id": f.id,
                "side": f.side,
                "geometry": f.geometry,
                "tip": keyed_tip(tip, f"front:{f.id}"),
                "style": {
                    "color": side["color"],
                    "weight": 2,
                    "dashArray": "6 4",
                    "fillColor": side["fillColor"],
                    "fillOpacity": 0.35,
                },
            }
        )
    return out


def convoy_day(story: Story, day, convoy_ids: dict[str, int], leg=distance_km) -> dict | None:
    """What the convoy layer draws from ``day`` on: the positions seen so far (their indices in
    ``convoy_ids``), where it is now, its routes; None before it has a route."""
    paths = convoy_paths(story.convoy, day)
    if not paths:
        return None
    km = convoy_distance_km(story.convoy, day, leg)
    seen = story.convoy[story.convoy["date"] <= pd.Timestamp(day)]
    return {
        "convoy": [convoy_ids[i] for i in seen["id"]],
        "now": [convoy_ids[i] for i in convoy_current(story.convoy, day)["id"]],
        "paths": [
            {
                "group": g,
                "coords": [[round(a, 5), round(b, 5)] for a, b in p],
                "tip": f"Route ({escape(g)}) · {km[g]:.0f} km so far",
            }
            for g, p in paths.items()
            if len(p) > 1
        ],
    }


def _convoy_days(story: Story, convoy_ids: dict[str, int]) -> dict:
    """``convoy_day`` for each day the convoy has a new position on. ``js/story.js`` takes the
    latest day on or before the window's end, so this grows with the convoy's positions, never
    with the span."""
    out: dict = {}
    if not len(story.convoy):
        return out
    # Each day's routes repeat the legs of the day before: each leg is measured once.
    leg = functools.lru_cache(maxsize=None)(distance_km)
    for day in sorted({d.date() for d in story.convoy["date"]}):
        drawn = convoy_day(story, day, convoy_ids, leg)
        if drawn is not None:
            out[day.isoformat()] = drawn
    return out


def _front_days(story: Story, front_ids: dict[str, int]) -> dict:
    """The polygons drawn from each day a polygon starts or ends on (the day after its last):
    an empty list from the day the last one ends. Grows with the polygons, not the span."""
    days = set()
    for f in records(story.fronts):
        days.add(f.valid_from.date())
        days.add(f.valid_to.date() + timedelta(days=1))
    out = {}
    for day in sorted(days):
        out[day.isoformat()] = [front_ids[i] for i in fronts_on(story.fronts, day)["id"]]
    return out


def story_frame(story: Story, categories: list[str]) -> dict:
    """What every payload carries besides its objects: ``categories`` with their families, the
    story's words, the styles and limits the map's script draws with."""
    fams = [*FAMILIES, OTHER]
    return {
        "id": story.id,
        "categories": categories,
        "cat_family": [fams.index(family(c)) for c in categories],
        "families": [{"label": f.label, "colour": f.colour, "symbol": f.symbol} for f in fams],
        "words": story_words(story.meta),
        "sides": SIDE_STYLE,
        "colours": {"convoy": CONVOY_COLOUR, "halted": HALTED_COLOUR},
        "limits": {"region_m": REGION_RADIUS_M, "large_m": LARGE_RADIUS_M},
    }


def story_payload(story: Story) -> dict:
    """Everything the map's script needs to draw ``story`` for any window, as plain JSON."""
    places = place_rows(story.places)
    place_index = {p["id"]: n for n, p in enumerate(places)}
    cats = sorted(set(story.events["category"]))
    convoy = convoy_rows(story, story.convoy)
    fronts = front_rows(story, story.fronts)
    return {
        **story_frame(story, cats),
        "kind": "story",
        "places": places,
        "events": _events(story, place_index, cats),
        "convoy": convoy,
        "fronts": fronts,
        "days": _convoy_days(story, {c["id"]: n for n, c in enumerate(convoy)}),
        "front_days": _front_days(story, {f["id"]: n for n, f in enumerate(fronts)}),
    }


def payload_json(story: Story) -> tuple[str, str]:
    """(JSON text, short content hash) of the story's payload, for a cacheable file name."""
    text = json.dumps(story_payload(story), ensure_ascii=False, separators=(",", ":"))
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]
