"""What a loaded story is: its problems, its chapters and the Story itself (no checks here).

The loader (geo.story.load) builds these and the chapters module (geo.story.chapters) parses
and frames chapters; both import from here, so neither imports the other's module for a type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd

from geo.story.images import ChapterImage

Bounds = tuple[tuple[float, float], tuple[float, float]]

# What a story calls its moving group, its held area and who holds it (story.toml [words]).
WORDS = {"convoy": "convoy", "enclave": "held area", "held": "held"}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a story file, located by file and line (or feature)."""

    file: str
    where: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.where}: {self.message}"
            if self.where
            else (f"{self.file}: {self.message}")
        )


@dataclass(frozen=True)
class Chapter:
    """One turning point of a story: a date window, a short text and what to look at."""

    number: int  # 1-based, as in ``chapter=N``
    title: str
    start: date
    end: date
    text: str
    sources: tuple[str, ...]
    select: str | None = None  # "place:baalbek", "convoy:<convoy.csv id>", "front:<id>"
    bounds: Bounds | None = None  # ((south, west), (north, east)) from view.bounds
    fit: tuple[str, ...] = ()  # place ids from view.places
    image: ChapterImage | None = None  # a checked picture in the story folder


@dataclass(frozen=True)
class Story:
    """A loaded, validated story: metadata plus one DataFrame per file."""

    path: Path
    meta: dict[str, Any]
    places: pd.DataFrame
    events: pd.DataFrame
    convoy: pd.DataFrame
    fronts: pd.DataFrame
    sources: pd.DataFrame = field(repr=False)
    # Things a reader should know that do not make the story wrong (a source with no address).
    warnings: tuple[Problem, ...] = ()
    # story.toml's [[chapters]] in date order; empty for a story told without chapters.
    chapters: tuple[Chapter, ...] = ()
    # A big story's events stay on disk (geo.story.events_store.EventStore): then ``events``
    # holds only every event's category and place_id, in order, and the rest is queried.
    store: Any = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.meta["id"]

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def summary(self) -> str:
        return self.meta["summary"]

    @property
    def start(self) -> date:
        return self.meta["span"]["start"]

    @property
    def end(self) -> date:
        return self.meta["span"]["end"]


def story_words(meta: dict) -> dict[str, str]:
    """The story's own words for its convoy, enclave and holder, with plain defaults."""
    return {**WORDS, **(meta.get("words") or {})}


def source_names(value: str, names: dict[str, str]) -> str:
    """The publications an event's ``source`` cell cites ("reuters|ap": "Reuters; AP")."""
    return "; ".join(names.get(i, i) for i in str(value).split("|") if i) or str(value)
