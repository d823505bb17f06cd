"""Tests for geo.extract.combine: a further report folded into a story's draft tables."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from geo.extract import extract
from geo.extract.combine import add_report, source_id
from geo.extract.draft import PLACE_TABLE, draft_events, draft_places
from geo.geocoders.gazetteer import Gazetteer
from geo.story import checks
from geo.story.load import FIGURES
from tests.helpers import FIXTURES

DAY = date(2017, 8, 1)
FIRST = {"id": "article", "publication": "Border Wire", "date": DAY, "url": ""}
SECOND = {"id": "article", "publication": "Valley Courier", "date": DAY, "url": ""}
# Arsal and Ras Baalbek are 9 km apart; Zamrani crossing lies 9 km from Arsal.
ARSAL = (34.17944, 36.42083)
RAS_BAALBEK = (34.25972, 36.42361)
FAR = (34.5, 36.42083)  # 36 km north of Arsal


def place(key, name, point=None, *, pid=None, aliases="", radius_m=3000, keep=True, mentions=1):
    lat, lon = point or (None, None)
    return {
        "_key": key, "keep": keep, "id": pid or key, "name": name, "aliases": aliases,
        "kind": "town", "country": "LB", "lat": lat, "lon": lon, "radius_m": radius_m,
        "mentions": mentions,
    }  # fmt: skip


def places(*rows) -> pd.DataFrame:
    df = pd.DataFrame(list(rows), columns=[*PLACE_TABLE, "_key"]).set_index("_key")
    return df.astype({"lat": "float64", "lon": "float64"})


def event(place_id, category="shelling", day=DAY, *, end=None, keep=True, source="", **figures):
    return {
        "keep": keep, "date": day, "end_date": end, "place": place_id, "category": category,
        "actors": "", "summary": "s", **{c: figures.get(c) for c in FIGURES},
        "confidence": "reported", "confidence_note": "", "source": source, "sentence": "s",
    }  # fmt: skip


def events(*rows) -> pd.DataFrame:
    columns = list(event("x"))
    df = pd.DataFrame(list(rows), columns=columns)
    return df.astype({c: "Int64" for c in FIGURES})


STORY_PLACES = places(
    place("arsal", "Arsal", ARSAL),
    place("ras-baalbek", "Ras Baalbek", RAS_BAALBEK),
    place("gn:1", "Tripoli", (34.43, 35.84), pid="tripoli"),
    place("Hermel", "Hermel", None, keep=False),
)


@pytest.mark.parametrize(
    ("new", "story_id", "matched"),
    [
        pytest.param(place("arsal", "Ersal", ARSAL, pid="ersal"), "arsal", True, id="same-key"),
        pytest.param(place("x", "ARSAL", ARSAL), "arsal", True, id="name-case"),
        pytest.param(place("x", "Arsal", FAR, pid="x"), "x", False, id="name-36km"),
        pytest.param(
            place("x", "Arsal", FAR, radius_m=50_000), "arsal", True, id="name-36km-wide-area"
        ),
        pytest.param(place("x", "ʿArsāl", None), "arsal", True, id="diacritics-unplaced"),
        pytest.param(place("x", "Irsal", ARSAL, aliases="Arsal"), "arsal", True, id="alias"),
        pytest.param(place("x", "Arsal town", ARSAL), "arsal", True, id="type-word-near"),
        pytest.param(
            place("x", "Arsal town", FAR, pid="arsal-town"), "arsal-town", False, id="type-word-far"
        ),
        pytest.param(place("x", "Fakiha", ARSAL, pid="arsal"), "arsal-2", False, id="id-taken"),
        pytest.param(
            place("gn:2", "Tripoli", (32.89, 13.19), pid="tripoli"),
            "tripoli-2",
            False,
            id="namesake-abroad",
        ),
        pytest.param(
            place("x", "Ras Baalbek", (34.26, 36.42)), "ras-baalbek", True, id="not-the-nearest"
        ),
        pytest.param(place("Hermel", "Hermel", (34.39, 36.38)), "Hermel", True, id="gets-point"),
    ],
)
def test_places_match(new, story_id, matched):
    new_places = places(new)
    new_events = events(event(new["id"], category="protest"))
    out, ev, _, notes = add_report(STORY_PLACES, events(), [FIRST], new_places, new_events, SECOND)
    assert ev["place"].tolist() == [story_id]
    assert len(out) == len(STORY_PLACES) + (not matched)
    assert out["id"].is_unique and story_id in set(out["id"])
    assert notes[1] == (
        "1 place matched the story's, 0 added."
        if matched
        else "0 places matched the story's, 1 added."
    )
    if matched:
        row = out[out["id"] == story_id].iloc[0]
        assert row["mentions"] == 2
        assert pd.notna(row["lat"])  # the unplaced Hermel took the report's point


def test_a_matched_place_keeps_the_other_spelling_as_an_alias():
    new = places(place("arsal", "Ersal", ARSAL, pid="ersal"))
    out, *_ = add_report(STORY_PLACES, events(), [FIRST], new, events(), SECOND)
    assert out.loc["arsal", "aliases"] == "Ersal" and out.loc["arsal", "name"] == "Arsal"


NEAR = "ras-baalbek"


@pytest.mark.parametrize(
    ("old", "new", "merged"),
    [
        pytest.param(event("arsal"), event("arsal"), True, id="same"),
        pytest.param(event("arsal"), event("arsal", day=date(2017, 8, 2)), True, id="next-day"),
        pytest.param(event("arsal"), event("arsal", day=date(2017, 8, 3)), False, id="two-days"),
        pytest.param(
            event("arsal", day=date(2017, 7, 28), end=date(2017, 7, 31)),
            event("arsal", day=date(2017, 8, 1)),
            True,
            id="range-touches",
        ),
        pytest.param(event("arsal"), event("arsal", "airstrike"), True, id="same-family"),
        pytest.param(event("arsal"), event("arsal", "protest"), False, id="other-family"),
        pytest.param(event("arsal"), event(NEAR), True, id="9km-away"),
        pytest.param(event("arsal"), event("tripoli"), False, id="far-away"),
        pytest.param(event("arsal"), event("Hermel"), False, id="unplaced-place"),
        pytest.param(event("arsal", keep=False), event("arsal"), False, id="story-row-unticked"),
        pytest.param(event("arsal"), event("arsal", keep=False), False, id="report-row-unticked"),
        pytest.param(event("arsal", day=None), event("arsal"), False, id="no-date"),
    ],
)
def test_same_happening(old, new, merged):
    _, out, _, notes = add_report(STORY_PLACES, events(old), [FIRST], places(), events(new), SECOND)
    assert len(out) == (1 if merged else 2)
    assert out.loc[0, "source"] == ("article|valley-courier" if merged else "article")
    if not merged:
        assert out.loc[1, "source"] == "valley-courier"
        assert notes[2] == "No event matched one already in the story; 1 added."


@pytest.mark.parametrize(
    ("old", "new", "figures", "confidence", "note"),
    [
        pytest.param({"killed": 10}, {"killed": 10}, {"killed": 10}, "reported", "", id="equal"),
        pytest.param({}, {"killed": 12}, {"killed": 12}, "reported", "", id="story-has-none"),
        pytest.param({"killed": 10}, {}, {"killed": 10}, "reported", "", id="report-has-none"),
        pytest.param(
            {"killed": 10},
            {"killed": 12, "wounded": 20},
            {"killed": 10, "wounded": 20},
            "disputed",
            "Valley Courier gives 12 killed; Border Wire gives 10.",
            id="differ",
        ),
        pytest.param(
            {"killed": 10, "wounded": 25},
            {"killed": 12, "wounded": 30},
            {"killed": 10, "wounded": 25},
            "disputed",
            "Valley Courier gives 12 killed and 30 wounded; Border Wire gives 10 killed and"
            " 25 wounded.",
            id="two-differ",
        ),
        pytest.param(
            {"displaced": 7000},
            {"displaced": 12000},
            {"displaced": 7000},
            "disputed",
            "Valley Courier gives 12,000 displaced; Border Wire gives 7,000.",
            id="thousands",
        ),
    ],
)
def test_figures_of_a_merged_event(old, new, figures, confidence, note):
    _, out, _, notes = add_report(
        STORY_PLACES,
        events(event("arsal", **old)),
        [FIRST],
        places(),
        events(event("arsal", **new)),
        SECOND,
    )
    assert len(out) == 1
    row = out.iloc[0]
    assert {c: int(row[c]) for c in FIGURES if pd.notna(row[c])} == figures
    assert (row["confidence"], row["confidence_note"]) == (confidence, note)
    differ = " (figures differ: marked disputed)" if confidence == "disputed" else ""
    assert notes[2] == f"1 event merged with one already in the story{differ}; 0 added."
    # The loader's rule: a note giving figures of its own needs 'disputed'.
    own = [int(row[c]) for c in FIGURES if pd.notna(row[c])]
    assert bool(checks.other_figures(note, own)) == (confidence == "disputed")


def test_a_third_report_names_every_earlier_source():
    story = events(event("arsal", source="article|valley-courier", killed=10))
    sources = [FIRST, {**SECOND, "id": "valley-courier"}]
    third = {"id": "article", "publication": "Hills Daily", "date": DAY, "url": ""}
    _, out, srcs, _ = add_report(
        STORY_PLACES, story, sources, places(), events(event("arsal", killed=9)), third
    )
    assert out.loc[0, "source"] == "article|valley-courier|hills-daily"
    assert out.loc[0, "confidence_note"] == (
        "Hills Daily gives 9 killed; Border Wire and Valley Courier give 10."
    )
    assert [s["id"] for s in srcs] == ["article", "valley-courier", "hills-daily"]


def test_closest_pairs_merge_first_whatever_the_report_order():
    story = events(event("arsal", killed=10))
    # The report's first event is 9 km off; its second is at Arsal itself: that one merges.
    new = events(event(NEAR), event("arsal", killed=10))
    _, out, _, notes = add_report(STORY_PLACES, story, [FIRST], places(), new, SECOND)
    assert out["place"].tolist() == ["arsal", NEAR]
    assert out["source"].tolist() == ["article|valley-courier", "valley-courier"]
    assert notes[2] == "1 event merged with one already in the story; 1 added."


@pytest.mark.parametrize(
    ("sources", "publication", "expected"),
    [
        pytest.param([FIRST], "Valley Courier", "valley-courier", id="publication-slug"),
        pytest.param([FIRST], "Border Wire", "border-wire", id="same-publication-free-slug"),
        pytest.param(
            [FIRST, {"id": "border-wire", "publication": "Border Wire"}],
            "Border Wire",
            "article-2",
            id="slug-taken",
        ),
        pytest.param([FIRST], "", "article-2", id="no-publication"),
        pytest.param([FIRST], "***", "article-2", id="nothing-to-slug"),
        pytest.param(
            [FIRST, {"id": "article-2"}, {"id": "article-3"}], "", "article-4", id="numbers-taken"
        ),
    ],
)
def test_source_id(sources, publication, expected):
    assert source_id({"publication": publication}, sources) == expected


def test_inputs_are_not_changed():
    story_events = events(event("arsal", killed=10))
    new_places = places(place("x", "Arsal", ARSAL, pid="x"))
    new_events = events(event("x", killed=12))
    before = [STORY_PLACES.copy(), story_events.copy(), new_places.copy(), new_events.copy()]
    sources = [FIRST]
    add_report(STORY_PLACES, story_events, sources, new_places, new_events, SECOND)
    after = [STORY_PLACES, story_events, new_places, new_events]
    for a, b in zip(before, after, strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert sources == [FIRST] and SECOND["id"] == "article"


def test_an_empty_story_takes_the_whole_report():
    new_places = places(place("arsal", "Arsal", ARSAL))
    new_events = events(event("arsal", killed=12))
    out_p, out_e, srcs, notes = add_report(
        places(), events(), [FIRST], new_places, new_events, SECOND
    )
    assert out_p["id"].tolist() == ["arsal"] and out_e["killed"].tolist() == [12]
    assert out_e["killed"].dtype == "Int64" and srcs[-1]["id"] == "valley-courier"
    assert notes[1:] == [
        "0 places matched the story's, 1 added.",
        "No event matched one already in the story; 1 added.",
    ]


def test_story_events_without_a_source_column_cite_the_first_source():
    story = events(event("arsal", killed=10)).drop(columns=["source", "confidence_note"])
    _, out, _, _ = add_report(
        STORY_PLACES, story, [FIRST], places(), events(event("arsal")), SECOND
    )
    assert out.loc[0, "source"] == "article|valley-courier"
    assert out.loc[0, "confidence_note"] == ""


# --- one real pair: two reports of the same shelling, with different death tolls --------------


@pytest.fixture(scope="module")
def gazetteer(gazetteer_cache):
    story_places = pd.read_csv(FIXTURES / "places.csv", dtype=str, keep_default_na=False)
    return Gazetteer.load(story_places, cache_dir=gazetteer_cache)


def _draft(gazetteer, name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    text = (FIXTURES / "articles" / name).read_text()
    ex = extract(text, date(2017, 8, 2), gazetteer=gazetteer)
    p = draft_places(ex)
    e = draft_events(ex, p)
    for col, default in (("source", "article"), ("confidence_note", "")):
        if col not in e.columns:  # draft.py gains the columns separately
            e[col] = default
    return p, e


def test_two_reports_of_one_shelling(gazetteer):
    p1, e1 = _draft(gazetteer, "combine_shelling_first.txt")
    p2, e2 = _draft(gazetteer, "combine_shelling_second.txt")
    places_out, events_out, srcs, notes = add_report(p1, e1, [FIRST], p2, e2, SECOND)
    shelled = events_out[(events_out["place"] == "arsal") & (events_out["category"] == "shelling")]
    assert len(shelled) == 1
    row = shelled.iloc[0]
    assert row["source"] == "article|valley-courier"
    assert row["confidence"] == "disputed"
    assert row["killed"] == 10 and row["wounded"] == 20  # the story's toll; the other's wounded
    assert row["confidence_note"] == "Valley Courier gives 12 killed; Border Wire gives 10."
    assert checks.other_figures(row["confidence_note"], [10, 20]) == [12]
    assert [s["id"] for s in srcs] == ["article", "valley-courier"]
    assert list(places_out["id"]).count("arsal") == 1
    assert (
        "1 event merged with one already in the story (figures differ: marked disputed)"
        in (notes[2])
    )
