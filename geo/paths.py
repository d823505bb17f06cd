"""Where the library keeps what it derives (indexes, caches, drafts): one folder for every wing."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """Where derived files live: ``$DATELINE_CACHE_DIR`` or ``~/.cache/dateline``."""
    env = os.environ.get("DATELINE_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "dateline"


def prune_oldest(folder: Path, keep: int, pattern: str = "*", spare: Path | None = None) -> int:
    """Delete all but the ``keep`` newest files of ``folder`` matching ``pattern`` (by mtime),
    never ``spare``; how many went. Another process pruning the same folder is no error."""
    files = []
    for f in folder.glob(pattern):
        try:
            files.append((f.stat().st_mtime_ns, f.name, f))
        except FileNotFoundError:  # pruned meanwhile by another server on this cache
            continue
    files.sort(reverse=True)
    gone = 0
    for _mtime, _name, f in files[keep:]:
        if f == spare:
            continue
        f.unlink(missing_ok=True)
        gone += 1
    return gone
