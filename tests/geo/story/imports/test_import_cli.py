"""``python -m geo import``: a summary and 0, problems with their lines and 1, bad usage 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from geo.__main__ import main

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"


@pytest.mark.parametrize(
    ("dataset", "name", "events"),
    [("acled", "acled.csv", 12), ("ucdp", "ucdp_ged.csv", 6), ("gdelt", "gdelt_events.tsv", 4)],
)
def test_import_then_validate(dataset, name, events, tmp_path, capsys):
    target = tmp_path / f"{dataset}-story"
    assert main(["import", dataset, str(DATASETS / name), str(target), "--title", "T"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"T  [{dataset}-story]")
    assert f"events      {events} (" in out
    assert f"written to {target}" in out
    assert main(["validate", str(target)]) == 0


def test_gdelt_says_what_it_left_out(tmp_path, capsys):
    assert main(["import", "gdelt", str(DATASETS / "gdelt_events.tsv"), str(tmp_path / "g")]) == 0
    assert "left out   1 row: GDELT could not place it" in capsys.readouterr().out


def test_a_malformed_export_exits_1_with_its_lines(tmp_path, capsys):
    target = tmp_path / "bad"
    assert main(["import", "ucdp", str(DATASETS / "ucdp_bad_rows.csv"), str(target)]) == 1
    err = capsys.readouterr().err
    assert "4 problems in export ucdp_bad_rows.csv; nothing imported" in err
    assert "ucdp_bad_rows.csv:line 5: where_prec 9" in err
    assert not target.exists()


def test_an_existing_folder_exits_1(tmp_path, capsys):
    target = tmp_path / "a"
    assert main(["import", "acled", str(DATASETS / "acled.csv"), str(target)]) == 0
    assert main(["import", "acled", str(DATASETS / "acled.csv"), str(target)]) == 1
    assert "not written: a story named 'a' already exists" in capsys.readouterr().err
    assert main(["import", "acled", str(DATASETS / "acled.csv"), str(target), "--replace"]) == 0


@pytest.mark.parametrize("argv", [["import"], ["import", "kepler", "x", "y"], ["import", "acled"]])
def test_bad_usage_exits_2(argv, capsys):
    assert main(argv) == 2
    assert "usage: python -m geo import" in capsys.readouterr().err


def test_a_missing_file(tmp_path, capsys):
    assert main(["import", "acled", str(tmp_path / "none.csv"), str(tmp_path / "s")]) == 1
    assert "none.csv: cannot be read: No such file or directory" in capsys.readouterr().err
