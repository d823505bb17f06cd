"""Analysts' dataset exports (ACLED, UCDP GED, GDELT 2.0 events) turned into story folders.

``import_export(dataset, source, target)`` reads an export within bounds (``base``), checks
every row and maps it (one module per dataset: ``acled``, ``ucdp``, ``gdelt``), and writes the
story folder atomically (``story``). Any problem refuses the whole export with its file and
line (ExportError); nothing is written. docs/importers.md says what each dataset maps and drops.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from geo.names import is_slug
from geo.story.imports.base import (
    CLI_BOUNDS,
    UPLOAD_BOUNDS,
    Bounds,
    ExportError,
    Rows,
    decode,
    read_bytes,
)
from geo.story.imports.story import Imported, check_places, story_tables, write_story
from geo.story.load.problems import StoryError
from geo.story.model import Problem, Story

# Dataset name -> its module.
DATASETS = {
    "acled": "geo.story.imports.acled",
    "ucdp": "geo.story.imports.ucdp",
    "gdelt": "geo.story.imports.gdelt",
}
LABELS = {
    "acled": "ACLED export (CSV)",
    "ucdp": "UCDP GED (CSV)",
    "gdelt": "GDELT 2.0 events (TSV)",
}


@dataclass(frozen=True)
class Result:
    """A written story and the rows left out on purpose (reason -> count)."""

    story: Story
    left_out: dict[str, int]


def parse(dataset: str, source: Path | bytes, name: str, bounds: Bounds = CLI_BOUNDS) -> Imported:
    """Every row of an export checked and mapped; ExportError (file and line) on any problem."""
    module = importlib.import_module(DATASETS[dataset])
    rows = Rows(name)
    imported = Imported(module.SOURCE, rows)
    data = read_bytes(source, bounds, rows)
    text = decode(data, rows) if data is not None else None
    if text is not None:
        module.read(text, rows, bounds, imported)
    if not rows.count:
        check_places(imported)
    rows.refuse(name)
    return imported


def import_export(
    dataset: str,
    source: Path | bytes,
    target: Path,
    *,
    title: str | None = None,
    name: str | None = None,
    bounds: Bounds = CLI_BOUNDS,
    replace: bool = False,
    store=None,
) -> Result:
    """Turn the export ``source`` (a path, or an upload's bytes called ``name``) into the story
    folder ``target``, whose name is the story's id; with ``store`` (geo.story.store), saved
    there under that id instead (the page saves where the editor's stories live).

    Raises ExportError (every problem with its line; nothing written), and what
    geo.story.storage.save_story raises: StoryExistsError (``target`` exists and not
    ``replace``), DiskError, StoryFilesError (``target``'s name is no id).
    """
    if dataset not in DATASETS:
        raise ValueError(f"unknown dataset {dataset!r}; one of {', '.join(DATASETS)}")
    name = name or (source.name if isinstance(source, Path) else "upload")
    target = Path(target)
    if not is_slug(target.name):
        raise ExportError(
            name,
            [
                Problem(
                    str(target),
                    "",
                    "the story folder's name must be lowercase letters, digits and '-'",
                )
            ],
        )
    imported = parse(dataset, source, name, bounds)
    module = importlib.import_module(DATASETS[dataset])
    what = f"from the {module.NAME} export {name}"
    tables = story_tables(imported, target.name, title or f"{module.NAME} export: {name}", what)
    imported.rows.refuse(name)
    assert tables is not None
    try:
        story = write_story(target, tables, replace, store)
    except ExportError:
        raise
    except StoryError as exc:  # what the checks above missed: refused all the same
        raise ExportError(exc.path, exc.problems) from exc
    return Result(story, dict(Counter(imported.left_out)))


__all__ = [
    "CLI_BOUNDS",
    "DATASETS",
    "LABELS",
    "UPLOAD_BOUNDS",
    "Bounds",
    "ExportError",
    "Result",
    "import_export",
    "parse",
]
