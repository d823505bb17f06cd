"""bench/results.md is shared: each script owns one part, between two marker comments, and
replaces only that part, so one script's run never drops another's figures."""

from __future__ import annotations

from pathlib import Path

from geo.atomic import atomic_write_text

RESULTS = Path(__file__).resolve().parent / "results.md"


def markers(owner: str) -> tuple[str, str]:
    """The comments around ``owner``'s part (``owner``: the script, e.g. ``bench/run.py``)."""
    return f"<!-- {owner}: start -->", f"<!-- {owner}: end -->"


def replace_part(text: str, owner: str, body: str, *, first: bool = False) -> str:
    """``text`` with ``owner``'s part replaced by ``body``; a new part goes at the end (or at the
    start, ``first``, below the page's title)."""
    start, end = markers(owner)
    part = f"{start}\n{body.strip()}\n{end}"
    i, j = text.find(start), text.find(end)
    if i >= 0 and j > i:
        return text[:i] + part + text[j + len(end) :]
    if first and text.startswith("# "):
        title, _, rest = text.partition("\n")
        return f"{title}\n\n{part}\n\n{rest.lstrip()}"
    return text.rstrip("\n") + "\n\n" + part + "\n"


def put_part(owner: str, body: str, *, first: bool = False, path: Path = RESULTS) -> None:
    """Write ``owner``'s part of ``path`` (atomically; the other parts are kept)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    atomic_write_text(path, replace_part(text, owner, body, first=first))
