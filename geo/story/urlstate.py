"""The dashboard's view (story, date window, filters, selection) to and from URL query params."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from geo.names import clip

LAYERS = ("events", "places", "convoy", "fronts")
_SELECTION = re.compile(r"(place|convoy|front):[a-z0-9-]+")
# Actor names may hold commas; events.csv reserves only "|", so links use it too.
ACTOR_SEP = "|"


@dataclass(frozen=True)
class View:
    """What the reader is looking at; everything a shared link must bring back."""

    story: str
    start: date
    end: date
    categories: tuple[str, ...] | None = None  # None: every category
    actors: tuple[str, ...] = ()  # empty: every actor
    layers: frozenset[str] = field(default_factory=lambda: frozenset(LAYERS))
    selected: str | None = None  # "place:baalbek", "convoy:c3", "front:lb-0822"
    killed: tuple[int, int] | None = None  # the fatalities range; None: no filter
    countries: tuple[str, ...] = ()  # the places' country codes; empty: every country
    text: str | None = None  # searched in summaries and notes; None: no search
    admin1: tuple[str, ...] = ()  # the places' first-level divisions; empty: every place
    sub_types: tuple[str, ...] = ()  # the events' own finer types; empty: every event


# --- the one strict reader of a link's values -----------------------------------------------------
# A link is typed by anyone. Python's int(), float() and isdigit() take any script's digits
# ("²", "٣", "１"), and date.fromisoformat() takes "20170801" and week dates: every value is
# matched against ASCII patterns first, with a length bound, and only then converted.
MAX_PARAM_CHARS = 2_000
_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,8})")  # canonical: no leading zero
_DECIMAL = re.compile(r"-?[0-9]{1,3}(?:\.[0-9]{1,6})?")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_KILLED = re.compile(r"([0-9]{1,9})-([0-9]{1,9})")  # killed=0-12
_COUNTRY = re.compile(r"[A-Z]{2,3}")  # a places.csv country code
TEXT_MAX = 200  # a text search's characters (geo.story.timeline.TEXT_MAX)


def _ranged(value: object, pattern: re.Pattern[str], convert, lo, hi):
    """``convert`` of the value if it matches ``pattern`` whole and lies in [lo, hi], else None."""
    text = _first(value)
    if not pattern.fullmatch(text):
        return None
    x = convert(text)
    return x if lo <= x <= hi else None


def url_int(value: object, lo: int, hi: int) -> int | None:
    """A whole number from ``lo`` to ``hi`` in ASCII digits, no leading zero; else None."""
    return _ranged(value, _INT, int, lo, hi)


def url_decimal(value: object, lo: float, hi: float) -> float | None:
    """A decimal such as ``-34.25`` (at most 3 digits, 6 decimals) from ``lo`` to ``hi``."""
    return _ranged(value, _DECIMAL, float, lo, hi)


def url_day(value: object) -> date | None:
    """A ``YYYY-MM-DD`` date in ASCII digits, else None (2017-02-30 too)."""
    text = _first(value)
    if not _DAY.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _listed(values: list[str], most: int = 5) -> str:
    shown = ", ".join(clip(v) for v in values[:most])
    return shown + (f" and {len(values) - most} more" if len(values) > most else "")


def _first(value) -> str:
    """A parameter's (first) value as text, cut to MAX_PARAM_CHARS: no value is longer."""
    if isinstance(value, list | tuple):
        value = value[0] if value else ""
    return ("" if value is None else str(value))[:MAX_PARAM_CHARS]


def parse_view(
    params: Mapping[str, object],
    *,
    stories: list[str],
    default_story: str,
    span_of,
    categories_of,
    actors_of,
    countries_of=None,
    regions_of=None,
    sub_types_of=None,
) -> tuple[View, list[str]]:
    """Read a View from query params; anything bad or stale falls back to its default.

    ``span_of(story)``, ``categories_of(story)``, ``actors_of(story)`` and
    ``countries_of(story)``, ``regions_of(story)`` and ``sub_types_of(story)`` (when given)
    describe a story.
    Returns the view and one notice per value that was ignored: plain text holding raw
    values (clipped), to be shown as text, never as markdown.
    """
    notices: list[str] = []
    story = _first(params.get("story", default_story))
    if story not in stories:
        notices.append(f"Unknown story {clip(story)!r}: showing {default_story!r}.")
        story = default_story
    start, end = _window(params, span_of(story), notices)
    categories = None
    if "cat" in params:
        categories = _categories(_first(params["cat"]), set(categories_of(story)), notices)
    actors: tuple[str, ...] = ()
    if "actor" in params:
        known = set(actors_of(story))
        asked = [a for a in _first(params["actor"]).split(ACTOR_SEP) if a]
        bad = [a for a in asked if a not in known]
        if bad:
            notices.append(f"Ignored unknown actors: {_listed(bad)}.")
        actors = tuple(a for a in asked if a in known)
    layers = frozenset(LAYERS)
    if "layers" in params:
        layers = _layers(_first(params["layers"]), notices)
    selected = None
    if "sel" in params:
        raw = _first(params["sel"])
        if _SELECTION.fullmatch(raw):
            selected = raw
        else:
            notices.append(f"Ignored selection {clip(raw)!r}.")
    narrow = _narrow(params, countries_of(story) if countries_of else None, notices)
    names = (
        _names(params, "admin1", regions_of(story) if regions_of else [], "regions", notices),
        _names(
            params, "sub", sub_types_of(story) if sub_types_of else [], "sub-event types", notices
        ),
    )
    view = View(story, start, end, categories, actors, layers, selected, *narrow, *names)
    return view, notices


def _narrow(params: Mapping[str, object], known: list[str] | None, notices: list[str]):
    """``killed=0-12``, ``country=LB,SY`` and ``q=text``: the fatalities range, the country
    codes (of ``known``, when given) and the text search; each bad value is left out."""
    killed = None
    if "killed" in params:
        raw = _first(params["killed"])
        m = _KILLED.fullmatch(raw)
        if m and int(m[1]) <= int(m[2]):
            killed = (int(m[1]), int(m[2]))
        else:
            notices.append(f"Ignored killed={clip(raw)!r}: a range such as 0-12.")
    countries: tuple[str, ...] = ()
    if "country" in params:
        asked = [c for c in _first(params["country"]).split(",") if c]
        ok = [c for c in asked if _COUNTRY.fullmatch(c) and (known is None or c in known)]
        bad = [c for c in asked if c not in ok]
        if bad:
            notices.append(f"Ignored unknown countries: {_listed(bad)}.")
        countries = tuple(dict.fromkeys(ok))
    text = None
    if "q" in params:
        raw = _first(params["q"])
        text = url_text(raw)
        if text is None and raw.strip():
            notices.append(f"Ignored the text search: at most {TEXT_MAX} characters of text.")
    return killed, countries, text


def _names(params: Mapping[str, object], key: str, known, what: str, notices: list[str]):
    """``admin1=Idleb|Homs`` or ``sub=Armed clash``: the story's names of the value (``|``
    separates them, as events.csv separates actors); unknown ones left out with a notice."""
    if key not in params:
        return ()
    known = set(known)
    asked = [n for n in _first(params[key]).split(ACTOR_SEP) if n]
    bad = [n for n in asked if n not in known]
    if bad:
        notices.append(f"Ignored unknown {what}: {_listed(bad)}.")
    return tuple(dict.fromkeys(n for n in asked if n in known))


def url_text(value: object) -> str | None:
    """A text search from a link: printable text of at most TEXT_MAX characters, its spaces
    collapsed; None for anything else (blank, too long, control characters)."""
    text = " ".join(_first(value).split())
    if not text or len(text) > TEXT_MAX or not text.isprintable():
        return None
    return text


def _window(params: Mapping[str, object], span: tuple[date, date], notices: list[str]):
    """``from`` and ``to`` within the story's ``span``; the whole span where they do not fit."""
    lo, hi = span
    start, end = lo, hi
    for key in ("from", "to"):
        if key not in params:
            continue
        raw = _first(params[key])
        day = url_day(raw)
        if day is None:
            notices.append(f"Ignored {key}={clip(raw)!r}: not a date (YYYY-MM-DD).")
            continue
        if not lo <= day <= hi:
            notices.append(f"Ignored {key}={raw}: outside the story's dates {lo} to {hi}.")
            continue
        if key == "from":
            start = day
        else:
            end = day
    if start > end:
        notices.append("Ignored the date window: it ends before it starts.")
        start, end = lo, hi
    return start, end


def _categories(value: str, known: set[str], notices: list[str]) -> tuple[str, ...] | None:
    """The known categories of a ``cat`` value; None (the default) when it names only
    unknown ones."""
    asked = [c for c in value.split(",") if c]
    bad = [c for c in asked if c not in known]
    if bad:
        notices.append(f"Ignored unknown categories: {_listed(bad)}.")
    # Only unknown values (a stale link): the default, not an empty map. An empty value is
    # a reader's real choice of no category and is kept.
    valid = tuple(c for c in asked if c in known)
    return valid if valid or not asked else None


def _layers(value: str, notices: list[str]) -> frozenset[str]:
    """The known layers of a ``layers`` value; every layer when it names only unknown ones."""
    asked = [x for x in value.split(",") if x]
    bad = [x for x in asked if x not in LAYERS]
    if bad:
        notices.append(f"Ignored unknown layers: {_listed(bad)}.")
    chosen = frozenset(x for x in asked if x in LAYERS)
    return chosen if chosen or not asked else frozenset(LAYERS)


def to_params(view: View, *, default_story: str, span: tuple[date, date]) -> dict[str, str]:
    """Query params for a view, leaving out what equals the default so links stay short."""
    out: dict[str, str] = {}
    if view.story != default_story:
        out["story"] = view.story
    if view.start != span[0]:
        out["from"] = view.start.isoformat()
    if view.end != span[1]:
        out["to"] = view.end.isoformat()
    if view.categories is not None:
        out["cat"] = ",".join(view.categories)
    if view.actors:
        out["actor"] = ACTOR_SEP.join(view.actors)
    if view.layers != frozenset(LAYERS):
        out["layers"] = ",".join(x for x in LAYERS if x in view.layers)
    if view.selected:
        out["sel"] = view.selected
    if view.killed is not None:
        out["killed"] = f"{view.killed[0]}-{view.killed[1]}"
    if view.countries:
        out["country"] = ",".join(view.countries)
    if view.text:
        out["q"] = view.text
    if view.admin1:
        out["admin1"] = ACTOR_SEP.join(view.admin1)
    if view.sub_types:
        out["sub"] = ACTOR_SEP.join(view.sub_types)
    return out


# --- the map's own view: base layer, zoom and centre ---------------------------------------------
TILES = ("offline", "osm", "topo", "sat")
MIN_ZOOM, MAX_ZOOM = 2, 14


def parse_tiles(value: object, default: str = "offline") -> str:
    """The base layer a link asks for (``tiles=osm``), or ``default`` for anything else."""
    text = _first(value) if value is not None else ""
    return text if text in TILES else default


def parse_map_view(zoom: object, center: object) -> tuple[int, tuple[float, float]] | None:
    """(zoom, (lat, lon)) from ``zoom=9&center=34.2,36.5``, or None unless both are sane."""
    if zoom is None or center is None:
        return None
    z = url_int(zoom, MIN_ZOOM, MAX_ZOOM)
    parts = _first(center).split(",")
    if z is None or len(parts) != 2:
        return None
    lat, lon = url_decimal(parts[0], -85, 85), url_decimal(parts[1], -180, 180)
    if lat is None or lon is None:
        return None
    return z, (lat, lon)


def map_view_params(zoom: int, center: tuple[float, float]) -> dict[str, str]:
    """The query params of a map view (4 decimals: about 10 m)."""
    return {"zoom": str(zoom), "center": f"{center[0]:.4f},{center[1]:.4f}"}


# Play's speeds as links write them (``speed=4``), in the order the page offers them.
SPEEDS = ("0.5", "1", "2", "4")


def parse_speed(value: object) -> str | None:
    """Play's speed a link asks for (``speed=2``): one of SPEEDS, else None."""
    text = _first(value) if value is not None else ""
    return text if text in SPEEDS else None
