"""Names passed over: capitalised names the place finder looked at and let go, with why."""

from __future__ import annotations

import json
import string
import time
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.__main__ import main
from geo.extract import MAX_PASSED_OVER, Extraction, extract
from geo.extract.actors import find_actors
from geo.extract.places import PASSED_OVER_REASONS, PassedOver, find_places
from geo.extract.sentences import split_sentences
from geo.extract.textclean import to_plain_text
from geo.geocoders.gazetteer import Gazetteer

ROOT = Path(__file__).resolve().parents[3]
ARTICLES = ROOT / "tests" / "fixtures" / "articles"
PUBLISHED = date(2016, 11, 1)
# Seconds the 100,000-name article may take even on a busy machine (about 5 s here).
BOUND_S = 60.0


@pytest.fixture(scope="module")
def gazetteer(gazetteer_cache: Path) -> Gazetteer:
    """GeoNames alone, as ``extract`` uses by default: Bazwaya and Hasansham are not in it."""
    return Gazetteer.load(cache_dir=gazetteer_cache)


def _shown(ex: Extraction) -> list[tuple[int, int]]:
    """Spans the extraction shows already: places, place actors, dates, figures."""
    spans = [p.span for p in (*ex.places, *ex.place_actors) if p.span is not None]
    return spans + [d.span for d in ex.dates] + [f.span for f in ex.figures]


# Text, name, and what becomes of it: a reason it was passed over, or "unplaced" (a place
# mention with no point, for the editor to pin) when a word around it says place.
CASES = [
    ("Families walked from Bazwaya to the camps east of Mosul, Iraq.", "Bazwaya", "unknown"),
    ("Aid trucks reached the camp at Hasansham, east of Mosul, Iraq.", "Hasansham", "unknown"),
    ("Fighting was reported in Bazwaya, east of Mosul, Iraq.", "Bazwaya", "unplaced"),
    ("Shelling hit Hasansham near Mosul, Iraq.", "Hasansham", "unplaced"),
    ("The convoy left Hammam al-Alil for Mosul, Iraq.", "Hammam al-Alil", "unknown"),
    ("Troops met Mr Kovacs near Mosul, Iraq.", "Kovacs", "person"),
    ("Fighters of Hezbollah moved near Arsal, Lebanon.", "Hezbollah", "armed-group"),
    ("He praised Gotham and spoke in Mosul, Iraq.", "Gotham", "unsupported"),
]


@pytest.mark.parametrize(("text", "name", "fate"), CASES, ids=[c[1] + "-" + c[2] for c in CASES])
def test_what_becomes_of_a_name(gazetteer: Gazetteer, text: str, name: str, fate: str) -> None:
    ex = extract(text, PUBLISHED, gazetteer=gazetteer)
    passed = [(p.text, p.reason) for p in ex.passed_over]
    unplaced = [p.text for p in ex.places if not p.placed]
    if fate == "unplaced":
        assert name in unplaced
        assert name not in [t for t, _ in passed]
    else:
        assert (name, fate) in passed
        assert name not in unplaced


TEXTS = [
    "On Monday, in August, The army said in March that May was calm in Mosul, unlike Bazwaya. "
    "January passed.",
    "The Peshmerga held Bashiqa on Tuesday. Residents said 300 families fled to Hasansham.",
    "BEIRA — Hundreds of thousands of people in Mozambique need food, Mr Chivambo of the WHO "
    "said on Friday.",
    "# Fighting near Mosul\n\nIraqi forces advanced from Bazwaya on *Monday*; Tel Keppe fell.",
    "<p>Families fled <b>Hammam al-Alil</b> for Mosul, Human Rights Watch said.</p>",
]
ORDINARY = {"The", "On", "Monday", "Tuesday", "Friday", "Residents", "Hundreds", "January",
            "March", "May", "August"}  # fmt: skip


@pytest.mark.parametrize("text", TEXTS)
def test_records_point_into_the_text(gazetteer: Gazetteer, text: str) -> None:
    ex = extract(text, PUBLISHED, gazetteer=gazetteer)
    assert ex.passed_over, "each text names something the finder lets go"
    shown = _shown(ex)
    previous_end = -1
    for p in ex.passed_over:
        assert isinstance(p, PassedOver)
        assert 0 <= p.start < p.end <= len(ex.text)
        assert ex.text[p.start : p.end] == p.text
        assert p.text[:1].isupper() or p.text[:3] in ("al-", "el-", "as-")
        assert p.start >= previous_end  # in text order, no two overlapping
        previous_end = p.end
        assert not any(s < p.end and p.start < e for s, e in shown)
        assert p.reason in PASSED_OVER_REASONS or p.reason in ("armed-group", "organisation")
        assert not set(p.text.split()) & ORDINARY


@pytest.mark.parametrize(
    "path", sorted(p for p in ARTICLES.iterdir() if p.suffix in (".txt", ".md", ".html")),
    ids=lambda p: p.name,
)  # fmt: skip
def test_asking_for_them_changes_no_place(gazetteer: Gazetteer, path: Path) -> None:
    fmt = {".txt": "text", ".md": "markdown", ".html": "html"}[path.suffix]
    plain = to_plain_text(path.read_text("utf-8"), fmt)  # type: ignore[arg-type]
    sentences = split_sentences(plain)
    actors = find_actors(plain, sentences)
    passed: list[PassedOver] = []
    asked = find_places(plain, sentences, gazetteer, actors, passed_over=passed)
    assert asked == find_places(plain, sentences, gazetteer, actors)
    assert all(plain[p.start : p.end] == p.text for p in passed)


def _name(i: int) -> str:
    """A made-up capitalised word no gazetteer has ("Zqbaaa")."""
    letters = ""
    for _ in range(4):
        letters += string.ascii_lowercase[i % 26]
        i //= 26
    return "Zq" + letters


@pytest.mark.slow
@pytest.mark.parametrize("joint", [", ", " and "])
def test_hostile_article_stays_bounded(gazetteer: Gazetteer, joint: str) -> None:
    text = "Fighting near Mosul, Iraq. " + joint.join(_name(i) for i in range(100_000)) + "."
    started = time.perf_counter()
    ex = extract(text, PUBLISHED, gazetteer=gazetteer)
    assert time.perf_counter() - started < BOUND_S
    # Every listed name is passed over (the first opens a sentence): the list stops at the cap.
    assert len(ex.passed_over) == MAX_PASSED_OVER
    assert ex.passed_over[0].text == _name(1)


def test_cli_json_has_them(gazetteer_cache: Path, tmp_path: Path, capsys) -> None:
    article = tmp_path / "a.txt"
    article.write_text("Families walked from Bazwaya to Mosul, Iraq.", encoding="utf-8")
    argv = [str(article), "--date", "2016-11-01", "--cache-dir", str(gazetteer_cache)]
    code = main(["extract", *argv])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed_over"] == [{"text": "Bazwaya", "start": 21, "end": 28, "reason": "unknown"}]
    # The other keys are those of to_dict, as before.
    ex = extract(article.read_text("utf-8"), PUBLISHED, gazetteer=Gazetteer.load(
        cache_dir=gazetteer_cache))  # fmt: skip
    assert set(out) - {"passed_over"} == set(ex.to_dict())
    assert "passed_over" not in ex.to_dict()


def test_story_places_are_no_rejects(gazetteer_cache: Path) -> None:
    # A name the editor added as a place is placed next time, and passed over no longer.
    story = pd.DataFrame([{"id": "bazwaya", "name": "Bazwaya", "lat": "36.33", "lon": "43.24"}])
    text = "Families walked from Bazwaya to Mosul, Iraq."
    with_story = Gazetteer.load(story, cache_dir=gazetteer_cache)
    ex = extract(text, PUBLISHED, gazetteer=with_story)
    assert next(p.text for p in ex.places if p.placed) == "Bazwaya"
    assert "Bazwaya" not in [p.text for p in ex.passed_over]
