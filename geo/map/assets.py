"""Serve the map's JavaScript and CSS from this machine instead of a CDN; load the map's own JS."""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import shutil
from functools import cache
from pathlib import Path

import folium
import xstatic.pkg.leaflet as xs_leaflet
import xstatic.pkg.leaflet_markercluster as xs_cluster

from geo.atomic import atomic_write_bytes
from geo.errors import DatelineError

# Streamlit serves the app's ./static folder at /app/static when enableStaticServing is on.
STATIC_URL = "/app/static/vendor"
JS_DIR = Path(__file__).resolve().parent / "js"

_FILES = {
    "leaflet/leaflet.js": Path(xs_leaflet.BASE_DIR) / "leaflet.js",
    "leaflet/leaflet.css": Path(xs_leaflet.BASE_DIR) / "leaflet.css",
    "markercluster/leaflet.markercluster.js": Path(xs_cluster.BASE_DIR)
    / "leaflet.markercluster.js",
    "markercluster/MarkerCluster.css": Path(xs_cluster.BASE_DIR) / "MarkerCluster.css",
    "markercluster/MarkerCluster.Default.css": Path(xs_cluster.BASE_DIR)
    / "MarkerCluster.Default.css",
}
_IMAGES = Path(xs_leaflet.BASE_DIR) / "images"

# What each CDN script or stylesheet folium may ask for becomes; None drops it (unused by our maps).
LOCAL_JS = {
    "leaflet": f"{STATIC_URL}/leaflet/leaflet.js",
    "markerclusterjs": f"{STATIC_URL}/markercluster/leaflet.markercluster.js",
    "jquery": None,
    "bootstrap": None,
    "awesome_markers": None,
}
LOCAL_CSS = {
    "leaflet_css": f"{STATIC_URL}/leaflet/leaflet.css",
    "markerclustercss": f"{STATIC_URL}/markercluster/MarkerCluster.css",
    "markerclusterdefaultcss": f"{STATIC_URL}/markercluster/MarkerCluster.Default.css",
    "bootstrap_css": None,
    "glyphicons_css": None,
    "awesome_markers_font_css": None,
    "awesome_markers_css": None,
    "awesome_rotate_css": None,
}


class NonLocalAssetError(DatelineError):
    """Raised when a map element asks for a script or stylesheet with no local copy."""


# The basemap files the map's script fetches (js/basemap.js); the rest of data/basemap is for tools.
BASEMAP_FILES = ("world-low.geojson", "world.geojson", "water.geojson", "labels.json")


# The map's own scripts, served from static/dateline/ with their content hash in the URL, so the
# browser caches them until they change.
MAP_SCRIPTS = ("basemap", "story", "editor")
# The map's stylesheet (js/map.css) goes the same way: inside the component's message it was
# 3.8 KB re-sent on every slider move.
MAP_STYLES = ("map",)
# The "Download PNG" control (js/png.js) and the html-to-image build it draws with.
PNG_SCRIPTS = ("vendor/html-to-image", "png")
SCRIPTS_URL = "/app/static/dateline"


def _versioned(names: tuple[str, ...], ext: str) -> tuple[tuple[str, str], ...]:
    out = []
    for name in names:
        digest = hashlib.sha256((JS_DIR / f"{name}.{ext}").read_bytes()).hexdigest()[:12]
        key = name.rsplit("/", 1)[-1].replace("-", "_")
        suffix = "" if ext == "js" else f"_{ext}"
        out.append((f"dateline_{key}{suffix}", f"{SCRIPTS_URL}/{name}.{ext}?v={digest}"))
    return tuple(out)


@cache
def script_urls(names: tuple[str, ...] = MAP_SCRIPTS) -> tuple[tuple[str, str], ...]:
    """(name, URL) of each of the map's scripts ``names``, versioned by its content."""
    return _versioned(names, "js")


@cache
def style_urls() -> tuple[tuple[str, str], ...]:
    """(name, URL) of each map stylesheet, versioned by its content."""
    return _versioned(MAP_STYLES, "css")


# The dashboard's map loads its scripts as one file: streamlit_folium loads its scripts one after
# another, each waiting for the last, and six requests cost ~300 ms of the first open on a busy
# machine. Leaflet first: the others extend it.
BUNDLE_NAME = "map-bundle.js"


def _bundle_parts() -> list[tuple[str, Path]]:
    """(URL the part would have on its own, its file), in the order the bundle holds them."""
    parts = [
        (LOCAL_JS["leaflet"], _FILES["leaflet/leaflet.js"]),
        (LOCAL_JS["markerclusterjs"], _FILES["markercluster/leaflet.markercluster.js"]),
    ]
    for names in (MAP_SCRIPTS, PNG_SCRIPTS):
        for (_key, url), name in zip(script_urls(names), names, strict=True):
            parts.append((url, JS_DIR / f"{name}.js"))
    return parts


@cache
def _bundled_urls() -> frozenset[str]:
    return frozenset(url for url, _path in _bundle_parts())


@cache
def bundle_text() -> bytes:
    """The bundle: each part as it is, minus its source-map comment (no map is served)."""
    chunks = []
    for _url, path in _bundle_parts():
        lines = path.read_bytes().splitlines()
        kept = [ln for ln in lines if not ln.startswith(b"//# sourceMappingURL=")]
        chunks.append(b"\n".join(kept))
    return b"\n;\n".join(chunks) + b"\n"


@cache
def bundle_url() -> str:
    """The bundle's URL, versioned by its content."""
    digest = hashlib.sha256(bundle_text()).hexdigest()[:12]
    return f"{SCRIPTS_URL}/{BUNDLE_NAME}?v={digest}"


def bundle(element: folium.Element) -> folium.Element:
    """Point every script of ``element`` (already localized) that the bundle holds at the
    bundle, under one name: folium's page header and streamlit_folium's list of scripts then
    hold it once."""
    inside = _bundled_urls()
    for el in _walk(element):
        if "default_js" in dir(el):
            pairs = [
                ("dateline_bundle", bundle_url()) if u in inside else (n, u)
                for n, u in el.default_js
            ]
            el.default_js = list(dict.fromkeys(pairs))
    return element


def _static_files(static_dir: Path, basemap_dir: Path | None) -> list[tuple[Path, Path]]:
    """(source, destination) of every file ``install_static`` copies, images and bundle aside."""
    pairs = [(src, static_dir / "vendor" / rel) for rel, src in _FILES.items()]
    if basemap_dir is not None:
        pairs += [(basemap_dir / n, static_dir / "basemap" / n) for n in BASEMAP_FILES]
    for names, ext in (((*MAP_SCRIPTS, *PNG_SCRIPTS), "js"), (MAP_STYLES, "css")):
        pairs += [(JS_DIR / f"{n}.{ext}", static_dir / "dateline" / f"{n}.{ext}") for n in names]
    return pairs


def static_missing(static_dir: Path, basemap_dir: Path | None = None) -> list[Path]:
    """The files under ``static_dir`` that ``install_static`` would write (missing or stale);
    reads only, so a read-only install can check its set-up."""
    out = [
        dest
        for src, dest in _static_files(static_dir, basemap_dir)
        if not dest.exists() or not filecmp.cmp(src, dest, shallow=False)
    ]
    images = static_dir / "vendor" / "leaflet" / "images"
    out += [images / p.name for p in _IMAGES.iterdir() if not (images / p.name).exists()]
    bundle_file = static_dir / "dateline" / BUNDLE_NAME
    if not bundle_file.exists() or bundle_file.read_bytes() != bundle_text():
        out.append(bundle_file)
    return out


def _copy_if_changed(src: Path, dest: Path) -> None:
    if not dest.exists() or not filecmp.cmp(src, dest, shallow=False):
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(dest.suffix + ".tmp")
        shutil.copyfile(src, tmp)
        tmp.replace(dest)


def install_static(static_dir: Path, basemap_dir: Path | None = None) -> Path:
    """Copy Leaflet's files from the xstatic packages into ``static_dir/vendor`` when missing, the
    basemap's files from ``basemap_dir`` into ``static_dir/basemap``, and the map's scripts and
    their bundle into ``static_dir/dateline``. A set-up step (``python -m geo static``): the app
    only checks them (``static_missing``) and writes only where they are missing or stale."""
    for src, dest in _static_files(static_dir, basemap_dir):
        _copy_if_changed(src, dest)
    images = static_dir / "vendor" / "leaflet" / "images"
    if not images.exists():
        shutil.copytree(_IMAGES, images)
    bundle_file = static_dir / "dateline" / BUNDLE_NAME
    if not bundle_file.exists() or bundle_file.read_bytes() != bundle_text():
        atomic_write_bytes(bundle_file, bundle_text())
    return static_dir / "vendor"


def ensure_static(static_dir: Path, basemap_dir: Path | None = None) -> str | None:
    """None once the static files are in place, writing only what is missing or stale (nothing
    after the set-up); else what is wrong, for the page: a read-only install that was not set up.
    """
    if not static_missing(static_dir, basemap_dir):
        return None
    try:
        install_static(static_dir, basemap_dir)
    except OSError as exc:
        return (
            f"The map's files in {static_dir} are missing or out of date, and that folder cannot "
            f"be written ({exc.strerror}). Build them where the app is installed: "
            "python3 dev.py setup (or python -m geo static static --basemap data/basemap)."
        )
    return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo static DIR [--basemap DIR]``."""
    parser.description = (
        "Build the map's static files (Leaflet, the basemap, the map's scripts and their "
        "bundle) into DIR, the folder Streamlit serves at /app/static (set-up)."
    )
    parser.add_argument("dir", type=Path, help="the app's static folder (static/ beside app.py)")
    parser.add_argument("--basemap", type=Path, help="the basemap's folder (data/basemap)")


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 once the files are ready."""
    written = static_missing(args.dir, args.basemap)
    install_static(args.dir, args.basemap)
    print(f"Static files ready in {args.dir} ({len(written)} written).")
    return 0


def _walk(element):
    yield element
    for child in getattr(element, "_children", {}).values():
        yield from _walk(child)


def _rewrite(pairs: list[tuple[str, str]], table: dict[str, str | None]) -> list[tuple[str, str]]:
    out = []
    for name, url in pairs:
        if url.startswith("/"):
            out.append((name, url))
        elif name not in table:
            raise NonLocalAssetError(f"no local copy of {name!r} ({url})")
        elif table[name] is not None:
            out.append((name, table[name]))
    return out


def localize(element: folium.Element) -> folium.Element:
    """Point every script and stylesheet of ``element`` and its children at local files."""
    for el in _walk(element):
        if "default_js" in dir(el):
            el.default_js = _rewrite(list(el.default_js), LOCAL_JS)
        if "default_css" in dir(el):
            el.default_css = _rewrite(list(el.default_css), LOCAL_CSS)
    return element


@cache
def load_js(name: str) -> str:
    """The script ``geo/map/js/NAME.js`` without its leading ``//`` comment lines."""
    lines = (JS_DIR / f"{name}.js").read_text(encoding="utf-8").splitlines()
    while lines and lines[0].lstrip().startswith("//"):
        lines.pop(0)
    return "\n".join(lines).strip()


@cache
def load_css(name: str) -> str:
    """The stylesheet ``geo/map/js/NAME.css``."""
    return (JS_DIR / f"{name}.css").read_text(encoding="utf-8").strip()
