"""One storage contract, the same tests against both backends: a stories folder and a real
PostgreSQL + PostGIS (started by the ``postgres_url`` fixture of tests/conftest.py)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from geo.story import storage
from geo.story.library import BUNDLED
from geo.story.load import StoryError, load_story
from geo.story.storage import (
    StoryExistsError,
    StoryFilesError,
    files_from_zip,
    folder_files,
)
from geo.story.store import FolderStore, all_stories, story_store

ROOT = Path(__file__).resolve().parents[3]
BACKENDS = ["folder", "postgres"]
FORK = multiprocessing.get_context("fork")


def bundled_files() -> dict[str, bytes]:
    src = BUNDLED / "qalamoun-2017"
    return folder_files(src)


def retitled(files: dict[str, bytes], title: str) -> dict[str, bytes]:
    toml = files["story.toml"].decode()
    start = toml.index("title = ")
    end = toml.index("\n", start)
    return {**files, "story.toml": (toml[:start] + f'title = "{title}"' + toml[end:]).encode()}


def make_store(kind: str, where: Path, url: str | None):
    """A fresh store of ``kind`` (built again in a child process from the same arguments)."""
    if kind == "folder":
        return FolderStore(where / "stories", cache=where / "event-store")

    from geo.story.pg import PostgresStore

    return PostgresStore(url, cache=where / "pg-cache")


def empty_database(url: str) -> None:
    import psycopg

    from geo.story.pg import PostgresStore

    PostgresStore(url).connect().close()  # the tables exist
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM dateline_stories")


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path):
    """(kind, folder, url) of an empty store."""
    url = None
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        empty_database(url)
    return request.param, tmp_path, url


@pytest.fixture
def store(backend):
    return make_store(*backend)


def test_save_list_open_zip_delete_round_trip(store):
    files = bundled_files()
    saved = store.save("mine", files)
    assert saved.meta["title"].startswith("ISIS leaves")
    entries = store.entries()
    assert list(entries) == ["mine"]
    entry = entries["mine"]
    assert entry.title == saved.meta["title"] and not entry.bundled and entry.problem is None
    folder = store.folder(entry)
    assert len(load_story(folder).events) == len(saved.events)
    assert store.files("mine") == files
    assert files_from_zip(store.zip("mine")) == files
    assert store.delete("mine") is True
    assert store.entries() == {}
    assert store.delete("mine") is False


def test_saved_stories_are_listed_after_the_bundled_ones(store):
    store.save("mine", bundled_files())
    found = all_stories(store)
    assert list(found)[:1] == ["qalamoun-2017"] and found["qalamoun-2017"].bundled
    assert "mine" in found and not found["mine"].bundled


def test_an_id_that_exists_is_refused_unless_replaced(store):
    store.save("mine", bundled_files())
    with pytest.raises(StoryExistsError, match="already exists"):
        store.save("mine", retitled(bundled_files(), "Another"))
    assert store.entries()["mine"].title.startswith("ISIS leaves")
    again = store.save("mine", retitled(bundled_files(), "Second draft"), replace=True)
    assert again.meta["title"] == "Second draft"
    entry = store.entries()["mine"]
    assert entry.title == "Second draft"
    assert load_story(store.folder(entry)).meta["title"] == "Second draft"
    # One local copy a story: the old version's went (the database backend's cache).
    assert [p.name for p in entry.path.parent.iterdir() if p.name.startswith("mine")] == [
        entry.path.name
    ]


def test_a_bundled_id_is_refused(store):
    with pytest.raises(StoryExistsError, match="bundled"):
        store.save("qalamoun-2017", bundled_files())
    assert store.entries() == {}


@pytest.mark.parametrize(
    "story_id",
    ["", "../escape", "a/b", "Mine", ".saving-x", "a b", "x" * 101, "-x", "é", None, "a\x00b"],
)
def test_hostile_ids_are_refused(store, story_id):
    with pytest.raises(StoryFilesError, match="not a story id"):
        store.save(story_id, bundled_files())
    assert store.entries() == {}


def test_a_story_that_does_not_validate_or_a_stray_file_saves_nothing(store):
    broken = {**bundled_files(), "events.csv": b"id,date\nx,not-a-date\n"}
    with pytest.raises(StoryError):
        store.save("mine", broken)
    with pytest.raises(StoryFilesError, match="unexpected story file"):
        store.save("mine", {**bundled_files(), "evil.sh": b"rm -rf /"})
    assert store.entries() == {}


def _save_in_child(kind, where, url, story_id, barrier, answers) -> None:
    store = make_store(kind, where, url)
    files = bundled_files()
    barrier.wait()
    try:
        store.save(story_id, files)
        answers.put("saved")
    except StoryExistsError:
        answers.put("exists")
    except BaseException as exc:  # the test shows what went wrong
        answers.put(repr(exc))


def test_two_processes_saving_one_id_end_in_one_story_and_one_refusal(backend):
    barrier, answers = FORK.Barrier(2), FORK.Queue()
    procs = [
        FORK.Process(target=_save_in_child, args=(*backend, "same", barrier, answers))
        for _ in range(2)
    ]
    for p in procs:
        p.start()
    got = sorted(answers.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(60)
    assert got == ["exists", "saved"]
    entries = make_store(*backend).entries()
    assert list(entries) == ["same"]


def _stop_mid_save(kind, where, url, ready) -> None:
    """Begin a save and stop half-way (the parent kills this process there)."""

    def halt(*args, **kwargs):
        ready.send("writing")
        threading.Event().wait()  # until SIGKILL

    if kind == "folder":
        # The files are written under the temporary name; validating comes next.
        storage.load_story = halt
    else:
        from geo.story import pg

        real = pg._event_chunks

        def rows_then_halt(story, story_id):
            yield next(real(story, story_id))[:2000]  # the story row, its files, some events
            halt()

        pg._event_chunks = rows_then_halt
    make_store(kind, where, url).save("killed", bundled_files())


def test_a_writer_killed_mid_save_leaves_nothing_listed(backend):
    parent, child = FORK.Pipe()
    proc = FORK.Process(target=_stop_mid_save, args=(*backend, child))
    proc.start()
    assert parent.poll(120), "the child never began its save"
    assert parent.recv() == "writing"
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(60)
    assert proc.exitcode == -signal.SIGKILL
    store = make_store(*backend)
    assert store.entries() == {}
    assert "killed" not in all_stories(store)
    # The id is free: the dead save holds no lock and no row.
    store.save("killed", bundled_files())
    assert list(store.entries()) == ["killed"]


def test_the_environment_picks_the_backend(tmp_path, monkeypatch):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(tmp_path))
    assert isinstance(story_store({}), FolderStore)
    assert story_store({}).where() == str(tmp_path)
    assert isinstance(story_store({"DATELINE_DATABASE_URL": "  "}), FolderStore)


def test_the_database_url_picks_postgres_and_never_shows_the_password(postgres_url):
    from geo.story.pg import PostgresStore

    url = postgres_url.replace("postgres@", "postgres:secret@")
    picked = story_store({"DATELINE_DATABASE_URL": url})
    assert isinstance(picked, PostgresStore)
    assert "secret" not in picked.where() and "PostgreSQL" in picked.where()


def test_an_unreachable_database_is_a_storage_error(tmp_path):
    from geo.story.pg import DatabaseError, PostgresStore

    store = PostgresStore("postgresql://nobody@127.0.0.1:1/none", cache=tmp_path)
    with pytest.raises(DatabaseError, match="cannot be reached"):
        store.entries()
    assert sys.modules["geo.story.pg"]  # imported only here, not by the folder backend


def test_a_query_the_database_refuses_is_a_storage_error(postgres_url, tmp_path):
    import psycopg

    from geo.story.pg import DatabaseError

    empty_database(postgres_url)
    store = make_store("postgres", tmp_path, postgres_url)
    store.save("mine", bundled_files())
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE dateline_stories RENAME TO dateline_stories_away")
        try:
            with pytest.raises(DatabaseError, match="refused"):
                store.entries()
            with pytest.raises(DatabaseError, match="refused"):
                store.events("mine")
        finally:
            conn.execute("ALTER TABLE dateline_stories_away RENAME TO dateline_stories")
    assert list(store.entries()) == ["mine"]
