"""Stories and their events in PostgreSQL + PostGIS, shared by any number of app servers.

Three tables (created on first use): ``dateline_stories`` (one row a story: id, title, version),
``dateline_story_files`` (the story's files, as bytes, validated before they are stored) and
``dateline_events`` (every event of every saved story, with a PostGIS point ``geom`` under a GiST
index and a (story, date) index, so a window or viewport query is one SQL statement).

A save validates the files in a temporary folder exactly as ``save_story`` does, then writes the
three tables in one transaction: a server killed mid-save leaves nothing, and the primary key on
``dateline_stories.id`` makes two servers saving the same id end in one story and one
"already exists".
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import psycopg
from psycopg import errors, sql

from geo.names import is_slug, noun
from geo.paths import default_cache_dir
from geo.story import events_store
from geo.story.checks import BASEMAP
from geo.story.events_store import (
    ALL_COLUMNS,
    LIGHT_COLUMNS,
    Narrow,
    WindowError,
    _bbox,
    _killed,
    _like,
    place_counts,
)
from geo.story.library import BUNDLED, TEMP_PREFIX, StoryEntry, _read_title
from geo.story.load.columns import CSV_TEXT
from geo.story.load.loaders import load_story
from geo.story.load.problems import StoryError
from geo.story.load.schema import FIGURES, FOLDER_LIMITS
from geo.story.model import Problem, Story
from geo.story.storage import (
    DiskError,
    StorageError,
    StoryExistsError,
    StoryFilesError,
    is_story_file,
    story_zip,
)
from geo.story.timeline import day_table

# Every statement below is idempotent; an advisory lock keeps two servers' first start from
# racing on CREATE (two CREATE TABLE IF NOT EXISTS at once can still collide in pg_type).
SCHEMA = """
CREATE EXTENSION IF NOT EXISTS postgis;
CREATE TABLE IF NOT EXISTS dateline_stories (
    id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,99}$'),
    title text NOT NULL,
    version text NOT NULL,
    n_events bigint NOT NULL,
    categories text[] NOT NULL,
    actors text[] NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS dateline_story_files (
    story_id text NOT NULL REFERENCES dateline_stories (id) ON DELETE CASCADE,
    name text NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (story_id, name)
);
CREATE TABLE IF NOT EXISTS dateline_events (
    story_id text NOT NULL REFERENCES dateline_stories (id) ON DELETE CASCADE,
    row bigint NOT NULL,
    id text NOT NULL,
    date date NOT NULL,
    end_date date,
    last date NOT NULL,
    place_id text NOT NULL,
    place_row integer NOT NULL,
    category text NOT NULL,
    sub_type text NOT NULL DEFAULT '',
    actors text[] NOT NULL,
    summary text NOT NULL,
    {figures},
    source text NOT NULL,
    source_detail text NOT NULL,
    confidence text NOT NULL,
    confidence_note text NOT NULL,
    place_name text NOT NULL,
    lat double precision,
    lon double precision,
    radius_m bigint,
    geom geometry(Point, 4326)
        GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED,
    PRIMARY KEY (story_id, row)
);
CREATE INDEX IF NOT EXISTS dateline_events_geom ON dateline_events USING gist (geom);
CREATE INDEX IF NOT EXISTS dateline_events_date ON dateline_events (story_id, date, last);
-- A table made before events had a sub_type: the column added, empty for the old rows.
ALTER TABLE dateline_events ADD COLUMN IF NOT EXISTS sub_type text NOT NULL DEFAULT '';
""".replace("{figures}", ",\n    ".join(f"{f} bigint" for f in FIGURES))
_SCHEMA_LOCK = 0x0DA7E11E
_SCHEMA_THERE = (
    "SELECT "
    + " AND ".join(
        f"to_regclass('{name}') IS NOT NULL"
        for name in (
            "dateline_stories",
            "dateline_story_files",
            "dateline_events",
            "dateline_events_geom",
            "dateline_events_date",
        )
    )
    + (
        " AND EXISTS (SELECT 1 FROM information_schema.columns"
        " WHERE table_name = 'dateline_events' AND column_name = 'sub_type')"
    )
)
_TEXT = ("id", "place_id", "category", "sub_type", "summary", "source", "source_detail")
_TEXT += ("confidence",)
_TEXT += ("confidence_note", "place_name")
_INTS = (*FIGURES, "radius_m", "place_row")
_COPY_COLUMNS = ("row", "last", "place_row", *ALL_COLUMNS)
COPY_ROWS = 20_000
CONNECT_TIMEOUT_S = 5  # a page run waits this long for a database that is down


class DatabaseError(DiskError):
    """The database refused or could not be reached (as a disk that refuses): nothing saved."""


def _version(files: dict[str, bytes]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for name in sorted(files):
        digest.update(f"{name}\0{len(files[name])}\0".encode())
        digest.update(files[name])
    return digest.hexdigest()


def _array(values) -> str:
    """A text[] literal: every element quoted, its backslashes and quotes escaped."""
    quote = lambda v: '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
    return "{" + ",".join(quote(v) for v in values) + "}"


def _event_chunks(story: Story, story_id: str) -> Iterator[bytes]:
    """The story's events as CSV for COPY, ``COPY_ROWS`` at a time (pandas writes the text: a
    row at a time from Python took 11 s for 50,000 events, this about 1 s)."""
    events = story.events
    place_row = pd.Index(story.places["id"]).get_indexer(events["place_id"])
    for lo in range(0, len(events), COPY_ROWS):
        part = events.iloc[lo : lo + COPY_ROWS]
        out = pd.DataFrame({"story_id": story_id, "row": np.arange(lo, lo + len(part))})
        out["last"] = part["end_date"].fillna(part["date"]).dt.strftime("%Y-%m-%d").to_numpy()
        out["place_row"] = place_row[lo : lo + len(part)]
        for col in ALL_COLUMNS:
            values = part[col]
            if col in ("date", "end_date"):
                values = values.dt.strftime("%Y-%m-%d")
            elif col == "actors":
                values = values.map(_array)
            out[col] = values.array  # Int64 stays whole numbers (to_numpy: 14.0)
        yield out.to_csv(header=False, index=False, lineterminator="\n").encode("utf-8")


class PostgresStore:
    """Saved stories in the database at ``url``; read locally from copies under ``cache``."""

    _made: ClassVar[dict[str, PostgresStore]] = {}
    _lock = threading.Lock()

    def __init__(self, url: str, cache: Path | None = None, bundled: Path = BUNDLED) -> None:
        self.url = url
        self.cache = Path(cache) if cache is not None else default_cache_dir() / "pg-stories"
        self.bundled = bundled
        self._schema_ready = False

    @classmethod
    def for_url(cls, url: str) -> PostgresStore:
        """One store per URL and process (the schema is checked once)."""
        with cls._lock:
            if url not in cls._made:
                cls._made[url] = cls(url)
            return cls._made[url]

    def connect(self) -> psycopg.Connection:
        """A new connection with the schema in place; DatabaseError when there is none."""
        try:
            conn = psycopg.connect(
                self.url, connect_timeout=CONNECT_TIMEOUT_S, application_name="dateline"
            )
        except psycopg.Error as exc:
            raise DatabaseError(f"the database cannot be reached ({_first_line(exc)})") from exc
        if not self._schema_ready:
            try:
                # Only when a table or index is missing: CREATE INDEX IF NOT EXISTS still locks
                # the events table, and would wait behind (and hold up) other servers' saves.
                there = conn.execute(_SCHEMA_THERE).fetchone()[0]
                conn.rollback()  # end the check's transaction: the DDL below commits on its own
                if not there:
                    with conn.transaction():
                        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                        conn.execute(SCHEMA)
            except psycopg.Error as exc:
                conn.close()
                raise DatabaseError(f"the tables cannot be made ({_first_line(exc)})") from exc
            self._schema_ready = True
        return conn

    @contextlib.contextmanager
    def session(self) -> Iterator[psycopg.Connection]:
        """A connection for reading; whatever the database raises becomes a DatabaseError."""
        with self.connect() as conn:
            try:
                yield conn
            except psycopg.Error as exc:
                raise DatabaseError(f"the database refused ({_first_line(exc)})") from exc

    def where(self) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.url)
        host, db = info.get("host") or "localhost", info.get("dbname") or ""
        return f"PostgreSQL {db} on {host}"  # never the password

    # --- listing and reading -------------------------------------------------------------------

    def entries(self) -> dict[str, StoryEntry]:
        with self.session() as conn:
            rows = conn.execute(
                "SELECT id, title, version FROM dateline_stories ORDER BY id"
            ).fetchall()
        return {
            sid: StoryEntry(sid, title, self.cache / f"{sid}-{version}", False)
            for sid, title, version in rows
        }

    def files(self, story_id: str) -> dict[str, bytes]:
        with self.session() as conn:
            rows = conn.execute(
                "SELECT name, data FROM dateline_story_files WHERE story_id = %s", (story_id,)
            ).fetchall()
        if not rows:
            raise KeyError(story_id)
        return {name: bytes(data) for name, data in rows}

    def folder(self, entry: StoryEntry) -> Path:
        """The story's files under the cache folder, written once per version (atomically: a
        folder renamed into place, as the event store's entries)."""
        final = entry.path
        if (final / "story.toml").is_file():
            return final
        version = final.name[len(entry.id) + 1 :]
        with self.session() as conn:
            rows = conn.execute(
                "SELECT f.name, f.data FROM dateline_story_files f JOIN dateline_stories s"
                " ON s.id = f.story_id WHERE s.id = %s AND s.version = %s",
                (entry.id, version),
            ).fetchall()
        if not rows:
            raise FileNotFoundError(f"story {entry.id!r} was deleted or replaced meanwhile")
        self.cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=self.cache))
        try:
            for name, data in rows:
                (tmp / name).write_bytes(bytes(data))
            os.chmod(tmp, 0o755)
            try:
                os.rename(tmp, final)
            except OSError:
                if not (final / "story.toml").is_file():  # another server's copy is whole
                    raise
            else:
                self._prune(entry.id, keep=final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return final

    def _prune(self, story_id: str, keep: Path) -> None:
        """Remove the copies of this story's older versions (best effort)."""
        for old in self.cache.glob(f"{story_id}-*"):
            sid, _, version = old.name.rpartition("-")
            if sid == story_id and len(version) == 16 and old != keep and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)

    def zip(self, story_id: str) -> bytes:
        return story_zip(self.folder(self.entries()[story_id]))

    def delete(self, story_id: str) -> bool:
        with self.session() as conn:
            cur = conn.execute("DELETE FROM dateline_stories WHERE id = %s", (story_id,))
            return cur.rowcount > 0

    def tidy(self) -> None:
        from geo.story.library import clean_stale

        clean_stale(self.cache)

    def entry_for(self, path: Path) -> StoryEntry | None:
        """The story whose local copy ``path`` is (``<cache>/<id>-<version>``), else None."""
        path = Path(path)
        sid, _, version = path.name.rpartition("-")
        if path.parent.resolve() != self.cache.resolve() or len(version) != 16:
            return None
        return StoryEntry(sid, sid, path, False) if is_slug(sid) else None

    def events(self, story_id: str, version: str | None = None) -> PgEventStore:
        """A saved story's events (of that ``version`` when given), queried in SQL."""
        query = "SELECT n_events, categories, actors FROM dateline_stories WHERE id = %s"
        args: tuple = (story_id,)
        if version is not None:
            query, args = query + " AND version = %s", (story_id, version)
        with self.session() as conn:
            row = conn.execute(query, args).fetchone()
        if row is None:
            raise KeyError(story_id)
        return PgEventStore(self, story_id, int(row[0]), list(row[1]), list(row[2]))

    # --- saving --------------------------------------------------------------------------------

    def save(self, story_id, files, *, limits=None, replace=False) -> Story:
        """Validate ``files`` as ``save_story`` does, then store them in one transaction."""
        self._check_id(story_id)
        with tempfile.TemporaryDirectory(prefix="dateline-save-") as tmp:
            for name, data in files.items():
                if not is_story_file(name):
                    raise StoryFilesError(f"unexpected story file {name!r}")
                (Path(tmp) / name).write_bytes(data)
            story = load_story(tmp, limits or FOLDER_LIMITS)  # StoryError: nothing stored
            title, _ = _read_title(Path(tmp))
        try:
            with self.connect() as conn, conn.transaction():
                self._write(conn, story_id, title, files, story, replace)
        except errors.UniqueViolation as exc:
            raise StoryExistsError(f"a story named {story_id!r} already exists") from exc
        except psycopg.Error as exc:
            raise DatabaseError(f"Not saved: the database refused ({_first_line(exc)}).") from exc
        entry = StoryEntry(story_id, title, self.cache / f"{story_id}-{_version(files)}", False)
        try:
            return load_story(self.folder(entry), limits or FOLDER_LIMITS)
        except (OSError, StorageError):  # replaced by another server already: saved all the same
            return story

    def _check_id(self, story_id) -> None:
        if not is_slug(story_id):
            raise StoryFilesError(f"{story_id!r} is not a story id")
        if (self.bundled / story_id).is_dir():
            raise StoryExistsError(f"a bundled story named {story_id!r} already exists")

    def _write(self, conn, story_id, title, files, story: Story, replace: bool) -> None:
        events = story.events
        cats = sorted(events["category"].unique())
        actors = sorted({a for acts in events["actors"] for a in acts})
        values = (story_id, title, _version(files), len(events), cats, actors)
        insert = (
            "INSERT INTO dateline_stories (id, title, version, n_events, categories, actors)"
            " VALUES (%s, %s, %s, %s, %s, %s)"
        )
        if replace:  # the row stays locked until commit: two replacing saves take turns
            insert += (
                " ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, version ="
                " EXCLUDED.version, n_events = EXCLUDED.n_events, categories ="
                " EXCLUDED.categories, actors = EXCLUDED.actors, saved_at = now()"
            )
        conn.execute(insert, values)
        if replace:
            conn.execute("DELETE FROM dateline_story_files WHERE story_id = %s", (story_id,))
            conn.execute("DELETE FROM dateline_events WHERE story_id = %s", (story_id,))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO dateline_story_files (story_id, name, data) VALUES (%s, %s, %s)",
                [(story_id, name, data) for name, data in files.items()],
            )
        ident = lambda names: sql.SQL(", ").join(map(sql.Identifier, names))  # noqa: E731
        # An empty unquoted text field is '' for these NOT NULL columns, NULL for the others.
        copy_sql = sql.SQL("COPY dateline_events ({}) FROM STDIN (FORMAT csv, FORCE_NOT_NULL ({}))")
        copy_sql = copy_sql.format(ident(("story_id", *_COPY_COLUMNS)), ident(_TEXT))
        with conn.cursor() as cur, cur.copy(copy_sql) as copy:
            for chunk in _event_chunks(story, story_id):
                copy.write(chunk)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


# --- events ------------------------------------------------------------------------------------

_DATES = ("date", "end_date", "last")


def _columns(columns: Iterable[str] | None) -> list[str]:
    cols = list(ALL_COLUMNS if columns is None else columns)
    unknown = [c for c in cols if c not in (*ALL_COLUMNS, "place_row")]
    if unknown:
        raise WindowError(f"unknown {noun(len(unknown), 'column')}: {', '.join(unknown)}")
    return cols


def _as_frame(rows: list[tuple], cols: list[str]) -> pd.DataFrame:
    """Rows of (row, *cols) as the event store's DataFrame: labelled by row, its dtypes."""
    df = pd.DataFrame.from_records(rows, columns=["row", *cols])
    df.index = pd.Index(df.pop("row").to_numpy(dtype=np.int64), name=None)
    for c in cols:
        if c in _DATES:
            df[c] = pd.to_datetime(df[c]).astype("datetime64[us]")
        elif c in _INTS:
            df[c] = df[c].astype("Int64")
        elif c in ("lat", "lon"):
            df[c] = df[c].astype("Float64")
        elif c == "actors":
            df[c] = df[c].map(lambda v: list(v or []))
        else:
            df[c] = df[c].astype(object).where(df[c].notna(), None)
    return df


@dataclass(frozen=True)
class PgEventStore:
    """A saved story's events in ``dateline_events``: the event store's queries, in SQL."""

    store: PostgresStore
    story_id: str
    n_events: int
    categories: list[str]
    actors: list[str]

    def _where(self, start, end, categories, actors, bbox, place_ids, narrow=None):
        """The WHERE clause of a window and its parameters; None when it is empty by design."""
        box = _bbox(bbox)
        parts = ["story_id = %s", "date <= %s", "last >= %s"]
        args: list = [self.story_id, pd.Timestamp(end).date(), pd.Timestamp(start).date()]
        if categories is not None:
            cats = list(categories)
            if not cats:
                return None
            if not set(self.categories) <= set(cats):
                parts.append("category = ANY(%s)")
                args.append(cats)
        if actors:
            parts.append("actors && %s::text[]")
            args.append(sorted(set(actors)))
        if place_ids is not None:
            ids = list(place_ids)
            if not ids:
                return None
            parts.append("place_id = ANY(%s)")
            args.append(ids)
        if box is not None:
            south, west, north, east = box
            if south > north or west > east:  # PostGIS would turn an inverted box right way up
                return None
            # A box, not a polygon: && on the GiST index, as the viewport is drawn.
            parts.append("geom && ST_MakeEnvelope(%s, %s, %s, %s, 4326)")
            args += [west, south, east, north]
        if narrow is not None and not self._narrowed(narrow, parts, args):
            return None
        return sql.SQL(" AND ".join(parts)), args

    def _narrowed(self, narrow: Narrow, parts: list[str], args: list) -> bool:
        """Add ``narrow``'s filters (fixed fragments, values as parameters), as EventStore does;
        False when they leave nothing by design."""
        if narrow.killed is not None:
            lo, hi = _killed(narrow.killed)
            if lo is not None:
                parts.append("killed >= %s")
                args.append(lo)
            if hi is not None:
                parts.append("killed <= %s")
                args.append(hi)
        if narrow.countries is not None:
            countries = {str(c) for c in narrow.countries}
            ids = sorted(i for i, c in self._place_countries.items() if c in countries)
            if not ids:
                return False
            parts.append("place_id = ANY(%s)")
            args.append(ids)
        if narrow.admin1 is not None:
            # As the countries: the saved places.csv names each place's admin1.
            wanted = {str(a) for a in narrow.admin1}
            ids = sorted(i for i, a in self._place_cells("admin1").items() if a in wanted)
            if not ids:
                return False
            parts.append("place_id = ANY(%s)")
            args.append(ids)
        if narrow.sub_types is not None:
            kinds = sorted({str(t) for t in narrow.sub_types})
            if not kinds:
                return False
            parts.append("sub_type = ANY(%s)")
            args.append(kinds)
        if narrow.text:
            pattern = _like(narrow.text)
            parts.append(
                "(summary ILIKE %s ESCAPE '\\' OR source_detail ILIKE %s ESCAPE '\\'"
                " OR confidence_note ILIKE %s ESCAPE '\\')"
            )
            args += [pattern] * 3
        return True

    @functools.cached_property
    def _place_countries(self) -> dict[str, str]:
        """Each place id's country cell, from the saved places.csv (the events table has no
        country column: a saved story's places were checked with it when it was saved)."""
        return self._place_cells("country")

    @functools.cached_property
    def _saved_places(self) -> pd.DataFrame | None:
        """The saved places.csv as text (None when there is none)."""
        query = "SELECT data FROM dateline_story_files WHERE story_id = %s AND name = %s"
        with self.store.session() as conn:
            row = conn.execute(query, (self.story_id, "places.csv")).fetchone()
        if row is None:
            return None
        places = pd.read_csv(io.BytesIO(bytes(row[0])), **CSV_TEXT)
        places.columns = [str(c).strip() for c in places.columns]
        return places

    def _place_cells(self, column: str) -> dict[str, str]:
        """Each place id's ``column`` cell (stripped; empty when the file has no such column)."""
        places = self._saved_places
        if places is None or column not in places:
            return {}
        ids, cells = places["id"].str.strip(), places[column].str.strip()
        return dict(zip(ids.tolist(), cells.tolist(), strict=True))

    def window(
        self,
        start: date,
        end: date,
        categories=None,
        actors=None,
        bbox=None,
        columns=None,
        *,
        place_ids=None,
        limit: int | None = None,
        narrow: Narrow | None = None,
    ) -> pd.DataFrame:
        """The rows ``EventStore.window`` gives, from one SQL query (same labels and order)."""
        cols = _columns(columns)
        where = self._where(start, end, categories, actors, bbox, place_ids, narrow)
        if where is None or pd.Timestamp(start) > pd.Timestamp(end):
            return _as_frame([], cols)
        query = sql.SQL("SELECT {} FROM dateline_events WHERE {} ORDER BY row").format(
            sql.SQL(", ").join(map(sql.Identifier, ("row", *cols))), where[0]
        )
        args = where[1]
        if limit is not None:
            query += sql.SQL(" LIMIT %s")
            args = [*args, int(limit)]
        with self.store.session() as conn:
            rows = conn.execute(query, args).fetchall()
        return _as_frame(rows, cols)

    def count(self, start, end, categories=None, actors=None, bbox=None, *, narrow=None) -> int:
        where = self._where(start, end, categories, actors, bbox, None, narrow)
        if where is None or pd.Timestamp(start) > pd.Timestamp(end):
            return 0
        query = sql.SQL("SELECT count(*) FROM dateline_events WHERE {}").format(where[0])
        with self.store.session() as conn:
            return int(conn.execute(query, where[1]).fetchone()[0])

    def frames(self, start, end, categories=None, actors=None, size: int = 16_384, *, narrow=None):
        """The window's events with every column, ``size`` rows at a time (a server cursor)."""
        where = self._where(start, end, categories, actors, None, None, narrow)
        if where is None:
            return
        cols = list(ALL_COLUMNS)
        query = sql.SQL("SELECT {} FROM dateline_events WHERE {} ORDER BY row").format(
            sql.SQL(", ").join(map(sql.Identifier, ("row", *cols))), where[0]
        )
        with self.store.session() as conn, conn.cursor(name="dateline_frames") as cur:
            cur.execute(query, where[1])
            while rows := cur.fetchmany(size):
                yield _as_frame(rows, cols)

    def counts_per_place(
        self, start, end, categories=None, actors=None, n_places=None, *, narrow=None
    ):
        where = self._where(start, end, categories, actors, None, None, narrow)
        pairs: list[tuple[int, int]] = []
        if where is not None:
            query = sql.SQL(
                "SELECT place_row, count(*) FROM dateline_events WHERE {} GROUP BY place_row"
            ).format(where[0])
            with self.store.session() as conn:
                pairs = conn.execute(query, where[1]).fetchall()
        return place_counts(pairs, n_places)

    def counts_per_day(self, start, end, categories=None, actors=None, *, narrow=None):
        """Events per start day and category, as ``EventStore.counts_per_day`` (one GROUP BY)."""
        where = self._where(start, end, categories, actors, None, None, narrow)
        rows: list[tuple] = []
        if where is not None:
            query = sql.SQL(
                "SELECT date, category, count(*) FROM dateline_events WHERE {} AND date >= %s"
                " GROUP BY date, category"
            ).format(where[0])
            with self.store.session() as conn:
                rows = conn.execute(query, [*where[1], pd.Timestamp(start).date()]).fetchall()
        return day_table(rows, start, end)

    def max_killed(self) -> int | None:
        """The story's highest reported ``killed`` figure, None when none has one."""
        query = "SELECT max(killed) FROM dateline_events WHERE story_id = %s"
        with self.store.session() as conn:
            top = conn.execute(query, (self.story_id,)).fetchone()[0]
        return None if top is None else int(top)

    def facets(self) -> tuple[list[str], list[str]]:
        return self.categories, self.actors

    @functools.cached_property
    def sub_types(self) -> list[str]:
        """Every non-empty sub_type of the story's events (one DISTINCT query, then kept)."""
        query = (
            "SELECT DISTINCT sub_type FROM dateline_events WHERE story_id = %s"
            " AND sub_type <> '' ORDER BY sub_type"
        )
        with self.store.session() as conn:
            return [t for (t,) in conn.execute(query, (self.story_id,)).fetchall()]

    def light_events(self) -> pd.DataFrame:
        """Every event's LIGHT_COLUMNS in order, as ``EventStore.light_events`` gives them."""
        query = sql.SQL("SELECT {} FROM dateline_events WHERE story_id = %s ORDER BY row").format(
            sql.SQL(", ").join(map(sql.Identifier, LIGHT_COLUMNS))
        )
        with self.store.session() as conn:
            rows = conn.execute(query, (self.story_id,)).fetchall()
        df = pd.DataFrame.from_records(rows, columns=list(LIGHT_COLUMNS))
        df["killed"] = pd.to_numeric(df["killed"]).to_numpy(np.float32, na_value=np.nan)
        for c in ("date", "end_date"):
            df[c] = pd.to_datetime(df[c]).astype("datetime64[us]")
        for c in ("category", "place_id"):
            df[c] = df[c].astype("category")
        return df


def open_saved_story(store: PostgresStore, entry: StoryEntry, basemap=BASEMAP) -> Story:
    """A saved story read from its local copy; a big one's events stay in the database.

    Like ``open_story`` it raises StoryError and nothing else.
    """
    try:
        folder = store.folder(entry)
        events = store.events(entry.id, folder.name[len(entry.id) + 1 :])
    except (StorageError, KeyError, OSError) as exc:
        why = "it was deleted or replaced meanwhile" if isinstance(exc, KeyError) else str(exc)
        raise StoryError(entry.path, [Problem("database", "", why)]) from exc
    if events.n_events <= events_store.BIG_EVENTS:
        return load_story(folder, basemap=basemap)
    # Checked when it was saved: the events are not read here, only their map columns.
    story = load_story(folder, basemap=basemap, with_events=False)
    places = story.places.astype({"id": object})
    try:
        light = events.light_events()
    except psycopg.Error as exc:
        raise StoryError(entry.path, [Problem("database", "", _first_line(exc))]) from exc
    return replace(story, places=places, events=light, store=events)
