"""Timing a figure in a benchmark's child process, and waiting for a server to be idle."""

from __future__ import annotations

import os
import resource
import signal
import statistics
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

LIMIT_S = 60.0
# A figure is repeated until this many runs or this much time, whichever comes first.
REPEATS, QUICK_REPEATS, BUDGET_S = 5, 2, 12.0


class DidNotFinish(Exception):
    """A single run passed the time limit."""


@contextmanager
def time_limit(seconds: float):
    """Raise DidNotFinish inside the block once ``seconds`` have passed."""

    def _stop(_signum, _frame):
        raise DidNotFinish

    old = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed(fn: Callable[[], object], repeats: int) -> tuple[float | None, object]:
    """Median seconds of ``fn`` over up to ``repeats`` runs (fewer past BUDGET_S), and its result.

    None for the time when a run passes LIMIT_S.
    """
    times: list[float] = []
    result = None
    started = time.perf_counter()
    for _ in range(repeats):
        result = None  # a loaded story is not kept while the next one loads: peak memory
        t0 = time.perf_counter()
        try:
            with time_limit(LIMIT_S):
                result = fn()
        except DidNotFinish:
            return None, None
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - started > BUDGET_S:
            break
    return statistics.median(times), result


def peak_mb() -> float:
    """This process's peak resident memory, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a server's chart-drawing child, say)."""
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            kids = [int(k) for k in task.read_text().split()]
        except OSError:
            continue
        for kid in kids:
            out += _tree(kid)
    return out


def wait_idle(pid: int | list[int], timeout: float = LIMIT_S) -> None:
    """Wait until a server (or several), with its children, stops using CPU (a closed page's
    script may still be running, or another server's page its whole run)."""
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu() -> float:
        total = 0
        for one in pid if isinstance(pid, list) else [pid]:
            for p in _tree(one):
                try:
                    parts = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue  # a child that ended meanwhile
                total += int(parts[11]) + int(parts[12])
        return total / ticks

    deadline = time.monotonic() + timeout
    before = cpu()
    while time.monotonic() < deadline:
        time.sleep(0.3)  # a sampling interval, not a wait for a result
        now = cpu()
        if now - before < 0.03:  # under a tenth of a core
            return
        before = now
