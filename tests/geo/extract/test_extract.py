"""Tests for geo.extract: the public API, the CLI and the fixture articles (real GeoNames)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geo.__main__ import main
from geo.extract import extract
from geo.geocoders.gazetteer import Gazetteer
from geo.names import normalize

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
ARTICLES = FIXTURES / "articles"
KEYS = sorted(ARTICLES.glob("*.key.json"))
PLACE_FILES = [FIXTURES / "places.csv", FIXTURES / "extract_places.csv"]


def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GeoNames index per session, shared with the gazetteer's tests."""
    env = os.environ.get("DATELINE_CACHE_DIR")
    return Path(env) if env else tmp_path_factory.getbasetemp() / "dateline-cache"


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory: pytest.TempPathFactory) -> Gazetteer:
    frames = [pd.read_csv(p, dtype=str, keep_default_na=False) for p in PLACE_FILES]
    return Gazetteer.load(
        pd.concat(frames, ignore_index=True), cache_dir=cache_dir(tmp_path_factory)
    )


@pytest.fixture(scope="module")
def bench():
    """The quality script's matching code, so tests and bench score the same way."""
    spec = importlib.util.spec_from_file_location(
        "extract_quality", ROOT / "bench" / "extract_quality.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up in sys.modules while being created.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- API ---------------------------------------------------------------------------------------

WIRE = (
    "BEIRUT (Reuters) - Buses carrying 308 militants left the Lebanon-Syria border region on "
    "Monday, heading for eastern Syria.\n\n"
    "Sayyed Hassan Nasrallah said the group would hold celebrations on Thursday in Baalbek.\n\n"
    "Eleven Hezbollah fighters and seven Syrian soldiers were killed in western Qalamoun, he said."
)


def test_extract_wire_report(gazetteer: Gazetteer) -> None:
    result = extract(WIRE, date(2017, 8, 28), gazetteer=gazetteer)
    assert result.dateline is not None and result.dateline.agency == "Reuters"
    names = [p.name for p in result.places]
    assert names == [
        "Beirut",
        "Lebanon–Syria border region",
        "eastern Syria",
        "Baalbek",
        "western Qalamoun",
    ]
    assert not {"Hassan", "Nasrallah"} & {p.text for p in result.places}
    assert [(d.text, d.date) for d in result.dates] == [
        ("Monday", date(2017, 8, 28)),
        ("Thursday", date(2017, 8, 31)),
    ]
    assert [(f.value, f.what, f.killed) for f in result.figures] == [
        (308, "militants", False),
        (11, "fighters", True),
        (7, "soldiers", True),
    ]
    assert {a.name for a in result.actors} == {"Hezbollah", "Syrian Army"}
    assert [(e.date, e.place.name, e.category) for e in result.events] == [
        (date(2017, 8, 28), "Lebanon–Syria border region", "convoy"),
        (date(2017, 8, 31), "Baalbek", "celebration"),
        (date(2017, 8, 28), "western Qalamoun", "casualties"),
    ]


def test_spans_point_into_the_plain_text(gazetteer: Gazetteer) -> None:
    result = extract("<p>Fighters left <b>Arsal</b> on Sunday.</p>", date(2017, 8, 28),
                     gazetteer=gazetteer)  # fmt: skip
    assert result.text == "Fighters left Arsal on Sunday."
    (place,) = result.places
    assert result.text[place.start : place.end] == "Arsal"
    (day,) = result.dates
    assert result.text[day.start : day.end] == "Sunday"


def test_dateline_argument(gazetteer: Gazetteer) -> None:
    result = extract("Fighters left Arsal.", date(2017, 8, 28), dateline="Beirut",
                     gazetteer=gazetteer)  # fmt: skip
    first = result.places[0]
    assert (first.name, first.via, first.span) == ("Beirut", "dateline", None)


def test_to_dict_round_trips_through_json(gazetteer: Gazetteer) -> None:
    record = extract(WIRE, date(2017, 8, 28), gazetteer=gazetteer).to_dict()
    again = json.loads(json.dumps(record))
    assert set(again) == {"published", "dateline", "places", "place_actors", "dates", "figures",
                          "actors", "events", "text"}  # fmt: skip
    place = again["places"][1]
    assert {"name", "span", "sentence", "lat", "lon", "radius_m", "country", "candidates"} <= set(
        place
    )
    assert again["events"][0]["needs_rewrite"] is True


def test_thousand_words_well_under_a_second(gazetteer: Gazetteer) -> None:
    words: list[str] = []
    while len(words) < 1000:
        for key in KEYS:
            words += _article(key).read_text("utf-8").split()
    text = " ".join(words[:1000])
    extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    start = time.perf_counter()
    extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    assert time.perf_counter() - start < 1.0


# -- fixture articles ---------------------------------------------------------------------------


def _article(key: Path) -> Path:
    stem = key.name.removesuffix(".key.json")
    return next(p for p in ARTICLES.glob(stem + ".*") if not p.name.endswith(".key.json"))


@pytest.mark.parametrize("key_path", KEYS, ids=lambda p: p.name.removesuffix(".key.json"))
def test_fixture_article_has_no_trap_place(gazetteer: Gazetteer, key_path: Path) -> None:
    key = json.loads(key_path.read_text("utf-8"))
    result = extract(_article(key_path).read_text("utf-8"), date.fromisoformat(key["published"]),
                     gazetteer=gazetteer, fmt=key.get("format"))  # fmt: skip
    traps = {normalize(t) for t in key.get("not_places", [])}
    assert [p.text for p in result.places if normalize(p.text) in traps] == []


def test_fixture_articles_overall_quality(gazetteer: Gazetteer, bench) -> None:
    scores = [bench.score_article(k, gazetteer) for k in KEYS]
    place_p = sum(s.place_right for s in scores) / sum(s.place_found for s in scores)
    place_r = sum(s.place_hit for s in scores) / sum(s.place_key for s in scores)
    date_p = sum(s.date_right for s in scores) / sum(s.date_found for s in scores)
    date_r = sum(s.date_right for s in scores) / sum(s.date_key for s in scores)
    assert min(place_p, place_r, date_p, date_r) >= 0.85, bench.table(scores)


def test_fixture_keys_are_well_formed() -> None:
    assert len(KEYS) >= 5
    for key_path in KEYS:
        key = json.loads(key_path.read_text("utf-8"))
        date.fromisoformat(key["published"])
        assert key["places"] and key["dates"], key_path.name
        for place in key["places"]:
            assert -90 <= place["lat"] <= 90 and -180 <= place["lon"] <= 180
        assert _article(key_path).exists()


# -- CLI ------------------------------------------------------------------------------------------


def test_cli_prints_json(tmp_path_factory, tmp_path: Path, capsys) -> None:
    article = tmp_path / "a.txt"
    article.write_text(WIRE, "utf-8")
    code = main(["extract", str(article), "--date", "2017-08-28", "--story",
                        str(FIXTURES / "extract_places.csv"), "--cache-dir",
                        str(cache_dir(tmp_path_factory)), "--no-text"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert "text" not in out
    assert [p["name"] for p in out["places"]][:2] == ["Beirut", "Lebanon–Syria border region"]
    assert out["dates"][1]["date"] == "2017-08-31"
    assert out["events"][0]["category"] == "convoy"


def test_cli_reads_html_by_suffix(tmp_path_factory, tmp_path: Path, capsys) -> None:
    page = tmp_path / "a.html"
    page.write_text("<html><body><script>Paris</script><p>Rain in Karachi.</p></body></html>")
    code = main(["extract", str(page), "--date", "2022-08-30", "--cache-dir",
                        str(cache_dir(tmp_path_factory))])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["text"] == "Rain in Karachi."
    assert [p["name"] for p in out["places"]] == ["Karachi"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.txt", "--date", "2017-08-28"], "error:"),
        (["{article}", "--date", "28/08/2017"], "YYYY-MM-DD"),
    ],
)
def test_cli_errors(tmp_path: Path, capsys, args: list[str], message: str) -> None:
    article = tmp_path / "a.txt"
    article.write_text("Text.", "utf-8")
    argv = [a.replace("{article}", str(article)) for a in args]
    if argv[0] == "missing.txt":
        argv[0] = str(tmp_path / "missing.txt")
    assert main(["extract", *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_usage_error(capsys) -> None:
    assert main(["extract"]) == 2
    assert "usage" in capsys.readouterr().err


# -- robustness ---------------------------------------------------------------------------------

_WORDS = st.sampled_from(
    ["Beirut", "BEIRUT", "–", "(Reuters)", "-", "Hassan", "said", "on", "Monday", "in", "the",
     "Lebanon-Syria", "border", "eastern", "Syria", "308", "militants", "killed", ".", ",", "\n\n",
     "al-Qaa", "Aug.", "28", "’s", "“", "”", "<p>", "</p>", "**", "Thursday", "will", "Of",
     "Police", "Paris", "Texas", "twenty-five", "since", "2014", "a", "week-long"]
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(_WORDS, max_size=40).map(" ".join))
def test_extract_never_fails_and_spans_fit(gazetteer: Gazetteer, text: str) -> None:
    result = extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    for item in [*result.places, *result.dates, *result.figures, *result.actors]:
        if item.start is not None:
            assert 0 <= item.start < item.end <= len(result.text)
    json.dumps(result.to_dict())


@pytest.mark.parametrize("text", ["", "   \n\n ", "BEIRUT –", "<html></html>", "**"])
def test_extract_degenerate_input(gazetteer: Gazetteer, text: str) -> None:
    result = extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    assert result.events == [] and result.figures == []
