"""Two app servers on one PostgreSQL (DATELINE_DATABASE_URL): a story uploaded through one is
listed and opened on the other, and the same upload on both at once ends in one story and one
"already exists"; a server killed in the middle of a save leaves nothing listed. Each server has
its own cache folder, as two machines would."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from playwright.sync_api import expect

from geo.story.library import BUNDLED
from geo.story.storage import story_zip
from tests.e2e.appserver import start_server, stop_server, wait_whole_page
from tests.geo.story.test_store_contract import bundled_files, empty_database

NEW_STORY = "New_story_from_an_article"


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory, postgres_url):
    empty_database(postgres_url)
    env = {"DATELINE_DATABASE_URL": postgres_url}
    servers = [start_server(tmp_path_factory.mktemp(f"server{n}"), env) for n in (1, 2)]
    yield servers
    for srv in servers:
        stop_server(srv)


def shared_zip(tmp_path, story_id: str, title: str):
    """The bundled story as a zip under another id and title."""
    src = zipfile.ZipFile(io.BytesIO(story_zip(BUNDLED / "qalamoun-2017")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in src.namelist():
            data = src.read(name)
            if name == "story.toml":
                text = data.decode()
                text = text.replace('id = "qalamoun-2017"', f'id = "{story_id}"', 1)
                start = text.index("title = ")
                text = text[:start] + f'title = "{title}"' + text[text.index("\n", start) :]
                data = text.encode()
            zf.writestr(name, data)
    path = tmp_path / f"{story_id}.zip"
    path.write_bytes(out.getvalue())
    return path


def start_upload(page_for, srv, path):
    """Open the New story page on ``srv``, choose the zip and click "Add this story"."""
    page, _ = page_for(srv, NEW_STORY, viewport=(1280, 720))
    page.get_by_text("Upload a story zip").click()
    # By its label: the page has other uploaders (the article, a dataset export).
    zip_box = page.get_by_test_id("stFileUploader").filter(has_text="A zip made by Dateline's")
    zip_box.locator("input[type='file']").set_input_files(str(path))
    button = page.get_by_role("button", name="Add this story")
    expect(button).to_be_visible(timeout=30_000)
    button.click()
    return page


def test_a_story_uploaded_on_one_server_opens_on_the_other(two_servers, page_for, tmp_path):
    first, second = two_servers
    path = shared_zip(tmp_path, "shared-story", "Shared between two servers")
    page = start_upload(page_for, first, path)
    expect(page.get_by_text("Added shared-story")).to_be_visible(timeout=60_000)
    other, _ = page_for(second, "?story=shared-story", viewport=(1280, 720))
    wait_whole_page(other)
    expect(other.get_by_role("heading", name="Shared between two servers")).to_be_visible()


def test_one_upload_on_both_servers_at_once_saves_one(two_servers, page_for, tmp_path):
    path = shared_zip(tmp_path, "raced-story", "Raced")
    pages = [start_upload(page_for, srv, path) for srv in two_servers]
    saved = "Added raced-story"
    refused = "already exists"
    for page in pages:
        expect(page.get_by_text(saved).or_(page.get_by_text(refused))).to_be_visible(timeout=60_000)
    outcomes = sorted("saved" if page.get_by_text(saved).count() else "exists" for page in pages)
    assert outcomes == ["exists", "saved"]


def _wait_for(query_result, timeout_s: float = 60) -> None:
    """Poll the database until ``query_result()`` is true (as appserver polls the health URL)."""
    deadline = time.monotonic() + timeout_s
    while not query_result():
        assert time.monotonic() < deadline, "the server never reached the point waited for"
        time.sleep(0.1)  # poll interval of a database condition, not a wait for the page


def test_a_server_killed_mid_save_leaves_nothing_listed(
    postgres_url, page_for, tmp_path, tmp_path_factory
):
    """The server is held inside its save's transaction (the test locks the events table, so
    the COPY of the events waits), killed there with SIGKILL: nothing is listed, and the id is
    free for another server."""
    import psycopg

    from geo.story.pg import PostgresStore

    empty_database(postgres_url)
    srv = start_server(tmp_path_factory.mktemp("doomed"), {"DATELINE_DATABASE_URL": postgres_url})
    path = shared_zip(tmp_path, "killed-story", "Never listed")
    try:
        with psycopg.connect(postgres_url) as holder:
            holder.execute("LOCK TABLE dateline_events IN SHARE MODE")
            page = start_upload(page_for, srv, path)
            with psycopg.connect(postgres_url, autocommit=True) as watch:
                waiting = (
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dateline'"
                    " AND wait_event_type = 'Lock' AND query LIKE 'COPY dateline_events%'"
                )
                _wait_for(lambda: watch.execute(waiting).fetchone()[0] == 1)
                # The story's row and files are written, in a transaction not yet committed.
                srv.proc.kill()
                srv.proc.wait(30)
                # Listed by a third server (its first connection: the tables are there, so
                # it takes no lock the dead save holds).
                assert PostgresStore(postgres_url, cache=tmp_path / "c1").entries() == {}
            holder.rollback()  # the dead save's backend reads EOF and rolls back
        other = PostgresStore(postgres_url, cache=tmp_path / "c2")
        assert other.entries() == {}
        other.save("killed-story", bundled_files())
        assert list(other.entries()) == ["killed-story"]
        expect(page.get_by_text("Added killed-story")).to_have_count(0)
    finally:
        stop_server(srv)
