"""One self-contained HTML file of a story: the map, its chapters and sources, for any page.

Leaflet, the basemap, the story and the map's scripts are all inside the file, so it opens from
``file://`` with no network at all. The map is drawn by the same ``js/story.js`` as the
dashboard's. ``python -m geo publish STORY_DIR OUT.html [--chapter N]``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from geo.atomic import atomic_write_text
from geo.map.assets import _FILES, BASEMAP_FILES, PNG_SCRIPTS, load_css, load_js
from geo.map.layers import script_json
from geo.map.payload import story_payload
from geo.map.png import png_config
from geo.map.text import figures_text, fmt_span
from geo.names import clip, one_line
from geo.names import html_text as escape
from geo.story.chapters import chapter_bounds
from geo.story.images import ChapterImage, ImageFault, image_data_uri
from geo.story.load import Story, StoryError, load_story

BASEMAP_DIR = Path(__file__).resolve().parents[2] / "data" / "basemap"
MAX_BYTES = 3_000_000  # what a newsroom's CMS or an e-mail takes without complaint


def _texts(story: Story) -> dict:
    """What the published page's details panel says, all escaped: events by place, sources."""
    sources = {
        s.id: {"name": s.publication, "url": s.url if isinstance(s.url, str) else ""}
        for s in story.sources.itertuples()
    }
    by_place: dict[str, list[dict]] = {}
    for ev in story.events.to_dict("records"):
        # A happening two reports give cites both; the link goes to the first.
        cited = [i for i in str(ev["source"]).split("|") if i] or [ev["source"]]
        first = sources.get(cited[0], {"name": cited[0], "url": ""})
        src = {"name": "; ".join(_name(sources, i) for i in cited), "url": first["url"]}
        end = ev["date"] if pd.isna(ev["end_date"]) else ev["end_date"]
        conf = ev["confidence"] + (f": {ev['confidence_note']}" if ev["confidence_note"] else "")
        by_place.setdefault(ev["place_id"], []).append(
            {
                "d": ev["date"].strftime("%Y-%m-%d"),
                "e": end.strftime("%Y-%m-%d"),
                "when": fmt_span(ev["date"], end),
                "cat": ev["category"],
                "summary": ev["summary"],
                "figures": figures_text(ev),
                "source": src["name"] + (f", {ev['source_detail']}" if ev["source_detail"] else ""),
                "url": src["url"] if src["url"].startswith(("https://", "http://")) else "",
                "confidence": conf,
            }
        )
    convoy = {
        r.id: {"note": r.note, "status": r.status, "source": _name(sources, r.source)}
        for r in story.convoy.itertuples()
    }
    fronts = {
        f.id: {"note": f.note or "", "source": _name(sources, f.source)}
        for f in story.fronts.itertuples()
    }
    return {"events": by_place, "convoy": convoy, "fronts": fronts, "sources": sources}


def _name(sources: dict, source_id: str) -> str:
    return sources.get(source_id, {}).get("name", source_id)


def _chapters(story: Story) -> list[dict]:
    return [
        {
            "n": c.number,
            "title": c.title,
            "start": c.start.isoformat(),
            "end": c.end.isoformat(),
            "text": c.text,
            "select": c.select,
            "view": chapter_bounds(story, c),
            "sources": list(c.sources),
            "image": _image(c.image),
        }
        for c in story.chapters
    ]


def _image(image: ChapterImage | None) -> dict | None:
    """A chapter's picture for the page: a data: address (the page may fetch nothing), its
    caption and credit, or None."""
    if image is None:
        return None
    try:
        src = image_data_uri(image)
    except (ImageFault, OSError):
        # Checked when the story loaded; a file broken since leaves the chapter without it.
        return None
    return {
        "src": src,
        "caption": image.caption,
        "credit": image.credit,
        "w": image.width,
        "h": image.height,
    }


# The embed's frame: most of a screen, never so short the map and its date bar do not fit.
EMBED_HEIGHT = "min(85vh, 760px)"
EMBED_MIN_HEIGHT = "420px"
# What the published page needs inside a sandboxed frame: its scripts, source links opening
# in a new tab, and Download PNG; it never needs the host page's origin.
EMBED_SANDBOX = "allow-scripts allow-popups allow-popups-to-escape-sandbox allow-downloads"
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")


def embed_code(title: str, src: str = "story.html") -> str:
    """An ``<iframe>`` snippet that shows the published file at ``src`` at full width.

    ``src`` is where the journalist puts the file (its name beside the article, or its
    address); ``title`` (the story's, untrusted) names the frame for screen readers, escaped
    for the attribute. The wrapper gives the frame its height on any screen.
    """
    scheme = _SCHEME.match(src)
    if not src.strip() or (scheme and scheme.group(1).lower() not in ("http", "https")):
        raise ValueError("src must be a file name or an http or https address")
    frame_title = escape(clip(f"Map: {one_line(title)}", 200))
    return (
        f'<div style="position:relative;width:100%;height:{EMBED_HEIGHT};'
        f'min-height:{EMBED_MIN_HEIGHT}">\n'
        f'  <iframe src="{escape(src.strip())}" title="{frame_title}" loading="lazy"\n'
        '    width="100%" height="100%" allow="fullscreen" allowfullscreen\n'
        f'    sandbox="{EMBED_SANDBOX}" referrerpolicy="no-referrer"\n'
        '    style="position:absolute;inset:0;width:100%;height:100%;border:0"></iframe>\n'
        "</div>"
    )


def publish_html(story: Story, chapter: int | None = None, basemap_dir: Path = BASEMAP_DIR) -> str:
    """The story as one HTML page that needs nothing else; opens on ``chapter`` if given."""
    files = {n: (basemap_dir / n).read_text(encoding="utf-8") for n in BASEMAP_FILES}
    # The basemap files are JSON already: embedded as they are, parsed once by the page.
    files_js = "{" + ",".join(f"{script_json(n)}:{_safe_json(t)}" for n, t in files.items()) + "}"
    page = {
        "title": story.title,
        "summary": story.summary,
        "start": story.start.isoformat(),
        "end": story.end.isoformat(),
        "chapters": _chapters(story),
        "chapter": chapter,
        "texts": _texts(story),
        "view": (story.meta.get("map") or {}),
        "png": png_config(story.id, story.title, story.start, story.end),
    }
    vendor = {rel: path.read_text(encoding="utf-8") for rel, path in _FILES.items()}
    css = vendor["leaflet/leaflet.css"] + vendor["markercluster/MarkerCluster.css"]
    css += vendor["markercluster/MarkerCluster.Default.css"] + load_css("map") + PAGE_CSS
    scripts = [
        vendor["leaflet/leaflet.js"],
        vendor["markercluster/leaflet.markercluster.js"],
        load_js("basemap"),
        load_js("story"),
        *(load_js(n) for n in PNG_SCRIPTS),
    ]
    body = "\n".join(f"<script>{_no_close(s)}</script>" for s in scripts)
    return PAGE.format(
        title=escape(story.title),
        css=_no_close(css),
        scripts=body,
        payload=script_json(story_payload(story)),
        page=script_json(page),
        files=files_js,
        player=_no_close(load_js("publish")),
    )


def _safe_json(text: str) -> str:
    """JSON text made safe inside <script> (the basemap files are ours, but stay careful)."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").strip()


def _no_close(text: str) -> str:
    # A literal "</script" inside a vendored file would end the tag early.
    return text.replace("</script", "<\\/script").replace("</style", "<\\/style")


# From a 320 px phone to a 1920 px screen, the map is the first screen: a short header (title,
# chapter bar) above it; below it on a phone, beside it from 900 px, the chapter, the details
# and the summary (each folds). Nothing is wider than the screen.
PAGE_CSS = """
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1d1d1f; background: #fff; }
.dl-page { max-width: 1880px; margin: 0 auto; padding: 8px 12px 20px; }
.dl-head { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 16px; margin: 0 0 6px; }
.dl-head h1 { font-size: clamp(1rem, .85rem + .6vw, 1.35rem); line-height: 1.25; margin: 0;
              flex: 1 1 300px; min-width: 0; overflow-wrap: anywhere; }
.dl-bar { display: flex; gap: 6px; align-items: center; flex: 0 1 460px; min-width: 0;
          max-width: 100%; }
.dl-bar:empty { display: none; }
.dl-bar button, .dl-bar select { font: inherit; padding: 4px 8px; }
.dl-bar button { flex: none; }
.dl-bar select { flex: 1 1 auto; min-width: 0; width: 100%; text-overflow: ellipsis; }
.dl-main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }
.dl-mapcol { min-width: 0; }
#dl-map { height: clamp(260px, 62vh, 760px); border-radius: 4px; }
.dl-range { display: flex; gap: 2px 12px; align-items: center; flex-wrap: wrap; margin-top: 6px; }
.dl-range label { display: flex; gap: 6px; align-items: center; flex: 1 1 180px; min-width: 0; }
.dl-range input { flex: 1 1 auto; min-width: 0; width: 100%; margin: 0; }
.dl-side { min-width: 0; font-size: 14px; overflow-wrap: anywhere; }
.dl-side details { border: 1px solid #ddd; border-radius: 6px; padding: 6px 10px; margin: 0 0 8px; }
.dl-side summary { cursor: pointer; font-weight: 600; }
.dl-chapter { background: #f6f6f3; }
.dl-chapter:empty { display: none; }
.dl-chapter summary h2 { display: inline; font-size: 1rem; margin: 0; }
.dl-chapter p { margin: .4em 0 0; }
.dl-figure { margin: .6em 0 0; }
.dl-figure img { display: block; max-width: 100%; height: auto; border-radius: 3px; }
.dl-figure figcaption { font-size: 12px; color: #444; margin-top: 3px; }
.dl-credit { color: #666; }
.dl-about p { margin: .4em 0 0; }
.dl-details { padding: 0 2px; }
.dl-details h3 { font-size: 1rem; margin: .2em 0; }
.dl-side .src { color: #555; font-size: 12px; }
.dl-foot { color: #555; font-size: 12px; margin-top: 16px; overflow-wrap: anywhere; }
.dl-foot ul { padding-left: 1.2em; }
.dl-foot li { margin: 2px 0; }
@media (min-width: 900px) {
  .dl-main { grid-template-columns: minmax(0, 1fr) clamp(280px, 26vw, 440px); }
  #dl-map { height: max(360px, calc(100vh - 130px)); max-height: none; }
  .dl-side { max-height: calc(100vh - 80px); overflow-y: auto; }
}
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none';
 script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'">
<title>{title}</title>
<style>{css}</style>
</head><body>
<div class="dl-page">
<header class="dl-head">
<h1 id="dl-title"></h1>
<nav class="dl-bar" id="dl-chapters" aria-label="Chapters"></nav>
</header>
<main class="dl-main">
<div class="dl-mapcol">
<div id="dl-map"></div>
<div class="dl-range">
  <label>From <input type="range" id="dl-from"></label>
  <label>to <input type="range" id="dl-to"></label>
  <span id="dl-window"></span>
</div>
</div>
<aside class="dl-side">
<details class="dl-chapter" id="dl-chapter" open></details>
<div class="dl-details" id="dl-details"></div>
<details class="dl-about" open><summary>About this story</summary><p id="dl-summary"></p></details>
</aside>
</main>
<footer class="dl-foot"><b>Sources</b><ul id="dl-sources"></ul>
<p>Basemap: Natural Earth (public domain), GSHHG (LGPL), GeoNames (CC BY 4.0).
Outlines of fronts are approximate. Made with Dateline.</p></footer>
</div>
{scripts}
<script>
(window.Dateline = window.Dateline || {{}}).published =
    {{payload: {payload}, page: {page}, files: {files}}};
</script>
<script>{player}</script>
</body></html>
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``python -m geo publish STORY_DIR OUT.html [--chapter N]``."""
    parser.description = __doc__.splitlines()[0]
    parser.add_argument("story", type=Path, metavar="STORY_DIR", help="the story folder")
    parser.add_argument("out", type=Path, metavar="OUT.html", help="the page to write")
    parser.add_argument("--chapter", type=int, default=None, help="open at this chapter")


def run(args: argparse.Namespace) -> int:
    """Entry point: 0 written, 1 the story has problems, 2 no such chapter."""
    try:
        story = load_story(args.story)
    except StoryError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    if args.chapter is not None and not any(c.number == args.chapter for c in story.chapters):
        print(f"no chapter {args.chapter} in {story.id}", file=sys.stderr)
        return 2
    html = publish_html(story, args.chapter)
    size = len(html.encode("utf-8"))
    if size > MAX_BYTES:
        print(f"warning: {size:,} bytes is more than {MAX_BYTES:,}", file=sys.stderr)
    atomic_write_text(args.out, html)
    print(f"wrote {args.out}: {size:,} bytes")
    return 0
