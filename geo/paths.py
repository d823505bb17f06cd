"""Where the library keeps what it derives (indexes, caches, drafts): one folder for every wing."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """Where derived files live: ``$DATELINE_CACHE_DIR`` or ``~/.cache/dateline``."""
    env = os.environ.get("DATELINE_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "dateline"
