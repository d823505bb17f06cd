"""The fatalities, country and text filters: pandas for a small story (geo.story.timeline), the
same answers as the store's SQL for a big one, and their URL values (geo.story.urlstate)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.story import events_store
from geo.story.events_store import Narrow, narrowed_window, open_store
from geo.story.load import load_story
from geo.story.timeline import (
    TEXT_MAX,
    clean_text,
    country_cells,
    narrow_events,
    narrow_mask,
    place_countries,
    story_countries,
)
from geo.story.urlstate import View, parse_view, to_params
from tests.helpers import MINI

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

AUG = (date(2017, 8, 1), date(2017, 8, 31))


@pytest.fixture(scope="module")
def mini():
    return load_story(MINI)


def with_killed(events: pd.DataFrame, figures: dict[str, float]) -> pd.DataFrame:
    """The mini story's events (none has a toll) with ``killed`` figures by event id."""
    out = events.copy()
    out["killed"] = out["id"].map(figures).astype("Float64")
    return out


@pytest.mark.parametrize(
    ("narrow", "expected"),
    [
        (None, ["e1", "e2", "e3", "e4", "e6", "e5"]),
        (Narrow(), ["e1", "e2", "e3", "e4", "e6", "e5"]),
        (Narrow(killed=(0, 10)), ["e1", "e3"]),  # no figure: left out
        (Narrow(killed=(3, 3)), ["e3"]),
        (Narrow(killed=(11, None)), ["e4"]),
        (Narrow(killed=(None, 0)), ["e1"]),
        (Narrow(countries=("SY",)), ["e6"]),  # cells compared whole: LB|SY is its own cell
        (Narrow(countries=("LB|SY", "SY")), ["e2", "e3", "e6"]),
        (Narrow(countries=()), []),
        (Narrow(text="baalbek"), ["e4", "e5"]),
        (Narrow(text="BAALBEK"), ["e4", "e5"]),
        (Narrow(text="us says about"), ["e4"]),  # a confidence note
        (Narrow(text="¶4"), ["e4"]),  # a source detail
        (Narrow(text="a.*"), []),  # plain text, never a pattern
        (Narrow(text="(["), []),
        (Narrow(text="%"), []),
        (Narrow(text="  "), ["e1", "e2", "e3", "e4", "e6", "e5"]),  # blank: no search
        (Narrow(killed=(0, 100), text="a"), ["e1", "e3", "e4"]),
    ],
)
def test_narrow_events(mini, narrow, expected):
    events = with_killed(mini.events, {"e1": 0, "e3": 3, "e4": 12})
    assert list(narrow_events(events, mini.places, narrow)["id"]) == expected
    assert narrow_mask(events, mini.places, narrow).sum() == len(expected)


@pytest.mark.parametrize(
    ("narrow", "expected"),
    [
        (Narrow(admin1=("Baalbek-Hermel",)), ["e1", "e4", "e5"]),
        (Narrow(admin1=("Homs", "Nowhere")), ["e6"]),
        (Narrow(admin1=()), []),
        (Narrow(sub_types=("Armed clash",)), ["e1", "e3"]),
        (Narrow(sub_types=("Armed clash", "Shelling")), ["e1", "e3", "e6"]),
        (Narrow(sub_types=("",)), ["e2", "e4", "e5"]),  # only an exact value matches
        (Narrow(sub_types=()), []),
        (Narrow(admin1=("Baalbek-Hermel",), sub_types=("Armed clash",)), ["e1"]),
    ],
)
def test_admin1_and_sub_types(mini, narrow, expected):
    places = mini.places.copy()
    regions = {"palmyra": "Homs"}
    places["admin1"] = places["id"].map(regions).fillna("Baalbek-Hermel")
    places.loc[places["country"] == "LB|SY", "admin1"] = ""
    events = mini.events.copy()
    events["sub_type"] = events["id"].map(
        {"e1": "Armed clash", "e3": "Armed clash", "e6": "Shelling"}
    )
    events["sub_type"] = events["sub_type"].fillna("")
    assert list(narrow_events(events, places, narrow)["id"]) == expected


def test_old_frames_without_the_columns_match_no_region(mini):
    places = mini.places.drop(columns=["admin1"])
    events = mini.events.drop(columns=["sub_type"])
    assert narrow_events(events, places, Narrow(admin1=("Homs",))).empty
    assert narrow_events(events, places, Narrow(sub_types=("Armed clash",))).empty


def test_narrow_events_on_no_events_keeps_the_columns(mini):
    empty = mini.events.iloc[0:0]
    out = narrow_events(empty, mini.places, Narrow(killed=(0, 1), text="x", countries=("LB",)))
    assert out.empty and list(out.columns) == list(mini.events.columns)


@pytest.mark.parametrize(
    ("cell", "codes"),
    [("LB", ["LB"]), ("LB|SY", ["LB", "SY"]), (" sy ", ["SY"]), ("", []), (None, [])],
)
def test_place_countries(cell, codes):
    assert place_countries(cell) == codes


def test_story_countries_and_cells(mini):
    assert story_countries(mini.places) == ["LB", "SY"]
    assert story_countries(mini.places, ["palmyra"]) == ["SY"]
    assert country_cells(mini.places, ["SY"]) == ("LB|SY", "SY")
    assert country_cells(mini.places, ["lb"]) == ("LB", "LB|SY")
    assert country_cells(mini.places, ["FR"]) == ()


@pytest.mark.parametrize(
    ("typed", "clean"),
    [
        ("  Arsal  road ", "Arsal road"),
        ("", None),
        ("\t\n", None),
        ("a\x00b", "a b"),
        ("x" * (TEXT_MAX + 50), "x" * TEXT_MAX),
        (None, None),
        (12, None),
    ],
)
def test_clean_text(typed, clean):
    assert clean_text(typed) == clean


# --- the same answers from the store's SQL ----------------------------------------------------


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A synthetic story loaded with pandas, and the same story opened as a big one."""
    folder = generate_story(tmp_path_factory.mktemp("stories"), 2000, seed=5)
    cache = tmp_path_factory.mktemp("cache")
    small = load_story(folder)
    store = open_store(folder, cache, in_process=True)
    # As open_story gives it: the kept columns in memory, the rest in the store.
    return small, small.__class__(
        **{**small.__dict__, "events": store.light_events(), "store": store}
    )


@pytest.mark.parametrize(
    "narrow",
    [
        Narrow(killed=(1, 20)),
        Narrow(countries=("SY",)),
        Narrow(text="near"),
        Narrow(text="NEAR Ar"),
        Narrow(killed=(0, 5), countries=("LB", "SY"), text="a"),
        Narrow(admin1=("Aleppo Governorate", "Idlib Governorate")),
        Narrow(sub_types=("Armed clash",)),
        Narrow(countries=("SY",), admin1=("Homs Governorate",), sub_types=("Air/drone strike",)),
    ],
)
@pytest.mark.parametrize("categories", [None, ["battle", "airstrike"]])
def test_small_and_big_stories_narrow_alike(big, narrow, categories):
    small, stored = big
    start, end = date(2017, 2, 1), date(2017, 9, 30)
    want = narrowed_window(small, start, end, categories, None, narrow)
    got = narrowed_window(stored, start, end, categories, None, narrow, full_upto=10**6)
    assert len(want) > 0 or narrow.text
    assert list(got["id"]) == list(want["id"])
    light = narrowed_window(stored, start, end, categories, None, narrow)
    assert len(light) == len(want)
    if len(want):  # only the map's columns, in memory or not (an empty window has every one)
        assert list(light.columns) == list(events_store.MAP_COLUMNS)


def test_a_big_storys_filter_is_applied_once_and_its_windows_slice_it(big):
    """The events through the last in-memory filter are kept: a second window (a slider move,
    the charts) slices them; another filter replaces them."""
    small, stored = big
    aug, sep = (date(2017, 8, 1), date(2017, 8, 31)), (date(2017, 9, 1), date(2017, 9, 30))
    killed = Narrow(killed=(1, 20))
    first = narrowed_window(stored, *aug, None, None, killed)
    kept = events_store._through(stored, killed)
    assert events_store._through(stored, Narrow(killed=(1, 20))) is kept
    second = narrowed_window(stored, *sep, None, None, killed)
    assert set(first.index) | set(second.index) <= set(kept.index)
    for window, (start, end) in ((first, aug), (second, sep)):
        want = narrowed_window(small, start, end, None, None, killed)
        assert list(window.index) == list(want.index) and len(want)
    syria = Narrow(countries=("SY",))
    assert events_store._through(stored, syria) is not kept
    assert len(events_store._through(stored, syria)) != len(kept)


# --- links -----------------------------------------------------------------------------------


def parse(params: dict, countries=("LB", "SY")):
    return parse_view(
        params,
        stories=["mini"],
        default_story="mini",
        span_of=lambda s: AUG,
        categories_of=lambda s: ["speech"],
        actors_of=lambda s: [],
        countries_of=lambda s: list(countries),
        regions_of=lambda s: ["Idleb", "Baalbek-Hermel", "Mount Lebanon, North"],
        sub_types_of=lambda s: ["Armed clash", "Air/drone strike"],
    )


@pytest.mark.parametrize(
    ("params", "admin1", "subs", "n_notices"),
    [
        ({"admin1": "Idleb|Baalbek-Hermel|Idleb"}, ("Idleb", "Baalbek-Hermel"), (), 0),
        ({"admin1": "Mount Lebanon, North"}, ("Mount Lebanon, North",), (), 0),  # a comma
        ({"sub": "Air/drone strike"}, (), ("Air/drone strike",), 0),
        ({"admin1": "idleb"}, (), (), 1),  # names are matched exactly
        ({"admin1": "<script>|Idleb"}, ("Idleb",), (), 1),
        ({"sub": "Armed clash" + "|x" * 1500}, (), ("Armed clash",), 1),  # clipped, counted
        ({"admin1": "|||"}, (), (), 0),
    ],
)
def test_links_carry_regions_and_sub_types(params, admin1, subs, n_notices):
    view, notices = parse(params)
    assert (view.admin1, view.sub_types) == (admin1, subs)
    assert len(notices) == n_notices and all(len(n) < 400 for n in notices)
    written = to_params(view, default_story="mini", span=AUG)
    assert parse(written) == (view, [])


@pytest.mark.parametrize(
    ("params", "killed", "countries", "text"),
    [
        ({"killed": "0-12"}, (0, 12), (), None),
        ({"killed": "5-5"}, (5, 5), (), None),
        ({"country": "SY,LB,SY"}, None, ("SY", "LB"), None),
        ({"q": "  Arsal   road "}, None, (), "Arsal road"),
        ({"q": "x" * TEXT_MAX}, None, (), "x" * TEXT_MAX),
    ],
)
def test_links_carry_the_filters(params, killed, countries, text):
    view, notices = parse(params)
    assert (view.killed, view.countries, view.text) == (killed, countries, text)
    assert notices == []
    written = to_params(view, default_story="mini", span=AUG)
    assert parse(written) == (view, [])  # the written link opens the same view


@pytest.mark.parametrize(
    "params",
    [
        {"killed": "12-0"},
        {"killed": "-1-3"},
        {"killed": "1-"},
        {"killed": "０-1"},
        {"killed": "0-1234567890"},
        {"killed": "0-1" + "0" * 3000},
        {"country": "FR"},
        {"country": "lb"},
        {"country": "<script>"},
        {"q": "x" * (TEXT_MAX + 1)},
        {"q": "a\x00b"},
        {"q": "a\u202eb"},
    ],
)
def test_bad_filter_values_are_ignored_with_a_notice(params):
    view, notices = parse(params)
    assert (view.killed, view.countries, view.text) == (None, (), None)
    assert len(notices) == 1 and len(notices[0]) < 400


def test_a_view_without_filters_writes_none():
    params = to_params(View("mini", *AUG), default_story="mini", span=AUG)
    assert params == {}
