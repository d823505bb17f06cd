"""Regenerate docs/screenshot.png (1440×900) and docs/screenshot-phone.png (390×844)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.appserver import (  # noqa: E402
    APP_READY,
    CHROMIUM_ARGS,
    MAP_FRAME,
    chromium_path,
    start_server,
    stop_server,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--query", default="?from=2017-08-28&to=2017-08-31&sel=place:baalbek")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        extra = {k: v for k, v in os.environ.items() if k == "DATELINE_STORIES_DIR"}
        srv = start_server(Path(tmp), extra)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                sizes = {
                    args.out: (1440, 900),
                    args.out.with_name("screenshot-phone.png"): (390, 844),
                }
                for out, (width, height) in sizes.items():
                    page = browser.new_page(viewport={"width": width, "height": height})
                    page.goto(f"{srv.url}/{args.query}")
                    page.wait_for_selector(APP_READY, timeout=60_000)
                    frame = page.frame_locator(MAP_FRAME)
                    frame.locator(".dl-pin").first.wait_for(timeout=30_000)
                    frame.locator(".dl-label").first.wait_for(timeout=30_000)
                    map_doc = next(f for f in page.frames if "streamlit_folium" in f.url)
                    map_doc.wait_for_function(
                        "document.querySelectorAll('.leaflet-dlLand-pane path').length > 100"
                    )
                    page.screenshot(path=str(out))
                    print(f"wrote {out}")
                browser.close()
        finally:
            stop_server(srv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
