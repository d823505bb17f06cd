"""Turn an article's extraction into editable tables, and the edited tables into a story."""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from geo.errors import DatelineError
from geo.extract import Extraction
from geo.geocoders.gazetteer import GazetteerPlace
from geo.geometry import distance_km
from geo.names import slugify
from geo.story.load import CATEGORIES, CONFIDENCE, FIGURES, PLACE_KINDS, Story, load_story
from geo.story.storage import DiskError, fs_reason, story_files

PLACE_TABLE = (
    "keep", "id", "name", "aliases", "kind", "country", "lat", "lon", "radius_m", "mentions",
)  # fmt: skip
EVENT_TABLE = (
    "keep",
    "date",
    "end_date",
    "place",
    "category",
    "actors",
    "summary",
    *FIGURES,
    "confidence",
    "confidence_note",
    "source",  # "|"-joined source ids: a happening two reports give cites both
    "sentence",
)
# The source id of a draft's first report.
FIRST_SOURCE = "article"
# How far a point may be from the nearest gazetteer town (or another place of the draft) and
# still take its country: a river or a stretch of sea near the story's towns, not open ocean.
COUNTRY_REACH_KM = 150


class DraftError(DatelineError, ValueError):
    """An edit the draft cannot take (an empty name, a point off the globe)."""


def unique_slug(base: str, taken: set[str], tried: dict[str, int] | None = None) -> str:
    """``base``, else the first of ``base-2``, ``base-3``, ... not in ``taken`` (and now in it).

    ``tried`` (kept by the caller across calls with the same ``taken``) remembers how far each
    base got: ``taken`` only grows, so the numbers below are still taken. Without it 7,000
    events of one day and category counted up from 2 again each (quadratic)."""
    n = tried.get(base, 1) if tried is not None else 1  # 1 stands for ``base`` itself
    slug = base if n == 1 else f"{base}-{n}"
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    if tried is not None:
        tried[base] = n
    taken.add(slug)
    return slug


# Gazetteer kinds the story format has no word for: a river or a sea is drawn as an area.
_AREA_KINDS = frozenset({"river", "sea", "desert", "mountains", "district", "lake"})
# A pin the editor drops for an unplaced name holds a village, until they say otherwise.
_UNPLACED_RADIUS_M = 5000


def _kind(kind: str) -> str:
    if kind in _AREA_KINDS:
        return "area"
    return kind if kind in PLACE_KINDS else "town"


def place_key(place) -> str:
    """What groups mentions into one place row: the matched gazetteer id, else the name."""
    return place.place_id or place.name


def article_name(m) -> tuple[str, str]:
    """(name, aliases) of a place row: the article's own spelling ("Raqqa"), with the
    gazetteer's ("Ar Raqqah") as an alias; story places and derived areas keep their name."""
    written = " ".join(str(m.text or "").split())
    if m.source in ("story", "derived") or m.via != "name" or not written:
        return m.name, ""
    if written.isupper() and len(written) > 3:  # "PARIS" in a dateline
        written = written.title()
    return written, ("" if written == m.name else m.name)


def draft_places(ex: Extraction, gazetteer=None) -> pd.DataFrame:
    """One row per place the article names, with its best match; ``keep`` ticks it for saving.

    A placed row the gazetteer gave no country (a river, a sea) takes one from where it lies
    (``country_at``), so that the page's own draft always validates."""
    rows: dict[str, dict] = {}
    taken: set[str] = set()
    tried: dict[str, int] = {}
    for m in ex.places:
        key = place_key(m)
        if key in rows:
            rows[key]["mentions"] += 1
            continue
        name, aliases = article_name(m)
        rows[key] = {
            # An unplaced name waits, unticked and with no point, for the editor to pin it.
            "keep": m.placed,
            "id": unique_slug(slugify(name, "place"), taken, tried),
            "name": name,
            "aliases": aliases,
            "kind": _kind(m.kind),
            "country": m.country or "",
            "lat": round(m.lat, 5) if m.lat is not None else None,
            "lon": round(m.lon, 5) if m.lon is not None else None,
            "radius_m": int(m.radius_m) if m.placed else _UNPLACED_RADIUS_M,
            "mentions": 1,
            "_key": key,
        }
    df = pd.DataFrame(list(rows.values()), columns=[*PLACE_TABLE, "_key"]).set_index("_key")
    for key in df.index[(df["country"] == "") & df["lat"].notna()]:
        df.loc[key, "country"] = country_at(df, df.at[key, "lat"], df.at[key, "lon"], gazetteer)
        if not df.at[key, "country"]:
            df.loc[key, "keep"] = False  # open sea: the editor decides
    return df


def country_at(places: pd.DataFrame, lat: float, lon: float, gazetteer=None) -> str:
    """The country a point lies in, as far as can be told offline: the nearest gazetteer town
    within COUNTRY_REACH_KM, else the nearest other place of the table; "" when neither."""
    if gazetteer is not None:
        near = gazetteer.nearest(float(lat), float(lon), max_km=COUNTRY_REACH_KM)
        if near is not None and near.country:
            return near.country
    best, best_km = "", COUNTRY_REACH_KM
    for other in places[places["lat"].notna() & (places["country"] != "")].itertuples():
        km = distance_km((float(lat), float(lon)), (float(other.lat), float(other.lon)))
        if km < best_km:
            best, best_km = str(other.country).split("|")[0], km
    return best


def set_point(
    places: pd.DataFrame, key: str, lat: float, lon: float, gazetteer=None
) -> pd.DataFrame:
    """The places table with row ``key`` pinned or moved to (lat, lon): kept, and its country
    taken from where it now lies (a place dragged across a border changes country)."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise DraftError(f"({lat}, {lon}) is not a point on Earth.")
    out = places.copy()
    out.loc[key, ["lat", "lon"]] = [round(float(lat), 5), round(float(lon), 5)]
    country = country_at(out.drop(index=key), lat, lon, gazetteer)
    if country:
        out.loc[key, "country"] = country
    out.loc[key, "keep"] = bool(out.at[key, "country"])
    return out


def place_candidates(ex: Extraction) -> dict[str, list[GazetteerPlace]]:
    """Other gazetteer entries each place row could be, best first."""
    out: dict[str, list[GazetteerPlace]] = {}
    for m in ex.places:
        out.setdefault(place_key(m), list(m.candidates))
    return out


def _with_row(places: pd.DataFrame, key: str, name: str, **cells) -> pd.DataFrame:
    """The places table with a row ``key`` for ``name`` (an id made unique) and ``cells``."""
    row = {
        "keep": True,
        "id": unique_slug(slugify(name, "place"), set(places["id"])),
        "name": name,
        "aliases": "",
        "mentions": 0,
        **cells,
    }
    extra = pd.DataFrame([row], index=pd.Index([key], name=places.index.name))
    return pd.concat([places, extra.astype({"lat": float, "lon": float})])


def add_found(places: pd.DataFrame, found: dict) -> pd.DataFrame:
    """The places table with one more row for a place search's candidate ``found`` ({name,
    lat, lon, country, kind, radius_m, id}); the table as it is when that place is in it."""
    key = str(found.get("id") or found["name"])
    if key in places.index:
        return places
    return _with_row(
        places,
        key,
        " ".join(str(found["name"]).split()) or "place",
        kind=_kind(str(found.get("kind") or "town")),
        country=str(found.get("country") or ""),
        lat=round(float(found["lat"]), 5),
        lon=round(float(found["lon"]), 5),
        radius_m=int(found.get("radius_m") or _UNPLACED_RADIUS_M),
    )


def unplaced_place(places: pd.DataFrame, name: str) -> tuple[pd.DataFrame, str]:
    """(table, row key) with a row for ``name`` waiting to be pinned: a name the gazetteer does
    not know. An existing row of that name is reused."""
    name = " ".join(str(name).split())[:200]
    if not name:
        raise DraftError("A new place needs a name.")
    for key, row in places.iterrows():
        if str(row["name"]).casefold() == name.casefold():
            return places, key
    key = f"new:{slugify(name, 'place')}"
    out = _with_row(
        places, key, name, keep=False, kind="village", country="", lat=None, lon=None,
        radius_m=_UNPLACED_RADIUS_M,
    )  # fmt: skip
    return out, key


def new_place(
    places: pd.DataFrame,
    name: str,
    lat: float,
    lon: float,
    *,
    radius_m: int = 5000,
    kind: str = "village",
) -> pd.DataFrame:
    """The places table with a brand-new row where the editor clicked (a place no gazetteer
    knows, "Baghuz"); raises ValueError for an empty name or a point off the globe."""
    name = " ".join(str(name).split())
    if not name:
        raise DraftError("A new place needs a name.")
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise DraftError(f"({lat}, {lon}) is not a point on Earth.")
    key = f"new:{slugify(name, 'place')}:{lat:.5f},{lon:.5f}"
    if key in places.index:
        return places
    return _with_row(
        places, key, name, kind=_kind(kind), country="", lat=round(float(lat), 5),
        lon=round(float(lon), 5), radius_m=max(0, int(radius_m)),
    )  # fmt: skip


def draft_events(ex: Extraction, places: pd.DataFrame) -> pd.DataFrame:
    """One row per draft event; ``place`` is a places-table id, ``summary`` the raw sentence."""
    ids = places["id"].to_dict()
    rows = []
    for ev in ex.events:
        key = place_key(ev.place)
        if key not in ids:
            continue
        counts = ev.counts()
        disputed = ev.disputed()
        sentence = ex.sentences[ev.sentence].text.strip()
        rows.append(
            {
                "keep": True,
                "date": ev.date,
                "end_date": ev.end_date if ev.end_date != ev.date else None,
                "place": ids[key],
                "category": ev.category if ev.category in CATEGORIES else "statement",
                "actors": "|".join(ev.actors),
                "summary": sentence,
                **{col: counts.get(col) for col in FIGURES},
                "confidence": "disputed" if disputed else "reported",
                "confidence_note": disputed_note(disputed),
                "source": FIRST_SOURCE,
                "sentence": sentence,
            }
        )
    df = pd.DataFrame(rows, columns=list(EVENT_TABLE))
    for col in FIGURES:
        df[col] = df[col].astype("Int64")
    return df


def disputed_note(disputed: dict[str, list[int]], who: str = "The report") -> str:
    """A confidence note naming every figure ``who`` gives where there are several."""
    verb = "give" if who.endswith("s") else "gives"
    return " ".join(
        f"{who} {verb} {column} as {' and '.join(f'{n:,}' for n in values)}."
        for column, values in disputed.items()
    )


def merge_events(events: pd.DataFrame, rows: list) -> pd.DataFrame:
    """The events table with ``rows`` (index labels) made one event: the first row's place and
    category, the widest dates, every actor and source, the largest figure of each kind (and
    'disputed' with the others in the note when the rows disagree), the summaries joined."""
    rows = [r for r in rows if r in events.index]
    if len(rows) < 2:
        return events
    part = events.loc[rows]
    first = rows[0]
    out = events.drop(index=rows[1:]).copy()
    dates = pd.to_datetime(pd.concat([part["date"], part["end_date"]]).dropna())
    if len(dates):
        start, end = dates.min().date(), dates.max().date()
        out.at[first, "date"] = start
        out.at[first, "end_date"] = end if end != start else None
    out.at[first, "actors"] = "|".join(
        dict.fromkeys(a for v in part["actors"].fillna("") for a in str(v).split("|") if a)
    )
    out.at[first, "source"] = (
        "|".join(
            dict.fromkeys(s for v in part["source"].fillna("") for s in str(v).split("|") if s)
        )
        or FIRST_SOURCE
    )
    notes = [str(v) for v in part["confidence_note"].fillna("") if str(v)]
    for col in FIGURES:
        values = sorted({int(v) for v in part[col].dropna()})
        if values:
            out.at[first, col] = values[-1]
        if len(values) > 1:
            out.at[first, "confidence"] = "disputed"
            notes.append(disputed_note({col: values}, "The reports"))
    out.at[first, "confidence_note"] = " ".join(dict.fromkeys(notes))
    summaries = [str(v).strip() for v in part["summary"].fillna("") if str(v).strip()]
    out.at[first, "summary"] = " ".join(dict.fromkeys(summaries))
    sentences = [str(v).strip() for v in part["sentence"].fillna("") if str(v).strip()]
    out.at[first, "sentence"] = " ".join(dict.fromkeys(sentences))
    return out


def draft_from_story(story: Story) -> tuple[pd.DataFrame, pd.DataFrame, list[dict]]:
    """(places, events, sources) of a saved story as the New story page's tables, to add a
    report to it or correct it; saved again, the tables give the same story back."""
    pl = story.places
    places = pd.DataFrame(
        {
            "keep": True,
            "id": pl["id"],
            "name": pl["name"],
            "aliases": pl["aliases"].map(lambda v: "|".join(v) if isinstance(v, list) else ""),
            "kind": pl["kind"],
            "country": pl["country"],
            "lat": pl["lat"].astype(float),
            "lon": pl["lon"].astype(float),
            "radius_m": pl["radius_m"].astype(int),
            "mentions": 0,
        },
        columns=list(PLACE_TABLE),
    )
    places.index = pd.Index([f"story:{i}" for i in pl["id"]], name="_key")
    ev = story.events
    events = pd.DataFrame(
        {
            "keep": True,
            "date": ev["date"].dt.date,
            "end_date": [d.date() if pd.notna(d) else None for d in ev["end_date"]],
            "place": ev["place_id"],
            "category": ev["category"],
            "actors": ev["actors"].map(lambda v: "|".join(v) if isinstance(v, list) else ""),
            "summary": ev["summary"],
            **{col: ev[col].astype("Int64") for col in FIGURES},
            "confidence": ev["confidence"],
            "confidence_note": ev["confidence_note"].fillna(""),
            "source": ev["source"],
            "sentence": "",  # the summaries are the editor's already
        },
        columns=list(EVENT_TABLE),
    ).reset_index(drop=True)
    sources = []
    for r in story.sources.to_dict("records"):
        day = r.get("date")
        sources.append(
            {
                "id": str(r["id"]),
                "publication": str(r["publication"]),
                "date": day if isinstance(day, date) else date.fromisoformat(str(day)[:10]),
                "url": r["url"] if isinstance(r.get("url"), str) else "",
            }
        )
    return places, events, sources


@dataclass(frozen=True)
class DraftMeta:
    """What the form asks about the story as a whole."""

    title: str
    summary: str
    published: date
    publication: str
    url: str = ""
    dateline_place: str | None = None  # a places-table id


def unrewritten(events: pd.DataFrame) -> int:
    """How many kept events still use the article's own sentence as their summary."""
    kept = events[events["keep"].astype(bool)]
    return int((kept["summary"].str.strip() == kept["sentence"].str.strip()).sum())


def kept_rows(places: pd.DataFrame, events: pd.DataFrame) -> tuple[list, list]:
    """The index labels of the place rows and event rows a story is made of, in file order:
    ``places.csv`` line n is ``kept_places[n - 2]`` (line 1 is the header), and so on."""
    # astype(bool): an empty object column would select columns, not rows (no events: a crash).
    kept_places = places[places["keep"].fillna(False).astype(bool)]
    ev = events[events["keep"].fillna(True).astype(bool)]
    ev = ev[ev["place"].isin(set(kept_places["id"]))]
    return list(kept_places.index), list(ev.index)


def story_from_draft(
    meta: DraftMeta,
    places: pd.DataFrame,
    events: pd.DataFrame,
    sources: list[dict] | None = None,
) -> tuple[str, dict[str, bytes], list[str]]:
    """The story id, the files of the story folder, and notes on what was left out.

    ``sources`` are the draft's reports ({id, publication, date, url}); by default the one
    article ``meta`` describes, with id FIRST_SOURCE."""
    place_rows, event_rows = kept_rows(places, events)
    kept_places = places.loc[place_rows].copy()
    kept_ids = set(kept_places["id"])
    notes = _waiting_note(places, events, event_rows)
    ev = events.loc[event_rows].reset_index(drop=True)
    ev["date"] = pd.to_datetime(ev["date"])
    ev["end_date"] = pd.to_datetime(ev["end_date"])
    days = [meta.published, *ev["date"].dt.date, *ev["end_date"].dropna().dt.date]
    story_id = slugify(meta.title, "story")
    dateline = meta.dateline_place if meta.dateline_place in kept_ids else None
    if dateline is None and len(kept_places):
        dateline = kept_places["id"].iloc[0]
    toml_sources = _toml_sources(meta, sources)
    toml_meta = {
        "id": story_id,
        "title": meta.title,
        "summary": meta.summary or meta.title,
        "span": {"start": min(days), "end": max(days)},
        "dateline": {"place": dateline or "", "date": meta.published},
        "sources": toml_sources,
    }
    if unrewritten(events):
        # Visible in the app until every summary is in the editor's own words.
        toml_meta["draft"] = True
    ev = _story_events(ev, [s["id"] for s in toml_sources])
    return story_id, story_files(toml_meta, _story_places(kept_places), ev), notes


def _waiting_note(places: pd.DataFrame, events: pd.DataFrame, event_rows: list) -> list[str]:
    """A note on the kept events left out because their place is not kept (or not pinned)."""
    all_kept = events[events["keep"].fillna(True).astype(bool)]
    if len(all_kept) <= len(event_rows):
        return []
    n = len(all_kept) - len(event_rows)
    waiting = all_kept.loc[~all_kept.index.isin(event_rows), "place"]
    names = places.set_index("id")["name"].reindex(waiting.unique()).dropna()
    where = ", ".join(str(v) for v in names.head(5))
    return [
        f"{n} {'event' if n == 1 else 'events'} left out until {where or 'its place'} "
        "is pinned or ticked."
    ]


def _toml_sources(meta: DraftMeta, sources: list[dict] | None) -> list[dict]:
    """The story's ``[[sources]]``: the draft's reports, else the one article ``meta``
    describes."""
    if not sources:
        sources = [{
            "id": FIRST_SOURCE,
            "publication": meta.publication or "Pasted article",
            "date": meta.published,
            "url": meta.url,
        }]  # fmt: skip
    out = []
    for src in sources:
        entry = {k: src[k] for k in ("id", "publication", "date") if src.get(k)}
        entry.setdefault("publication", "Pasted article")
        if src.get("url"):
            entry["url"] = src["url"]
        out.append(entry)
    return out


def _story_events(ev: pd.DataFrame, source_ids: list[str]) -> pd.DataFrame:
    """The kept event rows (dates parsed) as the story's events: ids, place ids, actor
    lists, the sources they cite among ``source_ids``, a known confidence."""
    taken: set[str] = set()
    tried: dict[str, int] = {}
    ev["id"] = [
        unique_slug(f"{d:%Y-%m-%d}-{slugify(c)}", taken, tried)
        for d, c in zip(ev["date"], ev["category"], strict=True)
    ]
    ev["place_id"] = ev["place"]
    ev["actors"] = ev["actors"].fillna("").map(lambda s: [a for a in str(s).split("|") if a])
    # A row added by hand has no source: it is the first report's.
    cited = ev["source"] if "source" in ev else pd.Series([""] * len(ev), dtype=object)
    ev["source"] = [
        "|".join(i for i in str(c or "").split("|") if i in source_ids) or source_ids[0]
        for c in cited.fillna("")
    ]
    ev["source_detail"] = ""
    ev["confidence"] = ev["confidence"].where(ev["confidence"].isin(CONFIDENCE), "reported")
    note = ev["confidence_note"] if "confidence_note" in ev else pd.Series([""] * len(ev))
    ev["confidence_note"] = note.fillna("").astype(str)
    return ev


def _story_places(kept_places: pd.DataFrame) -> pd.DataFrame:
    """The kept place rows as the story's places: alias lists, the coordinates' source."""
    pl = kept_places.reset_index(drop=True)
    column = pl["aliases"] if "aliases" in pl else pd.Series([""] * len(pl))
    pl["aliases"] = [
        [] if not isinstance(v, str) else [a.strip() for a in v.split("|") if a.strip()]
        for v in column
    ]
    pl["geonames_id"] = pd.NA
    pl["coord_source"] = "Dateline gazetteer match, reviewed by the editor"
    return pl


@dataclass(frozen=True)
class RowProblem:
    """A problem of the draft, tied back to the editor's row: ``table`` is "places", "events"
    or "" (the story as a whole), ``row`` the table's index label (None for the whole)."""

    table: str
    row: object
    label: str  # the place's name or the event's date and category, to name it by
    message: str

    def __str__(self) -> str:
        return f"{self.label}: {self.message}" if self.label else self.message


_LINE = re.compile(r"line (\d+)$")


def locate_problems(problems, places: pd.DataFrame, events: pd.DataFrame) -> list[RowProblem]:
    """Each ``Problem`` of the built story as a RowProblem naming the editor's row."""
    place_rows, event_rows = kept_rows(places, events)
    out = []
    for p in problems:
        m = _LINE.search(p.where or "")
        line = int(m.group(1)) - 2 if m else -1
        if p.file == "places.csv" and 0 <= line < len(place_rows):
            row = place_rows[line]
            out.append(RowProblem("places", row, str(places.at[row, "name"]), p.message))
        elif p.file == "events.csv" and 0 <= line < len(event_rows):
            row = event_rows[line]
            day = pd.Timestamp(events.at[row, "date"]) if pd.notna(events.at[row, "date"]) else None
            label = f"{day:%-d %b %Y} " if day is not None else ""
            out.append(
                RowProblem("events", row, label + str(events.at[row, "category"]), p.message)
            )
        else:
            out.append(RowProblem("", None, "", str(p)))
    return out


def preview(files: dict[str, bytes]) -> Story:
    """Load story files through the real loader.

    Raises StoryError listing the problems, DiskError when the file system refuses the
    temporary copy (both DatelineErrors, which the New story page shows as messages).
    """
    tmp = None
    try:
        tmp = Path(tempfile.mkdtemp(prefix="dateline-preview-"))
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        return load_story(tmp)
    except OSError as exc:  # a full disk or a file-size limit (EFBIG) while writing the copy
        message = f"The draft cannot be checked: {fs_reason(exc)}. Nothing was saved."
        raise DiskError(message) from exc
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
