"""The library's one exception root, and what reading a hostile file may raise besides it."""

from __future__ import annotations


class DatelineError(Exception):
    """Root of every error the library raises on purpose: catch this to catch them all."""


# What a parser or a check may raise on a hostile file that no check foresaw: a parser's own
# errors (TOMLDecodeError, JSONDecodeError, pandas' ParserError are ValueErrors), a file that
# vanishes (OSError), a shape nobody expected (TypeError, KeyError, IndexError, AttributeError),
# a number too big (OverflowError), nesting deeper than the interpreter's stack (RecursionError)
# and a value too big for memory (MemoryError). Every reader of story files catches exactly this
# family, so one bad story is that story's problem and never the page's or another story's.
READ_FAILURES: tuple[type[BaseException], ...] = (
    OSError,
    ValueError,
    TypeError,
    LookupError,
    AttributeError,
    ArithmeticError,
    RecursionError,
    MemoryError,
)


def failure_text(exc: BaseException, limit: int = 200) -> str:
    """A one-line reason for a failure from READ_FAILURES, short enough for a notice."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply to read"
    if isinstance(exc, MemoryError):
        return "it is too big to read"
    if isinstance(exc, DatelineError):
        return " ".join(str(exc).split())[:limit]
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
