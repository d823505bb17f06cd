"""Tests for geo.map.assets: the map's scripts and stylesheets come from this machine, not a CDN."""

from __future__ import annotations

import filecmp
from html.parser import HTMLParser
from pathlib import Path

import folium
import pytest
from folium.plugins import MarkerCluster

from geo.map.assets import (
    _FILES,
    BUNDLE_NAME,
    JS_DIR,
    LOCAL_CSS,
    LOCAL_JS,
    MAP_SCRIPTS,
    PNG_SCRIPTS,
    SCRIPTS_URL,
    STATIC_URL,
    NonLocalAssetError,
    bundle,
    bundle_text,
    bundle_url,
    install_static,
    localize,
    static_missing,
    style_urls,
)
from geo.map.layers import base_map, browser_layers
from geo.map.window import window_payload
from geo.story.load import Story, load_story
from tests.helpers import MINI

BASEMAP = Path(__file__).resolve().parents[3] / "data" / "basemap"


class _Assets(HTMLParser):
    """Collects the src of <script> tags and the href of <link> tags."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"script": "src", "link": "href"}.get(tag)
        for name, value in attrs:
            if name == wanted and value is not None:
                self.urls.append((tag, value))


def asset_urls(html: str) -> list[tuple[str, str]]:
    parser = _Assets()
    parser.feed(html)
    return parser.urls


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


@pytest.fixture(scope="module")
def html(story: Story) -> str:
    """The dashboard's map page, with a window of the story handed to the map's script."""
    m = base_map(story)
    data = window_payload(story, story.events, story.end)
    for group in browser_layers(data, story.start, story.end, None, [], {"events", "places"}):
        group.add_to(m)
    return m.get_root().render()


# --- the rendered page ----------------------------------------------------------------------------


def test_page_loads_one_local_bundle_and_the_stylesheets(html: str):
    assert asset_urls(html) == [
        ("script", bundle_url()),
        ("link", f"{STATIC_URL}/leaflet/leaflet.css"),
        ("link", f"{STATIC_URL}/markercluster/MarkerCluster.css"),
        ("link", f"{STATIC_URL}/markercluster/MarkerCluster.Default.css"),
        *(("link", url) for _name, url in style_urls()),
    ]


def test_the_bundle_holds_leaflet_first_then_each_script_whole():
    text = bundle_text()
    parts = [
        _FILES["leaflet/leaflet.js"],
        _FILES["markercluster/leaflet.markercluster.js"],
        *(JS_DIR / f"{n}.js" for n in (*MAP_SCRIPTS, *PNG_SCRIPTS)),
    ]
    middles = [p.read_bytes() for p in parts]
    at = [text.index(b[len(b) // 2 : len(b) // 2 + 200]) for b in middles]
    assert at == sorted(at)
    assert b"sourceMappingURL" not in text


def test_bundle_rewrites_only_the_scripts_it_holds():
    m = folium.Map(tiles=None)
    m.default_js = [("leaflet", LOCAL_JS["leaflet"]), ("other", "/app/static/other.js")]
    bundle(m)
    assert m.default_js == [("dateline_bundle", bundle_url()), ("other", "/app/static/other.js")]


def test_install_static_serves_the_bundle_at_its_versioned_url(tmp_path: Path):
    install_static(tmp_path)
    name = bundle_url().removeprefix(SCRIPTS_URL + "/").split("?")[0]
    assert (tmp_path / "dateline" / name).read_bytes() == bundle_text()


def test_a_published_page_does_not_use_the_bundle(story: Story):
    page = base_map(story, None, inline=True).get_root().render()
    assert "map-bundle" not in page


def test_page_has_no_remote_script_or_stylesheet(html: str):
    urls = asset_urls(html)
    assert urls, "expected some <script src> / <link href>"
    for _tag, url in urls:
        assert url.startswith(("/app/static/vendor/", f"{SCRIPTS_URL}/")), url
        assert "http://" not in url and "https://" not in url and not url.startswith("//")


def test_every_local_url_is_a_file_install_static_provides(html: str, tmp_path: Path):
    vendor = install_static(tmp_path)
    for _tag, url in asset_urls(html):
        if url.startswith(SCRIPTS_URL + "/"):  # the map's own scripts, versioned by a query
            path = tmp_path / "dateline" / url.removeprefix(SCRIPTS_URL + "/").split("?")[0]
        else:
            path = vendor / url.removeprefix(STATIC_URL + "/")
        assert path.is_file(), url


def test_page_has_no_cdn_hosts(html: str):
    for host in ("cdn.jsdelivr.net", "cdnjs.cloudflare.com", "code.jquery.com", "unpkg.com"):
        assert host not in html


# --- localize -------------------------------------------------------------------------------------


class _UnknownPlugin(folium.MacroElement):
    default_js = (("unknown_plugin", "https://cdn.example.org/plugin.js"),)


class _UnknownStyle(folium.MacroElement):
    default_css = (("unknown_css", "https://cdn.example.org/plugin.css"),)


class _LocalPlugin(folium.MacroElement):
    default_js = (("local_plugin", "/app/static/vendor/local/plugin.js"),)


@pytest.mark.parametrize(
    "element", [_UnknownPlugin, _UnknownStyle], ids=["unknown-script", "unknown-stylesheet"]
)
def test_unknown_cdn_asset_raises(element):
    with pytest.raises(NonLocalAssetError, match=r"cdn\.example\.org"):
        localize(element())


def test_unknown_cdn_asset_deep_in_a_map_raises():
    m = folium.Map(tiles=None)
    group = folium.FeatureGroup().add_to(m)
    _UnknownPlugin().add_to(group)
    with pytest.raises(NonLocalAssetError, match="unknown_plugin"):
        localize(m)


def test_local_urls_are_kept():
    el = localize(_LocalPlugin())
    assert el.default_js == [("local_plugin", "/app/static/vendor/local/plugin.js")]


def test_map_assets_are_rewritten_or_dropped():
    m = localize(folium.Map(tiles=None))
    js, css = dict(m.default_js), dict(m.default_css)
    assert js == {"leaflet": f"{STATIC_URL}/leaflet/leaflet.js"}
    assert css == {"leaflet_css": f"{STATIC_URL}/leaflet/leaflet.css"}


def test_marker_cluster_assets_are_rewritten():
    cluster = localize(MarkerCluster())
    assert dict(cluster.default_js) == {
        "markerclusterjs": f"{STATIC_URL}/markercluster/leaflet.markercluster.js"
    }
    assert dict(cluster.default_css) == {
        "markerclustercss": f"{STATIC_URL}/markercluster/MarkerCluster.css",
        "markerclusterdefaultcss": f"{STATIC_URL}/markercluster/MarkerCluster.Default.css",
    }


def test_localize_changes_the_instance_not_the_class():
    localize(folium.Map(tiles=None))
    fresh = dict(folium.Map(tiles=None).default_js)
    assert fresh["leaflet"].startswith("https://")


def test_localize_returns_the_element():
    m = folium.Map(tiles=None)
    assert localize(m) is m


def test_tables_point_only_at_installed_files():
    installed = set(_FILES)
    for url in [*LOCAL_JS.values(), *LOCAL_CSS.values()]:
        if url is not None:
            assert url.removeprefix(STATIC_URL + "/") in installed, url


# --- install_static -------------------------------------------------------------------------------


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    return install_static(tmp_path / "static")


def test_install_static_copies_the_files(tmp_path: Path, vendor: Path):
    assert vendor == tmp_path / "static" / "vendor"
    for rel, src in _FILES.items():
        assert filecmp.cmp(src, vendor / rel, shallow=False), rel
    assert (vendor / "leaflet" / "leaflet.js").stat().st_size > 100_000


@pytest.mark.parametrize("image", ["marker-icon.png", "marker-shadow.png", "layers.png"])
def test_install_static_copies_leaflet_images(vendor: Path, image: str):
    assert (vendor / "leaflet" / "images" / image).is_file()


def files_under(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


def test_install_static_is_idempotent(tmp_path: Path, vendor: Path):
    before = files_under(vendor)
    assert install_static(tmp_path / "static") == vendor
    assert files_under(vendor) == before


def test_install_static_leaves_no_temporary_files(vendor: Path):
    assert [p for p in vendor.rglob("*") if p.suffix == ".tmp"] == []


def test_install_static_repairs_a_changed_file(tmp_path: Path, vendor: Path):
    target = vendor / "leaflet" / "leaflet.js"
    target.write_text("/* truncated */", encoding="utf-8")
    install_static(tmp_path / "static")
    assert filecmp.cmp(_FILES["leaflet/leaflet.js"], target, shallow=False)


def test_install_static_restores_a_deleted_file(tmp_path: Path, vendor: Path):
    (vendor / "markercluster" / "MarkerCluster.css").unlink()
    install_static(tmp_path / "static")
    assert (vendor / "markercluster" / "MarkerCluster.css").is_file()


def test_static_missing_lists_what_install_static_would_write(tmp_path: Path):
    static = tmp_path / "static"
    assert (static / "dateline" / BUNDLE_NAME) in static_missing(static, BASEMAP)
    install_static(static, BASEMAP)
    assert static_missing(static, BASEMAP) == []
    (static / "dateline" / "story.js").write_text("// old", encoding="utf-8")
    (static / "basemap" / "labels.json").unlink()
    assert sorted(static_missing(static, BASEMAP)) == [
        static / "basemap" / "labels.json",
        static / "dateline" / "story.js",
    ]


def test_static_missing_only_reads(tmp_path: Path):
    static = tmp_path / "static"
    install_static(static, BASEMAP)
    (static / "dateline" / BUNDLE_NAME).write_bytes(b"stale")
    before = files_under(static)
    assert static_missing(static, BASEMAP) == [static / "dateline" / BUNDLE_NAME]
    assert files_under(static) == before


def test_geo_static_command_builds_the_folder(tmp_path: Path, capsys):
    from geo.__main__ import main

    assert main(["static", str(tmp_path / "s"), "--basemap", str(BASEMAP)]) == 0
    assert static_missing(tmp_path / "s", BASEMAP) == []
    assert main(["static", str(tmp_path / "s"), "--basemap", str(BASEMAP)]) == 0
    assert "(0 written)" in capsys.readouterr().out


def test_map_stylesheet_is_linked_or_written_in(story: Story):
    linked = base_map(story).get_root().render()
    assert style_urls()[0][1] in linked
    assert ".dl-pin {" not in linked
    inline = base_map(story, inline=True).get_root().render()
    assert ".dl-pin {" in inline
    assert SCRIPTS_URL not in inline


def test_ensure_static_says_what_to_run_where_it_cannot_write(tmp_path: Path, monkeypatch):
    from geo.map import assets

    def read_only(*args):
        raise PermissionError(13, "Permission denied")

    assert assets.ensure_static(tmp_path / "ok", BASEMAP) is None
    assert assets.static_missing(tmp_path / "ok", BASEMAP) == []
    monkeypatch.setattr(assets, "install_static", read_only)
    assert assets.ensure_static(tmp_path / "ok", BASEMAP) is None  # set up: nothing to write
    problem = assets.ensure_static(tmp_path / "bare", BASEMAP)
    assert "cannot be written (Permission denied)" in problem
    assert "python3 dev.py setup" in problem
