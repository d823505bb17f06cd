"""How a story's problems are collected, capped and raised: Problems, StoryError, Checker."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from geo.errors import READ_FAILURES, DatelineError, failure_text
from geo.names import clip, plural
from geo.story.load.schema import MAX_MESSAGE, PROBLEMS_PER_FILE, ROWS_PER_CHECK
from geo.story.model import Problem


class Problems(list):
    """The problems of one story: at most PROBLEMS_PER_FILE kept per file, the rest counted."""

    def __init__(self, per_file: int = PROBLEMS_PER_FILE):
        super().__init__()
        self.per_file = per_file
        self.kept: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def append(self, problem: Problem) -> None:
        if len(problem.message) > MAX_MESSAGE:  # a value quoted from a hostile file
            problem = Problem(problem.file, problem.where, clip(problem.message, MAX_MESSAGE))
        n = self.kept.get(problem.file, 0)
        if n >= self.per_file:
            self.dropped[problem.file] = self.dropped.get(problem.file, 0) + 1
            return
        self.kept[problem.file] = n + 1
        super().append(problem)

    def closed(self) -> list[Problem]:
        """The kept problems plus one line per file saying how many more there were."""
        more = [
            Problem(f, "", f"... and {plural(n, 'more problem')}") for f, n in self.dropped.items()
        ]
        return [*self, *more]


class StoryError(DatelineError, ValueError):
    """Raised when a story folder has problems; ``problems`` lists them (capped per file)."""

    def __init__(self, path: Path | str, problems: list[Problem], warnings: list[Problem] = ()):
        self.path = Path(path)
        self.problems = problems.closed() if isinstance(problems, Problems) else list(problems)
        self.warnings = list(warnings)
        lines = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{plural(len(self.problems), 'problem')} in story {self.path}:\n{lines}")


def problem_text(exc: StoryError, limit: int = 30) -> str:
    """A screenful of a StoryError's problems, one a line, with a count of the rest."""
    lines = [str(p) for p in exc.problems[:limit]]
    if len(exc.problems) > limit:
        lines.append(f"... {len(exc.problems) - limit:,} more (python -m geo validate lists them)")
    return "\n".join(lines)


def unreadable(path: str | Path, exc: BaseException) -> StoryError:
    """A StoryError for a failure no check foresaw (one of READ_FAILURES) while reading a story."""
    return StoryError(path, [Problem(Path(path).name, "", f"cannot be read: {failure_text(exc)}")])


def guarded(file: str, problems: list[Problem], load: Callable[[], Any]) -> Any:
    """Run one file's loader; a case no check foresaw is that file's problem, not a crash."""
    try:
        return load()
    except READ_FAILURES as exc:
        problems.append(Problem(file, "", f"cannot be read: {failure_text(exc, 280)}"))
        return None


class Checker:
    """Collects problems while one file's columns are parsed."""

    def __init__(self, file: str, problems: list[Problem], first_line: int = 2):
        self.file = file
        self.problems = problems
        self.first_line = first_line
        self.count = 0  # every problem found, kept or not

    def add(self, where: str, message: str) -> None:
        self.count += 1
        self.problems.append(Problem(self.file, where, message))

    def duplicated(self, values: pd.Series) -> pd.Series:
        """Where ``values`` repeats an earlier row's value (the table is all here)."""
        return values.duplicated(keep="first")

    def rows(self, mask: pd.Series, message: Callable[[Any], str]) -> None:
        """Report the first rows where ``mask`` is true; ``message`` gets the row's index label."""
        hits = mask[mask.fillna(False).astype(bool)].index
        for idx in hits[:ROWS_PER_CHECK]:
            self.add(f"line {int(idx) + self.first_line}", message(idx))
        if len(hits) > ROWS_PER_CHECK:
            first = message(hits[0])
            self.add("", f"{plural(len(hits) - ROWS_PER_CHECK, 'more line')} like: {first[:120]}")
            self.count += len(hits) - ROWS_PER_CHECK - 1
