"""Tests for geo.story.chapters and the loader's [[chapters]] checks."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import pytest

from geo.__main__ import main
from geo.story.chapters import (
    MAX_CHAPTERS,
    Chapter,
    chapter_bounds,
    chapter_for_url,
    chapter_marks,
    markup_in,
    short_label,
)
from geo.story.library import BUNDLED
from geo.story.load import StoryError, load_story
from tests.helpers import MINI, MINI_CHAPTERS, copy_story, replace

C1 = "chapter 1 (An offensive starts), line 17"
C2 = "chapter 2 (A ceasefire and a speech), line 26"
C3 = "chapter 3 (The convoy stops on the road to Palmyra), line 34"


@pytest.fixture
def story_dir(tmp_path: Path) -> Path:
    return copy_story(MINI_CHAPTERS, tmp_path)


def problems_of(path: Path) -> list[str]:
    with pytest.raises(StoryError) as info:
        load_story(path, basemap=None)
    return [str(p) for p in info.value.problems]


def chapter(n=1, start="2017-08-19", end="2017-08-21", **kw) -> Chapter:
    fields = {"title": f"Chapter {n}", "text": "Text.", "sources": ("test",), **kw}
    return Chapter(n, start=date.fromisoformat(start), end=date.fromisoformat(end), **fields)


def test_chapters_load_as_dataclasses():
    story = load_story(MINI_CHAPTERS)
    assert [c.number for c in story.chapters] == [1, 2, 3]
    first = story.chapters[0]
    assert (first.start, first.end) == (date(2017, 8, 19), date(2017, 8, 21))
    assert first.sources == ("other",)
    assert (first.select, first.fit, first.bounds) == ("front:lb-1", ("arsal", "crossing"), None)
    assert story.chapters[2].bounds == ((33.8, 35.4), (35.0, 39.2))
    assert isinstance(story.chapters, tuple)
    with pytest.raises(AttributeError):
        first.title = "changed"  # frozen


def test_a_story_without_chapters_loads_as_before():
    story = load_story(MINI)
    assert story.chapters == ()
    assert "chapters" not in story.meta
    assert [str(w) for w in story.warnings] == [
        "story.toml:source 1 (test): has no url: a reader cannot look it up"
    ]


# Each case breaks the mini-chapters story.toml in one way: (old, new, the problem it gives).
BROKEN = [
    (
        "start = 2017-08-19",
        'start = "2017-08-32"',
        f"story.toml:{C1}: start '2017-08-32' is not a date (YYYY-MM-DD)",
    ),
    (
        "start = 2017-08-19",
        'start = "19 August"',
        f"story.toml:{C1}: start '19 August' is not a date (YYYY-MM-DD)",
    ),
    (
        "start = 2017-08-19",
        "start = 2017-08-19T05:00:00",
        f"story.toml:{C1}: start '2017-08-19 05:00:00' is not a date (YYYY-MM-DD)",
    ),
    (
        "end = 2017-08-31\ntext",
        "end = 2017-09-03\ntext",
        f"story.toml:{C3}: end 2017-09-03 is outside the story's span 2017-08-01..2017-08-31",
    ),
    (
        "start = 2017-08-19",
        "start = 2017-07-19",
        f"story.toml:{C1}: start 2017-07-19 is outside the story's span 2017-08-01..2017-08-31",
    ),
    (
        "end = 2017-08-21",
        "end = 2017-08-18",
        f"story.toml:{C1}: start 2017-08-19 is after end 2017-08-18",
    ),
    ("end = 2017-08-21\n", "", f"story.toml:{C1}: end is missing"),
    (
        'sources = ["test"]',
        'sources = ["test", "nope"]',
        f"story.toml:{C2}: sources: 'nope' not a known [[sources]] id",
    ),
    (
        'sources = ["test"]',
        "sources = []",
        f"story.toml:{C2}: sources must be a non-empty list of [[sources]] ids",
    ),
    (
        'sources = ["test"]\n',
        "",
        f"story.toml:{C2}: sources is missing: list the [[sources]] ids the text rests on",
    ),
    (
        '"place:baalbek"',
        '"place:nowhere"',
        f"story.toml:{C2}: select 'place:nowhere': no such place in places.csv",
    ),
    (
        '"convoy:c3"',
        '"convoy:c99"',
        f"story.toml:{C3}: select 'convoy:c99': no such position in convoy.csv",
    ),
    (
        '"front:lb-1"',
        '"front:zz-9"',
        f"story.toml:{C1}: select 'front:zz-9': no such polygon in fronts.geojson",
    ),
    (
        '"place:baalbek"',
        '"event:e4"',
        f"story.toml:{C2}: select 'event:e4' must be place:ID, convoy:ID or front:ID",
    ),
    (
        '"front:lb-1"',
        '"front:lb-2"',
        f"story.toml:{C1}: select 'front:lb-2' is valid 2017-08-22..2017-08-27, so not on the map"
        " on 2017-08-21, the last day",
    ),
    (
        '"front:lb-1"',
        '"convoy:c1"',
        f"story.toml:{C1}: select 'convoy:c1': the position of 2017-08-28 is after the chapter"
        " ends",
    ),
    (
        'text = "A made-up offensive begins at the test crossing."\n',
        "",
        f"story.toml:{C1}: text is missing or empty",
    ),
    (
        '"A made-up offensive begins at the test crossing."',
        '"   "',
        f"story.toml:{C1}: text is missing or empty",
    ),
    (
        "begins at the test crossing.",
        "begins at the <b>test</b> crossing.",
        f"story.toml:{C1}: text holds an HTML tag: write plain text",
    ),
    (
        "begins at the test crossing.",
        "begins <script>alert(1)</script>",
        f"story.toml:{C1}: text holds an HTML tag",
    ),
    (
        "begins at the test crossing.",
        "begins at [the crossing](https://example.org).",
        f"story.toml:{C1}: text holds a Markdown link",
    ),
    (
        'title = "An offensive starts"',
        'title = "An **offensive** starts"',
        "story.toml:chapter 1 (An **offensive** starts), line 17: title holds Markdown bold",
    ),
    (
        'title = "An offensive starts"',
        f'title = "{"x" * 81}"',
        f"story.toml:chapter 1 ({'x' * 39}…), line 17: title is 81 characters long; at most 80",
    ),
    (
        'title = "An offensive starts"',
        'title = "An offensive\\nstarts"',
        "story.toml:chapter 1 (An offensive starts), line 17: title holds line breaks",
    ),
    (
        '"A made-up offensive begins at the test crossing."',
        f'"{"word " * 121}"',
        f"story.toml:{C1}: text is 604 characters long; at most 600",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        "[[35.0, 35.4], [33.8, 39.2]]",
        f"story.toml:{C3}: view.bounds south 35.0 must be below north 33.8",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        "[[33.8, 39.2], [35.0, 35.4]]",
        f"story.toml:{C3}: view.bounds west 39.2 must be less than east 35.4",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        "[[33.8, 35.4], [95.0, 39.2]]",
        f"story.toml:{C3}: view.bounds must be [[south, west], [north, east]] in degrees:"
        " latitudes within ±90",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        '[[33.8, 35.4], ["35", 39.2]]',
        f"story.toml:{C3}: view.bounds must be [[south, west], [north, east]] in degrees",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        "[33.8, 35.4, 35.0, 39.2]",
        f"story.toml:{C3}: view.bounds must be [[south, west], [north, east]] in degrees",
    ),
    (
        "[[33.8, 35.4], [35.0, 39.2]]",
        "[[33.8, nan], [35.0, 39.2]]",
        f"story.toml:{C3}: view.bounds must be [[south, west], [north, east]] in degrees",
    ),
    (
        '["arsal", "crossing"]',
        '["arsal", "atlantis"]',
        f"story.toml:{C1}: view.places: 'atlantis' not a known places.csv id",
    ),
    (
        'view = { places = ["arsal", "crossing"] }',
        'view = { places = ["arsal"], bounds = [[33.8, 35.4], [35.0, 39.2]] }',
        f"story.toml:{C1}: view must be {{ bounds = [[south, west], [north, east]] }}",
    ),
    (
        'view = { places = ["arsal", "crossing"] }',
        'view = "arsal"',
        f"story.toml:{C1}: view must be {{ bounds",
    ),
    (
        'select = "place:baalbek"',
        'selection = "place:baalbek"',
        f"story.toml:{C2}: unknown key selection (expected title, start, end, text, sources,"
        " select, view, image)",
    ),
    (
        'title = "An offensive starts"',
        'title = "An offensive\u2028starts"',  # a line separator broke the title's bold
        "story.toml:chapter 1 (An offensive starts), line 17: title holds line breaks",
    ),
    (
        "start = 2017-08-30",
        "start = 2017-08-20",
        f"story.toml:{C3}: starts 2017-08-20, before chapter 2 (2017-08-27): chapters go in date"
        " order",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), BROKEN)
def test_broken_chapter_is_reported_with_its_number_title_and_line(story_dir, old, new, expected):
    replace(story_dir / "story.toml", old, new)
    found = problems_of(story_dir)
    assert any(p.startswith(expected) for p in found), found


def test_every_broken_chapter_is_reported(story_dir):
    replace(story_dir / "story.toml", 'sources = ["other"]', 'sources = ["x"]')
    replace(story_dir / "story.toml", '"place:baalbek"', '"place:x"')
    replace(story_dir / "story.toml", '"convoy:c3"', '"convoy:x"')
    found = problems_of(story_dir)
    assert [p.split(":")[1].split(" (")[0] for p in found] == [
        "chapter 1",
        "chapter 2",
        "chapter 3",
    ]


def _many(n: int) -> str:
    one = '[[chapters]]\ntitle = "Day {d}"\nstart = 2017-08-{d:02d}\nend = 2017-08-{d:02d}\n'
    one += 'text = "Something happens."\nsources = ["test"]\n\n'
    return "".join(one.format(d=1 + i % 31) for i in range(n))


def test_too_many_chapters_is_one_problem(story_dir):
    toml = story_dir / "story.toml"
    head = toml.read_text(encoding="utf-8").split("[[chapters]]")[0]
    toml.write_text(head + _many(MAX_CHAPTERS + 10), encoding="utf-8")
    found = problems_of(story_dir)
    assert found[0] == "story.toml: 40 chapters; a story may have at most 30"
    # Only the first 30 are checked: days 1..30, in order, so nothing else is wrong.
    assert len(found) == 1, found


def test_thirty_chapters_are_allowed(story_dir):
    toml = story_dir / "story.toml"
    head = toml.read_text(encoding="utf-8").split("[[chapters]]")[0]
    toml.write_text(head + _many(MAX_CHAPTERS), encoding="utf-8")
    assert len(load_story(story_dir, basemap=None).chapters) == MAX_CHAPTERS


def test_chapters_that_are_not_tables_are_refused(story_dir):
    toml = story_dir / "story.toml"
    head = toml.read_text(encoding="utf-8").split("[[chapters]]")[0]
    toml.write_text('chapters = ["one", "two"]\n' + head, encoding="utf-8")
    assert problems_of(story_dir) == [
        "story.toml: chapters must be an array of [[chapters]] tables"
    ]


def test_inline_chapters_are_checked_without_line_numbers(story_dir):
    toml = story_dir / "story.toml"
    head = toml.read_text(encoding="utf-8").split("[[chapters]]")[0]
    inline = (
        'chapters = [{ title = "One", start = 2017-08-02, end = 2017-08-02, text = "<i>x</i>" }]'
    )
    toml.write_text(inline + "\n" + head, encoding="utf-8")
    assert problems_of(story_dir) == [
        "story.toml:chapter 1 (One): text holds an HTML tag: write plain text (it is shown as"
        " text, not rendered)",
        "story.toml:chapter 1 (One): sources is missing: list the [[sources]] ids the text"
        " rests on",
    ]


def test_overlapping_windows_are_a_warning(story_dir):
    replace(story_dir / "story.toml", "start = 2017-08-27", "start = 2017-08-21")
    story = load_story(story_dir, basemap=None)
    assert len(story.chapters) == 3
    assert (
        "story.toml:chapter 2 (A ceasefire and a speech), line 26: its window overlaps chapter 1's"
        " (2017-08-19..2017-08-21)"
    ) in [str(w) for w in story.warnings]


def test_a_broken_places_file_does_not_add_chapter_problems(story_dir):
    (story_dir / "places.csv").write_text("nonsense\n", encoding="utf-8")
    found = problems_of(story_dir)
    assert not [p for p in found if "chapter" in p], found


def test_validate_prints_chapter_problems(story_dir, capsys):
    replace(story_dir / "story.toml", '"place:baalbek"', '"place:nowhere"')
    assert main(["validate", str(story_dir)]) == 1
    assert f"story.toml:{C2}: select 'place:nowhere'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Plain words, a figure (120 km²) and a dash – fine.", None),
        ("ISIS held < 20 km² and > 10 km².", None),  # comparison signs are not tags
        ("A <b>bold</b> claim.", "an HTML tag"),
        ("<!-- hidden -->", "an HTML tag"),
        ("<img src=x onerror=alert(1)>", "an HTML tag"),
        ("See [the report](https://example.org).", "a Markdown link"),
        ("![map](x.png)", "a Markdown link"),
        ("A **strong** word.", "Markdown bold (** or __)"),
        ("Some `code`.", "a backtick (Markdown code)"),
        ("# Heading", "a Markdown heading"),
        ("Line one\n## Heading", "a Markdown heading"),
        ("#hashtag is not a heading", None),
        ("Square [brackets] alone", None),
    ],
)
def test_markup_in(text, expected):
    assert markup_in(text) == expected


CHAPTERS = (
    chapter(1),
    chapter(2, "2017-08-27", "2017-08-28"),
    chapter(3, "2017-08-30", "2017-08-31"),
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", 1),
        ("3", 3),
        (["2"], 2),
        ("0", None),
        ("4", None),
        ("01", None),
        ("-1", None),
        ("+1", None),
        (" 1", None),
        ("1.0", None),
        ("１", None),  # a full-width digit: int() would take it
        ("1" * 5000, None),
        ("", None),
        (None, None),
        (1, None),
        (["1", "2"], None),
        ([], None),
        ("chapter", None),
    ],
)
def test_chapter_for_url(value, expected):
    found = chapter_for_url(value, CHAPTERS)
    assert (found.number if found else None) == expected


def test_chapter_for_url_without_chapters():
    assert chapter_for_url("1", ()) is None


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Ceasefire", "Ceasefire"),
        ("Exactly twenty-four chr", "Exactly twenty-four chr"),
        ("The convoy stops on the road to Palmyra", "The convoy stops on the…"),
        ("Two offensives, at once and more", "Two offensives, at once…"),
        ("Supercalifragilisticexpialidocious", "Supercalifragilisticexp…"),
        ("  spaced   out  ", "spaced out"),
    ],
)
def test_short_label(title, expected):
    assert short_label(title) == expected
    assert len(short_label(title)) <= 24


def test_chapter_marks_are_first_days_with_numbered_labels():
    story = load_story(MINI_CHAPTERS, basemap=None)
    assert chapter_marks(story.chapters) == [
        (date(2017, 8, 19), "1. An offensive starts"),
        (date(2017, 8, 27), "2. A ceasefire and a speech"),
        (date(2017, 8, 30), "3. The convoy stops on the…"),
    ]
    assert chapter_marks(()) == []


@pytest.fixture(scope="module")
def mini() -> object:
    return load_story(MINI_CHAPTERS, basemap=None)


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        # view.bounds as given
        ({"bounds": ((33.8, 35.4), (35.0, 39.2))}, [[33.8, 35.4], [35.0, 39.2]]),
        # view.places: the box around arsal (34.17944, 36.42083) and crossing (34.2, 36.6),
        # widened to 0.1° of latitude
        ({"fit": ("arsal", "crossing")}, [[34.13972, 36.42083], [34.23972, 36.6]]),
        # one place: 0.1° each way around it
        ({"fit": ("palmyra",)}, [[34.5124, 38.23402], [34.6124, 38.33402]]),
        # selection and the window's event places (e2 at the crossing runs 19-27 Aug)
        ({"select": "place:palmyra"}, [[34.2, 36.6], [34.5624, 38.28402]]),
        # a front: the polygon's box
        ({"select": "front:lb-1"}, "front box"),
        # a convoy position (c2 has its own lat/lon)
        ({"select": "convoy:c2"}, [[34.2, 36.6], [34.4, 37.5]]),
    ],
)
def test_chapter_bounds(mini, kw, expected):
    found = chapter_bounds(mini, chapter(**kw))
    if expected == "front box":
        # The polygon's box, stretched to the crossing (34.2, 36.6) where e2 is.
        ring = mini.fronts.set_index("id").at["lb-1", "geometry"]["coordinates"][0]
        lats, lons = [p[1] for p in ring] + [34.2], [p[0] for p in ring] + [36.6]
        expected = [[min(lats), min(lons)], [max(lats), max(lons)]]
    assert flat(found) == pytest.approx(flat(expected))
    assert all(isinstance(v, float) for v in flat(found))


def flat(box: list[list[float]]) -> list[float]:
    return [v for corner in box for v in corner]


def test_chapter_bounds_leave_out_regions(mini):
    places = mini.places.copy()
    places.loc[places["id"] == "palmyra", "kind"] = "region"
    story = type(mini)(**{**mini.__dict__, "places": places})
    # 30-31 Aug: the strike at Palmyra (now a region) is left out, the rally in Baalbek is in.
    story = type(mini)(**{**story.__dict__, "convoy": mini.convoy.iloc[:0]})
    found = chapter_bounds(story, chapter(start="2017-08-30", end="2017-08-31"))
    assert flat(found) == pytest.approx([33.95583, 36.16806, 34.05583, 36.26806])


def test_chapter_bounds_hold_the_convoy_in_the_window(mini):
    # 30-31 Aug: Baalbek's rally and the convoy at Palmyra (c3, c4) and east of it (c5): the
    # convoy is framed even where its place is a region, as its marker is drawn there.
    places = mini.places.copy()
    places.loc[places["id"] == "palmyra", "kind"] = "region"
    story = type(mini)(**{**mini.__dict__, "places": places})
    found = chapter_bounds(story, chapter(start="2017-08-30", end="2017-08-31"))
    assert flat(found) == pytest.approx([34.00583, 36.21806, 34.7, 38.9])


def test_view_bounds_are_kept_or_widened_to_the_convoy(mini):
    inside = ((33.0, 35.0), (35.0, 40.0))
    assert chapter_bounds(mini, chapter(bounds=inside, start="2017-08-30", end="2017-08-31")) == [
        [33.0, 35.0],
        [35.0, 40.0],
    ]
    # c5 (34.7, 38.9) on 31 Aug lies east of this frame: it is widened to hold it.
    narrow = ((33.9, 36.0), (34.3, 36.8))
    found = chapter_bounds(mini, chapter(bounds=narrow, start="2017-08-31", end="2017-08-31"))
    assert flat(found) == pytest.approx([33.9, 36.0, 34.7, 38.9])


def test_chapter_bounds_without_anything_to_frame(mini):
    assert chapter_bounds(mini, chapter(start="2017-08-05", end="2017-08-06")) is None


BUNDLED_STORY = BUNDLED / "qalamoun-2017"
TURNING_POINTS = [
    date(2017, 8, 19),
    date(2017, 8, 27),
    date(2017, 8, 28),
    date(2017, 8, 30),
    date(2017, 8, 31),
    date(2017, 9, 2),
    date(2017, 9, 13),
]


def test_bundled_story_chapters_load():
    story = load_story(BUNDLED_STORY)
    chapters = story.chapters
    assert 7 <= len(chapters) <= 9
    assert set(TURNING_POINTS) <= {c.start for c in chapters}
    assert not [w for w in story.warnings if "chapter" in w.where]
    # Next through the chapters covers the whole story, day by day, without a gap.
    assert chapters[0].start == story.start
    for a, b in itertools.pairwise(chapters):
        assert (b.start - a.end).days == 1, (a.title, b.title)
    assert chapters[-1].end == story.end
    for c in chapters:
        assert c.select, c.title
        assert chapter_bounds(story, c) is not None, c.title
