"""The New story page's *Import a dataset export*: an ACLED, UCDP GED or GDELT export uploaded
and turned into a story in the reader's stories folder (geo.story.imports)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from geo.names import literal, plural, slugify
from geo.story.imports import LABELS, UPLOAD_BOUNDS, ExportError, import_export
from geo.story.load import StoryError, problem_text
from geo.story.storage import DiskError, StorageError, StoryExistsError


def import_section(store) -> None:
    """The dataset, the file and a title; the story is saved to ``store`` (geo.story.store: the
    saved stories' folder, or PostgreSQL) or the export's problems are listed as text, a
    screenful with a count of the rest."""
    dataset = st.radio(
        "Dataset", list(LABELS), format_func=LABELS.get, horizontal=True, key="import_dataset"
    )
    st.caption(
        f"Up to {UPLOAD_BOUNDS.max_bytes / 2**20:g} MB and {UPLOAD_BOUNDS.max_rows:,} rows of UTF-8"
        " text, in the dataset's own columns (larger exports: `python -m geo import`). Every row"
        " is checked; an export with a problem is refused with its lines, and nothing is saved."
        " docs/importers.md says what each dataset keeps."
    )
    upload = st.file_uploader(
        "The export file",
        type=["csv", "tsv", "txt"],
        key="import_up",
        # The browser refuses a bigger file before it is sent (the page's own limit, in MiB).
        max_upload_size=UPLOAD_BOUNDS.max_bytes // 2**20,
    )
    title = st.text_input("Title (optional)", key="import_title", max_chars=300)
    if upload is None or not st.button("Import as a new story", key="import_go"):
        return
    story_id = slugify(f"{dataset} {Path(upload.name).stem}", "import")
    try:
        result = import_export(
            dataset,
            upload.getvalue(),
            Path(story_id),
            title=title.strip() or None,
            name=Path(upload.name).name,
            bounds=UPLOAD_BOUNDS,
            store=store,
        )
    except (ExportError, StoryError) as exc:
        st.error("Not imported: the export has problems. Nothing was saved.")
        st.code(problem_text(exc), language=None)
    except StoryExistsError as exc:
        st.error(literal(f"Not imported: {exc}. Nothing was overwritten."))
    except DiskError as exc:
        st.error(literal(exc))
    except StorageError as exc:
        st.error(literal(f"Not imported: {exc}. Nothing was saved."))
    else:
        story = result.story
        st.success(
            f"Imported `{story.id}`: {len(story.events):,} events at {len(story.places):,}"
            " places. Open it from the story picker."
        )
        for reason, n in result.left_out.items():
            st.caption(literal(f"Left out {plural(n, 'row')}: {reason}."))
