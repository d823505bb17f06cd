"""New story from an article: extract, review and correct, preview on the map, save."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import streamlit as st
from streamlit_folium import st_folium

from geo.extract import extract
from geo.extract.draft import (
    DraftMeta,
    add_place,
    draft_events,
    draft_places,
    new_place,
    place_candidates,
    preview,
    story_from_draft,
    unrewritten,
    use_candidate,
)
from geo.geocoders.chain import GeocoderChain
from geo.geocoders.gazetteer import Gazetteer
from geo.geocoders.offline import OfflineGazetteerGeocoder
from geo.map.assets import install_static
from geo.map.layers import base_map, story_layers
from geo.names import html_text, literal
from geo.story.library import BUNDLED, DEFAULT_STORY, user_stories_dir
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
    StorageError,
    StoryExistsError,
    files_from_zip,
    save_story,
    zip_story_id,
)

# Every value from the article, a file or a geocoder is shown through literal() (text, never
# markdown); problems go to st.code, which is plain text.

ROOT = Path(__file__).resolve().parents[1]
MAX_BYTES = 1_000_000
FORMATS = {".txt": "text", ".md": "markdown", ".html": "html", ".htm": "html"}

st.set_page_config(page_title="New story · Dateline", layout="wide")
with st.sidebar:
    st.markdown("### Dateline")
    st.page_link("app.py", label="Map of the story")
    st.page_link("pages/1_New_story_from_an_article.py", label="New story from an article")
st.markdown("### New story from an article")
st.caption(
    "Paste a report or upload a file. Dateline finds the places, dates and figures, you check "
    "and correct them, and the story is saved to your stories folder "
    f"({literal(user_stories_dir())})."
)


@st.cache_resource(show_spinner="Building the place index (first time only, about 20 s)…")
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
def _static_ready() -> None:
    # The page can be opened first, before the map page has installed the static files.
    install_static(ROOT / "static", ROOT / "data" / "basemap")


_static_ready()


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
    """The article as HTML with places, dates and figures marked; all text escaped."""
    marks = []
    for p in ex.places:
        if p.span:
            marks.append((p.start, p.end, "#cfe3ff", f"place: {p.name}"))
    marks += [(d.start, d.end, "#d5f5d5", f"date: {d.date}") for d in ex.dates]
    marks += [(f.start, f.end, "#ffe2b8", f"figure: {f.what}") for f in ex.figures]
    marks.sort()
    out, pos = [], 0
    for start, end, colour, title in marks:
        if start < pos:
            continue  # overlapping marks: keep the first
        out.append(literal(ex.text[pos:start], html=True))
        out.append(
            f'<mark title="{html_text(title)}" style="background:{colour};padding:0 2px">'
            f"{literal(ex.text[start:end], html=True)}</mark>"
        )
        pos = end
    out.append(literal(ex.text[pos:], html=True))
    return f'<div style="line-height:1.6">{"".join(out)}</div>'


def latest_full_date(ex) -> date | None:
    """The latest date written out in full (day, month and year) in the article, if any."""
    full = [
        d.date
        for d in ex.dates
        if d.kind == "absolute" and d.granularity == "day" and str(d.date.year) in d.text
    ]
    return max(full, default=None)


# --- 1. the article ----------------------------------------------------------------------------
with st.form("article"):
    text_in = st.text_area("Article text", height=200, max_chars=MAX_BYTES, key="article_text")
    upload = st.file_uploader(
        "…or upload a file (.txt, .md, .html; at most 1 MB)", type=["txt", "md", "html", "htm"]
    )
    c1, c2, c3 = st.columns(3)
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
        gazetteer = _gazetteer()
        progress.progress(40, text="Reading the article…")
        published = published_in
        if published is None:
            # Relative dates ("on Monday") need an anchor: take the report's own latest full date.
            first = extract(text, date.today(), gazetteer=gazetteer, fmt=fmt)
            published = latest_full_date(first) or date.today()
            st.info(f"Publication date taken as {published:%-d %B %Y}: set it above if wrong.")
        ex = extract(text, published, dateline=dateline_in or None, gazetteer=gazetteer, fmt=fmt)
        progress.progress(80, text="Placing the places…")
        places = draft_places(ex)
        st.session_state.update(
            published_on=published,
            ex=ex,
            places=places,
            events=draft_events(ex, places),
            candidates=place_candidates(ex),
            editor_version=st.session_state.get("editor_version", 0) + 1,
            saved=None,
        )
        progress.progress(100, text=f"Found {len(places)} places and {len(ex.events)} events.")

ex = st.session_state.get("ex")
if ex is None:
    st.info(
        "Results appear here: the article with places, dates and figures highlighted, "
        "tables to correct, and a map preview."
    )
else:
    version = st.session_state.editor_version
    st.markdown("##### The article")
    st.caption("Blue: places · green: dates · orange: figures")
    with st.container(height=340):
        st.markdown(highlighted(ex), unsafe_allow_html=True)

    # --- 2. places ---------------------------------------------------------------------------
    st.markdown("##### Places")
    st.caption(
        "Untick what is not a place; fix names, kinds and coordinates by typing, by "
        "choosing another match, or by clicking the map below."
    )
    places = st.data_editor(
        st.session_state.places,
        key=f"places_editor_{version}",
        hide_index=True,
        num_rows="fixed",
        width="stretch",
        column_config={
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
    )
    # --- 3. events ---------------------------------------------------------------------------
    st.markdown("##### Draft events")
    st.caption(
        "Each summary starts as the article's own sentence: rewrite it in your words "
        "before publishing."
    )
    events = st.data_editor(
        st.session_state.events,
        key=f"events_editor_{version}",
        hide_index=True,
        num_rows="dynamic",
        width="stretch",
        column_config={
            "keep": st.column_config.CheckboxColumn("keep", default=True),
            "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
            "end_date": st.column_config.DateColumn("end date", format="YYYY-MM-DD"),
            "place": st.column_config.SelectboxColumn("place", options=list(places["id"])),
            "category": st.column_config.SelectboxColumn("category", options=list(CATEGORIES)),
            "summary": st.column_config.TextColumn("summary", width="large"),
            "confidence": st.column_config.SelectboxColumn("confidence", options=list(CONFIDENCE)),
            "sentence": None,  # hidden: kept to tell rewritten summaries from copies
        },
    )

    # Place fixes come after the events table so that its unsaved edits are kept.
    with st.expander("Add a place the machine missed"):
        missing = st.text_input(
            "Place name",
            key="add_place_name",
            placeholder="e.g. Jusiyah, or a village the text names",
        )
        if st.button("Look it up") and missing.strip():
            found = _chain().geocode(missing.strip())
            for warning in found.warnings:
                st.warning(literal(warning))
            if found.location is None:
                st.error(
                    f"{literal(repr(missing))} is not in the offline gazetteer"
                    + (
                        ""
                        if _chain().online_enabled
                        else " (an online geocoder can be turned on: see the README)"
                    )
                    + ". Click its spot on the preview map below to add it as a new place."
                )
            else:
                st.session_state.places = add_place(places, found.location)
                st.session_state.events = events
                st.session_state.editor_version += 1
                st.rerun()
    with st.expander("Change a place's match"):
        names = {k: f"{r['name']} ({r['id']})" for k, r in places.iterrows()}
        key = st.selectbox("Place", list(names), format_func=names.get, key="match_place")
        cands = st.session_state.candidates.get(key, [])
        if not cands:
            st.caption("No other candidates in the gazetteer.")
        else:
            idx = st.selectbox(
                "Other matches",
                range(len(cands)),
                format_func=lambda i: (
                    f"{cands[i].name}, {cands[i].country} "
                    f"({cands[i].lat:.3f}, {cands[i].lon:.3f}"
                    + (f", pop. {cands[i].population:,}" if cands[i].population else "")
                    + ")"
                ),
                key="match_cand",
            )
            if st.button("Use this match"):
                st.session_state.places = use_candidate(places, key, cands[idx])
                st.session_state.events = events
                st.session_state.editor_version += 1
                st.rerun()

    # --- 4. preview and save -----------------------------------------------------------------
    title = st.text_input("Story title", key="story_title", placeholder="A short headline")
    summary = st.text_area("One-paragraph summary in your words", key="story_summary", height=80)
    dl_names = dict(zip(places["id"], places["name"], strict=True))
    guess = ex.dateline.place if ex.dateline else (dateline_in or None)
    dl_default = next((i for i, n in dl_names.items() if guess and n == guess), None)
    meta = DraftMeta(
        title=title.strip() or "Untitled story",
        summary=summary.strip(),
        published=st.session_state.published_on,
        publication=publication.strip(),
        dateline_place=dl_default,
    )
    story_id, files, notes = story_from_draft(meta, places, events.fillna({"keep": True}))
    for note in notes:
        st.caption(literal(note))
    try:
        draft = preview(files)
    except StoryError as exc:
        draft = None
        st.error("The draft has problems to fix before it can be saved:")
        st.code(problem_text(exc), language=None)
    except StorageError as exc:
        draft = None
        st.error(literal(exc))

    map_col, save_col = st.columns([3, 2], gap="medium")
    with map_col:
        st.markdown("##### Preview")
        if draft is not None and len(draft.places):
            fmap = base_map(draft)
            groups = story_layers(draft, draft.events, draft.end)
            clicked = st_folium(
                fmap,
                key=f"preview-{version}",
                feature_group_to_add=groups,
                returned_objects=["last_clicked"],
                height=420,
                use_container_width=True,
            )
            point = (clicked or {}).get("last_clicked")
            if point:
                move = st.selectbox(
                    "Move this place to where you clicked",
                    list(names),
                    format_func=names.get,
                    key="move_place",
                )
                st.caption(f"Clicked {point['lat']:.5f}, {point['lng']:.5f}")
                if st.button("Move it"):
                    moved = places.copy()
                    moved.loc[move, ["lat", "lon"]] = [
                        round(point["lat"], 5),
                        round(point["lng"], 5),
                    ]
                    st.session_state.places = moved
                    st.session_state.events = events
                    st.session_state.editor_version += 1
                    st.rerun()
                # A place no gazetteer knows ("Baghuz"): a new row where the editor clicked.
                n1, n2, n3 = st.columns([3, 2, 2])
                new_name = n1.text_input("…or add a new place here", key="new_place_name",
                                         placeholder="name as the article writes it")  # fmt: skip
                new_kind = n2.selectbox("kind", list(PLACE_KINDS), index=2, key="new_place_kind")
                new_radius = n3.number_input("radius (m)", min_value=0, value=5000, step=500,
                                             key="new_place_radius")  # fmt: skip
                if st.button("Add new place"):
                    try:
                        st.session_state.places = new_place(
                            places, new_name, point["lat"], point["lng"],
                            radius_m=int(new_radius), kind=new_kind,
                        )  # fmt: skip
                    except ValueError as exc:
                        st.error(str(exc))
                    else:
                        st.session_state.events = events
                        st.session_state.editor_version += 1
                        st.rerun()
    with save_col:
        st.markdown("##### Save")
        n_copied = unrewritten(events.fillna({"keep": True}))
        if n_copied:
            st.warning(
                f"{n_copied} summary(ies) still quote the article word for word. The "
                "story is saved as a draft, marked as such, until you rewrite them."
            )
        st.write(f"Saves as `{story_id}` in {literal(user_stories_dir())}.")
        if st.button("Save story", type="primary", disabled=draft is None or not title.strip()):
            try:
                saved = save_story(user_stories_dir(), story_id, files)
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
                st.session_state.saved = saved.id
        if st.session_state.get("saved"):
            st.success(
                f"Saved `{st.session_state.saved}`. Open it from the story picker on the main page."
            )
            st.page_link(
                "app.py", label="Open it on the map", query_params={"story": st.session_state.saved}
            )

# --- zip upload -------------------------------------------------------------------------------
with st.expander("Upload a story zip"):
    zipped = st.file_uploader("A zip made by Dateline's download", type=["zip"], key="zip_up")
    if zipped is not None and st.button("Add this story"):
        try:
            zfiles = files_from_zip(zipped.getvalue())
            zid = zip_story_id(zfiles, zipped.name)
            added = save_story(user_stories_dir(), zid, zfiles, limits=UPLOAD_LIMITS)
        except StoryError as exc:
            st.error("Not added: the story has problems.")
            st.code(problem_text(exc), language=None)
        except StoryExistsError as exc:
            st.error(literal(f"Not added: {exc}. Nothing was overwritten."))
        except StorageError as exc:
            st.error(literal(exc))
        except ValueError as exc:
            st.error(literal(f"Not added: {exc}. Nothing was saved."))
        else:
            st.success(f"Added `{added.id}`: open it from the story picker.")
