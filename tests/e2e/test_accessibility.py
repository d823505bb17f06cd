"""Accessibility: axe-core finds no serious or critical problem on the dashboard, in its map's
frame or in the published file, at laptop and phone sizes; the map can be used by keyboard alone.

axe-core comes from node_modules (package-lock.json pins it; ``python3 dev.py test`` installs
it), injected into the page as a script: nothing is fetched from the internet.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from geo.map.publish import publish_html
from geo.story.load import load_story
from tests.e2e.conftest import ROOT, new_context, ready_map

pytestmark = pytest.mark.e2e

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"laptop": (1280, 720), "phone": (390, 844)}
# Minor and moderate findings are reported by axe too; the bar here is what blocks a reader.
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"{AXE} is missing: run `python3 dev.py js` (npm ci from package-lock.json).",
            pytrace=False,
        )
    return AXE.read_text()


def axe_problems(frame) -> list[str]:
    """axe's serious and critical violations in one frame, as 'rule-id ×count (impact)'."""
    if not frame.evaluate("() => Boolean(window.axe)"):
        # evaluate, not a script tag: the published file's content security policy forbids
        # inline scripts, and Playwright's evaluate is not subject to it.
        frame.evaluate(axe_source())
    found = frame.evaluate(
        """async () => {
            const r = await axe.run(document, {iframes: false, resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, n: v.nodes.length,
                where: v.nodes.slice(0, 4).map(x => x.html.slice(0, 120))}));
        }"""
    )
    return [
        f"{v['id']} ×{v['n']} ({v['impact']}) e.g. {v['where']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


def offline(route) -> None:
    """Let the published file load itself (file:) and nothing else."""
    if route.request.url.startswith("file:"):
        route.continue_()
    else:
        route.abort()


def map_frame_of(page):
    return next(f for f in page.frames if "streamlit_folium" in f.url)


@pytest.mark.parametrize("size", SIZES)
def test_dashboard_and_its_map_have_no_serious_axe_violation(server, page_for, size):
    page, _ = page_for(server, "?to=2017-08-31&sel=place:baalbek", viewport=SIZES[size])
    ready_map(page)
    expect(page.get_by_test_id("stColumn").filter(has_text="Details")).to_contain_text(
        "Baalbek", timeout=30_000
    )
    problems = axe_problems(page.main_frame) + [
        f"map frame: {p}" for p in axe_problems(map_frame_of(page))
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES)
def test_published_file_has_no_serious_axe_violation(browser, tmp_path, size):
    out = tmp_path / "story.html"
    out.write_text(publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017")))
    width, height = SIZES[size]
    context = new_context(browser, viewport={"width": width, "height": height})
    context.route("**/*", offline)
    page = context.new_page()
    page.goto(out.as_uri())
    expect(page.get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    expect(page.locator(".dl-pin").first).to_be_visible()
    problems = axe_problems(page.main_frame)
    context.close()
    assert not problems, "\n".join(problems)
