"""New story from an article: extract, review and correct on the map, add reports, save."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit_folium import st_folium

from dashboard.imports import import_section
from geo.errors import READ_FAILURES, DatelineError, failure_text
from geo.extract import extract
from geo.extract.combine import add_report
from geo.extract.draft import (
    FIRST_SOURCE,
    DraftError,
    DraftMeta,
    add_found,
    draft_events,
    draft_from_story,
    draft_places,
    locate_problems,
    merge_events,
    new_place,
    place_candidates,
    preview,
    set_point,
    story_from_draft,
    unplaced_place,
    unrewritten,
)
from geo.geocoders.chain import GeocoderChain
from geo.geocoders.gazetteer import Gazetteer
from geo.geocoders.offline import OfflineGazetteerGeocoder
from geo.map.assets import ensure_static
from geo.map.editor import editor_layers, editor_map, editor_state
from geo.map.layers import browser_layers
from geo.map.payload import story_payload
from geo.names import clip, distinct_labels, html_text, literal, plural
from geo.paths import default_cache_dir
from geo.story.drafts import (
    load_draft,
    new_draft_id,
    prune_drafts,
    save_draft,
    sources_from_json,
    sources_to_json,
    tables_from_json,
    tables_to_json,
    valid_draft_id,
)
from geo.story.library import BUNDLED, DEFAULT_STORY
from geo.story.load import (
    CATEGORIES,
    CONFIDENCE,
    PLACE_KINDS,
    UPLOAD_LIMITS,
    StoryError,
    load_story,
    problem_text,
)
from geo.story.storage import (
    MAX_ZIP_BYTES,
    DiskError,
    StorageError,
    StoryExistsError,
    files_from_zip,
    zip_story_id,
)
from geo.story.store import FolderStore, story_folder, story_store

# Every value from the article, a file or a geocoder is shown through literal() (text, never
# markdown); problems go to st.code, which is plain text.

ROOT = Path(__file__).resolve().parents[1]
MAX_BYTES = 1_000_000
MAX_UPLOAD_MB = 1  # the uploader's own limit, which it shows: MAX_BYTES rounded
FORMATS = {".txt": "text", ".md": "markdown", ".html": "html", ".htm": "html"}
DRAFTS = default_cache_dir() / "drafts"
# Where saved stories go: the stories folder, or PostgreSQL with DATELINE_DATABASE_URL set.
STORE = story_store()
SAVED_TO = (
    f"your stories folder ({literal(STORE.where())})"
    if isinstance(STORE, FolderStore)
    else f"the shared database ({literal(STORE.where())}), where every Dateline server using it "
    "finds it"
)
MAX_SEARCH = 8
MAX_UNPLACED_SHOWN = 12
MAX_PASSED_SHOWN = 20

st.set_page_config(page_title="New story · Dateline", layout="wide")
with st.sidebar:
    st.markdown("### Dateline")
    st.page_link("app.py", label="Map of the story")
    st.page_link("pages/1_New_story_from_an_article.py", label="New story from an article")
st.markdown("### New story from an article")
st.caption(
    "Paste a report or upload a file. Dateline finds the places, dates and figures, you check "
    f"and correct them on the map, and the story is saved to {SAVED_TO}. Your draft is kept "
    "as you work: reload the page or come back later with the same address."
)


@st.cache_resource(show_spinner="Loading the place index…")
def _gazetteer() -> Gazetteer:
    # The bundled story's places teach the gazetteer regional names GeoNames lacks.
    places = None
    bundled = BUNDLED / DEFAULT_STORY
    if bundled.is_dir():
        places = load_story(bundled).places
    return Gazetteer.load(places)


@st.cache_resource
def _chain() -> GeocoderChain:
    # Offline first; online only when DATELINE_ONLINE_GEOCODER turns it on.
    return GeocoderChain.from_env(OfflineGazetteerGeocoder(_gazetteer()))


@st.cache_resource
def _static_ready() -> bool:
    # The page can be opened first, before the map page has checked the static files.
    problem = ensure_static(ROOT / "static", ROOT / "data" / "basemap")
    if problem:
        raise OSError(problem)  # not cached: the next run checks again
    return True


try:
    _static_ready()
except OSError as exc:
    st.error(str(exc))
    st.stop()


@st.cache_resource
def _old_drafts_pruned() -> int:
    # Once per server: a draft untouched for 30 days, or a crash's temporary file, goes.
    return prune_drafts(DRAFTS)


_old_drafts_pruned()
ss = st.session_state


def read_upload(upload) -> tuple[str | None, str | None, str | None]:
    """(text, format, error) of an uploaded file; nothing else happens on an error."""
    suffix = Path(upload.name).suffix.lower()
    if suffix not in FORMATS:
        return None, None, f"{upload.name}: only .txt, .md and .html files can be read."
    if upload.size > MAX_BYTES:
        return None, None, f"{upload.name} is {upload.size / 1e6:.1f} MB; the limit is 1 MB."
    data = upload.getvalue()
    if b"\0" in data:
        return None, None, f"{upload.name} is not a text file."
    try:
        return data.decode("utf-8"), FORMATS[suffix], None
    except UnicodeDecodeError:
        return None, None, f"{upload.name} is not UTF-8 text."


def highlighted(ex) -> str:
    """The article as HTML with places, dates and figures marked, and the names the machine
    passed over underlined quietly; all text escaped."""
    marks = []
    for p in ex.places:
        if p.span:
            marks.append((p.start, p.end, "background:#cfe3ff", f"place: {p.name}"))
    marks += [(d.start, d.end, "background:#d5f5d5", f"date: {d.date}") for d in ex.dates]
    marks += [(f.start, f.end, "background:#ffe2b8", f"figure: {f.what}") for f in ex.figures]
    marks += [
        (n.start, n.end, "background:none;border-bottom:2px dotted #8a6d3b",
         "passed over: not placed (add it below)")
        for n in passed_over(ex)
    ]  # fmt: skip
    marks.sort()
    out, pos = [], 0
    for start, end, style, title in marks:
        if start < pos:
            continue  # overlapping marks: keep the first
        out.append(literal(ex.text[pos:start], html=True))
        out.append(
            f'<mark title="{html_text(title)}" style="{style};padding:0 2px">'
            f"{literal(ex.text[start:end], html=True)}</mark>"
        )
        pos = end
    out.append(literal(ex.text[pos:], html=True))
    return f'<div style="line-height:1.6">{"".join(out)}</div>'


# Why a name was passed over, for the ones that may be places the gazetteer lacks; a person's
# or an organisation's name is not offered.
MAYBE_PLACES = frozenset({"unknown", "unsupported", "no country", "alternate name"})


def passed_over(ex) -> list:
    """Names the extractor looked at and did not place that may be places after all."""
    return [n for n in getattr(ex, "passed_over", ()) or () if n.reason in MAYBE_PLACES]


def latest_full_date(ex) -> date | None:
    """The latest date written out in full (day, month and year) in the article, if any."""
    full = [
        d.date
        for d in ex.dates
        if d.kind == "absolute" and d.granularity == "day" and str(d.date.year) in d.text
    ]
    return max(full, default=None)


def read_report(text: str, fmt: str | None, published, dateline: str | None, fallback=None):
    """(extraction, publication date) of one report; when no date is given, the report's own
    latest full date, else ``fallback`` (the first report's, for a second one), else today."""
    gazetteer = _gazetteer()
    if published is None:
        # Relative dates ("on Monday") need an anchor: take the report's own latest full date.
        first = extract(text, date.today(), gazetteer=gazetteer, fmt=fmt)
        published = latest_full_date(first) or fallback or date.today()
        st.info(f"Publication date taken as {published:%-d %B %Y}: set it above if wrong.")
    ex = extract(text, published, dateline=dateline or None, gazetteer=gazetteer, fmt=fmt)
    return ex, published


def first_line(text: str) -> str:
    """A first guess at the title: the report's first line, if it reads like a headline."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return clip(line.lstrip("#").strip(), 90) if len(line) <= 140 else ""


def candidate_label(c) -> str:
    pop = f", pop. {c.population:,}" if c.population else ""
    return f"{c.name}, {c.country or '?'} · {c.kind}{pop} ({c.lat:.3f}, {c.lon:.3f})"


def search_places(name: str) -> tuple[list[dict], list[str]]:
    """Candidates for ``name`` from the offline gazetteer (and the online geocoder when it is
    switched on), best first, with warnings to show."""
    found = [
        {"name": c.name, "lat": c.lat, "lon": c.lon, "country": c.country or "",
         "kind": c.kind, "radius_m": int(c.radius_m), "id": c.id, "population": c.population,
         "label": candidate_label(c)}
        for c in _gazetteer().search(name, MAX_SEARCH)
    ]  # fmt: skip
    warnings: list[str] = []
    if not found and _chain().online_enabled:
        result = _chain().geocode(name)
        warnings += list(result.warnings)
        for loc in [result.location, *result.alternatives][:MAX_SEARCH]:
            if loc is None:
                continue
            raw = loc.raw or {}
            found.append(
                {"name": str(raw.get("name") or loc.address.split(",")[0]),
                 "lat": loc.latitude, "lon": loc.longitude,
                 "country": str(raw.get("country") or ""), "kind": str(raw.get("kind") or "town"),
                 "radius_m": int(raw.get("radius_m") or 5000), "id": str(raw.get("id") or ""),
                 "population": None, "label": clip(loc.address, 80)}
            )  # fmt: skip
    return found, warnings


def open_draft(draft_id: str, **fields) -> None:
    """Make ``draft_id`` the page's draft with ``fields`` (tables, sources, article, title…):
    the tables' editors made anew, no search, pinning or Saved notice carried over from the
    last draft, and its id in the address."""
    ss.update(
        draft_id=draft_id,
        editor_version=ss.get("editor_version", 0) + 1,
        search=[],
        pin_target=None,
        just_saved=None,
        **fields,
    )
    st.query_params["draft"] = draft_id


def new_draft(text, fmt, ex, published, publication, url, dateline_in) -> None:
    """Start a draft from one report."""
    places = draft_places(ex, _gazetteer())
    source = {"id": FIRST_SOURCE, "publication": publication or "Pasted article",
              "date": published, "url": url}  # fmt: skip
    open_draft(
        new_draft_id(),
        draft_article={"text": text, "fmt": fmt, "dateline": dateline_in or ""},
        dateline_id=None,
        published_on=published,
        ex=ex,
        places=places,
        events=draft_events(ex, places),
        candidates=place_candidates(ex),
        sources=[source],
        saved=None,
        story_title=ss.get("story_title") or first_line(text),
    )


def continue_story(story) -> None:
    """Start a draft from a saved story: its tables and sources, to add a report or fix it;
    Save replaces it."""
    places, events, sources = draft_from_story(story)
    open_draft(
        new_draft_id(),
        draft_article={"text": "", "fmt": None, "dateline": ""},
        published_on=story.meta["dateline"]["date"],
        dateline_id=story.meta["dateline"].get("place") or None,
        ex=None,
        places=places,
        events=events,
        candidates={},
        sources=sources,
        saved=story.id,
        story_title=story.title,
        story_summary=str(story.meta.get("summary") or ""),
    )


def restore_draft(draft_id: str) -> bool:
    """Bring back a kept draft (after a reload or a restart); False when there is none."""
    kept = load_draft(DRAFTS, draft_id)
    if not kept:
        return False
    try:
        art = kept["article"]
        published = date.fromisoformat(kept["published"])
        places, events = tables_from_json(kept["tables"])
        sources = sources_from_json(kept["sources"])
        if not sources or len(sources) != len(kept["sources"]):
            return False  # a source lost: the events citing it could not be saved
        ex = None  # a saved story continued has no article of its own to show
        if art["text"]:
            ex = extract(art["text"], published, dateline=art.get("dateline") or None,
                         gazetteer=_gazetteer(), fmt=art.get("fmt"))  # fmt: skip
    # KeyError, TypeError: the kept JSON lacks a key or has another type there (kept["article"],
    # art["text"], len(kept["sources"])); ValueError: date.fromisoformat of its date.
    except (KeyError, TypeError, ValueError, DatelineError):
        return False  # a draft from another version of the page: start afresh
    open_draft(
        draft_id,
        draft_article=art,
        published_on=published,
        ex=ex,
        places=places,
        events=events,
        candidates=place_candidates(ex) if ex is not None else {},
        sources=sources,
        dateline_id=kept.get("dateline_id"),
        saved=kept.get("saved"),
        story_title=kept.get("title", ""),
        story_summary=kept.get("summary", ""),
    )
    return True


def keep_draft(places: pd.DataFrame, events: pd.DataFrame, title: str, summary: str) -> None:
    """Write the draft to the drafts folder when it changed (atomically: see geo.story.drafts)."""
    doc = {
        "article": ss.draft_article,
        "published": ss.published_on.isoformat(),
        "sources": sources_to_json(ss.sources),
        "tables": tables_to_json(places, events),
        "title": title,
        "summary": summary,
        "saved": ss.get("saved"),
        "dateline_id": ss.get("dateline_id"),
    }
    digest = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()
    if digest == ss.get("kept_digest"):
        return
    try:
        save_draft(DRAFTS, ss.draft_id, doc)
    except DatelineError as exc:  # save_draft turns a disk fault into a DraftStoreError too
        st.warning(literal(f"The draft could not be kept on this server: {exc}"))
        return
    ss.kept_digest = digest


def changed(places: pd.DataFrame, events: pd.DataFrame, **extra) -> None:
    """Replace the tables (keeping the editor's unsaved edits they were made from) and rerun."""
    ss.places = places
    ss.events = events
    ss.just_saved = None  # the "Saved" notice is about the tables as they were
    ss.update(extra)
    ss.editor_version += 1
    st.rerun()


# --- 0. a kept draft comes back ------------------------------------------------------------------
wanted = st.query_params.get("draft")
if (
    wanted
    and ss.get("draft_id") != wanted
    and not (valid_draft_id(wanted) and restore_draft(wanted))
):
    st.warning("That draft is not on this server any more: start a new one below.")
    del st.query_params["draft"]

# --- 1. the article ------------------------------------------------------------------------------
with st.form("article"):
    text_in = st.text_area("Article text", height=200, max_chars=MAX_BYTES, key="article_text")
    # The widget says its own limit under the box ("1MB per file"): the server's (20 MB, for a
    # story zip) would contradict the 1 MB an article may have.
    upload = st.file_uploader(
        "…or upload a file (.txt, .md or .html)",
        type=["txt", "md", "html", "htm"],
        max_upload_size=MAX_UPLOAD_MB,
    )
    c1, c2, c3, c4 = st.columns(4)
    published_in = c1.date_input(
        "Published on (empty: the latest full date in the text)",
        value=None,
        key="published",
        min_value=date(1800, 1, 1),
    )
    dateline_in = c2.text_input("Dateline place (if the text has none)", key="dateline_in")
    publication = c3.text_input(
        "Publication", value="", key="publication", placeholder="e.g. Reuters"
    )
    url_in = c4.text_input("Address (URL)", key="url_in", placeholder="https://…")
    go = st.form_submit_button("Find places, dates and figures", type="primary")

if go:
    text, fmt, error = text_in, None, None
    if upload is not None:
        text, fmt, error = read_upload(upload)
    if error:
        st.error(literal(error))
    elif not (text or "").strip():
        st.error("Paste an article or upload a file first.")
    else:
        progress = st.progress(0, text="Loading the place index…")
        _gazetteer()
        progress.progress(40, text="Reading the article…")
        ex, published = read_report(text, fmt, published_in, dateline_in)
        new_draft(text, fmt, ex, published, publication.strip(), url_in.strip(), dateline_in)
        found = f"{plural(len(ss.places), 'place')} and {plural(len(ex.events), 'event')}"
        progress.progress(100, text=f"Found {found}.")

try:
    saved_stories = STORE.entries()
except StorageError as exc:  # the database cannot be reached: a new story can still be drafted
    st.warning(literal(f"The saved stories cannot be listed: {exc}."))
    saved_stories = {}
if saved_stories:
    with st.expander("…or continue a saved story: add a report to it, or correct it"):
        titles = distinct_labels({k: e.title for k, e in saved_stories.items()})
        pick = st.selectbox(
            "Saved story", list(saved_stories), format_func=titles.get, key="continue_pick",
        )  # fmt: skip
        if st.button("Continue this story"):
            try:
                chosen = load_story(story_folder(saved_stories[pick], STORE))
            except StoryError as exc:
                st.error("That story has problems: fix its files first.")
                st.code(problem_text(exc), language=None)
            except READ_FAILURES as exc:
                st.error(literal(f"That story cannot be read: {failure_text(exc)}"))
            except StorageError as exc:
                st.error(literal(f"That story cannot be read: {exc}"))
            else:
                if len(chosen.convoy) or len(chosen.fronts):
                    # The page writes places and events only: a convoy or fronts would be lost.
                    st.error("That story has a convoy or fronts, which this page cannot edit.")
                else:
                    continue_story(chosen)
                    st.rerun()

ex = ss.get("ex")
if ss.get("places") is None:
    st.info(
        "Results appear here: the article with places, dates and figures highlighted, a map "
        "to fix places on, tables to correct, and Save."
    )
else:
    version = ss.editor_version
    missed = []
    if ex is not None:
        st.markdown("##### The article")
        st.caption(
            "Blue: places · green: dates · orange: figures · dotted: names passed over (not placed)"
        )
        with st.container(height=300):
            st.markdown(highlighted(ex), unsafe_allow_html=True)
        missed = list(dict.fromkeys(n.text for n in passed_over(ex)))[:MAX_PASSED_SHOWN]

    # The map and its tools come first on the page, but are drawn after the tables (below) so
    # that they show the editor's latest edits.
    map_area = st.container()
    problems_area = st.container()

    # --- 2. places -------------------------------------------------------------------------------
    st.markdown("##### Places")
    st.caption(
        "Untick what is not a place; fix names, kinds, coordinates and radii by typing, or on "
        "the map above. A place with no point waits to be pinned."
    )
    place_problems = ss.get("row_problems", {}).get("places", {})
    shown_places = ss.places.copy()
    shown_places.insert(0, "problem", [place_problems.get(k, "") for k in shown_places.index])
    places = st.data_editor(
        shown_places,
        key=f"places_editor_{version}",
        hide_index=True,
        num_rows="fixed",
        width="stretch",
        column_config={
            "problem": st.column_config.TextColumn("⚠ problem", disabled=True),
            "keep": st.column_config.CheckboxColumn("keep"),
            "id": st.column_config.TextColumn("id", disabled=True),
            "kind": st.column_config.SelectboxColumn("kind", options=list(PLACE_KINDS)),
            "lat": st.column_config.NumberColumn("lat", min_value=-90, max_value=90, format="%.5f"),
            "lon": st.column_config.NumberColumn(
                "lon", min_value=-180, max_value=180, format="%.5f"
            ),
            "radius_m": st.column_config.NumberColumn("radius (m)", min_value=0, step=100),
            "mentions": st.column_config.NumberColumn("mentions", disabled=True),
        },
        column_order=None if place_problems else [c for c in shown_places if c != "problem"],
    ).drop(columns="problem")

    # --- 3. events -------------------------------------------------------------------------------
    st.markdown("##### Draft events")
    st.caption(
        "Each summary starts as the article's own sentence: rewrite it in your words before "
        "publishing. Add a row at the bottom, delete with the row's checkbox and the bin."
    )
    event_problems = ss.get("row_problems", {}).get("events", {})
    shown_events = ss.events.copy()
    shown_events.insert(0, "problem", [event_problems.get(k, "") for k in shown_events.index])
    place_ids = list(places["id"])
    events = st.data_editor(
        shown_events,
        key=f"events_editor_{version}",
        hide_index=True,
        num_rows="dynamic",
        width="stretch",
        column_config={
            "problem": st.column_config.TextColumn("⚠ problem", disabled=True),
            "keep": st.column_config.CheckboxColumn("keep", default=True),
            "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
            "end_date": st.column_config.DateColumn("end date", format="YYYY-MM-DD"),
            "place": st.column_config.SelectboxColumn("place", options=place_ids),
            "category": st.column_config.SelectboxColumn("category", options=list(CATEGORIES)),
            "summary": st.column_config.TextColumn("summary", width="large"),
            "confidence": st.column_config.SelectboxColumn("confidence", options=list(CONFIDENCE)),
            "source": st.column_config.TextColumn("source", disabled=True),
            "sentence": None,  # hidden: kept to tell rewritten summaries from copies
        },
        column_order=None if event_problems else [c for c in shown_events if c != "problem"],
    ).drop(columns="problem")
    events["keep"] = events["keep"].fillna(True)
    events["source"] = events["source"].fillna(FIRST_SOURCE)
    events["confidence"] = events["confidence"].fillna("reported")

    labels = {
        i: ("(left out) " if not r["keep"] else "")
        + f"{r['date']} · {r['category']} · {r['place']}"
        + (f" · {clip(str(r['summary']), 50)}" if r["summary"] else "")
        for i, r in events.iterrows()
    }
    if len(events):
        # One event at a time with plain widgets: quicker than the grid, and usable on a phone.
        with st.container(border=True):
            row = st.selectbox("Edit one event", list(labels), format_func=labels.get,
                               key=f"edit_row_{version}")  # fmt: skip
            ev = events.loc[row]
            e1, e2, e3, e4 = st.columns(4)
            category = e1.selectbox(
                "category", list(CATEGORIES), key=f"edit_cat_{version}_{row}",
                index=list(CATEGORIES).index(ev["category"]) if ev["category"] in CATEGORIES
                else 0,
            )  # fmt: skip
            day = e2.date_input("date", value=pd.Timestamp(ev["date"]).date()
                                if pd.notna(ev["date"]) else ss.published_on,
                                key=f"edit_date_{version}_{row}")  # fmt: skip
            end = e3.date_input("end date", value=pd.Timestamp(ev["end_date"]).date()
                                if pd.notna(ev["end_date"]) else None,
                                key=f"edit_end_{version}_{row}")  # fmt: skip
            where = e4.selectbox(
                "place", place_ids, key=f"edit_place_{version}_{row}",
                index=place_ids.index(ev["place"]) if ev["place"] in place_ids else 0,
            )  # fmt: skip
            f1, f2, f3, f4 = st.columns(4)
            figures = {
                col: box.number_input(col, min_value=0, step=1, key=f"edit_{col}_{version}_{row}",
                                      value=int(ev[col]) if pd.notna(ev[col]) else None)
                for col, box in zip(("killed", "wounded", "displaced", "missing"),
                                    (f1, f2, f3, f4), strict=True)
            }  # fmt: skip
            c1, c2 = st.columns([1, 3])
            confidence = c1.selectbox(
                "confidence", list(CONFIDENCE), key=f"edit_conf_{version}_{row}",
                index=list(CONFIDENCE).index(ev["confidence"]) if ev["confidence"] in CONFIDENCE
                else 0,
            )  # fmt: skip
            note = c2.text_input(
                "confidence note (the other figures, when disputed)",
                value=str(ev["confidence_note"] or ""),
                key=f"edit_note_{version}_{row}",
                max_chars=500,
            )
            a1, a2 = st.columns(2)
            if a2.button("Leave this event out", key="edit_drop"):
                out = events.copy()
                out.loc[row, "keep"] = False
                changed(places, out)
            if a1.button("Apply to this event", key="edit_apply"):
                out = events.copy()
                out.at[row, "keep"] = True  # an event edited is an event kept
                out.at[row, "category"] = category
                out.at[row, "date"] = day
                out.at[row, "end_date"] = end if end and end != day else None
                out.at[row, "place"] = where
                out.at[row, "confidence"] = confidence
                out.at[row, "confidence_note"] = note.strip()
                for col, value in figures.items():
                    out.at[row, col] = pd.NA if value is None else int(value)
                changed(places, out)
    if len(events) > 1:
        with st.container(border=True):
            join = st.multiselect(
                "Merge events that are one happening",
                list(labels),
                format_func=labels.get,
                key=f"merge_{version}",
                placeholder="Choose two or more rows",
            )
            if st.button("Merge them", disabled=len(join) < 2):
                changed(places, merge_events(events, join))

    # --- 4. the map, the places to pin, the place search ----------------------------------------
    with map_area:
        st.markdown("##### Map")
        map_col, tool_col = st.columns([3, 2], gap="medium")
        unplaced = places[places["lat"].isna() | places["lon"].isna()]
        target = ss.get("pin_target")
        if target is not None and target not in places.index:
            target = ss.pin_target = None
        with tool_col:
            if target is not None:
                st.info(
                    f"Click the map where {literal(places.at[target, 'name'])} is, or drag its "
                    "red square."
                )
                r1, r2 = st.columns(2)
                radius = r1.number_input(
                    "radius (m)",
                    min_value=0,
                    step=500,
                    value=int(places.at[target, "radius_m"] or 0),
                    key=f"radius_{target}_{version}",
                )
                if radius != int(places.at[target, "radius_m"] or 0):
                    moved = places.copy()
                    moved.loc[target, "radius_m"] = int(radius)
                    changed(moved, events)
                if r2.button("Done", key="pin_done"):
                    changed(places, events, pin_target=None)
            if len(unplaced):
                st.markdown(f"**Places to pin** ({len(unplaced)})")
                for key, row in unplaced.head(MAX_UNPLACED_SHOWN).iterrows():
                    a, b = st.columns([3, 2])
                    within = f" (in {row['country']})" if row["country"] else ""
                    a.write(literal(f"{row['name']}{within}"))
                    if b.button("Pin on the map", key=f"pin_{row['id']}"):
                        changed(places, events, pin_target=key)
                if len(unplaced) > MAX_UNPLACED_SHOWN:
                    st.caption(f"and {len(unplaced) - MAX_UNPLACED_SHOWN} more in the table")
            else:
                st.caption("Every place has a point. Drag a square to move a place.")

            # Place search: its results stay until the next search.
            with st.form("place_search", border=True):
                s1, s2 = st.columns([3, 1], vertical_alignment="bottom")
                query = s1.text_input("Find a place", key="search_name", placeholder="e.g. Bashiqa")
                looked = s2.form_submit_button("Search")
            if looked and query.strip():
                found, warnings = search_places(query.strip()[:200])
                ss.search, ss.search_for = found, query.strip()[:200]
                ss.search_token = f"{query}-{len(found)}-{version}"
                for warning in warnings:
                    st.warning(literal(warning))
            results = ss.get("search") or []
            if ss.get("search_for") and not results:
                st.caption(
                    f"Nothing called {literal(repr(ss.search_for))} in the offline gazetteer"
                    + ("" if _chain().online_enabled else " (the online geocoder is off)")
                    + ": add it as a place to pin, below."
                )
            if results:
                pick = st.radio(
                    "Candidates (numbered on the map)",
                    range(len(results)),
                    format_func=lambda i: f"{i + 1}. {results[i]['label']}",
                    key=f"cand_pick_{ss.get('search_token')}",
                    index=ss.get("cand_clicked") if ss.get("cand_clicked") is not None else 0,
                )
                rows = {"": "a new place", **{k: r["name"] for k, r in places.iterrows()}}
                found_name = ss.search_for.lower()
                same = next((k for k, r in places.iterrows()
                             if str(r["name"]).lower() == found_name), "")  # fmt: skip
                for_row = st.selectbox(
                    "Use it for",
                    list(rows),
                    index=list(rows).index(same),
                    format_func=rows.get,
                    key=f"use_for_{ss.get('search_token')}",
                )
                if st.button("Use this", type="primary"):
                    c = results[pick]
                    if for_row:
                        out = places.copy()
                        out.loc[for_row, ["lat", "lon", "radius_m"]] = [
                            round(c["lat"], 5), round(c["lon"], 5), int(c["radius_m"])
                        ]  # fmt: skip
                        out.loc[for_row, "keep"] = True
                        if c["country"]:
                            out.loc[for_row, "country"] = c["country"]
                        else:
                            out = set_point(out, for_row, c["lat"], c["lon"], _gazetteer())
                    else:
                        out = add_found(places, c)
                    changed(out, events, search=[], search_for="", cand_clicked=None)
            if ss.get("search_for") and st.button(
                f"Add {literal(clip(ss.search_for, 40))} as a place to pin"
            ):
                out, key = unplaced_place(places, ss.search_for)
                changed(out, events, search=[], search_for="", pin_target=key)
            if missed:
                st.markdown("**Names passed over** (dotted in the article)")
                name = st.selectbox("Name", missed, key=f"missed_{version}")
                if st.button("Add as a place", key="add_missed"):
                    found, _ = search_places(name)
                    if found:
                        ss.search, ss.search_for = found, name
                        ss.search_token = f"{name}-{len(found)}-{version}"
                        st.rerun()
                    out, key = unplaced_place(places, name)
                    changed(out, events, pin_target=key)

        with map_col:
            _, files, _notes = story_from_draft(
                DraftMeta("Preview", "", ss.published_on, ""), places, events, ss.sources
            )
            groups = []
            try:
                draft = preview(files)
            except DatelineError:  # StoryError, or DiskError: both are said below
                draft = None  # the problems are listed below; the places are still drawn
            if draft is not None and len(draft.places):
                groups = browser_layers(
                    story_payload(draft), draft.start, draft.end, None, [],
                    {"events", "places"},
                )  # fmt: skip
            state = editor_state(
                places,
                [{**c, "label": f"{i + 1}. {c['label']}"} for i, c in enumerate(results)],
                target,
                frame_token=f"{ss.draft_id}-{ss.get('search_token', '')}",
            )
            groups.append(editor_layers(state))
            clicked = st_folium(
                editor_map(),
                key=f"editmap-{ss.draft_id}",
                feature_group_to_add=groups,
                returned_objects=[
                    "last_clicked", "last_object_clicked_tooltip", "last_object_clicked_count",
                    # None until the map has sent its first value (an empty list, unchanged by
                    # panning): the caption below tells the reader, and tests, it is live.
                    "selected_layers",
                ],
                height=460,
                use_container_width=True,
            ) or {}  # fmt: skip
            if clicked.get("selected_layers") is not None:
                st.caption(
                    "Squares are places (drag to move), circles the draft's events, numbers the "
                    "search's candidates."
                )
        # What the map sent: a drag or a candidate (its count went up), else a bare click.
        count = clicked.get("last_object_clicked_count") or 0
        point = clicked.get("last_clicked")
        seen_count, seen_point = ss.get("map_seen", (0, None))
        ss.map_seen = (count, point)
        action = str(clicked.get("last_object_clicked_tooltip") or "")
        if count > seen_count and point and action.startswith("[move:"):
            key = action[len("[move:") : -1]
            if key in places.index:
                changed(set_point(places, key, point["lat"], point["lng"], _gazetteer()), events)
        elif count > seen_count and action.startswith("[cand:"):
            ss.cand_clicked = int(action[len("[cand:") : -1])
            st.rerun()
        elif point and point != seen_point and count == seen_count:
            if target is not None:
                out = set_point(places, target, point["lat"], point["lng"], _gazetteer())
                changed(out, events)
            with map_col:
                st.caption(f"Clicked {point['lat']:.5f}, {point['lng']:.5f}")
                n1, n2, n3 = st.columns([3, 2, 2], vertical_alignment="bottom")
                new_name = n1.text_input("Add a new place here", key="new_place_name",
                                         placeholder="name as the article writes it")  # fmt: skip
                new_kind = n2.selectbox("kind", list(PLACE_KINDS), index=2, key="new_place_kind")
                if n3.button("Add new place"):
                    try:
                        out = new_place(places, new_name, point["lat"], point["lng"],
                                        kind=new_kind)  # fmt: skip
                    except DraftError as exc:
                        st.error(literal(exc))
                    else:
                        key = out.index[-1]
                        changed(set_point(out, key, point["lat"], point["lng"], _gazetteer()),
                                events)  # fmt: skip

    # --- 5. title, problems, save ----------------------------------------------------------------
    title = st.text_input("Story title", key="story_title", placeholder="A short headline")
    summary = st.text_area("One-paragraph summary in your words", key="story_summary", height=80)
    dl_names = dict(zip(places["id"], places["name"], strict=True))
    guess = (
        ex.dateline.place
        if ex is not None and ex.dateline
        else (ss.draft_article.get("dateline") or None)
    )
    meta = DraftMeta(
        title=title.strip() or "Untitled story",
        summary=summary.strip(),
        published=ss.published_on,
        publication=ss.sources[0]["publication"],
        url=ss.sources[0].get("url") or "",
        dateline_place=ss.get("dateline_id")
        or next((i for i, n in dl_names.items() if guess and n == guess), None),
    )
    story_id, files, notes = story_from_draft(meta, places, events, ss.sources)
    keep_draft(places, events, title, summary)
    problems = []
    try:
        preview(files)
    except StoryError as exc:
        problems = locate_problems(exc.problems, places, events)
    except DatelineError as exc:  # the temporary copy could not be written (DiskError)
        st.error(literal(exc))
    by_row: dict[str, dict] = {"places": {}, "events": {}}
    for p in problems:
        if p.table:
            by_row[p.table].setdefault(p.row, p.message)
    if by_row != ss.get("row_problems", {"places": {}, "events": {}}):
        ss.row_problems = by_row  # the tables show them on the next run
        st.rerun()
    with problems_area:
        if problems:
            st.error(f"{plural(len(problems), 'problem')} to fix "
                     "before saving (the rows are marked ⚠ in the tables):")  # fmt: skip
            for n, p in enumerate(problems[:20]):
                a, b = st.columns([4, 1], vertical_alignment="center")
                a.text(str(p))
                if p.table == "places" and b.button("Leave it out", key=f"fix_{n}"):
                    out = places.copy()
                    out.loc[p.row, "keep"] = False
                    changed(out, events)
                elif p.table == "events" and b.button("Leave it out", key=f"fix_{n}"):
                    out = events.copy()
                    out.loc[p.row, "keep"] = False
                    changed(places, out)
    for note in notes:
        st.caption(literal(note))

    st.markdown("##### Save")
    n_copied = unrewritten(events)
    if n_copied:
        st.warning(
            f"{plural(n_copied, 'summary', 'summaries')} still "
            f"{'quotes' if n_copied == 1 else 'quote'} the article word for word. The story is "
            "saved marked as a draft until you rewrite "
            f"{'it' if n_copied == 1 else 'them'}."
        )
    again = ss.get("saved") == story_id
    st.write(
        f"Saves as `{story_id}` in {literal(STORE.where())}"
        + (" (replacing the version you saved before)." if again else ".")
    )
    if st.button("Save story", type="primary", disabled=bool(problems), key="save_story"):
        try:
            saved = STORE.save(story_id, files, replace=again)
        except StoryExistsError:
            st.error(
                f"A story called `{story_id}` already exists: change the title. "
                "Nothing was overwritten."
            )
        except StoryError as exc:
            st.error("Not saved: the story has problems.")
            st.code(problem_text(exc), language=None)
        except StorageError as exc:
            st.error(literal(exc))
        else:
            ss.saved = ss.just_saved = saved.id
            keep_draft(places, events, title, summary)
    if ss.get("just_saved"):
        st.success(f"Saved `{ss.just_saved}`. Open it from the story picker on the main page.")
    elif ss.get("saved"):
        st.caption(f"This draft was saved as `{ss.saved}` before: Save again to replace it.")
    if ss.get("saved"):
        st.page_link("app.py", label="Open it on the map", query_params={"story": ss.saved})

    # --- 6. another report of the same story ----------------------------------------------------
    st.markdown("##### Add another report")
    st.caption(
        "A second report of the same story: its places are matched to this draft's, its events "
        "added with their own source, and one happening both report is merged, citing both."
    )
    with st.form("second_report"):
        text2 = st.text_area("Its text", height=140, max_chars=MAX_BYTES, key="text2")
        d1, d2, d3 = st.columns(3)
        published2 = d1.date_input("Published on (empty: the first report's)", value=None,
                                   key="published2",
                                   min_value=date(1800, 1, 1))  # fmt: skip
        publication2 = d2.text_input("Publication", key="publication2")
        url2 = d3.text_input("Address (URL)", key="url2", placeholder="https://…")
        more = st.form_submit_button("Add this report")
    if more and text2.strip():
        with st.spinner("Reading the report…"):
            ex2, when2 = read_report(text2, None, published2, None, ss.published_on)
            new_places = draft_places(ex2, _gazetteer())
            new_events = draft_events(ex2, new_places)
            source2 = {"publication": publication2.strip() or "Second report", "date": when2,
                       "url": url2.strip()}  # fmt: skip
            out_p, out_e, out_s, add_notes = add_report(
                places, events, ss.sources, new_places, new_events, source2
            )
        ss.add_notes = add_notes
        changed(out_p, out_e, sources=out_s)
    for note in ss.get("add_notes", []):
        st.caption(literal(note))
    if len(ss.sources) > 1:
        st.caption(
            "Sources: "
            + "; ".join(literal(f"{s['publication']} ({s['date']:%-d %b %Y})") for s in ss.sources)
        )

# --- zip upload ----------------------------------------------------------------------------------
with st.expander("Upload a story zip"):
    zipped = st.file_uploader(
        "A zip made by Dateline's download",
        type=["zip"],
        key="zip_up",
        max_upload_size=MAX_ZIP_BYTES // 2**20,
    )
    if zipped is not None and st.button("Add this story"):
        try:
            zfiles = files_from_zip(zipped.getvalue())
            zid = zip_story_id(zfiles, zipped.name)
            added = STORE.save(zid, zfiles, limits=UPLOAD_LIMITS)
        except StoryError as exc:
            st.error("Not added: the story has problems.")
            st.code(problem_text(exc), language=None)
        except StoryExistsError as exc:
            st.error(literal(f"Not added: {exc}. Nothing was overwritten."))
        except DiskError as exc:
            st.error(literal(exc))
        except StorageError as exc:  # the zip (ZipError) or its files (StoryFilesError)
            st.error(literal(f"Not added: {exc}. Nothing was saved."))
        else:
            st.success(f"Added `{added.id}`: open it from the story picker.")

# --- dataset export upload ---------------------------------------------------------------------
with st.expander("Import a dataset export (ACLED, UCDP GED, GDELT)"):
    import_section(STORE)
