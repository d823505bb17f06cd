"""Vega-Lite charts drawn as SVG pictures in a child process.

Vega runs in V8 (``vl-convert-python``), which holds ~65 MB once started: drawn in a child, it
never lives in the server, whose memory a million-event story already fills. The child is
bounded in time. Pictures are kept on disk by a key, so a new server draws nothing it has
drawn before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from geo.atomic import atomic_write_text
from geo.errors import DatelineError
from geo.paths import prune_oldest

TIMEOUT_S = 60.0
MAX_KEPT_BYTES = 8_000_000  # a kept file larger than this is not read, and drawn again
# The newest files kept in a cache folder: one per story version and filter, some 30-70 KB each,
# so the folder stays under ~20 MB however many stories and filters are drawn.
KEPT_FILES = 300


class PictureError(DatelineError):
    """Raised by ``draw_svg`` when the child process fails or runs out of time."""


def draw_svg(specs: list[dict | None], timeout: float = TIMEOUT_S) -> list[str | None]:
    """Each Vega-Lite spec of ``specs`` as an SVG document (``None`` stays ``None``).

    Raises ``PictureError`` when the child exits with an error, prints something that is not
    one picture per spec, or is still running after ``timeout`` seconds.
    """
    if not any(specs):
        return [None] * len(specs)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "geo.story.pictures"],
            input=json.dumps(specs),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=Path(__file__).resolve().parents[2],
        )
    except subprocess.TimeoutExpired as exc:
        raise PictureError(f"charts not drawn in {timeout:.0f} s") from exc
    if done.returncode != 0:
        raise PictureError(f"charts not drawn: {done.stderr.strip()[-300:]}")
    try:
        out = json.loads(done.stdout)
    except ValueError as exc:
        raise PictureError("charts not drawn: unreadable answer") from exc
    if not isinstance(out, list) or len(out) != len(specs):
        raise PictureError("charts not drawn: not one picture per chart")
    return [x if isinstance(x, str) and x.startswith("<svg") else None for x in out]


def cached_svg(
    key: str, cache_dir: Path, specs: Callable[[], list[dict | None]], count: int
) -> list[str | None]:
    """The ``count`` pictures kept under ``key`` in ``cache_dir``, or ``draw_svg(specs())``
    kept there.

    ``specs`` is called only when nothing usable is kept. Raises ``PictureError`` as
    ``draw_svg`` does; a cache that cannot be written only means drawing again next time.
    """
    file = cache_dir / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
    try:
        if file.stat().st_size < MAX_KEPT_BYTES:
            kept = json.loads(file.read_text(encoding="utf-8"))
            if isinstance(kept, list) and len(kept) == count:
                return [x if isinstance(x, str) and x.startswith("<svg") else None for x in kept]
    except (OSError, ValueError):
        pass  # not kept yet, or unreadable: drawn again
    pictures = draw_svg(specs())
    with contextlib.suppress(OSError):
        atomic_write_text(file, json.dumps(pictures))
        prune_oldest(cache_dir, KEPT_FILES, "*.json", spare=file)
    return pictures


def _main() -> None:
    import vl_convert

    specs = json.loads(sys.stdin.read())
    json.dump([None if s is None else vl_convert.vegalite_to_svg(s) for s in specs], sys.stdout)


if __name__ == "__main__":
    _main()
