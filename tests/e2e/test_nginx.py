"""Two app servers on one PostgreSQL behind nginx, configured by the repository's template
(deploy/nginx.conf): the dashboard opens and its map draws through nginx (its WebSocket
upgraded), the health check and a published file answer, and a saved story is shown by
whichever server a reader is routed to, and by the other when nginx fails over to it."""

from __future__ import annotations

import os
import subprocess
import urllib.request
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import start_server, stop_server, wait_whole_page
from tests.e2e.conftest import ready_map
from tests.e2e.nginx import nginx_binary, render, start_nginx, stop_nginx
from tests.geo.story.test_store_contract import bundled_files, empty_database, retitled


@pytest.fixture(scope="module")
def balanced(tmp_path_factory, postgres_url):
    """(nginx, [server A, server B]): the same database, a cache folder each."""
    if nginx_binary() is None:
        why = "nginx is missing: apt-get install nginx-light"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(why)
        pytest.skip(why)
    empty_database(postgres_url)
    env = {"DATELINE_DATABASE_URL": postgres_url}
    servers = [start_server(tmp_path_factory.mktemp(f"app{n}"), env) for n in (1, 2)]
    published = tmp_path_factory.mktemp("published")
    (published / "story.html").write_text("<!doctype html><title>Published</title>")
    front = start_nginx(tmp_path_factory.mktemp("nginx"), [s.url for s in servers], published)
    yield front, servers
    stop_nginx(front)
    for srv in servers:
        stop_server(srv)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return resp.read().decode()


def test_the_dashboard_opens_through_nginx(balanced, page_for):
    front, _ = balanced
    assert get(f"{front.url}/_stcore/health").strip() == "ok"
    assert "<title>Published</title>" in get(f"{front.url}/published/story.html")
    assert front.upstreams("/published/") == ["-"]  # served by nginx itself
    page, _ = page_for(front, viewport=(1280, 720))
    ready_map(page)
    expect(page.get_by_role("heading", name="Qalamoun", exact=False).first).to_be_visible()


def test_a_story_saved_on_one_server_survives_failover(balanced, page_for, tmp_path, postgres_url):
    """Saved through the store API (as the New story page saves), opened through nginx on the
    server the reader's cookie picks; that server killed, the reload is served by the other."""
    from geo.story.pg import PostgresStore

    front, servers = balanced
    store = PostgresStore(postgres_url, cache=tmp_path / "saver")
    store.save("behind-nginx", retitled(bundled_files(), "Balanced"))

    page, _ = page_for(front, "?story=behind-nginx", viewport=(1280, 720))
    expect(page.get_by_role("heading", name="Balanced")).to_be_visible()
    first = front.upstreams("/?story=behind-nginx")[-1]
    by_addr = {urlparse(s.url).netloc: s for s in servers}
    assert first in by_addr
    # The server this reader is stuck to dies; the same reload must reach the other one.
    by_addr[first].proc.kill()
    by_addr[first].proc.wait(30)
    page.reload()
    wait_whole_page(page)
    ready_map(page)
    expect(page.get_by_role("heading", name="Balanced")).to_be_visible()
    second = front.upstreams("/?story=behind-nginx")[-1].split(", ")[-1]
    assert second in by_addr and second != first
    assert front.upstreams("/?story=behind-nginx")[0] == first  # one route cookie, one server


def test_the_template_renders_to_a_valid_configuration(tmp_path):
    """Every placeholder filled (outside the comments that name them), and ``nginx -t`` takes
    it; with five servers as with two."""
    urls = [f"http://10.0.0.{n}:8501" for n in range(1, 6)]
    text = render(urls, "127.0.0.1:8080", tmp_path / "published")
    code = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in code if "@" in line]
    assert sum("server 10.0.0." in line for line in code) == 5
    exe = nginx_binary()
    if exe is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing: apt-get install nginx-light")
        pytest.skip("nginx is missing")
    for sub in ("logs", "temp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "nginx.conf").write_text(text)
    cmd = [
        exe,
        "-t",
        "-q",
        "-p",
        f"{tmp_path}/",
        "-c",
        str(tmp_path / "nginx.conf"),
        "-e",
        "stderr",
    ]
    checked = subprocess.run(cmd, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
