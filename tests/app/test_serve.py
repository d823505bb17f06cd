"""serve.py: the libraries it loads while the server starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import serve

ROOT = Path(__file__).resolve().parents[2]


def fresh_python(code: str) -> list[str]:
    """The words ``code`` prints in a new interpreter (nothing imported before it)."""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def test_every_preloaded_module_imports():
    assert serve.preload() == []


def test_a_module_that_fails_is_reported_not_raised():
    assert serve.preload(("json", "no_such_module_here")) == ["no_such_module_here"]


def test_the_preload_leaves_streamlit_folium_to_the_script():
    # Imported outside the running server, it would declare its component too early and the
    # map's frame would never be shown. A new interpreter, so nothing else has imported it.
    code = (
        "import sys, serve; serve.preload(); "
        "print('streamlit_folium' in sys.modules, 'streamlit' in sys.modules)"
    )
    assert fresh_python(code) == ["False", "False"]


def test_the_extractor_is_warmed_only_from_a_built_index(tmp_path, monkeypatch, gazetteer_cache):
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "empty"))
    assert serve.warm_extractor() is False  # no index: nothing is built at start
    assert not (tmp_path / "empty").exists()
    from geo.geocoders.gazetteer import load_geonames_index

    load_geonames_index(gazetteer_cache)  # what set-up (python -m geo prepare) does
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(gazetteer_cache))
    assert serve.warm_extractor() is True


def test_the_emoji_pattern_is_compiled_by_the_warm_up():
    # A new interpreter: the catalogue and its pattern (compiled when streamlit.emojis is
    # imported, 0.4 s here) are loaded by the warm-up, not by the first page's "1×" label.
    code = (
        "import sys, serve; print('streamlit.emojis' in sys.modules); "
        "serve.warm_labels(); print('streamlit.emojis' in sys.modules)"
    )
    assert fresh_python(code) == ["False", "True"]
