"""bench/results.md is shared: a script's run replaces only its own part."""

from __future__ import annotations

import pytest

from bench.results import put_part, replace_part

RUN = "<!-- bench/run.py: start -->\nold run\n<!-- bench/run.py: end -->"
HAND = "## Issue 23\n\nwritten by hand"
CHART = "<!-- bench/chart_cost.py: start -->\nold chart\n<!-- bench/chart_cost.py: end -->"


@pytest.mark.parametrize(
    ("text", "owner", "first", "want"),
    [
        pytest.param(
            f"# Benchmark results\n\n{RUN}\n\n{HAND}\n\n{CHART}\n",
            "bench/run.py",
            True,
            f"# Benchmark results\n\n{RUN.replace('old run', 'new')}\n\n{HAND}\n\n{CHART}\n",
            id="own-part-replaced-others-kept",
        ),
        pytest.param(
            f"# Benchmark results\n\n{HAND}\n",
            "bench/run.py",
            True,
            f"# Benchmark results\n\n{RUN.replace('old run', 'new')}\n\n{HAND}\n",
            id="new-first-part-under-the-title",
        ),
        pytest.param(
            f"# Benchmark results\n\n{HAND}\n",
            "bench/chart_cost.py",
            False,
            f"# Benchmark results\n\n{HAND}\n\n{CHART.replace('old chart', 'new')}\n",
            id="new-part-at-the-end",
        ),
        pytest.param(
            f"# Benchmark results\n\n{CHART}\n\n{RUN}\n",
            "bench/chart_cost.py",
            False,
            f"# Benchmark results\n\n{CHART.replace('old chart', 'new')}\n\n{RUN}\n",
            id="part-anywhere",
        ),
    ],
)
def test_replace_part(text, owner, first, want):
    assert replace_part(text, owner, "new\n", first=first) == want


def test_put_part_writes_the_file_keeping_the_rest(tmp_path):
    path = tmp_path / "results.md"
    path.write_text(f"# Benchmark results\n\n{HAND}\n", encoding="utf-8")
    put_part("bench/run.py", "one", first=True, path=path)
    put_part("bench/run.py", "two", first=True, path=path)
    text = path.read_text(encoding="utf-8")
    assert text.count("bench/run.py: start") == 1 and "two" in text and "one" not in text
    assert HAND in text
