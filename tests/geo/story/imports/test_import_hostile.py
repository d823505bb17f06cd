"""Hostile and malformed exports: refused with file and line, within bounds, nothing written."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from geo.story.imports import ExportError, acled, import_export
from geo.story.imports.base import Bounds
from geo.story.storage import StoryExistsError

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"
GOOD = (DATASETS / "acled.csv").read_text(encoding="utf-8")


def refused(dataset: str, source, tmp_path: Path, **kw) -> list[str]:
    """The problems of an export that must be refused; checks that nothing was written."""
    target = tmp_path / "stories" / "imported"
    with pytest.raises(ExportError) as info:
        import_export(dataset, source, target, **kw)
    assert not target.exists()
    assert not (tmp_path / "stories").exists() or not any((tmp_path / "stories").iterdir())
    assert "nothing imported" in str(info.value)
    return [str(p) for p in info.value.problems]


def acled_text(rows: int, edit=None) -> bytes:
    """An ACLED export of ``rows`` copies of the fixture's first row, ids made unique."""
    header, first = list(csv.reader(io.StringIO(GOOD)))[:2]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for n in range(rows):
        row = first[:]
        row[0] = f"SYR{n:07d}"
        if edit:
            edit(n, row)
        writer.writerow(row)
    return out.getvalue().encode("utf-8")


@pytest.mark.parametrize(
    ("dataset", "name", "expected"),
    [
        (
            "acled",
            "acled_wrong_header.csv",
            ["acled_wrong_header.csv:line 1: is not ACLED's layout"],
        ),
        ("acled", "acled_bad_date.csv", ["acled_bad_date.csv:line 4: event_date '2023-02-30'"]),
        ("acled", "acled_lat_out_of_range.csv", ["line 6: latitude 135.5 is outside -90..90"]),
        ("acled", "acled_huge_field.csv", ["line 3: cannot be read as CSV: a field is longer"]),
        ("acled", "acled_wrong_column_count.csv", ["line 5: has 29 fields; expected 31"]),
        ("acled", "acled_latin1.csv", ["acled_latin1.csv:line 9: is not UTF-8 text: byte 0xfc"]),
        ("ucdp", "ucdp_wrong_header.csv", ["line 1: is not UCDP GED's layout (missing"]),
        (
            "ucdp",
            "ucdp_bad_rows.csv",
            [
                "line 3: date_end 2017-08-01 is before date_start 2017-08-20",
                "line 4: deaths: low 4, best 99, high 4 are not in order",
                "line 4: deaths_a + deaths_b + deaths_civilians + deaths_unknown = 4",
                "line 5: where_prec 9 is not between 1 and 7",
            ],
        ),
        ("gdelt", "gdelt_with_header.tsv", ["line 1: starts with a header line"]),
        (
            "gdelt",
            "gdelt_bad_rows.tsv",
            [
                "line 1: EventRootCode '21' is not a CAMEO root code",
                "line 3: ActionGeo_Lat -95 is outside -90..90",
                "line 5: has 58 fields; expected 61",
            ],
        ),
    ],
)
def test_malformed_fixtures_are_refused_with_their_line(dataset, name, expected, tmp_path):
    problems = refused(dataset, DATASETS / name, tmp_path)
    assert len(problems) == len(expected)
    for problem, text in zip(problems, expected, strict=True):
        assert text in problem


def test_every_bad_row_is_reported_not_only_the_first(tmp_path):
    def edit(n, row):
        if n in (3, 7):
            row[acled.COLUMNS.index("fatalities")] = "many"
        if n == 7:
            row[acled.COLUMNS.index("geo_precision")] = "4"

    problems = refused("acled", acled_text(10, edit), tmp_path, name="x.csv")
    assert problems == [
        "x.csv:line 5: fatalities 'many' is not a whole number",
        "x.csv:line 9: geo_precision 4 is not between 1 and 3",
        "x.csv:line 9: fatalities 'many' is not a whole number",
    ]


def test_problems_are_capped_with_a_count_of_the_rest(tmp_path):
    def edit(_n, row):
        row[acled.COLUMNS.index("latitude")] = "north"

    problems = refused("acled", acled_text(500, edit), tmp_path, name="x.csv")
    assert len(problems) == 201
    assert problems[-1] == "x.csv: ... and 300 more problems"


def test_a_quoted_field_over_several_lines_counts_from_its_first_line(tmp_path):
    def edit(n, row):
        if n == 1:
            row[acled.COLUMNS.index("notes")] = "one\ntwo\nthree"
        if n == 2:
            row[acled.COLUMNS.index("year")] = "1999"

    problems = refused("acled", acled_text(3, edit), tmp_path, name="x.csv")
    assert problems == ["x.csv:line 6: year 1999 is not event_date's year (2023)"]


@pytest.mark.parametrize(
    ("bounds", "rows", "expected"),
    [
        (Bounds(max_bytes=1_000), 10, "x.csv: is larger than 0.001 MB"),
        (Bounds(max_rows=5), 10, "x.csv: has more than 5 rows; split the export"),
        (Bounds(max_seconds=0.0), 1_500, "x.csv:line 1000: took more than 0 s to read"),
    ],
)
def test_bounds_are_checked_while_reading(bounds, rows, expected, tmp_path):
    problems = refused("acled", acled_text(rows), tmp_path, name="x.csv", bounds=bounds)
    assert problems[0].startswith(expected)


def test_a_big_file_is_refused_from_its_size_before_reading(tmp_path):
    big = tmp_path / "big.csv"
    with open(big, "wb") as fh:
        fh.truncate(2_000)  # sparse: nothing to read, only a size
    problems = refused("acled", big, tmp_path, bounds=Bounds(max_bytes=1_000))
    assert problems == ["big.csv: is larger than 0.001 MB; split the export (by date or country)"]


def test_field_size_limit_is_restored():
    before = csv.field_size_limit()
    with pytest.raises(ExportError):
        import_export("acled", DATASETS / "acled_huge_field.csv", Path("/nonexistent/x"))
    assert csv.field_size_limit() == before


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "x.csv: is empty"),
        (GOOD.splitlines()[0].encode() + b"\n", "x.csv: has no event to import"),
        (GOOD.encode().replace(b"Ariha", b"Ari\x00ha", 1), "x.csv:line 2: holds a NUL byte"),
        (b"\xff\xfe" + "a,b".encode("utf-16-le"), "x.csv:line 1: is not UTF-8 text"),
    ],
)
def test_empty_binary_and_other_encodings(data, expected, tmp_path):
    problems = refused("acled", data, tmp_path, name="x.csv")
    assert problems[0].startswith(expected)


def test_a_duplicate_event_id_is_refused(tmp_path):
    def edit(n, row):
        row[0] = "SYR1" if n in (0, 2) else row[0]

    problems = refused("acled", acled_text(3, edit), tmp_path, name="x.csv")
    assert problems == ["x.csv:line 4: event id 'SYR1' is used twice (first on line 2)"]


def test_more_than_twenty_years_is_refused(tmp_path):
    def edit(n, row):
        if n == 1:
            row[1], row[2] = "1990-01-01", "1990"

    problems = refused("acled", acled_text(2, edit), tmp_path, name="x.csv")
    assert problems == [
        "x.csv: covers 12,117 days (1990-01-01..2023-03-05); a story covers at most 20 years"
    ]


def test_an_unknown_event_type_is_refused(tmp_path):
    def edit(_n, row):
        row[acled.COLUMNS.index("sub_event_type")] = "<script>"

    problems = refused("acled", acled_text(1, edit), tmp_path, name="x.csv")
    assert "sub_event_type '<script>' is not in ACLED's codebook" in problems[0]


def test_a_place_outside_its_country_is_refused_at_its_line(tmp_path):
    def edit(n, row):
        if n == 1:  # Beirut's point, said to be in Syria with a town's radius
            row[acled.COLUMNS.index("latitude")] = "33.8933"
            row[acled.COLUMNS.index("longitude")] = "35.5016"
            row[acled.COLUMNS.index("location")] = "Somewhere"

    problems = refused("acled", acled_text(2, edit), tmp_path, name="x.csv")
    assert len(problems) == 1
    assert problems[0].startswith("x.csv:line 3: Somewhere (33.8933, 35.5016) lies")
    assert "outside SY, more than its radius of 3 km" in problems[0]


def test_text_is_kept_as_text(tmp_path):
    def edit(_n, row):
        row[acled.COLUMNS.index("notes")] = '=HYPERLINK("x") <img src=x onerror=alert(1)> **b**'

    result = import_export("acled", acled_text(1, edit), tmp_path / "s" / "t", name="x.csv")
    assert result.story.events.iloc[0]["summary"].startswith("=HYPERLINK")


def test_an_existing_story_is_not_replaced_unless_asked(tmp_path):
    target = tmp_path / "s" / "t"
    import_export("acled", DATASETS / "acled.csv", target)
    with pytest.raises(StoryExistsError):
        import_export("acled", DATASETS / "acled.csv", target)
    result = import_export("acled", acled_text(2), target, name="x.csv", replace=True)
    assert len(result.story.events) == 2


def test_the_folder_name_must_be_an_id(tmp_path):
    with pytest.raises(ExportError, match="must be lowercase letters"):
        import_export("acled", DATASETS / "acled.csv", tmp_path / "Not An Id")


@pytest.mark.parametrize(
    ("notes", "summary"),
    [
        ("   ", "Armed clash in Ariha."),
        ("\u202e\u2066", "The export gives no description."),
        ("two\nlines", "two lines"),
    ],
)
def test_a_summary_is_never_empty(notes, summary, tmp_path):
    def edit(_n, row):
        row[acled.COLUMNS.index("notes")] = notes

    result = import_export("acled", acled_text(1, edit), tmp_path / "s" / "t", name="x.csv")
    assert result.story.events.iloc[0]["summary"] == summary
