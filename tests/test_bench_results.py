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


def _figs(idle_1m: float, filter_10m: float) -> dict:
    page = {"memory": {"rss_mb": 300.0, "peak_mb": 310.0}, "cold_open": 2.0}
    return {
        "pages": {
            "1m": {**page, "idle": idle_1m},
            "10m": {**page, "idle": 0.34, "filter": filter_10m},
        },
        "cache_build_s": {"10m": 139.0},
        "cache_build_peak_mb": {"10m": 1457.0},
    }


@pytest.mark.parametrize(
    ("idle_1m", "filter_10m", "missed"),
    [
        pytest.param(0.29, 0.45, [], id="all-met"),
        pytest.param(0.307, 0.45, ["1M: slider"], id="1m-slider-missed"),
        pytest.param(0.29, 0.694, ["fatalities"], id="filter-missed"),
    ],
)
def test_issue28_targets_say_met_or_missed(idle_1m, filter_10m, missed):
    from bench.big_stories import targets_table

    acled = {"total": 26.4}
    rows = targets_table(_figs(idle_1m, filter_10m), acled).splitlines()[2:]
    assert len(rows) == 9
    assert [r for r in rows if r.endswith("**missed** |")] == [
        r for r in rows if any(r.startswith(f"| {m}") for m in missed)
    ]
    assert sum(r.endswith("| met |") for r in rows) == 9 - len(missed)
