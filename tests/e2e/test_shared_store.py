"""Two app servers on one PostgreSQL (DATELINE_DATABASE_URL): a story uploaded through one is
listed and opened on the other, and the same upload on both at once ends in one story and one
"already exists". Each server has its own cache folder, as two machines would."""

from __future__ import annotations

import io
import zipfile

import pytest
from playwright.sync_api import expect

from geo.story.library import BUNDLED
from geo.story.storage import story_zip
from tests.e2e.appserver import start_server, stop_server, wait_whole_page
from tests.geo.story.test_store_contract import empty_database

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
    page.locator("input[type='file']").last.set_input_files(str(path))
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
