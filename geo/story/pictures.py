"""Vega-Lite charts drawn as SVG pictures in a child process.

Vega runs in V8 (``vl-convert-python``), which holds ~65 MB once started: drawn in a child, it
never lives in the server, whose memory a million-event story already fills. The child stays
for the next charts (starting it and V8 took ~1 s, drawing a chart ~0.1 s: every new filter
waited for that second); each answer is bounded in time, and a child that fails or is late is
stopped and the next charts start a new one. Pictures are kept on disk by a key, so a new
server draws nothing it has drawn before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import selectors
import subprocess
import sys
import threading
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

    Raises ``PictureError`` when the child answers with an error or something that is not one
    picture per spec, or has not answered after ``timeout`` seconds.
    """
    if not any(specs):
        return [None] * len(specs)
    out = _DRAWER.ask(json.dumps(specs), timeout)
    if isinstance(out, dict) and "error" in out:
        raise PictureError(f"charts not drawn: {str(out['error'])[-300:]}")
    if not isinstance(out, list) or len(out) != len(specs):
        raise PictureError("charts not drawn: not one picture per chart")
    return [x if isinstance(x, str) and x.startswith("<svg") else None for x in out]


class _Drawer:
    """The drawing child: one JSON line of specs in, one JSON line of pictures out; started on
    first use and kept, one question at a time (the server's threads take turns)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.child: subprocess.Popen | None = None

    def ask(self, line: str, timeout: float):
        with self.lock:
            child = self.child if self.child and self.child.poll() is None else self._start()
            try:
                child.stdin.write(line + "\n")
                child.stdin.flush()
                answer = self._answer(child, timeout)
            except (OSError, ValueError) as exc:
                self._stop()
                raise PictureError(f"charts not drawn: {exc}") from exc
        try:
            return json.loads(answer)
        except ValueError as exc:
            raise PictureError("charts not drawn: unreadable answer") from exc

    def _start(self) -> subprocess.Popen:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "geo.story.pictures", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        return self.child

    def _answer(self, child: subprocess.Popen, timeout: float) -> str:
        """The child's next line, or PictureError (the child stopped) after ``timeout``."""
        with selectors.DefaultSelector() as sel:
            sel.register(child.stdout, selectors.EVENT_READ)
            ready = sel.select(timeout)
        if not ready:
            self._stop()
            raise PictureError(f"charts not drawn in {timeout:g} s")
        answer = child.stdout.readline()
        if not answer:
            self._stop()
            raise PictureError("charts not drawn: the drawing process ended")
        return answer

    def _stop(self) -> None:
        if self.child is not None:
            with contextlib.suppress(OSError):
                self.child.kill()
                self.child.wait(timeout=5)
        self.child = None


_DRAWER = _Drawer()


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

    # Vega's engine started before the first question comes (the server does not wait for it).
    with contextlib.suppress(Exception):
        vl_convert.vegalite_to_svg({"mark": "point", "data": {"values": []}})
    # One line of specs at a time until the server closes the pipe; a chart that cannot be
    # drawn is answered with its error, and the child goes on.
    for line in sys.stdin:
        try:
            specs = json.loads(line)
            out = [None if s is None else vl_convert.vegalite_to_svg(s) for s in specs]
        except Exception as exc:  # any error of a spec is that answer's
            out = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _main()
