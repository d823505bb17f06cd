"""Chapters: the story's turning points, each a window, a selection and a frame; their bar
above the map (Prev / picker / Next / Tour), the open one's text and their marks on the slider."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from dashboard.state import Key, ViewState
from dashboard.stories import Shown, load
from geo.map.text import fmt_span, plural
from geo.names import literal
from geo.story.chapters import Chapter, chapter_bounds, chapter_for_url
from geo.story.images import ChapterImage, ImageFault, read_image
from geo.story.load import Story

# The chapter bar's height (a row of buttons in a bordered box), held for it by the first run.
CHAPTER_BAR_PX = 72
CHAPTER_BAR_KEY = "chapter_bar"  # the page's style finds the bar by it
CHAPTER_ROOM_KEY = "chapter_room"
CHAPTER_BAR_PHONE_PX = 40  # on a phone: one row of buttons, no box


def chapter_of(chapters: Sequence[Chapter], number: int | None) -> Chapter | None:
    """The chapter ``number``, or None."""
    return next((c for c in chapters if c.number == number), None)


def open_chapter(state: ViewState, chapters: Sequence[Chapter], number: int | None) -> None:
    """Open chapter ``number`` (its window, selection and frame), or close the open one."""
    chapter = chapter_of(chapters, number)
    state.chapter = chapter.number if chapter else None
    if chapter is not None:
        state.window = (chapter.start, chapter.end)
        state.selected = chapter.select
        state.playing = False
        state.chapter_opened += 1


def tour(state: ViewState, chapters: Sequence[Chapter], on: bool) -> None:
    """Start the Tour at the next chapter (the first after the last), or stop it."""
    state.touring = on
    if on:
        current = state.chapter or 0
        open_chapter(state, chapters, current + 1 if 0 < current < len(chapters) else 1)


def tour_step(state: ViewState, chapters: Sequence[Chapter]) -> None:
    """The Tour's next chapter, or the end of the tour after the last (on a whole-page run)."""
    if state.take(Key.TOUR_NEXT) and state.touring:
        number = state.chapter or 0
        if number >= len(chapters):
            state.touring = False
        else:
            open_chapter(state, chapters, number + 1)


def open_asked(state: ViewState, chapters: Sequence[Chapter]) -> None:
    """Open the link's chapter (``chapter=N``) on the session's first run, map-first or not.

    Before the slider is drawn: opened by the later whole-page run, the chapter set the slider
    to its window after the browser had the story's, and a message the browser sent meanwhile
    (the map's first report, the fallback's rerun) carried the old window back, which closed
    the chapter (one page in five on a busy machine, framed on the whole story).
    """
    asked = state.take(Key.CHAPTER_ASKED)
    if asked is None:
        return
    found = chapter_for_url(asked, chapters)
    if found is None:
        state.set_flag(Key.CHAPTER_MISSING)
    open_chapter(state, chapters, found.number if found else None)


def open_now(state: ViewState, chapters: Sequence[Chapter]) -> Chapter | None:
    """The open chapter, or None: a window moved away from the chapter's own leaves it."""
    current = chapter_of(chapters, state.chapter)
    if current is not None and state.window != (current.start, current.end):
        state.chapter, current = None, None
        state.touring = False
    return current


@st.cache_resource(max_entries=32)
def _chapter_frame(path: str, fingerprint: tuple, number: int) -> list | None:
    s = load(path, fingerprint)
    chapter = next((c for c in s.chapters if c.number == number), None)
    return chapter_bounds(s, chapter) if chapter else None


@st.cache_resource(max_entries=8)
def _chapter_labels(path: str, fingerprint: tuple) -> dict[int, str]:
    # The picker's labels, once per story: 9 date spans formatted on every move cost 5-40 ms.
    return {
        c.number: f"{c.number}. {c.title} · {fmt_span(*map(pd.Timestamp, (c.start, c.end)))}"
        for c in load(path, fingerprint).chapters
    }


def chapter_view(shown: Shown, state: ViewState) -> dict:
    """The open chapter's frame for the map, with a token that is new each time it opens."""
    chapter = chapter_of(shown.story.chapters, state.chapter)
    if chapter is None:
        return {}
    token = f"{chapter.number}-{state.chapter_opened}"
    return {"view": _chapter_frame(*shown.key, chapter.number), "view_token": token}


def chapter_bar(shown: Shown, state: ViewState) -> None:
    """Prev / picker / Next / Tour."""
    chapters = shown.story.chapters
    if state.take(Key.CHAPTER_MISSING):
        st.caption("The link's chapter does not exist in this story; showing the whole story.")
    current = open_now(state, chapters)
    # Keyed for the page's style: never shorter than the room the first run kept for it.
    with st.container(border=True, key=CHAPTER_BAR_KEY):
        number = current.number if current else 0
        labels = _chapter_labels(*shown.key)
        state.chapter_pick = number or None
        # One row even on a phone, where columns stack (three rows pushed the map down 180 px).
        with st.container(horizontal=True, vertical_alignment="center", wrap=False):
            st.button(
                "‹ Prev",
                on_click=open_chapter,
                args=(state, chapters, max(1, number - 1)),
                disabled=number <= 1,
                key="chapter_prev",
            )
            st.selectbox(
                "Chapter",
                list(labels),
                format_func=labels.get,
                key=Key.CHAPTER_PICK,
                # Short: a phone's bar shows some 25 characters of it.
                placeholder=f"{plural(len(chapters), 'chapter')}: press Next",
                label_visibility="collapsed",
                on_change=lambda: open_chapter(state, chapters, state.chapter_pick),
                width="stretch",
            )
            st.button(
                "Next ›",
                on_click=open_chapter,
                args=(state, chapters, min(len(chapters), number + 1)),
                disabled=number >= len(chapters),
                key="chapter_next",
            )
            if state.touring:
                st.button("Stop tour", on_click=tour, args=(state, chapters, False), key="tour")
            else:
                st.button(
                    "Tour",
                    on_click=tour,
                    args=(state, chapters, True),
                    key="tour",
                    help="Play the chapters one after another",
                )


def chapter_room(chapters: Sequence[Chapter]) -> None:
    """The bar's room, kept for it so the map does not move down when it comes."""
    # Its height is the page's style's (app.py): the bar's on a laptop, a row on a phone.
    st.container(border=True, key=CHAPTER_ROOM_KEY).caption(
        f"The story in {plural(len(chapters), 'chapter')} …"
    )


def chapter_text(chapter: Chapter, source_names: dict[str, str]) -> None:
    """The open chapter's text and sources, beside the map like a story map's slide."""
    with st.container(border=True):
        st.markdown(f"**{literal(chapter.title)}**")
        # Data, shown as text: never markdown.
        st.text(chapter.text)
        if chapter.image is not None:
            chapter_image(chapter.image)
        st.caption(
            "Sources: " + literal(", ".join(source_names.get(s, s) for s in chapter.sources))
        )


def chapter_image(image: ChapterImage) -> None:
    """The chapter's picture with its caption and credit, as text (st.image's caption is
    markdown: the story's words go through ``literal``)."""
    try:
        data = read_image(image)
    except (ImageFault, OSError) as exc:
        # The file was fine when the story loaded; one changed since is a note, not a crash.
        st.caption(literal(f"The chapter's image cannot be shown: {exc}"))
        return
    st.image(data, caption=literal(image.label()), alt=image.caption, width="stretch")


def chapter_marks_html(story: Story) -> str:
    """Each chapter's number on the slider's track at its first day; the title on hover."""
    days = max((story.end - story.start).days, 1)
    spans = []
    for chapter in story.chapters:
        f = (chapter.start - story.start).days / days
        # The track runs between the thumbs' centres, 6 px in from each side of the column.
        spans.append(
            f'<span style="left:calc(6px + (100% - 12px) * {f:.4f})" '
            f'title="{literal(chapter.title, html=True)}">{chapter.number}</span>'
        )
    return f'<div class="dl-marks" data-testid="dl-chapter-marks">{"".join(spans)}</div>'
