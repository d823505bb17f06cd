"""Tests for the "Download PNG" control (geo.map.png, js/png.js) and its vendored html-to-image."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import tarfile
from datetime import date
from pathlib import Path
from types import ModuleType

import folium
import pytest

from geo.map.assets import (
    JS_DIR,
    PNG_SCRIPTS,
    bundle_text,
    bundle_url,
    install_static,
    load_js,
)
from geo.map.layers import base_map
from geo.map.png import ATTRIBUTION, PngButton, png_config
from geo.map.publish import MAX_BYTES, publish_html
from geo.story.load import Story, load_story
from tests.helpers import MINI, copy_mini, replace

ROOT = Path(__file__).resolve().parents[3]
VENDOR = JS_DIR / "vendor"
SCRIPT = ROOT / "data" / "scripts" / "vendor_js.py"


@pytest.fixture(scope="module")
def vendor_js() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vendor_js", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


@pytest.fixture(scope="module")
def bundled_html() -> str:
    return publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017"))


# --- the vendored file ----------------------------------------------------------------------------


def test_the_vendored_build_and_its_licence_are_committed_side_by_side():
    js = (VENDOR / "html-to-image.js").read_text(encoding="utf-8")
    assert "htmlToImage" in js and "toCanvas" in js
    assert "sourceMappingURL" not in js  # the page asks for nothing, not even a source map
    assert "MIT License" in (VENDOR / "html-to-image.LICENSE").read_text(encoding="utf-8")


def test_the_pin_names_a_version_and_a_sha512(vendor_js: ModuleType):
    version, pin, files = vendor_js.PACKAGES["html-to-image"]
    assert re.fullmatch(r"1\.\d+\.\d+", version)
    assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", pin)
    assert {(VENDOR / f).is_file() for f in files.values()} == {True}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            b"",
            "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        ),
        (
            b"abc",
            "sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==",
        ),
    ],
)
def test_integrity_is_npms_sri_string(vendor_js: ModuleType, data: bytes, expected: str):
    assert vendor_js.integrity(data) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a();\n//# sourceMappingURL=x.js.map\n", "a();\n"),
        ("a();", "a();\n"),
        ("a(); // not a map line\n", "a(); // not a map line\n"),
    ],
)
def test_strip_source_map(vendor_js: ModuleType, text: str, expected: str):
    assert vendor_js.strip_source_map(text) == expected


def _tarball(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_files_of_takes_the_wanted_files_and_drops_the_map_line(vendor_js: ModuleType):
    tgz = _tarball({"dist/x.js": "x();\n//# sourceMappingURL=x.js.map", "LICENSE": "MIT"})
    got = vendor_js.files_of(tgz, {"dist/x.js": "x.js", "LICENSE": "x.LICENSE"})
    assert got == {"x.js": "x();\n", "x.LICENSE": "MIT"}


def test_files_of_refuses_a_tarball_without_the_build(vendor_js: ModuleType):
    with pytest.raises(KeyError):
        vendor_js.files_of(_tarball({"LICENSE": "MIT"}), {"dist/x.js": "x.js"})


def test_a_tarball_that_is_not_the_pinned_one_is_refused(vendor_js: ModuleType, monkeypatch):
    monkeypatch.setattr(vendor_js, "npm_pack", lambda name, version: b"not the real tarball")
    monkeypatch.setattr(vendor_js, "atomic_write_text", pytest.fail)
    assert vendor_js.main([]) == 1


# --- the control in the dashboard's map -----------------------------------------------------------


def test_the_dashboard_map_has_the_control_and_loads_its_scripts(story: Story):
    html = base_map(story).get_root().render()
    # Its scripts come in the map's one bundle.
    assert bundle_url() in html
    assert b"DL.pngControl = " in bundle_text() and b"htmlToImage" in bundle_text()
    call = re.search(r"window\.Dateline\.pngControl\(map_[0-9a-f]+, (\{.*\})\);", html)
    assert json.loads(call.group(1)) == png_config("mini", story.title, story.start, story.end)


def test_install_static_serves_the_png_scripts(tmp_path: Path):
    install_static(tmp_path)
    for name in PNG_SCRIPTS:
        served = tmp_path / "dateline" / f"{name}.js"
        assert served.read_bytes() == (JS_DIR / f"{name}.js").read_bytes()


def test_an_inline_map_carries_the_scripts_themselves(story: Story):
    html = base_map(story, inline=True).get_root().render()
    assert "htmlToImage" in html and "DL.pngControl = function" in html
    assert "/app/static/dateline/vendor/html-to-image.js" not in html


def test_a_title_with_markup_stays_a_json_string(tmp_path: Path):
    cfg = png_config(
        "x", "</script><img src=x onerror=alert(1)>", date(2017, 8, 1), date(2017, 8, 2)
    )
    m = folium.Map(tiles=None)
    PngButton(cfg).add_to(m)
    html = m.get_root().render()
    assert "<img src=x" not in html and "</script><img" not in html
    assert "\\u003c/script\\u003e\\u003cimg src=x" in html


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (date(2017, 8, 1), date(2017, 9, 13), {"start": "2017-08-01", "end": "2017-09-13"}),
        (date(2020, 2, 29), date(2020, 2, 29), {"start": "2020-02-29", "end": "2020-02-29"}),
    ],
)
def test_png_config(start: date, end: date, expected: dict):
    cfg = png_config("s-1", "T", start, end)
    assert {k: cfg[k] for k in ("start", "end")} == expected
    assert (cfg["id"], cfg["title"], cfg["attribution"]) == ("s-1", "T", ATTRIBUTION)


# --- the control in the published file ------------------------------------------------------------


def test_the_published_file_inlines_the_vendored_build_and_the_control(bundled_html: str):
    assert load_js("vendor/html-to-image") in bundled_html
    assert load_js("png") in bundled_html
    assert "DL.pngControl(map, page.png);" in bundled_html
    assert '"png":{"id":"qalamoun-2017","title":"ISIS leaves' in bundled_html


def test_the_published_file_stays_small_and_its_policy_strict(bundled_html: str):
    assert len(bundled_html.encode()) <= MAX_BYTES
    # html-to-image draws through a data: SVG image; nothing else is allowed in.
    csp = re.search(r'Content-Security-Policy" content="([^"]+)"', bundled_html).group(1)
    assert " ".join(csp.split()) == (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "img-src data:; connect-src 'none'"
    )


def test_a_published_title_with_markup_stays_data(tmp_path: Path):
    dest = copy_mini(tmp_path)
    replace(dest / "story.toml", 'title = "Mini story for tests"', 'title = "</script><b>x</b>"')
    html = publish_html(load_story(dest))
    assert "</script><b>" not in html
    assert '"png":{"id":"mini","title":"\\u003c/script\\u003e\\u003cb\\u003ex' in html
