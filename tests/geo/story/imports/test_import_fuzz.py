"""Fuzz: almost-right exports (a fixture with bytes replaced, cells changed, lines dropped or
repeated) either import or are refused with located problems; never another exception, and
never a story folder left behind on a refusal."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from geo.story.imports import ExportError, import_export
from tests.fuzz import scaled

DATASETS = Path(__file__).resolve().parents[3] / "fixtures" / "datasets"
FILES = {"acled": "acled.csv", "ucdp": "ucdp_ged.csv", "gdelt": "gdelt_events.tsv"}
HOSTILE = [
    b"",
    b"\x00",
    b"\xff",
    b'"',
    b"\n",
    b"\r",
    b",",
    b"\t",
    b"nan",
    b"inf",
    b"-1",
    b"99999999999999999999",
    b"1e400",
    "\u202e".encode(),
    b"<script>",
    b"=cmd|' /C calc'!A0",
    b"x" * 30_000,
]


@st.composite
def almost_right(draw) -> tuple[str, bytes]:
    dataset = draw(st.sampled_from(sorted(FILES)))
    lines = (DATASETS / FILES[dataset]).read_bytes().splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["replace", "cell", "drop", "repeat"]))
        line = lines[n]
        if action == "replace":
            at = draw(st.integers(0, max(0, len(line) - 1)))
            lines[n] = line[:at] + draw(st.sampled_from(HOSTILE)) + line[at + 1 :]
        elif action == "cell":
            sep = b"\t" if dataset == "gdelt" else b","
            cells = line.rstrip(b"\n").split(sep)
            cells[draw(st.integers(0, len(cells) - 1))] = draw(
                st.sampled_from(HOSTILE) | st.binary(max_size=20)
            )
            lines[n] = sep.join(cells) + b"\n"
        elif action == "drop" and len(lines) > 1:
            del lines[n]
        else:
            lines.insert(n, line)
    return dataset, b"".join(lines)


@settings(max_examples=scaled(40), deadline=None)
@given(almost_right())
def test_almost_right_exports_import_or_are_refused_with_lines(tmp_path_factory, case):
    dataset, data = case
    root = tmp_path_factory.mktemp("fuzz")
    try:
        result = import_export(dataset, data, root / "s", name="x")
    except ExportError as exc:
        assert exc.problems
        assert all(p.file for p in exc.problems)
        assert not (root / "s").exists()
    else:
        assert len(result.story.events) >= 1
